"""``follow_plan``: plan once on the known map, then track the path with pure pursuit.

The agent is given the occupancy grid. At the start it asks
:func:`robomaze.plan.plan` (any registered ``method``, default
``"max_clearance"``, which keeps to corridor centres) for a path for the
robot's footprint from its start to the goal centre, then tracks the path's
world points with pure pursuit: the target is the point ``lookahead``
metres further along the path than the point nearest the robot (the search
for the nearest point only moves forward), the curvature is ``2 sin(alpha)
/ L``, and the robot turns in place when the target is more than 15 degrees
off its heading. The target never skips a vertex where the path turns by
more than 10 degrees (regulated pure pursuit): the robot drives to such a
corner, turns there and goes on, so it never cuts a corner the planner
kept clear of the walls. If the robot is blocked (the simulator refused
``replan_after`` steps in a row) it plans again from where it stands, at
most ``max_replans`` times, then gives up (stands still). With
``backup_s > 0`` (the default 0.5 s) a refused step first makes it back
up straight for that long at half its speed (a back-up that is refused
itself ends there) and then plan again from where it believes it stands:
pushing on against a wall only repeats the contact, and a robot whose
believed pose is wrong (a localizer fooled by a look-alike place) sees
new scans only while it moves. It also plans
again, at most ``max_replans`` times more, when it finds itself more than
``off_path`` metres from the path ahead: its believed pose jumped (a
localizer found it elsewhere, e.g. after a kidnapping), and pursuing the
old path from there would drive it into walls.

The path's headings, if the planner chose any, are ignored: a unicycle faces
where it drives and turns in place at corners. That is safe for discs and
for any footprint on ``max_clearance`` paths in corridors wider than the
footprint's circumscribed diameter; a rectangle on a ``collision_free``
path planned for a fixed sideways heading may be blocked.

Planning uses the footprint grown by ``margin`` (default a quarter grid
cell) so the path keeps a little room for tracking errors; if that leaves
no path, the exact footprint is used.

The default look-ahead is the path's minimum clearance (how far the corners
may be cut) bounded to ``[2, 10]`` grid cells.
"""

from __future__ import annotations

import math

import numpy as np

from ..._validate import check_float, check_int
from ...errors import NoPathError, ParameterError
from .base import AgentContext, pursue

__all__ = ["follow_plan", "PlanFollower"]


class PlanFollower:
    """State of one plan-tracking run (see the module docstring)."""

    def __init__(self, ctx: AgentContext, *, method: str = "max_clearance",
                 lookahead: float | None = None, speed: float | None = None,
                 replan_after: int = 3, max_replans: int = 20, margin: float | None = None,
                 off_path: float = 0.5, backup_s: float = 0.5, **planner_options) -> None:
        if ctx.grid is None:
            raise ParameterError("follow_plan needs the map")
        self.ctx = ctx
        self.method = method
        self.planner_options = planner_options
        self.replan_after = check_int("replan_after", replan_after, min_value=1)
        self.max_replans = check_int("max_replans", max_replans, min_value=0)
        self._lookahead_arg = None if lookahead is None else check_float(
            "lookahead", lookahead, min_value=0.0, strict_min=True)
        kin = ctx.kinematics
        res = ctx.resolution
        self.margin = 0.25 * res if margin is None else check_float("margin", margin,
                                                                     min_value=0.0)
        self.speed = min(kin.v_max, math.sqrt(0.6 * kin.a_max * res) * 2) if speed is None else speed
        self.off_path = check_float("off_path", off_path, min_value=0.0, strict_min=True)
        self.backup_s = check_float("backup_s", backup_s, min_value=0.0)
        self._backup_n = int(round(self.backup_s / ctx.dt))
        self._backing = 0
        self.backups = 0
        self.replans = 0
        self.jump_replans = 0
        self._dev = 0.0
        self._blocked_steps = 0
        self._plan(ctx.start)

    def _planning_footprints(self):
        fp = self.ctx.footprint
        if self.margin > 0:
            from ...geometry import Footprint

            if fp.kind == "disc":
                yield Footprint.disc(fp.radius + self.margin)
            else:
                yield Footprint.polygon(fp.geometry.buffer(self.margin, join_style="mitre"))
        yield fp

    def _plan(self, pose) -> None:
        from ...plan import plan

        goal = self.ctx.goal.centre
        error = None
        for fp in self._planning_footprints():
            try:
                path = plan(self.ctx.grid, (float(pose[0]), float(pose[1])),
                            (float(goal[0]), float(goal[1])), method=self.method, footprint=fp,
                            **self.planner_options)
                break
            except NoPathError as exc:
                error = exc
        else:
            raise error
        pts = np.asarray(path.points, float)
        keep = np.ones(len(pts), bool)
        keep[1:] = np.any(np.diff(pts, axis=0) != 0, axis=1)
        self.path = path
        self.points = pts[keep]
        seg = np.hypot(*np.diff(self.points, axis=0).T) if len(self.points) > 1 else np.zeros(0)
        self.s = np.concatenate([[0.0], np.cumsum(seg)])
        self._i = 0
        self._progress = 0.0
        # Vertices where the path turns by more than 10 degrees: never cut.
        d = np.diff(self.points, axis=0)
        head = np.arctan2(d[:, 1], d[:, 0]) if len(d) else np.zeros(0)
        turn = np.abs((np.diff(head) + np.pi) % (2 * np.pi) - np.pi)
        self._sharp = np.flatnonzero(turn > math.radians(10)) + 1
        res = self.ctx.resolution
        if self._lookahead_arg is not None:
            self.lookahead = self._lookahead_arg
        else:
            mc = path.min_clearance_key_poses
            mc = 0.0 if mc is None else mc
            self.lookahead = min(max(float(mc), 2 * res), 10 * res)
        self.replans += 1

    def _target(self, x: float, y: float) -> tuple[float, float]:
        pts = self.points
        n = len(pts)
        if n == 1:
            return tuple(pts[0])
        # Nearest point on the segments ahead (forward-only window).
        best, best_s = math.inf, self.s[self._i]
        hi = min(n - 1, self._i + 50)
        for i in range(self._i, hi):
            p, q = pts[i], pts[i + 1]
            d = q - p
            L2 = float(d @ d)
            t = 0.0 if L2 == 0 else min(max(((x - p[0]) * d[0] + (y - p[1]) * d[1]) / L2, 0.0), 1.0)
            cx, cy = p[0] + t * d[0], p[1] + t * d[1]
            dist = math.hypot(x - cx, y - cy)
            if dist < best - 1e-12:
                best, best_s, bi = dist, self.s[i] + t * math.sqrt(L2), i
        self._dev = best
        if best < math.inf:
            self._i = bi
        best_s = max(best_s, self._progress)
        s_t = best_s + self.lookahead
        ahead = self._sharp[self.s[self._sharp] > best_s + 1e-9]
        if len(ahead):
            j = int(ahead[0])
            corner = pts[j]
            if math.hypot(corner[0] - x, corner[1] - y) <= 0.1 * self.ctx.resolution:
                # Reached the corner: count it as passed and look beyond it.
                self._progress = float(self.s[j])
                return self._target(x, y)
            if s_t >= self.s[j]:
                return (float(corner[0]), float(corner[1]))
        if s_t >= self.s[-1]:
            return tuple(pts[-1])
        j = int(np.searchsorted(self.s, s_t, side="right")) - 1
        f = (s_t - self.s[j]) / (self.s[j + 1] - self.s[j])
        return (pts[j, 0] + f * (pts[j + 1, 0] - pts[j, 0]), pts[j, 1] + f * (pts[j + 1, 1] - pts[j, 1]))

    def __call__(self, obs):
        x, y, th = (float(v) for v in obs["odom"][:3])
        if self._backing > 0:
            self._backing -= 1
            if self._backing > 0 and not obs.get("collision"):
                return (-0.5 * self.speed, 0.0)
            self._backing = 0
            if self.replans > self.max_replans:
                return (0.0, 0.0)
            try:
                self._plan((x, y, th))
            except (NoPathError, ParameterError):
                return (0.0, 0.0)
            self._blocked_steps = 0
        elif obs.get("collision") and self._backup_n > 0:
            self.backups += 1
            self._backing = self._backup_n
            return (-0.5 * self.speed, 0.0)
        if obs.get("collision"):
            self._blocked_steps += 1
            if self._blocked_steps >= self.replan_after:
                self._blocked_steps = 0
                if self.replans > self.max_replans:
                    return (0.0, 0.0)
                try:
                    self._plan((x, y, th))
                except (NoPathError, ParameterError):
                    # no route from where it believes it is (a lost localizer can
                    # believe it stands in a wall): hold still and let it settle
                    return (0.0, 0.0)
        else:
            self._blocked_steps = 0
        target = self._target(x, y)
        if self._dev > self.off_path and self.jump_replans < self.max_replans:
            self.jump_replans += 1
            try:
                self._plan((x, y, th))
                target = self._target(x, y)
            except (NoPathError, ParameterError):
                return (0.0, 0.0)
        kin = self.ctx.kinematics
        v, w = pursue((x, y, th), target, speed=self.speed, omega_max=kin.omega_max,
                      turn_in_place=math.radians(15))
        # Brake for the corner or the end of the path the target sits on.
        remaining = math.hypot(target[0] - x, target[1] - y)
        v = min(v, math.sqrt(2.0 * 0.8 * kin.a_max * remaining))
        return (v, w)


def follow_plan(ctx: AgentContext, **options) -> PlanFollower:
    """Build a :class:`PlanFollower` (options: method, lookahead, speed, replan_after,
    max_replans, margin, off_path, backup_s, and planner options)."""
    return PlanFollower(ctx, **options)
