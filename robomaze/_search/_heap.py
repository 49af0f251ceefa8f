"""The core's binary heap: preallocated arrays, sifted inline with a hole.

Entries are ``(key, g, node)`` in three arrays, ordered on the key and, on
equal keys, larger ``g`` first; ``g`` and ``node`` may be None for a heap
of bare keys (numba compiles that case apart).
"""

from __future__ import annotations

import numpy as np
from numba import njit

# ---------------------------------------------------------------- the heap
@njit(cache=True, inline="always")
def heap_push(hk, hg, hn, size, key, gval, node):
    """Insert ``(key, gval, node)``; the caller guarantees ``size < len(hk)``.

    Smaller key first; on equal keys larger ``g`` first. ``hg`` and ``hn``
    may both be None: a heap of bare keys (numba compiles that case apart).
    """
    i = size
    if hg is None:
        while i > 0:
            p = (i - 1) >> 1
            if hk[p] <= key:
                break
            hk[i] = hk[p]
            i = p
        hk[i] = key
        return size + 1
    # unsigned positions: numba indexes them without negative-index selects
    one = np.uint64(1)
    u = np.uint64(size)
    while u > 0:
        p = (u - one) >> one
        if hk[p] < key or (hk[p] == key and hg[p] >= gval):
            break
        hk[u] = hk[p]
        hg[u] = hg[p]
        hn[u] = hn[p]
        u = p
    hk[u] = key
    hg[u] = gval
    hn[u] = node
    return size + 1


@njit(cache=True, inline="always")
def heap_pop(hk, hg, hn, size):
    """Remove the top; returns ``(node, g, key, new size)`` (node and g 0 for bare keys)."""
    top_k = hk[0]
    size -= 1
    if hg is None:
        key = hk[size]
        i = 0
        while True:
            ch = 2 * i + 1
            if ch >= size:
                break
            if ch + 1 < size and hk[ch + 1] < hk[ch]:
                ch += 1
            if hk[ch] >= key:
                break
            hk[i] = hk[ch]
            i = ch
        if size > 0:
            hk[i] = key
        return 0, 0.0, top_k, size
    top_n, top_g = hn[0], hg[0]
    key, gval, node = hk[size], hg[size], hn[size]
    one = np.uint64(1)
    usize = np.uint64(size)
    u = np.uint64(0)
    while True:
        ch = u + u + one
        if ch >= usize:
            break
        c2 = ch + one
        if c2 < usize and (hk[c2] < hk[ch] or (hk[c2] == hk[ch] and hg[c2] > hg[ch])):
            ch = c2
        if key < hk[ch] or (key == hk[ch] and gval >= hg[ch]):
            break
        hk[u] = hk[ch]
        hg[u] = hg[ch]
        hn[u] = hn[ch]
        u = ch
    if size > 0:
        hk[u] = key
        hg[u] = gval
        hn[u] = node
    return top_n, top_g, top_k, size


def heap_push_py(hk, hg, hn, size: int, key: float, gval: float, node: int) -> int:
    """:func:`heap_push` (with ``g`` and nodes) in Python, the same sift step for step.

    For the few start entries a search pushes before its kernel runs: the
    kernel's own push loop for them cost its compile ~0.1 s.
    """
    u = size
    while u > 0:
        p = (u - 1) >> 1
        if hk[p] < key or (hk[p] == key and hg[p] >= gval):
            break
        hk[u] = hk[p]
        hg[u] = hg[p]
        hn[u] = hn[p]
        u = p
    hk[u] = key
    hg[u] = gval
    hn[u] = node
    return size + 1


@njit(cache=True)
def heap_grow(hk, hg, hn):
    """The heap's arrays at twice the capacity (rare: searches start big enough)."""
    n = hk.shape[0]
    # keys and g are float64 (np.float64, not hk.dtype: the same np.empty
    # specialisation as every other float64 array)
    k2 = np.empty(2 * n, np.float64)
    g2 = np.empty(2 * n, np.float64)
    n2 = np.empty(2 * n, hn.dtype)
    # a loop, not k2[:n] = hk: slice assignment brings numba's shape-mismatch
    # error path and its string formatting, ~1.5 s of compiling per process
    for i in range(n):
        k2[i] = hk[i]
        g2[i] = hg[i]
        n2[i] = hn[i]
    return k2, g2, n2
