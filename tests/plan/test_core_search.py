"""The core search engine (robomaze._search) against independent references.

Lengths and distance fields are checked against scipy.sparse.csgraph on the
same graphs built here from the masks (4/8-connected, no corner cutting,
weighted by mean cell cost); the heap against Python's sort; the wall-map
flood against a BFS over an explicit edge list.
"""

from __future__ import annotations

import ast
import math
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

from robomaze import OccupancyGrid
from robomaze import _search as core

PKG = Path(__file__).resolve().parents[2] / "robomaze"


def graph(free: np.ndarray, conn8: bool, cost: np.ndarray | None = None) -> sp.csr_matrix:
    """Grid graph: unit / sqrt(2) moves, diagonals only with both orthogonals free."""
    rows, cols = free.shape
    idx = np.arange(rows * cols).reshape(rows, cols)
    a, b, w = [], [], []
    moves = [(0, 1), (1, 0)] + ([(1, 1), (1, -1)] if conn8 else [])
    for dr, dc in moves:
        for r in range(rows):
            for c in range(cols):
                rr, cc = r + dr, c + dc
                if not (0 <= rr < rows and 0 <= cc < cols) or not (free[r, c] and free[rr, cc]):
                    continue
                if dr and dc and not (free[rr, c] and free[r, cc]):
                    continue
                length = math.sqrt(2.0) if dr and dc else 1.0
                if cost is not None:
                    length *= 0.5 * (cost[r, c] + cost[rr, cc])
                a.append(idx[r, c])
                b.append(idx[rr, cc])
                w.append(length)
    n = rows * cols
    return sp.csr_matrix((w + w, (a + b, b + a)), shape=(n, n))


def random_grid(seed: int, shape=(14, 17), p=0.3) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.random(shape) > p


def pick(free: np.ndarray, rng, k: int) -> np.ndarray:
    return rng.choice(np.flatnonzero(free), k)


def path_length(cells: np.ndarray, cols: int, cost=None) -> float:
    r, c = np.divmod(cells, cols)
    step = np.hypot(np.diff(r), np.diff(c))
    assert np.all((np.abs(np.diff(r)) <= 1) & (np.abs(np.diff(c)) <= 1))
    if cost is not None:
        flat = cost.ravel()
        step = step * 0.5 * (flat[cells[:-1]] + flat[cells[1:]])
    return float(step.sum())


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("conn8", [False, True])
@pytest.mark.parametrize("hmode", [0, 1, 2])
def test_shortest_path_matches_scipy(seed, conn8, hmode):
    free = random_grid(seed)
    rng = np.random.default_rng(100 + seed)
    cost = None if seed % 2 else 1.0 + 3.0 * rng.random(free.shape)
    if hmode == 1 and conn8:
        hmode = 2   # Manhattan over-estimates diagonal moves: octile is the 8-connected bound
    G = graph(free, conn8, cost)
    grid = OccupancyGrid(~free)
    for s, t in pick(free, rng, (5, 2)):
        ref = csgraph.dijkstra(G, indices=s)[t]
        cells, expanded = core.shortest_path(free, int(s), int(t), conn8=conn8, cost=cost,
                                             hmode=hmode)
        if np.isinf(ref):
            assert cells.size == 0
            continue
        assert cells[0] == s and cells[-1] == t and free.ravel()[cells].all()
        assert path_length(cells, free.shape[1], cost) == pytest.approx(ref, rel=1e-12)
        assert expanded >= 1
        # a grid instead of its mask: the grid's cached padded mask, the same search
        cells2, expanded2 = core.shortest_path(grid, int(s), int(t), conn8=conn8, cost=cost,
                                               hmode=hmode)
        assert np.array_equal(cells2, cells) and expanded2 == expanded


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("conn8", [False, True])
def test_distance_field_matches_scipy(seed, conn8):
    free = random_grid(seed, (19, 13))
    rng = np.random.default_rng(seed)
    src = pick(free, rng, 3)
    ref = csgraph.dijkstra(graph(free, conn8), indices=src, min_only=True)
    got = core.distance_field(free, src, conn8=conn8).ravel()
    np.testing.assert_allclose(got, ref, rtol=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_batch_lengths_with_landmarks_match_scipy(seed):
    # enough pairs that the ALT landmark heuristic is used (> 4 * landmarks)
    free = random_grid(seed, (24, 21), p=0.25)
    rng = np.random.default_rng(seed)
    pairs = pick(free, rng, (60, 2))
    pairs[0, 0] = np.flatnonzero(~free.ravel())[0]         # a blocked endpoint: NaN
    G = graph(free, True)
    got = core.path_lengths(free, pairs[:, 0], pairs[:, 1], landmarks=4)
    for (s, t), v in zip(pairs, got):
        ref = csgraph.dijkstra(G, indices=s)[t] if free.ravel()[s] else np.inf
        if np.isinf(ref):
            assert np.isnan(v)
        else:
            assert v == pytest.approx(ref, rel=1e-12)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("conn8", [False, True])
def test_bfs_field_counts_moves(seed, conn8):
    free = random_grid(seed, (16, 23))
    goal = int(pick(free, np.random.default_rng(seed), 1)[0])
    G = graph(free, conn8)
    G.data[:] = 1.0
    ref = csgraph.shortest_path(G, unweighted=True, indices=goal)
    want = np.where(np.isinf(ref), -1, ref).astype(np.int32)
    dist, expanded = core.bfs_field(free.ravel().astype(np.uint8), *free.shape, goal, conn8)
    assert np.array_equal(want, dist.ravel())
    assert expanded == int(np.isfinite(ref).sum())
    # the same wave read from the occupancy (the grid's own bool array, no copy)
    occ = np.ascontiguousarray(~free)
    dist2, expanded2 = core.bfs_field(occ.view(np.uint8).ravel(), *free.shape, goal, conn8,
                                      occupied=True)
    assert np.array_equal(want, dist2.ravel()) and expanded2 == expanded


@pytest.mark.parametrize("conn8", [False, True])
def test_bfs_field_on_a_maze_reaching_every_free_cell(conn8):
    # every free cell reachable: the wave skips the pass over unreached cells
    from robomaze import widen
    from robomaze.generate import generate

    free = widen(generate("backtracker", 7, 9, rng=2), corridor=2, wall=1).free
    goal = int(np.flatnonzero(free)[5])
    G = graph(free, conn8)
    G.data[:] = 1.0
    ref = csgraph.shortest_path(G, unweighted=True, indices=goal)
    assert np.isfinite(ref[free.ravel()]).all()
    dist, expanded = core.bfs_field(free.ravel().astype(np.uint8), *free.shape, goal, conn8)
    assert np.array_equal(np.where(np.isinf(ref), -1, ref).astype(np.int32), dist.ravel())
    assert expanded == int(free.sum())


def test_bfs_path_is_shortest():
    free = random_grid(3, (15, 15), p=0.25)
    rng = np.random.default_rng(3)
    G = graph(free, False)
    for s, t in pick(free, rng, (6, 2)):
        ref = csgraph.shortest_path(G, unweighted=True, indices=s)[t]
        route = core.bfs_path(free.ravel().astype(np.uint8), *free.shape, int(s), int(t))
        if np.isinf(ref):
            assert route.size == 0
        else:
            assert len(route) - 1 == ref and route[0] == s and route[-1] == t


def _textbook_bfs_route(free: np.ndarray, s: int, t: int) -> list[int]:
    """A FIFO BFS in plain Python, parents recorded when first found (N, E, S, W)."""
    from collections import deque

    rows, cols = free.shape
    flat = free.ravel()
    parent = {s: s} if flat[s] else {}
    queue = deque(parent)
    while queue:
        u = queue.popleft()
        if u == t:
            break
        r, c = divmod(u, cols)
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            rr, cc = r + dr, c + dc
            v = rr * cols + cc
            if 0 <= rr < rows and 0 <= cc < cols and flat[v] and v not in parent:
                parent[v] = u
                queue.append(v)
    if t not in parent:
        return []
    route = [t]
    while route[-1] != s:
        route.append(parent[route[-1]])
    return route[::-1]


@pytest.mark.parametrize("seed", range(6))
def test_bfs_path_is_the_textbook_bfs_route_cell_for_cell(seed):
    # not only as short: the same cells, so the classic solvers' routes do not change
    rng = np.random.default_rng(40 + seed)
    shape = tuple(int(v) for v in rng.integers(2, 40, 2))
    free = rng.random(shape) > (0.1 + 0.1 * (seed % 4))
    flat = free.ravel().astype(np.uint8)
    for s, t in rng.integers(0, free.size, (8, 2)):
        route = core.bfs_path(flat, *shape, int(s), int(t))
        assert route.tolist() == _textbook_bfs_route(free, int(s), int(t))
        assert route.dtype == np.int64
    # other dtypes read as truth values
    s, t = (int(v) for v in np.flatnonzero(free)[[0, -1]])
    assert np.array_equal(core.bfs_path(free.ravel(), *shape, s, t),
                          core.bfs_path(free.ravel() * 0.5, *shape, s, t))
    assert core.bfs_path(free.ravel(), *shape, s, t).tolist() == _textbook_bfs_route(free, s, t)


def test_flood_edges_against_edge_list_bfs():
    rng = np.random.default_rng(5)
    rows, cols = 6, 7
    n = rows * cols
    know = rng.integers(0, 3, (n, 4)).astype(np.int8)
    # make sides consistent: the E side of a cell is the W side of its neighbour
    for u in range(n):
        r, c = divmod(u, cols)
        if c + 1 < cols:
            know[u + 1, 3] = know[u, 1]
        if r + 1 < rows:
            know[u + cols, 0] = know[u, 2]
    for unknown_open in (False, True):
        ok = (know == 1) | ((know == 0) & unknown_open)
        a, b = [], []
        for u in range(n):
            r, c = divmod(u, cols)
            if c + 1 < cols and ok[u, 1]:
                a.append(u), b.append(u + 1)
            if r + 1 < rows and ok[u, 2]:
                a.append(u), b.append(u + cols)
        G = sp.csr_matrix((np.ones(len(a)), (a, b)), shape=(n, n))
        ref = csgraph.dijkstra(G, directed=False, unweighted=True, indices=[0, 9],
                               min_only=True)
        got = core.flood_edges(know, rows, cols, np.array([0, 9]), unknown_open)
        assert np.array_equal(np.where(np.isinf(ref), -1, ref).astype(np.int32), got)


def test_heap_orders_by_key_then_larger_g():
    rng = np.random.default_rng(0)
    keys = rng.integers(0, 6, 300).astype(float)
    gs = rng.integers(0, 4, 300).astype(float)
    hk, hg, hn = np.empty(300), np.empty(300), np.empty(300, np.int64)
    size = 0
    for i in range(300):
        size = core.heap_push(hk, hg, hn, size, keys[i], gs[i], i)
    out = []
    while size:
        node, g, key, size = core.heap_pop(hk, hg, hn, size)
        out.append((key, -g))
        assert keys[node] == key and gs[node] == g
    assert out == sorted(zip(keys, -gs))


@pytest.mark.parametrize("seed", range(4))
def test_python_heap_push_matches_the_kernel(seed):
    # bin_search pushes its starts in Python: the arrays must be the kernel's, entry for entry
    # (ties on keys and on g included, which decide the pop order)
    from robomaze._search._heap import heap_push_py
    rng = np.random.default_rng(seed)
    n = 64
    keys = rng.integers(0, 6, n).astype(float)
    gs = rng.integers(0, 3, n).astype(float)
    a = [np.zeros(n), np.zeros(n), np.zeros(n, np.int64)]
    b = [np.zeros(n), np.zeros(n), np.zeros(n, np.int64)]
    sa = sb = 0
    for i in range(n):
        sa = core.heap_push(*a, sa, keys[i], gs[i], i)
        sb = heap_push_py(*b, sb, keys[i], gs[i], i)
        assert sa == sb == i + 1
        for x, y in zip(a, b):
            assert x.tolist() == y.tolist()


def test_heap_of_bare_keys():
    keys = np.random.default_rng(1).integers(0, 2**40, 200).astype(np.uint64)
    heap = np.empty(200, np.uint64)
    size = 0
    for k in keys:
        size = core.heap_push(heap, None, None, size, k, 0.0, 0)
    popped = []
    while size:
        _, _, k, size = core.heap_pop(heap, None, None, size)
        popped.append(int(k))
    assert popped == sorted(int(k) for k in keys)


#: kernels that still sift a heap of their own: Prim's small-maze kernel keeps
#: a bare-key heap inline (generator code of another round, not yet moved)
_OWN_SIFT = ("generate/_prim_small.py",)


def _sifts(tree: ast.Module) -> bool:
    """Whether the module computes a heap parent ``(i - 1) >> 1``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.RShift) and \
                isinstance(node.right, ast.Constant) and node.right.value == 1 and \
                isinstance(node.left, ast.BinOp) and isinstance(node.left.op, ast.Sub) and \
                isinstance(node.left.right, ast.Constant) and node.left.right.value == 1:
            return True
    return False


def _search_names(tree: ast.Module) -> set[str]:
    """Names of the module's numba kernels (public planners may share a name)."""
    def jitted(fn):
        return any("njit" in ast.unparse(d) or "jit" == ast.unparse(d) for d in fn.decorator_list)
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and jitted(n)}


def test_one_search_engine():
    """No module but the core defines a heap or a grid search of its own, and no
    package reaches into another package's private search kernels."""
    banned_defs = {"heap_search", "astar4", "state_search", "theta_star", "astar8_lengths",
                   "distance_field", "flood", "bfs_field", "bfs_path", "_heap_push", "_heap_pop"}
    for path in PKG.rglob("*.py"):
        if path.parent == PKG / "_search":
            continue
        if "data" in path.relative_to(PKG).parts:
            continue    # sample programs (the example mms mouse) are standalone by design
        src = path.read_text()
        tree = ast.parse(src)
        assert not (_search_names(tree) & banned_defs), f"{path}: search code outside the core"
        rel = path.relative_to(PKG).as_posix()
        # MAPF's high-level searches order Python objects (CBS's constraint-tree
        # nodes, ECBS's open/focal lists of them, LaCAM*'s rewiring over
        # configuration nodes), not grid states: the core's numba heap holds
        # numbers only. Their grid searches (space-time A*) are kernels on the
        # core's heap (checked below).
        if rel not in ("mapf/cbs.py", "mapf/ecbs.py", "mapf/lacam.py"):
            assert "import heapq" not in src, f"{path}: a second heap"
        # a binary heap's sift ((i - 1) >> 1) in a kernel is a heap of its own
        if rel not in _OWN_SIFT:
            assert not _sifts(tree), f"{path}: a binary heap outside the core"
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level >= 2:
                # from ..pkg._private import ...  /  from ..pkg import _private
                parts = node.module.split(".")
                names = [a.name for a in node.names]
                if any(p.startswith("_") and p != "_search" for p in parts[1:]) or \
                        any(n.startswith("_kernels") for n in names):
                    assert not any(k in n for n in names for k in ("search", "heap", "flood")), \
                        f"{path}: imports another package's private search kernel"
