"""The closed-form wave's kernels one by one (robomaze._search._blockwave).

``_walk`` packs each maze cell's form ``a | dr << 32 | dc << 48``: every
grid cell of the block must then hold ``a + |r - pr| + |c - pc|`` as its
unit-cost 4-connected distance, which is checked against scipy's
``csgraph`` (an independent BFS), not against the kernels' own output. The
walk has no visited marks: a cycle must be caught (-1, never a hang), a
disconnected maze must leave the other part unreached. ``_write`` must
reject a grid that differs from its maze in any single cell. The streamed
row writes (``_blockwave_nt``) must equal numpy's at every length and start.
"""

import numpy as np
import pytest
from numba import njit
# the scipy reference field of the closed form's own tests (same folder)
from test_plan_wavefront_maze import scipy_field

from robomaze import Maze, widen
from robomaze._search import _blockwave as bw
from robomaze._search._blockwave_nt import band_row, store_fence
from robomaze.generate import generate


def walk(grid, goal):
    walls = bw._walls(grid, goal)
    form = np.full(walls[0].size, -7, np.int64)  # -7: "never written"
    return bw._walk(*walls, form), form, walls


def decode(form):
    return form & 0xFFFFFFFF, (form >> 32) & 0xFFFF, form >> 48


@pytest.mark.parametrize("name", ["backtracker", "kruskal", "prim", "binary_tree", "sidewinder"])
@pytest.mark.parametrize("k,t", [(1, 1), (3, 1), (2, 3), (7, 2)])
def test_forms_are_the_distances_inside_every_block(name, k, t):
    maze = generate(name, 7, 9, rng=11)
    maze = Maze(maze.east, maze.south, openings=[(0, 2, "N"), (6, 8, "E")])
    grid = widen(maze, corridor=k, wall=t)
    ref = scipy_field(grid.free, grid.start_goal()[1])
    for goal in (grid.start_goal()[1], grid.maze_centre((3, 4)), (0, t + 2 * (k + t))):
        ref = scipy_field(grid.free, goal)
        n, form, _ = walk(grid, goal)
        assert n == maze.rows * maze.cols
        a, dr, dc = decode(form)
        p = k + t
        for u in range(n):
            r, c = divmod(u, maze.cols)
            r1, c1 = t + r * p, t + c * p
            assert 0 <= dr[u] < k and 0 <= dc[u] < k
            rr, cc = np.mgrid[r1:r1 + k, c1:c1 + k]
            want = ref[r1:r1 + k, c1:c1 + k]
            got = a[u] + np.abs(rr - (r1 + dr[u])) + np.abs(cc - (c1 + dc[u]))
            assert np.array_equal(got, want), (name, k, t, goal, u)


def test_goal_in_a_passage_seeds_both_cells():
    maze = generate("backtracker", 6, 6, rng=2)
    grid = widen(maze, corridor=3, wall=2)
    ref_free = grid.free
    # every free passage cell (rows of a cell band, columns of a wall)
    p = 5
    goals = [(r, c) for r in range(grid.rows) for c in range(grid.cols)
             if ref_free[r, c] and (r % p < 2) != (c % p < 2)]
    assert goals
    for goal in goals[::3]:
        n, form, _ = walk(grid, goal)
        assert n == 36
        ref = scipy_field(ref_free, goal)
        a, dr, dc = decode(form)
        for u in range(n):
            r, c = divmod(u, 6)
            # the cell's nearest grid cell to its form's centre holds a
            assert ref[2 + r * p + dr[u], 2 + c * p + dc[u]] == a[u]


def test_a_cycle_is_caught_not_walked_for_ever():
    # every wall down: cycles everywhere, the goal in the middle of them
    grid = widen(Maze.empty(9, 7), corridor=2, wall=1)
    n, _, _ = walk(grid, grid.start_goal()[1])
    assert n == -1
    # one loop far from the goal, the rest a tree
    maze = generate("kruskal", 10, 10, rng=3)
    east, south = maze.east.copy(), maze.south.copy()
    loops = [(r, c) for r in range(9) for c in range(9) if east[r, c]]
    r, c = loops[-1]
    east[r, c] = False  # one more passage in a spanning tree closes a cycle
    grid = widen(Maze(east, south), corridor=3, wall=1)
    assert walk(grid, (1, 1))[0] == -1
    # pitch 3 is below the loops rule (the bit-mask wave is faster there):
    # refused from the passage count, without a walk; pitch 4 takes the
    # forms since round 8 (their compact walk)
    assert bw.maze_field(widen(Maze(east, south), corridor=2, wall=1), (1, 1)) is None
    assert bw.maze_field(grid, (1, 1))[2] == "loops"
    wider = widen(Maze(east, south), corridor=4, wall=1)
    assert bw.maze_field(wider, (1, 1))[2] == "loops"


def test_disconnected_part_stays_unreached_and_forms_are_exact():
    maze = generate("prim", 6, 8, rng=5)
    east = maze.east.copy()
    east[:, 3] = True  # two trees, side by side
    grid = widen(Maze(east, maze.south), corridor=2, wall=1)
    n, form, _ = walk(grid, (1, 1))
    ref = scipy_field(grid.free, (1, 1))
    centres = ref[1::3, 1::3][:6, :8]  # a grid cell of every maze cell's block
    assert 0 < n == int((centres >= 0).sum()) < 6 * 8  # the cut leaves cells out
    a, _, _ = decode(form.reshape(6, 8))
    assert (a[centres < 0] == bw._BIG).all() and (a[centres >= 0] < bw._BIG).all()
    dist, reached, kind = bw.maze_field(grid, (1, 1))
    assert kind == "tree" and np.array_equal(dist, ref) and reached == int((ref >= 0).sum())


def test_closed_goal_passage_has_no_seed():
    maze = generate("backtracker", 4, 4, rng=1)
    grid = widen(maze, corridor=2, wall=1)
    # a passage block the maze says is closed: the goal would be on a wall
    r, c = next((r, c) for r in range(4) for c in range(3) if maze.east[r, c])
    goal = (1 + r * 3, 3 * (c + 1))
    assert walk(grid, goal)[0] == -1


def test_wide_corridors_keep_their_offsets():
    # offsets up to k - 1 = 299 sit in 16-bit fields
    maze = generate("backtracker", 2, 3, rng=4)
    grid = widen(maze, corridor=300, wall=2)
    goal = (2 + 299, 2 + 2 * 302 + 150)
    dist, reached, kind = bw.maze_field(grid, goal)
    ref = scipy_field(grid.free, goal)
    assert kind == "tree" and np.array_equal(dist, ref)


@pytest.mark.parametrize("k,t", [(1, 1), (2, 2), (3, 1)])
def test_any_single_cell_changed_is_caught(k, t):
    """Every cell of the grid flipped in turn: the closed form must refuse each (at pitch 2,
    refuse it or label the flipped grid exactly)."""
    maze = generate("backtracker", 3, 4, rng=6)
    maze = Maze(maze.east, maze.south, openings=[(0, 1, "N"), (2, 3, "E"), (1, 0, "W")])
    grid = widen(maze, corridor=k, wall=t)
    goal = grid.start_goal()[1]
    assert bw.maze_field(grid, goal) is not None
    occ = grid.occupied
    for r in range(grid.rows):
        for c in range(grid.cols):
            if (r, c) == goal:
                continue
            flipped = occ.copy()
            flipped[r, c] = not flipped[r, c]
            got = bw.maze_field(grid.replace(occupied=flipped), goal)
            if (k, t) == (1, 1) and got is not None:
                # pitch 2 reads the field off the occupancy itself (_thinmaze:
                # the maze's walls are not used), so a flip that leaves a tree
                # (an extra opening, say) is labelled -- exactly
                np.testing.assert_array_equal(got[0], scipy_field(~flipped, goal))
                continue
            assert got is None, (r, c)


# ---------------------------------------------------------------- streamed rows
@njit
def _stream(out, band, row):
    band_row(out, band, row)
    store_fence()


def test_streamed_rows_match_numpy_at_every_length_and_offset():
    """Scalar head, 64-byte vectors and scalar tail: every split of a row, every start."""
    rng = np.random.default_rng(3)
    buf = np.full(200, 7, np.int32)
    for length in range(0, 70):
        for start in range(0, 20):
            term = rng.integers(-5, 50, length)
            term[rng.random(length) < 0.2] = bw._NEG
            prow = rng.integers(0, 9, length)
            band = (prow.astype(np.int64) << 32) | (term.astype(np.int64) & 0xFFFFFFFF)
            row = int(rng.integers(0, 9))
            buf[:] = 7
            _stream(buf[start:start + length], band, row)
            want = np.maximum(term + np.abs(row - prow), -1)
            assert np.array_equal(buf[start:start + length], want), (length, start)
            assert (buf[:start] == 7).all() and (buf[start + length:] == 7).all()


def test_streamed_rows_on_a_row_that_is_not_4_byte_aligned():
    raw = np.zeros(4 * 50 + 1, np.uint8)
    out = raw[1:].view(np.int32)  # misaligned on purpose: all stores scalar
    assert out.ctypes.data % 4 == 1
    band = (np.arange(50, dtype=np.int64) % 4 << 32) | np.arange(50)
    _stream(out, band, 2)
    assert np.array_equal(out, np.arange(50) + np.abs(2 - np.arange(50) % 4))
