"""The batched vector env against N single envs under gymnasium's SyncVectorEnv."""

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv

from robomaze import Maze, widen
from robomaze.errors import ParameterError
from robomaze.geometry import Footprint
from robomaze.sense import Gaussian, lidar
from robomaze.envs.gym_env import ENV_ID, MazeEnv
from robomaze.envs.gym_vector import MazeVectorEnv

FOOTPRINTS = {
    "disc": 0.1,
    "rect": Footprint.rectangle(0.2, 0.12),
    "polygon": Footprint.polygon([(0.1, 0.0), (-0.07, 0.07), (-0.04, 0.0), (-0.07, -0.07)]),
}


def run_both(kw, n, steps, seed):
    vec = MazeVectorEnv(n, **kw)
    sync = SyncVectorEnv([lambda: MazeEnv(**kw) for _ in range(n)])
    assert sync.metadata["autoreset_mode"] == vec.metadata["autoreset_mode"] \
        == AutoresetMode.NEXT_STEP
    o1, _ = vec.reset(seed=seed)
    o2, _ = sync.reset(seed=seed)
    seen = {"terminated": 0, "truncated": 0, "collision": 0}
    rng = np.random.default_rng(seed)
    for t in range(steps):
        assert o1.keys() == o2.keys()
        for k in o1:
            assert o1[k].dtype == o2[k].dtype, k
            assert np.array_equal(o1[k], o2[k]), (t, k)
        a = rng.uniform(-1, 1, (n, 2)).astype(np.float32)
        a[:, 0] = np.abs(a[:, 0]) * 1.2         # mostly forward, sometimes beyond the limit
        o1, r1, te1, tr1, i1 = vec.step(a)
        o2, r2, te2, tr2, _ = sync.step(a)
        assert np.array_equal(r1, r2) and np.array_equal(te1, te2) and np.array_equal(tr1, tr2), t
        seen["terminated"] += int(te1.sum())
        seen["truncated"] += int(tr1.sum())
        seen["collision"] += int(o1["collision"].sum())
    assert o1 in vec.observation_space
    return seen


@pytest.mark.parametrize("sensor", ["lidar", "ir", "none"])
@pytest.mark.parametrize("footprint", sorted(FOOTPRINTS))
def test_same_actions_same_observations_as_single_envs(footprint, sensor):
    # A short corridor: robots reach the goal (termination and autoreset),
    # bump into walls (collisions) and run out of steps (truncation).
    g = widen(Maze.empty(1, 3), corridor=3, wall=1, resolution=0.1)
    kw = dict(grid=g, footprint=FOOTPRINTS[footprint], sensor=sensor, max_steps=25)
    seen = run_both(kw, n=6, steps=80, seed=1)
    assert seen["terminated"] > 0 and seen["truncated"] > 0 and seen["collision"] > 0


def test_generated_maze_rotated_origin_and_point_goal():
    g = widen(Maze.empty(2, 2), corridor=3, wall=1, resolution=0.1, origin=(0.3, -0.2, 0.4))
    kw = dict(grid=g, footprint=0.08, sensor="lidar", sensor_options={"n_beams": 24},
              goal=(0.8, 0.6), goal_radius=0.15, on_collision="stop", max_steps=40)
    seen = run_both(kw, n=5, steps=60, seed=2)
    assert seen["terminated"] > 0
    seen = run_both(dict(size=4, max_steps=30), n=4, steps=40, seed=3)
    assert seen["truncated"] > 0


def test_make_vec_uses_the_batched_env():
    envs = gymnasium.make_vec(ENV_ID, num_envs=3, size=3)
    assert isinstance(envs.unwrapped, MazeVectorEnv) and envs.num_envs == 3
    obs, _ = envs.reset(seed=0)
    obs, rew, term, trunc, info = envs.step(envs.action_space.sample())
    assert obs["scan"].shape == (3, 36) and rew.shape == (3,)
    assert obs in envs.observation_space
    envs.close()


def test_rejects_what_it_cannot_batch():
    with pytest.raises(ParameterError, match="noise"):
        MazeVectorEnv(2, sensor=lidar(n_beams=8, noise=Gaussian(0.01)))
    with pytest.raises(ParameterError, match="maze_seed"):
        MazeVectorEnv(2, maze_seed=None)
    with pytest.raises(ParameterError, match="num_envs"):
        MazeVectorEnv(0)
    envs = MazeVectorEnv(2, size=3)
    envs.reset(seed=0)
    with pytest.raises(ParameterError, match="actions"):
        envs.step(np.zeros((3, 2)))
