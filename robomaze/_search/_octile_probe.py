"""Octile fields on big grids whose sources lie in small components: flood first, search a box.

On a grid of many cells whose sources are walled into a few hundred cells
(random obstacles near the percolation threshold: at 45 % the centre's
component of a 4001^2 grid has 19 cells) the bucket ring of
:mod:`._octile` spends its time on whole-grid passes -- the padded mask,
the field's fill, the compaction -- not on the search. Here a flood from
the sources with a budget (a 4-connected flood: without corner cutting a
diagonal move needs both cells beside it free, so the 8-connected
components are the 4-connected ones) finds the component without touching
the grid beyond it; if it ends within the budget, the ring runs on the
component's bounding box alone and the field is one ``np.full`` plus the
box. If the flood runs over its budget, the caller takes the whole-grid
ring; the probe has cost at most ``budget`` cell visits.

Only grids of at least :data:`BIG` cells take this path, so small grids
never compile these kernels.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["BIG", "small_component_field"]

BIG = 1 << 20         # cells; below this the whole-grid passes cost under a millisecond
BUDGET = 1 << 14      # cells the flood may visit before the whole-grid ring takes over


@njit(cache=True)
def _flood(free, rows, cols, sources, budget, table, cells):
    """Cells of the 4-connected components of ``sources`` (flat, unpadded) into ``cells``.

    ``table`` is an open-addressing set (size a power of two, filled with
    -1). Returns the number of cells, or -1 once more than ``budget`` are
    found.
    """
    mask = table.shape[0] - 1
    m = 0
    for s in sources:
        if not free[s]:
            continue
        h = (s * 0x9E3779B1) & mask
        while table[h] != -1 and table[h] != s:
            h = (h + 1) & mask
        if table[h] == s:
            continue
        table[h] = s
        cells[m] = s
        m += 1
    i = 0
    while i < m:
        u = cells[i]
        i += 1
        r = u // cols
        c = u - r * cols
        for d in range(4):
            if d == 0:
                if r == 0:
                    continue
                v = u - cols
            elif d == 1:
                if c == cols - 1:
                    continue
                v = u + 1
            elif d == 2:
                if r == rows - 1:
                    continue
                v = u + cols
            else:
                if c == 0:
                    continue
                v = u - 1
            if not free[v]:
                continue
            h = (v * 0x9E3779B1) & mask
            while table[h] != -1 and table[h] != v:
                h = (h + 1) & mask
            if table[h] == v:
                continue
            if m == budget:
                return -1
            table[h] = v
            cells[m] = v
            m += 1
    return m


def small_component_field(free: np.ndarray, sources: np.ndarray):
    """The octile field of ``free`` (2-D bool) from flat ``sources``; None if it is big.

    None means the flood visited more than :data:`BUDGET` cells or the
    components' bounding box is much larger than they are; the caller then
    runs the whole-grid ring.

    >>> free = np.zeros((3, 4), bool); free[0, :2] = free[1, 1] = True
    >>> small_component_field(free, np.array([0]))     # no corner cutting: 2, not 1.414
    array([[ 0.,  1., inf, inf],
           [inf,  2., inf, inf],
           [inf, inf, inf, inf]])
    """
    from . import _padded
    from ._octile import octile_field

    rows, cols = free.shape
    flat = free.reshape(-1)
    table = np.full(1 << (4 * BUDGET - 1).bit_length(), -1, np.int64)   # a power of two
    cells = np.empty(BUDGET, np.int64)
    m = _flood(flat, rows, cols, np.asarray(sources, np.int64), BUDGET, table, cells)
    if m < 0:
        return None
    out = np.full(rows * cols, np.inf)
    if m == 0:
        return out.reshape(rows, cols)
    cells = cells[:m]
    r, c = np.divmod(cells, cols)
    r0, c0 = int(r.min()), int(c.min())
    h, w = int(r.max()) - r0 + 1, int(c.max()) - c0 + 1
    if h * w > 64 * BUDGET:
        return None
    box = np.zeros((h, w), bool)
    box[r - r0, c - c0] = True
    src = np.asarray(sources, np.int64)
    src = src[flat[src] != 0]
    sr, sc = np.divmod(src, cols)
    g = octile_field(_padded(box, h, w), w, (sr - r0 + 1) * (w + 2) + (sc - c0 + 1))
    g = g.reshape(h + 2, w + 2)[1:-1, 1:-1]
    out = out.reshape(rows, cols)
    out[r0:r0 + h, c0:c0 + w] = g       # the box's other cells are inf in g too
    return out
