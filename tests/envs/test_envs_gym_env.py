"""robomaze/Maze-v0 as a real gymnasium.Env: gymnasium's own checker and wrappers."""

import math
import tomllib
import warnings
from importlib.metadata import EntryPoint
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.wrappers import FlattenObservation, RecordEpisodeStatistics, TimeLimit

from robomaze.errors import ParameterError
from robomaze.geometry import Footprint
from robomaze.sense import Gaussian, lidar
from robomaze.envs import gym_env
from robomaze.envs.gym_env import ENV_ID, MazeEnv

FOOTPRINTS = {
    "disc": 0.1,
    "rect": Footprint.rectangle(0.2, 0.12),
    "polygon": Footprint.polygon([(0.1, 0.0), (-0.07, 0.07), (-0.04, 0.0), (-0.07, -0.07)]),
}


@pytest.mark.parametrize("sensor", ["lidar", "ir", "none"])
@pytest.mark.parametrize("footprint", sorted(FOOTPRINTS))
def test_check_env_passes_without_warnings(footprint, sensor):
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # any checker warning fails the test
        env = gymnasium.make(ENV_ID, size=3, footprint=FOOTPRINTS[footprint], sensor=sensor,
                             max_steps=50)
        # The raw env, as check_env asks; it keeps its spec, so the render modes
        # and close() are checked through spec.make too.
        check_env(env.unwrapped)
        env.close()


def test_check_env_with_noise_and_a_new_maze_per_episode():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sensor = lidar(n_beams=12, noise=Gaussian(0.01))
        env = gymnasium.make(ENV_ID, size=4, sensor=sensor, maze_seed=None)
        check_env(env.unwrapped)
    a, _ = env.reset(seed=1)
    b, _ = env.reset(seed=1)
    assert all(np.array_equal(a[k], b[k]) for k in a)       # same seed, same maze and noise
    grids = set()
    for seed in range(6):
        env.reset(seed=seed)
        grids.add(env.unwrapped.grid.occupied.tobytes())
    assert len(grids) > 1


def test_spaces_are_plain_finite_boxes():
    env = MazeEnv(size=3, footprint=0.1)
    space = env.observation_space
    assert isinstance(space, gymnasium.spaces.Dict)
    for key, box in space.spaces.items():
        assert isinstance(box, gymnasium.spaces.Box), key
        assert box.dtype in (np.float32, np.float64)
        assert np.all(np.isfinite(box.low)) and np.all(np.isfinite(box.high))
    assert env.action_space == gymnasium.spaces.Box(-1.0, 1.0, (2,), np.float32)
    assert space["scan"].shape == (36,) and space["scan"].high[0] == np.float32(3.5)


def test_observation_matches_the_sensor_and_hand_computed_goal_vector():
    env = MazeEnv(size=3, footprint=0.1, sensor_options={"n_beams": 16})
    obs, _ = env.reset(seed=0)
    x, y, th = env.sim.pose
    s = env.robot.sensors[0]
    want = s.scan(env.grid, (x, y, th)).ranges
    want = np.where(np.isfinite(want), want, s.range_max).astype(np.float32)
    assert obs["scan"].tolist() == want.tolist()
    gx, gy = env.sim.goal.centre
    d = math.hypot(gx - x, gy - y)
    bearing = math.atan2(gy - y, gx - x) - th
    assert obs["goal"] == pytest.approx([d * math.cos(bearing), d * math.sin(bearing)])
    assert obs["odom"].tolist() == [x, y, th, 0.0, 0.0]


def test_action_scaling_by_hand():
    env = MazeEnv(size=3, footprint=0.1, sensor=None, kinematics={"a_max": 100.0,
                                                                   "alpha_max": 100.0})
    env.reset(seed=0)
    # Forward full: v_max = 0.5; turn half: omega = 0.5 * omega_max = 1.0.
    obs, *_ = env.step(np.array([1.0, 0.5], np.float32))
    assert obs["odom"][3:].tolist() == [0.5, 1.0]
    # Backward full: v_min = -v_max / 2; beyond [-1, 1] is clipped.
    obs, *_ = env.step(np.array([-3.0, -1.0], np.float32))
    assert obs["odom"][3:].tolist() == [-0.25, -2.0]
    with pytest.raises(ParameterError, match="action"):
        env.step(np.array([np.nan, 0.0]))


def test_wrappers_step():
    env = gymnasium.make(ENV_ID, size=3, max_steps=500)
    env = RecordEpisodeStatistics(TimeLimit(env, max_episode_steps=5))
    flat = FlattenObservation(env)
    obs, _ = flat.reset(seed=3)
    assert obs.ndim == 1 and obs.shape == flat.observation_space.shape == (36 + 5 + 2 + 1,)
    assert obs in flat.observation_space
    flat.action_space.seed(0)
    total = 0.0
    for i in range(5):
        obs, reward, terminated, truncated, info = flat.step(flat.action_space.sample())
        total += reward
    assert truncated and not terminated
    assert info["episode"]["l"] == 5
    assert info["episode"]["r"] == pytest.approx(total)


def test_reaches_the_goal_and_terminates():
    # A 1x3 corridor maze: drive east until the goal block.
    from robomaze import Maze, widen

    g = widen(Maze.empty(1, 3), corridor=3, wall=1, resolution=0.1)
    env = MazeEnv(g, footprint=0.1, sensor="ir")
    env.reset(seed=0)
    total = 0.0
    for _ in range(100):
        _, reward, terminated, truncated, info = env.step(np.array([1.0, 0.0], np.float32))
        total += reward
        if terminated:
            break
    assert terminated and info["goal_reached"] and reward > 9.0
    assert not truncated


def test_render_modes():
    env = MazeEnv(size=3, render_mode="rgb_array")
    env.reset(seed=0)
    img = env.render()
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    # Walls are drawn dark and free space light.
    assert img.min() < 128 < img.max()
    human = MazeEnv(size=3, render_mode="human")
    human.reset(seed=0)
    assert human.render() is None and human._fig is not None
    human.close()
    human.close()                                            # closing twice is allowed
    with pytest.raises(ParameterError, match="render_mode"):
        MazeEnv(render_mode="ansi")


def test_registered_on_import_and_by_entry_point():
    assert ENV_ID in gymnasium.envs.registry
    env = gymnasium.make("robomaze.envs.gym_env:robomaze/Maze-v0", size=2)
    assert isinstance(env.unwrapped, MazeEnv)
    # pyproject names register_envs for the gymnasium.envs entry point group.
    meta = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    value = meta["project"]["entry-points"]["gymnasium.envs"]["robomaze"]
    ep = EntryPoint(name="robomaze", value=value, group="gymnasium.envs")
    assert ep.load() is gym_env.register_envs
    ep.load()()                                              # idempotent
    assert ENV_ID in gymnasium.envs.registry


def test_bad_arguments_are_named():
    with pytest.raises(ParameterError, match="footprint"):
        MazeEnv(footprint="big")
    with pytest.raises(ParameterError, match="holonomic"):
        MazeEnv(kinematics={"holonomic": True})
    with pytest.raises(ParameterError, match="size"):
        MazeEnv(size=(3, "x"))


def test_core_imports_without_gymnasium():
    import os
    import subprocess
    import sys

    code = ("import sys; sys.modules['gymnasium'] = None\n"
            "import robomaze, robomaze.sim, robomaze.sense, robomaze.metrics, robomaze.bench\n"
            "try:\n"
            "    import robomaze.envs.gym_env\n"
            "except ImportError as e:\n"
            "    print('ImportError:', e)\n")
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).parents[2]))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    assert "pip install 'robomaze[gym]'" in out.stdout


def test_import_robomaze_after_gymnasium_registers_the_ids():
    import subprocess
    import sys

    code = ("import gymnasium, robomaze\n"
            "env = gymnasium.make('robomaze/Maze-v0', size=(3, 3), corridor=3, sensor='ir')\n"
            "obs, info = env.reset(seed=1)\n"
            "print(sorted(obs))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    assert "scan" in out.stdout
    # and plain `import robomaze` does not import gymnasium
    lazy = subprocess.run([sys.executable, "-c", "import sys, robomaze; "
                           "print('gymnasium' in sys.modules)"], capture_output=True, text=True,
                          timeout=600)
    assert lazy.stdout.strip() == "False"
