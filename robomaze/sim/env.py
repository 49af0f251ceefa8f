"""The simulator: a Gymnasium-style environment of one robot in one grid.

Contract (as ``gymnasium.Env``, without depending on gymnasium):

* ``reset(*, seed=None, options=None) -> (observation, info)``; ``options``
  may hold ``"start"`` and ``"goal"`` to override the constructor's.
* ``step(action) -> (observation, reward, terminated, truncated, info)``.

For a real ``gymnasium.Env`` (spaces, rendering, registration as
``robomaze/Maze-v0``) use :class:`robomaze.envs.gym_env.MazeEnv`, a thin env
over this one.

Observation: a dict with ``"scan"`` (the first sensor's reading: a range
sensor's :class:`~robomaze.sense.LaserScan`, REP 117 readings: ``+inf``
for no return; another sensor's ``observe`` result, see
:mod:`robomaze.sense.protocol`; None without sensors), ``"scans"``
(one per sensor), ``"odom"`` (``[x, y, theta, v, omega]`` -- ideal odometry:
the true pose and the velocity reached; with ``odometry_noise`` the pose
dead-reckoned from noisy velocity measurements instead, see
:mod:`robomaze.sim.odometry`), ``"time"`` and ``"collision"`` (whether the
last step was refused -- a bump sensor).

Each step the action goes through the kinematic limits and the pose is
integrated over ``dt``. If the footprint would touch a wall anywhere along
that motion (see :meth:`Collider.motion_collides`) the step is *refused*:
the robot stays where it was, its velocity drops to 0, the step is flagged
as a collision and a collision *event* is counted when the previous step was
not one. With ``on_collision="stop"`` the episode then terminates; with
``"continue"`` (default) it goes on.

``terminated`` is True when the reference point enters the goal region (or
on a collision with ``on_collision="stop"``); ``truncated`` when
``max_steps`` steps or ``max_time`` seconds have elapsed. Reward: ``-dt``
per step, ``-1`` per collision event, ``+10`` on reaching the goal.

Goal region: for a grid made by :func:`robomaze.widen` with no explicit
goal, the whole free block of the maze's first goal cell; otherwise the disc
of ``goal_radius`` metres (default: two grid cells) around the goal point.

Start and goal may be given as ``(row, col)`` grid cells (ints: the cell
centre), world points ``(x, y)`` or poses ``(x, y, theta)`` (floats). The
default start is the block centre of the maze's start cell, heading east.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .._seed import as_rng

from .._validate import check_choice, check_float, check_int
from ..errors import CollisionError, ParameterError
from ..grid import OccupancyGrid
from ..geometry.validity import Collider
from ..sense import LaserScan, RangeSensor, scan_rows
from .odometry import as_odometry_noise
from .robot import Robot
from .trajectory import Trajectory

__all__ = ["SimEnv", "GoalRegion", "as_point", "MAX_DT"]

#: Longest time step accepted (s): a step far past the robot's dynamics
#: only makes the collision sub-stepping count explode.
MAX_DT = 1.0


def as_point(grid: OccupancyGrid, value, name: str) -> tuple:
    """A ``(row, col)`` cell (ints) or world ``(x, y[, theta])`` (floats) as a world tuple."""
    try:
        vals = tuple(value)
    except TypeError:
        raise ParameterError(f"{name} must be (row, col), (x, y) or (x, y, theta), got {value!r}") from None
    if len(vals) not in (2, 3) or not all(isinstance(v, numbers.Real) and not isinstance(v, bool)
                                          for v in vals):
        raise ParameterError(f"{name} must be (row, col), (x, y) or (x, y, theta), got {value!r}")
    if len(vals) == 2 and all(isinstance(v, numbers.Integral) for v in vals):
        if not grid.in_bounds(vals):
            raise ParameterError(f"{name} cell {vals} is outside the {grid.rows}x{grid.cols} grid")
        return grid.cell_to_world(vals)
    out = tuple(float(v) for v in vals)
    if not all(math.isfinite(v) for v in out):
        raise ParameterError(f"{name} must be finite, got {value!r}")
    return out


class GoalRegion:
    """Where a run ends successfully: a disc, or an axis-aligned block of grid cells.

    >>> from robomaze import Maze, widen
    >>> g = widen(Maze.empty(2, 2), corridor=3, wall=1)
    >>> region = GoalRegion.for_grid(g)
    >>> region.kind, region.centre, region.contains(*region.centre), region.contains(1.5, 1.5)
    ('block', (6.5, 2.5), True, False)
    """

    def __init__(self, grid: OccupancyGrid, centre, radius: float | None = None,
                 block: tuple[slice, slice] | None = None) -> None:
        self.grid = grid
        self.centre = (float(centre[0]), float(centre[1]))
        self.radius = radius
        self.block = block
        self.kind = "block" if block is not None else "disc"

    @classmethod
    def for_grid(cls, grid: OccupancyGrid, goal=None, radius: float | None = None) -> "GoalRegion":
        """The default region of a grid (see the module docstring)."""
        if goal is None:
            if grid.maze is None:
                raise ParameterError("goal is required for a grid not made by widen()")
            cell = grid.maze.goals[0]
            rs, cs = grid.maze_block(cell)
            centre = grid.cell_to_world(grid.maze_centre(cell))
            if grid.widening.corridor % 2 == 0:   # even blocks: centre between cells
                centre = grid.cell_to_world(((rs.start + rs.stop - 1) / 2, (cs.start + cs.stop - 1) / 2))
            return cls(grid, centre, block=(rs, cs))
        point = as_point(grid, goal, "goal")
        r = 2.0 * grid.resolution if radius is None else check_float("goal_radius", radius,
                                                                       min_value=0.0)
        return cls(grid, point[:2], radius=r)

    def contains(self, x: float, y: float) -> bool:
        """Whether the world point lies in the region (closed)."""
        if self.block is None:
            return math.hypot(x - self.centre[0], y - self.centre[1]) <= self.radius
        a, b = self.grid.frame.to_units(x, y)
        rs, cs = self.block
        return cs.start <= a <= cs.stop and rs.start <= b <= rs.stop

    def describe(self) -> dict:
        if self.block is None:
            return {"kind": "disc", "centre": list(self.centre), "radius": self.radius}
        rs, cs = self.block
        return {"kind": "block", "centre": list(self.centre),
                "rows": [rs.start, rs.stop], "cols": [cs.start, cs.stop]}


def default_start(grid: OccupancyGrid) -> tuple:
    """The pose a run starts from by default: the maze start cell's block centre,
    heading 0 (east).

    >>> from robomaze import Maze, widen
    >>> default_start(widen(Maze.empty(1, 2), corridor=3, wall=1, resolution=0.1))
    (0.25, 0.25, 0.0)
    """
    if grid.maze is None:
        raise ParameterError("start is required for a grid not made by widen()")
    rs, cs = grid.maze_block(grid.maze.start)
    x, y = grid.cell_to_world(((rs.start + rs.stop - 1) / 2, (cs.start + cs.stop - 1) / 2))
    return (x, y, 0.0)


class SimEnv:
    """One robot in one occupancy grid (see the module docstring for the contract).

    Parameters
    ----------
    grid : OccupancyGrid
        The world; sensors and collisions both use it.
    robot : Robot
    start, goal : see the module docstring
    goal_radius : float, optional
        Radius of a point goal's disc region.
    dt : float
        Time step in seconds.
    max_steps : int
        Steps before truncation.
    max_time : float, optional
        Seconds before truncation.
    on_collision : {"continue", "stop"}
    record_scans : bool
        Keep the first sensor's readings in the trajectory.
    stop_at_goal : bool
        Set False to keep stepping after the goal (used by replay).
    rng : Generator, int or None
        Default seed source of :meth:`reset`.
    odometry_noise : OdometryNoise, str or None
        Noise of the odometry the agent sees (:mod:`robomaze.sim.odometry`);
        the true pose is not affected.

    Examples
    --------
    >>> from robomaze import Maze, widen
    >>> from robomaze.geometry import Footprint
    >>> from robomaze.sense import lidar
    >>> g = widen(Maze.empty(1, 3), corridor=3, wall=1)
    >>> env = SimEnv(g, Robot(Footprint.disc(0.5), sensors=[lidar(n_beams=8)]), dt=0.5)
    >>> obs, info = env.reset(seed=0)
    >>> obs["odom"].tolist()
    [2.5, 2.5, 0.0, 0.0, 0.0]
    >>> for _ in range(40):
    ...     obs, reward, terminated, truncated, info = env.step((0.5, 0.0))
    ...     if terminated:
    ...         break
    >>> terminated, info["collisions"], round(float(obs["odom"][0]), 3)
    (True, 0, 9.0)
    """

    def __init__(self, grid: OccupancyGrid, robot: Robot, *, start=None, goal=None,
                 goal_radius: float | None = None, dt: float = 0.05, max_steps: int = 10_000,
                 max_time: float | None = None, on_collision: str = "continue",
                 record_scans: bool = False, stop_at_goal: bool = True, rng=None,
                 odometry_noise=None) -> None:
        if not isinstance(grid, OccupancyGrid):
            raise ParameterError(f"grid must be an OccupancyGrid, got {type(grid).__name__}")
        if not isinstance(robot, Robot):
            raise ParameterError(f"robot must be a Robot, got {type(robot).__name__}")
        self.grid = grid
        self.robot = robot
        self.dt = check_float("dt", dt, min_value=0.0, strict_min=True, max_value=MAX_DT)
        self.max_steps = check_int("max_steps", max_steps, min_value=1)
        self.max_time = None if max_time is None else check_float("max_time", max_time,
                                                                  min_value=0.0, strict_min=True)
        self.on_collision = check_choice("on_collision", on_collision, ("continue", "stop"))
        self.record_scans = bool(record_scans)
        self.stop_at_goal = bool(stop_at_goal)
        self._start_arg, self._goal_arg, self._goal_radius = start, goal, goal_radius
        self._rng = as_rng(rng)
        self.odometry_noise = as_odometry_noise(odometry_noise)
        self.collider = Collider(grid, robot.footprint)
        # Noise-free sensors scan in one numba call per step (the public fast path).
        self._occ = grid.flat_occupancy()
        self._fast = [s.kernel_args if isinstance(s, RangeSensor) and s.noise is None else None
                      for s in robot.sensors]
        self._pose_row = np.empty((1, 3))
        self._kin = robot.kinematics
        self._sensor_rngs = [None] * len(robot.sensors)
        self._done = True
        self.start = None
        self.goal = None

    # ------------------------------------------------------------------ reset
    def _start_pose(self, value) -> tuple:
        if value is None:
            return default_start(self.grid)
        p = as_point(self.grid, value, "start")
        return p if len(p) == 3 else (p[0], p[1], 0.0)

    def reset(self, *, seed=None, options: dict | None = None):
        """Start a new episode; returns ``(observation, info)``."""
        if seed is not None:
            self._rng = as_rng(seed)
        options = dict(options or {})
        unknown = set(options) - {"start", "goal"}
        if unknown:
            raise ParameterError(f"reset options may be 'start' and 'goal', got {sorted(unknown)}")
        self.start = self._start_pose(options.get("start", self._start_arg))
        self.goal = GoalRegion.for_grid(self.grid, options.get("goal", self._goal_arg),
                                        self._goal_radius)
        if self.collider.collides(*self.start):
            raise CollisionError(
                f"start pose {tuple(round(v, 6) for v in self.start)} collides with a wall "
                f"for this footprint")
        self._sensor_rngs = [np.random.default_rng(int(self._rng.integers(2 ** 63)))
                             for _ in self.robot.sensors]
        # drawn only with noise, so noise-free runs keep their random streams
        self._odo_rng = (np.random.default_rng(int(self._rng.integers(2 ** 63)))
                         if self.odometry_noise is not None else None)
        self._pose = self.start
        self._vel = (0.0,) * self._kin.n_controls
        self._odo_pose, self._odo_vel = self._pose, self._vel
        self._t = 0.0
        self._n = 0
        self._events = 0
        self._prev_collision = False
        self._done = False
        cap = min(self.max_steps + 1, 4096)
        self._buf_pose = np.empty((cap, 3))
        self._buf_cmd = np.empty((cap, self._kin.n_controls))
        self._buf_col = np.empty(cap, bool)
        self._buf_t = np.empty(cap)
        self._scans = []
        obs = self._observe()
        obs["collision"] = False
        self._record(np.zeros(self._kin.n_controls), False, obs)
        return obs, self._info(False, False)

    # ------------------------------------------------------------------ step
    def step(self, action):
        """Advance ``dt``; returns ``(observation, reward, terminated, truncated, info)``."""
        if self._done:
            raise ParameterError("step() called on a finished episode; call reset() first")
        kin = self._kin
        cmd = kin.parse(action)
        dt = self.dt
        vel = kin.limit(cmd, self._vel, dt)
        new = kin.integrate(self._pose, vel, dt)
        collision = self.collider.motion_collides(self._pose, new)
        if collision:
            new = self._pose
            vel = (0.0,) * kin.n_controls
        self._pose, self._vel = new, vel
        if self.odometry_noise is not None:
            self._odo_vel = self.odometry_noise.measure(vel, self._odo_rng)
            self._odo_pose = kin.integrate(self._odo_pose, self._odo_vel, dt)
        else:
            self._odo_pose, self._odo_vel = new, vel
        self._n += 1
        self._t = self._n * dt
        reward = -dt
        if collision and not self._prev_collision:
            self._events += 1
            reward -= 1.0
        self._prev_collision = collision
        obs = self._observe()
        obs["collision"] = collision
        self._record(cmd, collision, obs)
        reached = self.goal.contains(new[0], new[1])
        terminated = (reached and self.stop_at_goal) or (collision and self.on_collision == "stop")
        if reached and self.stop_at_goal:
            reward += 10.0
        truncated = not terminated and (
            self._n >= self.max_steps or (self.max_time is not None and self._t >= self.max_time - 1e-12))
        if terminated or truncated:
            self._done = True
        return obs, reward, terminated, truncated, self._info(collision, reached)

    # ------------------------------------------------------------------ internals
    def _observe(self) -> dict:
        x, y, th = self._pose
        res, rows, cols, ox, oy, yaw = self.grid.frame.kernel_args
        scans = []
        for s, fast, rng in zip(self.robot.sensors, self._fast, self._sensor_rngs):
            if not isinstance(s, RangeSensor):   # any other sensor: the protocol's call
                scans.append(s.observe(self.grid, self._pose, rng=rng, time=self._t))
                continue
            if fast is None:
                ranges = s.readings(self.grid, self._pose, rng=rng)
            else:
                out = np.empty((1, s.n_beams))
                mount, cos_b, sin_b, rmin, rmax = fast
                row = self._pose_row
                row[0, 0], row[0, 1], row[0, 2] = x, y, th
                scan_rows(self._occ, rows, cols, res, ox, oy, yaw, row, mount, cos_b, sin_b,
                          rmin, rmax, True, out)
                ranges = out[0]
            scans.append(s.wrap(ranges, self._t))
        v = self._odo_vel
        odom = np.array([*self._odo_pose, v[0], v[-1]])
        return {"scan": scans[0] if scans else None, "scans": tuple(scans), "odom": odom,
                "time": self._t}

    def _record(self, cmd, collision: bool, obs) -> None:
        i = self._n
        if i >= len(self._buf_t):
            grow = min(2 * len(self._buf_t), self.max_steps + 1)
            for name in ("_buf_pose", "_buf_cmd", "_buf_col", "_buf_t"):
                old = getattr(self, name)
                new = np.empty((grow,) + old.shape[1:], old.dtype)
                new[: len(old)] = old
                setattr(self, name, new)
        self._buf_pose[i] = self._pose
        self._buf_cmd[i] = cmd
        self._buf_col[i] = collision
        self._buf_t[i] = self._t
        if self.record_scans and obs["scan"] is not None:
            first = obs["scan"]   # a LaserScan, or another sensor's reading
            self._scans.append(first.ranges if isinstance(first, LaserScan)
                               else np.asarray(first, float))

    def _info(self, collision: bool, reached: bool) -> dict:
        return {"collision": collision, "collisions": self._events, "steps": self._n,
                "time": self._t, "goal_reached": reached}

    @property
    def pose(self) -> tuple:
        """Current world pose ``(x, y, theta)``."""
        return self._pose

    @property
    def odometry_pose(self) -> tuple:
        """The pose the robot believes it is at (the true pose without odometry noise)."""
        return self._odo_pose

    @property
    def collision_events(self) -> int:
        return self._events

    def kidnap(self, dx: float, dy: float) -> tuple[float, float, float]:
        """Carry the robot by ``(dx, dy)`` metres unseen (odometry untouched); the new pose.

        The heading is kept. When the target pose collides, the nearest
        collision-free grid-cell centre within 1 m of it is taken; when there
        is none (the target is outside the maze), the same carry turned by a
        quarter, a half, then three quarters of a turn is tried
        (:mod:`robomaze.sim.kidnap`); with none at all, the robot stays.
        """
        x, y, th = self._pose
        for k in range(4):
            c, s_ = round(math.cos(k * math.pi / 2)), round(math.sin(k * math.pi / 2))
            tx, ty = x + c * float(dx) - s_ * float(dy), y + s_ * float(dx) + c * float(dy)
            found = self._free_near(tx, ty, th)
            if found is not None:
                self._pose = (found[0], found[1], th)
                break
        return self._pose

    def _free_near(self, tx: float, ty: float, th: float):
        if not self.collider.collides(tx, ty, th):
            return (tx, ty)
        r = int(math.ceil(1.0 / self.grid.resolution))
        c0 = self.grid.frame.world_to_cell((tx, ty))
        best = None
        for dr in range(-r, r + 1):
            for dc in range(-r, r + 1):
                rr, cc = c0[0] + dr, c0[1] + dc
                if not (0 <= rr < self.grid.rows and 0 <= cc < self.grid.cols):
                    continue
                cx, cy = self.grid.frame.cell_to_world((rr, cc))
                d = math.hypot(cx - tx, cy - ty)
                if d <= 1.0 and (best is None or d < best[0]) and \
                        not self.collider.collides(cx, cy, th):
                    best = (d, cx, cy)
        return None if best is None else (best[1], best[2])

    def trajectory(self, meta: dict | None = None) -> Trajectory:
        """The run so far as a :class:`Trajectory` (rows 0 .. steps)."""
        n = self._n + 1
        scans = np.array(self._scans) if self.record_scans and self._scans else None
        m = {"dt": self.dt, "start": list(self.start), "goal": self.goal.describe(),
             **self.robot.describe()}
        m.update(meta or {})
        return Trajectory(self._buf_t[:n], self._buf_pose[:n], self._buf_cmd[:n],
                          self._buf_col[:n], scans, meta=m)
