"""Public wrapper of the exact ray caster, in grid-cell units.

Most users want :class:`robomaze.sense.RangeSensor`; this is the low-level
entry point (used by tests and benchmarks) that casts arbitrary rays given
in the grid's own cell coordinates: ``a`` along the columns (east), ``b``
along the rows (south), cell ``(r, c)`` being the square ``[c, c+1] x
[r, r+1]``. See :mod:`robomaze.sense._kernels` for the exact semantics.

It also holds the public fast paths other packages build on:
:func:`scan_rows` (noise-free scans of a batch of poses, exact or finished,
one numba call: the simulator's and the sensors' one caster),
:func:`scan_into` (a numba function, callable from other numba kernels
such as the batched simulator's) and :func:`mark_scan` (occupancy evidence
of one scan, for mapping agents and coverage metrics).
"""

from __future__ import annotations

import numpy as np

from .._validate import check_float
from ..errors import ParameterError
from ..grid import Frame
from . import _kernels

__all__ = ["cast_rays", "scan_rows", "scan_into", "mark_scan"]

#: ``scan_into(occ, rows, cols, res, ox, oy, yaw, x, y, th, mount, cos_b, sin_b,
#: range_min, range_max, out)``: the finished noise-free scan of one robot
#: pose, as a numba function (``occ`` from :meth:`OccupancyGrid.flat_occupancy`,
#: the frame from :attr:`Frame.kernel_args`, the sensor from
#: :attr:`RangeSensor.kernel_args`).
scan_into = _kernels.scan_into

#: ``scan_rows(occ, rows, cols, res, ox, oy, yaw, poses, mount, cos_b, sin_b,
#: range_min, range_max, finish, out)``: noise-free scans of robot ``poses
#: (n, 3)`` into ``out (n, n_beams)``, exact ranges (``finish`` False, as
#: :meth:`RangeSensor.cast_many`) or finished readings (``finish`` True, as
#: :func:`scan_into`); a numba function called from Python (arguments as
#: for :func:`scan_into`).
scan_rows = _kernels.scan_rows

#: ``cast_free(occ, rows, cols, a0, b0, da, db, tmax)`` and ``origin_blocked(occ,
#: rows, cols, a0, b0)``: the exact one-ray traversal (grid cell units, the
#: origin known free) and its origin test, for other packages' numba kernels;
#: ``TINY_DIR``: the direction component below which a ray runs along the axis.
cast_free = _kernels.cast_free
origin_blocked = _kernels.origin_blocked
TINY_DIR = _kernels._TINY_DIR


def mark_scan(frame: Frame, sensor, pose, ranges, free_counts: np.ndarray,
              hit_counts: np.ndarray) -> None:
    """Add the free/hit evidence of one scan to flat int32 counters of a grid with ``frame``.

    Every cell a beam crosses before its reading gets a free mark; the cell
    the reading ends in gets a hit mark. Readings of ``range_max`` or more
    (``+inf``: no return) and ``NaN`` add no hit and no free marks.

    Parameters
    ----------
    frame : Frame
        The belief grid's frame.
    sensor : RangeSensor
        The sensor that took the scan (mount, beam angles, ``range_max``).
    pose : (x, y, theta)
        World pose of the robot.
    ranges : array_like, shape (n_beams,)
    free_counts, hit_counts : ndarray of int32, shape (rows * cols,)
        Updated in place.

    Examples
    --------
    >>> from robomaze.sense import RangeSensor
    >>> f = Frame((1, 4))
    >>> free, hit = np.zeros(4, np.int32), np.zeros(4, np.int32)
    >>> mark_scan(f, RangeSensor(1, 0.1, 0.0, 5.0), (0.5, 0.5, 0.0), [2.5], free, hit)
    >>> free.tolist(), hit.tolist()       # the reading ends on the face of cell 3
    ([1, 1, 1, 0], [0, 0, 0, 1])
    """
    sx, sy, sth = sensor.sensor_pose(pose)
    res, rows, cols, ox, oy, yaw = frame.kernel_args
    _kernels.mark_scan(rows, cols, res, ox, oy, yaw, sx, sy, sth, sensor.angles,
                       np.ascontiguousarray(ranges, dtype=float), sensor.range_max,
                       free_counts, hit_counts)


def cast_rays(occupied, origins, directions, *, max_range: float = np.inf) -> np.ndarray:
    """Exact distance (cells) from each origin along each direction to the first wall.

    Parameters
    ----------
    occupied : array_like of bool, shape (rows, cols)
    origins : array_like, shape (n, 2)
        Ray origins ``(a, b)`` in cell units.
    directions : array_like, shape (n, 2)
        Directions ``(da, db)``; normalised here.
    max_range : float
        Cap in cells (returned when nothing is hit sooner).

    Returns
    -------
    ndarray, shape (n,)

    Examples
    --------
    >>> occ = np.zeros((3, 3), bool); occ[1, 2] = True
    >>> cast_rays(occ, [[0.5, 1.5], [0.5, 0.5]], [[1, 0], [1, 1]])
    array([1.5       , 2.12132034])
    """
    occ = np.asarray(occupied, dtype=bool)
    if occ.ndim != 2:
        raise ParameterError(f"occupied must be 2-D, got shape {occ.shape}")
    o = np.ascontiguousarray(origins, dtype=float).reshape(-1, 2)
    d = np.ascontiguousarray(directions, dtype=float).reshape(-1, 2)
    if o.shape != d.shape:
        raise ParameterError(f"origins and directions must match, got {o.shape} and {d.shape}")
    norm = np.hypot(d[:, 0], d[:, 1])
    if np.any(norm == 0) or not np.all(np.isfinite(d)) or not np.all(np.isfinite(o)):
        raise ParameterError("directions must be finite and non-zero, origins finite")
    d = d / norm[:, None]
    tmax = check_float("max_range", max_range, min_value=0.0) if np.isfinite(max_range) else 1e300
    out = np.empty(o.shape[0])
    _kernels.cast_rays(_kernels.as_flat_occ(occ), occ.shape[0], occ.shape[1], o, d, tmax, out)
    return out
