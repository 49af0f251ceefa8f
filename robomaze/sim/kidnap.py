"""The kidnapped robot: carried away unseen, the odometry none the wiser.

``simulate(..., kidnap=(T, DX, DY))`` (CLI ``--kidnap T,DX,DY``, sweep axis
``robot.kidnap``) moves the true robot by ``(DX, DY)`` metres in the map
frame at the first step whose time reaches ``T`` seconds, heading kept,
without telling the odometry: the classic test of whether a localizer
notices it is lost and finds the robot again. When the target pose
collides, the nearest collision-free pose (grid-cell centres, same heading,
within 1 m of it) is taken instead, and when there is none (the target lies
outside the maze) the carry turned by quarter turns
(:meth:`robomaze.sim.env.SimEnv.kidnap`). The run's ``length`` leaves the carry
out; ``kidnap_recovery_s``
(:func:`robomaze.metrics.localisation.recovery_time`) is the simulated time
from the kidnapping until the estimate is back within ``0.3 m`` and ``0.35
rad`` of the truth and stays there for 2 s (NaN if it never is).

>>> parse_kidnap("20,2,0")
(20.0, 2.0, 0.0)
>>> parse_kidnap("none") is None
True
"""

from __future__ import annotations

import math

from ..errors import ParameterError
# the recovery metric (robomaze.metrics: the one place that measures)
from ..metrics.localisation import RECOVERED_HOLD_S, RECOVERED_M, RECOVERED_RAD, recovery_time

__all__ = ["parse_kidnap", "kidnap_spec", "recovery_time", "RECOVERED_M", "RECOVERED_RAD",
           "RECOVERED_HOLD_S"]

def parse_kidnap(v) -> tuple[float, float, float] | None:
    """``"T,DX,DY"`` (or a 3-sequence) as floats, None for ``None`` / ``"none"``."""
    if v is None or (isinstance(v, str) and v.strip().lower() in ("", "none")):
        return None
    parts = v.split(",") if isinstance(v, str) else list(v)
    try:
        t, dx, dy = (float(p) for p in parts)
    except (TypeError, ValueError):
        raise ParameterError(f"kidnap must be 'T,DX,DY' (seconds, metres, metres), got {v!r}") \
            from None
    if not (math.isfinite(t) and math.isfinite(dx) and math.isfinite(dy)) or t < 0:
        raise ParameterError(f"kidnap must be 'T,DX,DY' with T >= 0 and finite numbers, got {v!r}")
    return (t, dx, dy)


def kidnap_spec(k) -> str | None:
    """The canonical text of a kidnapping (None when there is none).

    >>> kidnap_spec((20, 2.0, -0.5))
    '20,2,-0.5'
    """
    k = parse_kidnap(k) if not (isinstance(k, tuple) and len(k) == 3) else k
    if k is None:
        return None
    return ",".join(format(float(v), "g") for v in k)
