"""Robot kinematics integrated at a fixed time step.

:class:`Kinematics` is a unicycle by default: the command is ``(v, omega)``
-- forward speed (m/s) and turn rate (rad/s, counter-clockwise). Each step
the command is clipped to the speed and turn-rate limits, then the change
from the current velocity is clipped to what the acceleration limits allow
in ``dt``; the pose then moves along the exact arc of constant ``(v,
omega)`` for ``dt``. With ``holonomic=True`` the command is ``(vx, vy,
omega)`` in the robot frame (``vx``, ``vy`` each limited to ``v_max`` and
``a_max``); the pose moves along the exact curve of that constant body
twist.

Headings are kept in ``[-pi, pi)``.

>>> k = Kinematics(v_max=1.0, omega_max=1.0, a_max=10.0, alpha_max=10.0)
>>> vel = k.limit((5.0, 0.0), (0.0, 0.0), 0.1)
>>> vel
(1.0, 0.0)
>>> k.integrate((0.0, 0.0, 0.0), vel, 0.1)
(0.1, 0.0, 0.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .._validate import check_float
from ..errors import ParameterError

__all__ = ["Kinematics", "wrap_angle"]

_TWO_PI = 2.0 * math.pi


def wrap_angle(a: float) -> float:
    """An angle wrapped to ``[-pi, pi)``.

    >>> wrap_angle(3 * math.pi / 2) == -math.pi / 2
    True
    """
    return (a + math.pi) % _TWO_PI - math.pi


def _clip(x: float, lo: float, hi: float) -> float:
    return lo if x < lo else hi if x > hi else x


@dataclass(frozen=True)
class Kinematics:
    """Velocity and acceleration limits of a unicycle (or holonomic) robot.

    Parameters
    ----------
    v_max : float
        Top forward speed, m/s (> 0).
    omega_max : float
        Top turn rate, rad/s (> 0).
    a_max : float
        Linear acceleration limit, m/s^2 (> 0).
    alpha_max : float
        Angular acceleration limit, rad/s^2 (> 0).
    v_min : float or None
        Slowest (most negative) forward speed; default ``-v_max / 2`` (reversing
        is allowed but slower). Use 0 to forbid reversing.
    holonomic : bool
        Commands are ``(vx, vy, omega)`` in the robot frame instead of ``(v, omega)``.
    """

    v_max: float = 0.5
    omega_max: float = 2.0
    a_max: float = 1.0
    alpha_max: float = 6.0
    v_min: float | None = None
    holonomic: bool = False

    def __post_init__(self) -> None:
        for name in ("v_max", "omega_max", "a_max", "alpha_max"):
            check_float(name, getattr(self, name), min_value=0.0, strict_min=True)
        if self.v_min is None:
            object.__setattr__(self, "v_min", -float(self.v_max) / 2)
        check_float("v_min", self.v_min, max_value=0.0)
        object.__setattr__(self, "holonomic", bool(self.holonomic))

    @property
    def n_controls(self) -> int:
        """Length of a command: 2 for a unicycle, 3 for a holonomic robot."""
        return 3 if self.holonomic else 2

    def parse(self, action) -> tuple:
        """A command as a tuple of floats, checked for length and finiteness."""
        try:
            cmd = tuple(float(a) for a in action)
        except (TypeError, ValueError):
            raise ParameterError(f"action must be a sequence of numbers, got {action!r}") from None
        if len(cmd) != self.n_controls or not all(math.isfinite(a) for a in cmd):
            raise ParameterError(
                f"action must be {self.n_controls} finite numbers "
                f"({'vx, vy, omega' if self.holonomic else 'v, omega'}), got {action!r}")
        return cmd

    def limit(self, command, velocity, dt: float) -> tuple:
        """The velocity actually reached in ``dt`` from ``velocity`` towards ``command``."""
        da = self.a_max * dt
        dw = self.alpha_max * dt
        if self.holonomic:
            vx, vy, w = command
            cx, cy, cw = velocity
            vx = _clip(_clip(vx, -self.v_max, self.v_max), cx - da, cx + da)
            vy = _clip(_clip(vy, -self.v_max, self.v_max), cy - da, cy + da)
            w = _clip(_clip(w, -self.omega_max, self.omega_max), cw - dw, cw + dw)
            return (vx, vy, w)
        v, w = command
        cv, cw = velocity
        v = _clip(_clip(v, self.v_min, self.v_max), cv - da, cv + da)
        w = _clip(_clip(w, -self.omega_max, self.omega_max), cw - dw, cw + dw)
        return (v, w)

    def integrate(self, pose, velocity, dt: float) -> tuple:
        """Pose after moving ``dt`` seconds at constant ``velocity`` (exact arc)."""
        x, y, th = pose
        if self.holonomic:
            vx, vy, w = velocity
        else:
            vx, w = velocity
            vy = 0.0
        c, s = math.cos(th), math.sin(th)
        if abs(w) < 1e-12:
            dx, dy = vx * dt, vy * dt
        else:
            # Integral of R(th + w t) (vx, vy) over [0, dt], in the body frame at t = 0.
            sw, cw1 = math.sin(w * dt) / w, (1.0 - math.cos(w * dt)) / w
            dx = vx * sw - vy * cw1
            dy = vx * cw1 + vy * sw
        return (x + c * dx - s * dy, y + s * dx + c * dy, wrap_angle(th + w * dt))

    def describe(self) -> dict:
        """JSON-friendly parameters (for trajectory headers)."""
        return {"v_max": self.v_max, "omega_max": self.omega_max, "a_max": self.a_max,
                "alpha_max": self.alpha_max, "v_min": self.v_min, "holonomic": self.holonomic}
