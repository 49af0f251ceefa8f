"""Odometry noise: the agent's believed pose drifts, the true pose does not."""

import math

import numpy as np
import pytest

from robomaze import Maze, widen
from robomaze.errors import ParameterError
from robomaze.geometry import Footprint
from robomaze.sim import Kinematics, Robot, SimEnv, simulate
from robomaze.sim.odometry import OdometryNoise, as_odometry_noise, parse_odometry_noise

GRID = widen(Maze.empty(1, 8), corridor=9, wall=1, resolution=0.1)
DT = 0.1


def drive(noise, seed, n=40, cmd=(0.3, 0.0)):
    kin = Kinematics(a_max=100.0, alpha_max=100.0)  # reach the command in one step
    env = SimEnv(GRID, Robot(Footprint.disc(0.1), kin), dt=DT, odometry_noise=noise,
                 max_steps=10_000)
    obs, _ = env.reset(seed=seed)
    odom = [obs["odom"].copy()]
    for _ in range(n):
        obs, *_ = env.step(cmd)
        odom.append(obs["odom"].copy())
    return env, np.array(odom)


def test_no_noise_reports_the_true_pose():
    env, odom = drive(None, seed=3)
    assert np.allclose(odom[-1][:3], env.pose)
    env2, odom2 = drive("none", seed=3)
    assert np.array_equal(odom, odom2)


def test_noise_changes_what_the_agent_sees_not_the_true_motion():
    clean, _ = drive(None, seed=5)
    noisy, odom = drive("gaussian:0.05+drift:0.1", seed=5)
    assert noisy.pose == clean.pose                     # open loop: same true motion
    assert np.array_equal(noisy.trajectory().poses, clean.trajectory().poses)
    assert math.hypot(odom[-1][0] - noisy.pose[0], odom[-1][1] - noisy.pose[1]) > 1e-3
    assert tuple(odom[-1][:3]) == pytest.approx(noisy.odometry_pose)


def test_drift_alone_turns_the_believed_heading_at_its_rate():
    # standing still: believed heading = drift * t exactly, position unchanged
    env, odom = drive("drift:0.2", seed=0, n=25, cmd=(0.0, 0.0))
    assert odom[-1][2] == pytest.approx(0.2 * 25 * DT)
    assert odom[-1][:2] == pytest.approx(env.start[:2])
    assert env.pose == env.start


def test_speed_noise_spreads_position_like_a_random_walk():
    # driving straight east: believed x - true x = dt * sum of n N(0, sigma) draws,
    # so its standard deviation over seeds is sigma * dt * sqrt(n)
    sigma, n = 0.05, 30
    errs = []
    for seed in range(300):
        env, odom = drive(f"gaussian:{sigma},0", seed=seed, n=n)
        errs.append(odom[-1][0] - env.pose[0])
        assert odom[-1][2] == 0.0 and odom[-1][1] == env.pose[1]  # no turn-rate noise
    expected = sigma * DT * math.sqrt(n)
    # 300 samples: the sample std is within ~4 standard errors (8%) of the truth
    assert np.std(errs) == pytest.approx(expected, rel=0.17)
    assert abs(np.mean(errs)) < 4 * expected / math.sqrt(300)


def test_same_seed_same_odometry_other_seed_other():
    _, a = drive("gaussian:0.02", seed=9)
    _, b = drive("gaussian:0.02", seed=9)
    _, c = drive("gaussian:0.02", seed=10)
    assert np.array_equal(a, b) and not np.array_equal(a, c)


def test_simulate_reports_the_final_odometry_error_and_keeps_true_metrics():
    g = widen(Maze.empty(2, 3), corridor=5, wall=1, resolution=0.1)
    fp = Footprint.disc(0.1)
    clean = simulate(g, footprint=fp, agent="wall_follow", rng=2)
    noisy = simulate(g, footprint=fp, agent="wall_follow", rng=2, odometry_noise="drift:0.3")
    assert "odometry_error" not in clean.metrics
    assert noisy.metrics["odometry_error"] > 0.05
    # metrics are measured on the true trajectory: the executed length is
    # the polyline of the recorded true poses
    p = noisy.trajectory.poses[:, :2]
    assert noisy.metrics["length"] == pytest.approx(np.hypot(*np.diff(p, axis=0).T).sum())


@pytest.mark.parametrize("spec, model", [
    ("gaussian:0.01", OdometryNoise(0.01, 0.01, 0.0)),
    ("gaussian:0.01,0.05", OdometryNoise(0.01, 0.05, 0.0)),
    ("drift:-0.02", OdometryNoise(0.0, 0.0, -0.02)),
    ("gaussian:0.01+drift:0.02", OdometryNoise(0.01, 0.01, 0.02)),
])
def test_spec_strings_round_trip(spec, model):
    assert parse_odometry_noise(spec) == model
    assert model.to_spec() == spec
    assert parse_odometry_noise(model.to_spec()) == model


def test_zero_noise_is_no_noise():
    assert parse_odometry_noise("gaussian:0") is None
    assert as_odometry_noise(OdometryNoise()) is None


@pytest.mark.parametrize("bad", ["gauss:0.1", "gaussian:", "gaussian:-1", "gaussian:1,2,3",
                                 "drift:nan", "drift:0.1+drift:0.2", "gaussian:0.1+", 5])
def test_bad_specs_raise_one_clear_error(bad):
    with pytest.raises(ParameterError, match="odometry noise"):
        parse_odometry_noise(bad)


def test_simulate_noise_goes_to_the_preset_sensor_and_is_recorded():
    from robomaze.sense import lidar
    from robomaze.sense.noise import Gaussian

    g = widen(Maze.empty(2, 3), corridor=5, wall=1, resolution=0.1)
    fp = Footprint.disc(0.1)
    res = simulate(g, footprint=fp, agent="wall_follow", rng=2, max_steps=20,
                   noise="gaussian:0.05", odometry_noise="drift:0.1")
    assert res.trajectory.meta["sensors"][0]["noise"] == repr(Gaussian(0.05))
    assert res.trajectory.meta["odometry_noise"] == "drift:0.1"
    with pytest.raises(ParameterError, match="sensor instance"):
        simulate(g, footprint=fp, agent="wall_follow", sensor=lidar(), noise="gaussian:0.1")
