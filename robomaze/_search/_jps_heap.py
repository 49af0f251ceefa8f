"""The jump point searches' open list: a binary heap of ``(key, g, node, parent)``.

Both searches (:mod:`._jps`, :mod:`._jps_plus`) relax lazily: a successor is
pushed with the node it came from, and its own state (``g``, ``parent``,
closed mark) is read and written only when it is popped. Generating a
successor then touches no memory around it -- on a large grid that is a
cache miss per successor saved (24% of a corridor-1 query at 4001^2,
benchmarks/README.md, round 7). The first pop of a node carries its least
key, hence its least ``g`` (``h`` is fixed per node); later pops of it are
skipped. Order as :mod:`._heap`: smaller key first, on equal keys larger
``g`` first.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def push4(hk, hg, hn, hp, size, key, gval, node, par):
    """Insert ``(key, gval, node, par)``; the caller guarantees ``size < len(hk)``."""
    u = size
    while u > 0:
        p = (u - 1) >> 1
        if hk[p] < key or (hk[p] == key and hg[p] >= gval):
            break
        hk[u] = hk[p]
        hg[u] = hg[p]
        hn[u] = hn[p]
        hp[u] = hp[p]
        u = p
    hk[u] = key
    hg[u] = gval
    hn[u] = node
    hp[u] = par
    return size + 1


@njit(cache=True, inline="always")
def pop4(hk, hg, hn, hp, size):
    """Remove the top; returns ``(node, g, parent, new size)``."""
    top_n, top_g, top_p = hn[0], hg[0], hp[0]
    size -= 1
    key, gval, node, par = hk[size], hg[size], hn[size], hp[size]
    u = 0
    while True:
        ch = u + u + 1
        if ch >= size:
            break
        c2 = ch + 1
        if c2 < size and (hk[c2] < hk[ch] or (hk[c2] == hk[ch] and hg[c2] > hg[ch])):
            ch = c2
        if key < hk[ch] or (key == hk[ch] and gval >= hg[ch]):
            break
        hk[u] = hk[ch]
        hg[u] = hg[ch]
        hn[u] = hn[ch]
        hp[u] = hp[ch]
        u = ch
    if size > 0:
        hk[u] = key
        hg[u] = gval
        hn[u] = node
        hp[u] = par
    return np.int64(top_n), top_g, np.int64(top_p), size


@njit(cache=True)
def grow4(hk, hg, hn, hp):
    """The four heap arrays at twice the capacity, contents kept."""
    n = hk.shape[0]
    k2 = np.empty(2 * n, hk.dtype)
    g2 = np.empty(2 * n, hg.dtype)
    n2 = np.empty(2 * n, hn.dtype)
    p2 = np.empty(2 * n, hp.dtype)
    for i in range(n):
        k2[i] = hk[i]
        g2[i] = hg[i]
        n2[i] = hn[i]
        p2[i] = hp[i]
    return k2, g2, n2, p2
