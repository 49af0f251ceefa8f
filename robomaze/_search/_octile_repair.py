"""Repair of an octile field from above: a bucket queue started at the cells a move still improves.

:mod:`._octile_sweep`'s row sweeps leave a field ``g`` that is at or above
the bucket ring's everywhere (the update ``g[v] = min(g[v], g[u] + w)`` is
monotone and starts from inf), every value the float sum of a real path.
Where obstacles make shortest paths turn back, some cells are still too
high. Among those, the one of least true distance has correct neighbours
on its shortest path, so a move improves it now: it is a *seed*. Seeding a
bucket queue with every such cell (at its improved value) and running the
ring's settling from them -- in bucket order, every improvement queued
again, since a cell improved here may never have been queued -- corrects
every cell, and ends at the fixed point, which is the ring's field bit for
bit (:mod:`._octile_sweep`). The work is proportional to the cells still
wrong (7.5 % of a random 10 % grid after one round of sweeps), not to the
grid.

Seeds span every distance, not the three buckets of the ring: they are
sorted by value and handed to the ring as it reaches their bucket; when the
ring runs dry it jumps to the next seed.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .._compile.kernels import inner

__all__ = ["repair_field"]

SQRT2 = 2.0 ** 0.5


@njit(cache=True)
def _seeds(fp, g, rows, pc, out):
    """Improve every cell a move improves (one pass) and list it in ``out``; -1 if over its length."""
    inf = np.inf
    m = 0
    cap = out.shape[0]
    for r in range(1, rows + 1):
        o = r * pc
        for c in range(1, pc - 1):
            v = o + c
            if not fp[v]:
                continue
            gv = g[v]
            n = fp[v - pc]
            s = fp[v + pc]
            w = fp[v - 1]
            e = fp[v + 1]
            a = g[v - pc]
            x = g[v + pc]
            a = x if x < a else a
            x = g[v - 1]
            a = x if x < a else a
            x = g[v + 1]
            a = x if x < a else a
            d = g[v - pc - 1] if n & w else inf
            x = g[v - pc + 1] if n & e else inf
            d = x if x < d else d
            x = g[v + pc - 1] if s & w else inf
            d = x if x < d else d
            x = g[v + pc + 1] if s & e else inf
            d = x if x < d else d
            best = a + 1.0
            y = d + SQRT2
            best = y if y < best else best
            if best < gv:
                if m == cap:
                    return -1
                g[v] = best
                out[m] = v
                m += 1
    return m


@njit(cache=True)
def _grow(q, counts):
    bigger = np.empty((3, 2 * q.shape[1]), q.dtype)
    for b in range(3):
        for i in range(counts[b]):
            bigger[b, i] = q[b, i]
    return bigger


@inner  # eight call sites (kernel style 1, robomaze._compile.kernels)
def _relax(g, q, counts, v, nv):
    if nv < g[v]:
        g[v] = nv
        t = math.floor(nv) % 3
        q[t, counts[t]] = v
        counts[t] += 1


@njit(cache=True)
def _settle(fp, pc, g, seeds, keys, q):
    """The ring of :mod:`._octile` from ``seeds`` (sorted by ``keys``, their values); pushes made."""
    counts = np.zeros(3, np.int64)
    ns = seeds.shape[0]
    if ns == 0:
        return 0
    pushes = 0
    j = 0
    k = math.floor(keys[0])
    while True:
        b = k % 3
        # this bucket's seeds (a seed improved since is queued at its new value already)
        j0 = j
        while j < ns and math.floor(keys[j]) == k:
            j += 1
        while counts[b] + (j - j0) > q.shape[1]:
            q = _grow(q, counts)
        for i in range(j0, j):
            s = seeds[i]
            if math.floor(g[s]) == k:
                q[b, counts[b]] = s
                counts[b] += 1
        m = counts[b]
        if m == 0:
            if counts[0] + counts[1] + counts[2] == 0:
                if j == ns:
                    return pushes
                k = math.floor(keys[j])
            else:
                k += 1
            continue
        c1 = counts[(k + 1) % 3]
        c2 = counts[(k + 2) % 3]
        while (c1 if c1 > c2 else c2) + 8 * m > q.shape[1]:
            q = _grow(q, counts)
        before = counts[(k + 1) % 3] + counts[(k + 2) % 3]
        i = 0
        while i < m:
            u = q[b, i]
            i += 1
            gu = g[u]
            if math.floor(gu) != k:
                continue                      # queued again in a lower bucket
            g1 = gu + 1.0
            g2 = gu + SQRT2
            up = fp[u - pc] != 0
            dn = fp[u + pc] != 0
            lf = fp[u - 1] != 0
            rt = fp[u + 1] != 0
            if up:
                _relax(g, q, counts, u - pc, g1)
            if rt:
                _relax(g, q, counts, u + 1, g1)
            if dn:
                _relax(g, q, counts, u + pc, g1)
            if lf:
                _relax(g, q, counts, u - 1, g1)
            if up and rt and fp[u - pc + 1]:
                _relax(g, q, counts, u - pc + 1, g2)
            if dn and rt and fp[u + pc + 1]:
                _relax(g, q, counts, u + pc + 1, g2)
            if dn and lf and fp[u + pc - 1]:
                _relax(g, q, counts, u + pc - 1, g2)
            if up and lf and fp[u - pc - 1]:
                _relax(g, q, counts, u - pc - 1, g2)
        pushes += counts[(k + 1) % 3] + counts[(k + 2) % 3] - before
        counts[b] = 0
        k += 1


def repair_field(fp, cols: int, g: np.ndarray, limit: int):
    """Correct the padded field ``g`` (at or above the ring's, from real paths) in place.

    Returns the number of cells queued (seeds and improvements), or -1,
    with ``g`` left above the ring's, if more than ``limit`` cells are
    seeds (the caller then runs the ring).

    >>> from robomaze._search import _padded
    >>> free = np.ones((2, 3), bool)
    >>> g = np.full(20, np.inf); g[6] = 0.0; g[7] = 5.0     # (0, 0) is the source
    >>> repair_field(_padded(free, 2, 3), 3, g, 10)
    5
    >>> g.reshape(4, 5)[1:-1, 1:-1].round(3)
    array([[0.   , 1.   , 2.   ],
           [1.   , 1.414, 2.414]])
    """
    pc = cols + 2
    rows = fp.shape[0] // pc - 2
    out = np.empty(max(limit, 1), np.int64)
    m = _seeds(fp, g, rows, pc, out)
    if m < 0:
        return -1
    seeds = out[:m]
    keys = g[seeds]
    order = np.argsort(keys, kind="stable")
    q = np.empty((3, 1024), np.int32 if fp.shape[0] < 2 ** 31 else np.int64)
    return m + _settle(fp, pc, g, seeds[order], keys[order], q)
