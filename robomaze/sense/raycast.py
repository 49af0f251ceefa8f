"""Public wrapper of the exact ray caster, in grid-cell units.

Most users want :class:`robomaze.sense.RangeSensor`; this is the low-level
entry point (used by tests and benchmarks) that casts arbitrary rays given
in the grid's own cell coordinates: ``a`` along the columns (east), ``b``
along the rows (south), cell ``(r, c)`` being the square ``[c, c+1] x
[r, r+1]``. See :mod:`robomaze.sense._kernels` for the exact semantics.
"""

from __future__ import annotations

import numpy as np

from .._validate import check_float
from ..errors import ParameterError
from . import _kernels

__all__ = ["cast_rays"]


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
