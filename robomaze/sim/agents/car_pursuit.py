"""``car_pursuit``: plan a Dubins car path through OMPL, track it by pure pursuit.

The agent is given the map. At the start it plans with ``ompl:dubins``
(forward only) for its footprint, from its start pose to the goal, with
the car's turning radius (from :class:`~robomaze.sim.car.CarKinematics`,
or the ``turning_radius`` option on other kinematics), then tracks the
path by pure pursuit: the target is the point ``lookahead`` metres along
the path beyond the point nearest the robot (the search only moves
forward), the commanded curvature ``2 sin(alpha) / d`` (``alpha`` the
target's bearing from the heading, ``d`` its distance) is clipped to ``1
/ turning_radius``, so the agent never asks for a tighter turn than the
car can make, and ``omega = v * curvature``. It brakes to stop at the end.

Reeds-Shepp paths (with reverse pieces) are planned by
``ompl:reeds_shepp`` but not tracked here: pure pursuit in reverse did not
stay clear of the walls in narrow corridors.

Requires ``robomaze[ompl]``.
"""

from __future__ import annotations

import math

import numpy as np

from ..._validate import check_float, check_int
from ...errors import ParameterError
from ..kinematics import wrap_angle
from .base import AgentContext

__all__ = ["car_pursuit", "CarPursuit"]


class CarPursuit:
    """State of one car tracking run (see the module docstring)."""

    def __init__(self, ctx: AgentContext, *, turning_radius: float | None = None,
                 lookahead: float | None = None, speed: float | None = None, max_checks: int = 100_000,
                 time_limit: float = 10.0, **planner_options) -> None:
        if ctx.grid is None:
            raise ParameterError("car_pursuit needs the map")
        kin = ctx.kinematics
        rho = getattr(kin, "turning_radius", None) if turning_radius is None else turning_radius
        if rho is None:
            raise ParameterError(
                "car_pursuit needs turning_radius (or CarKinematics), got None")
        self.rho = check_float("turning_radius", rho, min_value=0.0, strict_min=True)
        self.method = "ompl:dubins"
        res = ctx.resolution
        self.lookahead = 3 * res if lookahead is None else check_float(
            "lookahead", lookahead, min_value=0.0, strict_min=True)
        self.speed = min(kin.v_max, 0.5) if speed is None else check_float(
            "speed", speed, min_value=0.0, strict_min=True)
        self.ctx = ctx
        from ...plan import plan

        goal = ctx.goal.centre
        self.path = plan(ctx.grid, (float(ctx.start[0]), float(ctx.start[1])),
                         (float(goal[0]), float(goal[1])), method=self.method,
                         footprint=ctx.footprint, turning_radius=self.rho,
                         start_heading=float(ctx.start[2]),
                         max_checks=check_int("max_checks", max_checks, min_value=1),
                         time_limit=time_limit, rng=int(ctx.rng.integers(1, 2**31 - 1)),
                         **planner_options)
        self._v = 0.0
        pts = np.asarray(self.path.points, float)
        keep = np.r_[True, np.any(np.diff(pts, axis=0) != 0, axis=1)]
        self.pts = pts[keep]
        seg = np.hypot(*np.diff(self.pts, axis=0).T) if len(self.pts) > 1 else np.zeros(0)
        self.s = np.concatenate([[0.0], np.cumsum(seg)])
        self._i = 0

    def _progress(self, x: float, y: float) -> float:
        """Arc length of the point of the piece nearest the robot (forward-only window)."""
        pts, best, best_s = self.pts, math.inf, float(self.s[self._i])
        for i in range(self._i, min(len(pts) - 1, self._i + 40)):
            p, d = pts[i], pts[i + 1] - pts[i]
            L2 = float(d @ d)
            t = min(max(((x - p[0]) * d[0] + (y - p[1]) * d[1]) / L2, 0.0), 1.0)
            dist = math.hypot(x - p[0] - t * d[0], y - p[1] - t * d[1])
            if dist < best:
                best, best_s, bi = dist, float(self.s[i]) + t * math.sqrt(L2), i
        if best < math.inf:
            self._i = bi
        return best_s

    def _point_at(self, s: float) -> tuple[float, float]:
        if s >= self.s[-1] or len(self.pts) == 1:
            return float(self.pts[-1, 0]), float(self.pts[-1, 1])
        j = int(np.searchsorted(self.s, s, side="right")) - 1
        f = (s - self.s[j]) / (self.s[j + 1] - self.s[j])
        p = self.pts[j] + f * (self.pts[j + 1] - self.pts[j])
        return float(p[0]), float(p[1])

    def __call__(self, obs):
        x, y, th = (float(v) for v in obs["odom"][:3])
        s = self._progress(x, y)
        remaining = float(self.s[-1]) - s
        end = self.pts[-1]
        if remaining < 0.25 * self.ctx.resolution:
            remaining = math.hypot(end[0] - x, end[1] - y)
        tx, ty = self._point_at(s + self.lookahead)
        dx, dy = tx - x, ty - y
        dist = math.hypot(dx, dy)
        if dist < 1e-9:
            return (0.0, 0.0)
        alpha = wrap_angle(math.atan2(dy, dx) - th)
        kappa = 2.0 * math.sin(alpha) / dist
        kappa = max(-1.0 / self.rho, min(1.0 / self.rho, kappa))
        kin = self.ctx.kinematics
        v = min(self.speed, math.sqrt(2.0 * 0.8 * kin.a_max * max(remaining, 0.0)) + 0.02)
        # the speed the robot will actually reach this step (acceleration
        # limits): the turn rate must match it, not the speed asked for
        dv = kin.a_max * self.ctx.dt
        v = min(max(v, self._v - dv), self._v + dv)
        w = v * kappa
        if abs(w) > kin.omega_max:   # slow down rather than turn tighter
            v *= kin.omega_max / abs(w)
            w = math.copysign(kin.omega_max, w)
        self._v = v
        return (v, w)


def car_pursuit(ctx: AgentContext, **options) -> CarPursuit:
    """Build a :class:`CarPursuit` (options: turning_radius, lookahead, speed,
    max_checks, time_limit and planner options)."""
    return CarPursuit(ctx, **options)
