"""Classic maze solvers on hand-built maps: failure detection, Pledge exits,
walk structure, randomness, the dead-end test and bad options."""

import itertools

import numpy as np
import pytest
import scipy.sparse as sp
from scipy import ndimage
from scipy.sparse import csgraph

from robomaze.errors import NoPathError, ParameterError
from robomaze.grid import OccupancyGrid, widen
from robomaze.maze import Maze
from robomaze.plan import plan
from robomaze.plan.classic import (CLASSIC_SOLVERS, REMOVABLE, dead_end_filling,
                                   dfs_backtracking, pledge, random_mouse, tremaux,
                                   wall_follower)

SOLVERS = sorted(CLASSIC_SOLVERS)


def room(text):
    """A grid from rows of '#' (wall) and '.' (free)."""
    return OccupancyGrid(np.array([[ch == "#" for ch in line] for line in text.split()]))


# An open room; the goal (6, 6) sits in a walled-off box in the middle.
ISLAND_GOAL = room("""
#############
#...........#
#...........#
#...........#
#...........#
#....###....#
#....#.#....#
#....###....#
#...........#
#...........#
#############
""")

# An open room with a free-standing pillar and an exit in the east wall.
PILLAR = room("""
###########
#.........#
#.........#
#...###...#
#...###....
#...###...#
#.........#
#.........#
###########
""")


def random_tree_maze(rows, cols, seed):
    rng = np.random.default_rng(seed)
    idx = np.arange(rows * cols).reshape(rows, cols)
    a = np.concatenate([idx[:, :-1].ravel(), idx[:-1, :].ravel()])
    b = np.concatenate([idx[:, 1:].ravel(), idx[1:, :].ravel()])
    w = rng.random(a.size) + 1.0
    t = csgraph.minimum_spanning_tree(sp.csr_matrix((w, (a, b)), shape=(rows * cols,) * 2))
    t = t.tocoo()
    return Maze.from_edges(rows, cols, t.row, t.col)


def with_loops(maze, n, seed):
    rng = np.random.default_rng(seed)
    east = maze.east.copy()
    south = maze.south.copy()
    for _ in range(n):
        r, c = rng.integers(0, maze.rows - 1), rng.integers(0, maze.cols - 1)
        if rng.random() < 0.5:
            east[r, c] = False
        else:
            south[r, c] = False
    return Maze(east, south)


# ----------------------------------------------------------------- failures
def test_wall_follower_returns_to_its_start_when_the_goal_is_cut_off():
    for hand in ("right", "left"):
        with pytest.raises(NoPathError) as err:
            wall_follower(ISLAND_GOAL, (1, 1), (6, 6), hand=hand)
        assert err.value.reason == "wall follower returned to its start"


def test_wall_follower_circles_an_island_where_pledge_escapes():
    # The start touches only the pillar: its hand never leaves the pillar.
    with pytest.raises(NoPathError) as err:
        wall_follower(PILLAR, (4, 3), (4, 10), sight=False)
    assert err.value.reason == "wall follower returned to its start"
    for hand, direction in itertools.product(("right", "left"), ("N", "E", "S", "W", None)):
        p = pledge(PILLAR, (4, 3), (4, 10), hand=hand, direction=direction, sight=False)
        assert tuple(p.cells[-1]) == (4, 10) and tuple(p.walk[0]) == (4, 3)
        assert p.walk_length >= p.length


@pytest.mark.parametrize("name", ["pledge", "tremaux", "dfs_backtracking",
                                  "dead_end_filling", "random_mouse"])
def test_unreachable_goal_is_reported(name):
    kw = {"max_steps": 5000} if name == "random_mouse" else {}
    with pytest.raises(NoPathError) as err:
        plan(ISLAND_GOAL, (1, 1), (6, 6), method=name, **kw)
    expect = {"pledge": "pledge is circling", "random_mouse": "step limit"}
    assert err.value.reason == expect.get(name, "goal not reachable")


def test_pledge_reaches_boundary_exits_of_braid_mazes():
    sides = {"N": lambda m: (0, 2, "N"), "E": lambda m: (1, m.cols - 1, "E"),
             "S": lambda m: (m.rows - 1, 3, "S"), "W": lambda m: (m.rows - 2, 0, "W")}
    for seed in range(12):
        maze = with_loops(random_tree_maze(7, 8, 50 + seed), 12, seed)
        for side, opening in sides.items():
            m = maze.replace(openings=(opening(maze),))
            k = 1 + seed % 3
            g = widen(m, corridor=k, wall=1)
            border = np.zeros(g.shape, bool)
            border[[0, -1], :] = border[:, [0, -1]] = True
            exits = np.argwhere(g.free & border)
            goal = tuple(exits[len(exits) // 2])
            start = g.maze_centre((3, 4))
            for hand in ("right", "left"):
                p = pledge(g, start, goal, hand=hand, sight=bool(seed % 2))
                assert tuple(p.walk[0]) == start and tuple(p.cells[-1]) == goal
                assert (np.abs(np.diff(p.walk, axis=0)).sum(axis=1) == 1).all()
                assert g.free[p.walk[:, 0], p.walk[:, 1]].all()


# ----------------------------------------------------------------- walks
def _edge_counts(walk):
    counts = {}
    for a, b in zip(map(tuple, walk[:-1]), map(tuple, walk[1:])):
        key = (min(a, b), max(a, b))
        counts[key] = counts.get(key, 0) + 1
    return counts


def test_tremaux_walks_each_passage_at_most_twice_and_its_thread_is_the_route():
    for seed in range(6):
        maze = with_loops(random_tree_maze(8, 8, 80 + seed), 10, seed)
        for k in (1, 2):
            g = widen(maze, corridor=k)
            s, t = g.start_goal()
            p = tremaux(g, s, t, sight=False, hand=("right", "left")[seed % 2], route="thread")
            assert max(_edge_counts(p.walk).values()) <= 2
            # The thread: passages walked once, from the start, form the route.
            once = {e for e, n in _edge_counts(p.walk).items() if n == 1}
            route = {(min(a, b), max(a, b)) for a, b in
                     zip(map(tuple, p.cells[:-1]), map(tuple, p.cells[1:]))}
            assert route == once


def test_dfs_walk_has_the_depth_first_move_count():
    # Every visited cell off the final stack is entered once and left once;
    # cells on the stack are entered once: moves = 2 (visited - 1) - (depth).
    for seed in range(6):
        g = widen(random_tree_maze(8, 9, 90 + seed), corridor=1 + seed % 3)
        s, t = g.start_goal()
        p = dfs_backtracking(g, s, t, rng=seed, sight=False, route="loop_erased")
        visited = len({tuple(c) for c in p.walk})
        assert len(p.walk) - 1 == 2 * (visited - 1) - (len(p.cells) - 1)
        assert p.expanded == visited


def test_dfs_is_deterministic_per_seed_and_varies_with_it():
    g = widen(Maze.empty(6, 6), corridor=2)
    s, t = g.start_goal()
    a = dfs_backtracking(g, s, t, rng=5, sight=False)
    b = dfs_backtracking(g, s, t, rng=np.random.default_rng(5), sight=False)
    assert np.array_equal(a.walk, b.walk)
    walks = {dfs_backtracking(g, s, t, rng=seed, sight=False).walk.tobytes()
             for seed in range(10)}
    assert len(walks) >= 8


def test_random_mouse_reproducible_and_independent_of_the_step_limit():
    g = widen(random_tree_maze(5, 5, 7))
    s, t = g.start_goal()
    a = random_mouse(g, s, t, rng=3)
    b = random_mouse(g, s, t, rng=3, max_steps=10 ** 7)
    assert np.array_equal(a.walk, b.walk)
    assert tuple(a.cells[-1]) == t
    with pytest.raises(NoPathError) as err:
        random_mouse(g, s, t, rng=3, max_steps=2)
    assert err.value.reason == "step limit"


def test_random_mouse_walk_does_not_depend_on_how_numbers_are_chunked(monkeypatch):
    import importlib

    module = importlib.import_module("robomaze.plan.classic.random_walk")

    g = widen(with_loops(random_tree_maze(6, 6, 9), 6, 9), corridor=2)
    s, t = g.start_goal()
    whole = random_mouse(g, s, t, rng=11, sight=False)
    monkeypatch.setattr(module, "_CHUNK", 7)
    pieces = random_mouse(g, s, t, rng=11, sight=False)
    assert len(whole.walk) > 50 and np.array_equal(whole.walk, pieces.walk)
    with pytest.raises(NoPathError):
        random_mouse(g, s, t, rng=11, sight=False, max_steps=len(whole.walk) - 2)


def test_random_mouse_chooses_uniformly_at_a_junction():
    # A T junction: from the stem the mouse turns west or east with p = 1/2
    # and cannot turn back; the goal is at the east end.
    t_maze = room("""
    #########
    #.......#
    ####.####
    ####.####
    #########
    """)
    east_first = 0
    n = 400
    for seed in range(n):
        p = random_mouse(t_maze, (3, 4), (1, 7), rng=seed, sight=False)
        east_first += tuple(p.walk[3]) == (1, 5)
    # Binomial(400, 1/2): mean 200, sd 10; 4 sd either way.
    assert 160 <= east_first <= 240


def test_random_mouse_reaches_the_goal_on_tiny_mazes():
    for seed in range(20):
        g = widen(random_tree_maze(3, 3, seed))
        s, t = g.start_goal()
        p = random_mouse(g, s, t, rng=seed, sight=False)
        assert tuple(p.walk[-1]) == t
        assert (np.abs(np.diff(p.walk, axis=0)).sum(axis=1) == 1).all()


# ----------------------------------------------------------------- dead ends
def _topology(free):
    fg = ndimage.label(free, structure=ndimage.generate_binary_structure(2, 1))[1]
    bg = ndimage.label(np.pad(~free, 1, constant_values=True),
                       structure=ndimage.generate_binary_structure(2, 2))[1]
    return fg, bg


def test_removable_cells_are_exactly_the_simple_points():
    # Filling a simple point changes neither the 4-components of free space
    # nor the 8-components of obstacles (holes): checked globally with
    # scipy.ndimage.label on random grids, both ways.
    rng = np.random.default_rng(0)
    ring = [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)]
    seen = set()
    for _ in range(60):
        free = rng.random((7, 7)) < 0.6
        before = _topology(free)
        for r, c in np.argwhere(free):
            config = sum(1 << i for i, (dr, dc) in enumerate(ring)
                         if 0 <= r + dr < 7 and 0 <= c + dc < 7 and free[r + dr, c + dc])
            isolated = not any(config >> i & 1 for i in (0, 2, 4, 6))
            if isolated:
                assert REMOVABLE[config]
                continue
            free[r, c] = False
            same = _topology(free) == before
            free[r, c] = True
            assert bool(REMOVABLE[config]) == same, (config, r, c)
            seen.add(config)
    assert len(seen) > 120


def test_dead_end_filling_walks_its_route_once():
    g = widen(random_tree_maze(6, 6, 11), corridor=3)
    s, t = g.start_goal()
    p = dead_end_filling(g, s, t)
    assert np.array_equal(p.walk, p.cells)
    assert p.expanded == int(g.free.sum())


# ----------------------------------------------------------------- inputs
def test_world_points_and_maze_defaults_are_accepted():
    g = widen(random_tree_maze(4, 4, 1), corridor=2, resolution=0.25)
    s, t = g.start_goal()
    for name in SOLVERS:
        p = plan(g, g.cell_to_world(s), g.cell_to_world(t), method=name)
        q = plan(g, None, None, method=name)
        assert tuple(p.cells[0]) == s and tuple(p.cells[-1]) == t
        assert tuple(q.cells[-1]) == t
        assert p.length == pytest.approx(0.25 * (len(p.cells) - 1))


@pytest.mark.parametrize("name", SOLVERS)
def test_bad_options_raise_parameter_error(name):
    g = widen(Maze.empty(2, 2))
    s, t = g.start_goal()
    bad = [{"colour": "red"}, {"connectivity": 8}]
    if name != "dead_end_filling":
        bad += [{"sight": "yes"}, {"route": "best"}]
    if name in ("wall_follower", "pledge", "tremaux"):
        bad.append({"hand": "up"})
    if name == "wall_follower":
        bad.append({"heading": "NE"})
    if name == "pledge":
        bad.append({"direction": 0})
    if name in ("dfs_backtracking", "random_mouse"):
        bad.append({"rng": "seed"})
    if name == "random_mouse":
        bad += [{"max_steps": -1}, {"max_steps": 1.5}]
    for kw in bad:
        with pytest.raises(ParameterError):
            plan(g, s, t, method=name, **kw)
    with pytest.raises(ParameterError):
        plan(g, (0, 0), t, method=name)  # on a wall
    with pytest.raises(ParameterError):
        plan(g, s, (9, 9), method=name)  # outside


def test_sight_accepts_the_command_line_zero_and_one():
    g = widen(random_tree_maze(4, 4, 2), corridor=3)
    s, t = g.start_goal()
    for name, kw in (("tremaux", {}), ("dfs_backtracking", {"rng": 4}),
                     ("random_mouse", {"rng": 4})):
        off = plan(g, s, t, method=name, sight=0, **kw)
        assert np.array_equal(off.walk, plan(g, s, t, method=name, sight=False, **kw).walk)
        assert np.array_equal(plan(g, s, t, method=name, sight=1, **kw).walk,
                              plan(g, s, t, method=name, sight=True, **kw).walk)
    with pytest.raises(ParameterError, match="sight"):
        plan(g, s, t, method="tremaux", sight=2)


@pytest.mark.parametrize("name", SOLVERS)
def test_start_equal_to_goal(name):
    g = widen(Maze.empty(2, 2))
    p = plan(g, (1, 1), (1, 1), method=name)
    assert p.cells.tolist() == [[1, 1]] and p.length == 0.0
