"""The MovingAI batch kernel as it was before the core engine (robomaze/io/_kernels.py
at commit 2b87c58), kept verbatim as the "today" reference of benchmarks/bench_io.py:
one 8-connected octile A* per problem, swap-based binary heap, bounds checks,
per-problem stamps. Not part of the package.
"""

from __future__ import annotations

import numpy as np
from numba import njit

SQRT2 = np.sqrt(2.0)


@njit(cache=True, inline="always")
def _less(fa, ga, fb, gb):
    # Order on f, ties to the larger g (deeper node first).
    return fa < fb or (fa == fb and ga > gb)


@njit(cache=True)
def _push(hf, hg, hn, size, f, g, node):
    i = size
    hf[i] = f
    hg[i] = g
    hn[i] = node
    while i > 0:
        p = (i - 1) >> 1
        if _less(hf[i], hg[i], hf[p], hg[p]):
            hf[i], hf[p] = hf[p], hf[i]
            hg[i], hg[p] = hg[p], hg[i]
            hn[i], hn[p] = hn[p], hn[i]
            i = p
        else:
            break
    return size + 1


@njit(cache=True)
def _pop(hf, hg, hn, size):
    g = hg[0]
    node = hn[0]
    size -= 1
    hf[0] = hf[size]
    hg[0] = hg[size]
    hn[0] = hn[size]
    i = 0
    while True:
        a = 2 * i + 1
        if a >= size:
            break
        b = a + 1
        c = a
        if b < size and _less(hf[b], hg[b], hf[a], hg[a]):
            c = b
        if _less(hf[c], hg[c], hf[i], hg[i]):
            hf[i], hf[c] = hf[c], hf[i]
            hg[i], hg[c] = hg[c], hg[i]
            hn[i], hn[c] = hn[c], hn[i]
            i = c
        else:
            break
    return g, node, size


@njit(cache=True)
def astar8_lengths(free, rows, cols, starts, goals):
    """Shortest 8-connected lengths (cells) for each ``starts[k] -> goals[k]``.

    ``free`` is the flat uint8 free mask; indices are flat ``row*cols+col``.
    NaN where the goal is unreachable or an endpoint is blocked.
    """
    n = rows * cols
    g = np.empty(n, np.float64)
    seen = np.zeros(n, np.int32)
    done = np.zeros(n, np.int32)
    cap = 8 * n + 8
    hf = np.empty(cap, np.float64)
    hg = np.empty(cap, np.float64)
    hn = np.empty(cap, np.int32)
    out = np.full(starts.shape[0], np.nan)
    dr = np.array([-1, 0, 1, 0, -1, 1, 1, -1])
    dc = np.array([0, 1, 0, -1, 1, 1, -1, -1])
    for k in range(starts.shape[0]):
        stamp = k + 1
        s = starts[k]
        t = goals[k]
        if free[s] == 0 or free[t] == 0:
            continue
        tr = t // cols
        tc = t - tr * cols
        size = 0
        g[s] = 0.0
        seen[s] = stamp
        sr = s // cols
        ax = abs(sr - tr)
        ay = abs(s - sr * cols - tc)
        h = max(ax, ay) + (SQRT2 - 1.0) * min(ax, ay)
        size = _push(hf, hg, hn, size, h, 0.0, s)
        while size > 0:
            gu, u, size = _pop(hf, hg, hn, size)
            if done[u] == stamp or gu > g[u]:
                continue
            done[u] = stamp
            if u == t:
                out[k] = gu
                break
            r = u // cols
            c = u - r * cols
            for d in range(8):
                rr = r + dr[d]
                cc = c + dc[d]
                if rr < 0 or rr >= rows or cc < 0 or cc >= cols:
                    continue
                v = rr * cols + cc
                if free[v] == 0:
                    continue
                if d >= 4:
                    if free[r * cols + cc] == 0 or free[rr * cols + c] == 0:
                        continue
                    ng = gu + SQRT2
                else:
                    ng = gu + 1.0
                if seen[v] != stamp or ng < g[v]:
                    seen[v] = stamp
                    g[v] = ng
                    ax = abs(rr - tr)
                    ay = abs(cc - tc)
                    h = max(ax, ay) + (SQRT2 - 1.0) * min(ax, ay)
                    size = _push(hf, hg, hn, size, ng + h, ng, v)
    return out
