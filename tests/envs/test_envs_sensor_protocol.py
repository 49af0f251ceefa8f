"""robomaze/Maze-v0 takes any registered sensor through the sensor protocol.

A range sensor keeps its fast path and its ``Box(0, range_max)`` readings;
the test plugin's contact whiskers (``tests/plugins/whisker_agent.py``, a
non-range sensor registered by its spec) become a ``MultiBinary``
observation; a sensor that declares nothing is read off one observation.
gymnasium's own ``check_env`` is the client.
"""

import sys
import warnings

import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env

from robomaze import Maze, widen
from robomaze.errors import ParameterError
from robomaze.registry import AGENTS, SENSORS
from robomaze.sense import ReadingSpace, lidar, reading_space
from robomaze.envs.gym_env import MazeEnv


@pytest.fixture
def whisker_plugin():
    had = {"whiskers": "whiskers" in SENSORS, "bumper": "bumper" in AGENTS}
    from tests.plugins import whisker_agent

    # registered by the spec, as an entry point would (and again after another test unregistered it)
    SENSORS.register(whisker_agent.SENSOR_SPEC, replace=True)
    AGENTS.register(whisker_agent.AGENT_SPEC, replace=True)
    yield whisker_agent
    # leave the registries as found; the module goes too, so that a later
    # import registers the plugin again
    for reg, name in ((SENSORS, "whiskers"), (AGENTS, "bumper")):
        if not had[name] and name in reg:
            reg.unregister(name)
    if not (had["whiskers"] and had["bumper"]):
        sys.modules.pop("tests.plugins.whisker_agent", None)
        parent = sys.modules.get("tests.plugins")
        if parent is not None and hasattr(parent, "whisker_agent"):
            delattr(parent, "whisker_agent")


class Compass:
    """A sensor that declares no reading space: the heading, as one float."""

    def observe(self, grid, pose, *, rng=None, time: float = 0.0):
        return np.array([float(pose[2])])

    def describe(self) -> dict:
        return {"type": "compass"}


def _checked(env, *, allowed: str | None = None):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        check_env(env, skip_render_check=True)
    # any checker warning fails the test, but the one named
    left = [str(w.message) for w in seen if allowed is None or allowed not in str(w.message)]
    assert left == []


def test_check_env_passes_with_a_range_sensor_and_its_space_is_unchanged():
    env = MazeEnv(size=3, footprint=0.1, sensor="lidar", sensor_options={"n_beams": 12})
    _checked(env)
    assert env.observation_space["scan"] == spaces.Box(0.0, 3.5, (12,), np.float32)
    obs, _ = env.reset(seed=3)
    obs, *_ = env.step(np.array([0.5, 0.2], np.float32))
    # the fast path's reading is the sensor's own, no-return beams at range_max
    ref = env.robot.sensors[0].readings(env.grid, env.sim.pose)
    ref = np.where(np.isfinite(ref), ref, 3.5).astype(np.float32)
    np.testing.assert_array_equal(obs["scan"], ref)


def test_check_env_passes_with_the_plugins_contact_whiskers(whisker_plugin):
    env = MazeEnv(size=3, footprint=0.1, sensor="whiskers", sensor_options={"n": 6})
    _checked(env)
    assert env.observation_space["scan"] == spaces.MultiBinary(6)
    assert env.observation_space["odom"].shape == (5,)


def test_whisker_readings_reach_the_observation_by_hand(whisker_plugin):
    # a 1x2 maze, corridor 3 at 1 m per grid cell: the robot at the centre of
    # the free block's first cell, a wall 0.5 m behind it (west) and 0.5 m below
    # (south), open ahead (east) and 2.5 m of free space above (north)
    g = widen(Maze.empty(1, 2), corridor=3, wall=1, resolution=1.0)
    x, y = g.cell_to_world((3, 1))
    env = MazeEnv(g, footprint=0.1, sensor=whisker_plugin.whiskers(n=4, length=0.7),
                  start=(x, y, 0.0))
    obs, _ = env.reset(seed=0)
    # feelers ahead, left (north), behind (west), right (south)
    assert obs["scan"].tolist() == [0, 0, 1, 1]
    assert obs["scan"].dtype == np.int8 and env.observation_space["scan"].contains(obs["scan"])


def test_a_sensor_without_a_declared_space_is_read_off_one_observation():
    env = MazeEnv(size=3, footprint=0.1, sensor=Compass())
    # an undeclared float reading is unbounded, which the checker flags (and
    # is why a sensor may declare its reading_space)
    _checked(env, allowed="infinity")
    assert env.observation_space["scan"] == spaces.Box(-np.inf, np.inf, (1,), np.float64)
    obs, _ = env.reset(seed=0)
    assert obs["scan"][0] == env.sim.pose[2]


def test_reading_spaces_by_hand():
    assert reading_space(lidar(n_beams=5, range_max=2.0), None, None) == \
        ReadingSpace((5,), "float32", 0.0, 2.0)

    class Declared(Compass):
        def reading_space(self):
            return ReadingSpace((1,), "float32", -np.pi, np.pi)

    assert reading_space(Declared(), None, None).high == np.pi

    class Wrong(Compass):
        def reading_space(self):
            return (1,)

    with pytest.raises(ParameterError, match="must return a ReadingSpace"):
        reading_space(Wrong(), None, None)

    class Words(Compass):
        def observe(self, grid, pose, *, rng=None, time=0.0):
            return np.array(["left"])

    g = widen(Maze.empty(1, 1), corridor=3, wall=1)
    with pytest.raises(ParameterError, match="not numbers or switches"):
        reading_space(Words(), g, (1.5, 1.5, 0.0))


def test_what_needs_a_range_sensor_says_so_in_one_line(whisker_plugin):
    with pytest.raises(ParameterError, match="localize='mcl' needs a range sensor, got "
                                             "sensor=Whiskers"):
        MazeEnv(size=3, sensor="whiskers", localize="mcl")
    from robomaze.envs.gym_vector import MazeVectorEnv

    with pytest.raises(ParameterError, match="MazeVectorEnv casts range sensors"):
        MazeVectorEnv(2, size=3, sensor="whiskers")
