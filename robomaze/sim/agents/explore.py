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

Two guards keep a robot whose pose is only believed (odometry noise, a
localizer) from wedging itself on its own map (issue 34):

* *clearance on the believed map* -- pure pursuit towards a cell two
  ahead cuts corners; before a command is sent, the arc it drives over
  the next ``guard_s`` seconds is checked against the believed walls
  (every cell with more hits than free passes, whatever evidence level
  the plan fell back to): it must keep the footprint's radius plus half
  the margin the current plan keeps (``margin``, or 0 when the plan had
  to drop it -- a plan the guard then refused would wedge the robot) of
  clearance, or not lose clearance where the robot already stands
  closer. When the arc would come closer, the robot
  aims at the next cell of the descent instead and turns in place
  towards it first; a robot that has drifted into inflated space heads
  for the centre of the nearest free cell of the descent before it looks
  further ahead;
* *recovery when no progress is made* -- when the believed position
  moves less than a quarter cell in ``stall_s`` seconds, or the bump
  sensor (``obs["collision"]``) reports a refused step, the robot backs
  up for half a second along its heading (when that arc is clear on the
  belief), then replans; ``recoveries`` counts them. After
  ``max_futile`` recoveries in a row that did not take the believed
  position a cell from where the previous one started, the robot gives up
  and stands still (``wedged``): driving into the same wall again and
  again only adds contacts, and the run ends at its step budget as before.
"""

from __future__ import annotations

import math

import numpy as np

from ..._validate import check_float, check_int
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
                 speed: float | None = None, lookahead: int = 2, guard_s: float = 0.25,
                 stall_s: float = 3.0, max_futile: int = 5) -> None:
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
        self.guard_s = check_float("guard_s", guard_s, min_value=0.0)
        self.stall_s = check_float("stall_s", stall_s, min_value=0.0, strict_min=True)
        self._stall_n = max(2, int(round(self.stall_s / ctx.dt)))
        self._trail: list[tuple[float, float]] = []     # believed positions, last stall_s
        self._backing = 0                                # steps of a recovery left
        self.recoveries = 0
        self.max_futile = check_int("max_futile", max_futile, min_value=1)
        self._futile = 0                                 # recoveries in a row without progress
        self._last_recovery: tuple[float, float] | None = None
        self.wedged = False
        self._cells = np.empty(max(self.lookahead, 0) + 1, np.int64)  # descend()'s output
        self.replans = 0
        self._n_walls = -1
        self._plan_margin = self.margin                  # the margin of the current plan
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
            if strict == 0:
                self._clear0 = clear.ravel()     # the motion guard's walls: all the evidence
            for margin in (self.margin, 0.0):
                # 1e-9: a clearance of exactly the radius (1.5 cells * 0.1 m reads
                # 0.15000000000000002) is blocked, not a lane along the wall
                blocked = (clear <= self.radius + margin + 1e-9).ravel().astype(np.uint8)
                dist = core.distance_field((blocked == 0).reshape(self.rows, self.cols),
                                           self.goal_cells).ravel()
                self._blocked, self._dist = blocked, dist
                if self._current_cell(*self._ab) >= 0:
                    self._plan_margin = margin
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
        back = self._recovery(obs, x, y, th)
        if back is not None:
            return back
        if self._blocked_at(x, y):
            # drifted into inflated space: back to the nearest free cell of the descent first
            return pursue((x, y, th), self._cell_world(u), speed=self.speed,
                          omega_max=self.ctx.kinematics.omega_max,
                          turn_in_place=math.radians(35))
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
        omega_max = self.ctx.kinematics.omega_max
        v, w = pursue((x, y, th), target, speed=self.speed, omega_max=omega_max,
                      turn_in_place=math.radians(35))
        if len(cells) > 1 and not self._arc_clear(x, y, th, v, w):
            # the arc cuts into inflated space: aim at the adjacent cell, turning first
            target = self._cell_world(int(cells[1]))
            v, w = pursue((x, y, th), target, speed=self.speed, omega_max=omega_max,
                          turn_in_place=math.radians(10))
            if not self._arc_clear(x, y, th, v, w):
                err = math.atan2(target[1] - y, target[0] - x) - th
                err = (err + math.pi) % (2 * math.pi) - math.pi
                # turn towards it; aligned and still too close: wait (a stall recovers)
                v, w = 0.0, (math.copysign(min(omega_max, max(0.3, 2.0 * abs(err))), err)
                             if abs(err) > math.radians(3) else 0.0)
        return v, w

    def _blocked_at(self, x: float, y: float) -> bool:
        a, b = world_to_cell_units(self.ctx, x, y)
        if not (0 <= a < self.cols and 0 <= b < self.rows):
            return True
        return bool(self._blocked[int(b) * self.cols + int(a)])

    def _clearance_at(self, x: float, y: float) -> float:
        """The point's distance (m) to the believed walls (any evidence), interpolated.

        Bilinear between the exact clearances of the four nearest cell
        centres (clearance is 1-Lipschitz, so this is within a few
        millimetres of the point's own); 0 outside the map.
        """
        a, b = world_to_cell_units(self.ctx, x, y)
        if not (0 <= a < self.cols and 0 <= b < self.rows):
            return 0.0
        fa = min(max(a - 0.5, 0.0), self.cols - 1.0)
        fb = min(max(b - 0.5, 0.0), self.rows - 1.0)
        c0, r0 = min(int(fa), self.cols - 2), min(int(fb), self.rows - 2)
        ta, tb = fa - c0, fb - r0
        f = self._clear0
        i = r0 * self.cols + c0
        top = (1 - ta) * f[i] + ta * f[i + 1]
        bot = (1 - ta) * f[i + self.cols] + ta * f[i + self.cols + 1]
        return float((1 - tb) * top + tb * bot)

    def _arc_clear(self, x: float, y: float, th: float, v: float, w: float) -> bool:
        """Whether the unicycle arc of ``(v, w)`` for ``guard_s`` keeps its clearance.

        Clearance (:meth:`_clearance_at`) must stay above the footprint's
        radius plus half the plan's margin, or at least not shrink below where the
        robot stands (leaving a tight spot is allowed); a turn in place
        always passes.
        """
        if v == 0.0 or self.guard_s == 0.0:
            return True
        dt = self.ctx.dt
        # the plan's own margin: a plan that had to drop it must not be refused here
        need = min(self.radius + 0.5 * self._plan_margin, self._clearance_at(x, y))
        for _ in range(max(1, int(round(self.guard_s / dt)))):
            x += v * dt * math.cos(th + 0.5 * w * dt)
            y += v * dt * math.sin(th + 0.5 * w * dt)
            th += w * dt
            if self._clearance_at(x, y) < need - 1e-9:
                return False
        return True

    def _recovery(self, obs, x: float, y: float, th: float):
        """The back-up command while a recovery runs, else None (see the module docstring)."""
        if self.wedged:
            return (0.0, 0.0)
        if self._backing > 0:
            self._backing -= 1
            if self._backing == 0:
                self._trail.clear()
                self._dist = None            # replan on the next step
            v = -0.5 * self.speed
            return (v, 0.0) if self._arc_clear(x, y, th, v, 0.0) else (0.0, 0.0)
        self._trail.append((x, y))
        if len(self._trail) > self._stall_n:
            del self._trail[0]
        bumped = bool(obs.get("collision", False))
        stalled = len(self._trail) == self._stall_n and math.hypot(
            x - self._trail[0][0], y - self._trail[0][1]) < 0.25 * self.ctx.resolution
        if not (bumped or stalled):
            return None
        self.recoveries += 1
        last = self._last_recovery
        near = last is not None and math.hypot(x - last[0], y - last[1]) < self.ctx.resolution
        self._futile = self._futile + 1 if near else 1
        self._last_recovery = (x, y)
        if self._futile > self.max_futile:
            self.wedged = True
            return (0.0, 0.0)
        self._backing = max(1, int(round(0.5 / self.ctx.dt)))
        return self._recovery(obs, x, y, th)

    def _cell_world(self, u: int) -> tuple[float, float]:
        return self.frame.cell_to_world(divmod(u, self.cols))


def explore(ctx: AgentContext, **options) -> Explorer:
    """Build an :class:`Explorer` (options: margin, speed, lookahead, guard_s, stall_s,
    max_futile)."""
    return Explorer(ctx, **options)
