"""The batched simulator step: N unicycle robots in one grid, one numba call.

Each robot does exactly what :meth:`robomaze.sim.SimEnv.step` does in
Python -- the same kinematic limits, exact-arc integration, refused motion
on a collision, goal test, rewards and truncation, written out in the same
floating-point order -- then builds the observation of
:class:`robomaze.envs.gym_env.MazeEnv` through the shared kernels, so a
batch and N single envs give bit-identical results.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .._compile.kernels import inner
from ..sense.raycast import scan_into
from ..geometry.validity import motion_hits
from ._obs_kernels import finite_scan, goal_vector, scale_command

_TWO_PI = 2.0 * math.pi


@njit(cache=True, inline="always")
def _clip(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


@inner
def _in_goal(x, y, gkind, gx, gy, gr, blk, res, rows, ox, oy, oyaw, cyaw, syaw):
    if gkind == 0:
        return math.hypot(x - gx, y - gy) <= gr
    dx = x - ox
    dy = y - oy
    if oyaw == 0.0:
        a = dx / res
        b = rows - dy / res
    else:
        a = (cyaw * dx + syaw * dy) / res
        b = rows - (-syaw * dx + cyaw * dy) / res
    return blk[2] <= a <= blk[3] and blk[0] <= b <= blk[1]


@njit(cache=True)
def _observe(i, occ, rows, cols, res, ox, oy, oyaw, x, y, th, v, w, col, gx, gy,
             mount, cos_b, sin_b, range_min, range_max, scratch, scan_out, odom_out,
             goal_out, col_out):
    if scan_out.shape[1] > 0:
        scan_into(occ, rows, cols, res, ox, oy, oyaw, x, y, th, mount, cos_b, sin_b,
                  range_min, range_max, scratch)
        finite_scan(scratch, range_max, scan_out[i])
    odom_out[i, 0] = x
    odom_out[i, 1] = y
    odom_out[i, 2] = th
    odom_out[i, 3] = v
    odom_out[i, 4] = w
    goal_vector(x, y, th, gx, gy, goal_out[i])
    col_out[i, 0] = 1.0 if col else 0.0


@njit(cache=True)
def step_batch(actions, poses, vels, steps, prev_col, needs_reset,
               # the world, collision and sensor (see Collider.kernel_args)
               occ, clear, rows, cols, res, ox, oy, oyaw, cyaw, syaw,
               r_in, r_out, disc, px, py, starts, counts, pa, pb, step_len,
               mount, cos_b, sin_b, range_min, range_max,
               # kinematics, episode and goal
               v_min, v_max, omega_max, a_max, alpha_max, dt, max_steps, stop_on_collision,
               start, gkind, gx, gy, gr, blk,
               # outputs
               scan_out, odom_out, goal_out, col_out, rewards, terminated, truncated,
               reached_out):
    """Step every robot once (robots flagged in ``needs_reset`` are reset instead).

    Next-step autoreset as gymnasium's vector envs define it: a robot whose
    episode ended on the previous call is put back at ``start`` and returns
    its first observation with reward 0, its action ignored.
    """
    scratch = np.empty(cos_b.shape[0])
    da = a_max * dt
    dw = alpha_max * dt
    for i in range(poses.shape[0]):
        if needs_reset[i]:
            poses[i, 0] = start[0]
            poses[i, 1] = start[1]
            poses[i, 2] = start[2]
            vels[i, 0] = 0.0
            vels[i, 1] = 0.0
            steps[i] = 0
            prev_col[i] = False
            needs_reset[i] = False
            rewards[i] = 0.0
            terminated[i] = False
            truncated[i] = False
            reached_out[i] = False
            _observe(i, occ, rows, cols, res, ox, oy, oyaw, start[0], start[1], start[2],
                     0.0, 0.0, False, gx, gy, mount, cos_b, sin_b, range_min, range_max,
                     scratch, scan_out, odom_out, goal_out, col_out)
            continue
        cv, cw = scale_command(actions[i, 0], actions[i, 1], v_min, v_max, omega_max)
        v = _clip(_clip(cv, v_min, v_max), vels[i, 0] - da, vels[i, 0] + da)
        w = _clip(_clip(cw, -omega_max, omega_max), vels[i, 1] - dw, vels[i, 1] + dw)
        x0 = poses[i, 0]
        y0 = poses[i, 1]
        t0 = poses[i, 2]
        # Kinematics.integrate, term for term (vy = 0 for a unicycle).
        vx = v
        vy = 0.0
        c = math.cos(t0)
        s = math.sin(t0)
        if abs(w) < 1e-12:
            dx = vx * dt
            dy = vy * dt
        else:
            sw = math.sin(w * dt) / w
            cw1 = (1.0 - math.cos(w * dt)) / w
            dx = vx * sw - vy * cw1
            dy = vx * cw1 + vy * sw
        x1 = x0 + c * dx - s * dy
        y1 = y0 + s * dx + c * dy
        t1 = (t0 + w * dt + math.pi) % _TWO_PI - math.pi
        col = (motion_hits(occ, clear, rows, cols, res, ox, oy, cyaw, syaw, x0, y0, t0,
                           x1, y1, t1, r_in, r_out, disc, px, py, starts, counts, pa, pb,
                           step_len) & 1) != 0
        if col:
            x1 = x0
            y1 = y0
            t1 = t0
            v = 0.0
            w = 0.0
        poses[i, 0] = x1
        poses[i, 1] = y1
        poses[i, 2] = t1
        vels[i, 0] = v
        vels[i, 1] = w
        steps[i] += 1
        reward = -dt
        if col and not prev_col[i]:
            reward -= 1.0
        prev_col[i] = col
        reached = _in_goal(x1, y1, gkind, gx, gy, gr, blk, res, rows, ox, oy, oyaw, cyaw, syaw)
        term = reached or (col and stop_on_collision)
        if reached:
            reward += 10.0
        trunc = (not term) and steps[i] >= max_steps
        rewards[i] = reward
        terminated[i] = term
        truncated[i] = trunc
        reached_out[i] = reached
        needs_reset[i] = term or trunc
        _observe(i, occ, rows, cols, res, ox, oy, oyaw, x1, y1, t1, v, w, col, gx, gy,
                 mount, cos_b, sin_b, range_min, range_max, scratch, scan_out, odom_out,
                 goal_out, col_out)
