"""Car-like robots: turning radius from trajectories, Dubins lengths by hand, pure pursuit."""

import math

import numpy as np
import pytest

from robomaze import Maze, OccupancyGrid, widen
from robomaze.errors import ParameterError
from robomaze.generate import generate
from robomaze.geometry import Footprint
from robomaze.sim import simulate
from robomaze.sim.car import CarKinematics

pytest.importorskip("ompl")


def step_radii(poses):
    """Radius of each step's arc from consecutive poses (chord = 2 R sin(dtheta / 2))."""
    p = np.asarray(poses, float)
    d = np.diff(p, axis=0)
    dth = np.abs((d[:, 2] + np.pi) % (2 * np.pi) - np.pi)
    chord = np.hypot(d[:, 0], d[:, 1])
    turning = dth > 1e-9
    return chord[turning] / (2 * np.sin(dth[turning] / 2))


def test_random_commands_never_turn_tighter_than_the_radius():
    car = CarKinematics(turning_radius=0.4, v_max=0.6, v_min=-0.3, omega_max=4.0,
                        a_max=5.0, alpha_max=40.0)
    rng = np.random.default_rng(7)
    pose, vel, poses = (0.0, 0.0, 0.0), (0.0, 0.0), [(0.0, 0.0, 0.0)]
    for cmd in rng.uniform([-0.5, -4.0], [0.7, 4.0], (3000, 2)):
        vel = car.limit(tuple(cmd), vel, 0.05)
        pose = car.integrate(pose, vel, 0.05)
        poses.append(pose)
    r = step_radii(poses)
    assert len(r) > 2000          # it did turn, a lot
    assert r.min() >= 0.4 - 1e-9
    assert r.min() <= 0.4 + 1e-6  # and used the tightest turn it has


def test_bicycle_radius_is_wheelbase_over_tan_steer():
    car = CarKinematics.bicycle(wheelbase=0.3, max_steer=math.radians(30))
    assert car.turning_radius == pytest.approx(0.3 / math.tan(math.radians(30)))
    with pytest.raises(ParameterError, match="max_steer"):
        CarKinematics.bicycle(wheelbase=0.3, max_steer=2.0)
    with pytest.raises(ParameterError, match="turning_radius"):
        CarKinematics(turning_radius=0.0)
    with pytest.raises(ParameterError, match="holonomic"):
        CarKinematics(turning_radius=1.0, holonomic=True)


@pytest.mark.parametrize("rho", [0.5, 1.0])
def test_dubins_distances_against_hand_computed_cases(rho):
    from ompl import base as ob

    sp = ob.DubinsStateSpace(rho)

    def st(x, y, th):
        s = sp.allocState()
        s.setX(x)
        s.setY(y)
        s.setYaw(th)
        return s

    o = st(0.0, 0.0, 0.0)
    # straight ahead
    assert sp.distance(o, st(3.0, 0.0, 0.0)) == pytest.approx(3.0)
    # a left half circle: (0, 2 rho) facing west
    assert sp.distance(o, st(0.0, 2 * rho, math.pi)) == pytest.approx(math.pi * rho)
    # a quarter circle left then 1 m straight north
    assert sp.distance(o, st(rho, rho + 1.0, math.pi / 2)) == pytest.approx(math.pi * rho / 2 + 1)
    # a car cannot turn on the spot: facing back at the same point takes more
    # than a half circle
    assert sp.distance(o, st(0.0, 0.0, math.pi)) > math.pi * rho


def test_planned_dubins_path_keeps_the_turning_radius_and_the_hand_length():
    from robomaze.plan.sampling import ompl_plan

    # an open 4 x 4 m room: a quarter circle of 1 m then 1 m north
    g = OccupancyGrid(np.pad(np.zeros((40, 40), bool), 1, constant_values=True),
                      resolution=0.1)
    s = g.world_to_cell((0.55, 0.55))
    e = g.world_to_cell((1.55, 2.55))
    p = ompl_plan(g, s, e, planner="rrt_connect", space="dubins", turning_radius=1.0,
                  start_heading=0.0, goal_heading=math.pi / 2, rng=3, max_checks=20000,
                  time_limit=600.0)
    poses = np.column_stack([p.points, p.headings])
    r = step_radii(poses)
    assert r.min() >= 1.0 * (1 - 1e-3)
    assert p.collision_free
    assert p.length >= math.pi / 2 + 1.0 - 1e-3   # never shorter than the Dubins optimum


def test_car_pursuit_drives_a_car_through_a_maze_without_turning_tighter():
    g = widen(generate("kruskal", 4, 4, rng=1), corridor=9, wall=1, resolution=0.1)
    car = CarKinematics(turning_radius=0.3, v_max=0.5, v_min=0.0, omega_max=3.0)
    res = simulate(g, footprint=Footprint.rectangle(0.3, 0.16), agent="car_pursuit",
                   kinematics=car, rng=1, max_steps=4000, time_limit=None)  # checks: the budget
    assert res.success, res.reason
    assert res.metrics["collisions"] == 0
    assert step_radii(res.trajectory.poses).min() >= 0.3 - 1e-9
    assert (np.asarray(res.trajectory.poses)[:, :2].min() >= 0).all()


def test_car_pursuit_limits_itself_on_unicycle_kinematics():
    g = widen(generate("kruskal", 3, 3, rng=2), corridor=9, wall=1, resolution=0.1)
    res = simulate(g, footprint=Footprint.disc(0.08), agent="car_pursuit", rng=2,
                   max_steps=4000, turning_radius=0.25, time_limit=None)
    assert res.success, res.reason
    assert step_radii(res.trajectory.poses).min() >= 0.25 - 1e-6


def test_car_pursuit_needs_a_turning_radius():
    g = widen(Maze.empty(2, 2), corridor=5, wall=1, resolution=0.1)
    with pytest.raises(ParameterError, match="turning_radius"):
        simulate(g, footprint=Footprint.disc(0.1), agent="car_pursuit", max_steps=10)
