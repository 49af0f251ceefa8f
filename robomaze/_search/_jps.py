"""Jump point search: exact 8-connected octile A* that skips open space.

The graph is the engine's 8-connected grid (orthogonal moves cost 1, a
diagonal sqrt(2) and only when both orthogonal cells beside it are free: no
corner cutting), on the padded mask whose blocked border stands for the
outside. Jump point search (Harabor and Grastien, 2011; the no-corner-
cutting rules of their 2014 paper) expands only *jump points*: from a node
reached moving in direction ``d`` it scans along ``d`` (and, for a
diagonal ``d``, along its two orthogonal components from every cell of the
diagonal) and stops where a shortest path might turn:

* a straight scan stops at the goal or at a cell with a *forced
  neighbour*: a free cell beside it whose counterpart beside the previous
  cell is blocked (an obstacle ends there, so a path may turn around it);
* a diagonal scan stops at the goal or where either orthogonal scan from
  the cell finds a jump point; it ends when the next diagonal move is
  illegal.

Successors of a node (pruned neighbours): moving diagonally, the two
orthogonal components and the diagonal; moving straight, straight on, the
two perpendicular cells and the two diagonals ahead (each when legal); the
start has all eight. The g-values of jump points equal those of plain A*
(symmetric paths are pruned, never better ones), so lengths are identical;
the cells between jump points are filled in along the straight or diagonal
segment. On widened mazes and open maps almost every cell of a corridor
block is scanned with a few loads instead of being pushed on the heap.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .._compile.kernels import inner
from ._engine import _from_pad
from ._heap import heap_grow
from ._jps_heap import pop as heap_pop2, push as heap_push2

SQRT2 = math.sqrt(2.0)


@njit(cache=True, inline="always")
def _h(a, b, pc):
    ar = a // pc
    br = b // pc
    dr = abs(ar - br)
    dc = abs((a - ar * pc) - (b - br * pc))
    if dr < dc:
        return (dc - dr) + SQRT2 * dr
    return (dr - dc) + SQRT2 * dc


@inner
def _jump_straight(fp, x, d, p, goal):
    """Scan from ``x`` along ``d`` (``p``: the perpendicular offset); the jump point or -1."""
    while True:
        n = x + d
        if not fp[n]:
            return -1
        if n == goal:
            return n
        if (fp[n + p] and not fp[x + p]) or (fp[n - p] and not fp[x - p]):
            return n
        x = n


@inner
def _jump_diag(fp, x, dr, dc, goal):
    """Scan from ``x`` along the diagonal ``dr + dc`` (padded offsets); the jump point or -1."""
    while True:
        if not (fp[x + dr] and fp[x + dc]):
            return -1  # no corner cutting
        n = x + dr + dc
        if not fp[n]:
            return -1
        if n == goal:
            return n
        if _jump_straight(fp, n, dc, dr, goal) >= 0 or _jump_straight(fp, n, dr, dc, goal) >= 0:
            return n
        x = n


@njit(cache=True)
def jps(fp, cols, start, goal, g, parent, mark, base, hk, hg, hn):
    """Jump point search on a padded mask; returns ``(reached, expanded, hk, hg, hn)``.

    ``g``, ``parent``, ``mark`` have one entry per padded cell; ``parent``
    links jump points. ``mark[x]`` is ``base + 1`` on open cells and ``base
    + 2`` on closed ones; anything below ``base + 1`` is unseen, so scratch
    arrays are reused across queries without clearing (each query takes a
    ``base`` 2 above the last). ``reached`` is ``goal`` or -1.
    """
    pc = cols + 2
    size = 0
    opened = base + 1
    closed = base + 2
    g[start] = 0.0
    parent[start] = -1
    mark[start] = opened
    size = heap_push2(hk, hn, size, _h(start, goal, pc), start)
    expanded = 0
    dirs = np.empty(8, np.int64)
    while size > 0:
        x, size = heap_pop2(hk, hn, size)
        if mark[x] == closed:                 # a stale entry: its node closed by a better one
            continue
        gx = g[x]
        mark[x] = closed
        expanded += 1
        if x == goal:
            return goal, expanded, hk, hg, hn
        # direction of arrival as (row offset, column offset), 0 for the start
        nd = 0
        px = parent[x]
        if px < 0:
            for dr in (-pc, pc):
                dirs[nd] = dr
                nd += 1
            for dc in (-1, 1):
                dirs[nd] = dc
                nd += 1
            for dr in (-pc, pc):
                for dc in (-1, 1):
                    dirs[nd] = dr + dc
                    nd += 1
        else:
            xr = x // pc
            pr = px // pc
            ddr = 0 if xr == pr else (pc if xr > pr else -pc)
            xc = x - xr * pc
            pcc = px - pr * pc
            ddc = 0 if xc == pcc else (1 if xc > pcc else -1)
            if ddr != 0 and ddc != 0:
                dirs[0] = ddr
                dirs[1] = ddc
                dirs[2] = ddr + ddc
                nd = 3
            else:
                d = ddr + ddc
                p = 1 if ddc == 0 else pc
                dirs[0] = d
                dirs[1] = p
                dirs[2] = -p
                dirs[3] = d + p
                dirs[4] = d - p
                nd = 5
        for k in range(nd):
            d = dirs[k]
            if d == 1 or d == -1:
                y = _jump_straight(fp, x, d, pc, goal)
            elif d == pc or d == -pc:
                y = _jump_straight(fp, x, d, 1, goal)
            else:
                dc = 1 if (d - pc == 1 or d + pc == 1) else -1
                y = _jump_diag(fp, x, d - dc, dc, goal)
            if y < 0:
                continue
            my = mark[y]
            if my == closed:
                continue
            yr = y // pc
            xr2 = x // pc
            steps = max(abs(yr - xr2), abs((y - yr * pc) - (x - xr2 * pc)))
            gy = gx + (steps * SQRT2 if (d != 1 and d != -1 and d != pc and d != -pc) else steps)
            if my < opened or gy < g[y]:
                g[y] = gy
                parent[y] = x
                mark[y] = opened
                if size == hk.shape[0]:
                    hk, hg, hn = heap_grow(hk, hg, hn)
                size = heap_push2(hk, hn, size, gy + _h(y, goal, pc), y)
    return -1, expanded, hk, hg, hn


@njit(cache=True)
def jump_cells(parent, goal, cols):
    """Unpadded flat cells start -> goal, the segments between jump points filled in.

    One division per jump point, none per cell: a segment's cells step by
    ``dr * cols + dc`` in unpadded space.
    """
    pc = cols + 2
    n = 1
    y = goal
    while parent[y] >= 0:
        x = parent[y]
        yr = y // pc
        xr = x // pc
        a = yr - xr if yr > xr else xr - yr
        d = (y - yr * pc) - (x - xr * pc)
        b = d if d > 0 else -d
        n += a if a > b else b
        y = x
    out = np.empty(n, np.int64)
    i = n - 1
    y = goal
    out[i] = _from_pad(y, cols)
    while parent[y] >= 0:
        x = parent[y]
        yr = y // pc
        xr = x // pc
        dr = 0 if yr == xr else (1 if xr > yr else -1)
        dcol = (x - xr * pc) - (y - yr * pc)
        dc = 0 if dcol == 0 else (1 if dcol > 0 else -1)
        step = dr * cols + dc
        a = yr - xr if yr > xr else xr - yr
        b = dcol if dcol > 0 else -dcol
        c = out[i]
        for _ in range(a if a > b else b):
            c += step
            i -= 1
            out[i] = c
        y = x
    return out
