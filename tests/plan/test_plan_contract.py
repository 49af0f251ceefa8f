"""Contract over every registered planner: right endpoints, connected, collision-free."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

from robomaze import Maze, widen
from robomaze.geometry import Footprint
from robomaze.plan import PLANNERS, plan

OPTIMAL = {"wavefront", "dijkstra", "astar", "collision_free"}
ANY_ANGLE = {"theta_star"}


def perfect_maze(rows, cols, seed):
    rng = np.random.default_rng(seed)
    idx = np.arange(rows * cols).reshape(rows, cols)
    a = np.concatenate([idx[:, :-1].ravel(), idx[:-1, :].ravel()])
    b = np.concatenate([idx[:, 1:].ravel(), idx[1:, :].ravel()])
    w = rng.random(a.size) + 0.01
    t = csgraph.minimum_spanning_tree(sp.csr_matrix((w, (a, b)), shape=(rows * cols,) * 2)).tocoo()
    return Maze.from_edges(rows, cols, t.row, t.col)


# the OMPL planners (off-centre points, budgets) have their own contract test
# in tests/plan/test_plan_sampling.py
GRID_PLANNERS = sorted(m for m in PLANNERS if not m.startswith("ompl:"))


@pytest.mark.parametrize("method", GRID_PLANNERS)
@pytest.mark.parametrize("footprint", [None, Footprint.disc(0.12)], ids=["point", "disc"])
def test_every_planner_returns_a_valid_safe_path(method, footprint):
    m = perfect_maze(4, 5, 3)
    g = widen(m, corridor=3, wall=1, resolution=0.1)
    s, goal = g.start_goal()
    p = plan(g, s, goal, method=method, footprint=footprint)
    assert p.method.startswith(method)
    assert tuple(p.cells[0]) == s and tuple(p.cells[-1]) == goal
    assert p.collision_free and p.min_clearance_key_poses > 0
    assert np.allclose(p.points, g.cells_to_world(p.cells))
    if method not in ANY_ANGLE:
        assert (np.abs(np.diff(p.cells, axis=0)).sum(axis=1) <= 1).all()
    # no path is shorter than the straight line, and on a perfect maze with
    # 3-wide corridors the grid route is at most the centre-line route
    sol = m.distances(m.start)[m.goals[0]]
    assert p.length >= np.hypot(*(np.subtract(p.points[-1], p.points[0]))) - 1e-9
    if method in OPTIMAL:
        assert p.length <= sol * 4 * 0.1 + 1e-9
