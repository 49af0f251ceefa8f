"""Numba kernels of geometry's motion validity: exact footprint collision tests.

Coordinates are cell units ``(a, b)`` (``a`` east along the columns, ``b``
south along the rows; cell ``(r, c)`` is the closed square ``[c, c+1] x
[r, r+1]``), everything outside ``[0, cols] x [0, rows]`` is occupied, and
*touching counts as a collision* (closed sets), as everywhere in robomaze.

One kernel, :func:`motion_hits`, serves Python (a single pose is the
motion from it to itself) and the batched simulator; :func:`disc_motion_hits`
is its disc-only twin, which a disc's collider calls: it compiles without
the convex-piece tests (``_pieces_hit``, ``_convex_square``: ~0.9 s of a
first run's compile). Helpers follow the kernel style of
:mod:`robomaze._compile.kernels`.
"""

from __future__ import annotations

import math

from numba import njit

from .._compile.kernels import NOALLOC, inner, noalloc


@njit(cache=True, inline="always")
def _to_cells(res, rows, ox, oy, cyaw, syaw, x, y):
    dx = x - ox
    dy = y - oy
    return (cyaw * dx + syaw * dy) / res, rows - (-syaw * dx + cyaw * dy) / res


@inner(**NOALLOC)   # allocates nothing: no reference counting compiled
def _disc_hits(occ, rows, cols, a, b, r):
    """Whether the closed disc of radius ``r`` at ``(a, b)`` meets an occupied square."""
    if a - r <= 0.0 or b - r <= 0.0 or a + r >= cols or b + r >= rows:
        return True
    # Squares whose closed extent reaches the disc's bounding box (touching counts).
    c0 = math.ceil(a - r) - 1
    c0 = c0 if c0 > 0 else 0
    c1 = math.floor(a + r)
    c1 = c1 if c1 < cols - 1 else cols - 1
    r0 = math.ceil(b - r) - 1
    r0 = r0 if r0 > 0 else 0
    r1 = math.floor(b + r)
    r1 = r1 if r1 < rows - 1 else rows - 1
    rr = r * r
    for i in range(r0, r1 + 1):
        dy = 0.0
        if b < i:
            dy = i - b
        elif b > i + 1:
            dy = b - i - 1
        base = i * cols
        for j in range(c0, c1 + 1):
            if occ[base + j] == 0:
                continue
            dx = 0.0
            if a < j:
                dx = j - a
            elif a > j + 1:
                dx = a - j - 1
            if dx * dx + dy * dy <= rr:
                return True
    return False


@inner
def _convex_square(pa, pb, n, c, r):
    """SAT: closed convex polygon (n vertices) vs closed square of cell (r, c)."""
    for k in range(n):
        k2 = k + 1 if k + 1 < n else 0
        nx = -(pb[k2] - pb[k])
        ny = pa[k2] - pa[k]
        pmin = math.inf
        pmax = -math.inf
        for m in range(n):
            p = nx * pa[m] + ny * pb[m]
            if p < pmin:
                pmin = p
            if p > pmax:
                pmax = p
        s1 = nx * c + ny * r
        s2 = nx * (c + 1) + ny * r
        s3 = nx * c + ny * (r + 1)
        s4 = nx * (c + 1) + ny * (r + 1)
        smin = s1 if s1 < s2 else s2
        t = s3 if s3 < s4 else s4
        smin = smin if smin < t else t
        smax = s1 if s1 > s2 else s2
        t = s3 if s3 > s4 else s4
        smax = smax if smax > t else t
        if pmax < smin or smax < pmin:
            return False
    return True


@inner
def _pieces_hit(occ, rows, cols, res, ox, oy, cyaw, syaw, x, y, th, px, py, starts, counts,
                pa, pb):
    """Whether a footprint made of convex pieces, placed at world ``(x, y, th)``, collides.

    ``px, py`` hold every piece's vertices in the robot frame (metres),
    piece ``k`` being ``starts[k] : starts[k] + counts[k]``; ``pa, pb`` are
    scratch arrays at least as long as the largest piece.
    """
    ct = math.cos(th)
    st = math.sin(th)
    for k in range(starts.shape[0]):
        n = counts[k]
        s = starts[k]
        amin = math.inf
        amax = -math.inf
        bmin = math.inf
        bmax = -math.inf
        for m in range(n):
            wx = x + ct * px[s + m] - st * py[s + m]
            wy = y + st * px[s + m] + ct * py[s + m]
            a, b = _to_cells(res, rows, ox, oy, cyaw, syaw, wx, wy)
            pa[m] = a
            pb[m] = b
            if a < amin:
                amin = a
            if a > amax:
                amax = a
            if b < bmin:
                bmin = b
            if b > bmax:
                bmax = b
        if amin <= 0.0 or bmin <= 0.0 or amax >= cols or bmax >= rows:
            return True
        # Squares whose closed extent meets the piece's bounding box.
        c0 = math.ceil(amin) - 1
        c0 = c0 if c0 > 0 else 0
        c1 = math.floor(amax)
        c1 = c1 if c1 < cols - 1 else cols - 1
        r0 = math.ceil(bmin) - 1
        r0 = r0 if r0 > 0 else 0
        r1 = math.floor(bmax)
        r1 = r1 if r1 < rows - 1 else rows - 1
        for i in range(r0, r1 + 1):
            base = i * cols
            for j in range(c0, c1 + 1):
                if occ[base + j] != 0 and _convex_square(pa, pb, n, j, i):
                    return True
    return False


@njit(cache=True, inline="always")
def _pose_hits(occ, clear, rows, cols, res, ox, oy, cyaw, syaw, x, y, th, r_in, r_out, disc,
               px, py, starts, counts, pa, pb):
    """Collision test of one pose with the clearance-field fast accept/reject.

    ``disc > 0`` selects the exact disc test (radius in cells), otherwise the
    convex pieces ``px, py, starts, counts`` are tested. Returns 0 (free),
    1 (collision) and adds 2 when the exact test was needed.
    """
    a, b = _to_cells(res, rows, ox, oy, cyaw, syaw, x, y)
    if not (0.0 < a < cols and 0.0 < b < rows):
        return 1
    # a, b > 0: floor is int()'s truncation
    c = clear[math.floor(b) * cols + math.floor(a)]
    if c - 0.7071067811865476 > r_out:
        return 0
    if c + 0.7071067811865476 <= r_in:
        return 1
    if disc > 0.0:
        hit = _disc_hits(occ, rows, cols, a, b, disc)
    else:
        hit = _pieces_hit(occ, rows, cols, res, ox, oy, cyaw, syaw, x, y, th, px, py, starts,
                          counts, pa, pb)
    return 3 if hit else 2


@njit(cache=True)
def motion_hits(occ, clear, rows, cols, res, ox, oy, cyaw, syaw, x0, y0, t0, x1, y1, t1,
                r_in, r_out, disc, px, py, starts, counts, pa, pb, step_len):
    """Collision test of the sub-poses of ``p0 -> p1`` (<= ``step_len`` apart, ``p1`` last).

    Returns the code of the first colliding sub-pose, or of ``p1`` when none
    collides: bit 1 set for a collision, bit 2 when the exact test was
    needed (the clearance field did not settle it). With ``p0 == p1`` it is
    the test of that one pose: the only sub-pose is ``p0 + 1.0 * 0.0``,
    bit for bit ``p0``.
    """
    dth = (t1 - t0 + math.pi) % (2.0 * math.pi) - math.pi
    reach = math.hypot(x1 - x0, y1 - y0) + abs(dth) * r_out * res
    n = 1
    if reach > 0.0:
        n = math.ceil(reach / step_len)
    h = 0
    for i in range(1, n + 1):
        f = i / n
        h = _pose_hits(occ, clear, rows, cols, res, ox, oy, cyaw, syaw, x0 + f * (x1 - x0),
                       y0 + f * (y1 - y0), t0 + f * dth, r_in, r_out, disc, px, py, starts,
                       counts, pa, pb)
        if h & 1:
            return h
    return h


@noalloc(error_model="numpy")
def disc_motion_hits(occ, clear, rows, cols, res, ox, oy, cyaw, syaw, x0, y0, t0, x1, y1, t1,
                     r_in, r_out, disc, step_len):
    """:func:`motion_hits` of a disc footprint (``disc > 0``, its radius in cells).

    The same sub-poses and the same codes; the disc's heading never matters,
    but it counts towards the sub-pose spacing exactly as there. Its
    divisors are positive (the resolution, ``step_len``, ``n >= 1``), so
    numba's ``error_model="numpy"`` changes nothing but the ZeroDivisionError
    tests it would compile and never run. The pose
    test (:func:`_pose_hits`' disc branch) is written in the loop: numba's
    inlining of it cost more compile CPU than its body.
    """
    dth = (t1 - t0 + math.pi) % (2.0 * math.pi) - math.pi
    reach = math.hypot(x1 - x0, y1 - y0) + abs(dth) * r_out * res
    n = 1
    if reach > 0.0:
        n = math.ceil(reach / step_len)
    h = 0
    for i in range(1, n + 1):
        f = i / n
        # the disc branch of _pose_hits, written out (numba's inlining costs more compile)
        x = x0 + f * (x1 - x0)
        y = y0 + f * (y1 - y0)
        dx = x - ox
        dy = y - oy
        a = (cyaw * dx + syaw * dy) / res                 # _to_cells
        b = rows - (-syaw * dx + cyaw * dy) / res
        if not (0.0 < a < cols and 0.0 < b < rows):
            return 1
        c = clear[math.floor(b) * cols + math.floor(a)]
        if c - 0.7071067811865476 > r_out:
            h = 0
        elif c + 0.7071067811865476 <= r_in:
            return 1
        elif _disc_hits(occ, rows, cols, a, b, disc):
            return 3
        else:
            h = 2
    return h
