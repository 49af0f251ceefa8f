"""The PettingZoo ParallelEnv: PettingZoo's own API and seed tests, and ours."""

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import parallel_api_test  # noqa: E402
from pettingzoo.test.seed_test import parallel_seed_test  # noqa: E402

from robomaze.errors import ParameterError  # noqa: E402
from robomaze.traffic import ObstacleSpec, RobotSpec, TrafficSpec  # noqa: E402
from robomaze.envs.multi_maze import MultiMazeEnv, parallel_env  # noqa: E402
from robomaze.world import WorldSpec  # noqa: E402


def spec(**kw):
    return TrafficSpec(world=WorldSpec(generator="kruskal", rows=2, cols=2, corridor=12,
                                       resolution=0.1, seed=0),
                       robots=RobotSpec(footprint="disc:0.15"), count=3, obstacle_count=1,
                       max_steps=150, **kw)


def test_parallel_api_test_passes():
    parallel_api_test(MultiMazeEnv(spec()), num_cycles=200)
    parallel_api_test(MultiMazeEnv(spec(), orca=True), num_cycles=50)


def test_parallel_seed_test_passes():
    parallel_seed_test(lambda: parallel_env(spec()), num_cycles=40)


def test_seeds_decide_everything_and_differ():
    def rollout(seed):
        env = MultiMazeEnv(spec())
        obs, _ = env.reset(seed=seed)
        seq = [np.concatenate([o["scan"] for o in obs.values()])]
        for t in range(30):
            acts = {a: np.array([0.3, 0.5 * np.sin(t + k)], np.float32)
                    for k, a in enumerate(env.agents)}
            obs, *_ = env.step(acts)
            seq.append(np.concatenate([o["odom"] for o in obs.values()]))
        return b"".join(x.tobytes() for x in seq)

    assert rollout(4) == rollout(4)
    assert rollout(4) != rollout(5)


def test_observations_and_rewards_mean_what_they_say():
    env = MultiMazeEnv(spec())
    obs, _ = env.reset(seed=1)
    w = env.world
    o = obs["robot_0"]
    assert np.allclose(o["odom"][:3], w.pose[0], atol=1e-6)
    d = w.goal[0] - w.pose[0, :2]
    assert np.hypot(*o["goal"]) == pytest.approx(np.hypot(*d), abs=1e-5)
    # the scan is the world's exact scan (REP 117 no-returns as range_max)
    assert np.allclose(o["scan"], np.minimum(w.exact_scan()[0], w.sensors[0].range_max),
                       atol=1e-5)
    # standing still earns nothing; driving towards the goal earns progress
    _, rew, *_ = env.step({a: np.zeros(2, np.float32) for a in env.agents})
    assert all(abs(r) < 1e-9 for r in rew.values())


def test_bad_actions_are_one_line_errors():
    env = MultiMazeEnv(spec())
    env.reset(seed=0)
    with pytest.raises(ParameterError, match="robot_0"):
        env.step({"robot_0": np.zeros(3)})
    with pytest.raises(ParameterError, match="unknown agent"):
        env.step({"robot_9": np.zeros(2)})
    with pytest.raises(ParameterError, match="seed"):
        env.reset(seed=-1)
