"""ORCA (van den Berg, Guy, Lin & Manocha 2011) as numba kernels, a port of RVO2's ``Agent.cc``.

The port follows RVO2 2.0 (the library ``pyrvo`` binds) line by line --
the obstacle half-planes with their convexity and "foreign leg" rules, the
agent half-planes, ``linearProgram1/2/3`` -- with RVO2's order of floating
point operations (a vector over a scalar is a product with its inverse, as
``Vector2::operator/``). The kernels are generic in the float type: given
float64 arrays they run in float64 (what the robots use); given float32
arrays and scalars they compute exactly what RVO2's float build computes,
which is how ``tests/traffic/test_traffic_orca_pyrvo.py`` checks them
against ``pyrvo`` to 1e-6 at every step. Two differences of shape:

* obstacle edges come from RVO2's own obstacle k-d tree (split edges and
  all, :func:`robomaze.traffic.walls.obstacle_arrays`), queried in RVO2's
  order; agent neighbours are found by brute force with the same insertion
  rule as RVO2's agent tree query (the ``max_neighbors`` nearest within
  ``neighbor_dist``), so only agents at exactly equal distances may order
  differently;
* a neighbour may be *non-reactive* (``reactive[j]`` False: a moving
  obstacle that will not avoid back): its half-plane takes the whole
  velocity change (``u``) instead of half, the "responsibility 1" case of
  the paper's section 5.2.

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
    eps = lpx.dtype.type(RVO_EPSILON)
    px = lpx[line_no]
    py = lpy[line_no]
    dot = px * ldx[line_no] + py * ldy[line_no]
    disc = dot * dot + radius * radius - (px * px + py * py)
    if disc < 0.0:
        return False
    sq = math.sqrt(disc)
    t_left = -dot - sq
    t_right = -dot + sq
    for i in range(line_no):
        denom = _det(ldx[line_no], ldy[line_no], ldx[i], ldy[i])
        numer = _det(ldx[i], ldy[i], px - lpx[i], py - lpy[i])
        if abs(denom) <= eps:
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
        t = ldx[line_no] * (optx - px) + ldy[line_no] * (opty - py)
        if t < t_left:
            t = t_left
        elif t > t_right:
            t = t_right
    res[0] = px + t * ldx[line_no]
    res[1] = py + t * ldy[line_no]
    return True


@njit(cache=True)
def _lp2(lpx, lpy, ldx, ldy, n_lines, radius, optx, opty, direction_opt, res):
    if direction_opt:
        res[0] = optx * radius
        res[1] = opty * radius
    elif optx * optx + opty * opty > radius * radius:
        inv = lpx.dtype.type(1.0) / math.sqrt(optx * optx + opty * opty)
        res[0] = optx * inv * radius
        res[1] = opty * inv * radius
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
    one = lpx.dtype.type(1.0)
    half = lpx.dtype.type(0.5)
    eps = lpx.dtype.type(RVO_EPSILON)
    distance = lpx.dtype.type(0.0)
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
                if abs(determinant) <= eps:
                    if ldx[i] * ldx[j] + ldy[i] * ldy[j] > 0.0:
                        continue
                    px = half * (lpx[i] + lpx[j])
                    py = half * (lpy[i] + lpy[j])
                else:
                    f = _det(ldx[j], ldy[j], lpx[i] - lpx[j], lpy[i] - lpy[j]) / determinant
                    px = lpx[i] + f * ldx[i]
                    py = lpy[i] + f * ldy[i]
                dx = ldx[j] - ldx[i]
                dy = ldy[j] - ldy[i]
                inv = one / math.sqrt(dx * dx + dy * dy)
                ppx[n_proj] = px
                ppy[n_proj] = py
                pdx[n_proj] = dx * inv
                pdy[n_proj] = dy * inv
                n_proj += 1
            tx = res[0]
            ty = res[1]
            if _lp2(ppx, ppy, pdx, pdy, n_proj, radius, -ldy[i], ldx[i], True, res) < n_proj:
                res[0] = tx
                res[1] = ty
            distance = _det(ldx[i], ldy[i], lpx[i] - res[0], lpy[i] - res[1])


@njit(cache=True)
def _query_obstacles(px, py, range_sq, ox, oy, onext, otree, nb_idx, nb_d, st_node, st_phase):
    """RVO2's ``queryObstacleTreeRecursive`` + ``insertObstacleNeighbor``; returns the count.

    The recursion (near side, this node, far side if the line is in range)
    runs on an explicit stack so edges at equal distances keep RVO2's order.
    """
    if otree.shape[0] == 0:
        return 0
    n_nb = 0
    top = 0
    st_node[0] = 0
    st_phase[0] = 0
    while top >= 0:
        node = st_node[top]
        e = otree[node, 0]
        e2 = onext[e]
        ax = ox[e2] - ox[e]
        ay = oy[e2] - oy[e]
        # leftOf(o1, o2, agent) = det(o1 - agent, o2 - o1)
        left = (ox[e] - px) * ay - (oy[e] - py) * ax
        if st_phase[top] == 0:
            st_phase[top] = 1
            child = otree[node, 1] if left >= 0.0 else otree[node, 2]
            if child >= 0:
                top += 1
                st_node[top] = child
                st_phase[top] = 0
            continue
        top -= 1
        if left * left / (ax * ax + ay * ay) < range_sq:
            if left < 0.0:
                r = ((px - ox[e]) * ax + (py - oy[e]) * ay) / (ax * ax + ay * ay)
                if r < 0.0:
                    qx = px - ox[e]
                    qy = py - oy[e]
                elif r > 1.0:
                    qx = px - ox[e2]
                    qy = py - oy[e2]
                else:
                    qx = px - (ox[e] + r * ax)
                    qy = py - (oy[e] + r * ay)
                d = qx * qx + qy * qy
                if d < range_sq:
                    i = n_nb
                    n_nb += 1
                    while i != 0 and d < nb_d[i - 1]:
                        nb_d[i] = nb_d[i - 1]
                        nb_idx[i] = nb_idx[i - 1]
                        i -= 1
                    nb_d[i] = d
                    nb_idx[i] = e
            child = otree[node, 2] if left >= 0.0 else otree[node, 1]
            if child >= 0:
                top += 1
                st_node[top] = child
                st_phase[top] = 0
    return n_nb


@njit(cache=True)
def _obstacle_lines(px, py, vx, vy, radius, max_speed, th_obst, ox, oy, onext, oprev,
                    odx, ody, oconv, otree, nb_idx, nb_d, st_node, st_phase, lpx, lpy, ldx,
                    ldy):
    """Append an agent's obstacle half-planes; returns how many lines there are."""
    one = lpx.dtype.type(1.0)
    zero = lpx.dtype.type(0.0)
    eps = lpx.dtype.type(RVO_EPSILON)
    big = lpx.dtype.type(math.inf)
    rng = th_obst * max_speed + radius
    n_nb = _query_obstacles(px, py, rng * rng, ox, oy, onext, otree, nb_idx, nb_d, st_node,
                            st_phase)
    inv = one / th_obst
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
                    >= -eps
                    and _det(inv * r2x - lpx[j], inv * r2y - lpy[j], ldx[j], ldy[j])
                    - inv * radius >= -eps):
                covered = True
                break
        if covered:
            continue
        d1 = r1x * r1x + r1y * r1y
        d2 = r2x * r2x + r2y * r2y
        rsq = radius * radius
        obx = ox[o2] - ox[o1]
        oby = oy[o2] - oy[o1]
        s = (-r1x * obx + -r1y * oby) / (obx * obx + oby * oby)
        wx = -r1x - s * obx
        wy = -r1y - s * oby
        dline = wx * wx + wy * wy
        if s < 0.0 and d1 <= rsq:
            if oconv[o1]:
                n = one / math.sqrt(r1y * r1y + r1x * r1x)
                lpx[n_lines] = zero
                lpy[n_lines] = zero
                ldx[n_lines] = -r1y * n
                ldy[n_lines] = r1x * n
                n_lines += 1
            continue
        if s > 1.0 and d2 <= rsq:
            if oconv[o2] and _det(r2x, r2y, odx[o2], ody[o2]) >= 0.0:
                n = one / math.sqrt(r2y * r2y + r2x * r2x)
                lpx[n_lines] = zero
                lpy[n_lines] = zero
                ldx[n_lines] = -r2y * n
                ldy[n_lines] = r2x * n
                n_lines += 1
            continue
        if s >= 0.0 and s <= 1.0 and dline <= rsq:
            lpx[n_lines] = zero
            lpy[n_lines] = zero
            ldx[n_lines] = -odx[o1]
            ldy[n_lines] = -ody[o1]
            n_lines += 1
            continue
        if s < 0.0 and dline <= rsq:
            if not oconv[o1]:
                continue
            o2 = o1
            leg1 = math.sqrt(d1 - rsq)
            iv = one / d1
            llx = (r1x * leg1 - r1y * radius) * iv
            lly = (r1x * radius + r1y * leg1) * iv
            rlx = (r1x * leg1 + r1y * radius) * iv
            rly = (-r1x * radius + r1y * leg1) * iv
        elif s > 1.0 and dline <= rsq:
            if not oconv[o2]:
                continue
            o1 = o2
            leg2 = math.sqrt(d2 - rsq)
            iv = one / d2
            llx = (r2x * leg2 - r2y * radius) * iv
            lly = (r2x * radius + r2y * leg2) * iv
            rlx = (r2x * leg2 + r2y * radius) * iv
            rly = (-r2x * radius + r2y * leg2) * iv
        else:
            if oconv[o1]:
                leg1 = math.sqrt(d1 - rsq)
                iv = one / d1
                llx = (r1x * leg1 - r1y * radius) * iv
                lly = (r1x * radius + r1y * leg1) * iv
            else:
                llx = -odx[o1]
                lly = -ody[o1]
            if oconv[o2]:
                leg2 = math.sqrt(d2 - rsq)
                iv = one / d2
                rlx = (r2x * leg2 + r2y * radius) * iv
                rly = (-r2x * radius + r2y * leg2) * iv
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
            t = lpx.dtype.type(0.5)
        else:
            t = ((vx - lcx) * cvx + (vy - lcy) * cvy) / (cvx * cvx + cvy * cvy)
        t_left = (vx - lcx) * llx + (vy - lcy) * lly
        t_right = (vx - rcx) * rlx + (vy - rcy) * rly
        if (t < 0.0 and t_left < 0.0) or (same and t_left < 0.0 and t_right < 0.0):
            wx = vx - lcx
            wy = vy - lcy
            wn = one / math.sqrt(wx * wx + wy * wy)
            ux = wx * wn
            uy = wy * wn
            ldx[n_lines] = uy
            ldy[n_lines] = -ux
            lpx[n_lines] = lcx + radius * inv * ux
            lpy[n_lines] = lcy + radius * inv * uy
            n_lines += 1
            continue
        if t > 1.0 and t_right < 0.0:
            wx = vx - rcx
            wy = vy - rcy
            wn = one / math.sqrt(wx * wx + wy * wy)
            ux = wx * wn
            uy = wy * wn
            ldx[n_lines] = uy
            ldy[n_lines] = -ux
            lpx[n_lines] = rcx + radius * inv * ux
            lpy[n_lines] = rcy + radius * inv * uy
            n_lines += 1
            continue
        if t < 0.0 or t > 1.0 or same:
            dcut = big
        else:
            wx = vx - (lcx + t * cvx)
            wy = vy - (lcy + t * cvy)
            dcut = wx * wx + wy * wy
        if t_left < 0.0:
            dleft = big
        else:
            wx = vx - (lcx + t_left * llx)
            wy = vy - (lcy + t_left * lly)
            dleft = wx * wx + wy * wy
        if t_right < 0.0:
            dright = big
        else:
            wx = vx - (rcx + t_right * rlx)
            wy = vy - (rcy + t_right * rly)
            dright = wx * wx + wy * wy
        if dcut <= dleft and dcut <= dright:
            dx = -odx[o1]
            dy = -ody[o1]
            ldx[n_lines] = dx
            ldy[n_lines] = dy
            lpx[n_lines] = lcx + radius * inv * -dy
            lpy[n_lines] = lcy + radius * inv * dx
            n_lines += 1
            continue
        if dleft <= dright:
            if left_foreign:
                continue
            ldx[n_lines] = llx
            ldy[n_lines] = lly
            lpx[n_lines] = lcx + radius * inv * -lly
            lpy[n_lines] = lcy + radius * inv * llx
            n_lines += 1
            continue
        if right_foreign:
            continue
        ldx[n_lines] = -rlx
        ldy[n_lines] = -rly
        lpx[n_lines] = rcx + radius * inv * rly
        lpy[n_lines] = rcy + radius * inv * -rlx
        n_lines += 1
    return n_lines


@njit(cache=True)
def _worst(ldx, ldy, lpx, lpy, n_lines, hx, hy, sp):
    """The largest violation ``det(d, p - sp h)`` of the half-planes by ``sp`` along ``h``."""
    worst = -math.inf
    for q in range(n_lines):
        v = _det(ldx[q], ldy[q], lpx[q] - sp * hx, lpy[q] - sp * hy)
        if v > worst:
            worst = v
    return worst


@njit(cache=True)
def orca_step_heading(pos, vel, pref, radius, max_speed, reactive, active, neighbor_dist,
                      max_neighbors, time_horizon, time_horizon_obst, dt, ox, oy, onext,
                      oprev, odx, ody, oconv, otree, heading, along, lo, hi, out):
    """:func:`orca_step`, and for agents with ``along[k]`` the speeds they may drive on their heading.

    A differential or car robot cannot take ORCA's velocity at once: it
    drives along its ``heading`` while it turns towards it. Given in
    ``lo[k], hi[k]`` the speeds it can reach this step, they return the
    sub-interval of speeds ``s`` for which ``s * (cos, sin)(heading[k])``
    keeps every one of agent ``k``'s ORCA half-planes (walls' and agents');
    when there is none, ``lo`` is the speed in ``[0, hi]`` that violates
    them least (the largest violation the smallest, as RVO2's
    ``linearProgram3`` does for velocities) and ``hi`` is set to -1: an
    emergency, where braking harder than the robot's acceleration is the
    collision-free fallback (slower is never worse for a disc whose
    neighbours keep their half-planes). So the
    robot's real motion stays in the set ORCA's reciprocity assumes of it
    (the non-holonomic repair of Alonso-Mora et al.'s NH-ORCA, with the
    heading fixed over the step instead of an enlarged radius).

    ``pos, vel, pref`` are ``(n, 2)`` world positions, current and preferred
    velocities; ``radius, max_speed`` per agent; ``reactive[j]`` whether
    agent ``j`` avoids back (half the responsibility) or not (all of it).
    Obstacle edges run from vertex ``e`` to ``onext[e]`` (RVO2's obstacle
    list: ``odx, ody`` the unit direction, ``oconv`` convexity; ``otree``
    its k-d tree), as :func:`robomaze.traffic.walls.obstacle_arrays` gives
    them. Every float array and scalar of one call shares one type (float64,
    or float32 for RVO2's own arithmetic).
    """
    F = pos.dtype
    one = pos.dtype.type(1.0)
    half = pos.dtype.type(0.5)
    n = pos.shape[0]
    n_edges = ox.shape[0]
    cap = n_edges + max_neighbors + 1
    lpx = np.empty(cap, F)
    lpy = np.empty(cap, F)
    ldx = np.empty(cap, F)
    ldy = np.empty(cap, F)
    ppx = np.empty(cap, F)
    ppy = np.empty(cap, F)
    pdx = np.empty(cap, F)
    pdy = np.empty(cap, F)
    nb_idx = np.empty(max(n_edges, max_neighbors) + 1, np.int64)
    nb_d = np.empty(max(n_edges, max_neighbors) + 1, F)
    st_node = np.empty(otree.shape[0] + 1, np.int64)
    st_phase = np.empty(otree.shape[0] + 1, np.int64)
    res = np.empty(2, F)
    inv = one / time_horizon
    inv_dt = one / dt
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
            n_lines = _obstacle_lines(px, py, vx, vy, rad, max_speed[k], time_horizon_obst,
                                      ox, oy, onext, oprev, odx, ody, oconv, otree, nb_idx,
                                      nb_d, st_node, st_phase, lpx, lpy, ldx, ldy)
        n_obst = n_lines
        # the max_neighbors nearest agents within neighbor_dist (insertAgentNeighbor)
        range_sq = neighbor_dist * neighbor_dist
        n_nb = 0
        if max_neighbors > 0:
            for j in range(n):
                if j == k:
                    continue
                qx = px - pos[j, 0]
                qy = py - pos[j, 1]
                d = qx * qx + qy * qy
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
                    iw = one / w_len
                    ux_ = wx * iw
                    uy_ = wy * iw
                    dx = uy_
                    dy = -ux_
                    ux = (cr * inv - w_len) * ux_
                    uy = (cr * inv - w_len) * uy_
                else:
                    leg = math.sqrt(dist_sq - cr_sq)
                    iv = one / dist_sq
                    if _det(rpx, rpy, wx, wy) > 0.0:
                        dx = (rpx * leg - rpy * cr) * iv
                        dy = (rpx * cr + rpy * leg) * iv
                    else:
                        dx = -((rpx * leg + rpy * cr) * iv)
                        dy = -((-rpx * cr + rpy * leg) * iv)
                    f = rvx * dx + rvy * dy
                    ux = f * dx - rvx
                    uy = f * dy - rvy
            else:
                wx = rvx - inv_dt * rpx
                wy = rvy - inv_dt * rpy
                w_len = math.sqrt(wx * wx + wy * wy)
                iw = one / w_len
                ux_ = wx * iw
                uy_ = wy * iw
                dx = uy_
                dy = -ux_
                ux = (cr * inv_dt - w_len) * ux_
                uy = (cr * inv_dt - w_len) * uy_
            share = half if reactive[j] else one
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
        if along[k]:
            hx = math.cos(heading[k])
            hy = math.sin(heading[k])
            r_lo = lo[k]
            r_hi = hi[k]
            s_lo = r_lo
            s_hi = r_hi
            for q in range(n_lines):
                # det(d, p - s h) <= 0  <=>  det(d, p) <= s det(d, h)
                a_ = _det(ldx[q], ldy[q], lpx[q], lpy[q])
                b_ = _det(ldx[q], ldy[q], hx, hy)
                if b_ > 1e-12:
                    s_lo = max(s_lo, a_ / b_)
                elif b_ < -1e-12:
                    s_hi = min(s_hi, a_ / b_)
                elif a_ > 0.0:
                    s_lo = math.inf
            if s_lo <= s_hi:
                lo[k] = s_lo
                hi[k] = s_hi
            else:
                # no reachable speed keeps every half-plane: the speed in
                # [0, r_hi] that enters them least (the largest violation is
                # convex in s: ternary search), flagged by hi < lo -- below r_lo
                # it is an emergency stop, harder than the robot's acceleration
                a_s = 0.0
                b_s = r_hi
                for _ in range(60):
                    m1 = a_s + (b_s - a_s) / 3.0
                    m2 = b_s - (b_s - a_s) / 3.0
                    if (_worst(ldx, ldy, lpx, lpy, n_lines, hx, hy, m1)
                            <= _worst(ldx, ldy, lpx, lpy, n_lines, hx, hy, m2)):
                        b_s = m2
                    else:
                        a_s = m1
                lo[k] = 0.5 * (a_s + b_s)
                hi[k] = -1.0


@njit(cache=True)
def orca_step(pos, vel, pref, radius, max_speed, reactive, active, neighbor_dist,
              max_neighbors, time_horizon, time_horizon_obst, dt, ox, oy, onext, oprev, odx,
              ody, oconv, otree, out):
    """New ORCA velocities ``out (n, 2)`` of the ``active`` agents (others copy ``vel``).

    ``pos, vel, pref`` are ``(n, 2)`` world positions, current and preferred
    velocities; ``radius, max_speed`` per agent; ``reactive[j]`` whether
    agent ``j`` avoids back (half the responsibility) or not (all of it).
    Obstacle edges run from vertex ``e`` to ``onext[e]`` (RVO2's obstacle
    list: ``odx, ody`` the unit direction, ``oconv`` convexity; ``otree``
    its k-d tree), as :func:`robomaze.traffic.walls.obstacle_arrays` gives
    them. Every float array and scalar of one call shares one type (float64,
    or float32 for RVO2's own arithmetic).
    """
    n = pos.shape[0]
    no = np.zeros(n, np.bool_)
    spare = np.empty(n, pos.dtype)
    orca_step_heading(pos, vel, pref, radius, max_speed, reactive, active, neighbor_dist,
                      max_neighbors, time_horizon, time_horizon_obst, dt, ox, oy, onext, oprev,
                      odx, ody, oconv, otree, spare, no, spare, spare, out)
