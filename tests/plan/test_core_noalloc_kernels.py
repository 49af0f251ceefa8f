"""The ``_search`` kernels that compile without reference counting (issue 40, round 12).

``_expand``, ``_settle``, ``_ring``, ``_labelled_field``, ``_unpack_into``
and the heading search's ``_expand_cells`` allocate nothing: their callers
allocate. Two of them changed where they keep data to get there -- the
small-component reset of ``_labelled_field`` keeps the component's labels
in the wave's queue, past its cells, and the heading search writes its
path into an array ``bin_search`` allocates -- so these tests check those
two against independent references at their edges (every grid of a few
cells, a path much longer than the grid), and that the kernels stay
compiled as such.
"""

from collections import deque

import numpy as np
import pytest
from scipy.sparse import csgraph

from robomaze import _search as core
from robomaze._search import _bins, _dijkstra, _engine, _octile

from tests.plan.test_core_heading import path_cost, state_graph


def textbook(free: np.ndarray, goal) -> np.ndarray:
    """Breadth-first step counts, -1 where blocked or unreachable (a plain queue)."""
    rows, cols = free.shape
    dist = np.full(free.shape, -1, np.int64)
    if not free[goal]:
        return dist
    dist[goal] = 0
    queue = deque([goal])
    while queue:
        r, c = queue.popleft()
        for rr, cc in ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)):
            if 0 <= rr < rows and 0 <= cc < cols and free[rr, cc] and dist[rr, cc] < 0:
                dist[rr, cc] = dist[r, c] + 1
                queue.append((rr, cc))
    return dist


def test_every_small_component_keeps_its_labels_on_thin_and_tiny_grids():
    # the labels wait in queue[expanded:2 * expanded]: the queue
    # (rows * cols + 8 long) must hold them on the smallest grids too, where
    # the border is most of the padded array
    rng = np.random.default_rng(40)
    small = 0
    for rows in range(1, 7):
        for cols in range(1, 7):
            for _ in range(6):
                free = rng.random((rows, cols)) > 0.45
                for goal in np.argwhere(free):
                    goal = tuple(int(v) for v in goal)
                    field, reached = core.bfs_field(free.view(np.uint8).ravel(), rows, cols,
                                                    goal[0] * cols + goal[1], False)
                    want = textbook(free, goal)
                    assert np.array_equal(field, want), (rows, cols, goal)
                    assert reached == int((want >= 0).sum())
                    small += reached < free.sum() and reached * 8 < (rows + 2) * (cols + 2)
    assert small > 50          # the branch under test ran, many times


def test_small_component_of_a_long_grid_next_to_a_large_one():
    # one free cell walled off in a corner of a 3 x 200 corridor: the largest
    # grid shape where the reset is a small share of the queue, and a
    # component of a few cells whose labels must come back exactly
    free = np.ones((3, 200), bool)
    free[:, 3] = False
    for goal in [(0, 0), (1, 1), (2, 2), (1, 100)]:
        field, reached = core.bfs_field(free.view(np.uint8).ravel(), 3, 200,
                                        goal[0] * 200 + goal[1], False)
        want = textbook(free, goal)
        assert np.array_equal(field, want)
        assert reached == int((want >= 0).sum())


@pytest.mark.parametrize("conn8", [False, True])
def test_heading_path_much_longer_than_the_grid_costs_what_scipy_says(conn8):
    # a corridor whose cell c is free in bins 3c .. 3c + 3 (mod 12) only: each
    # step needs three rotations first, so the path (about 4 states a cell)
    # is longer than the grid has cells, and read back into bin_search's
    # array it must chain, with scipy's cost
    nb, R, C = 12, 3, 14
    free_b = np.zeros((nb, R, C), bool)
    for c in range(C):
        for j in range(4):
            free_b[(3 * c + j) % nb, 1, c] = True
    free_b[:, 0, 5] = True                          # a side cell free in every bin
    rot = 0.25
    N = R * C
    start, goal = 1 * C + 0, 1 * C + C - 1
    starts = [0 * N + start]
    for goal_bin in (-1, 4, 6):                     # the goal cell is free in bins 3-6
        states, expanded = core.heading_path(free_b, np.array(starts), goal, goal_bin,
                                             conn8=conn8, rot_cost=rot)
        G = state_graph(free_b, conn8, rot)
        dist = csgraph.dijkstra(G, indices=starts, min_only=True)
        want = dist[[k * N + goal for k in range(nb)]].min() if goal_bin < 0 else \
            dist[goal_bin * N + goal]
        assert states[0] == starts[0] and states[-1] % N == goal
        assert goal_bin < 0 or states[-1] // N == goal_bin
        assert path_cost(states, N, C, rot) == pytest.approx(want, abs=1e-9)
        assert states.dtype == np.int64 and states.flags.owndata   # not a view of the pool
        assert expanded > 0 and states.shape[0] > R * C


def test_unreachable_heading_goal_gives_an_empty_int64_path():
    free_b = np.ones((4, 5, 5), bool)
    free_b[:, :, 2] = False                       # a wall across every bin
    states, _ = core.heading_path(free_b, np.array([0]), 4, -1, conn8=True, rot_cost=0.5)
    assert states.shape == (0,) and states.dtype == np.int64


@pytest.mark.parametrize("kernel", [_engine._expand, _dijkstra._settle, _octile._ring,
                                    _bins._expand_cells, core._labelled_field, core._unpack_into])
def test_the_kernels_compile_without_reference_counting(kernel):
    # an allocation added to one of them fails its compile (numba refuses
    # to allocate without NRT) instead of bringing the reference counts back
    assert kernel.targetoptions.get("_nrt") is False


def two_stack_astar_with_closed_set(free: np.ndarray, s, t):
    """The 4-connected unit A* of ``_astar4`` as written before round 12: two
    stacks (f and f + 2), deepest node first, stale entries found by a closed
    set. ``(cells, expanded)``, cells read back through neighbours one lower."""
    rows, cols = free.shape
    h = lambda v: abs(v[0] - t[0]) + abs(v[1] - t[1])   # noqa: E731
    g = {s: 0}
    closed = set()
    cur, nxt, fcur, expanded = [s], [], h(s), 0
    while True:
        if not cur:
            if not nxt:
                break
            cur, nxt, fcur = nxt, [], fcur + 2
        v = cur.pop()
        if v in closed:
            continue
        closed.add(v)
        expanded += 1
        if v == t:
            break
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            w = (v[0] + dr, v[1] + dc)
            if not (0 <= w[0] < rows and 0 <= w[1] < cols) or not free[w]:
                continue
            if w not in g or g[v] + 1 < g[w]:
                g[w] = g[v] + 1
                (cur if g[w] + h(w) == fcur else nxt).append(w)
    if t not in closed:
        return [], expanded
    path, v = [t], t
    while g[v]:
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            w = (v[0] + dr, v[1] + dc)
            if 0 <= w[0] < rows and 0 <= w[1] < cols and free[w] and g.get(w, -1) == g[v] - 1:
                v = w
                break
        path.append(v)
    return [r * cols + c for r, c in reversed(path)], expanded


def test_astar4_without_a_closed_array_pops_what_the_closed_set_version_pops():
    # stale entries are now told by their f: the same expansions, in the same
    # order (the expansion counts and the deepest-first paths agree)
    rng = np.random.default_rng(4012)
    for k in range(60):
        rows, cols = (int(v) for v in rng.integers(1, 28, size=2))
        free = rng.random((rows, cols)) >= (0.0, 0.2, 0.35, 0.45)[k % 4]
        cells = np.argwhere(free)
        if not len(cells):
            continue
        s, t = (tuple(int(v) for v in cells[rng.integers(len(cells))]) for _ in range(2))
        want, want_expanded = two_stack_astar_with_closed_set(free, s, t)
        got, expanded = core.shortest_path(free, s[0] * cols + s[1], t[0] * cols + t[1],
                                           conn8=False, hmode=1)
        assert got.tolist() == want and expanded == want_expanded, (k, rows, cols, s, t)
