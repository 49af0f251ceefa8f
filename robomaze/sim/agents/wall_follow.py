"""``wall_follow``: a reactive wall follower that uses nothing but its scan.

It keeps the right (or left) wall at a set distance ``d``. Two beams on
that side -- straight to the side and 45 degrees ahead of it -- hit the wall
at two points; the line through them gives the wall's angle ``alpha``
relative to the heading and the perpendicular distance ``D``. A PID
controller steers on the look-ahead error ``e = (d - D) / d + sin(alpha)``
(positive when too close or heading into the wall). Around it a small
state machine:

* ``find``   -- at the start, drive straight until a wall is on the side or ahead;
* ``follow`` -- the PID above, slowing down for a wall ahead;
* ``turn``   -- a wall ahead closer than ``d``: stop and turn in place away
  from the followed side until the way ahead is clear;
* ``corner`` -- the side beam lost the wall (an opening on that side): arc
  around the wall's end with radius ``d`` for a quarter turn, then look again
  (this is how the follower "seeks the wall when it is lost").

In a perfect maze every wall is connected to the outer wall, so following
one wall visits every cell and reaches any goal. The default ``d`` is half
the corridor width when the map frame says it (widened mazes) and half the
narrowest cross-section seen in the first scan otherwise.
"""

from __future__ import annotations

import math

from ..._validate import check_choice, check_float
from ...errors import ParameterError
from ..kinematics import wrap_angle
from .base import AgentContext, beam_range, front_range

__all__ = ["wall_follow", "WallFollower"]


class WallFollower:
    """State of one wall-following run (see the module docstring)."""

    def __init__(self, ctx: AgentContext, *, side: str = "right", distance: float | None = None,
                 speed: float | None = None, kp: float = 2.5, ki: float = 0.0,
                 kd: float = 0.3) -> None:
        if ctx.sensor is None:
            raise ParameterError("wall_follow needs a range sensor")
        self.ctx = ctx
        self.side = check_choice("side", side, ("right", "left"))
        self.s = -1.0 if side == "right" else 1.0
        self.d = None if distance is None else check_float("distance", distance, min_value=0.0,
                                                           strict_min=True)
        self.speed = speed
        self.kp, self.ki, self.kd = kp, ki, kd
        self.state = "find"
        self._integral = 0.0
        self._prev_e = None
        self._corner_start = 0.0
        self._kin = ctx.kinematics

    def _setup(self, scan) -> None:
        if self.d is None:
            if self.ctx.corridor is not None:
                self.d = self.ctx.corridor / 2
            else:
                n = len(scan.ranges)
                best = math.inf
                for i in range(n):
                    r1 = scan.ranges[i]
                    r2, _ = beam_range(scan, scan.angle_min + i * scan.angle_increment + math.pi)
                    if r2 == r2:
                        best = min(best, r1 + r2)
                self.d = best / 2 if math.isfinite(best) else 4 * self.ctx.footprint.circumscribed_radius
        r = self.ctx.footprint.circumscribed_radius
        self.d = max(self.d, 1.05 * r)
        if self.speed is None:
            self.speed = min(self._kin.v_max, 2.0 * self.d)
        # Stopping distance under the acceleration limit fits in the margin ahead.
        self.front_stop = self.d
        self.lost = 1.9 * self.d

    def __call__(self, obs):
        scan = obs["scan"]
        if self.d is None:
            self._setup(scan)
        s, d = self.s, self.d
        th = float(obs["odom"][2])
        b, ab = beam_range(scan, s * math.pi / 2)
        a, aa = beam_range(scan, s * math.pi / 4)
        f = front_range(scan, math.radians(12))
        wmax = self._kin.omega_max
        if self.state == "turn":
            if f > self.front_stop + d and (not b == b or b < self.lost or f > 3 * d):
                self.state = "follow"
                self._prev_e = None
            else:
                return (0.0, -s * wmax)
        if f <= self.front_stop:
            self.state = "turn"
            return (0.0, -s * wmax)
        if self.state == "find":
            if b < self.lost:
                self.state = "follow"
            else:
                return (self._brake(f, self.speed), 0.0)
        if self.state == "corner":
            turned = abs(wrap_angle(th - self._corner_start))
            if turned < math.pi / 2 - 0.05:
                v = self._brake(f, min(self.speed, wmax * d * 0.9))
                return (v, s * v / d)
            self.state = "follow"
            self._prev_e = None
        # follow
        if not b < self.lost:
            self.state = "corner"
            self._corner_start = th
            v = self._brake(f, min(self.speed, wmax * d * 0.9))
            return (v, s * v / d)
        pb = (b * math.cos(ab), b * math.sin(ab))
        alpha = 0.0
        dist = b
        if a == a and a < 1.5 * b / math.cos(math.pi / 4):
            pa = (a * math.cos(aa), a * math.sin(aa))
            ux, uy = pa[0] - pb[0], pa[1] - pb[1]
            nu = math.hypot(ux, uy)
            if nu > 1e-9:
                alpha = -s * math.atan2(uy, ux)   # > 0: heading into the wall
                dist = abs(pb[0] * uy - pb[1] * ux) / nu
        e = (d - dist) / d + math.sin(alpha)
        de = 0.0 if self._prev_e is None else (e - self._prev_e) / self.ctx.dt
        self._prev_e = e
        self._integral = min(max(self._integral + e * self.ctx.dt, -1.0), 1.0)
        omega = -s * (self.kp * e + self.ki * self._integral + self.kd * de) * (self.speed / d)
        omega = min(max(omega, -wmax), wmax)
        v = self.speed * max(0.3, 1.0 - abs(omega) / wmax)
        return (self._brake(f, v), omega)

    def _brake(self, f: float, v: float) -> float:
        room = max(f - self.front_stop, 0.0)
        return min(v, math.sqrt(2.0 * 0.8 * self._kin.a_max * room))


def wall_follow(ctx: AgentContext, **options) -> WallFollower:
    """Build a :class:`WallFollower` (options: side, distance, speed, kp, ki, kd)."""
    return WallFollower(ctx, **options)


wall_follow.uses_map = False
wall_follow.explorer = False
