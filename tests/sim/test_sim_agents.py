"""Every agent reaches the goal without a collision on widened perfect mazes; explore on braids."""

import numpy as np
import pytest
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import minimum_spanning_tree

from robomaze import Maze, widen
from robomaze.errors import UnknownNameError
from robomaze.generate import generate
from robomaze.geometry import Footprint
from robomaze.grid import OccupancyGrid
from robomaze.plan import PLANNERS
from robomaze.sim import AGENTS, simulate


def mst_maze(rows, cols, seed):
    """A perfect maze built independently of robomaze.generate: MST over random weights."""
    rng = np.random.default_rng(seed)
    idx = np.arange(rows * cols).reshape(rows, cols)
    a = np.concatenate([idx[:, :-1].ravel(), idx[:-1, :].ravel()])
    b = np.concatenate([idx[:, 1:].ravel(), idx[1:, :].ravel()])
    w = rng.random(len(a)) + 1.0
    tree = minimum_spanning_tree(coo_matrix((w, (a, b)), shape=(rows * cols,) * 2)).tocoo()
    return Maze.from_edges(rows, cols, tree.row, tree.col)


# (maze source, rows, corridor k, wall t, seed): several shapes, k from 3 to 9.
CASES = [("mst", 5, 3, 1, 0), ("backtracker", 6, 4, 2, 1), ("prim", 5, 5, 1, 2),
         ("kruskal", 6, 6, 1, 3), ("wilson", 5, 7, 2, 4), ("hunt_and_kill", 5, 9, 1, 5)]


def maze_for(source, rows, seed, braid=0.0):
    if source == "mst":
        return mst_maze(rows, rows, seed)
    return generate(source, rows, rows, rng=seed, braid=braid)


# car_pursuit needs a turning radius: tests/sim/test_sim_car.py
@pytest.mark.parametrize("agent", sorted(a for a in AGENTS if a != "car_pursuit"))
@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-k{c[2]}" for c in CASES])
def test_agent_reaches_goal_without_collision(agent, case):
    source, rows, k, t, seed = case
    m = maze_for(source, rows, seed)
    assert m.is_perfect()
    g = widen(m, corridor=k, wall=t, resolution=0.1)
    fp = Footprint.disc(0.03 * k)                      # diameter 60 % of the corridor
    res = simulate(g, footprint=fp, agent=agent, rng=seed, max_steps=20_000)
    assert res.success, res.reason
    assert res.metrics["collisions"] == 0 and not res.trajectory.collisions.any()
    assert res.metrics["min_clearance"] > 0
    # The run ends in the goal cell's block.
    gr, gc = g.world_to_cell(res.trajectory.poses[-1, :2])
    rs, cs = g.maze_block(m.goals[0])
    assert rs.start <= gr < rs.stop + 1 and cs.start <= gc < cs.stop + 1


@pytest.mark.parametrize("seed,k", [(0, 3), (1, 5), (2, 7)])
def test_explore_reaches_goal_in_braid_mazes(seed, k):
    m = generate("backtracker", 6, 6, rng=seed, braid=1.0)
    assert m.n_loops() > 0
    g = widen(m, corridor=k, wall=1, resolution=0.1)
    res = simulate(g, footprint=Footprint.disc(0.03 * k), agent="explore", rng=seed)
    assert res.success and res.metrics["collisions"] == 0
    assert 0 < res.metrics["fraction_seen"] <= 1


def test_tremaux_in_a_braid_maze_and_wall_follow_on_the_left():
    g = widen(generate("prim", 5, 5, rng=3, braid=0.5), corridor=5, wall=1, resolution=0.1)
    res = simulate(g, footprint=Footprint.disc(0.15), agent="tremaux", rng=0)
    assert res.success and res.metrics["collisions"] == 0
    g = widen(mst_maze(5, 5, 9), corridor=5, wall=1, resolution=0.1)
    res = simulate(g, footprint=Footprint.disc(0.15), agent="wall_follow", side="left", rng=0)
    assert res.success and res.metrics["collisions"] == 0


def test_wall_follow_with_ir_and_follow_plan_with_a_rectangle():
    g = widen(mst_maze(5, 5, 11), corridor=5, wall=1, resolution=0.1)
    res = simulate(g, footprint=Footprint.disc(0.15), agent="wall_follow", sensor="ir", rng=0)
    assert res.success and res.metrics["collisions"] == 0
    res = simulate(g, footprint=Footprint.rectangle(0.3, 0.2), agent="follow_plan", rng=0)
    assert res.success and res.metrics["collisions"] == 0


def test_robot_too_wide_for_follow_plan_reports_no_path():
    # Two rooms joined by a 0.2 m gap; the robot is 0.6 m across.
    walls = np.ones((11, 21), bool)
    walls[1:10, 1:10] = walls[1:10, 11:20] = False
    walls[4:6, 10] = False
    narrow = OccupancyGrid(walls, resolution=0.1)
    res = simulate(narrow, footprint=Footprint.disc(0.3), agent="follow_plan",
                   start=(0.55, 0.55), goal=(1.55, 0.55))
    assert not res.success and res.reason == "no_path" and res.trajectory.steps == 0


def test_unknown_agent_lists_the_names():
    g = widen(Maze.empty(2, 2), corridor=3, wall=1)
    with pytest.raises(UnknownNameError, match="wall_follow"):
        simulate(g, footprint=Footprint.disc(0.5), agent="teleport")


@pytest.mark.parametrize("method", sorted(m for m in PLANNERS if not m.startswith("ompl:")))
def test_follow_plan_tracks_every_registered_planner(method):
    # OMPL planners: tests/sim/test_sim_car.py tracks them with small budgets
    g = widen(generate("kruskal", 5, 5, rng=1), corridor=5, wall=1, resolution=0.1)
    res = simulate(g, footprint=Footprint.disc(0.15), agent="follow_plan", method=method, rng=0)
    assert res.success and res.metrics["collisions"] == 0
