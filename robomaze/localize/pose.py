"""SE(2) pose algebra on ``(x, y, theta)`` tuples: composition and relative poses.

>>> a = (1.0, 2.0, math.pi / 2)
>>> b = compose(a, (1.0, 0.0, 0.0))
>>> [round(v, 9) for v in b]
[1.0, 3.0, 1.570796327]
>>> [round(v, 9) for v in relative(a, b)]
[1.0, 0.0, 0.0]
"""

from __future__ import annotations

import math

__all__ = ["compose", "relative", "wrap"]


def wrap(a: float) -> float:
    """An angle wrapped to ``[-pi, pi)``."""
    return (a + math.pi) % (2.0 * math.pi) - math.pi


def compose(a, d) -> tuple[float, float, float]:
    """``a (+) d``: the pose ``d``, given in the frame of ``a``, in the world frame."""
    c, s = math.cos(a[2]), math.sin(a[2])
    return (a[0] + c * d[0] - s * d[1], a[1] + s * d[0] + c * d[1], wrap(a[2] + d[2]))


def relative(a, b) -> tuple[float, float, float]:
    """``a^-1 (+) b``: the pose ``b`` in the frame of ``a``."""
    c, s = math.cos(a[2]), math.sin(a[2])
    dx, dy = b[0] - a[0], b[1] - a[1]
    return (c * dx + s * dy, -s * dx + c * dy, wrap(b[2] - a[2]))
