"""JPS+: jump point search with the jumps precomputed per cell and direction.

The search of :mod:`robomaze._search._jps` (8-connected, no corner
cutting, octile lengths) spends its time in the jumps: a straight jump reads
the cells along a line until an obstacle or a forced neighbour, a diagonal
one runs two straight jumps from every cell of the diagonal. On a static
grid queried many times those scans repeat; JPS+ (Harabor and Grastien,
"Improving jump point search", ICAPS 2014; Rabin's "JPS+" in Game AI Pro 2)
stores, for every padded cell ``x`` and each of the eight directions ``k``,
the signed distance ``T[8 x + k]``:

* ``T > 0``: the jump from ``x`` along ``k`` (goal aside) stops ``T`` moves
  away, at a jump point;
* ``T <= 0``: it finds none; ``-T`` free cells follow before the move is
  illegal (an obstacle, or for a diagonal a corner it may not cut).

A straight table follows the scan's rule cell for cell (``_jump_straight``:
``n`` is a jump point seen from ``x`` when a cell beside ``n`` is free and
the one beside ``x`` on that side is blocked), so it is one sweep per
direction: ``T[x] = 0`` if the next cell is blocked, ``1`` if it is a jump
point, else ``T[next]`` one further. A diagonal cell is a jump point when
one of its two straight tables along the diagonal's components is positive
(``_jump_diag``), the same recurrence. Two sweeps (rows down, then up) fill
all eight directions.

The goal is not in the tables: a query checks it per jump, exactly as the
scans do. A straight jump reaches the goal when the goal lies on its line
within ``|T|`` moves; a diagonal one stops early at move ``k`` when the
goal is on the diagonal, or in the row (column) of the ``k``-th cell and
within that cell's straight reach along the diagonal's column (row)
component -- the only two moves where a scan can meet the goal. So every
jump returns the cell the scan returns, successors come in the same order
with the same ``g`` and keys, and the search expands the same jump points
and returns the **same path** as :func:`robomaze._search._jps.jps` (tests
compare them cell for cell), in O(1) per jump.

Tables are ``int16`` while every distance fits (``max(rows, cols) + 2 <
32767``: 16 bytes per padded cell, 245 MB at 4001^2), else ``int32``. (A
32-byte slot holding a query's ``g``/``mark``/``parent`` beside each
cell's distances was measured and dropped: 7% slower queries on the
corridor-1 maze at 4001^2 and a 4.5x dearer build.) Who builds them when,
and how many are kept, is :mod:`._jps_tables`.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .._compile.kernels import prefetch
from ._heap import heap_grow
from ._jps_heap import pop as heap_pop2, push as heap_push2
from ._jps import _h   # the octile bound on padded indices, as plain JPS uses it

SQRT2 = math.sqrt(2.0)

# direction k: 0 E, 1 W, 2 S, 3 N, 4 SE, 5 SW, 6 NE, 7 NW;
# index (row sign + 1) * 3 + (column sign + 1) -> k
_K = np.array([7, 3, 6, 1, -1, 0, 5, 2, 4], np.int64)
# the query's successor directions as (row sign, column sign): the start's
# eight, in the order of ``_jps.jps``
_START_R = np.array([-1, 1, 0, 0, -1, -1, 1, 1], np.int64)
_START_C = np.array([0, 0, -1, 1, -1, 1, -1, 1], np.int64)


def table_dtype(rows: int, cols: int):
    """The smallest exact table dtype: int16 while every distance fits, else int32.

    >>> table_dtype(4001, 4001).__name__, table_dtype(40000, 3).__name__
    ('int16', 'int32')
    """
    return np.int16 if max(rows, cols) + 2 < 32767 else np.int32


def table_nbytes(rows: int, cols: int) -> int:
    """Bytes of the tables of a ``rows x cols`` grid (8 entries per padded cell).

    >>> table_nbytes(4001, 4001) // 2**20
    244
    """
    return 8 * (rows + 2) * (cols + 2) * np.dtype(table_dtype(rows, cols)).itemsize


@njit(cache=True, inline="always")
def _on(s, forced):
    """The next recurrence value: 1 at a jump point, else ``s`` one move further."""
    if forced:
        return 1
    return s + 1 if s > 0 else s - 1


@njit(cache=True)
def build_tables(fp, rows, cols, t):
    """Write the jump distances of the padded mask ``fp`` into ``t`` (``8 * len(fp)`` zeros).

    Cell ``x``'s entries are ``t[8 * x : 8 * x + 8]``; those of blocked
    cells and of illegal first moves stay 0.
    """
    pc = cols + 2
    # rows down: E, W (within the row), N, NE, NW (from the row above)
    for r in range(1, rows + 1):
        row = r * pc
        for c in range(cols, 0, -1):                      # E: from the right end
            x = row + c
            if fp[x]:
                nx = x + 1
                if fp[nx]:
                    forced = ((fp[nx + pc] and not fp[x + pc])
                              or (fp[nx - pc] and not fp[x - pc]))
                    t[8 * x] = _on(t[8 * nx], forced)
        for c in range(1, cols + 1):                      # W: from the left end
            x = row + c
            if fp[x]:
                nx = x - 1
                if fp[nx]:
                    forced = ((fp[nx + pc] and not fp[x + pc])
                              or (fp[nx - pc] and not fp[x - pc]))
                    t[8 * x + 1] = _on(t[8 * nx + 1], forced)
        for c in range(1, cols + 1):
            x = row + c
            if not fp[x]:
                continue
            nx = x - pc                                   # N
            if fp[nx]:
                forced = (fp[nx + 1] and not fp[x + 1]) or (fp[nx - 1] and not fp[x - 1])
                t[8 * x + 3] = _on(t[8 * nx + 3], forced)
            if fp[x - pc] and fp[x + 1] and fp[x - pc + 1]:   # NE: components N (3), E (0)
                nx = x - pc + 1
                t[8 * x + 6] = _on(t[8 * nx + 6], t[8 * nx] > 0 or t[8 * nx + 3] > 0)
            if fp[x - pc] and fp[x - 1] and fp[x - pc - 1]:   # NW: N (3), W (1)
                nx = x - pc - 1
                t[8 * x + 7] = _on(t[8 * nx + 7], t[8 * nx + 1] > 0 or t[8 * nx + 3] > 0)
    # rows up: S, SE, SW (from the row below, whose E and W are done)
    for r in range(rows, 0, -1):
        row = r * pc
        for c in range(1, cols + 1):
            x = row + c
            if not fp[x]:
                continue
            nx = x + pc                                   # S
            if fp[nx]:
                forced = (fp[nx + 1] and not fp[x + 1]) or (fp[nx - 1] and not fp[x - 1])
                t[8 * x + 2] = _on(t[8 * nx + 2], forced)
            if fp[x + pc] and fp[x + 1] and fp[x + pc + 1]:   # SE: S (2), E (0)
                nx = x + pc + 1
                t[8 * x + 4] = _on(t[8 * nx + 4], t[8 * nx] > 0 or t[8 * nx + 2] > 0)
            if fp[x + pc] and fp[x - 1] and fp[x + pc - 1]:   # SW: S (2), W (1)
                nx = x + pc - 1
                t[8 * x + 5] = _on(t[8 * nx + 5], t[8 * nx + 1] > 0 or t[8 * nx + 2] > 0)
    return t


@njit(cache=True, inline="always")
def _h_rc(yr, yc, gr, gc):
    """``_h`` from rows and columns (the same arithmetic, so the same bits)."""
    dr = abs(yr - gr)
    dc = abs(yc - gc)
    if dr < dc:
        return (dc - dr) + SQRT2 * dr
    return (dr - dc) + SQRT2 * dc


@njit(cache=True, inline="always")
def _jump(t, x, xr, xc, sr, sc, pc, goal, gr, gc):
    """The scan's stop from ``x`` along ``(sr, sc)`` and its moves: ``(y, steps)``, y -1 if none."""
    k = _K[(sr + 1) * 3 + sc + 1]
    v = np.int64(t[8 * x + k])
    reach = v if v > 0 else -v
    if sr == 0 or sc == 0:
        if sr == 0:
            j = (gc - xc) * sc if gr == xr else 0
        else:
            j = (gr - xr) * sr if gc == xc else 0
        if j >= 1 and j <= reach:
            return goal, j
        if v > 0:
            return x + v * (sr * pc + sc), v
        return -1, 0
    step = sr * pc + sc
    best = v if v > 0 else reach + 1
    rd = (gr - xr) * sr                       # moves to the goal's row
    cd = (gc - xc) * sc                       # moves to the goal's column
    if rd >= 1 and rd < best:
        # in the goal's row: the goal on the diagonal, or ahead within the E/W reach
        jj = cd - rd
        if jj == 0:
            best = rd
        elif jj > 0:
            w = np.int64(t[8 * (x + rd * step) + (0 if sc > 0 else 1)])
            if jj <= (w if w > 0 else -w):
                best = rd
    if cd >= 1 and cd < best:
        jj = rd - cd
        if jj == 0:
            best = cd
        elif jj > 0:
            w = np.int64(t[8 * (x + cd * step) + (2 if sr > 0 else 3)])
            if jj <= (w if w > 0 else -w):
                best = cd
    if best <= reach:
        return x + best * step, best
    return -1, 0


@njit(cache=True)
def jps_plus(t, cols, start, goal, g, parent, mark, base, hk, hg, hn, lab, allowed, q):
    """JPS on the tables ``t`` of a padded grid; returns ``(reached, expanded, hk, hg, hn)``.

    Scratch as :func:`robomaze._search._jps.jps` (``mark`` above ``base``:
    open ``base + 1``, closed ``base + 2``); the same expansions, parents
    and result. ``lab``/``allowed``/``q``: None, or a jump point ``y`` is
    a successor only when ``allowed[lab[y]] == q`` (the stacks on the
    route, :mod:`._jps_stacks`; numba compiles that case apart).
    """
    pc = cols + 2
    opened = base + 1
    closed = base + 2
    gr = goal // pc
    gc = goal - gr * pc
    g[start] = 0.0
    parent[start] = -1
    mark[start] = opened
    size = heap_push2(hk, hn, 0, _h(start, goal, pc), start)
    expanded = 0
    drs = np.empty(8, np.int64)
    dcs = np.empty(8, np.int64)
    ys = np.empty(8, np.int64)
    ks = np.empty(8, np.int64)
    hs = np.empty(8, np.float64)
    while size > 0:
        x, size = heap_pop2(hk, hn, size)
        if size > 0:
            # the next pop is most likely the new top: start loading its cells
            nxt = np.int64(hn[0])
            prefetch(t, 8 * nxt)
            prefetch(g, nxt)
        if mark[x] == closed:                 # a stale entry: its node closed by a better one
            continue
        gx = g[x]
        mark[x] = closed
        expanded += 1
        if x == goal:
            return goal, expanded, hk, hg, hn
        xr = x // pc
        xc = x - xr * pc
        px = parent[x]
        if px < 0:
            for i in range(8):
                drs[i] = _START_R[i]
                dcs[i] = _START_C[i]
            nd = 8
        else:
            pr = px // pc
            a = 0 if xr == pr else (1 if xr > pr else -1)
            pcc = px - pr * pc
            b = 0 if xc == pcc else (1 if xc > pcc else -1)
            if a != 0 and b != 0:
                drs[0] = a
                dcs[0] = 0
                drs[1] = 0
                dcs[1] = b
                drs[2] = a
                dcs[2] = b
                nd = 3
            elif a != 0:                           # moving N/S: on, E, W, ahead-E, ahead-W
                drs[0] = a
                dcs[0] = 0
                drs[1] = 0
                dcs[1] = 1
                drs[2] = 0
                dcs[2] = -1
                drs[3] = a
                dcs[3] = 1
                drs[4] = a
                dcs[4] = -1
                nd = 5
            else:                                  # moving E/W: on, S, N, ahead-S, ahead-N
                drs[0] = 0
                dcs[0] = b
                drs[1] = 1
                dcs[1] = 0
                drs[2] = -1
                dcs[2] = 0
                drs[3] = 1
                dcs[3] = b
                drs[4] = -1
                dcs[4] = b
                nd = 5
        # all jumps first (one table line), then the relaxations, their
        # successors' scratch lines loading meanwhile
        m = 0
        for i in range(nd):
            y, steps = _jump(t, x, xr, xc, drs[i], dcs[i], pc, goal, gr, gc)
            if lab is not None and y >= 0 and allowed[lab[y]] != q:
                continue                         # off the route's stacks
            if y >= 0:
                prefetch(g, y)
                prefetch(t, 8 * y)      # y is often the very next pop (equal f, larger g)
                ys[m] = y
                ks[m] = steps if (drs[i] == 0 or dcs[i] == 0) else -steps
                hs[m] = _h_rc(xr + steps * drs[i], xc + steps * dcs[i], gr, gc)
                m += 1
        for i in range(m):
            y = ys[i]
            my = mark[y]
            if my == closed:
                continue
            steps = ks[i]
            gy = gx + (-steps * SQRT2 if steps < 0 else steps)
            if my < opened or gy < g[y]:
                g[y] = gy
                parent[y] = x
                mark[y] = opened
                if size == hk.shape[0]:
                    hk, hg, hn = heap_grow(hk, hg, hn)
                size = heap_push2(hk, hn, size, gy + hs[i], y)
    return -1, expanded, hk, hg, hn
