"""Simulator contract: reset/step, refused steps, termination, determinism, trajectory files."""

import math

import numpy as np
import pytest

from robomaze import Maze, widen
from robomaze.errors import CollisionError, ParameterError, RecordFormatError
from robomaze.geometry import Footprint
from robomaze.grid import OccupancyGrid
from robomaze.sense import Dropout, Gaussian, lidar
from robomaze.sim import Kinematics, Robot, SimEnv, Trajectory, replay, simulate


def corridor_env(**kw):
    g = widen(Maze.empty(1, 3), corridor=3, wall=1)       # free x in [1, 12], y in [1, 4]
    return SimEnv(g, Robot(Footprint.disc(0.5), sensors=[lidar(n_beams=8, range_max=20)]), **kw)


def test_reset_and_step_follow_the_gymnasium_contract():
    env = corridor_env(dt=0.5)
    obs, info = env.reset(seed=1)
    assert set(obs) >= {"scan", "scans", "odom", "time", "collision"}
    assert obs["odom"].tolist() == [2.5, 2.5, 0.0, 0.0, 0.0]
    assert info["steps"] == 0 and info["collisions"] == 0
    out = env.step((0.5, 0.0))
    assert len(out) == 5
    obs, reward, terminated, truncated, info = out
    assert reward == pytest.approx(-0.5) and not terminated and not truncated
    # Scan is the exact range from the new pose: east wall at x = 12.
    assert obs["scan"].ranges[4] == pytest.approx(12.0 - obs["odom"][0])


def test_goal_block_terminates_with_bonus():
    env = corridor_env(dt=0.5)
    env.reset()
    for _ in range(100):
        obs, reward, terminated, truncated, info = env.step((0.5, 0.0))
        if terminated:
            break
    assert terminated and info["goal_reached"] and reward > 9
    # Goal block of maze cell (0, 2) is x in [9, 12]: entered at x = 9.
    assert obs["odom"][0] == pytest.approx(9.0)
    with pytest.raises(ParameterError, match="reset"):
        env.step((0.0, 0.0))


def test_contact_refuses_the_step_and_counts_entry_events():
    env = corridor_env(dt=0.5, goal=(11.0, 2.5, 0.0))
    env.reset(options={"start": (2.5, 2.5, math.pi / 2)})      # facing the north wall, 1.5 away
    flags, poses = [], []
    for i in range(12):
        obs, r, term, trunc, info = env.step((0.5, 0.0) if i < 10 else (-0.25, 0.0))
        flags.append(info["collision"])
        poses.append(tuple(obs["odom"][:3]))
    tr = env.trajectory()
    assert tr.collisions[1:].tolist() == flags
    assert any(flags) and info["collisions"] == 1
    first = flags.index(True)
    assert poses[first] == poses[first - 1]                   # refused: did not move
    assert all(y + 0.5 < 4.0 for _, y, _ in poses)            # never reached the wall
    env2 = corridor_env(dt=0.5, on_collision="stop", goal=(11.0, 2.5))
    env2.reset(options={"start": (2.5, 2.5, math.pi / 2)})
    for _ in range(20):
        obs, r, term, trunc, info = env2.step((0.5, 0.0))
        if term:
            break
    assert term and info["collision"] and not info["goal_reached"]


def test_truncation_at_step_and_time_limits():
    env = corridor_env(dt=0.1, max_steps=5)
    env.reset()
    outs = [env.step((0.0, 0.3)) for _ in range(5)]
    assert [o[3] for o in outs] == [False] * 4 + [True]
    env = corridor_env(dt=0.1, max_time=0.3)
    env.reset()
    assert [env.step((0.0, 0.3))[3] for _ in range(3)] == [False, False, True]


def test_start_in_a_wall_is_an_error():
    env = corridor_env()
    with pytest.raises(CollisionError, match="start"):
        env.reset(options={"start": (1.2, 2.5)})
    with pytest.raises(ParameterError, match="reset options"):
        env.reset(options={"speed": 3})


def test_same_seed_same_trajectory_bit_for_bit(tmp_path):
    g = widen(Maze.from_edges(3, 3, [0, 1, 2, 5, 4, 3, 6, 7], [1, 2, 5, 4, 3, 6, 7, 8]),
              corridor=5, wall=1, resolution=0.1)
    sensor = lidar(n_beams=90, noise=[Gaussian(0.005), Dropout(0.05)])
    runs = [simulate(g, footprint=Footprint.disc(0.15), agent="explore", sensor=sensor,
                     rng=seed, record_scans=True, max_steps=3000) for seed in (7, 7, 8)]
    a, b, c = (r.trajectory for r in runs)
    assert runs[0].success
    for name in ("t", "poses", "commands", "collisions", "scans"):
        assert getattr(a, name).tobytes() == getattr(b, name).tobytes()
    assert a.scans.tobytes() != c.scans.tobytes()


def test_trajectory_file_round_trip_and_replay(tmp_path):
    g = widen(Maze.empty(2, 3), corridor=5, wall=1, resolution=0.1)
    fp = Footprint.rectangle(0.3, 0.2)
    res = simulate(g, footprint=fp, agent="follow_plan", rng=3, record_scans=True)
    assert res.success and res.metrics["collisions"] == 0
    path = tmp_path / "run.npz"
    res.trajectory.save(path)
    back = Trajectory.load(path)
    for name in ("t", "poses", "commands", "collisions", "scans"):
        np.testing.assert_array_equal(getattr(back, name), getattr(res.trajectory, name))
    assert back.meta["agent"] == "follow_plan" and back.meta["footprint"]["kind"] == "rectangle"
    again = replay(back, g, footprint=fp)
    np.testing.assert_array_equal(again.poses, back.poses)
    np.testing.assert_array_equal(again.collisions, back.collisions)
    states = list(back.states())
    assert len(states) == len(back) and states[-1][0] == back.t[-1]


def test_bad_trajectory_files_name_the_file(tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(RecordFormatError, match="bad.npz"):
        Trajectory.load(bad)
    other = tmp_path / "other.npz"
    np.savez(other, header=np.array('{"format": "something"}'))
    with pytest.raises(RecordFormatError, match="format"):
        Trajectory.load(other)
    short = tmp_path / "short.npz"
    np.savez(short, header=np.array('{"format": "robomaze.trajectory", "version": 1, "n": 2}'),
             t=np.zeros(2), poses=np.zeros((3, 3)), commands=np.zeros((2, 2)),
             collisions=np.zeros(2, bool))
    with pytest.raises(RecordFormatError, match="rows"):
        Trajectory.load(short)


def test_grid_without_maze_needs_start_and_goal():
    g = OccupancyGrid(np.pad(np.zeros((8, 8), bool), 1, constant_values=True), resolution=0.1)
    with pytest.raises(ParameterError, match="start"):
        SimEnv(g, Robot(Footprint.disc(0.1))).reset()
    env = SimEnv(g, Robot(Footprint.disc(0.1)), start=(2, 2), goal=(7, 7))
    obs, _ = env.reset()
    assert obs["scan"] is None and obs["odom"][:2].tolist() == pytest.approx([0.25, 0.75])


def test_holonomic_robot_slides_sideways_and_runs_agents():
    g = widen(Maze.empty(1, 3), corridor=3, wall=1)
    env = SimEnv(g, Robot(Footprint.disc(0.5), Kinematics(holonomic=True, a_max=10.0)),
                 dt=0.5, goal=(11.0, 2.5))
    env.reset()
    for _ in range(4):
        obs, *_ = env.step((0.0, 0.5, 0.0))
    # 0.25 m per step; y = 3.5 would touch the wall at y = 4 (touching collides): refused.
    assert obs["odom"][:3].tolist() == pytest.approx([2.5, 3.25, 0.0])
    assert obs["collision"]
    assert env.trajectory().commands.shape == (5, 3)
    res = simulate(widen(Maze.empty(2, 2), corridor=5, wall=1, resolution=0.1),
                   footprint=Footprint.disc(0.15), agent="explore",
                   kinematics=Kinematics(holonomic=True), rng=0)
    assert res.success and res.metrics["collisions"] == 0
