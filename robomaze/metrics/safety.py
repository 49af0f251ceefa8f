"""How safe a motion is: the footprint's clearance along it, collisions, danger.

Part of :mod:`robomaze.metrics` (its module notes name every metric).
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import ParameterError
from ..grid import OccupancyGrid
from .path import (ARC_STEP, _is_traj, _rotation_invariant, _shape_curvatures, curvature_max,
                   curvature_mean, cusps, resample, samples, steps)

__all__ = [
    'footprint_clearances', 'min_clearance', 'mean_clearance', 'centre_clearance',
    'collision_flags', 'collision_count', 'time_in_collision', 'unsafe_fraction',
    'arc_clearances', 'clearance_stats', 'shape_metrics'
]


def _arc_turn_step(footprint, step: float) -> float | None:
    """Turn-in-place sampling that moves the footprint's far corner at most ``step``."""
    if _rotation_invariant(footprint):
        return None
    r = float(getattr(footprint, "circumscribed_radius", 0.0) or 0.0)
    return min(math.radians(5.0), step / r) if r > 0 else None


def arc_clearances(obj, grid: OccupancyGrid, footprint, *, step: float = ARC_STEP) -> np.ndarray:
    """Footprint clearance (metres) at each arc sample of the route (turns in place included)."""
    from ..geometry import footprint_clearance

    return footprint_clearance(grid, footprint, resample(
        obj, grid, step=step, turn_step=_arc_turn_step(footprint, step),
        turns=not _rotation_invariant(footprint)))


def clearance_stats(clearances) -> dict:
    """``arc_clearance_min/mean/median/max`` of a clearance array (NaN when empty).

    >>> clearance_stats([0.1, 0.2, 0.6])["arc_clearance_median"]
    0.2
    """
    c = np.asarray(clearances, float)
    if c.size == 0:
        return {f"arc_clearance_{k}": math.nan for k in ("min", "mean", "median", "max")}
    return {"arc_clearance_min": float(c.min()), "arc_clearance_mean": float(c.mean()),
            "arc_clearance_median": float(np.median(c)), "arc_clearance_max": float(c.max())}


def shape_metrics(obj, grid: OccupancyGrid, footprint, *, step: float = ARC_STEP) -> dict:
    """Curvature, cusps and arc clearance of a route in one pass over its arc samples."""
    r = resample(obj, grid, step=step, turn_step=_arc_turn_step(footprint, step),
                 turns=not _rotation_invariant(footprint))
    from ..geometry import footprint_clearance

    out = clearance_stats(footprint_clearance(grid, footprint, r))
    k = _shape_curvatures(obj, grid, step)
    out["curvature_max"] = float(k.max()) if len(k) else math.nan
    out["curvature_mean"] = float(k.mean()) if len(k) else math.nan
    out["cusps"] = cusps(obj)
    return out


def footprint_clearances(obj, grid: OccupancyGrid, footprint) -> np.ndarray:
    """Footprint clearance (metres) at each sample."""
    from ..geometry import footprint_clearance

    return footprint_clearance(grid, footprint, samples(obj, grid, footprint))


def min_clearance(obj, grid: OccupancyGrid, footprint) -> float:
    """Smallest footprint clearance over the samples (metres)."""
    return float(footprint_clearances(obj, grid, footprint).min())


def mean_clearance(obj, grid: OccupancyGrid, footprint) -> float:
    """Mean footprint clearance over the samples (metres)."""
    return float(footprint_clearances(obj, grid, footprint).mean())


def centre_clearance(obj, grid: OccupancyGrid) -> np.ndarray:
    """Clearance of the reference point alone at each sample (metres)."""
    from ..geometry import footprint_clearance

    return footprint_clearance(grid, None, samples(obj, grid))


def collision_flags(obj, grid: OccupancyGrid | None = None, footprint=None) -> np.ndarray:
    """Per-sample collision flags: a trajectory's refused steps, or a path's touching samples."""
    if _is_traj(obj):
        return np.asarray(obj.collisions, bool)
    if grid is None or footprint is None:
        raise ParameterError("collision flags of a path need the grid and the footprint")
    return footprint_clearances(obj, grid, footprint) <= 0.0


def collision_count(obj, grid: OccupancyGrid | None = None, footprint=None) -> int:
    """Number of collision entry events.

    >>> from robomaze.sim import Trajectory
    >>> tr = Trajectory(np.arange(5.0), np.zeros((5, 3)), np.zeros((5, 2)),
    ...                 [False, True, True, False, True])
    >>> collision_count(tr), time_in_collision(tr)
    (2, 3.0)
    """
    f = collision_flags(obj, grid, footprint)
    if len(f) == 0:
        return 0
    return int(f[0]) + int(np.count_nonzero(f[1:] & ~f[:-1]))


def time_in_collision(traj) -> float:
    """Seconds spent in refused steps (trajectories only)."""
    if not _is_traj(traj):
        raise ParameterError("time in collision needs a Trajectory")
    dt = np.diff(traj.t)
    return float(dt[traj.collisions[1:]].sum())


#: A pose is in danger when its footprint clearance is below this fraction of
#: the footprint's inscribed radius: a threshold in metres that scales with
#: the robot, not with the grid, so it compares across resolutions.
DANGER_RADIUS_FRACTION = 0.1


def danger_threshold(footprint) -> float:
    """Clearance (m) under which a pose counts as in danger.

    10% of the footprint's inscribed radius (0 for a point robot, whose
    danger is then contact only).

    >>> from robomaze.geometry import Footprint
    >>> round(danger_threshold(Footprint.disc(0.15)), 6)
    0.015
    >>> danger_threshold(None)
    0.0
    """
    if footprint is None:
        return 0.0
    return DANGER_RADIUS_FRACTION * float(footprint.inscribed_radius)


def _danger(fc: np.ndarray, s: float) -> float:
    return float(np.mean(fc < s)) if s > 0 else float(np.mean(fc <= 0.0))


def unsafe_fraction(obj, grid: OccupancyGrid, footprint, safety: float | None = None) -> float:
    """Fraction of samples whose footprint clearance is below ``safety`` metres."""
    s = danger_threshold(footprint) if safety is None else float(safety)
    return _danger(footprint_clearances(obj, grid, footprint), s)
