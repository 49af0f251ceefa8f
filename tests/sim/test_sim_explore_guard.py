"""The explorer's guards: clearance on its believed map, recovery from a stall; follow_plan's
replan after a jump of its believed pose."""

import math

import numpy as np
import pytest

from robomaze import widen
from robomaze.geometry import Footprint
from robomaze.sense import lidar
from robomaze.sim import GoalRegion, Kinematics, simulate
from robomaze.sim.agents.base import AgentContext
from robomaze.sim.agents.explore import Explorer
from robomaze.sim.agents.follow_plan import PlanFollower
from robomaze.world import WorldSpec, stage_rng


def _ctx(grid, fp, start, goal, known=False):
    return AgentContext(footprint=fp, kinematics=Kinematics(), sensor=lidar(), dt=0.05,
                        start=start, goal=GoalRegion.for_grid(grid, goal), shape=grid.shape,
                        resolution=grid.resolution, origin=grid.origin, widening=grid.widening,
                        grid=grid if known else None, rng=np.random.default_rng(0))


@pytest.fixture(scope="module")
def corridor():
    # one straight corridor, 5 cells (0.5 m) wide, 3 m long
    occ = np.ones((7, 32), bool)
    occ[1:6, 1:31] = False
    from robomaze import OccupancyGrid

    return OccupancyGrid(occ, resolution=0.1)


def _explorer_on_truth(grid):
    e = Explorer(_ctx(grid, Footprint.disc(0.15), (0.35, 0.35, 0.0), (2.9, 0.35)))
    # its belief is the truth: every wall cell has hits, every free cell passes
    e.hit_counts[:] = grid.occupied.ravel().astype(np.int32) * 5
    e.free_counts[:] = (~grid.occupied).ravel().astype(np.int32) * 5
    e._ab = (3.5, 3.5)
    e._replan()
    return e


def test_arc_guard_against_a_hand_computed_corridor(corridor):
    e = _explorer_on_truth(corridor)
    y_mid = corridor.height / 2                 # corridor centre line: 0.25 m from both walls
    assert e._clearance_at(1.5, y_mid) == pytest.approx(0.25, abs=1e-9)
    # 0.25 s at 0.25 m/s: 6.25 cm. Along the centre line: clear. Straight at the
    # wall from 0.2 m: ends 0.1375 m away, under 0.15 + 0.025 / 2: not clear
    assert e._arc_clear(1.5, y_mid, 0.0, 0.25, 0.0)
    assert e._clearance_at(1.5, y_mid + 0.05) == pytest.approx(0.2, abs=1e-9)
    assert not e._arc_clear(1.5, y_mid + 0.05, math.radians(90), 0.25, 0.0)
    # from the centre line at 60 degrees it ends 0.196 m away: clear
    assert e._arc_clear(1.5, y_mid, math.radians(60), 0.25, 0.0)
    # leaving a tight spot is allowed, going deeper is not
    y_tight = y_mid - 0.09
    assert e._arc_clear(1.5, y_tight, math.radians(80), 0.25, 0.0)
    assert not e._arc_clear(1.5, y_tight, -math.radians(80), 0.25, 0.0)
    # a turn in place always passes
    assert e._arc_clear(1.5, y_tight, 0.0, 0.0, 2.0)


def test_stall_triggers_a_back_up_then_a_replan(corridor):
    e = _explorer_on_truth(corridor)
    obs = {"collision": False}
    pose = (1.5, corridor.height / 2, 0.0)
    outs = [e._recovery(obs, *pose) for _ in range(e._stall_n)]   # stall_s of standing
    assert all(o is None for o in outs[:-1])         # not yet a full window
    assert outs[-1] is not None and outs[-1][0] < 0  # backing up
    assert e.recoveries == 1
    # a bump starts one at once
    e2 = _explorer_on_truth(corridor)
    assert e2._recovery({"collision": True}, *pose)[0] < 0 and e2.recoveries == 1


@pytest.mark.parametrize("seed", [9, 15, 21, 23])
def test_slam_explore_no_longer_wedges_on_its_map(seed):
    """kruskal 6x6 seeds that stopped at the step limit, touching a wall, before the guards
    (9, 15), and with them, at a junction where only a plan without margin was left and
    the guard still asked for the margin (21, 23)."""
    maze = WorldSpec(generator="kruskal", rows=6, cols=6, seed=seed,
                     placement="corners").build_maze()
    grid = widen(maze, corridor=5, wall=1, resolution=0.1)
    r = simulate(grid, footprint=Footprint.disc(0.15), agent="explore",
                 rng=stage_rng(seed, "method"), odometry_noise="gaussian:0.02+drift:0.02",
                 localize="slam", max_steps=3000)
    assert r.reason == "goal" and r.metrics["collisions"] == 0


def test_follow_plan_replans_after_its_believed_pose_jumps():
    maze = WorldSpec(generator="kruskal", rows=4, cols=4, seed=1,
                     placement="corners").build_maze()
    grid = widen(maze, corridor=5, wall=1, resolution=0.1)
    start = grid.cell_to_world(grid.maze_centre((0, 0)))
    far = grid.cell_to_world(grid.maze_centre((3, 0)))
    ctx = AgentContext(footprint=Footprint.disc(0.1), kinematics=Kinematics(), sensor=lidar(),
                       dt=0.05, start=(start[0], start[1], 0.0), goal=GoalRegion.for_grid(grid),
                       shape=grid.shape, resolution=grid.resolution, origin=grid.origin,
                       widening=grid.widening, grid=grid, rng=np.random.default_rng(0))
    f = PlanFollower(ctx)
    odom = np.array([start[0], start[1], 0.0, 0.0, 0.0])
    f({"odom": odom, "collision": False})
    assert f.jump_replans == 0
    before = f.points.copy()
    odom[:2] = far
    f({"odom": odom, "collision": False})
    assert f.jump_replans == 1
    # the new path starts where the robot now believes it is
    assert math.hypot(f.points[0][0] - far[0], f.points[0][1] - far[1]) < 0.2
    assert not np.array_equal(before[0], f.points[0])
