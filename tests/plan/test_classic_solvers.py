"""Classic maze solvers on random perfect and braid mazes, against references.

References are independent of the solvers: mazes are random spanning trees
(scipy minimum_spanning_tree over random weights), shortest routes come from
scipy.sparse.csgraph on the 4-connected grid graph, and loop erasure is
re-implemented here in plain Python.
"""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

from robomaze.geometry import Footprint
from robomaze.grid import widen
from robomaze.maze import Maze
from robomaze.plan import PLANNERS, plan
from robomaze.plan.classic import CLASSIC_SOLVERS, fill_dead_ends

SOLVERS = sorted(CLASSIC_SOLVERS)
SEEDED = {"dfs_backtracking", "random_mouse"}


def _grid_edges(rows, cols):
    idx = np.arange(rows * cols).reshape(rows, cols)
    a = np.concatenate([idx[:, :-1].ravel(), idx[:-1, :].ravel()])
    b = np.concatenate([idx[:, 1:].ravel(), idx[1:, :].ravel()])
    return a, b


def perfect_maze(rows, cols, seed, extra=0):
    """A uniformly weighted random spanning tree maze, plus ``extra`` loop edges."""
    rng = np.random.default_rng(seed)
    a, b = _grid_edges(rows, cols)
    w = rng.random(a.size) + 1.0
    n = rows * cols
    tree = csgraph.minimum_spanning_tree(sp.csr_matrix((w, (a, b)), shape=(n, n))).tocoo()
    ta, tb = tree.row, tree.col
    if extra:
        used = set(zip(np.minimum(ta, tb).tolist(), np.maximum(ta, tb).tolist()))
        rest = [i for i in range(a.size) if (a[i], b[i]) not in used]
        pick = rng.choice(rest, size=extra, replace=False)
        ta = np.concatenate([ta, a[pick]])
        tb = np.concatenate([tb, b[pick]])
    return Maze.from_edges(rows, cols, ta, tb)


def grid_graph(free):
    rows, cols = free.shape
    a, b = _grid_edges(rows, cols)
    f = free.ravel()
    keep = f[a] & f[b]
    n = rows * cols
    return sp.csr_matrix((np.ones(keep.sum()), (a[keep], b[keep])), shape=(n, n))


def bfs_route(free, s, g):
    """One shortest 4-connected route (cells) from s to g, via scipy."""
    cols = free.shape[1]
    src = s[0] * cols + s[1]
    dist, pred = csgraph.shortest_path(grid_graph(free), directed=False, unweighted=True,
                                       indices=src, return_predecessors=True)
    node = g[0] * cols + g[1]
    assert np.isfinite(dist[node])
    route = [node]
    while node != src:
        node = int(pred[node])
        route.append(node)
    return [divmod(v, cols) for v in reversed(route)]


def erase_loops(walk):
    out, where = [], {}
    for cell in map(tuple, walk):
        if cell in where:
            for c in out[where[cell] + 1:]:
                del where[c]
            del out[where[cell] + 1:]
        else:
            where[cell] = len(out)
            out.append(cell)
    return out


def check_walk(path, free, start, goal):
    """The walk is a 4-connected sequence of free cells from start to goal."""
    w = np.asarray(path.walk)
    assert tuple(w[0]) == tuple(start) and tuple(w[-1]) == tuple(goal)
    assert free[w[:, 0], w[:, 1]].all()
    assert (np.abs(np.diff(w, axis=0)).sum(axis=1) == 1).all()
    assert path.walk_length == pytest.approx(len(w) - 1)
    assert path.walk_length >= path.length
    cells = [tuple(c) for c in path.cells]
    if path.method == "tremaux":
        # Trémaux's route is its thread: loop-free, made of steps of the walk.
        steps = set(zip(map(tuple, w[:-1]), map(tuple, w[1:])))
        assert len(set(cells)) == len(cells) and cells[0] == tuple(start)
        assert all(step in steps for step in zip(cells[:-1], cells[1:]))
    else:
        assert cells == erase_loops(w)


def solve(name, grid, start, goal, seed, **kw):
    if name in SEEDED:
        kw["rng"] = seed
    if name != "dead_end_filling":
        # check_walk checks the walk's own route: the loop-erased walk (the thread for Tremaux)
        kw.setdefault("route", "thread" if name == "tremaux" else "loop_erased")
    return plan(grid, start, goal, method=name, **kw)


def test_registry_holds_the_classic_solvers():
    assert set(SOLVERS) == {"wall_follower", "pledge", "tremaux", "dfs_backtracking",
                            "dead_end_filling", "random_mouse"}
    for name in SOLVERS:
        assert PLANNERS[name] is CLASSIC_SOLVERS[name]


@pytest.mark.parametrize("name", SOLVERS)
@pytest.mark.parametrize("wall", [1, 2, 3])
def test_unique_solution_on_perfect_mazes_with_thin_corridors(name, wall):
    for seed in range(6):
        maze = perfect_maze(7 + seed % 3, 9 - seed % 3, seed)
        g = widen(maze, corridor=1, wall=wall)
        s, t = g.start_goal()
        for sight in (True, False):
            if name == "dead_end_filling" and not sight:
                continue
            kw = {} if name == "dead_end_filling" else {"sight": sight}
            p = solve(name, g, s, t, seed, **kw)
            ref = bfs_route(g.free, s, t)
            assert [tuple(c) for c in p.cells] == ref
            assert p.length == pytest.approx(maze.solution_length() * (1 + wall))
            assert p.collision_free
            check_walk(p, g.free, s, t)


@pytest.mark.parametrize("name", SOLVERS)
@pytest.mark.parametrize("corridor,wall", [(2, 1), (3, 1), (4, 2)])
def test_reaches_goal_on_perfect_mazes_with_wide_corridors(name, corridor, wall):
    for seed in range(4):
        maze = perfect_maze(6, 7, 100 + seed)
        g = widen(maze, corridor=corridor, wall=wall)
        s, t = g.start_goal()
        # Not solution_length * (k + t): wide corridors let a route cut the
        # inside of every bend.
        shortest = len(bfs_route(g.free, s, t)) - 1
        for sight in (True, False):
            kw = {} if name == "dead_end_filling" else {"sight": sight}
            if not sight and name in ("wall_follower", "pledge"):
                # Blind, a hand on the wall never touches a block centre:
                # aim for the goal block's corner against the outer wall.
                rs, cs = g.maze_block(maze.goals[0])
                t = (rs.stop - 1, cs.stop - 1)
                shortest = len(bfs_route(g.free, s, t)) - 1
            p = solve(name, g, s, t, seed, **kw)
            check_walk(p, g.free, s, t)
            assert len({tuple(c) for c in p.cells}) == len(p.cells)  # loop-free
            assert p.length >= shortest
            # The route passes through the solution's maze cells in order.
            visited = [tuple(c) for c in g.widening.maze_cells(p.cells)]
            it = iter(visited)
            assert all(cell in it for cell in maze.solution())
            if name == "dead_end_filling":
                assert sorted(set(visited)) == sorted(maze.solution())


@pytest.mark.parametrize("name", SOLVERS)
def test_disc_robot_in_wide_corridors_follows_the_centre_line(name):
    # k = 3 and a disc of radius 1: only the corridor centre lines are free
    # for the robot, so its free space is again a tree of thin corridors.
    disc = Footprint.disc(1.0)
    for seed in range(4):
        maze = perfect_maze(6, 6, 200 + seed)
        g = widen(maze, corridor=3, wall=1)
        s, t = g.start_goal()
        free = g.clearance() > 1.0
        p = solve(name, g, s, t, seed, footprint=disc)
        assert [tuple(c) for c in p.cells] == bfs_route(free, s, t)
        assert p.length == pytest.approx(maze.solution_length() * 4)
        assert p.collision_free and p.min_clearance_key_poses > 0
        check_walk(p, free, s, t)


@pytest.mark.parametrize("name", SOLVERS)
def test_rectangle_robot_stays_in_its_circumscribed_disc_space(name):
    rect = Footprint.rectangle(1.6, 0.8)
    maze = perfect_maze(5, 5, 300)
    g = widen(maze, corridor=4, wall=1)
    s, t = g.start_goal()
    p = solve(name, g, s, t, 3, footprint=rect)
    assert (g.clearance()[p.walk[:, 0], p.walk[:, 1]] > rect.circumscribed_radius).all()
    assert p.collision_free
    assert tuple(p.cells[-1]) == t


@pytest.mark.parametrize("name", ["tremaux", "dfs_backtracking", "random_mouse",
                                  "dead_end_filling", "pledge"])
def test_complete_solvers_on_braid_mazes(name):
    for seed in range(5):
        maze = perfect_maze(7, 7, 400 + seed, extra=10)
        for corridor in (1, 2):
            g = widen(maze, corridor=corridor, wall=1)
            s, t = g.start_goal()
            if name == "pledge":
                # Pledge is only complete for exits on the outer boundary.
                t = (g.rows - 2, g.cols - 2)
            p = solve(name, g, s, t, seed)
            check_walk(p, g.free, s, t)
            assert p.length >= len(bfs_route(g.free, s, t)) - 1


def test_dead_end_filling_leaves_exactly_the_solution():
    for seed in range(8):
        for wall in (1, 2):
            maze = perfect_maze(8, 10, 500 + seed)
            g = widen(maze, corridor=1, wall=wall)
            s, t = g.start_goal()
            left = fill_dead_ends(g, s, t)
            expect = np.zeros(g.shape, bool)
            for r, c in bfs_route(g.free, s, t):
                expect[r, c] = True
            assert np.array_equal(left, expect)


def test_dead_end_filling_keeps_every_shortest_route_of_a_braid_maze():
    for seed in range(5):
        maze = perfect_maze(8, 8, 600 + seed, extra=12)
        g = widen(maze)
        s, t = g.start_goal()
        left = fill_dead_ends(g, s, t)
        cols = g.cols
        graph = grid_graph(g.free)
        ds = csgraph.shortest_path(graph, unweighted=True, indices=s[0] * cols + s[1])
        dt = csgraph.shortest_path(graph, unweighted=True, indices=t[0] * cols + t[1])
        on_shortest = (ds + dt == ds[t[0] * cols + t[1]]).reshape(g.shape)
        assert left[on_shortest].all()
        assert not left[g.occupied].any()


def test_wall_follower_with_start_and_goal_on_the_boundary_of_braid_mazes():
    # Both on the outer boundary (border cells next to the outer wall): the
    # outer boundary is one wall, so following it reaches the goal.
    for seed in range(6):
        maze = perfect_maze(7, 8, 700 + seed, extra=12)
        g = widen(maze)
        for hand in ("right", "left"):
            p = plan(g, (1, 1), (g.rows - 2, 1 + 2 * (seed % 8)), method="wall_follower",
                     hand=hand, sight=False, route="loop_erased")
            check_walk(p, g.free, (1, 1), (g.rows - 2, 1 + 2 * (seed % 8)))


@pytest.mark.parametrize("name", [n for n in SOLVERS if n != "dead_end_filling"])
def test_shortest_known_route_drops_dead_ends_in_wide_corridors(name):
    from scipy import ndimage

    for seed in range(3):
        maze = perfect_maze(7, 7, 800 + seed)
        for corridor in (2, 3, 4):
            g = widen(maze, corridor=corridor, wall=1 + seed % 2)
            s, t = g.start_goal()
            q = solve(name, g, s, t, seed)
            p = solve(name, g, s, t, seed, route="shortest_known")
            assert np.array_equal(p.walk, q.walk)
            walked = np.zeros(g.shape, bool)
            walked[p.walk[:, 0], p.walk[:, 1]] = True
            known = ndimage.binary_dilation(walked, structure=np.ones((3, 3), bool)) & g.free
            assert known[p.cells[:, 0], p.cells[:, 1]].all()
            assert (np.abs(np.diff(p.cells, axis=0)).sum(axis=1) == 1).all()
            assert tuple(p.cells[0]) == s and tuple(p.cells[-1]) == t
            assert p.length <= q.length
            proj = [tuple(c) for c in g.widening.maze_cells(p.cells)]
            assert [c for i, c in enumerate(proj) if i == 0 or c != proj[i - 1]] == \
                maze.solution()
