"""Numba kernels of the agents: descent of the core's distance fields on belief grids."""

from __future__ import annotations

import numpy as np

from ..._compile.kernels import noalloc

# Kernels here that allocate nothing (their callers do: kernel style 3) are
# noalloc(no_cfunc_wrapper=True): no reference counting lowered and
# no C wrapper, which nothing calls (issue 40, round 12: benchmarks/README.md).
# error_model="numpy" on those whose only divisions are ``// cols`` (cols >= 1):
# numba's default (Python) model tests every ``//`` for a zero divisor and
# lowers a ZeroDivisionError never raised (issue 40, round 13: benchmarks/README.md).
# module constants (numba embeds them): a tuple indexed by a variable
# compiled a switch over its items at each look-up
_DR = np.array([-1, 1, 0, 0, -1, -1, 1, 1], np.int64)
_DC = np.array([0, 0, -1, 1, -1, 1, -1, 1], np.int64)


@noalloc(no_cfunc_wrapper=True, error_model="numpy")   # see the note on error_model
def descend(dist, blocked, rows, cols, start, steps, out):
    """Follow the field downhill from ``start`` for up to ``steps`` cells into ``out``.

    ``out`` (int64, at least ``steps + 1`` long) receives the cells, ``start``
    first; returns how many. The caller allocates it.
    """
    out[0] = start
    u = start
    k_out = 1
    for _ in range(steps):
        r = u // cols
        c = u - r * cols
        best = dist[u]
        nxt = -1
        for k in range(8):
            rr = r + _DR[k]
            cc = c + _DC[k]
            if rr < 0 or rr >= rows or cc < 0 or cc >= cols:
                continue
            v = rr * cols + cc
            if blocked[v] != 0:
                continue
            if k >= 4 and (blocked[r * cols + cc] != 0 or blocked[rr * cols + c] != 0):
                continue
            if dist[v] < best - 1e-12:
                best = dist[v]
                nxt = v
        if nxt < 0:
            break
        out[k_out] = nxt
        k_out += 1
        u = nxt
    return k_out
