"""Range sensors and the ROS-style ``LaserScan`` they return.

A :class:`RangeSensor` is a fan of ``n_beams`` beams mounted on the robot at
``mount = (x, y, theta)`` (robot frame, metres / radians). Its exact ranges
come from the DDA ray caster in :mod:`robomaze.sense._kernels`: the
distance from the sensor to the first point of the beam inside the closed
union of occupied grid squares (the grid border counts as a wall), capped at
``range_max``. Noise (see :mod:`robomaze.sense.noise`) is applied next, then
every reading is clipped to ``[range_min, range_max]``. So

* nothing within ``range_max``: the reading is ``range_max`` ("no return");
* an obstacle closer than ``range_min`` -- including a sensor whose origin is
  inside an occupied cell, where the exact range is 0 -- reads ``range_min``.

Beam angles follow ``sensor_msgs/LaserScan``: beam ``i`` points at
``angle_min + i * angle_increment`` (counter-clockwise from the robot's
heading) and ``angle_max = angle_min + (n - 1) * angle_increment``. A full
circle (``fov >= 2*pi``) starts at ``-pi`` with increment ``2*pi / n``;
narrower fans are centred on the heading.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .._validate import as_rng, check_float, check_int
from ..errors import ParameterError
from ..grid import OccupancyGrid
from . import _kernels
from .noise import as_noise

__all__ = ["LaserScan", "RangeSensor", "ir", "lidar", "SENSORS", "make_sensor", "flat_occupancy"]


@dataclass(frozen=True)
class LaserScan:
    """One scan, shaped like ROS ``sensor_msgs/LaserScan`` (metres, radians)."""

    angle_min: float
    angle_max: float
    angle_increment: float
    range_min: float
    range_max: float
    ranges: np.ndarray
    time: float = 0.0

    @property
    def angles(self) -> np.ndarray:
        """Beam angles in the sensor frame."""
        return self.angle_min + self.angle_increment * np.arange(len(self.ranges))


def flat_occupancy(grid: OccupancyGrid) -> np.ndarray:
    """Flat uint8 occupancy of a grid, cached on the grid (what the kernels read)."""
    flat = grid._cache.get("sense.flat_u8")
    if flat is None:
        flat = _kernels.as_flat_occ(grid.occupied)
        grid._cache["sense.flat_u8"] = flat
    return flat


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

    # ------------------------------------------------------------------ casting
    def exact(self, grid: OccupancyGrid, poses) -> np.ndarray:
        """Noise-free, unclipped-below ranges for robot poses ``(n, 3)`` -> ``(n, n_beams)``.

        Values are in ``[0, range_max]``; 0 means the sensor sits in an obstacle.
        """
        if not isinstance(grid, OccupancyGrid):
            raise ParameterError(f"grid must be an OccupancyGrid, got {type(grid).__name__}")
        p = np.ascontiguousarray(poses, dtype=float)
        if p.ndim == 1:
            p = p.reshape(1, -1)
        if p.ndim != 2 or p.shape[1] != 3 or not np.all(np.isfinite(p)):
            raise ParameterError(f"poses must be finite (x, y, theta) rows, got shape {p.shape}")
        out = np.empty((p.shape[0], self.n_beams))
        ox, oy, oyaw = grid.origin
        _kernels.scan_poses(flat_occupancy(grid), grid.rows, grid.cols, grid.resolution,
                            ox, oy, oyaw, p, self._mount, self._cos, self._sin, self.range_max, out)
        return out

    def _finish(self, exact: np.ndarray, rng) -> np.ndarray:
        r = exact
        if self.noise is not None:
            r = self.noise(r, rng=as_rng(rng) if rng is not None else self.rng,
                           range_min=self.range_min, range_max=self.range_max)
        return np.clip(r, self.range_min, self.range_max)

    def scan(self, grid: OccupancyGrid, pose, *, rng=None, time: float = 0.0) -> LaserScan:
        """One :class:`LaserScan` from a robot at world ``pose = (x, y, theta)``."""
        ranges = self._finish(self.exact(grid, pose)[0], rng)
        return self._wrap(ranges, time)

    def _wrap(self, ranges: np.ndarray, time: float = 0.0) -> LaserScan:
        return LaserScan(self.angle_min, self.angle_max, self.angle_increment,
                         self.range_min, self.range_max, ranges, time)

    def scan_many(self, grid: OccupancyGrid, poses, *, rng=None) -> np.ndarray:
        """Readings for a batch of poses: ``(n, 3)`` -> ``(n, n_beams)`` array."""
        return self._finish(self.exact(grid, poses), rng)

    def describe(self) -> dict:
        """JSON-friendly parameters (noise as its repr), for trajectory headers."""
        return {"n_beams": self.n_beams, "fov": self.fov, "range_min": self.range_min,
                "range_max": self.range_max, "mount": list(self.mount),
                "noise": repr(self.noise) if self.noise is not None else None}


def ir(*, range_max: float = 1.0, range_min: float = 0.02, noise=None, rng=None,
       mount=(0.0, 0.0, 0.0)) -> RangeSensor:
    """Micromouse-style IR: 5 short beams at -90, -45, 0, 45 and 90 degrees.

    >>> np.degrees(ir().angles).round().tolist()
    [-90.0, -45.0, 0.0, 45.0, 90.0]
    """
    return RangeSensor(5, math.pi, range_min, range_max, mount=mount, noise=noise, rng=rng)


def lidar(*, n_beams: int = 360, range_max: float = 20.0, range_min: float = 0.05,
          noise=None, rng=None, mount=(0.0, 0.0, 0.0)) -> RangeSensor:
    """A full-circle planar lidar (360 beams by default, one per degree).

    >>> s = lidar(n_beams=36); s.n_beams, round(float(np.degrees(s.angle_increment)), 6)
    (36, 10.0)
    """
    return RangeSensor(n_beams, 2 * math.pi, range_min, range_max, mount=mount, noise=noise,
                       rng=rng)


#: Sensor presets by name.
SENSORS = {"ir": ir, "lidar": lidar}


def make_sensor(sensor, **options) -> RangeSensor:
    """A :class:`RangeSensor` from an instance or a preset name plus options."""
    from ..errors import unknown_name

    if isinstance(sensor, RangeSensor):
        if options:
            raise ParameterError("sensor options only apply to preset names, not instances")
        return sensor
    if isinstance(sensor, str):
        if sensor not in SENSORS:
            raise unknown_name("sensor", sensor, SENSORS)
        return SENSORS[sensor](**options)
    raise ParameterError(f"sensor must be a RangeSensor or a preset name, got {sensor!r}")
