"""Numba kernels behind :mod:`robomaze.grid` (exact clearance field)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ._compile.kernels import noalloc


@njit(cache=True)
def column_gap(occ):
    """Per cell, |row distance| to the nearest occupied cell in its column.

    Returns a large value where a column holds no obstacle. (For Python
    callers; :func:`square_clearance` carries the same loop, so a first run
    compiles one kernel, not two.)
    """
    rows, cols = occ.shape
    out = np.empty(occ.shape, np.int64)
    big = 1 << 40
    for c in range(cols):
        last = -big
        for r in range(rows):
            if occ[r, c]:
                last = r
            out[r, c] = r - last
        last = big
        for r in range(rows - 1, -1, -1):
            if occ[r, c]:
                last = r
            d = last - r
            if d < out[r, c]:
                out[r, c] = d
    return out


@noalloc
def square_clearance(occ, gap, out):
    """Squared distance (cells) from each cell centre to the nearest occupied square, into ``out``.

    Distance to a unit square at integer offset (dx, dy) is
    ``hypot(max(|dx|-.5, 0), max(|dy|-.5, 0))`` which is separable in its
    square, so a column pass (nearest obstacle row per column) and a row
    pass with pruning give the exact value. ``gap`` (int64) and ``out``
    (float64), both of ``occ``'s shape, are the caller's: an array made here
    would compile numba's ``np.empty`` for this kernel (kernel style, rule 3),
    and with nothing allocated the kernel compiles without reference
    counting (``_nrt=False``).

    The squared distance from a cell centre to a cell ``d >= 0`` rows or
    columns away, to its nearest face, is ``(d - 0.5) ** 2`` (0 for
    ``d == 0``): written at its three uses, not a helper kernel (a compile
    of its own).
    """
    rows, cols = occ.shape
    # column_gap's loop, into gap: written here, as numba's inlining of a helper
    # costs more compile CPU than the loop
    big = 1 << 40
    for c in range(cols):
        last = -big
        for r in range(rows):
            if occ[r, c]:
                last = r
            gap[r, c] = r - last
        last = big
        for r in range(rows - 1, -1, -1):
            if occ[r, c]:
                last = r
            d = last - r
            if d < gap[r, c]:
                gap[r, c] = d
    for r in range(rows):
        for c in range(cols):
            if occ[r, c]:
                out[r, c] = 0.0
                continue
            best = np.inf
            # scan outward; stop once the column offset alone exceeds best
            for k in range(cols):
                x = k - 0.5
                fk = x * x if k != 0 else 0.0
                if fk >= best:
                    break
                cc = c - k
                if cc >= 0:
                    g = gap[r, cc]              # >= 0
                    x = g - 0.5
                    v = fk + (x * x if g != 0 else 0.0)
                    if v < best:
                        best = v
                cc = c + k
                if k > 0 and cc < cols:
                    g = gap[r, cc]
                    x = g - 0.5
                    v = fk + (x * x if g != 0 else 0.0)
                    if v < best:
                        best = v
                if c - k < 0 and c + k >= cols:
                    break
            out[r, c] = best
