"""``tremaux``: Tremaux's Ariadne's-thread rule, at robot scale, from sensing alone.

The agent knows the maze lattice (corridor width ``k``, wall thickness ``t``
and resolution, as a micromouse knows its cell size) but no walls. It moves
from maze-cell centre to maze-cell centre. On reaching a centre it looks
along the four compass directions: a side is open when the beam nearest to
that direction reads more than ``(k + t) / 2`` cells (a wall face is ``k/2``
cells away, an open side's next wall at least ``k + t + k/2``). Passages
(edges between cells) carry marks, one per traversal, and the classic rules
pick the next move:

* a cell reached for the first time: take any passage with no mark except
  the one just used (none left: go back);
* a cell seen before, reached through a passage marked once: go back;
* otherwise: take a passage with the fewest marks; never one marked twice.

This visits every passage at most twice and reaches every reachable cell,
so the goal is found in any maze where it is reachable (perfect or with
loops). Between centres the robot turns in place to face the next cell and
drives to its centre with heading correction.
"""

from __future__ import annotations

import math

from ...errors import ParameterError
from ..kinematics import wrap_angle
from .base import AgentContext, beam_range, world_to_cell_units

__all__ = ["tremaux", "TremauxAgent"]

#: (drow, dcol, world heading) per side.
_SIDES = {"E": (0, 1, 0.0), "N": (-1, 0, math.pi / 2), "W": (0, -1, math.pi), "S": (1, 0, -math.pi / 2)}


class TremauxAgent:
    """State of one Tremaux run (see the module docstring)."""

    def __init__(self, ctx: AgentContext, *, speed: float | None = None) -> None:
        if ctx.widening is None:
            raise ParameterError("tremaux needs a grid made by widen() (it moves on the maze lattice)")
        if ctx.sensor is None:
            raise ParameterError("tremaux needs a range sensor")
        self.ctx = ctx
        w = ctx.widening
        self.k, self.t, self.rows, self.cols = w.corridor, w.wall, w.rows, w.cols
        kin = ctx.kinematics
        res = ctx.resolution
        self.speed = min(kin.v_max, math.sqrt(0.6 * kin.a_max * res) * 2) if speed is None else speed
        self.marks: dict[tuple, int] = {}
        self.visited: set = set()
        self.came_by = None           # edge used to reach the current cell
        self.target = None            # maze cell being driven to
        self.cell = None
        self.mode = "decide"
        self.rng = ctx.rng
        self.moves = 0

    # ---------------------------------------------------------------- lattice
    def centre(self, cell) -> tuple[float, float]:
        r, c = cell
        k, t = self.k, self.t
        a = t + c * (k + t) + k / 2
        b = t + r * (k + t) + k / 2
        return self.ctx.frame.from_units(a, b)

    def cell_of(self, x: float, y: float) -> tuple[int, int]:
        a, b = world_to_cell_units(self.ctx, x, y)
        p = self.k + self.t
        r = min(max(int((b - self.t) // p), 0), self.rows - 1)
        c = min(max(int((a - self.t) // p), 0), self.cols - 1)
        return r, c

    @staticmethod
    def edge(a, b) -> tuple:
        return (a, b) if a <= b else (b, a)

    def open_sides(self, obs) -> list[tuple[int, int]]:
        th = float(obs["odom"][2])
        thresh = (self.k + self.t) / 2 * self.ctx.resolution
        out = []
        r, c = self.cell
        yaw = self.ctx.origin[2]
        for name, (dr, dc, heading) in _SIDES.items():
            nr, nc = r + dr, c + dc
            if not (0 <= nr < self.rows and 0 <= nc < self.cols):
                continue
            rng, _ = beam_range(obs["scan"], wrap_angle(heading + yaw - th))
            if rng == rng and rng > thresh:
                out.append((nr, nc))
        return out

    # ---------------------------------------------------------------- rules
    def _choose(self, obs) -> tuple[int, int]:
        here = self.cell
        nbrs = self.open_sides(obs)
        first_time = here not in self.visited
        self.visited.add(here)
        back = None
        if self.came_by is not None:
            back = self.came_by[0] if self.came_by[1] == here else self.came_by[1]
        if not nbrs:
            return back if back is not None else here
        if first_time:
            fresh = [n for n in nbrs if n != back and self.marks.get(self.edge(here, n), 0) == 0]
            if fresh:
                return fresh[int(self.rng.integers(len(fresh)))]
            return back if back is not None else nbrs[0]
        if back is not None and self.marks.get(self.came_by, 0) == 1:
            return back
        allowed = [n for n in nbrs if self.marks.get(self.edge(here, n), 0) < 2]
        if not allowed:
            return back if back is not None else nbrs[0]
        low = min(self.marks.get(self.edge(here, n), 0) for n in allowed)
        best = [n for n in allowed if self.marks.get(self.edge(here, n), 0) == low]
        return best[int(self.rng.integers(len(best)))]

    def __call__(self, obs):
        x, y, th = (float(v) for v in obs["odom"][:3])
        kin = self.ctx.kinematics
        if self.cell is None:
            self.cell = self.cell_of(x, y)
        if self.mode == "decide":
            nxt = self._choose(obs)
            if nxt == self.cell:
                return (0.0, 0.0)
            e = self.edge(self.cell, nxt)
            self.marks[e] = self.marks.get(e, 0) + 1
            self.came_by = e
            self.target = nxt
            self.mode = "turn"
            self.moves += 1
        tx, ty = self.centre(self.target)
        dx, dy = tx - x, ty - y
        dist = math.hypot(dx, dy)
        bearing = math.atan2(dy, dx)
        err = wrap_angle(bearing - th)
        if self.mode == "turn":
            if abs(err) > math.radians(2) and dist > 0.2 * self.ctx.resolution:
                w = max(min(3.0 * err, kin.omega_max), -kin.omega_max)
                # Slow to a stop on the heading under the angular-acceleration limit.
                w = math.copysign(min(abs(w), math.sqrt(2 * 0.8 * kin.alpha_max * abs(err))), err)
                return (0.0, w)
            self.mode = "drive"
        # drive: straight to the next centre, correcting the heading
        if dist < 0.1 * self.ctx.resolution or (dist < self.ctx.resolution and abs(err) > math.pi / 2):
            self.cell = self.target
            self.mode = "decide"
            return (0.0, 0.0)
        v = min(self.speed * max(math.cos(err), 0.0), math.sqrt(2 * 0.8 * kin.a_max * dist))
        w = max(min(4.0 * err, kin.omega_max), -kin.omega_max)
        return (v, w)


def tremaux(ctx: AgentContext, **options) -> TremauxAgent:
    """Build a :class:`TremauxAgent` (option: speed)."""
    return TremauxAgent(ctx, **options)
