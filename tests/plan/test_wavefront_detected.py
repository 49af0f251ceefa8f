"""Issue 40: the wavefront without widening metadata, and the wave's dispatch.

Every field is compared with an independent reference: scipy's
``shortest_path`` (unweighted BFS over the 4-connected free-cell graph)
or a plain deque BFS written here.
"""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse.csgraph import shortest_path

from robomaze import OccupancyGrid, widen
from robomaze._search import bfs_field, detected_maze_field
from robomaze._search._detect import detect_maze
from robomaze.generate import generate
from robomaze.plan.wavefront import _point_field, wavefront_field


def plain_bfs(occ: np.ndarray, goal) -> np.ndarray:
    rows, cols = occ.shape
    dist = np.full(occ.shape, -1, np.int64)
    dist[goal] = 0
    q = deque([goal])
    while q:
        r, c = q.popleft()
        for nr, nc in ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)):
            if 0 <= nr < rows and 0 <= nc < cols and not occ[nr, nc] and dist[nr, nc] < 0:
                dist[nr, nc] = dist[r, c] + 1
                q.append((nr, nc))
    return dist


def scipy_field(occ: np.ndarray, goal) -> np.ndarray:
    rows, cols = occ.shape
    idx = np.arange(rows * cols).reshape(rows, cols)
    free = ~occ
    a, b = [], []
    h = free[:, :-1] & free[:, 1:]
    a.append(idx[:, :-1][h])
    b.append(idx[:, 1:][h])
    v = free[:-1, :] & free[1:, :]
    a.append(idx[:-1, :][v])
    b.append(idx[1:, :][v])
    a, b = np.concatenate(a), np.concatenate(b)
    m = sp.coo_matrix((np.ones(a.size), (a, b)), shape=(rows * cols, rows * cols)).tocsr()
    d = shortest_path(m, directed=False, unweighted=True, indices=goal[0] * cols + goal[1])
    out = np.where(np.isfinite(d), d, -1).astype(np.int64).reshape(rows, cols)
    out[occ] = -1
    return out


@pytest.mark.parametrize("k,t,braid", [(1, 1, 0.0), (3, 1, 0.0), (2, 3, 0.0), (4, 1, 0.5),
                                       (3, 2, 0.3)])
def test_detect_reads_back_the_maze_widen_made(k, t, braid):
    maze = generate("backtracker", 7, 9, rng=3, braid=braid)
    g = widen(maze, corridor=k, wall=t)
    east, south, kk, tt, *_ = detect_maze(g.occupied)
    assert (kk, tt) == (k, t)
    assert np.array_equal(east, maze.east) and np.array_equal(south, maze.south)


@pytest.mark.parametrize("k,t,braid", [(3, 1, 0.0), (2, 2, 0.0), (5, 1, 0.4), (3, 2, 0.3)])
def test_bare_maze_field_equals_scipy(k, t, braid):
    g = widen(generate("backtracker", 12, 10, rng=5, braid=braid), corridor=k, wall=t)
    goal = g.start_goal()[1]
    ref = scipy_field(g.occupied, goal)
    out = detected_maze_field(g.occupied, goal)
    assert out is not None
    assert np.array_equal(out[0], ref)
    assert out[1] == int((ref >= 0).sum())


def test_openings_are_read_back():
    maze = generate("backtracker", 6, 6, rng=2)
    g = widen(maze, corridor=3, wall=1)
    assert g.maze.openings  # the generator opens an entrance and an exit
    *_, op_w, op_e, op_n, op_s = detect_maze(g.occupied)
    got = {(r, 0, "W") for r in np.flatnonzero(op_w)} | {(r, 5, "E") for r in np.flatnonzero(op_e)}
    got |= {(0, c, "N") for c in np.flatnonzero(op_n)} | {(5, c, "S") for c in np.flatnonzero(op_s)}
    assert got == {(int(r), int(c), s) for r, c, s in g.maze.openings}


def test_a_grid_that_only_looks_like_a_maze_falls_back_exactly():
    g = widen(generate("backtracker", 10, 10, rng=1), corridor=3, wall=1)
    occ = g.occupied.copy()
    occ[6, 6] = True  # a block cell the maze says is free (not a sampled corner)
    assert detect_maze(occ) is not None  # the sample passes...
    goal = g.start_goal()[1]
    assert detected_maze_field(occ, goal) is None  # ...the closed form's own check does not
    bare = OccupancyGrid(occ)
    assert np.array_equal(wavefront_field(bare, goal), scipy_field(occ, goal))


def test_wavefront_takes_the_closed_form_without_metadata():
    g = widen(generate("backtracker", 40, 40, rng=4), corridor=3, wall=1)
    bare = g.replace(widening=None, maze=None)
    goal = g.start_goal()[1]
    dist, _, how = _point_field(bare, goal, False)
    assert how == "maze"
    assert np.array_equal(dist, scipy_field(g.occupied, goal))


def test_not_mazes_are_not_detected():
    assert detect_maze(np.zeros((41, 41), bool)) is None
    rng = np.random.default_rng(0)
    assert detect_maze(rng.random((81, 81)) < 0.3) is None
    occ = np.zeros((41, 41), bool)
    occ[::4, :] = occ[:, ::4] = True  # rooms of 3x3 with no doors: posts and blocks fit
    found = detect_maze(occ)
    assert found is not None and found[0].all() and found[1].all()  # all walls closed


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 40), st.integers(2, 40), st.floats(0.0, 0.6), st.integers(0, 2**31),
       st.sampled_from(["random", "rows", "cols"]))
def test_bfs_field_equals_a_plain_bfs(rows, cols, density, seed, pattern):
    rng = np.random.default_rng(seed)
    occ = rng.random((rows, cols)) < density
    if pattern == "rows":  # straight corridors: the branchy level loop's grids
        occ[1::2, :] = True
        occ[1::2, rng.integers(cols)] = False
    elif pattern == "cols":
        occ[:, 1::2] = True
    free = np.argwhere(~occ)
    if free.size == 0:
        return
    goal = tuple(int(v) for v in free[rng.integers(len(free))])
    want = plain_bfs(occ, goal)
    got = bfs_field(occ.view(np.uint8).ravel(), rows, cols, goal[0] * cols + goal[1], False,
                    occupied=True)[0]
    assert np.array_equal(got, want)
    assert np.array_equal(wavefront_field(OccupancyGrid(occ), goal), want)


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 12), st.integers(2, 12), st.integers(1, 4), st.integers(1, 3),
       st.floats(0.0, 1.0), st.integers(0, 2**31))
def test_detected_field_equals_scipy_on_random_mazes(mr, mc, k, t, braid, seed):
    g = widen(generate("backtracker", mr, mc, rng=seed, braid=braid), corridor=k, wall=t)
    rng = np.random.default_rng(seed)
    free = np.argwhere(~g.occupied)
    goal = tuple(int(v) for v in free[rng.integers(len(free))])
    out = detected_maze_field(g.occupied, goal)
    ref = scipy_field(g.occupied, goal)
    if out is not None:  # None: loops below the Dijkstra's pitch, the BFS's job
        assert np.array_equal(out[0], ref)
    assert np.array_equal(wavefront_field(g.replace(widening=None, maze=None), goal), ref)


def test_a_bare_maze_compiles_no_second_closed_form():
    from robomaze._search._blockwave import _walk, _write

    g = widen(generate("backtracker", 60, 60, rng=1), corridor=3, wall=1)
    goal = g.start_goal()[1]
    assert _point_field(g, goal, False)[2] == "maze"
    before = (len(_walk.signatures), len(_write.signatures))
    assert _point_field(g.replace(widening=None, maze=None), goal, False)[2] == "maze"
    assert (len(_walk.signatures), len(_write.signatures)) == before


def test_a_defect_between_the_sampled_bands_falls_back_exactly():
    # round 9 samples one band of rows in eight: a free post or a blocked
    # block corner in another band passes the sample, and the closed form's
    # check of every cell sends the grid to the BFS -- the field stays exact
    g = widen(generate("backtracker", 30, 30, rng=3, braid=0.5), corridor=3, wall=1)
    goal = g.start_goal()[1]
    for r, c in ((3 * 4, 5 * 4), (5 * 4 + 1, 7 * 4 + 3)):     # a post; a block's corner
        occ = g.occupied.copy()
        occ[r, c] = not occ[r, c]
        assert detect_maze(occ) is not None
        assert detected_maze_field(occ, goal) is None
        assert np.array_equal(wavefront_field(OccupancyGrid(occ), goal), scipy_field(occ, goal))
