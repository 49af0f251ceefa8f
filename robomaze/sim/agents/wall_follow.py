"""``wall_follow``: a reactive wall follower driven by its scan (no map, no plan).

Besides the scan it only uses odometry, to remember the last wall point it
saw (below).

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
* wall ends -- where the two beams disagree (an opening on the followed
  side) the follower keeps the *nearest point* on that side at distance
  ``d`` instead, remembered in odometry coordinates when the sensor stops
  seeing it, which rounds the wall's end at radius ``d``;
* ``seek``   -- nothing on the followed side within ``1.9 d``: drive on,
  curving gently towards that side until a wall is found.

In a perfect maze every wall is connected to the outer wall, so following
one wall visits every cell and reaches any goal. In a braided maze the goal
may sit on an island of walls the follower never touches; it would circle
forever. So, as the maze-level followers do, it remembers poses along the
way (every ``d / 2`` of travel while following) and gives up when it is back
at a remembered pose -- within ``d / 2`` and 0.5 rad of heading -- after at
least a lap of ``2 pi d`` without having come any closer to the goal since:
the run ends with :class:`~robomaze.errors.NoPathError` ("no path", reason
``"wall_follow is circling"``). ``loop_check=False`` turns this off. The default ``d`` is half
the corridor width when the map frame says it (widened mazes) and half the
narrowest cross-section seen in the first scan otherwise.
"""

from __future__ import annotations

import math

import numpy as np

from ..._validate import check_choice, check_float
from ...errors import NoPathError, ParameterError
from ..kinematics import wrap_angle
from .base import AgentContext, beam_range

__all__ = ["wall_follow", "WallFollower"]


class WallFollower:
    """State of one wall-following run (see the module docstring)."""

    def __init__(self, ctx: AgentContext, *, side: str = "right", distance: float | None = None,
                 speed: float | None = None, kp: float = 2.5, ki: float = 0.0,
                 kd: float = 0.3, loop_check: bool = True) -> None:
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
        self._mem = None
        self._kin = ctx.kinematics
        ang = ctx.sensor.angles
        rel = self.s * ang
        self._side_idx = np.flatnonzero((rel >= math.radians(30) - 1e-9)
                                        & (rel <= math.radians(150) + 1e-9))
        self._front_idx = np.flatnonzero(np.abs(ang) <= math.radians(10) + 1e-9)
        self._front_cos = np.cos(ang[self._front_idx])
        self._angles = ang
        self.loop_check = bool(loop_check)
        self._travel = 0.0          # odometry path length so far
        self._last_xy = None
        self._best = math.inf       # closest approach to the goal centre so far
        self._marks: dict = {}      # remembered poses, hashed by position
        self._last_mark = -math.inf

    def _setup(self, scan) -> None:
        if self.d is None:
            if self.ctx.corridor is not None:
                self.d = self.ctx.corridor / 2
            else:
                best = math.inf
                for i in range(len(scan.ranges)):
                    r2, _ = beam_range(scan, self._angles[i] + math.pi)
                    if r2 == r2:
                        best = min(best, scan.ranges[i] + r2)
                r = self.ctx.footprint.circumscribed_radius
                self.d = best / 2 if math.isfinite(best) else 4 * r
        self.d = max(self.d, 1.05 * self.ctx.footprint.circumscribed_radius)
        if self.speed is None:
            # Slow enough to round a wall end at radius d well within the turn-rate limit.
            self.speed = min(self._kin.v_max, 0.4 * self._kin.omega_max * self.d)
        self.front_stop = self.d
        self.lost = 1.9 * self.d

    def _front(self, ranges) -> float:
        if len(self._front_idx) == 0:
            return math.inf
        return float(np.min(ranges[self._front_idx] * self._front_cos))

    def _wall(self, scan, pose) -> tuple[float, float] | None:
        """``(D, alpha)`` of the followed wall, or None when it is lost.

        The two-beam estimate (side beam and the beam 45 degrees ahead of it)
        is used when it agrees with the nearest obstacle point on that side;
        at wall ends and corners it does not, and the nearest point itself
        (distance, and the tangent perpendicular to it) is followed instead,
        which carries the robot round the corner at distance ``d``. The
        nearest point is remembered (in odometry coordinates), so a sparse
        sensor that stops seeing a wall end still rounds it.
        """
        x, y, th = pose
        ranges = scan.ranges
        dn, phi = math.inf, 0.0
        if len(self._side_idx):
            side = ranges[self._side_idx]
            j = int(np.argmin(side))
            if side[j] < self.lost:
                dn, phi = float(side[j]), float(self._angles[self._side_idx[j]])
        if self._mem is not None:
            mx, my = self._mem[0] - x, self._mem[1] - y
            dm = math.hypot(mx, my)
            pm = wrap_angle(math.atan2(my, mx) - th)
            # Only while the remembered point is still on the followed side.
            if dm < dn and dm < self.lost and self.s * pm > 0:
                dn, phi = dm, pm
        if not math.isfinite(dn):
            self._mem = None
            return None
        self._mem = (x + dn * math.cos(th + phi), y + dn * math.sin(th + phi))
        alpha_n = wrap_angle(-self.s * phi + math.pi / 2)
        b, ab = beam_range(scan, self.s * math.pi / 2)
        a, aa = beam_range(scan, self.s * math.pi / 4)
        if b == b and a == a and b < self.lost and a < 2 * self.lost:
            pb = (b * math.cos(ab), b * math.sin(ab))
            ux, uy = a * math.cos(aa) - pb[0], a * math.sin(aa) - pb[1]
            nu = math.hypot(ux, uy)
            if nu > 1e-9:
                dist = abs(pb[0] * uy - pb[1] * ux) / nu
                alpha = -self.s * math.atan2(uy, ux)   # > 0: heading into the wall
                if abs(dist - dn) <= 0.1 * self.d and abs(wrap_angle(alpha - alpha_n)) < 0.35:
                    return dist, alpha
        return dn, alpha_n

    def _check_loop(self, pose) -> None:
        """Remember poses while following; raise NoPathError when back at one with no progress."""
        x, y, th = pose
        if self._last_xy is not None:
            self._travel += math.hypot(x - self._last_xy[0], y - self._last_xy[1])
        self._last_xy = (x, y)
        gx, gy = self.ctx.goal.centre
        self._best = min(self._best, math.hypot(x - gx, y - gy))
        if self.state != "follow":
            return
        tol = 0.5 * self.d
        kx, ky = int(math.floor(x / tol)), int(math.floor(y / tol))
        lap = 2 * math.pi * self.d
        for i in (kx - 1, kx, kx + 1):
            for j in (ky - 1, ky, ky + 1):
                for mx, my, mth, mtravel, mbest in self._marks.get((i, j), ()):
                    if (self._travel - mtravel >= lap and math.hypot(x - mx, y - my) < tol
                            and abs(wrap_angle(th - mth)) < 0.5 and self._best >= mbest):
                        raise NoPathError(
                            f"wall_follow ({self.side} hand) is circling: back at "
                            f"({mx:.3f}, {my:.3f}) heading {math.degrees(mth):.0f} deg after "
                            f"a {self._travel - mtravel:.2f} m lap without getting closer to "
                            f"the goal (closest {self._best:.3f} m); the goal is not on the "
                            f"walls it follows", reason="wall_follow is circling")
        if self._travel - self._last_mark >= tol:
            self._marks.setdefault((kx, ky), []).append((x, y, th, self._travel, self._best))
            self._last_mark = self._travel

    def __call__(self, obs):
        scan = obs["scan"]
        if self.d is None:
            self._setup(scan)
        s, d = self.s, self.d
        pose = tuple(float(v) for v in obs["odom"][:3])
        if self.loop_check:
            self._check_loop(pose)
        ranges = np.asarray(scan.ranges)
        f = self._front(ranges)
        wmax = self._kin.omega_max
        wall = self._wall(scan, pose)
        if self.state == "turn":
            if f > self.front_stop + 0.5 * d:
                self.state = "follow"
                self._prev_e = None
            else:
                return (0.0, -s * wmax)
        if f <= self.front_stop:
            self.state = "turn"
            return (0.0, -s * wmax)
        if wall is None:
            # Lost (or never found): drive on, curving gently towards the side.
            self.state = "seek" if self.state != "find" else "find"
            v = self._brake(f, self.speed)
            return (v, 0.0 if self.state == "find" else s * v / (2 * d))
        self.state = "follow"
        dist, alpha = wall
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
    """Build a :class:`WallFollower` (options: side, distance, speed, kp, ki, kd, loop_check)."""
    return WallFollower(ctx, **options)
