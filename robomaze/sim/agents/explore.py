"""``explore``: reach the goal in an unknown maze by mapping and optimistic replanning.

The agent knows the map frame (size, resolution, origin) and where the goal
is, but not a single wall. Each step it adds its scan to a belief grid:
every cell a beam crosses up to half a cell before its reading gets a
*free* count, the cell behind the grid line nearest the reading a *hit*
count (readings at ``range_max`` -- no return -- are ignored); a cell is
believed occupied when its hits outnumber its free counts. It plans on
that belief with unknown cells treated as free -- the micromouse
flood-fill idea at robot scale: an 8-connected distance field from the
goal over the cells whose exact clearance from believed walls exceeds the
footprint's circumscribed radius plus ``margin``. It drives down that field
(pure pursuit on the next cells of the descent) and recomputes the field
whenever new walls appear.

Every replan either reaches the goal or uncovers a wall the plan relied
on, and there are finitely many walls, so the goal is reached whenever it
is reachable for the footprint (perfect and braid mazes alike) -- provided
the sensor sees the walls next to the planned route, as a lidar does. The
5-beam ``ir`` preset can miss a wall between its beams; the robot then
bumps into it (the step is refused) and may stall: use ``tremaux`` or
``wall_follow`` with ``ir``. If the
belief leaves no way to the goal even with ``margin = 0``, it retries with
stricter evidence (a cell counts as a wall only with clearly more hits than
free passes) before it stops -- noisy readings can mark free cells as
walls; with exact sensors this never triggers.
"""

from __future__ import annotations

import math

import numpy as np

from ..._validate import check_float
from ...errors import ParameterError
from ...grid import clearance_field
from ...sense import mark_scan
from .base import AgentContext, pursue, world_to_cell_units
from ... import _search as core
from ._kernels import descend

__all__ = ["explore", "Explorer"]


class Explorer:
    """State of one exploring run (see the module docstring)."""

    def __init__(self, ctx: AgentContext, *, margin: float | None = None,
                 speed: float | None = None, lookahead: int = 2) -> None:
        if ctx.sensor is None:
            raise ParameterError("explore needs a range sensor")
        self.ctx = ctx
        rows, cols = ctx.shape
        self.rows, self.cols = rows, cols
        self.free_counts = np.zeros(rows * cols, np.int32)
        self.hit_counts = np.zeros(rows * cols, np.int32)
        res = ctx.resolution
        self.margin = 0.25 * res if margin is None else check_float("margin", margin, min_value=0.0)
        self.radius = ctx.footprint.circumscribed_radius
        # Default speed: braking from it takes at most ~0.3 cells, so corners are not overrun.
        kin = ctx.kinematics
        self.speed = min(kin.v_max, math.sqrt(0.6 * kin.a_max * res)) if speed is None else speed
        self.lookahead = int(lookahead)
        self._cells = np.empty(max(self.lookahead, 0) + 1, np.int64)  # descend()'s output
        self.replans = 0
        self._n_walls = -1
        self._dist = None
        self._blocked = None
        self.stuck = False
        goal = ctx.goal
        # Goal cells: centres inside the goal region.
        self.frame = ctx.frame
        ys, xs = np.mgrid[0:rows, 0:cols]
        centres = self.frame.cells_to_world(np.stack([ys.ravel(), xs.ravel()], axis=1))
        inside = np.array([goal.contains(x, y) for x, y in centres])
        if not inside.any():
            a, b = world_to_cell_units(ctx, *goal.centre)
            inside[int(min(max(b, 0), rows - 1)) * cols + int(min(max(a, 0), cols - 1))] = True
        self.goal_cells = np.flatnonzero(inside).astype(np.int64)

    @property
    def occupied(self) -> np.ndarray:
        """Believed walls, ``(rows, cols)`` bool."""
        return (self.hit_counts > self.free_counts).reshape(
            self.rows, self.cols)

    @property
    def known(self) -> np.ndarray:
        """Cells with any evidence, ``(rows, cols)`` bool."""
        return ((self.hit_counts + self.free_counts) > 0).reshape(self.rows, self.cols)

    def _integrate(self, obs) -> None:
        mark_scan(self.frame, self.ctx.sensor, obs["odom"][:3], obs["scan"].ranges,
                  self.free_counts, self.hit_counts)

    def _replan(self) -> None:
        # Stricter evidence levels are tried only when the belief leaves no
        # way to the goal: noisy readings can mark a free cell as a wall.
        for strict in (0, 1, 2, 3):
            occ = (self.hit_counts > (2 ** strict) * self.free_counts + (4 ** strict - 1)
                   ).reshape(self.rows, self.cols)
            clear = clearance_field(occ) * self.ctx.resolution
            for margin in (self.margin, 0.0):
                blocked = (clear <= self.radius + margin).ravel().astype(np.uint8)
                dist = core.distance_field((blocked == 0).reshape(self.rows, self.cols),
                                           self.goal_cells).ravel()
                self._blocked, self._dist = blocked, dist
                if self._current_cell(*self._ab) >= 0:
                    self.replans += 1
                    return
        self.replans += 1

    def _current_cell(self, a: float, b: float) -> int:
        r = min(max(int(b), 0), self.rows - 1)
        c = min(max(int(a), 0), self.cols - 1)
        u = r * self.cols + c
        if self._blocked[u] == 0 and np.isfinite(self._dist[u]):
            return u
        # Drifted into inflated space: step to the best reachable neighbour.
        best, best_u = math.inf, -1
        for dr in range(-2, 3):
            for dc in range(-2, 3):
                rr, cc = r + dr, c + dc
                if 0 <= rr < self.rows and 0 <= cc < self.cols:
                    v = rr * self.cols + cc
                    d = self._dist[v] + math.hypot(dr, dc)
                    if self._blocked[v] == 0 and d < best:
                        best, best_u = d, v
        return best_u

    def __call__(self, obs):
        self._integrate(obs)
        x, y, th = (float(v) for v in obs["odom"][:3])
        a, b = world_to_cell_units(self.ctx, x, y)
        self._ab = (a, b)
        n_walls = int(np.count_nonzero(self.occupied))
        if n_walls != self._n_walls or self._dist is None or self.stuck:
            self._n_walls = n_walls
            self._replan()
        u = self._current_cell(a, b)
        if u < 0:
            self.stuck = True
            return (0.0, 0.0)
        self.stuck = False
        cells = self._cells
        cells = cells[:descend(self._dist, self._blocked, self.rows, self.cols, u,
                               self.lookahead, cells)]
        if len(cells) == 1:
            target_cell = int(cells[0])
            if self._dist[target_cell] == 0.0:
                gx, gy = self.ctx.goal.centre
                target = (gx, gy) if math.hypot(gx - x, gy - y) < 2 * self.ctx.resolution \
                    else self._cell_world(target_cell)
            else:
                target = self._cell_world(target_cell)
        else:
            target = self._cell_world(int(cells[-1]))
        return pursue((x, y, th), target, speed=self.speed,
                      omega_max=self.ctx.kinematics.omega_max, turn_in_place=math.radians(35))

    def _cell_world(self, u: int) -> tuple[float, float]:
        return self.frame.cell_to_world(divmod(u, self.cols))


def explore(ctx: AgentContext, **options) -> Explorer:
    """Build an :class:`Explorer` (options: margin, speed, lookahead)."""
    return Explorer(ctx, **options)
