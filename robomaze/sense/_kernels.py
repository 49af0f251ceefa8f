"""Numba kernels for exact ray casting on occupancy grids.

Geometry (cell units). A point is ``(a, b)``: ``a`` runs along the columns
(east) and ``b`` along the rows (south), so grid cell ``(r, c)`` is the
closed square ``[c, c+1] x [r, r+1]``. Everything outside ``[0, cols] x
[0, rows]`` counts as occupied, as in :meth:`OccupancyGrid.clearance`.

The range of a ray is the distance from its origin to the first point of
the ray that lies in the *closed* union of occupied squares (or on the grid
border). Consequences, all deliberate and all matching a shapely
``LineString.intersection`` reference:

* a ray that passes exactly through a grid vertex stops there if any of the
  four squares meeting at the vertex is occupied (so a beam never slips
  through the zero-width gap between diagonal neighbours);
* a ray running exactly along a grid line stops where the line first
  touches an occupied square on either side;
* a ray whose origin lies in (or on the boundary of) an occupied square, or
  outside the grid, has range 0.

The traversal is Amanatides & Woo (1987): one step per grid line crossed,
no fixed-step sampling. Vertex crossings are detected with a relative
tolerance of ``1e-9`` on the two crossing parameters; direction components
smaller than ``1e-12`` are treated as 0 (so ``sin(pi)`` runs along the axis).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .._compile.kernels import NOALLOC, inner, noalloc

# Kernels here that allocate nothing (their callers do: kernel style 3) are
# noalloc(no_cfunc_wrapper=True): no reference counting lowered and
# no C wrapper, which nothing calls (issue 40, round 12: benchmarks/README.md).
# error_model="numpy" where every division's divisor is nonzero: the grid's
# resolution (positive, checked by OccupancyGrid) and, in _axis_setup, a
# direction component tested nonzero first. numba's default (Python) model
# tests each divisor and lowers a ZeroDivisionError never raised (issue 40,
# round 13: benchmarks/README.md).
_TINY_DIR = 1e-12
_CORNER_TOL = 1e-9


@inner(**NOALLOC, error_model="numpy")   # see the note on error_model
def _axis_setup(p0, d, cell):
    """Amanatides-Woo set-up along one axis: (step, t of the first line crossing, t per cell)."""
    if d > 0.0:
        return 1, (cell + 1 - p0) / d, 1.0 / d
    if d < 0.0:
        return -1, (cell - p0) / d, -1.0 / d
    return 0, math.inf, math.inf


@inner(**NOALLOC)
def _origin_blocked(occ, rows, cols, a0, b0):
    """Whether the point ``(a0, b0)`` lies in a closed occupied square or off the grid."""
    if not (a0 > 0.0 and a0 < cols and b0 > 0.0 and b0 < rows):
        return True
    c = math.floor(a0)
    r = math.floor(b0)
    a_on = a0 == c
    b_on = b0 == r
    # the square itself and, on a grid line, those across it: one test site,
    # written out (a helper of its own was one more library to compile)
    for k in range(4):
        dr = k >> 1
        dc = k & 1
        if (dc == 1 and not a_on) or (dr == 1 and not b_on):
            continue
        rk = r - dr
        ck = c - dc
        if rk < 0 or rk >= rows or ck < 0 or ck >= cols or occ[rk * cols + ck] != 0:
            return True
    return False


@inner(**NOALLOC)
def cast_one(occ, rows, cols, a0, b0, da, db, tmax):
    """Distance (cells) along unit direction ``(da, db)`` to the first occupied point.

    Returns ``tmax`` when nothing is hit within ``tmax``.
    """
    if _origin_blocked(occ, rows, cols, a0, b0):
        return 0.0
    return _cast_free(occ, rows, cols, a0, b0, da, db, tmax)


@inner(**NOALLOC)
def _cast_free(occ, rows, cols, a0, b0, da, db, tmax):
    """:func:`cast_one` for an origin already known to be free (checked once per pose)."""
    if abs(da) < _TINY_DIR:
        da = 0.0
    if abs(db) < _TINY_DIR:
        db = 0.0
    c = math.floor(a0)
    r = math.floor(b0)
    a_on = a0 == c
    b_on = b0 == r
    if a_on and da < 0.0:
        c -= 1
    if b_on and db < 0.0:
        r -= 1
    # Moving exactly along a grid line: both squares beside the line count.
    along_a = a_on and da == 0.0
    along_b = b_on and db == 0.0
    sc, tma, tda = _axis_setup(a0, da, c)
    sr, tmb, tdb = _axis_setup(b0, db, r)
    # Each step tests the square entered (r1, c1) and, along a grid line or
    # through a vertex (``more``), the two squares beside it: one test site,
    # in order (occupied or off the grid: the ray stops at t).
    while True:
        diff = tma - tmb
        tol = _CORNER_TOL * (1.0 + (tmb if tmb < tma else tma))
        if diff < -tol:
            t = tma
            if t > tmax:
                return tmax
            c += sc
            tma += tda
            r1 = r
            c1 = c
            r2 = r - 1
            c2 = c
            r3 = r - 1
            c3 = c
            more = along_b
        elif diff > tol:
            t = tmb
            if t > tmax:
                return tmax
            r += sr
            tmb += tdb
            r1 = r
            c1 = c
            r2 = r
            c2 = c - 1
            r3 = r
            c3 = c - 1
            more = along_a
        else:
            # Through a vertex: the two side squares touch the ray there too.
            t = tmb if tmb < tma else tma
            if t > tmax:
                return tmax
            r1 = r
            c1 = c + sc
            r2 = r + sr
            c2 = c
            r3 = r + sr
            c3 = c + sc
            more = True
            c += sc
            r += sr
            tma += tda
            tmb += tdb
        for k in range(3 if more else 1):
            rk = r1 if k == 0 else (r2 if k == 1 else r3)
            ck = c1 if k == 0 else (c2 if k == 1 else c3)
            if rk < 0 or rk >= rows or ck < 0 or ck >= cols or occ[rk * cols + ck] != 0:
                return t


# The entry points robomaze.sense.raycast names for traffic's kernels. This
# module's kernels call the inner bodies: a scan compiles them without the
# CPython and C wrappers nobody here calls (round 8, benchmarks/README.md).
@noalloc(no_cfunc_wrapper=True)
def origin_blocked(occ, rows, cols, a0, b0):
    """Whether the point ``(a0, b0)`` lies in a closed occupied square or off the grid."""
    return _origin_blocked(occ, rows, cols, a0, b0)


@noalloc(no_cfunc_wrapper=True)
def cast_free(occ, rows, cols, a0, b0, da, db, tmax):
    """:func:`cast_one` for an origin already known to be free (checked once per pose)."""
    return _cast_free(occ, rows, cols, a0, b0, da, db, tmax)


@noalloc(no_cfunc_wrapper=True)
def cast_rays(occ, rows, cols, origins, dirs, tmax, out):
    """Cast ``n`` rays given in cell units: ``origins (n, 2)`` as ``(a, b)``, unit ``dirs (n, 2)``."""
    for i in range(origins.shape[0]):
        out[i] = cast_one(occ, rows, cols, origins[i, 0], origins[i, 1],
                          dirs[i, 0], dirs[i, 1], tmax)


@njit(cache=True, inline="always")
def _scan_pose(occ, rows, cols, res, ox, oy, oyaw, x, y, th, mount, cos_b, sin_b, range_min,
               range_max, finish, out):
    """The scan of one robot pose into ``out`` (see :func:`scan_rows`)."""
    ct = math.cos(th)
    st = math.sin(th)
    sx = x + ct * mount[0] - st * mount[1] - ox
    sy_ = y + st * mount[0] + ct * mount[1] - oy
    cy = math.cos(oyaw)
    sy = math.sin(oyaw)
    a0 = (cy * sx + sy * sy_) / res
    b0 = rows - (-sy * sx + cy * sy_) / res
    base = th + mount[2] - oyaw
    cb = math.cos(base)
    sb = math.sin(base)
    tmax = range_max / res
    blocked = _origin_blocked(occ, rows, cols, a0, b0)
    for j in range(cos_b.shape[0]):
        # cos/sin of base + beam angle by the addition formulas: no trig per beam.
        ca = cos_b[j]
        sa = sin_b[j]
        t = 0.0
        if not blocked:
            t = _cast_free(occ, rows, cols, a0, b0, cb * ca - sb * sa, -(sb * ca + cb * sa), tmax)
        if finish:
            if t >= tmax:
                out[j] = math.inf
            else:
                d = t * res
                out[j] = d if d > range_min else range_min
        else:
            # No return reads range_max exactly (t * res may round off it).
            out[j] = range_max if t >= tmax else t * res


@noalloc(no_cfunc_wrapper=True, error_model="numpy")   # see the note on error_model
def scan_rows(occ, rows, cols, res, ox, oy, oyaw, poses, mount, cos_b, sin_b, range_min,
              range_max, finish, out):
    """Noise-free scans of a sensor at ``mount`` on robots at world ``poses (n, 3)``.

    ``cos_b, sin_b`` are the cosines and sines of the beam angles (sensor
    frame); ``out`` has shape ``(n, len(cos_b))``. ``finish`` False: exact
    ranges in metres, ``range_max`` when nothing is hit within it, 0 from
    inside an obstacle. ``finish`` True: readings as
    :class:`robomaze.sense.RangeSensor` finishes them (REP 117): ``+inf``
    when nothing is hit within ``range_max``, at least ``range_min``
    otherwise. One kernel for both, and for one pose as for many.
    """
    for i in range(poses.shape[0]):
        _scan_pose(occ, rows, cols, res, ox, oy, oyaw, poses[i, 0], poses[i, 1], poses[i, 2],
                   mount, cos_b, sin_b, range_min, range_max, finish, out[i])


@noalloc(no_cfunc_wrapper=True, error_model="numpy")   # see the note on error_model
def scan_into(occ, rows, cols, res, ox, oy, oyaw, x, y, th, mount, cos_b, sin_b,
              range_min, range_max, out):
    """Noise-free finished scan of one robot pose into ``out``, for other numba kernels.

    Readings follow REP 117 as :class:`robomaze.sense.RangeSensor` finishes
    them: ``+inf`` when nothing is hit within ``range_max``, at least
    ``range_min`` otherwise (:func:`scan_rows` with ``finish``; Python
    callers use that one).
    """
    _scan_pose(occ, rows, cols, res, ox, oy, oyaw, x, y, th, mount, cos_b, sin_b, range_min,
               range_max, True, out)


@noalloc(no_cfunc_wrapper=True, error_model="numpy")   # see the note on error_model
def mark_scan(rows, cols, res, ox, oy, oyaw, x, y, th, beam_angles, ranges, range_max,
              marks_free, marks_hit):
    """Add the free/hit evidence of one scan (sensor pose ``x, y, th``) to a belief grid.

    Each beam of measured length ``rng_t`` (cells) is traced: every cell the
    ray enters before ``rng_t - 0.5`` gets a free mark. The hit mark goes to
    the cell entered at the grid-line crossing nearest to ``rng_t`` (within
    half a cell; otherwise the cell holding the reading's end point). An
    exact reading ends on the wall's face, so the wall cell is marked; small
    range noise snaps back to the same face instead of marking the free cell
    in front of it. Used by mapping agents on their own belief grids.
    """
    cy = math.cos(oyaw)
    sy = math.sin(oyaw)
    dx = x - ox
    dy = y - oy
    lx = cy * dx + sy * dy
    ly = -sy * dx + cy * dy
    a0 = lx / res
    b0 = rows - ly / res
    tmax = range_max / res
    if not (a0 >= 0.0 and a0 < cols and b0 >= 0.0 and b0 < rows):
        return
    for j in range(beam_angles.shape[0]):
        phi = th - oyaw + beam_angles[j]
        rr = ranges[j]
        # NaN and no-return readings carry no evidence: a lost echo and open
        # space look alike, and trusting a lost echo would erase walls.
        if not (rr == rr) or rr >= range_max:
            continue
        da = math.cos(phi)
        db = -math.sin(phi)
        rng_t = rr / res
        if abs(da) < _TINY_DIR:
            da = 0.0
        if abs(db) < _TINY_DIR:
            db = 0.0
        c = math.floor(a0)
        r = math.floor(b0)
        sc, tma, tda = _axis_setup(a0, da, c)
        sr, tmb, tdb = _axis_setup(b0, db, r)
        free_until = rng_t - 0.5
        hit = rng_t < tmax - 1e-6
        if free_until > 0.0:
            marks_free[r * cols + c] += 1
        best = 0.5
        best_u = -1
        while True:
            if tma < tmb:
                t = tma
                c += sc
                tma += tda
            else:
                t = tmb
                r += sr
                tmb += tdb
            if t > rng_t + 0.5:
                break
            if r < 0 or r >= rows or c < 0 or c >= cols:
                break
            u = r * cols + c
            if t < free_until:
                marks_free[u] += 1
            elif hit and abs(t - rng_t) < best:
                best = abs(t - rng_t)
                best_u = u
        if hit:
            if best_u < 0:
                hc = math.floor(a0 + rng_t * da)
                hr = math.floor(b0 + rng_t * db)
                if 0 <= hr < rows and 0 <= hc < cols:
                    best_u = hr * cols + hc
            if best_u >= 0:
                marks_hit[best_u] += 1


def as_flat_occ(occupied: np.ndarray) -> np.ndarray:
    """The C-contiguous flat uint8 view the kernels index (cached by callers)."""
    return np.ascontiguousarray(occupied, dtype=np.uint8).ravel()
