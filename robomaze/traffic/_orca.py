"""ORCA (van den Berg, Guy, Lin & Manocha 2011) as numba kernels, a port of RVO2's ``Agent.cc``.

The port follows RVO2 2.0 (the library ``pyrvo`` binds) line by line --
the obstacle half-planes with their convexity and "foreign leg" rules, the
agent half-planes, ``linearProgram1/2/3`` -- in float64 instead of float32,
with two differences of shape, not of result:

* neighbours are found by brute force, sorted by squared distance with the
  same insertion rule as RVO2's kd-tree queries (the ``max_neighbors``
  nearest agents within ``neighbor_dist``; obstacle edges facing the agent
  within ``time_horizon_obst * max_speed + radius``), so only exact ties
  may order differently;
* a neighbour may be *non-reactive* (``reactive[j]`` False: a moving
  obstacle that will not avoid back): its half-plane takes the whole
  velocity change (``u``) instead of half, the "responsibility 1" case of
  the paper's section 5.2.

``tests/traffic/test_orca_pyrvo.py`` checks every step's velocities against
pyrvo on seeded scenes.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

RVO_EPSILON = 0.00001


@njit(cache=True)
def _det(ax, ay, bx, by):
    return ax * by - ay * bx


@njit(cache=True)
def _lp1(lpx, lpy, ldx, ldy, line_no, radius, optx, opty, direction_opt, res):
    dot = lpx[line_no] * ldx[line_no] + lpy[line_no] * ldy[line_no]
    disc = dot * dot + radius * radius - (lpx[line_no] ** 2 + lpy[line_no] ** 2)
    if disc < 0.0:
        return False
    sq = math.sqrt(disc)
    t_left = -dot - sq
    t_right = -dot + sq
    for i in range(line_no):
        denom = _det(ldx[line_no], ldy[line_no], ldx[i], ldy[i])
        numer = _det(ldx[i], ldy[i], lpx[line_no] - lpx[i], lpy[line_no] - lpy[i])
        if abs(denom) <= RVO_EPSILON:
            if numer < 0.0:
                return False
            continue
        t = numer / denom
        if denom >= 0.0:
            t_right = min(t_right, t)
        else:
            t_left = max(t_left, t)
        if t_left > t_right:
            return False
    if direction_opt:
        if optx * ldx[line_no] + opty * ldy[line_no] > 0.0:
            t = t_right
        else:
            t = t_left
    else:
        t = ldx[line_no] * (optx - lpx[line_no]) + ldy[line_no] * (opty - lpy[line_no])
        if t < t_left:
            t = t_left
        elif t > t_right:
            t = t_right
    res[0] = lpx[line_no] + t * ldx[line_no]
    res[1] = lpy[line_no] + t * ldy[line_no]
    return True


@njit(cache=True)
def _lp2(lpx, lpy, ldx, ldy, n_lines, radius, optx, opty, direction_opt, res):
    if direction_opt:
        res[0] = optx * radius
        res[1] = opty * radius
    elif optx * optx + opty * opty > radius * radius:
        norm = math.sqrt(optx * optx + opty * opty)
        res[0] = optx / norm * radius
        res[1] = opty / norm * radius
    else:
        res[0] = optx
        res[1] = opty
    for i in range(n_lines):
        if _det(ldx[i], ldy[i], lpx[i] - res[0], lpy[i] - res[1]) > 0.0:
            tx = res[0]
            ty = res[1]
            if not _lp1(lpx, lpy, ldx, ldy, i, radius, optx, opty, direction_opt, res):
                res[0] = tx
                res[1] = ty
                return i
    return n_lines


@njit(cache=True)
def _lp3(lpx, lpy, ldx, ldy, n_lines, n_obst, begin, radius, res, ppx, ppy, pdx, pdy):
    distance = 0.0
    for i in range(begin, n_lines):
        if _det(ldx[i], ldy[i], lpx[i] - res[0], lpy[i] - res[1]) > distance:
            n_proj = 0
            for j in range(n_obst):
                ppx[n_proj] = lpx[j]
                ppy[n_proj] = lpy[j]
                pdx[n_proj] = ldx[j]
                pdy[n_proj] = ldy[j]
                n_proj += 1
            for j in range(n_obst, i):
                determinant = _det(ldx[i], ldy[i], ldx[j], ldy[j])
                if abs(determinant) <= RVO_EPSILON:
                    if ldx[i] * ldx[j] + ldy[i] * ldy[j] > 0.0:
                        continue
                    px = 0.5 * (lpx[i] + lpx[j])
                    py = 0.5 * (lpy[i] + lpy[j])
                else:
                    f = _det(ldx[j], ldy[j], lpx[i] - lpx[j], lpy[i] - lpy[j]) / determinant
                    px = lpx[i] + f * ldx[i]
                    py = lpy[i] + f * ldy[i]
                dx = ldx[j] - ldx[i]
                dy = ldy[j] - ldy[i]
                norm = math.sqrt(dx * dx + dy * dy)
                ppx[n_proj] = px
                ppy[n_proj] = py
                pdx[n_proj] = dx / norm
                pdy[n_proj] = dy / norm
                n_proj += 1
            tx = res[0]
            ty = res[1]
            if _lp2(ppx, ppy, pdx, pdy, n_proj, radius, -ldy[i], ldx[i], True, res) < n_proj:
                res[0] = tx
                res[1] = ty
            distance = _det(ldx[i], ldy[i], lpx[i] - res[0], lpy[i] - res[1])


@njit(cache=True)
def _obstacle_lines(k, px, py, vx, vy, radius, max_speed, th_obst, ox, oy, onext, oprev,
                    odx, ody, oconv, nb_idx, nb_d, lpx, lpy, ldx, ldy):
    """Append agent ``k``'s obstacle half-planes; returns how many lines there are."""
    n_edges = ox.shape[0]
    rng = th_obst * max_speed + radius
    range_sq = rng * rng
    n_nb = 0
    for e in range(n_edges):
        e2 = onext[e]
        # queryObstacleTreeRecursive: the agent right of the edge's line, the line in range
        ax = ox[e2] - ox[e]
        ay = oy[e2] - oy[e]
        left = ax * (py - oy[e]) - ay * (px - ox[e])
        if not (left * left / (ax * ax + ay * ay) < range_sq and left < 0.0):
            continue
        r = ((px - ox[e]) * ax + (py - oy[e]) * ay) / (ax * ax + ay * ay)
        if r < 0.0:
            d = (px - ox[e]) ** 2 + (py - oy[e]) ** 2
        elif r > 1.0:
            d = (px - ox[e2]) ** 2 + (py - oy[e2]) ** 2
        else:
            d = (px - (ox[e] + r * ax)) ** 2 + (py - (oy[e] + r * ay)) ** 2
        if d < range_sq:
            i = n_nb
            n_nb += 1
            while i != 0 and d < nb_d[i - 1]:
                nb_d[i] = nb_d[i - 1]
                nb_idx[i] = nb_idx[i - 1]
                i -= 1
            nb_d[i] = d
            nb_idx[i] = e
    inv = 1.0 / th_obst
    n_lines = 0
    for q in range(n_nb):
        o1 = nb_idx[q]
        o2 = onext[o1]
        r1x = ox[o1] - px
        r1y = oy[o1] - py
        r2x = ox[o2] - px
        r2y = oy[o2] - py
        covered = False
        for j in range(n_lines):
            if (_det(inv * r1x - lpx[j], inv * r1y - lpy[j], ldx[j], ldy[j]) - inv * radius
                    >= -RVO_EPSILON
                    and _det(inv * r2x - lpx[j], inv * r2y - lpy[j], ldx[j], ldy[j])
                    - inv * radius >= -RVO_EPSILON):
                covered = True
                break
        if covered:
            continue
        d1 = r1x * r1x + r1y * r1y
        d2 = r2x * r2x + r2y * r2y
        rsq = radius * radius
        obx = ox[o2] - ox[o1]
        oby = oy[o2] - oy[o1]
        s = (-r1x * obx - r1y * oby) / (obx * obx + oby * oby)
        dline = (-r1x - s * obx) ** 2 + (-r1y - s * oby) ** 2
        if s < 0.0 and d1 <= rsq:
            if oconv[o1]:
                n = math.sqrt(r1x * r1x + r1y * r1y)
                lpx[n_lines] = 0.0
                lpy[n_lines] = 0.0
                ldx[n_lines] = -r1y / n
                ldy[n_lines] = r1x / n
                n_lines += 1
            continue
        if s > 1.0 and d2 <= rsq:
            if oconv[o2] and _det(r2x, r2y, odx[o2], ody[o2]) >= 0.0:
                n = math.sqrt(r2x * r2x + r2y * r2y)
                lpx[n_lines] = 0.0
                lpy[n_lines] = 0.0
                ldx[n_lines] = -r2y / n
                ldy[n_lines] = r2x / n
                n_lines += 1
            continue
        if s >= 0.0 and s <= 1.0 and dline <= rsq:
            lpx[n_lines] = 0.0
            lpy[n_lines] = 0.0
            ldx[n_lines] = -odx[o1]
            ldy[n_lines] = -ody[o1]
            n_lines += 1
            continue
        if s < 0.0 and dline <= rsq:
            if not oconv[o1]:
                continue
            o2 = o1
            leg1 = math.sqrt(d1 - rsq)
            llx = (r1x * leg1 - r1y * radius) / d1
            lly = (r1x * radius + r1y * leg1) / d1
            rlx = (r1x * leg1 + r1y * radius) / d1
            rly = (-r1x * radius + r1y * leg1) / d1
        elif s > 1.0 and dline <= rsq:
            if not oconv[o2]:
                continue
            o1 = o2
            leg2 = math.sqrt(d2 - rsq)
            llx = (r2x * leg2 - r2y * radius) / d2
            lly = (r2x * radius + r2y * leg2) / d2
            rlx = (r2x * leg2 + r2y * radius) / d2
            rly = (-r2x * radius + r2y * leg2) / d2
        else:
            if oconv[o1]:
                leg1 = math.sqrt(d1 - rsq)
                llx = (r1x * leg1 - r1y * radius) / d1
                lly = (r1x * radius + r1y * leg1) / d1
            else:
                llx = -odx[o1]
                lly = -ody[o1]
            if oconv[o2]:
                leg2 = math.sqrt(d2 - rsq)
                rlx = (r2x * leg2 + r2y * radius) / d2
                rly = (-r2x * radius + r2y * leg2) / d2
            else:
                rlx = odx[o1]
                rly = ody[o1]
        left_nb = oprev[o1]
        left_foreign = False
        right_foreign = False
        if oconv[o1] and _det(llx, lly, -odx[left_nb], -ody[left_nb]) >= 0.0:
            llx = -odx[left_nb]
            lly = -ody[left_nb]
            left_foreign = True
        if oconv[o2] and _det(rlx, rly, odx[o2], ody[o2]) <= 0.0:
            rlx = odx[o2]
            rly = ody[o2]
            right_foreign = True
        lcx = inv * (ox[o1] - px)
        lcy = inv * (oy[o1] - py)
        rcx = inv * (ox[o2] - px)
        rcy = inv * (oy[o2] - py)
        cvx = rcx - lcx
        cvy = rcy - lcy
        same = o1 == o2
        if same:
            t = 0.5
        else:
            t = ((vx - lcx) * cvx + (vy - lcy) * cvy) / (cvx * cvx + cvy * cvy)
        t_left = (vx - lcx) * llx + (vy - lcy) * lly
        t_right = (vx - rcx) * rlx + (vy - rcy) * rly
        if (t < 0.0 and t_left < 0.0) or (same and t_left < 0.0 and t_right < 0.0):
            wx = vx - lcx
            wy = vy - lcy
            wn = math.sqrt(wx * wx + wy * wy)
            ux = wx / wn
            uy = wy / wn
            ldx[n_lines] = uy
            ldy[n_lines] = -ux
            lpx[n_lines] = lcx + radius * inv * ux
            lpy[n_lines] = lcy + radius * inv * uy
            n_lines += 1
            continue
        if t > 1.0 and t_right < 0.0:
            wx = vx - rcx
            wy = vy - rcy
            wn = math.sqrt(wx * wx + wy * wy)
            ux = wx / wn
            uy = wy / wn
            ldx[n_lines] = uy
            ldy[n_lines] = -ux
            lpx[n_lines] = rcx + radius * inv * ux
            lpy[n_lines] = rcy + radius * inv * uy
            n_lines += 1
            continue
        if t < 0.0 or t > 1.0 or same:
            dcut = math.inf
        else:
            dcut = (vx - (lcx + t * cvx)) ** 2 + (vy - (lcy + t * cvy)) ** 2
        if t_left < 0.0:
            dleft = math.inf
        else:
            dleft = (vx - (lcx + t_left * llx)) ** 2 + (vy - (lcy + t_left * lly)) ** 2
        if t_right < 0.0:
            dright = math.inf
        else:
            dright = (vx - (rcx + t_right * rlx)) ** 2 + (vy - (rcy + t_right * rly)) ** 2
        if dcut <= dleft and dcut <= dright:
            dx = -odx[o1]
            dy = -ody[o1]
            ldx[n_lines] = dx
            ldy[n_lines] = dy
            lpx[n_lines] = lcx + radius * inv * (-dy)
            lpy[n_lines] = lcy + radius * inv * dx
            n_lines += 1
            continue
        if dleft <= dright:
            if left_foreign:
                continue
            ldx[n_lines] = llx
            ldy[n_lines] = lly
            lpx[n_lines] = lcx + radius * inv * (-lly)
            lpy[n_lines] = lcy + radius * inv * llx
            n_lines += 1
            continue
        if right_foreign:
            continue
        ldx[n_lines] = -rlx
        ldy[n_lines] = -rly
        lpx[n_lines] = rcx + radius * inv * rly
        lpy[n_lines] = rcy + radius * inv * (-rlx)
        n_lines += 1
    return n_lines


@njit(cache=True)
def orca_step(pos, vel, pref, radius, max_speed, reactive, active, neighbor_dist,
              max_neighbors, time_horizon, time_horizon_obst, dt, ox, oy, onext, oprev, odx,
              ody, oconv, out):
    """New ORCA velocities ``out (n, 2)`` of the ``active`` agents (others copy ``vel``).

    ``pos, vel, pref`` are ``(n, 2)`` world positions, current and preferred
    velocities; ``radius, max_speed`` per agent; ``reactive[j]`` whether
    agent ``j`` avoids back (half the responsibility) or not (all of it).
    Obstacle edges run from vertex ``e`` to ``onext[e]`` (RVO2's obstacle
    list: ``odx, ody`` the unit direction, ``oconv`` convexity).
    """
    n = pos.shape[0]
    n_edges = ox.shape[0]
    cap = n_edges + max_neighbors + 1
    lpx = np.empty(cap)
    lpy = np.empty(cap)
    ldx = np.empty(cap)
    ldy = np.empty(cap)
    ppx = np.empty(cap)
    ppy = np.empty(cap)
    pdx = np.empty(cap)
    pdy = np.empty(cap)
    nb_idx = np.empty(max(n_edges, max_neighbors) + 1, np.int64)
    nb_d = np.empty(max(n_edges, max_neighbors) + 1)
    res = np.empty(2)
    inv = 1.0 / time_horizon
    for k in range(n):
        if not active[k]:
            out[k, 0] = vel[k, 0]
            out[k, 1] = vel[k, 1]
            continue
        px = pos[k, 0]
        py = pos[k, 1]
        vx = vel[k, 0]
        vy = vel[k, 1]
        rad = radius[k]
        n_lines = 0
        if n_edges > 0:
            n_lines = _obstacle_lines(k, px, py, vx, vy, rad, max_speed[k], time_horizon_obst,
                                      ox, oy, onext, oprev, odx, ody, oconv, nb_idx, nb_d,
                                      lpx, lpy, ldx, ldy)
        n_obst = n_lines
        # the max_neighbors nearest agents within neighbor_dist (insertAgentNeighbor)
        range_sq = neighbor_dist * neighbor_dist
        n_nb = 0
        if max_neighbors > 0:
            for j in range(n):
                if j == k:
                    continue
                d = (px - pos[j, 0]) ** 2 + (py - pos[j, 1]) ** 2
                if d < range_sq:
                    if n_nb < max_neighbors:
                        n_nb += 1
                    i = n_nb - 1
                    while i != 0 and d < nb_d[i - 1]:
                        nb_d[i] = nb_d[i - 1]
                        nb_idx[i] = nb_idx[i - 1]
                        i -= 1
                    nb_d[i] = d
                    nb_idx[i] = j
                    if n_nb == max_neighbors:
                        range_sq = nb_d[n_nb - 1]
        for q in range(n_nb):
            j = nb_idx[q]
            rpx = pos[j, 0] - px
            rpy = pos[j, 1] - py
            rvx = vx - vel[j, 0]
            rvy = vy - vel[j, 1]
            dist_sq = rpx * rpx + rpy * rpy
            cr = rad + radius[j]
            cr_sq = cr * cr
            if dist_sq > cr_sq:
                wx = rvx - inv * rpx
                wy = rvy - inv * rpy
                w_len_sq = wx * wx + wy * wy
                dot = wx * rpx + wy * rpy
                if dot < 0.0 and dot * dot > cr_sq * w_len_sq:
                    w_len = math.sqrt(w_len_sq)
                    ux_ = wx / w_len
                    uy_ = wy / w_len
                    dx = uy_
                    dy = -ux_
                    ux = (cr * inv - w_len) * ux_
                    uy = (cr * inv - w_len) * uy_
                else:
                    leg = math.sqrt(dist_sq - cr_sq)
                    if _det(rpx, rpy, wx, wy) > 0.0:
                        dx = (rpx * leg - rpy * cr) / dist_sq
                        dy = (rpx * cr + rpy * leg) / dist_sq
                    else:
                        dx = -(rpx * leg + rpy * cr) / dist_sq
                        dy = -(-rpx * cr + rpy * leg) / dist_sq
                    f = rvx * dx + rvy * dy
                    ux = f * dx - rvx
                    uy = f * dy - rvy
            else:
                inv_dt = 1.0 / dt
                wx = rvx - inv_dt * rpx
                wy = rvy - inv_dt * rpy
                w_len = math.sqrt(wx * wx + wy * wy)
                ux_ = wx / w_len
                uy_ = wy / w_len
                dx = uy_
                dy = -ux_
                ux = (cr * inv_dt - w_len) * ux_
                uy = (cr * inv_dt - w_len) * uy_
            share = 0.5 if reactive[j] else 1.0
            lpx[n_lines] = vx + share * ux
            lpy[n_lines] = vy + share * uy
            ldx[n_lines] = dx
            ldy[n_lines] = dy
            n_lines += 1
        fail = _lp2(lpx, lpy, ldx, ldy, n_lines, max_speed[k], pref[k, 0], pref[k, 1], False,
                    res)
        if fail < n_lines:
            _lp3(lpx, lpy, ldx, ldy, n_lines, n_obst, fail, max_speed[k], res, ppx, ppy, pdx,
                 pdy)
        out[k, 0] = res[0]
        out[k, 1] = res[1]
