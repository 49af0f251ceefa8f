"""Clearance of a footprint: the distance from the robot's body to the walls.

Exact Euclidean distance (metres) from the footprint placed at a world
pose to the nearest occupied grid square, everything beyond the grid
counting as occupied; 0 when the footprint touches or overlaps one. Discs
use the exact circle, polygons their exact outline.
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import ParameterError
from ..grid import OccupancyGrid
from ._kernels import cell_clearance as _cell_kernel
from ._kernels import points_clearance, poses_touch, shapes_clearance
from .footprint import CONTACT_TOL, Footprint

__all__ = ["footprint_clearance", "footprint_touches", "segment_clearance", "cell_clearance"]


def _as_poses(poses) -> np.ndarray:
    try:
        p = np.asarray(poses, dtype=float)
    except (TypeError, ValueError):
        raise ParameterError(f"poses must be an (n, 2) or (n, 3) array, got {poses!r}") from None
    if p.ndim == 1 and p.shape[0] in (2, 3):
        p = p[None, :]
    if p.ndim != 2 or p.shape[1] not in (2, 3):
        raise ParameterError(f"poses must be an (n, 2) or (n, 3) array of x, y[, theta], "
                             f"got shape {p.shape}")
    if not np.isfinite(p).all():
        raise ParameterError("poses must be finite")
    if p.shape[1] == 2:
        p = np.concatenate([p, np.zeros((p.shape[0], 1))], axis=1)
    return p


def footprint_clearance(grid: OccupancyGrid, footprint: Footprint | None, poses) -> np.ndarray:
    """Distance from the footprint at each pose to the nearest occupied cell.

    Parameters
    ----------
    grid : OccupancyGrid
    footprint : Footprint or None
        None measures from the reference point itself.
    poses : array_like, shape (n, 3) or (n, 2)
        World ``(x, y, theta)``; theta defaults to 0.

    Returns
    -------
    ndarray of float64, shape (n,)
        Metres; 0 where the footprint touches or overlaps an occupied cell.

    Examples
    --------
    >>> from robomaze import Maze, widen
    >>> g = widen(Maze.empty(1, 1), corridor=3, wall=1)   # free cells 1..3
    >>> footprint_clearance(g, Footprint.disc(1.0), [(2.5, 2.5, 0.0)])
    array([0.5])
    >>> fp = Footprint.rectangle(2.0, 1.0)   # corners 1.12 m from the centre
    >>> np.round(footprint_clearance(g, fp, [(2.5, 2.5, 0.0), (2.5, 2.5, 0.7), (1.6, 2.5, 0.7)]), 3)
    array([0.5  , 0.413, 0.   ])
    """
    if not isinstance(grid, OccupancyGrid):
        raise ParameterError(f"grid must be an OccupancyGrid, got {type(grid).__name__}")
    p = _as_poses(poses)
    occ = np.ascontiguousarray(grid.occupied)
    if p.shape[0] == 0:
        return np.zeros(0)
    if footprint is None or footprint.kind == "disc":
        radius = 0.0 if footprint is None else footprint.radius / grid.resolution
        u, v = grid.frame.to_units(p[:, 0], p[:, 1])
        d = np.empty(p.shape[0])
        points_clearance(occ, np.ascontiguousarray(u, dtype=np.float64),
                         np.ascontiguousarray(v, dtype=np.float64), radius, d)
        return d * grid.resolution
    u, v = _placed_units(grid, footprint, p)
    d = np.empty(p.shape[0])
    shapes_clearance(occ, u, v, True, 0.0, d)
    return d * grid.resolution


def _placed_units(grid: OccupancyGrid, footprint: Footprint, p: np.ndarray):
    """Vertices of a polygon footprint at poses ``p``, in cell units ``(u, v)``."""
    vx, vy = footprint.vertices.T
    cs, sn = np.cos(p[:, 2:3]), np.sin(p[:, 2:3])
    wx = p[:, 0:1] + cs * vx - sn * vy
    wy = p[:, 1:2] + sn * vx + cs * vy
    u, v = grid.frame.to_units(wx, wy)
    return np.ascontiguousarray(u), np.ascontiguousarray(v)


def footprint_touches(grid: OccupancyGrid, footprint: Footprint | None, poses) -> int:
    """Index of the first pose whose footprint touches an occupied cell, or -1.

    The same verdict as ``footprint_clearance(...) <= CONTACT_TOL`` pose by
    pose, without measuring distances (the check of long interpolated
    motions).

    >>> from robomaze import Maze, widen
    >>> g = widen(Maze.empty(1, 1), corridor=3, wall=1)
    >>> fp = Footprint.rectangle(2.0, 1.0)
    >>> footprint_touches(g, fp, [(2.5, 2.5, 0.0), (2.5, 2.5, 0.7)]), footprint_touches(g, fp, [(2.5, 2.5, 0.0), (1.6, 2.5, 0.7)])
    (-1, 1)
    """
    if not isinstance(grid, OccupancyGrid):
        raise ParameterError(f"grid must be an OccupancyGrid, got {type(grid).__name__}")
    p = _as_poses(poses)
    if footprint is None or footprint.kind == "disc":
        hit = np.flatnonzero(footprint_clearance(grid, footprint, p) <= CONTACT_TOL)
        return int(hit[0]) if hit.size else -1
    if p.shape[0] == 0:
        return -1
    vx, vy = np.ascontiguousarray(footprint.vertices.T)
    res, _, _, ox, oy, yaw = grid.frame.kernel_args
    return int(poses_touch(np.ascontiguousarray(grid.occupied), vx, vy, p, res, ox, oy, yaw,
                           CONTACT_TOL, np.empty(vx.shape[0]), np.empty(vx.shape[0])))


def cell_clearance(grid: OccupancyGrid, footprint: Footprint | None, cells) -> np.ndarray:
    """:func:`footprint_clearance` of a point or disc at grid cell centres (fast path).

    >>> from robomaze import Maze, widen
    >>> g = widen(Maze.empty(1, 1), corridor=3, wall=1)
    >>> cell_clearance(g, Footprint.disc(1.0), [(2, 2), (1, 2), (0, 0)])
    array([0.5, 0. , 0. ])
    """
    c = np.asarray(cells, dtype=np.int64).reshape(-1, 2)
    if footprint is not None and footprint.kind != "disc":
        raise ParameterError("cell_clearance takes a point (None) or a disc footprint")
    d = np.empty(c.shape[0])
    _cell_kernel(np.ascontiguousarray(grid.occupied), np.ascontiguousarray(c[:, 0]),
                 np.ascontiguousarray(c[:, 1]), d)
    d *= grid.resolution
    if footprint is not None:
        d = np.maximum(d - footprint.radius, 0.0)
    return d


def segment_clearance(grid: OccupancyGrid, radius: float, a, b) -> np.ndarray:
    """Distance from a disc of ``radius`` swept along each segment ``a[i] -> b[i]``.

    ``a`` and ``b`` are ``(n, 2)`` world points; the result is in metres,
    0 where the swept disc touches an occupied cell.

    >>> from robomaze import Maze, widen
    >>> g = widen(Maze.empty(1, 1), corridor=3, wall=1)
    >>> segment_clearance(g, 0.0, [(1.5, 1.5)], [(3.5, 3.5)])
    array([0.5])
    """
    a = np.asarray(a, float).reshape(-1, 2)
    b = np.asarray(b, float).reshape(-1, 2)
    if a.shape != b.shape:
        raise ParameterError(f"segment ends must have the same shape, got {a.shape} and {b.shape}")
    if a.shape[0] == 0:
        return np.zeros(0)
    ua, va = grid.frame.to_units(a[:, 0], a[:, 1])
    ub, vb = grid.frame.to_units(b[:, 0], b[:, 1])
    us = np.ascontiguousarray(np.stack([ua, ub], axis=1))
    vs = np.ascontiguousarray(np.stack([va, vb], axis=1))
    occ = np.ascontiguousarray(grid.occupied)
    if not math.isfinite(radius) or radius < 0:
        raise ParameterError(f"radius must be a finite number >= 0, got {radius}")
    d = np.empty(us.shape[0])
    shapes_clearance(occ, us, vs, False, radius / grid.resolution, d)
    return d * grid.resolution
