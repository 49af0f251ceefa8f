"""A real ``gymnasium.Env`` over :class:`~robomaze.sim.SimEnv`: robomaze/Maze-v0.

Needs the ``gym`` extra (``pip install 'robomaze[gym]'``); the rest of
robomaze does not import gymnasium. Importing this module registers the
ids (so does :func:`register_envs`, which the ``gymnasium.envs`` entry point
names)::

    import gymnasium, robomaze.envs.gym_env
    env = gymnasium.make("robomaze/Maze-v0", size=6, footprint=0.1, sensor="lidar")
    # or, without the import: gymnasium.make("robomaze.envs.gym_env:robomaze/Maze-v0")

Spaces (all plain arrays, every bound finite):

* action ``Box(-1, 1, (2,), float32)``: normalised ``(v, omega)``; ``v``
  scales to ``[v_min, v_max]`` (negative actions to ``v_min``, the
  reverse limit), ``omega`` to ``[-omega_max, omega_max]``; values outside
  ``[-1, 1]`` are clipped. The kinematic limits of
  :class:`~robomaze.sim.Kinematics` then apply as in ``SimEnv``.
* observation ``Dict``:

  - ``"scan"``: the reading of the robot's (first) sensor. A range sensor's
    is ``Box(0, range_max, (n_beams,), float32)``: a beam with no return
    (``+inf`` in the REP 117 :class:`~robomaze.sense.LaserScan`) or an
    invalid one (NaN) reads ``range_max``, since learning code needs finite
    inputs. Any other registered sensor (the sensor protocol,
    :mod:`robomaze.sense.protocol`) gives the space of its
    :func:`~robomaze.sense.reading_space`: ``MultiBinary`` for switches
    (a contact sensor), else a ``Box`` of its shape and type. Absent
    without a sensor (``sensor=None``).
  - ``"odom"`` ``Box(float64)`` ``[x, y, theta, v, omega]``: pose in the
    world frame and the velocity reached (with ``odometry_noise``, the
    dead-reckoned pose; with ``localize="mcl"`` or ``"slam"``, the
    localizer's estimate of the pose, :mod:`robomaze.localize`).
  - ``"goal"`` ``Box(float64, (2,))``: the goal centre in the robot frame.
  - ``"collision"`` ``Box(0, 1, (1,), float32)``: 1 when the last step
    was refused (a bump sensor).

Rewards, termination and truncation are ``SimEnv``'s: ``-dt`` per step,
``-1`` per collision event, ``+10`` on reaching the goal block; truncated
after ``max_steps`` steps.

Seeding: ``reset(seed=...)`` seeds :attr:`np_random` (``super().reset``);
every random draw (the sensor noise, and a new maze per episode with
``maze_seed=None``) comes from it.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

try:
    import gymnasium as gym
    from gymnasium import spaces
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("robomaze.envs.gym_env needs gymnasium: pip install 'robomaze[gym]'") from exc

from .._validate import check_choice, check_float, check_int
from ..errors import ParameterError
from ..grid import OccupancyGrid
from ..sense.protocol import is_sensor, reading_space
from ..sense.sensor import RangeSensor, make_sensor
from ..sim.env import SimEnv, default_start
from ..sim.kinematics import Kinematics
from ..sim.robot import Robot
from . import _obs_kernels

__all__ = ["MazeEnv", "register_envs", "ENV_ID", "build_robot", "build_grid", "sensor_space"]

#: The registered id.
ENV_ID = "robomaze/Maze-v0"


def build_grid(*, generator: str = "backtracker", size=8, corridor: int = 3, wall: int = 1,
               resolution: float = 0.1, braid: float = 0.0, seed=0) -> OccupancyGrid:
    """A generated maze widened into a grid: ``size`` is ``n`` or ``(rows, cols)``.

    >>> build_grid(size=(2, 3), corridor=2, resolution=0.5).shape
    (7, 10)
    """
    from ..world import WorldSpec

    if isinstance(size, numbers.Integral):
        rows = cols = int(size)
    else:
        try:
            rows, cols = (int(v) for v in size)
        except (TypeError, ValueError):
            raise ParameterError(f"size must be n or (rows, cols), got {size!r}") from None
    rows = check_int("size rows", rows, min_value=1)
    cols = check_int("size cols", cols, min_value=1)
    # the one seed rule (robomaze.world): the maze of seed S is the CLI's --seed S
    return WorldSpec(generator=generator, rows=rows, cols=cols, seed=seed, braid=braid,
                     corridor=corridor, wall=wall, resolution=resolution).build().grid


def build_robot(footprint, sensor, kinematics, sensor_options: dict | None = None) -> Robot:
    """A :class:`Robot` from the env's kwargs (footprint: Footprint or disc radius)."""
    from ..geometry import check_footprint

    footprint = check_footprint(footprint, optional=False, radius=True)
    if kinematics is None:
        kinematics = Kinematics()
    elif isinstance(kinematics, dict):
        kinematics = Kinematics(**kinematics)
    if kinematics.holonomic:
        raise ParameterError("robomaze/Maze-v0 drives unicycles; holonomic kinematics are not "
                             "supported by the Gymnasium env")
    if sensor is None or sensor == "none":
        sensors = ()
    elif not isinstance(sensor, str) and is_sensor(sensor):
        if sensor_options:
            raise ParameterError("sensor_options only apply to preset names")
        sensors = (sensor,)
    else:
        sensors = (make_sensor(sensor, **dict(sensor_options or {})),)
    return Robot(footprint, kinematics, sensors=sensors)


def observation_space(grid: OccupancyGrid, robot: Robot) -> spaces.Dict:
    """The observation space of a robot in a grid (see the module docstring)."""
    corners = np.array([[0.0, 0.0], [grid.cols, 0.0], [0.0, grid.rows],
                        [float(grid.cols), float(grid.rows)]])
    x, y = grid.frame.from_units(corners[:, 0], corners[:, 1])
    kin = robot.kinematics
    lo = np.array([x.min(), y.min(), -math.pi, kin.v_min, -kin.omega_max])
    hi = np.array([x.max(), y.max(), math.pi, kin.v_max, kin.omega_max])
    diag = math.hypot(grid.width, grid.height)
    out = {}
    if robot.sensors:
        out["scan"] = sensor_space(grid, robot.sensors[0])
    out["odom"] = spaces.Box(lo, hi, (5,), np.float64)
    out["goal"] = spaces.Box(-diag, diag, (2,), np.float64)
    out["collision"] = spaces.Box(0.0, 1.0, (1,), np.float32)
    return spaces.Dict(out)


def sensor_space(grid: OccupancyGrid, sensor) -> spaces.Space:
    """The observation space of one sensor's reading (its
    :func:`~robomaze.sense.reading_space`; a sensor that does not declare
    one is observed once from the grid's default start).

    >>> from robomaze.sense import lidar
    >>> sensor_space(build_grid(size=2), lidar(n_beams=8))
    Box(0.0, 3.5, (8,), float32)
    """
    if isinstance(sensor, RangeSensor):
        # the fast path's space, as before the protocol (byte for byte)
        return spaces.Box(0.0, sensor.range_max, (sensor.n_beams,), np.float32)
    rs = reading_space(sensor, grid, default_start(grid))
    if rs.dtype == "bool":
        return spaces.MultiBinary(rs.shape[0] if len(rs.shape) == 1 else list(rs.shape))
    return spaces.Box(rs.low, rs.high, rs.shape, np.dtype(rs.dtype))


def action_space() -> spaces.Box:
    """``Box(-1, 1, (2,), float32)``: normalised ``(v, omega)``."""
    return spaces.Box(-1.0, 1.0, (2,), np.float32)


class MazeEnv(gym.Env):
    """One robot in a (generated) maze as a ``gymnasium.Env`` (see the module docstring).

    Parameters
    ----------
    grid : OccupancyGrid, optional
        The world. Default: a ``generator`` maze of ``size`` cells widened
        with ``corridor``/``wall`` at ``resolution`` (metres per grid cell),
        drawn with ``maze_seed`` (None: a new maze each episode from
        :attr:`np_random`).
    footprint : Footprint or float
        The robot's footprint, a number being a disc radius in metres.
    sensor : str, sensor or None
        A name in :data:`robomaze.registry.SENSORS` (with ``sensor_options``,
        e.g. ``{"n_beams": 36}``): a range preset or any registered sensor;
        a sensor object (a :class:`~robomaze.sense.RangeSensor` or anything
        meeting the sensor protocol); or None / ``"none"``.
    kinematics : Kinematics or dict, optional
    dt : float
        Seconds per step.
    max_steps : int
        Steps before truncation.
    start, goal, goal_radius, on_collision, odometry_noise
        As in :class:`~robomaze.sim.SimEnv`.
    localize : {"none", "mcl", "slam"}
        What ``obs["odom"]`` holds as the pose: the odometry (``"none"``)
        or a localizer's estimate from the odometry and the scan
        (:data:`robomaze.localize.LOCALIZERS`; needs a sensor). Its
        generator is drawn from :attr:`np_random` after the simulator's, so
        ``"none"`` episodes are those of an env without the option.
    localize_options : dict, optional
        Passed to the localizer.
    render_mode : {"rgb_array", "human"} or None

    Examples
    --------
    >>> env = MazeEnv(size=3, footprint=0.1, sensor_options={"n_beams": 8})
    >>> obs, info = env.reset(seed=1)
    >>> sorted(obs), obs["scan"].dtype, obs["odom"].shape
    (['collision', 'goal', 'odom', 'scan'], dtype('float32'), (5,))
    >>> obs, reward, terminated, truncated, info = env.step(np.array([1.0, 0.0], np.float32))
    >>> round(float(obs["odom"][3]), 3), reward    # accelerating at a_max = 1 m/s^2
    (0.1, -0.1)
    """

    metadata = {"render_modes": ["rgb_array", "human"], "render_fps": 10}

    def __init__(self, grid: OccupancyGrid | None = None, *, generator: str = "backtracker",
                 size=8, corridor: int = 3, wall: int = 1, resolution: float = 0.1,
                 braid: float = 0.0, maze_seed: int | None = 0, footprint=0.1,
                 sensor="lidar", sensor_options: dict | None = None, kinematics=None,
                 dt: float = 0.1, max_steps: int = 1000, start=None, goal=None,
                 goal_radius: float | None = None, on_collision: str = "continue",
                 render_mode: str | None = None, odometry_noise=None, localize: str = "none",
                 localize_options: dict | None = None) -> None:
        if render_mode is not None:
            check_choice("render_mode", render_mode, tuple(self.metadata["render_modes"]))
        self.render_mode = render_mode
        if sensor_options is None and sensor == "lidar":
            sensor_options = {"n_beams": 36}
        self.robot = build_robot(footprint, sensor, kinematics, sensor_options)
        from ..localize import LOCALIZE_CHOICES

        self.localize = check_choice("localize", localize, LOCALIZE_CHOICES)
        if self.localize != "none" and not self.robot.sensors:
            raise ParameterError(f"localize={localize!r} needs a range sensor, got sensor=None")
        self._range_sensor = (bool(self.robot.sensors)
                              and isinstance(self.robot.sensors[0], RangeSensor))
        if self.localize != "none" and not self._range_sensor:
            raise ParameterError(f"localize={localize!r} needs a range sensor, got sensor="
                                 f"{type(self.robot.sensors[0]).__name__}")
        self._localize_options = dict(localize_options or {})
        self.localizer = None
        self._maze_kw = dict(generator=generator, size=size, corridor=corridor, wall=wall,
                             resolution=resolution, braid=braid)
        self.maze_seed = maze_seed
        if grid is not None and not isinstance(grid, OccupancyGrid):
            raise ParameterError(f"grid must be an OccupancyGrid, got {type(grid).__name__}")
        self._fixed_grid = grid
        self._sim_kw = dict(start=start, goal=goal, goal_radius=goal_radius,
                            dt=check_float("dt", dt, min_value=0.0, strict_min=True),
                            max_steps=check_int("max_steps", max_steps, min_value=1),
                            on_collision=on_collision, odometry_noise=odometry_noise)
        first = grid if grid is not None else build_grid(
            seed=0 if maze_seed is None else maze_seed, **self._maze_kw)
        self._set_grid(first)
        # A maze per episode: the spaces depend on the grid's extent only.
        self.observation_space = observation_space(first, self.robot)
        self.action_space = action_space()
        self._fig = None
        self._last_scan = None

    # ------------------------------------------------------------------ gymnasium API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if self._fixed_grid is None and self.maze_seed is None:
            self._set_grid(build_grid(seed=int(self.np_random.integers(2 ** 63)),
                                      **self._maze_kw))
        obs, info = self.sim.reset(seed=int(self.np_random.integers(2 ** 63)), options=options)
        if self.localize != "none":
            from ..localize import make_localizer

            self.localizer = make_localizer(
                self.localize, self.grid, self.robot.sensors[0], self.sim.start,
                rng=int(self.np_random.integers(2 ** 63)), **self._localize_options)
        self._goal_xy = self.sim.goal.centre
        out = self._observation(obs)
        if self.render_mode == "human":
            self.render()
        return out, dict(info)

    def step(self, action):
        a = np.asarray(action, dtype=np.float64).reshape(-1)
        if a.shape != (2,) or not np.all(np.isfinite(a)):
            raise ParameterError(f"action must be 2 finite numbers in [-1, 1], got {action!r}")
        kin = self.robot.kinematics
        cmd = _obs_kernels.scale_command(a[0], a[1], kin.v_min, kin.v_max, kin.omega_max)
        obs, reward, terminated, truncated, info = self.sim.step(cmd)
        out = self._observation(obs)
        if self.render_mode == "human":
            self.render()
        return out, float(reward), bool(terminated), bool(truncated), dict(info)

    def render(self):
        """An RGB ``uint8`` image (``"rgb_array"``) or a matplotlib window (``"human"``)."""
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode; pass render_mode= to make()")
            return None
        from ..viz import sim_frame

        if self.render_mode == "rgb_array":
            return sim_frame.rgb_array(self)
        self._fig = sim_frame.human(self, self._fig)
        return None

    def close(self) -> None:
        if self._fig is not None:
            import matplotlib.pyplot as plt

            plt.close(self._fig)
            self._fig = None

    # ------------------------------------------------------------------ internals
    def _set_grid(self, grid: OccupancyGrid) -> None:
        self.grid = grid
        self.sim = SimEnv(grid, self.robot, **self._sim_kw)

    def _observation(self, obs: dict) -> dict:
        out = {}
        scan = obs["scan"]
        # what render draws: a range sensor's beams
        self._last_scan = scan if self._range_sensor else None
        if scan is not None and self._range_sensor:
            r = np.empty(len(scan.ranges), np.float32)
            _obs_kernels.finite_scan(scan.ranges, scan.range_max, r)
            out["scan"] = r
        elif scan is not None:   # any other sensor: its reading, in its space's type
            space = self.observation_space["scan"]
            out["scan"] = np.asarray(scan).astype(space.dtype).reshape(space.shape)
        odom = np.array(obs["odom"], dtype=np.float64)
        if self.localizer is not None:
            odom[:3] = self.localizer.update(odom[:3], scan.ranges)
        out["odom"] = odom
        g = np.empty(2)
        _obs_kernels.goal_vector(odom[0], odom[1], odom[2], self._goal_xy[0], self._goal_xy[1], g)
        out["goal"] = g
        out["collision"] = np.array([1.0 if obs["collision"] else 0.0], np.float32)
        return out


def register_envs() -> None:
    """Register ``robomaze/Maze-v0`` with gymnasium (idempotent).

    Called on import of this module and named by the ``gymnasium.envs``
    entry point in ``pyproject.toml``.
    """
    from .._gym_hook import register

    register(gym)


register_envs()
