"""Numba kernels behind :mod:`robomaze.geometry.clearance`.

Coordinates are continuous *cell units*: ``u`` grows east with column ``c``
spanning ``[c, c + 1]``, ``v`` grows south with row ``r`` spanning
``[r, r + 1]``. Cells outside the grid count as occupied.

Helpers follow the kernel style of :mod:`robomaze._compile.kernels`.
"""

from __future__ import annotations

import math

import numpy as np

from .._compile.kernels import NOALLOC, inner, noalloc


# ``_max(a, b)`` is written out as ``b if b > a else a`` and ``_min(a, b)`` as
# ``b if b < a else a`` (``b`` only if greater / smaller, as numba's ``max``
# and ``min`` compute them): an ``inline="always"`` helper is typed and
# copied again at each of its ~25 call sites, which cost more compile CPU
# than the select it stands for (benchmarks/README.md, round 11 r11-geom).


# ``_nrt=False`` on every kernel here: none allocates (callers allocate,
# kernel style rule 3), so numba need not lower reference counting for the
# arrays they touch, nor run its pruning of it (a lighter compile, run time
# unchanged within the noise: benchmarks/README.md, round 12 r12-geom).
# Such a kernel cannot make an array: one that must is not one of these.


# ``error_model="numpy"`` where every division's divisor is nonzero by
# construction (``_seg_box``: ``p != 0`` and ``ll > 0`` are tested first;
# ``_inside``: the edge crosses the ray, so its ends' ``v`` differ;
# ``poses_touch``: the grid's resolution is positive): numba's default
# Python model raises ZeroDivisionError, whose test and raise at each
# division these kernels would compile and never run (~0.15 s of the
# clearance kernels' compile CPU, benchmarks/README.md, round 11 r11-geom).

@inner(**NOALLOC, error_model="numpy")   # see the notes on error_model and _nrt
def _seg_box(ax, ay, bx, by, u0, v0, u1, v1):
    """Exact distance between a segment and a closed axis-aligned box.

    One kernel, not four: the segment-box test, the two end-box and the
    four corner-segment distances are written out here (each helper a
    compile of its own).
    """
    dx, dy = bx - ax, by - ay
    # Liang-Barsky on the closed box: touching counts
    hit = True
    t0, t1 = 0.0, 1.0
    for k in range(4):
        if k == 0:
            p, q = -dx, ax - u0
        elif k == 1:
            p, q = dx, u1 - ax
        elif k == 2:
            p, q = -dy, ay - v0
        else:
            p, q = dy, v1 - ay
        if p == 0.0:
            if q < 0.0:
                hit = False
                break
        else:
            t = q / p
            if p < 0.0:
                if t > t1:
                    hit = False
                    break
                if t > t0:
                    t0 = t
            else:
                if t < t0:
                    hit = False
                    break
                if t < t1:
                    t1 = t
    if hit and t0 <= t1:
        return 0.0
    # disjoint convex sets: the minimum is attained at a vertex of one of them:
    # the segment's ends to the box (k < 2), the box's corners to the segment
    ll = dx * dx + dy * dy
    d = np.inf
    for k in range(6):
        if k < 2:
            # the point-box distance (_max written out: see the note on _max)
            px = ax if k == 0 else bx
            py = ay if k == 0 else by
            a = u0 - px
            a = 0.0 if 0.0 > a else a
            b = px - u1
            qx = b if b > a else a
            a = v0 - py
            a = 0.0 if 0.0 > a else a
            b = py - v1
            qy = b if b > a else a
        else:
            # the corners (u0, v0), (u1, v0), (u0, v1), (u1, v1) to the segment
            px = u1 if k & 1 else u0
            py = v1 if k & 2 else v0
            t = 0.0
            if ll > 0.0:
                t = ((px - ax) * dx + (py - ay) * dy) / ll
                t = t if t > 0.0 else 0.0       # _min(1.0, _max(0.0, t)), written out
                t = t if t < 1.0 else 1.0
            qx, qy = ax + t * dx - px, ay + t * dy - py
        e = math.sqrt(qx * qx + qy * qy)
        d = e if e < d else d
    return d


@inner(**NOALLOC, error_model="numpy")   # see the notes on error_model and _nrt
def _inside(px, py, us, vs):
    m = us.shape[0]
    inside = False
    j = m - 1
    for i in range(m):
        if (vs[i] > py) != (vs[j] > py):
            x = us[i] + (py - vs[i]) * (us[j] - us[i]) / (vs[j] - vs[i])
            if px < x:
                inside = not inside
        j = i
    return inside


@inner(**NOALLOC)
def _shape_box(us, vs, closed, u0, v0, u1, v1):
    m = us.shape[0]
    if m == 1:
        # a point: the degenerate segment's distance, bit for bit the point's
        # (inside: 0; outside: its ends' point-box distance, no corner nearer)
        return _seg_box(us[0], vs[0], us[0], vs[0], u0, v0, u1, v1)
    best = np.inf
    n_edges = m if closed else m - 1
    for i in range(n_edges):
        j = i + 1 if i + 1 < m else 0      # (i + 1) % m without the sign fix-up
        d = _seg_box(us[i], vs[i], us[j], vs[j], u0, v0, u1, v1)
        if d < best:
            best = d
            if best == 0.0:
                return 0.0
    if closed and _inside(u0, v0, us, vs):
        return 0.0
    return best


@noalloc
def shapes_clearance(occ, us, vs, closed, radius, out):
    """Distance (cells) from each shape ``(us[i], vs[i])`` to the nearest occupied square.

    A shape is a closed polygon (``closed``), an open polyline or a single
    point, inflated by ``radius``; the result is clipped at 0 (touching or
    overlapping). The search window grows until the best distance found is
    no larger than the margin searched, which makes the answer exact. (The
    search is written in the loop, not in an ``inline="always"`` helper:
    numba's inlining of a body this size costs more compile CPU than the
    rest of the kernel.) Writes ``out`` (float64, one per shape: the
    caller's, kernel style rule 3).
    """
    rows, cols = occ.shape
    n = us.shape[0]
    w0 = math.ceil(radius) + 1.0
    w0 = w0 if w0 > 1.0 else 1.0       # _max(1.0, w0), written out
    for i in range(n):
        ui = us[i]
        vi = vs[i]
        # (min, max) of ui and vi in one loop (a helper kernel costs a compile of its own)
        umin = umax = ui[0]
        vmin = vmax = vi[0]
        for j in range(1, ui.shape[0]):
            x = ui[j]
            if x < umin:
                umin = x
            elif x > umax:
                umax = x
            x = vi[j]
            if x < vmin:
                vmin = x
            elif x > vmax:
                vmax = x
        w = w0
        while True:
            c0 = math.floor(umin - w) - 1
            c1 = math.floor(umax + w) + 1
            r0 = math.floor(vmin - w) - 1
            r1 = math.floor(vmax + w) + 1
            best = np.inf
            for r in range(r0, r1 + 1):
                dy = r - vmax
                t = vmin - (r + 1.0)
                dy = t if t > dy else dy
                dy = 0.0 if 0.0 > dy else dy
                if dy >= best:
                    continue
                inside_r = 0 <= r < rows
                for c in range(c0, c1 + 1):
                    if inside_r and 0 <= c < cols and not occ[r, c]:
                        continue
                    dx = c - umax
                    t = umin - (c + 1.0)
                    dx = t if t > dx else dx
                    dx = 0.0 if 0.0 > dx else dx
                    if dx * dx + dy * dy >= best * best:
                        continue
                    d = _shape_box(ui, vi, closed, float(c), float(r), c + 1.0, r + 1.0)
                    if d < best:
                        best = d
                if best == 0.0:
                    break
            covers = r0 < 0 and c0 < 0 and r1 >= rows and c1 >= cols
            if best <= w or covers:
                best -= radius
                out[i] = 0.0 if 0.0 > best else best
                break
            w *= 2.0


@noalloc
def points_clearance(occ, uu, vv, radius, out):
    """:func:`shapes_clearance` of single points ``(uu[i], vv[i])`` (discs of ``radius``), into ``out``.

    Bit for bit the same figures: the same search and the same arithmetic
    (``umin == umax == u``, a point's distance to a square is
    the square's gaps ``dx, dy``), without the segment and polygon tests. The kernel
    a disc or point footprint's clearance needs compiles ~1 s less than
    :func:`shapes_clearance`, whose segment and polygon tests (``_seg_box``,
    ``_inside`` ...) it never reaches (``simulate``'s run metrics, a disc
    path's figures). ``out`` (float64, as long as ``uu``) is the caller's
    (kernel style, rule 3). The search is written here, not in an
    ``inline="always"`` helper: numba's inlining of a body this size costs
    more compile CPU than the rest of the kernel.
    """
    rows, cols = occ.shape
    w0 = math.ceil(radius) + 1.0
    w0 = w0 if w0 > 1.0 else 1.0       # _max(1.0, w0), written out
    for i in range(uu.shape[0]):
        u = uu[i]
        v = vv[i]
        w = w0
        while True:
            c0 = math.floor(u - w) - 1
            c1 = math.floor(u + w) + 1
            r0 = math.floor(v - w) - 1
            r1 = math.floor(v + w) + 1
            best = np.inf
            for r in range(r0, r1 + 1):
                dy = r - v
                t = v - (r + 1.0)
                dy = t if t > dy else dy
                dy = 0.0 if 0.0 > dy else dy
                if dy >= best:
                    continue
                inside_r = 0 <= r < rows
                for c in range(c0, c1 + 1):
                    if inside_r and 0 <= c < cols and not occ[r, c]:
                        continue
                    dx = c - u
                    t = u - (c + 1.0)
                    dx = t if t > dx else dx
                    dx = 0.0 if 0.0 > dx else dx
                    if dx * dx + dy * dy >= best * best:
                        continue
                    # the point's distance to the square: dx, dy are its gaps
                    # (as _seg_box's point-box terms: the same three values' maximum)
                    d = math.sqrt(dx * dx + dy * dy)
                    if d < best:
                        best = d
                if best == 0.0:
                    break
            covers = r0 < 0 and c0 < 0 and r1 >= rows and c1 >= cols
            if best <= w or covers:
                best -= radius
                out[i] = 0.0 if 0.0 > best else best
                break
            w *= 2.0


#: a typed constant, not a literal (kernel style, rule 4)
_CLOSED = np.bool_(True)


@noalloc(error_model="numpy")   # see the notes on error_model, _nrt
def poses_touch(occ, vx, vy, poses, res, ox, oy, yaw, tol, u, v):
    """First world pose at which the polygon ``(vx, vy)`` (robot frame, metres) comes within ``tol`` metres of an occupied square, or -1.

    The yes/no question ``shapes_clearance(...) * res <= tol`` without the
    distance: only the squares meeting the placed polygon's bounding box
    grown by (twice) ``tol`` can be that close, and the scan stops at the
    first one that is.

    Each pose is placed here, vertex by vertex, as
    :meth:`robomaze.grid.Frame.to_units` would map it (no ``(n, m)``
    temporaries for long interpolated motions), into ``u, v`` (float64, as
    long as ``vx``: the caller's scratch, kernel style rule 3).
    """
    m = vx.shape[0]
    rows, cols = occ.shape
    grow = 2.0 * tol / res
    cy, sy = math.cos(yaw), math.sin(yaw)
    for i in range(poses.shape[0]):
        cs, sn = math.cos(poses[i, 2]), math.sin(poses[i, 2])
        for j in range(m):
            dx = poses[i, 0] + cs * vx[j] - sn * vy[j] - ox
            dy = poses[i, 1] + sn * vx[j] + cs * vy[j] - oy
            if yaw != 0.0:
                dx, dy = cy * dx + sy * dy, -sy * dx + cy * dy
            u[j] = dx / res
            v[j] = rows - dy / res
        # (min, max) of u and v in one loop (a helper kernel costs a compile of its own)
        umin = umax = u[0]
        vmin = vmax = v[0]
        for j in range(1, m):
            x = u[j]
            if x < umin:
                umin = x
            elif x > umax:
                umax = x
            x = v[j]
            if x < vmin:
                vmin = x
            elif x > vmax:
                vmax = x
        # does the closed polygon (u, v) come within tol metres of an occupied square?
        umin, umax = umin - grow, umax + grow
        vmin, vmax = vmin - grow, vmax + grow
        # squares [c, c+1] x [r, r+1] meeting the grown box (closed)
        c0 = math.ceil(umin) - 1
        c1 = math.floor(umax)
        r0 = math.ceil(vmin) - 1
        r1 = math.floor(vmax)
        for r in range(r0, r1 + 1):
            inside_r = 0 <= r < rows
            for c in range(c0, c1 + 1):
                if inside_r and 0 <= c < cols and not occ[r, c]:
                    continue
                if _shape_box(u, v, _CLOSED, float(c), float(r), c + 1.0, r + 1.0) * res <= tol:
                    return i
    return -1


@noalloc
def cell_clearance(occ, rr, cc, out):
    """Distance (cells) from the centres of cells ``(rr[i], cc[i])`` to the nearest occupied
    square, into ``out`` (float64, the caller's: kernel style, rule 3).

    Searches Chebyshev rings outwards; a square on ring ``k + 1`` is at least
    ``k + 1/2`` away, so the search stops once the best distance is within
    that. Much cheaper than the general shape search for cell-centre poses.
    """
    rows, cols = occ.shape
    n = rr.shape[0]
    for i in range(n):
        r, c = rr[i], cc[i]
        if r < 0 or r >= rows or c < 0 or c >= cols or occ[r, c]:
            out[i] = 0.0
            continue
        # an occupied side neighbour (or the outside) is at exactly 1/2, the
        # least any square can be: most cells of a narrow corridor's path
        if (r == 0 or r == rows - 1 or c == 0 or c == cols - 1 or occ[r - 1, c]
                or occ[r + 1, c] or occ[r, c - 1] or occ[r, c + 1]):
            out[i] = 0.5
            continue
        best2 = np.inf
        k = 1
        while True:
            for dr in range(-k, k + 1):
                r2 = r + dr
                inside_r = 0 <= r2 < rows
                ar = abs(dr) - 0.5
                ar = ar if ar > 0.0 else 0.0    # a select, not max's overload
                step = 1 if abs(dr) == k else 2 * k
                dc = -k
                while dc <= k:
                    c2 = c + dc
                    if not (inside_r and 0 <= c2 < cols) or occ[r2, c2]:
                        ac = abs(dc) - 0.5
                        ac = ac if ac > 0.0 else 0.0
                        d2 = ar * ar + ac * ac
                        if d2 < best2:
                            best2 = d2
                    dc += step
            lim = k + 0.5
            if best2 <= lim * lim:
                break
            k += 1
        out[i] = math.sqrt(best2)


# ---------------------------------------------------------------- bit-row dilation
# An inner kernel, not ``inline="always"``: numba's inlining types and copies
# the helper at each call site, which cost ~0.14 s more compile CPU than a
# helper library of its own (benchmarks/README.md, round 12 r12-geom); LLVM
# inlines the call when it optimises dilate_bits with it linked in, so
# dilate_bits calls it from one site (round 13: two sites were 1,759 lines of
# optimised IR, one 1,105; 0.84 -> 0.63 s of compile).
@inner(**NOALLOC)
def _shifted(rows, y, w, s):
    """Word ``w`` of bit row ``y`` of ``rows`` shifted towards bit 0 by ``s`` bits."""
    q = s >> 6
    r = np.uint64(s & 63)
    lo = rows[y, w + q]
    if r == 0:
        return lo
    return (lo >> r) | (rows[y, w + q + 1] << (np.uint64(64) - r))


@noalloc
def dilate_bits(bits, m, rows, cols, runs, out, win):
    """Cells where a kernel of row runs meets the occupied (padded) cells.

    ``runs`` rows ``(drow, dcol0, dcol1)``, offsets within ``m`` of the
    reference cell, best sorted by their length ``dcol1 - dcol0 + 1`` (a
    window is built again whenever the length changes). Writes
    ``out``, zero-filled ``(rows, ceil(cols / 64))`` words: bit ``c`` of row
    ``r`` set when some padded cell ``(r + m + drow, c + m + dcol)``,
    ``dcol0 <= dcol <= dcol1`` of a run, is occupied. Each run is one
    window-OR of its length along the padded rows (by doubling), read at one
    shift: 64 cells per word operation. ``win`` is scratch of ``bits``' rows
    and ``m // 64 + 2`` more words per row, those extra words zero (the
    doubling reads zeros past a row's end there).

    The caller allocates (kernel style, rule 3).
    """
    R, wd = bits.shape
    wo = out.shape[1]
    length = 0
    p = 0
    for j in range(runs.shape[0]):
        n = runs[j, 2] - runs[j, 1] + 1
        if n != length:                     # the next distinct run length, ascending
            length = n
            # win[y, bit x] = OR of bits x .. x + n - 1 of row y
            for y in range(R):
                for w in range(wd):
                    win[y, w] = bits[y, w]
            p = 1
        # the window's doubling passes (while p < n: in place, ascending: word
        # w reads words >= w, none of them written yet), then the run's read
        # into out: one OR loop, one call of _shifted (each call site is
        # inlined and optimised again by LLVM)
        while True:
            if p < n:
                s = p if p < n - p else n - p   # OR-ing a copy shifted by s grows the window by s
                dst = win
                ny = R
                nw = wd
                dy = 0
            else:
                s = m + runs[j, 1]
                dst = out
                ny = rows
                nw = wo
                dy = m + runs[j, 0]
            for y in range(ny):
                for w in range(nw):
                    dst[y, w] |= _shifted(win, y + dy, w, s)
            if p >= n:
                break
            p += s
    return out
