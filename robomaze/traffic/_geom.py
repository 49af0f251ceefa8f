"""numba kernels: exact distances between bodies, conservative advancement, rays vs shapes.

A *body* (robot or moving obstacle) is a disc (``kind 0``, ``radius``) or a
union of convex counter-clockwise pieces in its own frame (``kind 1``):
piece ``k`` of body ``i`` is vertices ``vstart[k] : vstart[k] + vcount[k]``
of ``vx, vy``, the pieces of body ``i`` are ``pstart[i] : pstart[i] +
pcount[i]``. A pose is ``(x, y, theta)``; a body moves in a step along the
exact curve of a constant body twist ``(vx, vy, omega)``, as
:meth:`robomaze.sim.Kinematics.integrate` moves robots.

Contact follows robomaze's rule (touching is a collision): two bodies are in
contact when their distance is at most :data:`CONTACT`.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

#: Distance (metres) at or below which two bodies touch.
CONTACT = 1e-7
#: Iteration cap of conservative advancement (never reached in practice:
#: each iteration at least halves the gap or moves a gap-sized time).
_MAX_ITER = 10000


@njit(cache=True)
def integrate(x, y, th, vx, vy, w, t):
    """Pose after ``t`` seconds of the constant body twist ``(vx, vy, w)`` (exact arc)."""
    c = math.cos(th)
    s = math.sin(th)
    if abs(w) < 1e-12:
        dx = vx * t
        dy = vy * t
    else:
        sw = math.sin(w * t) / w
        cw1 = (1.0 - math.cos(w * t)) / w
        dx = vx * sw - vy * cw1
        dy = vx * cw1 + vy * sw
    a = th + w * t
    a = (a + math.pi) % (2.0 * math.pi) - math.pi
    return x + c * dx - s * dy, y + s * dx + c * dy, a


@njit(cache=True)
def _seg_dist(px, py, ax, ay, bx, by):
    ex = bx - ax
    ey = by - ay
    ll = ex * ex + ey * ey
    t = 0.0
    if ll > 0.0:
        t = ((px - ax) * ex + (py - ay) * ey) / ll
        if t < 0.0:
            t = 0.0
        elif t > 1.0:
            t = 1.0
    dx = px - (ax + t * ex)
    dy = py - (ay + t * ey)
    return math.sqrt(dx * dx + dy * dy)


@njit(cache=True)
def point_convex(px, py, wx, wy, n):
    """Distance from a point to a convex CCW polygon ``wx[:n], wy[:n]`` (0 inside)."""
    inside = True
    best = math.inf
    for m in range(n):
        a = m
        b = m + 1 if m + 1 < n else 0
        cross = (wx[b] - wx[a]) * (py - wy[a]) - (wy[b] - wy[a]) * (px - wx[a])
        if cross < 0.0:
            inside = False
        d = _seg_dist(px, py, wx[a], wy[a], wx[b], wy[b])
        if d < best:
            best = d
    return 0.0 if inside else best


@njit(cache=True)
def _separated(ax, ay, na, bx, by, nb):
    """Separating-axis test of two convex CCW polygons (True: an edge of ``a`` separates)."""
    for m in range(na):
        p = m + 1 if m + 1 < na else 0
        ex = ax[p] - ax[m]
        ey = ay[p] - ay[m]
        # every vertex of b strictly right of edge m of a: separated (touching is contact)
        ok = True
        for q in range(nb):
            if ex * (by[q] - ay[m]) - ey * (bx[q] - ax[m]) >= 0.0:
                ok = False
                break
        if ok:
            return True
    return False


@njit(cache=True)
def convex_convex(ax, ay, na, bx, by, nb):
    """Distance between two convex CCW polygons (0 when they meet)."""
    if not _separated(ax, ay, na, bx, by, nb) and not _separated(bx, by, nb, ax, ay, na):
        return 0.0
    best = math.inf
    for m in range(na):
        p = m + 1 if m + 1 < na else 0
        for q in range(nb):
            d = _seg_dist(bx[q], by[q], ax[m], ay[m], ax[p], ay[p])
            if d < best:
                best = d
    for q in range(nb):
        p = q + 1 if q + 1 < nb else 0
        for m in range(na):
            d = _seg_dist(ax[m], ay[m], bx[q], by[q], bx[p], by[p])
            if d < best:
                best = d
    return best


@njit(cache=True)
def _place(k, x, y, th, vx, vy, vstart, vcount, outx, outy):
    c = math.cos(th)
    s = math.sin(th)
    s0 = vstart[k]
    for m in range(vcount[k]):
        outx[m] = x + c * vx[s0 + m] - s * vy[s0 + m]
        outy[m] = y + s * vx[s0 + m] + c * vy[s0 + m]
    return vcount[k]


@njit(cache=True)
def body_distance(i, xi, yi, ti, j, xj, yj, tj, kind, radius, pstart, pcount, vstart, vcount,
                  vx, vy, sa, sb, sc, sd):
    """Exact distance between bodies ``i`` and ``j`` at the given poses (0 when they overlap).

    ``sa .. sd`` are scratch arrays at least as long as the largest piece.
    """
    if kind[i] == 0 and kind[j] == 0:
        d = math.sqrt((xi - xj) ** 2 + (yi - yj) ** 2) - radius[i] - radius[j]
        return d if d > 0.0 else 0.0
    if kind[i] == 0 or kind[j] == 0:
        if kind[i] == 0:
            cx, cy, r, b, bx, by, bt = xi, yi, radius[i], j, xj, yj, tj
        else:
            cx, cy, r, b, bx, by, bt = xj, yj, radius[j], i, xi, yi, ti
        best = math.inf
        for k in range(pstart[b], pstart[b] + pcount[b]):
            n = _place(k, bx, by, bt, vx, vy, vstart, vcount, sa, sb)
            d = point_convex(cx, cy, sa, sb, n) - r
            if d < best:
                best = d
        return best if best > 0.0 else 0.0
    best = math.inf
    for k in range(pstart[i], pstart[i] + pcount[i]):
        na = _place(k, xi, yi, ti, vx, vy, vstart, vcount, sa, sb)
        for q in range(pstart[j], pstart[j] + pcount[j]):
            nb = _place(q, xj, yj, tj, vx, vy, vstart, vcount, sc, sd)
            d = convex_convex(sa, sb, na, sc, sd, nb)
            if d < best:
                best = d
    return best


@njit(cache=True)
def time_of_contact(i, j, pose, twist, frac, dt, bound, kind, radius, pstart, pcount, vstart,
                    vcount, vx, vy, sa, sb, sc, sd):
    """First fraction of the step at which bodies ``i`` and ``j`` touch, or 2.0 if they don't.

    Conservative advancement (Mirtich 1996): body ``k`` follows its twist for
    ``frac[k] * dt`` seconds and then stands; no point of it moves faster
    than ``bound[k]``, so after a gap ``d`` no contact can happen for ``d /
    (bound[i] + bound[j])`` seconds. The fraction returned is one where the
    bodies are 0 to :data:`CONTACT` apart (never overlapping). Bodies already
    in contact at the start count as touching at 0 unless they separate
    over the step.
    """
    speed = bound[i] + bound[j]
    t = 0.0
    d0 = -1.0
    for it in range(_MAX_ITER):
        ti = min(t, frac[i]) * dt
        tj = min(t, frac[j]) * dt
        xi, yi, ai = integrate(pose[i, 0], pose[i, 1], pose[i, 2], twist[i, 0], twist[i, 1],
                               twist[i, 2], ti)
        xj, yj, aj = integrate(pose[j, 0], pose[j, 1], pose[j, 2], twist[j, 0], twist[j, 1],
                               twist[j, 2], tj)
        d = body_distance(i, xi, yi, ai, j, xj, yj, aj, kind, radius, pstart, pcount, vstart,
                          vcount, vx, vy, sa, sb, sc, sd)
        if it == 0:
            d0 = d
            if d <= CONTACT:
                # touching already: free to move apart (then watched for a new
                # contact), blocked when the first motion does not part them
                if speed <= 0.0:
                    return 0.0
                t = min(1e-5 / (speed * dt), 1.0)
                xi, yi, ai = integrate(pose[i, 0], pose[i, 1], pose[i, 2], twist[i, 0],
                                       twist[i, 1], twist[i, 2], min(t, frac[i]) * dt)
                xj, yj, aj = integrate(pose[j, 0], pose[j, 1], pose[j, 2], twist[j, 0],
                                       twist[j, 1], twist[j, 2], min(t, frac[j]) * dt)
                d1 = body_distance(i, xi, yi, ai, j, xj, yj, aj, kind, radius, pstart, pcount,
                                   vstart, vcount, vx, vy, sa, sb, sc, sd)
                if d1 <= d0 or d1 <= CONTACT:
                    return 0.0
                continue
        elif d <= CONTACT:
            return t
        if speed <= 0.0:
            return 2.0
        t += (d - 0.5 * CONTACT) / (speed * dt)
        if t >= 1.0:
            return 2.0
    return t


@njit(cache=True)
def ray_disc(sx, sy, dx, dy, cx, cy, r):
    """Distance along the unit ray to a closed disc (0 from inside, inf if missed)."""
    ox = sx - cx
    oy = sy - cy
    c = ox * ox + oy * oy - r * r
    if c <= 0.0:
        return 0.0
    b = ox * dx + oy * dy
    if b >= 0.0:
        return math.inf
    disc = b * b - c
    if disc < 0.0:
        return math.inf
    return -b - math.sqrt(disc)


@njit(cache=True)
def ray_convex(sx, sy, dx, dy, wx, wy, n):
    """Distance along the unit ray to a closed convex CCW polygon (0 inside, inf if missed).

    Cyrus-Beck clipping of the ray against the polygon's edge half-planes.
    """
    t0 = 0.0
    t1 = math.inf
    for m in range(n):
        p = m + 1 if m + 1 < n else 0
        ex = wx[p] - wx[m]
        ey = wy[p] - wy[m]
        # inside: cross(e, s + t d - w_m) >= 0
        num = ex * (sy - wy[m]) - ey * (sx - wx[m])
        den = ex * dy - ey * dx
        if den == 0.0:
            if num < 0.0:
                return math.inf
            continue
        t = -num / den
        if den > 0.0:
            if t > t0:
                t0 = t
        else:
            if t < t1:
                t1 = t
        if t0 > t1:
            return math.inf
    return t0


@njit(cache=True)
def ray_body(b, sx, sy, dx, dy, x, y, th, kind, radius, pstart, pcount, vstart, vcount, vx,
             vy, sa, sb):
    """Distance along the unit ray from ``(sx, sy)`` to body ``b`` at pose ``(x, y, th)``."""
    if kind[b] == 0:
        return ray_disc(sx, sy, dx, dy, x, y, radius[b])
    best = math.inf
    for k in range(pstart[b], pstart[b] + pcount[b]):
        n = _place(k, x, y, th, vx, vy, vstart, vcount, sa, sb)
        d = ray_convex(sx, sy, dx, dy, sa, sb, n)
        if d < best:
            best = d
    return best


@njit(cache=True)
def box_body(b, x, y, th, x0, y0, x1, y1, kind, radius, pstart, pcount, vstart, vcount, vx, vy,
             sa, sb, sc, sd):
    """Distance between body ``b`` at ``(x, y, th)`` and the axis-aligned box ``[x0,x1]x[y0,y1]``."""
    sc[0] = x0
    sd[0] = y0
    sc[1] = x1
    sd[1] = y0
    sc[2] = x1
    sd[2] = y1
    sc[3] = x0
    sd[3] = y1
    if kind[b] == 0:
        d = point_convex(x, y, sc, sd, 4) - radius[b]
        return d if d > 0.0 else 0.0
    best = math.inf
    for k in range(pstart[b], pstart[b] + pcount[b]):
        n = _place(k, x, y, th, vx, vy, vstart, vcount, sa, sb)
        d = convex_convex(sa, sb, n, sc, sd, 4)
        if d < best:
            best = d
    return best


def scratch(size: int) -> tuple[np.ndarray, ...]:
    """Four scratch arrays for the kernels above (``size`` >= the largest piece, >= 4)."""
    n = max(int(size), 4)
    return np.empty(n), np.empty(n), np.empty(n), np.empty(n)
