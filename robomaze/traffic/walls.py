"""The walls of a grid as ORCA obstacles: RVO2's polygon lists from the occupied squares.

The union of the occupied squares (and the outside of the grid) is traced
into rings with shapely; each ring becomes one RVO2 obstacle, its vertices
ordered so the walls are on the left of every edge (RVO2's convention:
counter-clockwise around a wall island, clockwise around the free space it
bounds), collinear vertices dropped. :func:`obstacle_arrays` gives the
flat arrays :func:`robomaze.traffic._orca.orca_step` takes, with RVO2's
``next``/``previous``, unit ``direction`` and ``isConvex``.

>>> import numpy as np
>>> from robomaze.grid import OccupancyGrid
>>> g = OccupancyGrid(np.pad(np.zeros((3, 4), bool), 1, constant_values=True), resolution=0.5)
>>> rings = wall_rings(g)
>>> len(rings), rings[0].tolist()     # one ring: the free room, walls outside it
(1, [[0.5, 2.0], [2.5, 2.0], [2.5, 0.5], [0.5, 0.5]])
"""

from __future__ import annotations

import numpy as np
import shapely
from shapely.geometry import box

__all__ = ["wall_rings", "obstacle_arrays"]


def _clean(ring: np.ndarray) -> np.ndarray:
    """A closed ring without its repeated last point and without collinear vertices."""
    pts = ring[:-1]
    keep = []
    n = len(pts)
    for i in range(n):
        a, b, c = pts[i - 1], pts[i], pts[(i + 1) % n]
        cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
        if abs(cross) > 1e-12:
            keep.append(b)
    return np.array(keep, float)


def wall_rings(grid) -> list[np.ndarray]:
    """RVO2 obstacle vertex lists (world metres) of the grid's walls (the outside included)."""
    res, rows, cols, ox, oy, yaw = grid.frame.kernel_args
    occ = grid.occupied
    free = shapely.union_all([box(ox + c * res, oy + (rows - 1 - r) * res,
                                  ox + (c + 1) * res, oy + (rows - r) * res)
                              for r, c in zip(*np.nonzero(~occ))])
    free = shapely.normalize(free)
    polys = getattr(free, "geoms", [free])
    rings = []
    for p in polys:
        if p.is_empty:
            continue
        p = shapely.geometry.polygon.orient(p, sign=1.0)
        # free space inside: walls outside the exterior, so the exterior runs clockwise
        rings.append(_clean(np.asarray(p.exterior.coords))[::-1])
        for hole in p.interiors:
            # a wall island inside the free space: counter-clockwise around it
            rings.append(_clean(np.asarray(hole.coords))[::-1])
    return [np.ascontiguousarray(r) for r in rings if len(r) >= 2]


def obstacle_arrays(rings) -> tuple[np.ndarray, ...]:
    """``(x, y, next, prev, dir_x, dir_y, convex)`` of RVO2 obstacles given as vertex lists.

    As ``RVOSimulator::addObstacle``: a vertex is convex when the next one
    is left of (or on) the line from the previous one (always for 2-vertex
    obstacles).
    """
    xs, ys, nx, pv, dx, dy, cv = [], [], [], [], [], [], []
    base = 0
    for ring in rings:
        n = len(ring)
        for i in range(n):
            a = ring[i]
            b = ring[(i + 1) % n]
            p = ring[i - 1]
            d = b - a
            d = d / np.hypot(*d)
            xs.append(a[0])
            ys.append(a[1])
            nx.append(base + (i + 1) % n)
            pv.append(base + (i - 1) % n)
            dx.append(d[0])
            dy.append(d[1])
            if n == 2:
                cv.append(True)
            else:
                cv.append(bool((a[0] - p[0]) * (b[1] - p[1]) - (a[1] - p[1]) * (b[0] - p[0])
                               >= 0.0))
        base += n
    return (np.array(xs, float), np.array(ys, float), np.array(nx, np.int64),
            np.array(pv, np.int64), np.array(dx, float), np.array(dy, float),
            np.array(cv, np.bool_))
