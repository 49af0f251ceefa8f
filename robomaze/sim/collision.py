"""Exact collision checks of a footprint at continuous poses.

A pose *collides* when the closed footprint meets a closed occupied grid
square or leaves the grid (touching counts), the same rule as
:func:`robomaze.geometry.footprint_clearance` returning 0.

Each check first looks up the grid's clearance field at the cell under the
reference point. The reference point is at most ``res / sqrt(2)`` from that
cell's centre, so its true distance ``d`` to the walls is within that much of
the field value: if even the lower bound exceeds the circumscribed radius
the pose is free, if the upper bound is within the inscribed radius it
collides -- no geometry needed. Otherwise the exact test runs: a disc
against the squares near it, or a polygon (split into convex pieces by a
constrained Delaunay triangulation unless already convex) against each
nearby occupied square by the separating-axis theorem.

>>> from robomaze import Maze, widen
>>> from robomaze.geometry import Footprint
>>> g = widen(Maze.empty(1, 1), corridor=3, wall=1)
>>> c = Collider(g, Footprint.disc(0.5))
>>> c.collides(2.5, 2.5, 0.0), c.collides(1.5, 2.5, 0.0), c.collides(1.4, 2.5, 0.0)
(False, True, True)
"""

from __future__ import annotations

import math

import numpy as np
import shapely

from ..errors import ParameterError
from ..grid import OccupancyGrid
from . import _kernels

__all__ = ["Collider", "collides", "motion_hits"]

#: ``motion_hits(*collider.kernel_args()[:9], x0, y0, t0, x1, y1, t1,
#: *collider.kernel_args()[9:])``: the swept check of :meth:`Collider.motion_collides`
#: as a numba function, for kernels of other packages (robomaze.traffic) to call.
motion_hits = _kernels.motion_hits

_HALF_DIAG = math.sqrt(0.5)


def _convex_pieces(geom) -> list[np.ndarray]:
    ring = np.asarray(geom.exterior.coords)[:-1]
    if geom.convex_hull.area - geom.area <= 1e-12 * max(geom.area, 1e-300) and not geom.interiors:
        return [ring]
    tris = shapely.constrained_delaunay_triangles(geom)
    return [np.asarray(t.exterior.coords)[:-1] for t in tris.geoms]


class Collider:
    """Collision checker of one footprint on one grid.

    Parameters
    ----------
    grid : OccupancyGrid
    footprint : robomaze.geometry.Footprint
    """

    def __init__(self, grid: OccupancyGrid, footprint) -> None:
        if not isinstance(grid, OccupancyGrid):
            raise ParameterError(f"grid must be an OccupancyGrid, got {type(grid).__name__}")
        kind = getattr(footprint, "kind", None)
        if kind not in ("disc", "rectangle", "polygon"):
            raise ParameterError(f"footprint must be a robomaze Footprint, got {footprint!r}")
        self.grid = grid
        self.footprint = footprint
        self._occ = grid.flat_occupancy()
        self._res, self._rows, self._cols, ox, oy, yaw = grid.frame.kernel_args
        self._frame = (ox, oy, math.cos(yaw), math.sin(yaw))
        self._clear = grid.flat_clearance()
        self._r_in = footprint.inscribed_radius / grid.resolution
        self._r_out = footprint.circumscribed_radius / grid.resolution
        self._disc_r = footprint.radius / grid.resolution if kind == "disc" else 0.0
        if kind == "disc":
            self._px = self._py = self._pa = self._pb = np.zeros(1)
            self._starts = self._counts = np.zeros(0, np.int64)
        else:
            pieces = _convex_pieces(footprint.geometry)
            self._px = np.ascontiguousarray(np.concatenate([p[:, 0] for p in pieces]))
            self._py = np.ascontiguousarray(np.concatenate([p[:, 1] for p in pieces]))
            self._counts = np.array([len(p) for p in pieces], np.int64)
            self._starts = np.concatenate([[0], np.cumsum(self._counts)[:-1]]).astype(np.int64)
            self._pa = np.empty(int(self._counts.max()))
            self._pb = np.empty(int(self._counts.max()))
        args = self.kernel_args()
        self._head, self._tail = args[:9], args[9:]
        #: Single-pose checks (:meth:`collides`) settled by the clearance field alone.
        self.fast = 0
        #: Single-pose checks that needed the exact test.
        self.exact = 0

    @property
    def step_length(self) -> float:
        """Largest motion (metres of any body point) between checked sub-poses."""
        return self._res * max(min(0.5, self._r_in), 0.05)

    def kernel_args(self) -> tuple:
        """What :func:`motion_hits` takes besides the two poses, in its order.

        ``(occ, clear, rows, cols, res, ox, oy, cos_yaw, sin_yaw, r_in, r_out,
        disc_radius, px, py, starts, counts, pa, pb, step_length)``; ``pa``
        and ``pb`` are scratch arrays, so one tuple serves one thread.
        """
        ox, oy, cy, sy = self._frame
        return (self._occ, self._clear, self._rows, self._cols, self._res, ox, oy, cy, sy,
                self._r_in, self._r_out, self._disc_r, self._px, self._py, self._starts,
                self._counts, self._pa, self._pb, self.step_length)

    def collides(self, x: float, y: float, theta: float) -> bool:
        """Whether the footprint at world pose ``(x, y, theta)`` collides."""
        # the motion from the pose to itself: one kernel serves both checks
        h = _kernels.motion_hits(*self._head, x, y, theta, x, y, theta, *self._tail)
        if h & 2:
            self.exact += 1
        else:
            self.fast += 1
        return bool(h & 1)

    def motion_collides(self, p0, p1) -> bool:
        """Whether any sub-pose of the motion ``p0 -> p1`` collides (``p1`` always checked).

        Sub-poses are spaced so no body point moves more than
        :attr:`step_length` between checks, so the robot cannot tunnel
        through a wall one cell thick.
        """
        return bool(_kernels.motion_hits(*self._head, p0[0], p0[1], p0[2], p1[0], p1[1], p1[2],
                                         *self._tail) & 1)

    def check(self, poses) -> np.ndarray:
        """Collision flags for an ``(n, 3)`` array of poses."""
        p = np.asarray(poses, float).reshape(-1, 3)
        return np.array([self.collides(*row) for row in p], dtype=bool)


def collides(grid: OccupancyGrid, footprint, poses) -> np.ndarray:
    """Collision flag of ``footprint`` at each world pose ``(n, 3)``.

    >>> from robomaze import Maze, widen
    >>> from robomaze.geometry import Footprint
    >>> g = widen(Maze.empty(1, 2), corridor=3, wall=1)
    >>> collides(g, Footprint.rectangle(3.2, 1.0), [(4.5, 2.5, 0.0), (4.5, 2.5, 1.57)])
    array([False,  True])
    """
    return Collider(grid, footprint).check(poses)
