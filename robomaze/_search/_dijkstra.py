"""Unit-cost grid Dijkstra: a heap of bare keys and nodes, the next node prefetched.

In Dijkstra's search every heap entry's key *is* its ``g`` (no heuristic,
``g + 0.0 == g``), so the engine's order "smaller key first, on equal keys
larger ``g`` first" compares keys only: ``hk[p] < key or (hk[p] == key and
hg[p] >= g)`` is ``hk[p] <= key``, and the pop's tests reduce the same way.
This kernel sifts ``(key, node)`` with exactly those comparisons, so it pops
the same nodes in the same order as :func:`robomaze._search.best_first`'s
GRID rule and sets the same parents (the same paths and expansion counts),
moving two arrays instead of three through every sift. After each pop it
prefetches the cache lines the heap's new top will read (its rows of the
mask, marks and ``g``): on a large grid the frontier is scattered and each
expansion's loads miss, and the prefetch overlaps the next expansion's
misses with this one's work.
"""

from __future__ import annotations

import numpy as np

from .._compile.kernels import noalloc, prefetch
from ._engine import _DC, SQRT2, offsets

__all__ = ["dijkstra_grid"]


def _grow(hk, hn):
    """The heap's arrays with twice the room (numpy: a kernel for it was 0.4 s of compile)."""
    n = hk.shape[0]
    k2 = np.empty(2 * n)                    # float64 keys (see heap_grow)
    n2 = np.empty(2 * n, hn.dtype)
    k2[:n] = hk
    n2[:n] = hn
    return k2, n2


def dijkstra_grid(free, cols, conn8, start, goal, g, parent, mark, hk, hn):
    """Dijkstra from padded ``start`` to padded ``goal`` on a padded uint8 mask.

    The GRID rule of :func:`robomaze._search.best_first` (moves N, E, S, W,
    NE, SE, SW, NW; a diagonal only with both side cells free), unit and
    sqrt(2) lengths. ``g`` uninitialised, ``mark`` zeros (1 reached, 2
    settled), ``parent`` written on every improvement (-1 at the start).
    ``goal`` -1 settles every reachable cell (a distance field: ``g`` where
    ``mark`` > 0). ``hk``, ``hn``: the heap's float64 keys and nodes (at
    least one entry; grown as needed). Returns ``(reached goal or -1,
    expanded)``.

    A Python loop around :func:`_settle`, which hands back only to grow the
    heap (rarely): as a kernel this loop, its heap growth and the start's
    push were ~0.8 s of a cold start's compile (issue 40, round 9).
    """
    mark[start] = 1
    g[start] = 0.0
    parent[start] = -1
    hk[0] = 0.0                       # the start: the heap's root
    hn[0] = start
    size = 1
    expanded = 0
    off = offsets(cols)
    while True:
        reached, size, expanded = _settle(free, cols, off, conn8, goal, g, parent, mark, hk,
                                          hn, size, expanded)
        if reached != -2:
            return int(reached), int(expanded)
        hk, hn = _grow(hk, hn)


@noalloc   # allocates nothing (kernel style 3)
def _settle(free, cols, off, conn8, goal, g, parent, mark, hk, hn, size, expanded):
    """Expansions until the goal (returns it), exhaustion (-1) or a full heap (-2);
    ``off``: :func:`~robomaze._search._engine.offsets`."""
    pc = cols + 2
    nk = 8 if conn8 else 4
    cap = hk.shape[0]
    one = np.uint64(1)
    while size > 0:
        if size + nk > cap:
            return -2, size, expanded
        # the heap's pop, written out (an inlined helper is typed again at
        # its site: ~0.1 s of compile, issue 40 round 12): the top, then the
        # last entry sifted down from the root
        s, gv = hn[0], hk[0]
        size -= 1
        lk, ln = hk[size], hn[size]
        usize = np.uint64(size)
        u = np.uint64(0)
        while True:
            ch = u + u + one
            if ch >= usize:
                break
            c2 = ch + one
            if c2 < usize and hk[c2] < hk[ch]:
                ch = c2
            if lk <= hk[ch]:
                break
            hk[u] = hk[ch]
            hn[u] = hn[ch]
            u = ch
        if size > 0:
            hk[u] = lk
            hn[u] = ln
        if size > 0:
            # the lines the next expansion reads (the same row was just
            # read or is next to this one in most frontiers)
            nx = hn[0]
            prefetch(free, nx - pc)
            prefetch(free, nx + pc)
            prefetch(mark, nx - pc)
            prefetch(mark, nx)
            prefetch(mark, nx + pc)
            prefetch(g, nx - pc)
            prefetch(g, nx)
            prefetch(g, nx + pc)
        us = np.uint64(s)
        if mark[us] == 2 or gv > g[us]:
            continue
        mark[us] = 2
        expanded += 1
        if s == goal:
            return s, size, expanded
        for k in range(nk):
            t = s + off[k]
            # the side cells first, as the engine: on narrow corridors they
            # rule out most diagonals before the diagonal cell is read
            if k >= 4 and not (free[np.uint64(s + _DC[k])] and free[np.uint64(t - _DC[k])]):
                continue
            ut = np.uint64(t)
            if not free[ut] or mark[ut] == 2:
                continue
            ng = gv + (1.0 if k < 4 else SQRT2)
            if mark[ut] == 0 or ng < g[ut]:
                mark[ut] = 1
                g[ut] = ng
                parent[ut] = s
                # the heap's push, written out as the pop: the hole sifted up
                u = np.uint64(size)
                while u > 0:
                    up = (u - one) >> one
                    if hk[up] <= ng:
                        break
                    hk[u] = hk[up]
                    hn[u] = hn[up]
                    u = up
                hk[u] = ng
                hn[u] = t
                size += 1
    return -1, size, expanded
