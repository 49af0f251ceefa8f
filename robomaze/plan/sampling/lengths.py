"""The length options of the OMPL planners, checked against the world.

``turning_radius``, ``step`` and ``planner_range`` are lengths in metres;
a value far below the grid's resolution or far beyond the world's extent
makes OMPL's arithmetic overflow (a car of radius 1e-300 has distances of
1e300 and no neighbour to extend) or its setters refuse
(``setLongestValidSegmentFraction``). :func:`check_lengths` accepts each
within :data:`LENGTH_RANGES`: from ``low`` times the resolution to ``high``
times the extent (the diagonal of the world's bounds), one
:class:`~robomaze.errors.ParameterError` naming the option, the value and
the range otherwise.

>>> from robomaze import Maze, widen
>>> g = widen(Maze.empty(2, 2), corridor=3, wall=1)          # 9 x 9 cells of 1 m
>>> check_lengths(g, "ompl:dubins", turning_radius=0.5, step=None)
{'turning_radius': 0.5, 'step': None}
>>> check_lengths(g, "ompl:dubins", turning_radius=1e-300)
Traceback (most recent call last):
...
robomaze.errors.ParameterError: option turning_radius=1e-300 for ompl:dubins: expected a length in metres from 0.001 (1/1000 of the grid resolution 1 m) to 12727.9 (1000 times the world's extent 12.7279 m)
"""

from __future__ import annotations

import math

from ...errors import ParameterError
from ...grid import OccupancyGrid

__all__ = ["LENGTH_RANGES", "check_lengths", "world_extent"]

#: option -> (least as a fraction of the resolution, greatest as a multiple of the extent).
LENGTH_RANGES = {"turning_radius": (1e-3, 1e3), "step": (1e-3, 1.0),
                 "planner_range": (1e-3, 1e3)}


def world_extent(grid: OccupancyGrid) -> float:
    """The diagonal of the grid's world bounds (metres)."""
    rows, cols = grid.shape
    return float(grid.resolution) * math.hypot(rows, cols)


def check_lengths(grid: OccupancyGrid, method: str, **lengths) -> dict:
    """Each given length (None: the default, not checked) within its range."""
    res, ext = float(grid.resolution), world_extent(grid)
    out = {}
    for key, value in lengths.items():
        out[key] = value
        if value is None:
            continue
        lo_f, hi_f = LENGTH_RANGES[key]
        lo, hi = lo_f * res, hi_f * ext
        ok = (isinstance(value, (int, float)) and not isinstance(value, bool)
              and math.isfinite(value) and lo <= value <= hi)
        if not ok:
            how = "the world's extent" if hi_f == 1.0 else f"{hi_f:g} times the world's extent"
            raise ParameterError(
                f"option {key}={value!r} for {method}: expected a length in metres from "
                f"{lo:g} ({_fraction(lo_f)} of the grid resolution {res:g} m) to {hi:g} "
                f"({how} {ext:g} m)")
    return out


def _fraction(f: float) -> str:
    return f"1/{round(1 / f)}" if f < 1 else f"{f:g} times"
