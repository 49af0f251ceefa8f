"""Braided widened mazes of pitch 4 (round 8): the packed forms against scipy csgraph.

The Dijkstra over forms (:func:`robomaze._search._blockwave._walk_loops`)
keeps one packed int64 a cell plus a pool for cells holding more, skips the
side a form came in by, and since round 8 takes pitch 4 (corridor 3, wall 1).
Every field here is compared cell for cell with scipy's unit-weight shortest
paths, with and without the widening metadata, and the cases are checked to
reach the parts they are about (cells with several forms, goals in passages).
"""

import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robomaze import widen
from robomaze._search import _blockwave as bw
from robomaze._search._detect import detect_maze
from robomaze.generate import generate
from robomaze.plan import wavefront_field
from robomaze.plan.wavefront import _point_field

from test_core_bfs_branchless import scipy_field

wavefront_module = sys.modules["robomaze.plan.wavefront"]


@pytest.fixture(autouse=True)
def closed_form_at_any_size(monkeypatch):
    """The test grids are small: the closed form wherever it applies (the pitch rule shipped)."""
    monkeypatch.setattr(wavefront_module, "_MAZE_MIN_CELLS", 0)
    monkeypatch.setattr(wavefront_module, "_MAZE_MIN_CELLS_PITCH2", 0)


def _forms(grid, goal):
    """The forms each cell holds after the walk over a widened grid's own maze.

    The walk keeps a cell's count from bit 4 of its ``cnt`` byte and its
    open sides in the low four bits (round 9).
    """
    east, south, k, t, *ops = detect_maze(grid.occupied)
    walls = bw._goal_walls(grid.rows, grid.cols, east, south, k, t, *ops, goal)
    n = east.size
    f0, cnt = np.empty(n, np.int64), np.empty(n, np.int8)
    xi, pool = np.empty(n, np.int32), np.empty((n // 8 + 64, bw._FORMS - 1), np.int64)
    assert bw._walk_loops(*walls, f0, cnt, xi, pool)
    return cnt >> 4


def test_braided_pitch4_maze_every_goal_kind_matches_scipy():
    g = widen(generate("backtracker", 24, 21, rng=7, braid=0.5), corridor=3, wall=1)
    bare = g.replace(widening=None, maze=None)
    p = 4
    goals = [(1 + 5 * p, 1 + 7 * p),          # a block's corner cell
             (2 + 9 * p, 3 + 3 * p)]          # a block's middle column
    # a cell of an open horizontal passage and of an open vertical one
    east, south = g.maze.east, g.maze.south
    r, c = map(int, np.argwhere(~east[:, :-1])[len(np.argwhere(~east[:, :-1])) // 2])
    goals.append((1 + r * p + 1, (c + 1) * p))
    r, c = map(int, np.argwhere(~south[:-1])[len(np.argwhere(~south[:-1])) // 3])
    goals.append(((r + 1) * p, 1 + c * p + 2))
    for goal in goals:
        assert not g.occupied[goal]
        ref = scipy_field(~g.occupied, goal)
        for grid in (g, bare):
            d, reached, how = _point_field(grid, goal, False)
            assert how == "maze-loops"
            np.testing.assert_array_equal(d, ref)
            assert reached == int((ref >= 0).sum())
            np.testing.assert_array_equal(wavefront_field(grid, goal), ref)
    # the case is about cells where waves meet: some hold several forms
    assert _forms(g, goals[0]).max() >= 2


def test_a_full_pool_gives_up_instead_of_writing_past_it():
    g = widen(generate("kruskal", 16, 16, rng=3, braid=1.0), corridor=3, wall=1)
    goal = (1 + 8 * 4, 1 + 8 * 4)
    east, south, k, t, *ops = detect_maze(g.occupied)
    walls = bw._goal_walls(g.rows, g.cols, east, south, k, t, *ops, goal)
    n = east.size
    f0, cnt, xi = np.empty(n, np.int64), np.empty(n, np.int8), np.empty(n, np.int32)
    assert not bw._walk_loops(*walls, f0, cnt, xi, np.empty((0, bw._FORMS - 1), np.int64))
    assert bw._walk_loops(*walls, f0, cnt, xi, np.empty((n, bw._FORMS - 1), np.int64))
    assert (cnt >> 4).max() >= 2
    # the low four bits: each cell's open sides, as the maze's walls say
    inner_e = ~east[:, :-1]
    assert np.array_equal((cnt.reshape(east.shape)[:, :-1] >> 1) & 1, inner_e.astype(np.int8))
    np.testing.assert_array_equal(bw.maze_field(g, goal)[0], scipy_field(~g.occupied, goal))


@settings(max_examples=30, deadline=None)
@given(rows=st.integers(2, 12), cols=st.integers(2, 12), k=st.sampled_from([3, 4]),
       seed=st.integers(0, 2**16), braid=st.sampled_from([0.3, 0.6, 1.0]),
       pick=st.integers(0, 10**6))
def test_braided_widened_mazes_match_scipy(rows, cols, k, seed, braid, pick):
    g = widen(generate("backtracker", rows, cols, rng=seed, braid=braid), corridor=k, wall=1)
    free = np.argwhere(~g.occupied)
    goal = tuple(int(v) for v in free[pick % len(free)])
    d, reached, how = bw.maze_field(g, goal) or (None, None, None)
    ref = scipy_field(~g.occupied, goal)
    if d is None:            # a goal in a border opening's reach or a refused walk
        return
    np.testing.assert_array_equal(d, ref)
    assert reached == int((ref >= 0).sum())
    assert how in ("tree", "loops")
