"""Numba backtraces of the wavefront planner (the searches themselves run in
:mod:`robomaze._search`, the core's engine).

All kernels take the free (configuration-space) mask as a flat ``uint8``
array of ``rows * cols`` cells, index ``row * cols + col``. Moves are the
4 orthogonal ones (N, E, S, W) and, with ``conn8``, the diagonals (NE, SE,
SW, NW), a diagonal only when both orthogonal cells beside it are free too
(no corner cutting, the MovingAI convention).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._compile.kernels import NOALLOC, inner, noalloc


@inner(**NOALLOC)   # allocates nothing: no reference counting compiled
def _move_ok(free, rows, cols, r, c, k):
    """Target flat index of move ``k`` from ``(r, c)``, or -1 if not allowed."""
    dr = (-1, 0, 1, 0, -1, 1, 1, -1)[k]
    dc = (0, 1, 0, -1, 1, 1, -1, -1)[k]
    rr, cc = r + dr, c + dc
    if rr < 0 or rr >= rows or cc < 0 or cc >= cols:
        return -1
    if not free[rr * cols + cc]:
        return -1
    if k >= 4 and not (free[rr * cols + c] and free[r * cols + cc]):
        return -1
    return rr * cols + cc


#: the moves' row and column steps, N, E, S, W, NE, SE, SW, NW (module constants: numba
#: freezes them into the kernel)
_DR = np.array((-1, 0, 1, 0, -1, 1, 1, -1), np.int64)
_DC = np.array((0, 1, 0, -1, 1, 1, -1, -1), np.int64)


# ---------------------------------------------------------------- backtraces
@noalloc(error_model="numpy")
def descend(free, dist, rows, cols, start, conn8, out):
    """Backtrace down the wave labels from ``start`` to the goal (label 0), into ``out``.

    At each cell the first move (order N, E, S, W, NE, SE, SW, NW) to a
    label one lower is taken. ``out`` (int64, ``dist[start] + 1`` cells) is
    the caller's (kernel style, rule 3), so the kernel allocates nothing and
    compiles without reference counting (``_nrt=False``), and with numba's
    ``error_model="numpy"`` (``cols >= 1``: no ZeroDivisionError test).
    :func:`_move_ok`'s test is written in the loop (a helper kernel is a
    compile of its own).
    """
    cur = start
    out[0] = cur
    nk = 8 if conn8 else 4
    for i in range(1, dist[start] + 1):
        r = cur // cols
        c = cur - r * cols
        want = dist[cur] - 1
        for k in range(nk):
            # _move_ok(free, rows, cols, r, c, k), written out
            rr = r + _DR[k]
            cc = c + _DC[k]
            if rr < 0 or rr >= rows or cc < 0 or cc >= cols:
                continue
            nb = rr * cols + cc
            if not free[nb] or (k >= 4 and not (free[rr * cols + c] and free[r * cols + cc])):
                continue
            if dist[nb] == want:
                cur = nb
                break
        out[i] = cur


@njit(cache=True)
def descend_fewest_bends(free, dist, rows, cols, start, conn8):
    """Among all shortest (fewest-step) routes, one with the fewest direction changes.

    Dynamic programming over the cells lying on some shortest route from
    ``start``: ``B[v, k]`` = fewest bends from ``v`` to the goal when the
    first move is ``k``; a bend is any change of move direction.
    """
    nk = 8 if conn8 else 4
    # cells on shortest routes, found by walking down the labels from start
    mark = np.zeros(rows * cols, np.uint8)
    stack = np.empty(16, np.int64)
    cells = np.empty(16, np.int64)
    ns, nc = 1, 0
    stack[0] = start
    mark[start] = 1
    while ns > 0:
        ns -= 1
        cur = stack[ns]
        if nc == cells.shape[0]:
            cells = np.concatenate((cells, np.empty(nc, np.int64)))
        cells[nc] = cur
        nc += 1
        r = cur // cols
        c = cur - r * cols
        for k in range(nk):
            nb = _move_ok(free, rows, cols, r, c, k)
            if nb >= 0 and dist[nb] == dist[cur] - 1 and not mark[nb]:
                mark[nb] = 1
                if ns == stack.shape[0]:
                    stack = np.concatenate((stack, np.empty(ns, np.int64)))
                stack[ns] = nb
                ns += 1
    cells = cells[:nc]
    ids = np.sort(cells)
    order = np.argsort(dist[cells], kind="mergesort")
    big = 1 << 30
    B = np.full((nc, nk), big, np.int64)
    for j in range(nc):
        v = cells[order[j]]
        vi = np.searchsorted(ids, v)
        r = v // cols
        c = v - r * cols
        for k in range(nk):
            u = _move_ok(free, rows, cols, r, c, k)
            if u < 0 or dist[u] != dist[v] - 1:
                continue
            if dist[u] == 0:
                B[vi, k] = 0
                continue
            ui = np.searchsorted(ids, u)
            best = big
            for k2 in range(nk):
                b = B[ui, k2] + (0 if k2 == k else 1)
                if b < best:
                    best = b
            B[vi, k] = best
    L = dist[start]
    out = np.empty(L + 1, np.int64)
    out[0] = start
    cur = start
    prev = -1
    for i in range(1, L + 1):
        ci = np.searchsorted(ids, cur)
        bestk, best = -1, big
        for k in range(nk):
            b = B[ci, k] + (0 if (prev < 0 or k == prev) else 1)
            if b < best or (b == best and k == prev):
                best, bestk = b, k
        r = cur // cols
        c = cur - r * cols
        cur = _move_ok(free, rows, cols, r, c, bestk)
        prev = bestk
        out[i] = cur
    return out
