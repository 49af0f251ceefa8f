"""State and motion validity: is this pose free for this footprint, is this motion free.

geometry owns the one rule -- the closed footprint meets a closed occupied
grid square or leaves the grid (touching counts) -- and every user asks it
here:

=====================  ====================================================
question               API
=====================  ====================================================
clearance of a pose    :func:`~robomaze.geometry.footprint_clearance` (exact,
                       metres; 0 when the pose collides)
is a pose free         :meth:`Collider.collides` / :func:`collides` (the
                       simulator), :meth:`ClearanceLookup.valid` (OMPL's
                       state checker: clearance above a margin, bounded by
                       a table first), :func:`~robomaze.geometry.free_space`
                       (every grid cell at once: the grid planners)
is a motion free       :meth:`Collider.motion_collides` (sub-poses no body
                       point apart more than :attr:`Collider.step_length`),
                       :func:`~robomaze.geometry.footprint_touches` (the
                       first touching pose of a sampled motion: the metrics)
=====================  ====================================================

:class:`Collider` first looks up the grid's clearance field at the cell
under the reference point. The reference point is at most ``res / sqrt(2)``
from that cell's centre, so its true distance ``d`` to the walls is within
that much of the field value: if even the lower bound exceeds the
circumscribed radius the pose is free, if the upper bound is within the
inscribed radius it collides -- no geometry needed. Otherwise the exact test
runs: a disc against the squares near it, or a polygon (split into convex
pieces by a constrained Delaunay triangulation unless already convex)
against each nearby occupied square by the separating-axis theorem.


The lookup of the sampling-based planners
-----------------------------------------
OMPL calls the validity checker once per sampled state and once per
interpolated state along every motion, so it must be cheap. The lookup is
a table of *exact* footprint clearances (metres) at every grid cell centre
and at ``n`` sample headings, precomputed with
:func:`robomaze.geometry.footprint_clearance`. Clearance is 1-Lipschitz in
position and ``R``-Lipschitz in heading (``R`` the circumscribed radius:
turning by ``d`` moves no point of the footprint further than ``R d``), so
for a state at distance ``dp`` from the nearest cell centre and ``dt``
from the nearest sample heading

    C - dp - R dt  <=  clearance(state)  <=  C + dp + R dt.

A state is valid when its clearance exceeds ``margin``: the lower bound
settles most states, the upper bound rejects most of the rest, and those
in between (close to a wall: within about the table's slack of the
margin) get the exact clearance. (A finer lattice filled on demand was
tried and dropped: OMPL's states reuse it too little to pay for the fills.)

``margin`` is what makes checking along motions at a finite resolution safe: when consecutive checked
states are at most ``step`` apart in position and ``2 step`` in heading
(OMPL's SE(2) distance is ``|dp| + 0.5 |dtheta|``; a car of turning
radius ``rho`` turns at most ``step / rho``), every pose between them,
and every pose of the translate-then-turn motion between them that
:class:`robomaze.plan.Path` measures, is within ``step / 2`` in position
and ``2 step`` (``step / rho``) in heading of a checked state, so
``margin = step / 2 + R * 2 step`` (``+ R step / rho``) keeps the whole
continuous motion collision-free. ``step`` defaults to a quarter cell.

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
from . import _collide_kernels as _kernels
from .clearance import footprint_clearance
from .footprint import check_footprint
from .footprint import Footprint

__all__ = ["Collider", "collides", "motion_hits", "ClearanceLookup"]

#: ``motion_hits(*collider.kernel_args()[:9], x0, y0, t0, x1, y1, t1,
#: *collider.kernel_args()[9:])``: the swept check of :meth:`Collider.motion_collides`
#: as a numba function, for kernels of other packages (robomaze.traffic) to call.
motion_hits = _kernels.motion_hits

_HALF_DIAG = math.sqrt(0.5)
_TWO_PI = 2.0 * math.pi


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
        footprint = check_footprint(footprint)
        kind = footprint.kind
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
        # a disc's checks call the disc-only kernel (the same codes, less to compile);
        # motion_hits takes the disc branch exactly when its radius in cells is > 0
        disc = self._disc_r > 0.0
        self._hits = _kernels.disc_motion_hits if disc else _kernels.motion_hits
        if disc:
            self._tail = (self._r_in, self._r_out, self._disc_r, self.step_length)
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
        h = self._hits(*self._head, x, y, theta, x, y, theta, *self._tail)
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
        return bool(self._hits(*self._head, p0[0], p0[1], p0[2], p1[0], p1[1], p1[2],
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


class ClearanceLookup:
    """Validity of ``(x, y[, theta])`` states of a footprint on a grid.

    Parameters
    ----------
    grid : OccupancyGrid
    footprint : Footprint or None
        None or a disc: heading-free (R² states); other shapes use ``headings``.
    step : float, optional
        Motion checking resolution (metres); default a quarter cell.
    turn_per_metre : float
        Largest heading change (radians) per metre of the planner's
        distance between checked states: 2 in OMPL's SE(2) (heading weighs
        0.5), ``1 / turning_radius`` for a car.
    with_heading : bool
        Accepted for states with a heading even when the footprint is round.
    headings : int, optional
        Sample headings of the table; default enough that ``R pi / n`` is
        at most a quarter cell (capped at 256).

    Examples
    --------
    >>> from robomaze import Maze, widen
    >>> g = widen(Maze.empty(1, 2), corridor=3, wall=1)
    >>> look = ClearanceLookup(g, Footprint.disc(1.0))
    >>> look.valid(2.5, 2.5), look.valid(1.4, 2.5)
    (True, False)
    >>> round(look.margin, 3)
    0.125
    """

    def __init__(self, grid: OccupancyGrid, footprint: Footprint | None, *,
                 step: float | None = None, headings: int | None = None,
                 turn_per_metre: float = 2.0, with_heading: bool = False) -> None:
        self.grid = grid
        self.footprint = footprint
        res = grid.resolution
        self.step = 0.25 * res if step is None else float(step)
        self.round = footprint is None or footprint.kind == "disc"
        R = 0.0 if self.round else footprint.circumscribed_radius
        self.R = R
        if self.round:
            n = 1
        elif headings is None:
            n = int(min(256, max(8, math.ceil(4 * math.pi * R / res))))
        else:
            n = int(headings)
        self.n = n
        self.margin = self.step / 2 + R * turn_per_metre * self.step
        self.lo, self.hi = self._tables()
        # the lookup's constants as Python floats and nested lists (fast scalar access)
        ox, oy, yaw = grid.origin
        self._ox, self._oy = float(ox), float(oy)
        self._c, self._s = math.cos(yaw), math.sin(yaw)
        self._res = float(res)
        self._inv_res = 1.0 / float(res)
        self._rows, self._cols = grid.shape
        self._bins_per_rad = self.n / _TWO_PI
        self._R_per_bin = self.R * _TWO_PI / self.n
        self._lo, self._hi = self.lo.tolist(), self.hi.tolist()
        self.checks = 0
        self.exact = 0


    def _tables(self) -> tuple[np.ndarray, np.ndarray]:
        """Lower and upper bounds of the clearance at cell centres, per sample heading."""
        g, fp = self.grid, self.footprint
        clear = np.asarray(g.clearance(), float)
        if self.round:
            # point clearance minus the radius is exact (signed) and 1-Lipschitz
            t = (clear - (0.0 if fp is None else fp.radius))[None, :, :]
            return t, t
        inner, outer = fp.inscribed_radius, self.R
        if inner == 0.0:    # reference point outside the shape: its distance to it
            from shapely.geometry import Point
            inner = -float(fp.geometry.distance(Point(0.0, 0.0)))
        # the footprint lies in the disc of the circumscribed radius (a lower
        # bound) and holds the inscribed disc (an upper bound); only the band
        # where neither decides gets exact clearances
        lo = np.repeat((clear - outer)[None], self.n, axis=0)
        hi = np.repeat((clear - inner)[None], self.n, axis=0)
        res = g.resolution
        slack = math.sqrt(0.5) * res + self.R * math.pi / self.n
        band = (clear - inner + slack > self.margin) & (clear - outer - slack <= self.margin)
        rc = np.argwhere(band)
        if rc.size:
            pts = g.cells_to_world(rc)
            for b in range(self.n):
                th = np.full(len(rc), _TWO_PI * b / self.n)
                exact = footprint_clearance(g, fp, np.column_stack([pts, th]))
                lo[b][band] = exact
                hi[b][band] = exact
        return lo, hi

    def clearance_bounds(self, x: float, y: float, theta: float = 0.0) -> tuple[float, float]:
        """Lower and upper bound of the footprint's clearance at a state (metres)."""
        # plain float arithmetic: this runs once per OMPL state, numpy scalars cost more
        dx, dy = x - self._ox, y - self._oy
        u = (self._c * dx + self._s * dy) * self._inv_res
        v = self._rows - (self._c * dy - self._s * dx) * self._inv_res
        col, row = math.floor(u), math.floor(v)
        if not (0 <= row < self._rows and 0 <= col < self._cols):
            return -math.inf, 0.0
        du, dv = u - col - 0.5, v - row - 0.5
        slack = math.sqrt(du * du + dv * dv) * self._res
        if self.n == 1:
            b = 0
        else:
            t = theta * self._bins_per_rad
            b = math.floor(t + 0.5)
            slack += self._R_per_bin * abs(t - b)
            b %= self.n
        return self._lo[b][row][col] - slack, self._hi[b][row][col] + slack

    def valid(self, x: float, y: float, theta: float = 0.0) -> bool:
        """Clearance at the state exceeds :attr:`margin` (exact when the bounds do not tell)."""
        self.checks += 1
        lo, hi = self.clearance_bounds(x, y, theta)
        if lo > self.margin:
            return True
        if hi <= self.margin:
            return False
        self.exact += 1
        d = footprint_clearance(self.grid, self.footprint, [(x, y, theta)])[0]
        return bool(d > self.margin)
