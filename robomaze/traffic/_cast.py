"""The grid cast of every robot's scan, jumping through open space.

:func:`scan_rows_jump` gives what :func:`robomaze.sense.raycast.scan_rows`
gives (``finish`` False: exact metres, ``range_max`` for no return, 0 from
inside a wall) but skips most of Amanatides & Woo's cell steps with two
proofs that a stretch of the beam meets no occupied square:

* sphere tracing on the clearance field: a point inside cell ``(r, c)`` is
  at least ``clear[r, c] - sqrt(1/2)`` cells from every occupied square
  (``clear``: :meth:`OccupancyGrid.flat_clearance`, from the cell's centre,
  the outside counted as occupied);
* free rectangles (:func:`free_rects`): every cell knows two rectangles of
  free cells holding it, its row's free run grown up and down as far as
  the run stays free, and its column's run grown left and right. A beam
  from a point strictly inside such a rectangle meets nothing before it
  leaves it (the rectangle is convex and only its border can touch an
  occupied square), so it jumps to half a cell before the exit. In a
  widened maze the rectangles are whole corridor stretches, where sphere
  tracing crawls along a beam running beside a wall.

When neither jump is worth taking, the exact traversal
(:func:`robomaze.sense.raycast.cast_free`) steps a few cells from the
point reached, then the jumps are tried again. The traversal always
starts from a point strictly inside free space, so the hit is the same
square face as a traversal from the sensor and the range differs by float
rounding only (``tests/traffic/test_traffic_cast.py`` checks 1e-9).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..sense.raycast import TINY_DIR, cast_free, origin_blocked

#: sqrt(1/2) (the farthest a point of a cell is from its centre) and a hair more
_HALF_DIAG = 0.7071067811865476 + 1e-9
#: jump only when the safe step is at least this many cells (else step cells)
_MIN_JUMP = 1.5
#: a rectangle jump stops this many cells (along the beam) before the exit
_BACK = 0.5
#: a range this close to range_max (relative) reads range_max, as a traversal's
#: hit exactly at range_max does
_END_TOL = 1e-12
#: cells the exact traversal steps before the jumps are tried again
_BURST = 4.0


@njit(cache=True)
def free_rects(occ, rows, cols):
    """Two rectangles of free cells around every free cell, ``(rows * cols, 8)`` int32.

    Columns ``0-3``: the cell's row run ``[c0, c1)`` grown over rows
    ``[r0, r1)`` while the run stays free (``c0, c1, r0, r1``); columns
    ``4-7``: the column run grown over columns the same way. Occupied
    cells get empty rectangles (``c0 = c1``).

    >>> import numpy as np
    >>> occ = np.zeros((3, 4), np.uint8); occ[0, 3] = 1
    >>> free_rects(occ.ravel(), 3, 4)[4].tolist()   # cell (1, 0)
    [0, 4, 1, 3, 0, 3, 0, 3]
    """
    n = rows * cols
    out = np.zeros((n, 8), np.int32)
    left = np.empty(n, np.int32)
    right = np.empty(n, np.int32)
    up = np.empty(n, np.int32)
    down = np.empty(n, np.int32)
    for r in range(rows):
        c = 0
        while c < cols:
            if occ[r * cols + c] != 0:
                left[r * cols + c] = c
                right[r * cols + c] = c
                c += 1
                continue
            e = c
            while e < cols and occ[r * cols + e] == 0:
                e += 1
            for q in range(c, e):
                left[r * cols + q] = c
                right[r * cols + q] = e
            c = e
    for c in range(cols):
        r = 0
        while r < rows:
            if occ[r * cols + c] != 0:
                up[r * cols + c] = r
                down[r * cols + c] = r
                r += 1
                continue
            e = r
            while e < rows and occ[e * cols + c] == 0:
                e += 1
            for q in range(r, e):
                up[q * cols + c] = r
                down[q * cols + c] = e
            r = e
    for r in range(rows):
        for c in range(cols):
            k = r * cols + c
            if occ[k] != 0:
                continue
            c0 = left[k]
            c1 = right[k]
            r0 = r
            while r0 > 0 and left[(r0 - 1) * cols + c] <= c0 and right[(r0 - 1) * cols + c] >= c1 \
                    and occ[(r0 - 1) * cols + c] == 0:
                r0 -= 1
            r1 = r + 1
            while r1 < rows and left[r1 * cols + c] <= c0 and right[r1 * cols + c] >= c1 \
                    and occ[r1 * cols + c] == 0:
                r1 += 1
            out[k, 0] = c0
            out[k, 1] = c1
            out[k, 2] = r0
            out[k, 3] = r1
            q0 = up[k]
            q1 = down[k]
            a0 = c
            while a0 > 0 and up[r * cols + a0 - 1] <= q0 and down[r * cols + a0 - 1] >= q1 \
                    and occ[r * cols + a0 - 1] == 0:
                a0 -= 1
            a1 = c + 1
            while a1 < cols and up[r * cols + a1] <= q0 and down[r * cols + a1] >= q1 \
                    and occ[r * cols + a1] == 0:
                a1 += 1
            out[k, 4] = a0
            out[k, 5] = a1
            out[k, 6] = q0
            out[k, 7] = q1
    return out


@njit(cache=True, inline="always")
def _exit(a, b, ia, ib, da, db, x0, x1, y0, y1):
    """Beam parameter from ``(a, b)`` to the border of ``[x0, x1] x [y0, y1]`` (0: not inside)."""
    if not (a > x0 and a < x1 and b > y0 and b < y1):
        return 0.0
    tx = (x1 - a) * ia if da > 0.0 else ((x0 - a) * ia if da < 0.0 else math.inf)
    ty = (y1 - b) * ib if db > 0.0 else ((y0 - b) * ib if db < 0.0 else math.inf)
    return tx if tx < ty else ty


@njit(cache=True)
def scan_rows_jump(occ, clear, rects, rows, cols, res, ox, oy, oyaw, poses, mount, cos_b, sin_b,
                   range_max, out):
    """Exact ranges (metres) of a sensor at ``mount`` on robots at ``poses (n, 3)`` into ``out``.

    ``rects``: :func:`free_rects` of ``occ``.
    """
    tmax = range_max / res
    # the range_max reading: jumps add rounding a traversal from the sensor has not
    tend = tmax * (1.0 - _END_TOL)
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
            ia = 1.0 / da if da != 0.0 else 0.0
            ib = 1.0 / db if db != 0.0 else 0.0
            t = 0.0
            while True:
                # jump while a proof of free space reaches far enough
                while True:
                    a = a0 + t * da
                    b = b0 + t * db
                    if not (a > 0.0 and a < cols and b > 0.0 and b < rows):
                        break
                    k = int(b) * cols + int(a)
                    step = clear[k] - _HALF_DIAG
                    e = _exit(a, b, ia, ib, da, db, rects[k, 0], rects[k, 1], rects[k, 2],
                              rects[k, 3]) - _BACK
                    if e > step:
                        step = e
                    e = _exit(a, b, ia, ib, da, db, rects[k, 4], rects[k, 5], rects[k, 6],
                              rects[k, 7]) - _BACK
                    if e > step:
                        step = e
                    if step < _MIN_JUMP:
                        break
                    t += step
                    if t >= tend:
                        break
                if t >= tend:
                    break
                # then step cells exactly, from a point inside free space
                rest = tmax - t
                lim = _BURST if _BURST < rest else rest
                u = cast_free(occ, rows, cols, a0 + t * da, b0 + t * db, da, db, lim)
                if u < lim:
                    t += u
                    break
                t += lim
                if t >= tend:
                    break
                if origin_blocked(occ, rows, cols, a0 + t * da, b0 + t * db):
                    break
            out[i, j] = range_max if t >= tend else t * res
