"""A car-like robot: bicycle (Ackermann) kinematics with a minimum turning radius.

:class:`CarKinematics` takes the unicycle's ``(v, omega)`` command, so every
agent can drive it, but a car cannot turn on the spot: after the speed and
acceleration limits the turn rate is clipped to ``|v| / turning_radius``,
the curvature a bicycle of wheelbase ``L`` reaches at its steering limit
``delta_max`` (``turning_radius = L / tan(delta_max)``). The pose moves
along the exact arc of each step, of radius ``|v / omega|``, so a car never
turns tighter than its turning radius. ``v_min = 0`` makes a Dubins car
(forward only), a negative ``v_min`` a Reeds-Shepp car.

>>> car = CarKinematics.bicycle(wheelbase=0.25, max_steer=math.radians(40), v_max=0.5)
>>> round(car.turning_radius, 3)
0.298
>>> v, w = car.limit((0.4, 5.0), (0.4, 1.3), 0.1)  # asks for a spin, gets the tightest arc
>>> v, round(w, 4), round(v / w, 3)
(0.4, 1.3426, 0.298)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .._validate import check_float
from .kinematics import Kinematics, _clip

__all__ = ["CarKinematics"]


@dataclass(frozen=True)
class CarKinematics(Kinematics):
    """:class:`Kinematics` of a car: a unicycle turning at most at ``|v| / turning_radius``.

    Parameters
    ----------
    turning_radius : float
        Minimum turning radius (metres, > 0) of the reference point.
    v_max, omega_max, a_max, alpha_max, v_min
        As in :class:`Kinematics` (``holonomic`` is always False).
    """

    turning_radius: float = 0.5

    def __post_init__(self) -> None:
        super().__post_init__()
        check_float("turning_radius", self.turning_radius, min_value=0.0, strict_min=True)
        if self.holonomic:
            from ..errors import ParameterError
            raise ParameterError("a car is not holonomic: holonomic must be False")

    @classmethod
    def bicycle(cls, *, wheelbase: float, max_steer: float, **limits) -> "CarKinematics":
        """A bicycle of ``wheelbase`` metres steering at most ``max_steer`` radians.

        Raises
        ------
        ParameterError
            Non-positive wheelbase, or ``max_steer`` outside ``(0, pi/2)``.
        """
        L = check_float("wheelbase", wheelbase, min_value=0.0, strict_min=True)
        d = check_float("max_steer", max_steer, min_value=0.0, strict_min=True,
                        max_value=math.pi / 2 - 1e-9)
        return cls(turning_radius=L / math.tan(d), **limits)

    def limit(self, command, velocity, dt: float) -> tuple:
        """As :meth:`Kinematics.limit`, then the turn rate clipped to ``|v| / turning_radius``."""
        v, w = super().limit(command, velocity, dt)
        k = abs(v) / self.turning_radius
        return (v, _clip(w, -k, k))

    def describe(self) -> dict:
        """JSON-friendly parameters (for trajectory headers)."""
        return dict(super().describe(), turning_radius=self.turning_radius, model="car")
