"""The state validity lookup the sampling-based planners query.

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
"""

from __future__ import annotations

import math

import numpy as np

from ...geometry import Footprint, footprint_clearance
from ...grid import OccupancyGrid

__all__ = ["ClearanceLookup"]

_TWO_PI = 2.0 * math.pi


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
