"""Safety metrics of dynamic scenes that stand alone: time to collision.

>>> time_to_collision((0.0, 0.0), (1.0, 0.0), (5.0, 0.0), (-1.0, 0.0), 1.0)
2.0
"""

from __future__ import annotations

from ._step import disc_ttc

__all__ = ["time_to_collision"]


def time_to_collision(p1, v1, p2, v2, radius_sum: float) -> float:
    """Seconds until two discs (radii summing to ``radius_sum``) touch at constant velocities.

    0 when they touch already, ``inf`` when they never meet.
    """
    return float(disc_ttc(float(p1[0]), float(p1[1]), float(v1[0]), float(v1[1]),
                          float(p2[0]), float(p2[1]), float(v2[0]), float(v2[1]),
                          float(radius_sum)))
