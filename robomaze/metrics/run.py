"""The metric tables of one run: a planner's path, an agent's trajectory.

Part of :mod:`robomaze.metrics` (its module notes name every metric).
"""

from __future__ import annotations

import math

import numpy as np

from ..grid import OccupancyGrid
from .path import (executed_length, optimality_ratio, samples, shortest_length, smoothness, steps,
                   success, time_to_goal)
from .safety import (_danger, centre_clearance, collision_count, danger_threshold,
                     footprint_clearances, mean_clearance, min_clearance, shape_metrics,
                     time_in_collision, unsafe_fraction)

__all__ = [
    'fraction_seen', 'trajectory_metrics', 'path_metrics'
]


def fraction_seen(obj, grid: OccupancyGrid, sensor, *, max_samples: int = 2000) -> float:
    """Fraction of free cells crossed by a noise-free beam from the samples.

    At most ``max_samples`` evenly spaced samples are used.
    """
    from ..sense import mark_scan

    p = samples(obj, grid)
    if len(p) > max_samples:
        p = p[np.linspace(0, len(p) - 1, max_samples).round().astype(int)]
    exact = sensor.cast_many(grid, p)
    rows, cols = grid.shape
    free_marks = np.zeros(rows * cols, np.int32)
    hit_marks = np.zeros(rows * cols, np.int32)
    for pose, ranges in zip(p, exact):
        mark_scan(grid.frame, sensor, pose, ranges, free_marks, hit_marks)
    free = grid.free.ravel()
    return float(np.count_nonzero((free_marks > 0) & free) / max(np.count_nonzero(free), 1))


def trajectory_metrics(traj, grid: OccupancyGrid, *, footprint, goal, sensor=None,
                       safety: float | None = None, reference: bool = True) -> dict:
    """All metrics of one simulated run as a flat dict (see the module docstring).

    ``reference=False`` skips the planner call behind the optimality ratio.
    ``fraction_seen`` is included when ``sensor`` is given.
    """
    fc = footprint_clearances(traj, grid, footprint)
    cc = centre_clearance(traj, grid)
    s = danger_threshold(footprint) if safety is None else float(safety)
    length = executed_length(traj)
    out = {
        "success": success(traj, goal),
        "length": length,
        "optimal_length": math.nan,
        "optimality_ratio": math.nan,
        "min_clearance": float(fc.min()),
        "mean_clearance": float(fc.mean()),
        "min_centre_clearance": float(cc.min()),
        "mean_centre_clearance": float(cc.mean()),
        "collisions": collision_count(traj),
        "time_in_collision": time_in_collision(traj),
        "unsafe_fraction": _danger(fc, s),
        "smoothness": smoothness(traj),
        "time_to_goal": time_to_goal(traj, goal),
        "steps": steps(traj),
    }
    if reference and length > 0:
        p = traj.poses
        ref = shortest_length(grid, footprint, p[0], p[-1])
        out["optimal_length"] = ref
        out["optimality_ratio"] = length / ref if ref and not math.isnan(ref) else math.nan
    if sensor is not None:
        out["fraction_seen"] = fraction_seen(traj, grid, sensor)
    out.update(shape_metrics(traj, grid, footprint))
    _one_minimum(out)
    return out


def _one_minimum(out: dict) -> None:
    """``min_clearance`` and ``arc_clearance_min``: one number, the minimum over both sample sets."""
    m = min(out["min_clearance"], out["arc_clearance_min"])
    if math.isfinite(m):
        out["min_clearance"] = out["arc_clearance_min"] = float(m)


def path_metrics(path, grid: OccupancyGrid, *, footprint, safety: float | None = None,
                 reference: bool = True) -> dict:
    """Length, optimality and safety metrics of a planned :class:`~robomaze.plan.Path`."""
    fc = footprint_clearances(path, grid, footprint)
    cc = centre_clearance(path, grid)
    s = danger_threshold(footprint) if safety is None else float(safety)
    flags = fc <= 0.0
    out = {
        "length": executed_length(path),
        "optimality_ratio": optimality_ratio(path, grid, footprint) if reference else math.nan,
        "min_clearance": float(fc.min()),
        "mean_clearance": float(fc.mean()),
        "min_centre_clearance": float(cc.min()),
        "mean_centre_clearance": float(cc.mean()),
        "collisions": int(flags[0]) + int(np.count_nonzero(flags[1:] & ~flags[:-1])),
        "unsafe_fraction": _danger(fc, s),
        "smoothness": smoothness(path),
    }
    out.update(shape_metrics(path, grid, footprint))
    _one_minimum(out)
    return out
