"""``simulate``: run one agent in one grid and measure the run.

>>> from robomaze import Maze, widen
>>> from robomaze.geometry import Footprint
>>> g = widen(Maze.empty(1, 3), corridor=5, wall=1, resolution=0.1)
>>> res = simulate(g, footprint=Footprint.disc(0.1), agent="explore", rng=0)
>>> res.success, res.metrics["collisions"], res.reason
(True, 0, 'goal')
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .._seed import as_rng
from .._validate import check_choice, check_float, check_int
from ..errors import NoPathError, ParameterError
from ..grid import OccupancyGrid
from ..localize import LOCALIZE_CHOICES, make_localizer
from ..metrics.localisation import localization_metrics, recovery_time
from ..sense.noise import parse_noise
from ..sense.sensor import RangeSensor, make_sensor
from .agents import AGENTS, AgentContext
from .env import MAX_DT, SimEnv
from .kinematics import Kinematics
from .robot import Robot
from .trajectory import Trajectory

__all__ = ["simulate", "SimResult", "default_sensor"]


@dataclass(frozen=True, eq=False)
class SimResult:
    """Outcome of :func:`simulate`.

    ``reason`` is ``"goal"``, ``"collision"`` (stopped on contact),
    ``"max_steps"``/``"max_time"`` (truncated) or ``"no_path"`` (the agent
    could not start, e.g. no collision-free path for ``follow_plan``, or
    gave up during the run, e.g. ``wall_follow`` circling); then
    ``info["error"]`` says why.
    """

    trajectory: Trajectory
    success: bool
    metrics: dict
    reason: str
    agent: object = None
    info: dict = field(default_factory=dict)
    #: ``(n, 3)`` poses the localizer estimated (one per trajectory row),
    #: None when ``localize="none"``; ``localizer`` is the localizer itself.
    estimate: np.ndarray | None = None
    localizer: object = None


def default_sensor(name: str, grid: OccupancyGrid, **options) -> RangeSensor:
    """The preset ``name`` of :data:`robomaze.sense.SENSORS` with ``options``.

    Presets are real sensors with their ranges in metres (``lidar``
    0.12-3.5 m, ``lidar_long`` 0.15-12 m, ``ir`` 0.02-0.3 m), the same on
    every grid: a grid's resolution says how many metres a cell is.
    """
    return make_sensor(name, **options)


def _check_sensor(agent_spec, sensor, sensor_obj) -> None:
    """Refuse a sensor the agent's spec does not ask for (``needs``
    ``"sensor:FLAG"``: a sensor whose spec carries FLAG; a range sensor
    instance has ``range``)."""
    from ..registry import SENSORS

    for need in agent_spec.needs:
        if not need.startswith("sensor:"):
            continue
        flag = need[7:]
        if isinstance(sensor, str):
            ok = SENSORS.spec(sensor).flag(flag)
        else:
            ok = flag != "range" or isinstance(sensor_obj, RangeSensor)
        if not ok:
            raise ParameterError(f"agent {agent_spec.name!r} needs a {flag} sensor, got "
                                 f"{sensor!r}")


def simulate(grid: OccupancyGrid, *, footprint, agent: str, sensor="lidar", start=None,
             goal=None, max_steps: int = 20_000, dt: float = 0.05, rng=None,
             kinematics: Kinematics | None = None, goal_radius: float | None = None,
             on_collision: str = "continue", max_time: float | None = None,
             record_scans: bool = False, noise=None, odometry_noise=None,
             observer=None, localize: str = "none", localize_options: dict | None = None,
             kidnap=None, **agent_options) -> SimResult:
    """Simulate ``agent`` driving a robot with ``footprint`` from start to goal.

    Parameters
    ----------
    grid : OccupancyGrid
    footprint : robomaze.geometry.Footprint
    agent : str
        A name in :data:`robomaze.sim.AGENTS`.
    sensor : str or RangeSensor
        A preset name (see :func:`default_sensor`) or a sensor.
    start, goal
        As in :class:`SimEnv` (defaults: the maze's start and goal cells).
    max_steps : int
        Truncate after this many steps.
    dt : float
        Time step, seconds.
    rng : Generator, int or None
        Seeds sensor noise and the agent's choices; same seed, same run.
    kinematics : Kinematics, optional
        Defaults to ``Kinematics()``. With a holonomic one, the agents' ``(v,
        omega)`` commands are sent as ``(v, 0, omega)``.
    goal_radius, on_collision, max_time, record_scans
        Passed to :class:`SimEnv`.
    noise : str, noise model or None
        Range noise of the preset ``sensor``: a spec string such as
        ``"gaussian:0.01"`` (:func:`robomaze.sense.noise.parse_noise`) or a
        model. A sensor instance carries its own noise instead.
    odometry_noise : str, OdometryNoise or None
        Noise of the odometry the agent sees (:mod:`robomaze.sim.odometry`);
        metrics use the true trajectory. With it, ``metrics`` also holds
        ``odometry_error``: the distance (m) between the believed and the
        true final position.
    observer : callable, optional
        Called with every observation of the run, in order (the start's,
        then one per step, as :meth:`SimEnv.step` returns them): what a
        recorder such as :mod:`robomaze.io.rosbag2` needs of the believed
        odometry. It must not change them.
    localize : {"none", "mcl", "slam"}
        How the agent knows its pose (:mod:`robomaze.localize`): ``none``
        -- it believes the odometry (dead reckoning; the run is exactly as
        without this option); ``mcl`` -- Monte Carlo localisation on the
        known map; ``slam`` -- a map built from the scans with scan
        matching. With a localizer the agent's ``obs["odom"]`` pose is the
        estimate, ``SimResult.estimate`` holds it per row and ``metrics``
        gains ``ate_rmse``, ``rpe_per_m`` and ``lost_time`` (and for
        ``slam`` ``map_iou_occupied``/``map_iou_free``,
        :mod:`robomaze.metrics.localisation`).
    localize_options : dict, optional
        Passed to the localizer (e.g. ``{"max_particles": 2000}``).
    kidnap : (T, DX, DY), "T,DX,DY" or None
        Carry the robot by ``(DX, DY)`` metres unseen at simulated time ``T``
        (:mod:`robomaze.sim.kidnap`); the metrics gain ``kidnap_recovery_s``
        (with a localizer) and ``length`` leaves the carry out.
    **agent_options
        Passed to the agent factory.

    Returns
    -------
    SimResult
        ``metrics`` from :func:`robomaze.metrics.trajectory_metrics`.

    Raises
    ------
    UnknownNameError
        For an unknown agent or sensor name.
    CollisionError
        If the start pose collides.
    """
    from .. import metrics as _metrics

    if not isinstance(grid, OccupancyGrid):
        raise ParameterError(f"grid must be an OccupancyGrid, got {type(grid).__name__}")
    agent_spec = AGENTS.spec(agent)   # UnknownNameError lists the agents
    factory = agent_spec.load()
    check_int("max_steps", max_steps, min_value=1)
    check_float("dt", dt, min_value=0.0, strict_min=True, max_value=MAX_DT)
    gen = as_rng(rng)
    noise_model = parse_noise(noise) if isinstance(noise, str) else noise
    if noise_model is not None and not isinstance(sensor, str):
        raise ParameterError("noise applies to a sensor preset name; give a sensor instance "
                             "its own noise instead")
    sensor_opts = {} if noise_model is None else {"noise": noise_model}
    sensor_obj = (default_sensor(sensor, grid, **sensor_opts) if isinstance(sensor, str)
                  else make_sensor(sensor))
    _check_sensor(agent_spec, sensor, sensor_obj)
    kin = Kinematics() if kinematics is None else kinematics
    robot = Robot(footprint, kin, sensors=(sensor_obj,))
    env = SimEnv(grid, robot, start=start, goal=goal, goal_radius=goal_radius, dt=dt,
                 max_steps=max_steps, max_time=max_time, on_collision=on_collision,
                 odometry_noise=odometry_noise,
                 record_scans=record_scans)
    check_choice("localize", localize, LOCALIZE_CHOICES)
    from .kidnap import parse_kidnap

    kid = parse_kidnap(kidnap)
    carried = None          # (time, distance) of the kidnapping once done
    env_seed, agent_seed = (int(v) for v in gen.integers(2 ** 63, size=2))
    obs, info = env.reset(seed=env_seed)
    if observer is not None:
        observer(obs)
    localizer = None
    if localize != "none":
        # drawn after the env and agent seeds, so they are those of localize="none"
        loc_seed = int(gen.integers(2 ** 63))
        localizer = make_localizer(localize, grid, sensor_obj, env.start, rng=loc_seed,
                                   **dict(localize_options or {}))
        estimates = []
    ctx = AgentContext(footprint=footprint, kinematics=kin, sensor=sensor_obj, dt=dt,
                       start=env.start, goal=env.goal, shape=grid.shape,
                       resolution=grid.resolution, origin=grid.origin, widening=grid.widening,
                       grid=grid if agent_spec.flag("uses_map") else None,
                       rng=np.random.default_rng(agent_seed))
    meta = {"agent": agent, "agent_options": {k: repr(v) for k, v in agent_options.items()},
            "seed": rng if isinstance(rng, int) else None,
            "odometry_noise": (env.odometry_noise.to_spec() if env.odometry_noise is not None
                               else "none")}
    reason = None
    try:
        controller = factory(ctx, **agent_options)
    except NoPathError as exc:
        controller, reason = None, "no_path"
        info = dict(info, error=str(exc))
    terminated = truncated = False
    if localizer is not None:
        meta["localize"] = localize
    if controller is not None:
        lift = kin.holonomic
        while not (terminated or truncated):
            try:
                action = controller(obs if localizer is None
                                    else _believed(obs, localizer, estimates))
            except NoPathError as exc:
                # The agent proved it cannot get there (e.g. a follower circling).
                reason = "no_path"
                info = dict(info, error=str(exc), no_path_reason=exc.reason)
                break
            if lift and len(action) == 2:
                # Agents steer like unicycles; a holonomic base just never side-slips.
                action = (action[0], 0.0, action[1])
            obs, _, terminated, truncated, info = env.step(action)
            if kid is not None and carried is None and not (terminated or truncated) \
                    and info["time"] >= kid[0] - 1e-12:
                before = env.pose
                after = env.kidnap(kid[1], kid[2])
                # seen from the next step on: this step's scan was taken before
                carried = (info["time"], math.hypot(after[0] - before[0], after[1] - before[1]))
            if observer is not None:
                observer(obs)
        if reason == "no_path":
            pass
        elif info["goal_reached"]:
            reason = "goal"
        elif terminated:
            reason = "collision"
        elif max_time is not None and info["time"] >= max_time - 1e-12:
            reason = "max_time"
        else:
            reason = "max_steps"
    traj = env.trajectory(meta=meta)
    success = reason == "goal"
    estimate = None
    if localizer is not None:
        if len(estimates) < len(traj):
            _believed(obs, localizer, estimates)
        estimate = np.array(estimates[:len(traj)], float).reshape(-1, 3)
    m = _metrics.trajectory_metrics(traj, grid, footprint=footprint, goal=env.goal,
                                    sensor=sensor_obj if agent_spec.flag("explorer") else None)
    m["reason"] = reason
    if env.odometry_noise is not None:
        bx, by = env.odometry_pose[:2]
        tx, ty = env.pose[:2]
        m["odometry_error"] = math.hypot(bx - tx, by - ty)
    if localizer is not None:
        m.update(localization_metrics(traj, estimate, grid, localizer))
    if carried is not None:
        # the carry is not the robot's own motion
        m["length"] = max(0.0, float(m["length"]) - carried[1])
        m["optimal_length"] = m["optimality_ratio"] = math.nan
        m["kidnap_time"], m["kidnap_distance"] = carried
        if localizer is not None:
            m["kidnap_recovery_s"] = recovery_time(traj.poses, estimate, dt, carried[0])
    return SimResult(traj, success, m, reason, controller, info, estimate, localizer)


def _believed(obs: dict, localizer, estimates: list) -> dict:
    """The observation with the localizer's estimate as the odometry pose."""
    est = localizer.update(obs["odom"][:3], obs["scan"].ranges)
    estimates.append(est)
    odom = obs["odom"].copy()
    odom[:3] = est
    return dict(obs, odom=odom)
