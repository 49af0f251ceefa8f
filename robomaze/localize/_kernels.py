"""numba kernels of the localisers: motion sampling, beam likelihoods, scan matching.

Random numbers are drawn by the callers (numpy Generators) and passed in,
so the kernels hold no random state. On a cold start each kernel, each
numba overload (``min``, ``int``, ``np.zeros`` ...) and each entry point
compiles (issue 22): helpers have no Python entry point
(:mod:`robomaze._compile.kernels`), buffers come from the callers, and conditionals
stand in for ``min``. Map lookups go through a *field*: a
2-D float64 array over the map frame at ``sres`` metres per sample, row 0
north, indexed by the map-frame position ``(lx, ly)`` of a world point
(``lx = cos(yaw) dx + sin(yaw) dy`` etc., as :meth:`robomaze.grid.Frame.local`).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .._compile.kernels import inner


@inner
def angle_diff(a, b):
    """``a - b`` wrapped to ``[-pi, pi)``."""
    d = a - b
    return (d + math.pi) % (2.0 * math.pi) - math.pi


@inner
def _smaller(a, b):
    """``min(a, b)`` of two floats that are not NaN (numba's ``min`` is an overload)."""
    return b if b < a else a


@njit(cache=True)
def sample_odometry(particles, x0, y0, th0, x1, y1, th1, a1, a2, a3, a4, normals):
    """Move every particle by the odometry step ``(x0, y0, th0) -> (x1, y1, th1)`` in place.

    sample_motion_model_odometry (Probabilistic Robotics, table 5.6) in the
    form of Nav2 AMCL's differential model: the step is split into a turn,
    a straight move and a turn, each perturbed by a zero-mean Gaussian
    whose variance mixes the squared rotations and translation with the
    four alphas; ``normals`` holds ``(n, 3)`` standard normal draws.
    Rotations near pi count as backward moves (their noise uses the
    smaller of the angle and its supplement), and a step shorter than 1 cm
    has no first turn, as in Nav2.
    """
    dx, dy = x1 - x0, y1 - y0
    trans = math.sqrt(dx * dx + dy * dy)
    rot1 = 0.0 if trans < 0.01 else angle_diff(math.atan2(dy, dx), th0)
    rot2 = angle_diff(angle_diff(th1, th0), rot1)
    r1n = _smaller(abs(angle_diff(rot1, 0.0)), abs(angle_diff(rot1, math.pi)))
    r2n = _smaller(abs(angle_diff(rot2, 0.0)), abs(angle_diff(rot2, math.pi)))
    s1 = math.sqrt(a1 * r1n * r1n + a2 * trans * trans)
    st = math.sqrt(a3 * trans * trans + a4 * r1n * r1n + a4 * r2n * r2n)
    s2 = math.sqrt(a1 * r2n * r2n + a2 * trans * trans)
    for i in range(particles.shape[0]):
        r1h = angle_diff(rot1, s1 * normals[i, 0])
        th = trans - st * normals[i, 1]
        r2h = angle_diff(rot2, s2 * normals[i, 2])
        h = particles[i, 2]
        particles[i, 0] += th * math.cos(h + r1h)
        particles[i, 1] += th * math.sin(h + r1h)
        particles[i, 2] = angle_diff(h + r1h + r2h, 0.0)


@inner
def _lookup(field, sres, ox, oy, cy, sy, wx, wy, far):
    dx, dy = wx - ox, wy - oy
    lx = cy * dx + sy * dy
    ly = -sy * dx + cy * dy
    nr, nc = field.shape
    fc = math.floor(lx / sres)
    fr = nr - 1 - math.floor(ly / sres)
    if fc < 0 or fc >= nc or fr < 0 or fr >= nr:
        return far
    return field[fr, fc]


@njit(cache=True)
def likelihood_weights(particles, table, sres, ox, oy, yaw, far, mount, cos_b, sin_b, ranges,
                       range_min, range_max, out):
    """Nav2 AMCL's likelihood-field weight of each particle into ``out``.

    Each usable beam (finite, below ``range_max``, above ``range_min``: a
    reading of exactly ``range_min`` is a wall closer than the sensor can
    measure, clipped, so its end point is wrong) ends at a point whose term ``pz^3`` is read from ``table`` (``far`` off
    the map), where ``pz = z_hit exp(-z^2 / 2 sigma^2) + z_rand /
    range_max`` and ``z`` is the distance to the nearest wall
    (:meth:`robomaze.localize.field.LikelihoodField.beam_table` computes
    it once per map, so no ``exp`` runs per beam); the weight is ``1 +
    sum(pz^3)`` -- Nav2's ad-hoc combination, much less overconfident than
    the product of the beams when the beams are not independent.
    """
    cy, sy = math.cos(yaw), math.sin(yaw)
    mx, my, mth = mount[0], mount[1], mount[2]
    nr, nc = table.shape
    for i in range(particles.shape[0]):
        x, y, th = particles[i, 0], particles[i, 1], particles[i, 2]
        c, s = math.cos(th), math.sin(th)
        sx = x + c * mx - s * my
        sy_ = y + s * mx + c * my
        cs, ss = math.cos(th + mth), math.sin(th + mth)
        p = 1.0
        for j in range(ranges.shape[0]):
            r = ranges[j]
            if not (r < range_max) or r <= range_min:
                continue
            ex = sx + r * (cs * cos_b[j] - ss * sin_b[j]) - ox
            ey = sy_ + r * (ss * cos_b[j] + cs * sin_b[j]) - oy
            lx = cy * ex + sy * ey
            ly = -sy * ex + cy * ey
            fc = math.floor(lx / sres)
            fr = nr - 1 - math.floor(ly / sres)
            if fc < 0 or fc >= nc or fr < 0 or fr >= nr:
                p += far
            else:
                p += table[fr, fc]        # math.floor gave ints: no int() to compile
        out[i] = p


@njit(cache=True)
def match_scan(table, sres, ox, oy, yaw, far, x, y, th, mount, cos_b, sin_b, ranges, range_min,
               range_max, lin_window, lin_step, ang_window, ang_step, prior):
    """Correlative scan matching: the best pose in a window around ``(x, y, th)``.

    Every pose ``(x + i lin_step, y + j lin_step, th + k ang_step)`` with
    ``|i lin_step| <= lin_window`` and ``|k ang_step| <= ang_window`` is
    scored by the sum over the usable beams' end points of ``table`` (a
    field of ``exp(-z^2 / 2 sigma^2)``, ``z`` the distance to the nearest
    wall of the map; ``far`` off the map) minus ``prior`` times the squared
    offset in steps, which breaks ties towards the prediction. Returns
    ``(x, y, th, score, n_beams_used)``.
    """
    cy, sy = math.cos(yaw), math.sin(yaw)
    nl = int(math.floor(lin_window / lin_step + 1e-9))
    na = int(math.floor(ang_window / ang_step + 1e-9)) if ang_step > 0 else 0
    nb = ranges.shape[0]
    ex = np.empty(nb)
    ey = np.empty(nb)
    used = 0
    for j in range(nb):
        r = ranges[j]
        if r < range_max and r > range_min:
            used += 1
    best = -1e300
    bx, by, bt = x, y, th
    mx, my, mth = mount[0], mount[1], mount[2]
    for k in range(-na, na + 1):
        t = th + k * ang_step
        c, s = math.cos(t), math.sin(t)
        sx = x + c * mx - s * my
        sy_ = y + s * mx + c * my
        cs, ss = math.cos(t + mth), math.sin(t + mth)
        for j in range(nb):
            r = ranges[j]
            if r < range_max and r > range_min:
                ex[j] = sx + r * (cs * cos_b[j] - ss * sin_b[j])
                ey[j] = sy_ + r * (ss * cos_b[j] + cs * sin_b[j])
        for a in range(-nl, nl + 1):
            for b in range(-nl, nl + 1):
                ox_, oy_ = a * lin_step, b * lin_step
                score = -prior * (a * a + b * b + k * k)
                for j in range(nb):
                    r = ranges[j]
                    if r < range_max and r > range_min:
                        score += _lookup(table, sres, ox, oy, cy, sy, ex[j] + ox_,
                                         ey[j] + oy_, far)
                if score > best:
                    best = score
                    bx, by, bt = x + ox_, y + oy_, t
    return bx, by, angle_diff(bt, 0.0), best, used


@njit(cache=True)
def kld_cut(keys, seen, n_min, epsilon, z):
    """The first ``m`` with ``m >= max(n_min, KLD bound of the bins among keys[:m])``.

    ``keys`` are dense bin indices in ``[0, len(seen))``, in sampling order;
    ``seen`` is an all-False bool array (scratch, allocated by the caller:
    ``np.zeros`` in a kernel compiles numba's implementation on a cold
    start); ``len(keys)`` when no prefix is enough.
    """
    k = 0
    for m in range(1, keys.shape[0] + 1):
        key = keys[m - 1]
        if not seen[key]:
            seen[key] = True
            k += 1
        need = 0.0
        if k > 1:
            a = 2.0 / (9.0 * (k - 1))
            t = 1.0 - a + math.sqrt(a) * z
            need = (k - 1) / (2.0 * epsilon) * t * t * t
        if m >= n_min and m >= need:
            return m
    return keys.shape[0]
