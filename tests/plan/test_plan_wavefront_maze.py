"""The closed-form field of widened mazes against the BFS wave and scipy.

Every field is compared cell for cell (dtype int32 included) with the engine's
BFS kernel and with ``scipy.sparse.csgraph`` unit-weight shortest paths over
the free cells' 4-neighbour graph; the tests also assert which path ran: the
closed form on perfect mazes, its minimum-of-forms variant on braided ones,
the BFS on tampered, too small or 8-connected cases.
"""

import sys

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

from robomaze import Maze, OccupancyGrid, widen
from robomaze import _search as core
from robomaze.generate import GENERATORS, generate
from robomaze.plan import wavefront, wavefront_field
from robomaze._search import _blockwave
from robomaze.plan.wavefront import _point_field

wavefront_module = sys.modules["robomaze.plan.wavefront"]  # the package exports the function


@pytest.fixture(autouse=True)
def closed_form_at_any_size(monkeypatch):
    """The test grids are small: take the closed form wherever it applies."""
    monkeypatch.setattr(wavefront_module, "_MAZE_MIN_CELLS", 0)
    monkeypatch.setattr(wavefront_module, "_MAZE_MIN_CELLS_PITCH2", 0)
    monkeypatch.setattr(_blockwave, "_LOOPS_MIN_PITCH", 2)


def scipy_field(free: np.ndarray, goal) -> np.ndarray:
    """Unit-weight 4-connected distances from ``goal`` by scipy; -1 blocked/unreachable."""
    R, C = free.shape
    idx = np.arange(R * C).reshape(R, C)
    src, dst = [], []
    for a, b in ((idx[:, :-1], idx[:, 1:]), (idx[:-1, :], idx[1:, :])):
        ok = free.ravel()[a] & free.ravel()[b]
        src.append(a[ok])
        dst.append(b[ok])
    src = np.concatenate(src)
    dst = np.concatenate(dst)
    g = sp.csr_matrix((np.ones(src.size), (src, dst)), shape=(R * C, R * C))
    d = csgraph.shortest_path(g, directed=False, unweighted=True, indices=idx[goal])
    out = np.where(np.isfinite(d), d, -1).astype(np.int64).reshape(R, C)
    out[~free] = -1
    return out


def bfs_field(grid: OccupancyGrid, goal) -> np.ndarray:
    rows, cols = grid.shape
    f8 = np.ascontiguousarray(grid.free, np.uint8).ravel()
    return core.bfs_field(f8, rows, cols, goal[0] * cols + goal[1], False)[0]


def check(grid: OccupancyGrid, goal, how: str, *, scipy_too: bool = True):
    """The public field, the planner's internal one and the references agree."""
    dist, expanded, ran = _point_field(grid, tuple(goal), False)
    assert ran == how
    assert dist.dtype == np.int32 and dist.shape == grid.shape
    ref = bfs_field(grid, goal)
    assert np.array_equal(dist, ref)
    assert expanded == int((ref >= 0).sum())
    public = wavefront_field(grid, tuple(goal))
    assert public.dtype == np.int32 and np.array_equal(public, ref)
    if scipy_too:
        assert np.array_equal(dist, scipy_field(grid.free, tuple(goal)))
    return dist


def block_kind(grid: OccupancyGrid, cell) -> str:
    """'cell', 'passage' or 'post' from the widening arithmetic alone."""
    w = grid.widening
    p = w.corridor + w.wall
    wall_r = cell[0] % p < w.wall
    wall_c = cell[1] % p < w.wall
    return {(False, False): "cell", (True, True): "post"}.get((wall_r, wall_c), "passage")


def free_cells_of(grid: OccupancyGrid, kind: str):
    return [tuple(map(int, c)) for c in np.argwhere(grid.free) if block_kind(grid, c) == kind]


# ---------------------------------------------------------------- generators
@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_every_generator(name):
    maze = generate(name, 9, 11, rng=3)
    assert maze.is_perfect()
    grid = widen(maze, corridor=3, wall=2)
    rng = np.random.default_rng(7)
    free = np.argwhere(grid.free)
    for goal in free[rng.choice(len(free), 4, replace=False)]:
        check(grid, goal, "maze")


@pytest.mark.parametrize("name", ["backtracker", "kruskal", "prim", "wilson"])
@pytest.mark.parametrize("braid", [0.3, 1.0])
def test_braided_mazes_take_the_minimum_of_forms(name, braid):
    maze = generate(name, 10, 9, rng=5, braid=braid)
    assert not maze.is_perfect()
    maze = Maze(maze.east, maze.south, openings=[(0, 3, "N"), (9, 8, "E")])
    for corridor, wall in ((1, 1), (2, 1), (3, 2), (4, 1)):
        grid = widen(maze, corridor=corridor, wall=wall)
        rng = np.random.default_rng(corridor * 10 + wall)
        goals = [grid.start_goal()[1]]
        for kind in ("cell", "passage"):
            cells = free_cells_of(grid, kind)
            goals += [cells[i] for i in rng.choice(len(cells), 3, replace=False)]
        goals += [(0, wall + 3 * (corridor + wall))]  # the north opening
        for goal in goals:
            check(grid, goal, "maze-loops")


def test_open_mazes_take_the_minimum_of_forms():
    # every wall down: the most routes into each cell
    for rows, cols, k in ((5, 5, 2), (8, 6, 3), (12, 12, 1)):
        grid = widen(Maze.empty(rows, cols), corridor=k, wall=1)
        for goal in (grid.start_goal()[1], (grid.rows // 2, grid.cols // 2), (1, 1)):
            if grid.is_free(goal):
                check(grid, goal, "maze-loops")


def test_loops_below_the_pitch_rule_use_the_wave(monkeypatch):
    monkeypatch.setattr(_blockwave, "_LOOPS_MIN_PITCH", 4)  # the shipped rule
    maze = generate("kruskal", 10, 10, rng=2, braid=0.5)
    check(widen(maze, corridor=2, wall=1), (2, 2), "bfs")  # pitch 3: the bit-mask wave
    check(widen(maze, corridor=1, wall=2), (2, 2), "bfs")  # pitch 3
    check(widen(maze, corridor=3, wall=1), (2, 2), "maze-loops")  # pitch 4 (round 8)
    check(widen(maze, corridor=4, wall=1), (2, 2), "maze-loops")  # pitch 5
    perfect = widen(generate("kruskal", 10, 10, rng=2), corridor=1, wall=1)
    check(perfect, (1, 1), "maze")  # the tree form has no pitch rule


# ---------------------------------------------------------------- widening and goals
@pytest.mark.parametrize("corridor", range(1, 10))
@pytest.mark.parametrize("wall", [1, 2, 3])
def test_corridors_walls_and_goal_kinds(corridor, wall):
    maze = generate("backtracker", 5, 6, rng=corridor * 10 + wall)
    maze = Maze(maze.east, maze.south, openings=[(0, 2, "N"), (4, 5, "E"), (3, 0, "W"),
                                                  (4, 1, "S")])
    grid = widen(maze, corridor=corridor, wall=wall)
    rng = np.random.default_rng(corridor * 100 + wall)
    rows, cols = grid.shape
    goals = []
    for kind in ("cell", "passage"):
        cells = free_cells_of(grid, kind)
        goals += [cells[i] for i in rng.choice(len(cells), 3, replace=False)]
    # the openings' own cells and the corners of the corner cells
    goals += [(0, wall + 2 * (corridor + wall)), (rows - 1, wall + 1 * (corridor + wall)),
              (wall + 3 * (corridor + wall), 0), (wall + 4 * (corridor + wall), cols - 1)]
    goals += [(wall, wall), (rows - 1 - wall, cols - 1 - wall), (wall, cols - 1 - wall)]
    for goal in goals:
        assert grid.is_free(goal), goal
        check(grid, goal, "maze")


def test_goal_in_every_passage_of_a_small_maze():
    maze = generate("wilson", 4, 4, rng=2)
    maze = Maze(maze.east, maze.south, openings=[(0, 0, "N"), (0, 0, "W"), (3, 3, "S")])
    grid = widen(maze, corridor=2, wall=2)
    for goal in free_cells_of(grid, "passage"):
        check(grid, goal, "maze")


def test_hand_computed_u_turn():
    # two cells side by side, open only through the south row: a U around a wall
    #   cells (0,0) (0,1) / (1,0) (1,1); walls: east of (0,0) closed, south of both open
    east = np.array([[True, True], [False, True]])
    south = np.array([[False, False], [True, True]])
    grid = widen(Maze(east, south), corridor=2, wall=1)
    d = check(grid, (1, 1), "maze")
    # 7x7 grid; from (1,1) down the west cells' column, east through the
    # lower passage (column 3) and up the east cells' column: hand-counted
    assert d[4, 2] == 4 and d[4, 4] == 6 and d[1, 5] == 10 and d[1, 4] == 9


# ---------------------------------------------------------------- disconnected and loops
def test_disconnected_parts_stay_unreached():
    maze = generate("kruskal", 8, 8, rng=4)
    east = maze.east.copy()
    south = maze.south.copy()
    east[:, 3] = True  # cut the maze in two along a column of walls
    cut = Maze(east, south)
    grid = widen(cut, corridor=3, wall=1)
    d = check(grid, (2, 2), "maze")
    assert (d[grid.free] == -1).any()
    assert check(widen(Maze.full(3, 4), corridor=2, wall=1), (1, 1), "maze").max() == 2


def test_loop_elsewhere_does_not_matter():
    # a 2x2 loop on the left, a tree on the right, a wall between them
    east = np.array([[False, True, False, True], [False, True, True, True]])
    south = np.array([[False, False, False, True], [True, True, True, True]])
    grid = widen(Maze(east, south), corridor=2, wall=1)
    right = grid.maze_centre((0, 3))
    left = grid.maze_centre((1, 0))
    d = check(grid, right, "maze")
    assert d[left] == -1
    d = check(grid, left, "maze-loops")
    assert d[right] == -1


# ---------------------------------------------------------------- grids that lie about their maze
def test_tampered_cells_fall_back():
    maze = generate("backtracker", 7, 7, rng=1)
    grid = widen(maze, corridor=3, wall=1)
    goal = grid.start_goal()[1]
    rng = np.random.default_rng(0)
    for cell in rng.integers(0, grid.shape[0], (12, 2)):
        occ = grid.occupied.copy()
        occ[tuple(cell)] = not occ[tuple(cell)]
        if occ[goal]:
            continue
        check(grid.replace(occupied=occ), goal, "bfs")
    # the last row and column too: the check covers every band
    for cell in ((grid.rows - 1, grid.cols // 2), (grid.rows // 2, grid.cols - 1)):
        occ = grid.occupied.copy()
        occ[cell] = False
        check(grid.replace(occupied=occ), goal, "bfs")


def test_other_maze_of_the_same_size_falls_back():
    grid = widen(generate("backtracker", 6, 6, rng=1), corridor=2, wall=1)
    other = generate("backtracker", 6, 6, rng=2)
    lying = OccupancyGrid(grid.occupied, widening=grid.widening, maze=other)
    check(lying, grid.start_goal()[1], "bfs")


def test_no_widening_and_wrong_shapes_fall_back():
    grid = widen(generate("prim", 5, 5, rng=1), corridor=2, wall=1)
    goal = grid.start_goal()[1]
    # without metadata the maze is read back from the occupancy (issue 40)
    check(grid.replace(widening=None), goal, "maze")
    check(grid.replace(maze=None), goal, "maze")
    bigger = widen(generate("prim", 5, 6, rng=1), corridor=2, wall=1)
    check(OccupancyGrid(grid.occupied, widening=bigger.widening, maze=bigger.maze), goal, "bfs")


def test_small_grids_keep_the_wave(monkeypatch):
    monkeypatch.setattr(wavefront_module, "_MAZE_MIN_CELLS", 1 << 14)
    monkeypatch.setattr(wavefront_module, "_MAZE_MIN_CELLS_PITCH2", 1 << 21)
    maze = generate("backtracker", 40, 40, rng=1)
    small = widen(maze, corridor=2, wall=1)  # 121^2 < 2^14
    check(small, small.start_goal()[1], "bfs")
    larger = widen(maze, corridor=3, wall=1)  # 161^2 >= 2^14
    check(larger, larger.start_goal()[1], "maze")
    thin = widen(maze, corridor=1, wall=1)  # pitch 2: only from 2^21 cells
    check(thin, thin.start_goal()[1], "bfs")


def test_eight_connected_and_footprints_use_the_wave():
    grid = widen(generate("backtracker", 6, 6, rng=3), corridor=3, wall=1)
    goal = grid.start_goal()[1]
    assert _point_field(grid, goal, True)[2] == "bfs"
    d8 = wavefront_field(grid, goal, connectivity=8)
    rows, cols = grid.shape
    f8 = np.ascontiguousarray(grid.free, np.uint8).ravel()
    assert np.array_equal(d8, core.bfs_field(f8, rows, cols, goal[0] * cols + goal[1], True)[0])


def test_planner_path_length_matches_the_field():
    grid = widen(generate("backtracker", 12, 12, rng=8), corridor=3, wall=1)
    start, goal = grid.start_goal()
    path = wavefront(grid, start, goal)
    assert len(path) - 1 == bfs_field(grid, goal)[start]
    assert path.expanded == int((bfs_field(grid, goal) >= 0).sum())
    bent = wavefront(grid, start, goal, fewest_bends=True)
    assert len(bent) - 1 == len(path) - 1


# ---------------------------------------------------------------- property
@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 6), cols=st.integers(1, 6), k=st.integers(1, 4),
       t=st.integers(1, 3), seed=st.integers(0, 2**16), braid=st.sampled_from([0.0, 0.0, 0.4]),
       pick=st.integers(0, 10**6), sides=st.lists(st.sampled_from("NESW"), max_size=3))
def test_property_against_references(rows, cols, k, t, seed, braid, pick, sides):
    maze = generate("kruskal", rows, cols, rng=seed, braid=braid)
    rng = np.random.default_rng(seed)
    openings = []
    for side in sides:
        r = {"N": 0, "S": rows - 1}.get(side, int(rng.integers(rows)))
        c = {"W": 0, "E": cols - 1}.get(side, int(rng.integers(cols)))
        openings.append((r, c, side))
    maze = Maze(maze.east, maze.south, openings=openings)
    grid = widen(maze, corridor=k, wall=t)
    free = np.argwhere(grid.free)
    goal = tuple(map(int, free[pick % len(free)]))
    dist, _, ran = _point_field(grid, goal, False)
    # a cell needing more than _FORMS forms would send a loopy maze to the wave
    assert ran == "maze" if maze.is_perfect() else ran in ("maze-loops", "bfs")
    check(grid, goal, ran)
