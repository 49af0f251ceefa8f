"""Numba helpers shared by the Gymnasium env and the batched vector env.

Both envs build their observations through these functions, so a robot
stepped alone and the same robot stepped in a batch see bit-identical
numbers.
"""

from __future__ import annotations

import math

from numba import njit


@njit(cache=True)
def goal_vector(x, y, th, gx, gy, out):
    """The goal centre ``(gx, gy)`` in the robot frame of pose ``(x, y, th)``, into ``out[0:2]``."""
    dx = gx - x
    dy = gy - y
    c = math.cos(th)
    s = math.sin(th)
    out[0] = c * dx + s * dy
    out[1] = -s * dx + c * dy


@njit(cache=True)
def scale_command(a0, a1, v_min, v_max, omega_max):
    """A normalised action in ``[-1, 1]^2`` as ``(v, omega)``.

    Forward actions scale to ``v_max``, backward ones to ``v_min`` (the
    reverse limit); the turn to ``omega_max``. Out-of-range values are clipped.
    """
    a0 = min(max(a0, -1.0), 1.0)
    a1 = min(max(a1, -1.0), 1.0)
    v = a0 * v_max if a0 >= 0.0 else -a0 * v_min
    return v, a1 * omega_max


@njit(cache=True)
def finite_scan(ranges, range_max, out):
    """REP 117 readings as finite observations: ``+inf`` and NaN (no return) read ``range_max``."""
    for j in range(ranges.shape[0]):
        r = ranges[j]
        out[j] = r if r < range_max else range_max
