"""The pitch-2 maze walk (robomaze._search._thinmaze) against scipy csgraph and a plain BFS."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robomaze._search import detected_maze_field, maze_field
from robomaze._search._thinmaze import pitch2, thin_maze_field
from robomaze.generate import generate
from robomaze.grid import widen

from test_core_bfs_branchless import scipy_field
from test_core_sweep import plain_bfs


def thin(rows, cols, seed, *, algo="backtracker", braid=0.0):
    return widen(generate(algo, rows, cols, rng=seed, braid=braid), corridor=1, wall=1)


@pytest.mark.parametrize("algo", ["backtracker", "kruskal", "prim", "sidewinder", "binary_tree"])
def test_every_free_cell_as_goal_kind_matches_scipy(algo):
    g = thin(9, 13, 3, algo=algo)
    occ = g.occupied
    rng = np.random.default_rng(1)
    free = np.argwhere(~occ)
    # cells, passages and the openings (border cells) as goals
    picks = [tuple(p) for p in free[rng.choice(len(free), 12, replace=False)]]
    picks += [tuple(p) for p in free if p[0] in (0, occ.shape[0] - 1)
              or p[1] in (0, occ.shape[1] - 1)]
    for goal in picks:
        ref = scipy_field(~occ, goal)
        d, n = thin_maze_field(occ, goal)
        assert d.dtype == np.int32
        np.testing.assert_array_equal(d, ref)
        assert n == (ref >= 0).sum()


def test_loops_forests_and_other_grids_are_refused():
    braid = thin(10, 12, 4, braid=0.3).occupied
    assert thin_maze_field(braid, tuple(np.argwhere(~braid)[0])) is None
    g = thin(10, 12, 5)
    occ = g.occupied.copy()
    goal = g.start_goal()[1]
    assert thin_maze_field(occ, goal) is not None
    cut = occ.copy()
    # close one open inner passage: two trees (a forest) -- the BFS's business
    r, c = next((r, c) for r, c in np.argwhere(~occ) if r % 2 == 1 and c % 2 == 0
                and 0 < c < occ.shape[1] - 1)
    cut[r, c] = True
    assert thin_maze_field(cut, goal) is None
    post = occ.copy()
    post[2, 2] = False                         # a free post: not a widened maze
    assert thin_maze_field(post, goal) is None
    cell = occ.copy()
    cell[3, 5] = True                          # a blocked maze cell
    assert thin_maze_field(cell, (1, 1)) is None
    assert thin_maze_field(occ, (0, 0)) is None              # a blocked goal
    wide = widen(generate("backtracker", 5, 5, rng=1), corridor=2).occupied
    assert not pitch2(wide) and thin_maze_field(wide, (1, 1)) is None
    assert not pitch2(np.zeros((9, 9), bool))


def test_metadata_and_bare_grids_take_the_walk():
    g = thin(40, 50, 6)
    goal = g.start_goal()[1]
    ref = scipy_field(~g.occupied, goal)
    for got in (maze_field(g, goal), detected_maze_field(g.occupied, goal)):
        d, n, kind = got
        assert kind == "tree"
        np.testing.assert_array_equal(d, ref)
        assert n == (ref >= 0).sum()
    # a braided pitch-2 maze: neither (the caller's BFS)
    b = thin(20, 20, 7, braid=0.5)
    assert detected_maze_field(b.occupied, b.start_goal()[1]) is None
    assert detected_maze_field(g.occupied, goal, min_cells_pitch2=g.occupied.size + 1) is None


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 14), st.integers(1, 14), st.integers(0, 2**31 - 1))
def test_thin_maze_field_matches_the_textbook_bfs(rows, cols, seed):
    occ = thin(rows, cols, seed).occupied
    rng = np.random.default_rng(seed)
    free = np.flatnonzero(~occ)
    src = int(rng.choice(free))
    goal = divmod(src, occ.shape[1])
    d, n = thin_maze_field(occ, goal)
    ref = plain_bfs(~occ, src)
    np.testing.assert_array_equal(d, ref)
    assert n == (ref >= 0).sum()


@pytest.mark.parametrize("algo", ["backtracker", "kruskal", "binary_tree"])
def test_four_walkers_give_the_one_walks_depths_and_scipys_field(algo):
    # the side-by-side walks (round 9) against the single walk and scipy, on
    # mazes of long corridors (backtracker) and of many junctions (kruskal)
    from robomaze._search._thinmaze import cell_depths, cell_depths4, maze_sides

    g = thin(61, 47, 11, algo=algo)
    occ = g.occupied
    R, C = occ.shape[0] // 2, occ.shape[1] // 2
    sides = np.empty(R * C, np.uint8)
    assert maze_sides(occ.view(np.uint8), sides) == R * C - 1
    for cell in (0, R * C // 2 + 3, R * C - 1):
        seeds = np.array([[cell, 0, 0]], np.int64)
        one = np.full(R * C, -7, np.int32)
        four = np.full(R * C, -7, np.int32)
        assert cell_depths(sides, C, seeds, one, np.empty(R * C + 8, np.int64)) == R * C
        assert cell_depths4(sides, C, seeds, four, np.empty(R * C + 32, np.int64)) == R * C
        np.testing.assert_array_equal(four, one)
        goal = (2 * (cell // C) + 1, 2 * (cell % C) + 1)
        ref = scipy_field(~occ, goal)
        np.testing.assert_array_equal(four, ref[1::2, 1::2].ravel())


def test_four_walkers_stop_on_a_cycle():
    from robomaze._search._thinmaze import cell_depths4, maze_sides

    occ = thin(12, 12, 8, braid=0.4).occupied
    R, C = occ.shape[0] // 2, occ.shape[1] // 2
    sides = np.empty(R * C, np.uint8)
    assert maze_sides(occ.view(np.uint8), sides) > R * C - 1       # loops
    got = cell_depths4(sides, C, np.array([[0, 0, 0]], np.int64), np.empty(R * C, np.int32),
                       np.empty(R * C + 32, np.int64))
    assert got == -1
