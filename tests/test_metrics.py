"""Metrics against hand-computed values and independent references (shapely)."""

import math

import numpy as np
import pytest
from shapely.geometry import Point
from shapely.ops import unary_union
import shapely

from robomaze import Maze, OccupancyGrid, widen
from robomaze import metrics
from robomaze.errors import ParameterError
from robomaze.geometry import Footprint
from robomaze.plan import plan
from robomaze.sense import lidar
from robomaze.sim import GoalRegion, Trajectory, simulate


def traj(xy, collisions=None, dt=0.5, theta=None):
    xy = np.asarray(xy, float)
    n = len(xy)
    th = np.zeros(n) if theta is None else np.asarray(theta, float)
    return Trajectory(np.arange(n) * dt, np.column_stack([xy, th]), np.zeros((n, 2)),
                      np.zeros(n, bool) if collisions is None else collisions)


def test_length_steps_and_smoothness_by_hand():
    tr = traj([[0, 0], [3, 0], [3, 4]], theta=[0, 0, math.pi / 2])
    assert metrics.executed_length(tr) == 7.0 and metrics.steps(tr) == 2
    assert metrics.smoothness(tr) == pytest.approx((math.pi / 2) / 7)
    assert metrics.executed_length(np.array([[0, 0], [1, 1]])) == pytest.approx(math.sqrt(2))
    assert math.isnan(metrics.smoothness(traj([[1, 1], [1, 1]])))


def test_collision_events_and_time():
    flags = np.array([False, True, True, False, False, True, False, True, True, True])
    tr = traj(np.zeros((10, 2)), collisions=flags, dt=0.1)
    assert metrics.collision_count(tr) == 3
    assert metrics.time_in_collision(tr) == pytest.approx(0.6)
    with pytest.raises(ParameterError):
        metrics.time_in_collision(np.zeros((3, 2)))


def test_clearances_match_shapely():
    g = widen(Maze.empty(2, 2), corridor=5, wall=1, resolution=0.1)
    occ = g.occupied
    rows = g.rows
    obst = unary_union([shapely.box(c * 0.1, (rows - r - 1) * 0.1, (c + 1) * 0.1, (rows - r) * 0.1)
                        for r, c in zip(*np.nonzero(occ))])
    rng = np.random.default_rng(0)
    pts = rng.uniform(0.15, 1.1, (40, 2))
    tr = traj(pts)
    fp = Footprint.disc(0.05)
    centre = metrics.centre_clearance(tr, g)
    want = np.array([max(Point(p).distance(obst), 0.0) for p in pts])
    np.testing.assert_allclose(centre, want, atol=1e-9)
    fc = metrics.footprint_clearances(tr, g, fp)
    np.testing.assert_allclose(fc, np.maximum(want - 0.05, 0.0), atol=1e-9)
    assert metrics.min_clearance(tr, g, fp) == pytest.approx(fc.min())
    assert metrics.mean_clearance(tr, g, fp) == pytest.approx(fc.mean())
    assert metrics.unsafe_fraction(tr, g, fp, safety=0.1) == pytest.approx(np.mean(fc < 0.1))


def test_optimality_ratio_of_a_straight_run_is_one_and_detours_cost():
    g = widen(Maze.empty(1, 4), corridor=5, wall=1, resolution=0.1)   # y centre 0.35
    fp = Footprint.disc(0.1)
    straight = traj([[0.35, 0.35], [1.0, 0.35], [2.15, 0.35]])
    assert metrics.optimality_ratio(straight, g, fp) == pytest.approx(1.0, abs=1e-9)
    detour = traj([[0.35, 0.35], [1.0, 0.45], [1.5, 0.25], [2.15, 0.35]])
    assert metrics.optimality_ratio(detour, g, fp) > 1.0


def test_success_and_time_to_goal():
    g = widen(Maze.empty(1, 3), corridor=3, wall=1)
    goal = GoalRegion.for_grid(g)          # block x in [9, 12]
    tr = traj([[2.5, 2.5], [6.0, 2.5], [9.5, 2.5], [10.0, 2.5]])
    assert metrics.success(tr, goal) and metrics.time_to_goal(tr, goal) == 1.0
    short = traj([[2.5, 2.5], [6.0, 2.5]])
    assert not metrics.success(short, goal) and math.isnan(metrics.time_to_goal(short, goal))


def test_fraction_seen_of_one_room_is_total_and_of_a_maze_is_partial():
    room = OccupancyGrid(np.pad(np.zeros((10, 10), bool), 1, constant_values=True), resolution=0.1)
    s = lidar(n_beams=360, range_max=5.0)
    assert metrics.fraction_seen(traj([[0.6, 0.6]]), room, s) == 1.0
    g = widen(Maze.full(1, 3).replace(east=np.array([[False, True, True]])), corridor=3, wall=1)
    part = metrics.fraction_seen(traj([[2.5, 2.5]]), g, lidar(range_max=50.0))
    assert part == pytest.approx(21 / 30)      # two of three 3x3 blocks plus the 3-cell gap


def test_metrics_of_a_planned_path():
    g = widen(Maze.empty(2, 3), corridor=5, wall=1, resolution=0.1)
    fp = Footprint.disc(0.1)
    p = plan(g, g.start_goal()[0], g.start_goal()[1], method="theta_star", footprint=fp)
    m = metrics.path_metrics(p, g, footprint=fp)
    assert m["length"] == pytest.approx(p.length)
    # theta_star bends at grid cell corners: no shorter than the exact
    # (visibility graph) reference for a disc
    ref = metrics.shortest_length(g, fp, p.points[0], p.points[-1])
    assert m["optimality_ratio"] == pytest.approx(p.length / ref)
    assert m["optimality_ratio"] >= 1.0
    assert m["collisions"] == 0 and m["min_clearance"] >= 0
    assert metrics.collision_count(p, g, fp) == 0


def test_simulation_metrics_are_consistent():
    g = widen(Maze.empty(2, 3), corridor=5, wall=1, resolution=0.1)
    res = simulate(g, footprint=Footprint.disc(0.15), agent="explore", rng=0)
    m = res.metrics
    assert m["success"] and m["reason"] == "goal"
    assert m["length"] == pytest.approx(res.trajectory.length)
    assert m["time_to_goal"] == pytest.approx(res.trajectory.t[-1])
    assert m["steps"] == res.trajectory.steps
    assert 0.9 <= m["optimality_ratio"] < 2.0
    assert m["min_centre_clearance"] >= m["min_clearance"] + 0.15 - 1e-9
