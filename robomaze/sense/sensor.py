"""Range sensors and the ROS-style ``LaserScan`` they return.

A :class:`RangeSensor` is a fan of ``n_beams`` beams mounted on the robot at
``mount = (x, y, theta)`` (robot frame, metres / radians). Its exact ranges
come from the DDA ray caster in :mod:`robomaze.sense._kernels`: the
distance from the sensor to the first point of the beam inside the closed
union of occupied grid squares (the grid border counts as a wall), capped at
``range_max``. Noise (see :mod:`robomaze.sense.noise`) is applied next, then
the readings are finished as ROS REP 117 says for ``sensor_msgs/LaserScan``:

* nothing within ``range_max`` (the exact range reaches ``range_max``, or
  noise pushed the reading to ``range_max`` or beyond -- a lost echo): the
  reading is ``+inf`` ("no return");
* an obstacle closer than ``range_min`` -- including a sensor whose origin is
  inside an occupied cell, where the exact range is 0 -- reads ``range_min``
  (REP 117 allows ``-inf`` there; robomaze keeps the reading finite so
  agents still see the wall);
* a reading a noise model marks invalid stays ``NaN``.

Beam angles follow ``sensor_msgs/LaserScan``: beam ``i`` points at
``angle_min + i * angle_increment`` (counter-clockwise from the robot's
heading) and ``angle_max = angle_min + (n - 1) * angle_increment``. A full
circle (``fov >= 2*pi``) starts at ``-pi`` with increment ``2*pi / n``;
narrower fans are centred on the heading.

Presets (:data:`SENSORS`) model real sensors, everything in metres:
``lidar`` a 360-beam 0.12-3.5 m scanner like the LDS-01 of the TurtleBot3,
``lidar_long`` a 360-beam 0.15-12 m scanner like an RPLIDAR A2, and ``ir``
five short-range 0.02-0.3 m infrared rangers as on a micromouse.

The public fast paths are :meth:`RangeSensor.cast_many` (exact ranges of a
batch of poses) and :meth:`RangeSensor.readings` (finished readings of one
pose, without building a :class:`LaserScan`); numba code calls
:func:`robomaze.sense.raycast.scan_into` with :attr:`RangeSensor.kernel_args`
(Python code: :func:`robomaze.sense.raycast.scan_rows`, the same caster).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .._seed import as_rng

from .._validate import check_float, check_int
from ..errors import ParameterError
from ..grid import OccupancyGrid
from . import _kernels
from .noise import as_noise

__all__ = ["LaserScan", "RangeSensor", "ir", "lidar", "lidar_long", "SENSORS", "make_sensor"]


def _no_intensities() -> np.ndarray:
    return np.zeros(0)


@dataclass(frozen=True)
class LaserScan:
    """One scan, shaped like ROS ``sensor_msgs/LaserScan`` (metres, radians, seconds).

    ``ranges`` follow REP 117: ``+inf`` for a beam with no return within
    ``range_max``, ``NaN`` for an invalid reading. ``time_increment`` (time
    between beams) and ``scan_time`` (time between scans) are 0 for the
    simulator's instantaneous scans; ``intensities`` is empty (the simulated
    sensors measure no intensity), as the message allows. ``time`` is the
    stamp (simulation seconds).
    """

    angle_min: float
    angle_max: float
    angle_increment: float
    range_min: float
    range_max: float
    ranges: np.ndarray
    time: float = 0.0
    time_increment: float = 0.0
    scan_time: float = 0.0
    intensities: np.ndarray = field(default_factory=_no_intensities)

    @property
    def angles(self) -> np.ndarray:
        """Beam angles in the sensor frame."""
        return self.angle_min + self.angle_increment * np.arange(len(self.ranges))


@dataclass(eq=False)
class RangeSensor:
    """A fan of range beams.

    Parameters
    ----------
    n_beams : int
        Number of beams (>= 1).
    fov : float
        Field of view in radians, ``0 < fov <= 2*pi`` (``>= 2*pi`` is a full circle).
    range_min, range_max : float
        Reading limits in metres, ``0 <= range_min < range_max``.
    mount : (x, y, theta)
        Sensor pose in the robot frame.
    noise : noise model, list of models or None
        Applied to the exact ranges before clipping.
    rng : Generator, int or None
        Noise source used when :meth:`scan` gets no ``rng``.

    Examples
    --------
    >>> import numpy as np
    >>> from robomaze.grid import OccupancyGrid
    >>> g = OccupancyGrid(np.pad(np.zeros((4, 4), bool), 1, constant_values=True))
    >>> s = RangeSensor(4, 2 * np.pi, 0.0, 10.0)
    >>> s.scan(g, (3.0, 3.0, 0.0)).ranges          # beams at -pi, -pi/2, 0, pi/2
    array([2., 2., 2., 2.])
    >>> RangeSensor(4, 2 * np.pi, 0.0, 1.5).scan(g, (3.0, 3.0, 0.0)).ranges   # no return
    array([inf, inf, inf, inf])
    """

    n_beams: int
    fov: float
    range_min: float
    range_max: float
    mount: tuple = (0.0, 0.0, 0.0)
    noise: object = None
    rng: object = None
    _angles: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.n_beams = check_int("n_beams", self.n_beams, min_value=1)
        self.fov = check_float("fov", self.fov, min_value=0.0, strict_min=True)
        self.range_min = check_float("range_min", self.range_min, min_value=0.0)
        self.range_max = check_float("range_max", self.range_max, min_value=self.range_min,
                                     strict_min=True)
        try:
            mount = tuple(float(v) for v in self.mount)
        except (TypeError, ValueError):
            raise ParameterError(f"mount must be (x, y, theta), got {self.mount!r}") from None
        if len(mount) != 3 or not all(math.isfinite(v) for v in mount):
            raise ParameterError(f"mount must be three finite numbers, got {self.mount!r}")
        self.mount = mount
        self.noise = as_noise(self.noise)
        self.rng = as_rng(self.rng)
        if self.fov >= 2 * math.pi - 1e-12:
            self.angle_increment = 2 * math.pi / self.n_beams
            self.angle_min = -math.pi
        else:
            self.angle_increment = self.fov / (self.n_beams - 1) if self.n_beams > 1 else 0.0
            self.angle_min = -self.fov / 2 if self.n_beams > 1 else 0.0
        self.angle_max = self.angle_min + (self.n_beams - 1) * self.angle_increment
        self._angles = self.angle_min + self.angle_increment * np.arange(self.n_beams)
        self._cos = np.cos(self._angles)
        self._sin = np.sin(self._angles)
        self._mount = np.array(mount, float)

    @property
    def angles(self) -> np.ndarray:
        """Beam angles relative to the sensor's heading (read-only copy)."""
        return self._angles.copy()

    @property
    def kernel_args(self) -> tuple:
        """``(mount, cos_b, sin_b, range_min, range_max)``, as :func:`~robomaze.sense.scan_into` takes.

        ``mount`` is the ``(x, y, theta)`` array, ``cos_b``/``sin_b`` the
        cosines and sines of the beam angles (read-only arrays).
        """
        return (self._mount, self._cos, self._sin, self.range_min, self.range_max)

    def sensor_pose(self, pose) -> tuple[float, float, float]:
        """World pose of the sensor on a robot at world ``pose = (x, y, theta)``."""
        x, y, th = (float(v) for v in pose[:3])
        mx, my, mth = self.mount
        c, s = math.cos(th), math.sin(th)
        return x + c * mx - s * my, y + s * mx + c * my, th + mth

    # ------------------------------------------------------------------ casting
    def cast_many(self, grid: OccupancyGrid, poses) -> np.ndarray:
        """Noise-free, unclipped ranges for robot poses ``(n, 3)`` -> ``(n, n_beams)``.

        The fast path for batches (metrics, agents, vector envs). Values are
        in ``[0, range_max]``: ``range_max`` means nothing was hit within
        range, 0 that the sensor sits in an obstacle.
        """
        if not isinstance(grid, OccupancyGrid):
            raise ParameterError(f"grid must be an OccupancyGrid, got {type(grid).__name__}")
        p = np.ascontiguousarray(poses, dtype=float)
        if p.ndim == 1:
            p = p.reshape(1, -1)
        if p.ndim != 2 or p.shape[1] != 3 or not np.all(np.isfinite(p)):
            raise ParameterError(f"poses must be finite (x, y, theta) rows, got shape {p.shape}")
        if not p.flags.writeable:
            p = p.copy()  # one kernel signature with the simulator's (writable) pose rows
        out = np.empty((p.shape[0], self.n_beams))
        res, rows, cols, ox, oy, yaw = grid.frame.kernel_args
        _kernels.scan_rows(grid.flat_occupancy(), rows, cols, res, ox, oy, yaw, p, self._mount,
                           self._cos, self._sin, self.range_min, self.range_max, False, out)
        return out

    #: Former name of :meth:`cast_many`.
    exact = cast_many

    def finish(self, exact: np.ndarray, rng=None) -> np.ndarray:
        """Readings from exact ranges: noise, then the REP 117 rules of the module docstring.

        ``rng`` (a Generator or seed) draws the noise; the sensor's own ``rng`` otherwise.
        """
        r = exact
        if self.noise is not None:
            r = self.noise(r, rng=as_rng(rng) if rng is not None else self.rng,
                           range_min=self.range_min, range_max=self.range_max)
        out = np.clip(r, self.range_min, self.range_max)
        out[(exact >= self.range_max) | (r >= self.range_max)] = np.inf
        return out

    def readings(self, grid: OccupancyGrid, pose, *, rng=None) -> np.ndarray:
        """Finished readings ``(n_beams,)`` of one robot pose (the simulator's hot path).

        Without noise a single numba call casts and finishes the scan.
        """
        if self.noise is not None:
            return self.finish(self.cast_many(grid, pose)[0], rng)
        p = np.array([[float(pose[0]), float(pose[1]), float(pose[2])]])
        out = np.empty((1, self.n_beams))
        res, rows, cols, ox, oy, yaw = grid.frame.kernel_args
        _kernels.scan_rows(grid.flat_occupancy(), rows, cols, res, ox, oy, yaw, p, self._mount,
                           self._cos, self._sin, self.range_min, self.range_max, True, out)
        return out[0]

    def observe(self, grid: OccupancyGrid, pose, *, rng=None, time: float = 0.0) -> LaserScan:
        """The sensor protocol's reading (:mod:`robomaze.sense.protocol`): one
        :class:`LaserScan` of the robot at world ``pose``."""
        return self.wrap(self.readings(grid, pose, rng=rng), time)

    def scan(self, grid: OccupancyGrid, pose, *, rng=None, time: float = 0.0) -> LaserScan:
        """One :class:`LaserScan` from a robot at world ``pose = (x, y, theta)``."""
        p = np.asarray(pose, dtype=float).reshape(-1)
        return self.wrap(self.finish(self.cast_many(grid, p)[0], rng), time)

    def wrap(self, ranges: np.ndarray, time: float = 0.0) -> LaserScan:
        """A :class:`LaserScan` of this sensor holding ``ranges`` stamped ``time``."""
        return LaserScan(self.angle_min, self.angle_max, self.angle_increment,
                         self.range_min, self.range_max, ranges, time)

    def scan_many(self, grid: OccupancyGrid, poses, *, rng=None) -> np.ndarray:
        """Finished readings for a batch of poses: ``(n, 3)`` -> ``(n, n_beams)`` array."""
        return self.finish(self.cast_many(grid, poses), rng)

    def reading_space(self):
        """What one reading is for learning code (:func:`robomaze.sense.reading_space`):
        ``n_beams`` float32 ranges in ``[0, range_max]`` (no return and invalid
        beams read ``range_max``).

        >>> lidar(n_beams=4).reading_space()
        ReadingSpace(shape=(4,), dtype='float32', low=0.0, high=3.5)
        """
        from .protocol import ReadingSpace

        return ReadingSpace((int(self.n_beams),), "float32", 0.0, float(self.range_max))

    def describe(self) -> dict:
        """JSON-friendly parameters (noise as its repr), for trajectory headers."""
        return {"n_beams": self.n_beams, "fov": self.fov, "range_min": self.range_min,
                "range_max": self.range_max, "mount": list(self.mount),
                "noise": repr(self.noise) if self.noise is not None else None}


def ir(*, range_max: float = 0.3, range_min: float = 0.02, noise=None, rng=None,
       mount=(0.0, 0.0, 0.0)) -> RangeSensor:
    """Micromouse-style IR: 5 beams at -90, -45, 0, 45 and 90 degrees, 0.02-0.3 m.

    The range of the short-range infrared rangers micromice carry (an
    emitter/phototransistor pair, or a Sharp GP2Y0A41-class sensor reading
    4-30 cm).

    >>> s = ir(); np.degrees(s.angles).round().tolist(), s.range_min, s.range_max
    ([-90.0, -45.0, 0.0, 45.0, 90.0], 0.02, 0.3)
    """
    return RangeSensor(5, math.pi, range_min, range_max, mount=mount, noise=noise, rng=rng)


def lidar(*, n_beams: int = 360, range_max: float = 3.5, range_min: float = 0.12,
          noise=None, rng=None, mount=(0.0, 0.0, 0.0)) -> RangeSensor:
    """A full-circle planar lidar like the TurtleBot3's LDS-01: 360 beams, 0.12-3.5 m.

    >>> s = lidar(n_beams=36); s.n_beams, round(float(np.degrees(s.angle_increment)), 6)
    (36, 10.0)
    >>> s.range_min, s.range_max
    (0.12, 3.5)
    """
    return RangeSensor(n_beams, 2 * math.pi, range_min, range_max, mount=mount, noise=noise,
                       rng=rng)


def lidar_long(*, n_beams: int = 360, range_max: float = 12.0, range_min: float = 0.15,
               noise=None, rng=None, mount=(0.0, 0.0, 0.0)) -> RangeSensor:
    """A long-range full-circle lidar like an RPLIDAR A2: 360 beams, 0.15-12 m.

    >>> s = lidar_long(); s.n_beams, s.range_min, s.range_max
    (360, 0.15, 12.0)
    """
    return RangeSensor(n_beams, 2 * math.pi, range_min, range_max, mount=mount, noise=noise,
                       rng=rng)


#: Sensor presets by name (ranges in metres, see the module docstring): the
#: registry :data:`robomaze.registry.SENSORS` (specs in ``sense/_specs.py``).
from ..registry import SENSORS  # noqa: E402


def make_sensor(sensor, **options):
    """A sensor from an instance (a :class:`RangeSensor` or any object meeting
    the sensor protocol, :mod:`robomaze.sense.protocol`) or a registered
    name plus options."""
    from .protocol import is_sensor

    if isinstance(sensor, RangeSensor) or (not isinstance(sensor, str) and is_sensor(sensor)):
        if options:
            raise ParameterError("sensor options only apply to preset names, not instances")
        return sensor
    if isinstance(sensor, str):
        return SENSORS.lookup(sensor)(**options)
    raise ParameterError(f"sensor must be a RangeSensor or a preset name, got {sensor!r}")
