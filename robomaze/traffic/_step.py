"""numba kernels of one traffic step: controllers, ORCA, obstacle behaviours, motion, sensing.

Bodies ``0 .. n_robots-1`` are robots, the rest moving obstacles (see
:mod:`robomaze.traffic._geom` for the body arrays). One call of
:func:`step_world` moves every body by ``dt``; :func:`sense_world` casts
every robot's beams; :func:`measure_world` updates the safety minima.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..geometry.validity import motion_hits
from ._geom import (CONTACT, body_distance, box_body, integrate, ray_body, time_of_contact)
from ._cast import scan_rows_jump
from ._orca import orca_step_heading

# kinematics models
DIFF, CAR, OMNI = 0, 1, 2
# controller modes
FOLLOW, PREF, COMMAND = 0, 1, 2
# obstacle behaviours
WAYPOINTS, WANDER, PEDESTRIAN = 0, 1, 2
# collision kinds (columns of the per-robot counters)
HIT_ROBOT, HIT_OBSTACLE, HIT_WALL = 0, 1, 2

_SQRT2 = math.sqrt(2.0)


@njit(cache=True)
def _clip(x, lo, hi):
    return lo if x < lo else hi if x > hi else x


#: a bound of :func:`_fast_atan2`'s error (radians; the polynomial's is 1e-5) and more
_ATAN_ERR = 1e-4


@njit(cache=True, inline="always")
def _fast_atan2(y, x):
    """``atan2(y, x)`` within 1.2e-5 rad (a minimax polynomial on [0, 1] and the octants)."""
    ax = abs(x)
    ay = abs(y)
    if ax == 0.0 and ay == 0.0:
        return 0.0
    swap = ay > ax
    z = ax / ay if swap else ay / ax
    z2 = z * z
    r = z * (0.9998660 + z2 * (-0.3302995 + z2 * (0.1801410 + z2 * (-0.0851330
                                                                      + z2 * 0.0208351))))
    if swap:
        r = 0.5 * math.pi - r
    if x < 0.0:
        r = math.pi - r
    return -r if y < 0.0 else r


@njit(cache=True)
def _wrap(a):
    return (a + math.pi) % (2.0 * math.pi) - math.pi


@njit(cache=True)
def follow_target(field, rows, cols, res, ox, oy, x, y, lookahead):
    """The point ``lookahead`` cells down the goal field from the cell under ``(x, y)``.

    Steepest descent, 8-connected without corner cutting; from a cell off the
    field (inf: pushed into the inflated walls) the best finite neighbour
    within two cells is the start. Returns ``(tx, ty, field_value)``.
    """
    c = math.floor((x - ox) / res)
    r = rows - 1 - math.floor((y - oy) / res)
    if r < 0 or r >= rows or c < 0 or c >= cols:
        return x, y, math.inf
    u = r * cols + c
    if not field[u] < math.inf:
        best = math.inf
        bu = -1
        for dr in range(-2, 3):
            for dc in range(-2, 3):
                rr = r + dr
                cc = c + dc
                if 0 <= rr < rows and 0 <= cc < cols and field[rr * cols + cc] < best:
                    best = field[rr * cols + cc]
                    bu = rr * cols + cc
        if bu < 0:
            return x, y, math.inf
        u = bu
    value = field[u]
    for _ in range(lookahead):
        r = u // cols
        c = u % cols
        best = field[u]
        bu = u
        for dr in range(-1, 2):
            for dc in range(-1, 2):
                if dr == 0 and dc == 0:
                    continue
                rr = r + dr
                cc = c + dc
                if not (0 <= rr < rows and 0 <= cc < cols):
                    continue
                if dr != 0 and dc != 0:
                    if not (field[(r + dr) * cols + c] < math.inf
                            and field[r * cols + c + dc] < math.inf):
                        continue
                f = field[rr * cols + cc]
                if f < best:
                    best = f
                    bu = rr * cols + cc
        if bu == u:
            break
        u = bu
    tc = u % cols
    tr = u // cols
    return ox + (tc + 0.5) * res, oy + (rows - tr - 0.5) * res, value


@njit(cache=True)
def _limit(model, cmd0, cmd1, cmd2, cur0, cur1, cur2, v_max, v_min, w_max, a_max, al_max,
           turn_r, dt):
    """A robot's command limited by its speeds and accelerations (as robomaze.sim.Kinematics)."""
    da = a_max * dt
    dw = al_max * dt
    if model == OMNI:
        vx = _clip(_clip(cmd0, -v_max, v_max), cur0 - da, cur0 + da)
        vy = _clip(_clip(cmd1, -v_max, v_max), cur1 - da, cur1 + da)
        w = _clip(_clip(cmd2, -w_max, w_max), cur2 - dw, cur2 + dw)
        return vx, vy, w
    v = _clip(_clip(cmd0, v_min, v_max), cur0 - da, cur0 + da)
    w = _clip(_clip(cmd2, -w_max, w_max), cur2 - dw, cur2 + dw)
    if model == CAR:
        k = abs(v) / turn_r
        w = _clip(w, -k, k)
    return v, 0.0, w


@njit(cache=True)
def _track(model, th, ux, uy, w_max, dt, heading_gain):
    """The body command tracking a world velocity ``(ux, uy)`` (non-holonomic: turn, then go)."""
    speed = math.sqrt(ux * ux + uy * uy)
    if model == OMNI:
        c = math.cos(th)
        s = math.sin(th)
        return c * ux + s * uy, -s * ux + c * uy, 0.0
    if speed < 1e-9:
        return 0.0, 0.0, 0.0
    err = _wrap(math.atan2(uy, ux) - th)
    w = _clip(err / max(heading_gain, dt), -w_max, w_max)
    v = speed * math.cos(err)
    if v < 0.0:
        v = 0.0
    return v, 0.0, w


@njit(cache=True)
def _bound(twist, rc):
    return math.sqrt(twist[0] ** 2 + twist[1] ** 2) + abs(twist[2]) * rc


@njit(cache=True)
def _wall_contact(b, pose, twist, frac, dt, wall_args, body_r_in, body_r_out, body_disc,
                  wpx, wpy, wps, wpc, wpr, wstart, wcount, pa, pb, step_len):
    """First fraction of ``b``'s motion whose pose meets a wall (2.0: none).

    Sub-poses on the exact arc, no body point moving more than ``step_len``
    between two (the simulator's swept rule: nothing tunnels at any ``dt``);
    the fraction returned is the last free sub-pose's.
    """
    occ, clear, rows, cols, res, ox, oy, cy, sy = wall_args
    px = wpx[wstart[b]:wstart[b] + wcount[b]]
    py = wpy[wstart[b]:wstart[b] + wcount[b]]
    starts = wps[wpr[b, 0]:wpr[b, 1]]
    counts = wpc[wpr[b, 0]:wpr[b, 1]]
    x0 = pose[b, 0]
    y0 = pose[b, 1]
    t0 = pose[b, 2]
    reach = (math.sqrt(twist[b, 0] ** 2 + twist[b, 1] ** 2)
             + abs(twist[b, 2]) * body_r_out[b] * res) * frac[b] * dt
    n = 1
    if reach > 0.0:
        n = math.ceil(reach / step_len[b])
    for i in range(1, n + 1):
        f = frac[b] * i / n
        x, y, a = integrate(x0, y0, t0, twist[b, 0], twist[b, 1], twist[b, 2], f * dt)
        h = motion_hits(occ, clear, rows, cols, res, ox, oy, cy, sy, x, y, a, x, y, a,
                        body_r_in[b], body_r_out[b], body_disc[b], px, py, starts, counts,
                        pa, pb, step_len[b])
        if h & 1:
            return frac[b] * (i - 1) / n
    return 2.0


@njit(cache=True)
def move_bodies(pose, twist, dt, n_robots, rc, moving, kind, radius, pstart, pcount, vstart,
                vcount, vx, vy, wall_args, wall_check, w_r_in, w_r_out, w_disc, wpx, wpy,
                wps, wpc, wpr, wstart, wcount, pa, pb, step_len, contact_prev, hits, frac,
                sa, sb, sc, sd):
    """Move every body along its twist for ``dt``, stopping bodies at their first contact.

    Earliest contact first: each round finds the earliest wall or body
    contact given the motions left (bodies stopped earlier stand still from
    their stop), stops the bodies involved there, and repeats until no
    contact is left. ``frac`` receives each body's fraction of the step
    moved; ``hits (n_robots, 3)`` counts new robot contacts by kind
    (robot-robot, robot-obstacle, robot-wall); ``contact_prev (n, n+1)``
    (last column: walls) carries which contacts were already touching, so a
    contact is counted once. Poses are updated in place.
    """
    n = pose.shape[0]
    bound = np.empty(n)
    for i in range(n):
        frac[i] = 1.0
        bound[i] = _bound(twist[i], rc[i])
    contact_now = np.zeros((n, n + 1), np.bool_)
    fixed = np.zeros(n, np.bool_)
    # Only a body that stops changes its motion, so the wall times of the
    # others stay valid and a pair's time changes only when one of its two
    # bodies stops: both are computed once and refreshed for stopped bodies.
    t_wall = np.full(n, 2.0)
    for i in range(n):
        if wall_check[i] and moving[i] and bound[i] > 0.0:
            t_wall[i] = _wall_contact(i, pose, twist, frac, dt, wall_args, w_r_in, w_r_out,
                                      w_disc, wpx, wpy, wps, wpc, wpr, wstart, wcount, pa, pb,
                                      step_len)
    pi = np.empty(n * (n - 1) // 2 + 1, np.int64)
    pj = np.empty(n * (n - 1) // 2 + 1, np.int64)
    tp = np.empty(n * (n - 1) // 2 + 1)
    m = 0
    for i in range(n):
        for j in range(i + 1, n):
            if not (moving[i] or moving[j]) or bound[i] + bound[j] <= 0.0:
                continue
            # broad phase: the gap cannot close within the step
            gap = math.sqrt((pose[i, 0] - pose[j, 0]) ** 2 + (pose[i, 1] - pose[j, 1]) ** 2) \
                - rc[i] - rc[j]
            if gap > (bound[i] + bound[j]) * dt + CONTACT:
                continue
            pi[m] = i
            pj[m] = j
            tp[m] = time_of_contact(i, j, pose, twist, frac, dt, bound, kind, radius, pstart,
                                    pcount, vstart, vcount, vx, vy, sa, sb, sc, sd)
            m += 1
    for _round in range(4 * n + 4):
        best_t = 2.0
        bi = -1
        bj = -1
        for i in range(n):
            if not fixed[i] and t_wall[i] < best_t:
                best_t = t_wall[i]
                bi = i
                bj = -1
        bq = -1
        for q in range(m):
            if tp[q] < best_t and not (fixed[pi[q]] and fixed[pj[q]]):
                best_t = tp[q]
                bi = pi[q]
                bj = pj[q]
                bq = q
        if bi < 0:
            break
        if bj < 0:
            frac[bi] = best_t
            fixed[bi] = True
            contact_now[bi, n] = True
            changed_a = bi
            changed_b = -1
        else:
            tp[bq] = 2.0
            changed_a = -1
            changed_b = -1
            # a body already stopped earlier keeps its own (earlier) stop
            if not fixed[bi]:
                frac[bi] = min(frac[bi], best_t)
                fixed[bi] = True
                changed_a = bi
            if not fixed[bj]:
                frac[bj] = min(frac[bj], best_t)
                fixed[bj] = True
                changed_b = bj
            contact_now[bi, bj] = True
            contact_now[bj, bi] = True
        for q in range(m):
            a = pi[q]
            b = pj[q]
            touched = a == changed_a or b == changed_a or a == changed_b or b == changed_b
            if touched and not (fixed[a] and fixed[b]):
                tp[q] = time_of_contact(a, b, pose, twist, frac, dt, bound, kind, radius,
                                        pstart, pcount, vstart, vcount, vx, vy, sa, sb, sc, sd)
    for i in range(n_robots):
        for j in range(n):
            if j != i and contact_now[i, j] and not contact_prev[i, j]:
                if j < n_robots:
                    hits[i, HIT_ROBOT] += 1
                else:
                    hits[i, HIT_OBSTACLE] += 1
        if contact_now[i, n] and not contact_prev[i, n]:
            hits[i, HIT_WALL] += 1
    for i in range(n):
        for j in range(n + 1):
            contact_prev[i, j] = contact_now[i, j]
        x, y, a = integrate(pose[i, 0], pose[i, 1], pose[i, 2], twist[i, 0], twist[i, 1],
                            twist[i, 2], frac[i] * dt)
        pose[i, 0] = x
        pose[i, 1] = y
        pose[i, 2] = a


@njit(cache=True)
def world_velocity(pose, twist, out):
    """World velocity of each body's reference point ``(n, 2)``."""
    for i in range(pose.shape[0]):
        c = math.cos(pose[i, 2])
        s = math.sin(pose[i, 2])
        out[i, 0] = c * twist[i, 0] - s * twist[i, 1]
        out[i, 1] = s * twist[i, 0] + c * twist[i, 1]


@njit(cache=True)
def obstacle_twists(pose, twist, n_robots, behaviour, speed, wp, wp_start, wp_count, wp_next,
                    noise, dt, rc, occ, rows, cols, res, ox, oy, ped, vel):
    """Next twist of every moving obstacle (translation only; headings stay).

    ``waypoints``: straight at ``speed`` to the next waypoint, cycling.
    ``wander``: a random walk of the heading of travel (``noise`` holds this
    step's standard-normal draws, turning rate 1 rad/s per unit), reflected
    off walls by the collision stop. ``pedestrian``: the social force model
    (Helbing & Molnar 1995): relaxation to the desired velocity towards the
    next waypoint (``tau``), exponential repulsion from every other body
    (``A exp((r_ij - d_ij) / B)``) and from wall squares within reach, the
    speed capped at 1.3 x desired. ``ped`` rows: ``(tau, A, B, A_wall,
    B_wall, heading_of_travel, started)``.
    """
    n = pose.shape[0]
    for o in range(n_robots, n):
        k = o - n_robots
        x = pose[o, 0]
        y = pose[o, 1]
        c = math.cos(pose[o, 2])
        s = math.sin(pose[o, 2])
        if behaviour[k] == WANDER:
            ped[k, 5] = _wrap(ped[k, 5] + noise[k] * math.sqrt(dt))
            ux = speed[k] * math.cos(ped[k, 5])
            uy = speed[k] * math.sin(ped[k, 5])
            # a stop last step (a wall or a body): turn around, a new random heading
            if math.sqrt(vel[o, 0] ** 2 + vel[o, 1] ** 2) < 1e-9 and ped[k, 6] > 0.0:
                ped[k, 5] = _wrap(ped[k, 5] + math.pi + noise[k])
                ux = speed[k] * math.cos(ped[k, 5])
                uy = speed[k] * math.sin(ped[k, 5])
            ped[k, 6] = 1.0
        else:
            if wp_count[k] > 0:
                q = wp_start[k] + wp_next[k]
                gx = wp[q, 0] - x
                gy = wp[q, 1] - y
                dist = math.sqrt(gx * gx + gy * gy)
                if dist < max(0.1, speed[k] * dt):
                    wp_next[k] = (wp_next[k] + 1) % wp_count[k]
                    q = wp_start[k] + wp_next[k]
                    gx = wp[q, 0] - x
                    gy = wp[q, 1] - y
                    dist = math.sqrt(gx * gx + gy * gy)
                if dist > 1e-9:
                    ex = gx / dist
                    ey = gy / dist
                else:
                    ex = 0.0
                    ey = 0.0
            else:
                ex = 0.0
                ey = 0.0
            if behaviour[k] == WAYPOINTS:
                ux = speed[k] * ex
                uy = speed[k] * ey
            else:
                tau = ped[k, 0]
                fx = (speed[k] * ex - vel[o, 0]) / tau
                fy = (speed[k] * ey - vel[o, 1]) / tau
                for j in range(n):
                    if j == o:
                        continue
                    dx = x - pose[j, 0]
                    dy = y - pose[j, 1]
                    d = math.sqrt(dx * dx + dy * dy)
                    if d < 1e-9 or d > 5.0:
                        continue
                    f = ped[k, 1] * math.exp((rc[o] + rc[j] - d) / ped[k, 2])
                    fx += f * dx / d
                    fy += f * dy / d
                reach = 3.0 * ped[k, 4] + rc[o]
                cr = math.ceil(reach / res)
                c0 = math.floor((x - ox) / res)
                r0 = rows - 1 - math.floor((y - oy) / res)
                for r in range(r0 - cr, r0 + cr + 1):
                    for cc in range(c0 - cr, c0 + cr + 1):
                        if 0 <= r < rows and 0 <= cc < cols and occ[r * cols + cc] == 0:
                            continue
                        bx0 = ox + cc * res
                        by0 = oy + (rows - 1 - r) * res
                        nx = min(max(x, bx0), bx0 + res)
                        ny = min(max(y, by0), by0 + res)
                        dx = x - nx
                        dy = y - ny
                        d = math.sqrt(dx * dx + dy * dy)
                        if d < 1e-9 or d > reach:
                            continue
                        f = ped[k, 3] * math.exp((rc[o] - d) / ped[k, 4])
                        fx += f * dx / d
                        fy += f * dy / d
                ux = vel[o, 0] + fx * dt
                uy = vel[o, 1] + fy * dt
                sp = math.sqrt(ux * ux + uy * uy)
                cap = 1.3 * speed[k]
                if sp > cap:
                    ux *= cap / sp
                    uy *= cap / sp
        twist[o, 0] = c * ux + s * uy
        twist[o, 1] = -s * ux + c * uy
        twist[o, 2] = 0.0


@njit(cache=True)
def robot_twists(pose, twist, vel, n_robots, mode, command, pref_in, fields, field_id, rows,
                 cols, res, ox, oy, lookahead, goal, goal_radius, kin, orca_on, orca_radius,
                 reactive, neighbor_dist, max_neighbors, time_horizon, time_horizon_obst,
                 oex, oey, onext, oprev, odx, ody, oconv, otree, dt, heading_gain, bias,
                 progress, pref, new_vel):
    """Next twist of every robot: controller -> ORCA -> tracking -> kinematic limits.

    ``kin`` rows: ``(model, v_max, v_min, omega_max, a_max, alpha_max,
    turning_radius)``. ``mode``: ``FOLLOW`` (the compiled plan follower on
    ``fields[field_id]``), ``PREF`` (a preferred world velocity from
    ``pref_in``) or ``COMMAND`` (``command`` applied as is, no ORCA).
    ``progress`` receives the goal-field value under each robot (metres).
    Preferred velocities (the follower's and ``PREF``'s) are turned ``bias``
    radians clockwise:
    ORCA brakes two robots meeting exactly head-on without a sideways
    component (the cut-off circle's projection is along the line joining
    them), so perfectly symmetric meetings would stop dead; a small turn to
    the right makes both keep right, as RVO2's examples perturb theirs.
    """
    n = pose.shape[0]
    for i in range(n_robots):
        x = pose[i, 0]
        y = pose[i, 1]
        v_max = kin[i, 1]
        if mode[i] == FOLLOW:
            f = fields[field_id[i]]
            tx, ty, val = follow_target(f, rows, cols, res, ox, oy, x, y, lookahead)
            progress[i] = val * res
            gx = goal[i, 0] - x
            gy = goal[i, 1] - y
            gd = math.sqrt(gx * gx + gy * gy)
            if gd <= lookahead * res or not val < math.inf:
                tx = goal[i, 0]
                ty = goal[i, 1]
            dx = tx - x
            dy = ty - y
            d = math.sqrt(dx * dx + dy * dy)
            if d > 1e-12:
                # slow down into the goal: reach it in about one horizon
                sp = min(v_max, gd / max(time_horizon * 0.5, dt)) if gd <= lookahead * res \
                    else v_max
                cb = math.cos(bias)
                sb = math.sin(bias)
                ex = dx / d
                ey = dy / d
                pref[i, 0] = (cb * ex + sb * ey) * sp
                pref[i, 1] = (-sb * ex + cb * ey) * sp
            else:
                pref[i, 0] = 0.0
                pref[i, 1] = 0.0
        elif mode[i] == PREF:
            cb = math.cos(bias)
            sb = math.sin(bias)
            pref[i, 0] = cb * pref_in[i, 0] + sb * pref_in[i, 1]
            pref[i, 1] = -sb * pref_in[i, 0] + cb * pref_in[i, 1]
        else:
            pref[i, 0] = 0.0
            pref[i, 1] = 0.0
    # ORCA over every body (obstacles: non-reactive neighbours)
    active = np.zeros(n, np.bool_)
    speeds = np.empty(n)
    for i in range(n):
        speeds[i] = 0.0
        if i < n_robots:
            active[i] = orca_on[i] and mode[i] != COMMAND
            speeds[i] = kin[i, 1]
    along = np.zeros(n, np.bool_)
    for i in range(n_robots):
        along[i] = active[i] and int(kin[i, 0]) != OMNI
    s_lo = np.zeros(n)
    s_hi = np.zeros(n)
    for i in range(n_robots):
        if along[i]:
            # the forward speeds reachable this step (kinematic limits; no reversing)
            s_lo[i] = max(0.0, max(kin[i, 2], twist[i, 0] - kin[i, 4] * dt))
            s_hi[i] = max(s_lo[i], min(kin[i, 1], twist[i, 0] + kin[i, 4] * dt))
    orca_step_heading(pose[:, :2].copy(), vel, pref, orca_radius, speeds, reactive, active,
                      neighbor_dist, max_neighbors, time_horizon, time_horizon_obst, dt, oex,
                      oey, onext, oprev, odx, ody, oconv, otree, pose[:, 2].copy(), along, s_lo,
                      s_hi, new_vel)
    for i in range(n_robots):
        model = int(kin[i, 0])
        if mode[i] == COMMAND:
            c0 = command[i, 0]
            c1 = command[i, 1]
            c2 = command[i, 2]
        else:
            ux = new_vel[i, 0] if active[i] else pref[i, 0]
            uy = new_vel[i, 1] if active[i] else pref[i, 1]
            if mode[i] == PREF and abs(ux - pref[i, 0]) + abs(uy - pref[i, 1]) < 1e-9 * (
                    1.0 + abs(pref[i, 0]) + abs(pref[i, 1])):
                # ORCA left the agent's wish alone: its own command, turns in place included
                c0 = command[i, 0]
                c1 = command[i, 1]
                c2 = command[i, 2]
            else:
                c0, c1, c2 = _track(model, pose[i, 2], ux, uy, kin[i, 3], dt, heading_gain)
                if along[i]:
                    # drive on the heading no faster than keeps ORCA's half-planes
                    # (orca_step_heading), or when no reachable speed does, than
                    # the least violating one: an emergency stop past a_max
                    if s_hi[i] < s_lo[i]:
                        c0 = min(c0, s_lo[i])
                    elif c0 > s_hi[i]:
                        c0 = s_hi[i]
        v0, v1, v2 = _limit(model, c0, c1, c2, twist[i, 0], twist[i, 1], twist[i, 2], kin[i, 1],
                            kin[i, 2], kin[i, 3], kin[i, 4], kin[i, 5], kin[i, 6], dt)
        if along[i] and s_hi[i] < s_lo[i] and c0 < v0:
            v0 = c0         # the emergency stop of orca_step_heading
        twist[i, 0] = v0
        twist[i, 1] = v1
        twist[i, 2] = v2


@njit(cache=True)
def sense_world(pose, n_robots, sensor_id, mounts, cos_b, sin_b, range_min, range_max,
                occ, clear, rects, rows, cols, res, ox, oy, oyaw, rc, kind, radius, pstart,
                pcount, vstart, vcount, vx, vy, sa, sb, out):
    """Exact ranges (no noise, unclipped: ``range_max`` = no return) of every robot's sensor.

    The grid cast (:func:`robomaze.traffic._cast.scan_rows_jump`) first, then
    each other body within reach, intersected exactly, only on the beams
    its bounding circle can cover. ``sensor_id[i]`` indexes the sensor rows
    ``mounts, cos_b, sin_b, range_min, range_max`` (beams of one sensor
    count per world: ``out (n_robots, n_beams)``).
    """
    n = pose.shape[0]
    nb = out.shape[1]
    shared = True
    for i in range(n_robots):
        if sensor_id[i] != sensor_id[0]:
            shared = False
    rows_ = np.empty((n_robots, 3))
    for i in range(n_robots):
        rows_[i, 0] = pose[i, 0]
        rows_[i, 1] = pose[i, 1]
        rows_[i, 2] = pose[i, 2]
    if shared and n_robots > 0:
        # one sensor model for all: one call of the grid caster for every robot
        s = sensor_id[0]
        scan_rows_jump(occ, clear, rects, rows, cols, res, ox, oy, oyaw, rows_, mounts[s], cos_b[s],
                       sin_b[s], range_max[s], out)
    else:
        for i in range(n_robots):
            s = sensor_id[i]
            scan_rows_jump(occ, clear, rects, rows, cols, res, ox, oy, oyaw, rows_[i:i + 1], mounts[s],
                           cos_b[s], sin_b[s], range_max[s], out[i:i + 1])
    for i in range(n_robots):
        s = sensor_id[i]
        ct = math.cos(pose[i, 2])
        st = math.sin(pose[i, 2])
        mx = mounts[s, 0]
        my = mounts[s, 1]
        sx = pose[i, 0] + ct * mx - st * my
        sy = pose[i, 1] + st * mx + ct * my
        base = pose[i, 2] + mounts[s, 2]
        inc = 0.0
        if nb > 1:
            inc = math.atan2(sin_b[s, 1] * cos_b[s, 0] - cos_b[s, 1] * sin_b[s, 0],
                             cos_b[s, 1] * cos_b[s, 0] + sin_b[s, 1] * sin_b[s, 0])
        full = nb > 1 and abs(nb * inc - 2.0 * math.pi) < 1e-9
        inv_inc = 1.0 / inc if inc > 0.0 else 0.0
        rmax = range_max[s]
        cb = math.cos(base)
        sb_ = math.sin(base)
        # the first beam's world direction: bodies' bearings are measured from it
        c0 = cb * cos_b[s, 0] - sb_ * sin_b[s, 0]
        s0 = sb_ * cos_b[s, 0] + cb * sin_b[s, 0]
        # no body beyond the farthest grid return can show on any beam
        far = 0.0
        for b in range(nb):
            if out[i, b] > far:
                far = out[i, b]
        for j in range(n):
            if j == i:
                continue
            dx = pose[j, 0] - sx
            dy = pose[j, 1] - sy
            d = math.sqrt(dx * dx + dy * dy)
            if d - rc[j] >= rmax or d - rc[j] >= far:
                continue
            # beams lo..hi (modulo nb when wrap), and lo2..hi2 (a field of view
            # short of a full turn: the bearing's other representative)
            lo = 0
            hi = nb - 1
            lo2 = 0
            hi2 = -1
            wrap = False
            if d > rc[j] * (1.0 + 1e-6) and inc > 0.0:
                # the beams the bounding circle can cover, by a bearing good to
                # _ATAN_ERR and a half-angle tan(asin(x)) >= asin(x): a range of
                # beams a little too wide at worst, each tested exactly below
                u = dx * c0 + dy * s0
                v = dy * c0 - dx * s0
                centre = _fast_atan2(v, u)
                if centre < 0.0:
                    centre += 2.0 * math.pi
                x = rc[j] / d
                half = x / math.sqrt(1.0 - x * x) + _ATAN_ERR
                lo = math.floor((centre - half) * inv_inc)
                hi = math.ceil((centre + half) * inv_inc)
                if full:
                    wrap = hi - lo < nb
                    if not wrap:
                        lo = 0
                        hi = nb - 1
                else:
                    lo2 = math.floor((centre - 2.0 * math.pi - half) * inv_inc)
                    hi2 = math.ceil((centre - 2.0 * math.pi + half) * inv_inc)
                    lo = max(lo, 0)
                    hi = min(hi, nb - 1)
                    lo2 = max(lo2, 0)
                    hi2 = min(hi2, nb - 1)
                    if hi >= lo and hi2 >= lo2 and lo2 <= hi and hi2 >= lo:
                        # overlapping: one range
                        lo = min(lo, lo2)
                        hi = max(hi, hi2)
                        hi2 = -1
            near = d - rc[j]
            disc = kind[j] == 0
            c_disc = dx * dx + dy * dy - radius[j] * radius[j]
            m1 = hi - lo + 1 if hi >= lo else 0
            m2 = hi2 - lo2 + 1 if hi2 >= lo2 else 0
            for q in range(m1 + m2):
                if q < m1:
                    b = lo + q
                    # wrap: hi - lo < nb, so one turn at most either way (no modulo)
                    if b < 0:
                        b += nb
                    elif b >= nb:
                        b -= nb
                else:
                    b = lo2 + q - m1
                if out[i, b] <= near:
                    continue
                ca = cos_b[s, b]
                sa_ = sin_b[s, b]
                rx = cb * ca - sb_ * sa_
                ry = sb_ * ca + cb * sa_
                if disc:
                    # ray_disc inline: most bodies are discs, and a call per beam
                    # passing every body array costs more than the test itself
                    t = 0.0
                    if c_disc > 0.0:
                        bb = dx * rx + dy * ry
                        if bb <= 0.0:
                            continue
                        h = bb * bb - c_disc
                        if h < 0.0:
                            continue
                        t = bb - math.sqrt(h)
                else:
                    t = ray_body(j, sx, sy, rx, ry, pose[j, 0], pose[j, 1], pose[j, 2], kind,
                                 radius, pstart, pcount, vstart, vcount, vx, vy, sa, sb)
                if t < out[i, b]:
                    out[i, b] = t if t < rmax else rmax


@njit(cache=True)
def measure_world(pose, vel, n_robots, occ, clear, rows, cols, res, ox, oy, rc, kind, radius,
                  pstart, pcount, vstart, vcount, vx, vy, sa, sb, sc, sd, clear_wall,
                  clear_robot, clear_obst, ttc):
    """Lower the running minima of every robot: clearance to walls, robots, obstacles; TTC.

    Clearances are exact body distances. Walls: the clearance field ``clear``
    (cells, from cell centres) bounds the reference point's distance to the
    walls within half a cell diagonal; when even the upper bound leaves the
    minimum as it is, nothing is searched, else every occupied square within
    that bound plus the body's reach is measured exactly.
    Time to collision is of the circumscribed discs moving on at their
    current world velocities (``inf`` when they never meet).
    """
    n = pose.shape[0]
    for i in range(n_robots):
        x = pose[i, 0]
        y = pose[i, 1]
        c0 = math.floor((x - ox) / res)
        r0 = rows - 1 - math.floor((y - oy) / res)
        cr = -1
        if 0 <= r0 < rows and 0 <= c0 < cols:
            cf = clear[r0 * cols + c0]
            if (cf - 0.7072) * res - rc[i] < clear_wall[i]:
                cr = math.ceil(cf + 0.7072 + rc[i] / res) + 1
        else:
            clear_wall[i] = 0.0
        for r in range(r0 - cr, r0 + cr + 1):
            for c in range(c0 - cr, c0 + cr + 1):
                if 0 <= r < rows and 0 <= c < cols and occ[r * cols + c] == 0:
                    continue
                bx0 = ox + c * res
                by0 = oy + (rows - 1 - r) * res
                # cheap reject by the reference point's distance
                nx = min(max(x, bx0), bx0 + res)
                ny = min(max(y, by0), by0 + res)
                if math.sqrt((x - nx) ** 2 + (y - ny) ** 2) - rc[i] >= clear_wall[i]:
                    continue
                d = box_body(i, x, y, pose[i, 2], bx0, by0, bx0 + res, by0 + res, kind, radius,
                             pstart, pcount, vstart, vcount, vx, vy, sa, sb, sc, sd)
                if d < clear_wall[i]:
                    clear_wall[i] = d
        for j in range(n):
            if j == i:
                continue
            dx = pose[j, 0] - x
            dy = pose[j, 1] - y
            dc = math.sqrt(dx * dx + dy * dy)
            near = clear_robot[i] if j < n_robots else clear_obst[i]
            if dc - rc[i] - rc[j] < near:
                d = body_distance(i, x, y, pose[i, 2], j, pose[j, 0], pose[j, 1], pose[j, 2],
                                  kind, radius, pstart, pcount, vstart, vcount, vx, vy, sa, sb,
                                  sc, sd)
                if j < n_robots:
                    if d < clear_robot[i]:
                        clear_robot[i] = d
                elif d < clear_obst[i]:
                    clear_obst[i] = d
            t = disc_ttc(x, y, vel[i, 0], vel[i, 1], pose[j, 0], pose[j, 1], vel[j, 0],
                         vel[j, 1], rc[i] + rc[j])
            if t < ttc[i]:
                ttc[i] = t


@njit(cache=True)
def disc_ttc(x1, y1, vx1, vy1, x2, y2, vx2, vy2, r):
    """Time until two discs with radii summing to ``r`` touch at constant velocities.

    0 when they already touch, ``inf`` when they never do.
    """
    px = x2 - x1
    py = y2 - y1
    vx = vx2 - vx1
    vy = vy2 - vy1
    c = px * px + py * py - r * r
    if c <= 0.0:
        return 0.0
    b = px * vx + py * vy
    if b >= 0.0:
        return math.inf
    a = vx * vx + vy * vy
    disc = b * b - a * c
    if disc < 0.0:
        return math.inf
    return (-b - math.sqrt(disc)) / a


@njit(cache=True)
def advance(pose, twist, vel, dt, n_robots, mode, command, pref_in, fields, field_id, lookahead,
            goal, goal_radius, kin, orca_on, orca_radius, reactive, neighbor_dist,
            max_neighbors, time_horizon, time_horizon_obst, oex, oey, onext, oprev, odx, ody,
            oconv, otree, bias, progress, pref, new_vel, behaviour, speed, wp, wp_start, wp_count,
            wp_next, noise, ped, occ, clear, rows, cols, res, ox, oy, rc, kind, radius, pstart,
            pcount, vstart, vcount, vx, vy, wall_args, wall_check, w_r_in, w_r_out, w_disc, wpx,
            wpy, wps, wpc, wpr, wstart, wcount, pa, pb, step_len, contact, hits, frac, length,
            clear_wall, clear_robot, clear_obst, ttc, measure, sense, sensor_id, mounts, cos_b,
            sin_b, range_min, range_max, rects, scan_out, sa, sb, sc, sd):
    """One whole step of every body in one compiled call (see the module docstring).

    Obstacle twists, robot twists (controller, ORCA, limits), the motion with
    its contact stops, world velocities, the metres driven, then (flags) the
    safety minima and every robot's exact scan at the new poses.
    """
    n = pose.shape[0]
    obstacle_twists(pose, twist, n_robots, behaviour, speed, wp, wp_start, wp_count, wp_next,
                    noise, dt, rc, occ, rows, cols, res, ox, oy, ped, vel)
    robot_twists(pose, twist, vel, n_robots, mode, command, pref_in, fields, field_id, rows,
                 cols, res, ox, oy, lookahead, goal, goal_radius, kin, orca_on, orca_radius,
                 reactive, neighbor_dist, max_neighbors, time_horizon, time_horizon_obst, oex,
                 oey, onext, oprev, odx, ody, oconv, otree, dt, 2.0 * dt, bias, progress, pref,
                 new_vel)
    moving = np.ones(n, np.bool_)
    move_bodies(pose, twist, dt, n_robots, rc, moving, kind, radius, pstart, pcount, vstart,
                vcount, vx, vy, wall_args, wall_check, w_r_in, w_r_out, w_disc, wpx, wpy, wps,
                wpc, wpr, wstart, wcount, pa, pb, step_len, contact, hits, frac, sa, sb, sc, sd)
    for i in range(n_robots):
        length[i] += math.sqrt(twist[i, 0] ** 2 + twist[i, 1] ** 2) * frac[i] * dt
    for i in range(n):
        if frac[i] < 1.0:
            twist[i, 0] = 0.0
            twist[i, 1] = 0.0
            twist[i, 2] = 0.0
    world_velocity(pose, twist, vel)
    if measure:
        measure_world(pose, vel, n_robots, occ, clear, rows, cols, res, ox, oy, rc, kind,
                      radius, pstart, pcount, vstart, vcount, vx, vy, sa, sb, sc, sd,
                      clear_wall, clear_robot, clear_obst, ttc)
    if sense:
        sense_world(pose, n_robots, sensor_id, mounts, cos_b, sin_b, range_min, range_max, occ,
                    clear, rects, rows, cols, res, ox, oy, 0.0, rc, kind, radius, pstart,
                    pcount, vstart, vcount, vx, vy, sa, sb, scan_out)


@njit(cache=True)
def distances_to_go(fields, field_id, pose, n_robots, rows, cols, res, ox, oy, out):
    """Every robot's goal-field value (metres along the maze; inf off the field)."""
    for i in range(n_robots):
        _, _, val = follow_target(fields[field_id[i]], rows, cols, res, ox, oy, pose[i, 0],
                                  pose[i, 1], 0)
        out[i] = val * res
