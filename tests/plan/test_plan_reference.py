"""Wavefront, Dijkstra and A* against scipy.sparse.csgraph on the same graph."""

from pathlib import Path as FsPath

import numpy as np
import pytest
import scipy.sparse as sp
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph
from shapely.geometry import LineString, box

from robomaze import Maze, OccupancyGrid, widen
from robomaze.errors import NoPathError
from robomaze.plan import astar, dijkstra, plan, wavefront, wavefront_field

DATA = FsPath(__file__).resolve().parents[1] / "data"


def grid_graph(free, conn8, unit_diagonal=False):
    """CSR graph of free cells: 4 moves, plus corner-free diagonals (MovingAI)."""
    R, C = free.shape
    idx = np.arange(R * C).reshape(R, C)
    rows, cols, w = [], [], []
    moves = [(0, 1), (1, 0)] + ([(1, 1), (1, -1)] if conn8 else [])
    for dr, dc in moves:
        r0, r1 = 0, R - dr
        c0, c1 = max(0, -dc), C - max(0, dc)
        a = free[r0:r1, c0:c1]
        b = free[r0 + dr:r1 + dr, c0 + dc:c1 + dc]
        ok = a & b
        if dr and dc:
            ok &= free[r0 + dr:r1 + dr, c0:c1] & free[r0:r1, c0 + dc:c1 + dc]
        src = idx[r0:r1, c0:c1][ok]
        dst = idx[r0 + dr:r1 + dr, c0 + dc:c1 + dc][ok]
        rows.append(src)
        cols.append(dst)
        cost = 1.0 if (not (dr and dc) or unit_diagonal) else np.sqrt(2.0)
        w.append(np.full(src.size, cost))
    return sp.csr_matrix((np.concatenate(w), (np.concatenate(rows), np.concatenate(cols))),
                         shape=(R * C, R * C))


def spanning_maze(rows, cols, seed, extra=0):
    """A random perfect maze (MST of random weights), plus ``extra`` loops."""
    rng = np.random.default_rng(seed)
    idx = np.arange(rows * cols).reshape(rows, cols)
    a = np.concatenate([idx[:, :-1].ravel(), idx[:-1, :].ravel()])
    b = np.concatenate([idx[:, 1:].ravel(), idx[1:, :].ravel()])
    w = rng.random(a.size) + 0.01
    t = csgraph.minimum_spanning_tree(sp.csr_matrix((w, (a, b)), shape=(rows * cols,) * 2)).tocoo()
    ea, eb = list(t.row), list(t.col)
    for i in rng.choice(a.size, size=min(extra, a.size), replace=False):
        ea.append(a[i])
        eb.append(b[i])
    return Maze.from_edges(rows, cols, np.array(ea), np.array(eb))


def check_path(grid, path, s, g, conn):
    c = path.cells
    assert tuple(c[0]) == tuple(s) and tuple(c[-1]) == tuple(g)
    d = np.diff(c, axis=0)
    assert (np.abs(d).max(axis=1) == 1).all()                       # connected moves
    if conn == 4:
        assert (np.abs(d).sum(axis=1) == 1).all()
    assert grid.free[c[:, 0], c[:, 1]].all()
    diag = np.abs(d).sum(axis=1) == 2
    for (r, cc), (dr, dc) in zip(c[:-1][diag], d[diag]):             # no corner cutting
        assert grid.free[r + dr, cc] and grid.free[r, cc + dc]
    # collision-free per shapely: the polyline never touches an occupied square
    res = grid.resolution
    occ = [box(x - res / 2, y - res / 2, x + res / 2, y + res / 2)
           for x, y in grid.cells_to_world(np.argwhere(grid.occupied))]
    if occ and len(c) > 1:
        assert LineString(path.points).distance(shapely.union_all(occ)) > 0
    assert path.collision_free


def compare(grid, s, g, conn):
    R, C = grid.shape
    free = grid.free
    si, gi = s[0] * C + s[1], g[0] * C + g[1]
    D = csgraph.dijkstra(grid_graph(free, conn == 8), directed=False, indices=si)
    U = csgraph.dijkstra(grid_graph(free, conn == 8, True), directed=False, indices=gi)
    field = wavefront_field(grid, g, connectivity=conn)
    ref_field = np.where(np.isinf(U), -1, U).reshape(R, C).astype(int)
    ref_field[grid.occupied] = -1
    assert np.array_equal(field, ref_field)
    if np.isinf(D[gi]):
        for fn in (wavefront, dijkstra, astar):
            with pytest.raises(NoPathError):
                fn(grid, s, g, connectivity=conn)
        return
    for fn in (dijkstra, astar):
        p = fn(grid, s, g, connectivity=conn)
        assert p.length == pytest.approx(D[gi] * grid.resolution, abs=1e-9)
        check_path(grid, p, s, g, conn)
    for bends in (False, True):
        p = wavefront(grid, s, g, connectivity=conn, fewest_bends=bends)
        assert len(p) - 1 == U[si]
        check_path(grid, p, s, g, conn)


@settings(deadline=None, max_examples=40)
@given(seed=st.integers(0, 10**6), rows=st.integers(1, 14), cols=st.integers(2, 14),
       density=st.floats(0.0, 0.45), conn=st.sampled_from([4, 8]))
def test_random_grids_match_csgraph(seed, rows, cols, density, conn):
    rng = np.random.default_rng(seed)
    occ = rng.random((rows, cols)) < density
    free = np.argwhere(~occ)
    if len(free) < 2:
        return
    i, j = rng.choice(len(free), 2, replace=False)
    compare(OccupancyGrid(occ, resolution=0.5), tuple(free[i]), tuple(free[j]), conn)


@settings(deadline=None, max_examples=25)
@given(seed=st.integers(0, 10**6), rows=st.integers(1, 6), cols=st.integers(2, 7),
       k=st.integers(1, 4), t=st.integers(1, 2), extra=st.integers(0, 4),
       conn=st.sampled_from([4, 8]))
def test_widened_mazes_match_csgraph(seed, rows, cols, k, t, extra, conn):
    m = spanning_maze(rows, cols, seed, extra)
    g = widen(m, corridor=k, wall=t)
    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, rows, 2), rng.integers(0, cols, 2)
    s, goal = g.maze_centre((a[0], b[0])), g.maze_centre((a[1], b[1]))
    compare(g, s, goal, conn)
    if extra == 0 and conn == 4 and k == 1:
        # one-cell corridors: the grid distance is the maze distance times k + t
        # (wider corridors let the grid path cut the inside of every corner)
        p = plan(g, s, goal, method="astar")
        dm = m.distances((a[0], b[0]))[a[1], b[1]]
        assert p.length_cells == pytest.approx(dm)


def test_movingai_optimal_lengths():
    mp = DATA / "movingai" / "maze512-1-0.map"
    sc = DATA / "movingai" / "maze512-1-0.map.scen"
    if not mp.exists() or not sc.exists():
        pytest.fail("MovingAI sample data not present")
    lines = mp.read_text().splitlines()
    h = int(lines[1].split()[1])
    body = lines[4:4 + h]
    occ = np.array([[ch not in ".G" for ch in row] for row in body])
    g = OccupancyGrid(occ)
    probs = [ln.split() for ln in sc.read_text().splitlines()[1:] if ln.strip()]
    for pr in probs[::600]:
        x0, y0, x1, y1, opt = int(pr[4]), int(pr[5]), int(pr[6]), int(pr[7]), float(pr[8])
        p = astar(g, (y0, x0), (y1, x1), connectivity=8)
        assert p.length == pytest.approx(opt, abs=1e-3)


def test_fewest_bends_matches_brute_force():
    # Dijkstra over (cell, direction) states with lexicographic (moves, bends) costs
    import heapq
    rng = np.random.default_rng(7)
    for _ in range(30):
        occ = rng.random((6, 7)) < 0.2
        free = np.argwhere(~occ)
        if len(free) < 2:
            continue
        i, j = rng.choice(len(free), 2, replace=False)
        s, goal = tuple(free[i]), tuple(free[j])
        g = OccupancyGrid(occ)
        try:
            p = wavefront(g, s, goal, fewest_bends=True)
        except NoPathError:
            continue
        moves = [(-1, 0), (0, 1), (1, 0), (0, -1)]
        best = {}
        pq = [(0, 0, s, -1)]
        while pq:
            L, B, cell, d = heapq.heappop(pq)
            if (cell, d) in best:
                continue
            best[(cell, d)] = (L, B)
            for k, (dr, dc) in enumerate(moves):
                nr, nc = cell[0] + dr, cell[1] + dc
                if 0 <= nr < 6 and 0 <= nc < 7 and not occ[nr, nc]:
                    heapq.heappush(pq, (L + 1, B + (d >= 0 and d != k), (nr, nc), k))
        ref = min(v for (cell, _), v in best.items() if cell == goal)
        assert (len(p) - 1, p.turns) == ref
