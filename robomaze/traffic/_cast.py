"""The grid cast of every robot's scan, jumping through open space on the clearance field.

:func:`scan_rows_jump` gives what :func:`robomaze.sense.raycast.scan_rows`
gives (``finish`` False: exact metres, ``range_max`` for no return, 0 from
inside a wall) but skips most of Amanatides & Woo's cell steps: a point
inside cell ``(r, c)`` is at least ``clear[r, c] - sqrt(1/2)`` cells from
every occupied square (``clear``: :meth:`OccupancyGrid.flat_clearance`,
from the cell's centre, the outside counted as occupied), so the beam
can advance that far without meeting one -- sphere tracing on the
clearance field. Once the safe step is short (near a wall) the exact
traversal takes over from the point reached, so the hit is the same
square face; the range differs from a traversal from the sensor by float
rounding only (``tests/traffic/test_traffic_cast.py`` checks 1e-9).
In corridors several cells wide most beams need a handful of jumps where
the traversal stepped every cell.
"""

from __future__ import annotations

import math

from numba import njit

from ..sense.raycast import TINY_DIR, cast_free, origin_blocked

#: sqrt(1/2) (the farthest a point of a cell is from its centre) and a hair more
_HALF_DIAG = 0.7071067811865476 + 1e-9
#: jump only when the safe step is at least this many cells (else step cells)
_MIN_JUMP = 1.5


@njit(cache=True)
def scan_rows_jump(occ, clear, rows, cols, res, ox, oy, oyaw, poses, mount, cos_b, sin_b,
                   range_max, out):
    """Exact ranges (metres) of a sensor at ``mount`` on robots at ``poses (n, 3)`` into ``out``."""
    tmax = range_max / res
    cy = math.cos(oyaw)
    sy = math.sin(oyaw)
    for i in range(poses.shape[0]):
        x = poses[i, 0]
        y = poses[i, 1]
        th = poses[i, 2]
        ct = math.cos(th)
        st = math.sin(th)
        sx = x + ct * mount[0] - st * mount[1] - ox
        sy_ = y + st * mount[0] + ct * mount[1] - oy
        a0 = (cy * sx + sy * sy_) / res
        b0 = rows - (-sy * sx + cy * sy_) / res
        base = th + mount[2] - oyaw
        cb = math.cos(base)
        sb = math.sin(base)
        blocked = origin_blocked(occ, rows, cols, a0, b0)
        for j in range(cos_b.shape[0]):
            if blocked:
                out[i, j] = 0.0
                continue
            ca = cos_b[j]
            sa = sin_b[j]
            da = cb * ca - sb * sa
            db = -(sb * ca + cb * sa)
            # cast_free's own rule: a tiny component runs along the axis
            if abs(da) < TINY_DIR:
                da = 0.0
            if abs(db) < TINY_DIR:
                db = 0.0
            t0 = 0.0
            while True:
                a = a0 + t0 * da
                b = b0 + t0 * db
                if not (a > 0.0 and a < cols and b > 0.0 and b < rows):
                    break
                safe = clear[int(b) * cols + int(a)] - _HALF_DIAG
                if safe < _MIN_JUMP:
                    break
                t0 += safe
                if t0 >= tmax:
                    break
            if t0 >= tmax:
                t = tmax
            elif t0 > 0.0:
                rest = tmax - t0
                u = cast_free(occ, rows, cols, a0 + t0 * da, b0 + t0 * db, da, db, rest)
                t = tmax if u >= rest else t0 + u
            else:
                t = cast_free(occ, rows, cols, a0, b0, da, db, tmax)
            out[i, j] = range_max if t >= tmax else t * res
