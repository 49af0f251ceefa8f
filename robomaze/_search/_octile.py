"""Octile distance field of a padded grid by a ring of three unit-width buckets.

The 8-connected unit-cost field (moves 1 and sqrt 2, a diagonal only when
both orthogonal cells beside it are free) needs no heap. Every move is at
least 1 long, so a node whose distance lies in ``[k, k + 1)`` cannot improve
any other node of that interval: once the search reaches bucket ``k`` (the
cells with ``floor(g) == k``) every entry of it is final, and the bucket is
settled in any order (Dinitz's rule for buckets no wider than the shortest
edge). A move from bucket ``k`` lands in ``k + 1`` or ``k + 2`` (it is
shorter than 2), so three buckets in a ring hold the whole queue.

A cell improved inside its bucket is not queued again (its entry is there
already); a cell improved into a lower bucket is queued there and its old
entry, found later in a bucket that is no longer ``floor(g)``, is skipped.
Settled cells need no mark: a move from bucket ``k`` offers at least
``k + 1``, more than any settled distance, so the ``new < g`` test already
refuses them.

The distances are sums of 1 and sqrt 2 in float64, like every textbook
Dijkstra's; two different lengths ``a + b sqrt 2`` on a grid below 2^15
cells a side differ by far more than their rounding, so the order of the
comparisons, and hence every field value up to that rounding, is the
exact field's.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .._compile.kernels import inner, noalloc

__all__ = ["octile_field"]

SQRT2 = 2.0 ** 0.5


@njit(cache=True)
def _grow(q, counts):
    """The queue with twice the room, its entries kept (the big grids' rings call it)."""
    bigger = np.empty((3, 2 * q.shape[1]), q.dtype)
    for b in range(3):
        for i in range(counts[b]):
            bigger[b, i] = q[b, i]
    return bigger


def _grow_py(q, counts):
    """:func:`_grow` in numpy, for :func:`octile_field`'s ring (which hands back to
    grow its queue: as a kernel it called, ``_grow`` was one more compile of a
    first run, ~0.15 s)."""
    bigger = np.empty((3, 2 * q.shape[1]), q.dtype)
    for b in range(3):
        bigger[b, :counts[b]] = q[b, :counts[b]]
    return bigger


@inner  # eight call sites (kernel style 1, robomaze._compile.kernels)
def _relax(g, q, counts, v, nv):
    old = g[v]
    if nv < old:
        g[v] = nv
        nb = math.floor(nv)
        if old == np.inf or math.floor(old) != nb:
            t = nb % 3
            q[t, counts[t]] = v
            counts[t] += 1


def octile_field(fp, cols: int, sources, unpad_rows: int = 0) -> np.ndarray:
    """Distances (cells) from padded ``sources`` over the padded flat mask ``fp``; inf elsewhere.

    ``unpad_rows`` > 0: the field of the inner ``unpad_rows x cols`` cells
    comes back moved to the front of the padded array, as
    :func:`unpad_in_place` would (the caller views ``g[:rows * cols]``);
    done by the ring's kernel, so a first run compiles one kernel, not two.

    The field and the queue are allocated here by numpy, not in the kernel:
    numpy asks the kernel for transparent huge pages on large arrays,
    numba's allocator does not, and at 4001^2 the page faults of a
    kernel-allocated field cost 4x its fill (80 ms against 18 ms) and its
    scattered reads miss the TLB (the whole open-grid field took 1.8x as
    long). Queue entries are int32 below 2^31 cells (half the traffic).

    >>> from robomaze._search import _padded
    >>> g = octile_field(_padded(np.ones((2, 3), bool), 2, 3), 3, np.array([6]))
    >>> g.reshape(4, 5)[1:-1, 1:-1].round(3)
    array([[0.   , 1.   , 2.   ],
           [1.   , 1.414, 2.414]])
    """
    n = fp.shape[0]
    g = np.empty(n)
    sources = np.asarray(sources, np.int64)
    # room for every source: the sources never grow the queue
    q = np.empty((3, max(1024, sources.shape[0])), np.int32 if n < 2 ** 31 else np.int64)
    counts = np.zeros(3, np.int64)
    k = _ring(fp, cols, sources, g, q, counts, -1, unpad_rows)
    while k >= 0:       # the queue needs more room (rare): grown here, the ring resumes
        q = _grow_py(q, counts)
        k = _ring(fp, cols, sources, g, q, counts, k, unpad_rows)
    return g


@noalloc   # allocates nothing (kernel style 3)
def _ring(fp, cols, sources, g, q, counts, k, unpad_rows):
    """The bucket ring from bucket ``k`` (-1: from the start, filling ``g`` and
    queueing the sources; ``counts`` zeros, ``q`` with room for every source).
    Returns -1 when done, or the bucket whose moves ``q`` has no room for (grow
    it and call again with that ``k``)."""
    n = fp.shape[0]
    pc = cols + 2
    if k < 0:
        for i in range(n):
            g[i] = np.inf
        for s in sources:
            if fp[s] and g[s] != 0.0:
                g[s] = 0.0
                q[0, counts[0]] = s
                counts[0] += 1
        k = 0
    # resumed at a bucket that is not empty (it asked for room): no empty bucket counted
    empty = 0
    while empty < 3:
        b = k % 3
        m = counts[b]
        if m == 0:
            empty += 1
            k += 1
            continue
        empty = 0
        # room for every move of this bucket, so the loop below never grows q
        c1 = counts[(k + 1) % 3]
        c2 = counts[(k + 2) % 3]
        if (c1 if c1 > c2 else c2) + 8 * m > q.shape[1]:
            return k
        i = 0
        # the bucket is read while it is not written: moves land in k+1, k+2
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
        counts[b] = 0
        k += 1
    if unpad_rows > 0:
        # _unpad written out (an inlined helper is typed again at its site:
        # issue 40 round 12)
        for r in range(unpad_rows):
            src = (r + 1) * pc + 1
            dst = r * cols
            for c in range(cols):
                g[dst + c] = g[src + c]
    return -1


@njit(cache=True)
def unpad_in_place(g, rows, cols):
    """The inner ``rows x cols`` cells of the padded flat field ``g``, moved to its front.

    Cell ``(r, c)`` goes from ``(r + 1) * (cols + 2) + c + 1`` to ``r * cols + c``,
    always to a lower index, so one forward pass is safe; the caller views
    ``g[:rows * cols]``. No second field is allocated (at 4001^2 a copy of
    the 128 MB field cost as much as half the search).

    >>> g = np.arange(12.0)
    >>> unpad_in_place(g, 2, 2)[:4].tolist()
    [5.0, 6.0, 9.0, 10.0]
    """
    _unpad(g, rows, cols)
    return g


@njit(cache=True, inline="always")
def _unpad(g, rows, cols):
    """:func:`unpad_in_place`'s loop (also written out at the end of the ring)."""
    pc = cols + 2
    for r in range(rows):
        src = (r + 1) * pc + 1
        dst = r * cols
        for c in range(cols):
            g[dst + c] = g[src + c]


