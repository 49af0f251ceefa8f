"""Exact shortest lengths on grids whose free graph is a forest (perfect mazes of corridor 1).

Under the no-corner-cutting rule a diagonal move needs both cells beside it
free, so its two ends and those two cells form a free 2x2 block, which
holds a cycle. A grid whose 8-connected free graph is a forest therefore
has no diagonal moves at all: its graph is the 4-connected one, every path
between two cells of a tree is the only one, and its length is a whole
number of unit moves,

    dist(s, t) = depth(s) + depth(t) - 2 depth(lca(s, t)).

:func:`forest` tells whether a padded mask is such a forest and returns the
BFS depths and a binary-lifting table of ancestors; :func:`tree_lengths`
answers each query in O(log n) with it (the table is capped at
:data:`TABLE_BYTES`; past it a query walks the remaining parents, O(path
length), still without a search). The lengths are integers, so they are
exactly what any exact search sums move by move.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["forest", "tree_lengths", "TABLE_BYTES", "table_levels"]

#: The most memory the ancestor table may take (int32 per cell and level).
TABLE_BYTES = 256 * 2**20


def table_levels(ncells: int) -> int:
    """Ancestor levels that fit :data:`TABLE_BYTES` for ``ncells`` padded cells (at least 1)."""
    return max(1, TABLE_BYTES // (4 * max(ncells, 1)))


@njit(cache=True)
def forest(fp, cols, max_levels):
    """``(is_forest, up, depth, comp)`` of the free graph of padded mask ``fp``.

    ``fp``: flat uint8, nonzero on free cells, with a blocked one-cell border
    (``cols`` columns of the unpadded grid). ``up[k, v]``: the ``2^k``-th
    ancestor of padded cell ``v`` (a root is its own parent), for at most
    ``max_levels`` levels (the memory cap: with fewer levels than the
    deepest tree needs, :func:`tree_lengths` walks the rest one parent at a
    time); ``depth``: moves from the root of ``v``'s tree; ``comp``: the
    root of ``v``'s tree, -1 on blocked cells. When the graph is not a
    forest the arrays are empty.
    """
    n = fp.shape[0]
    w = cols + 2
    empty = np.empty((0, 0), np.int32)
    none = np.empty(0, np.int32)
    # any free 2x2 block holds a cycle (and every diagonal move lies in one)
    for v in range(w + 1, n - w - 1):
        if fp[v] and fp[v + 1] and fp[v + w] and fp[v + w + 1]:
            return False, empty, none, none
    parent = np.full(n, -1, np.int32)
    depth = np.zeros(n, np.int32)
    comp = np.full(n, -1, np.int32)
    queue = np.empty(n, np.int32)
    off = (-w, 1, w, -1)
    nodes = 0
    edges2 = 0            # every 4-connected edge, counted from both ends
    trees = 0
    deepest = 0
    for root in range(n):
        if fp[root] == 0 or comp[root] >= 0:
            continue
        trees += 1
        comp[root] = root
        parent[root] = root
        head = 0
        tail = 1
        queue[0] = root
        while head < tail:
            u = queue[head]
            head += 1
            nodes += 1
            for k in range(4):
                v = u + off[k]
                if fp[v] == 0:
                    continue
                edges2 += 1
                if comp[v] < 0:
                    comp[v] = root
                    parent[v] = u
                    depth[v] = depth[u] + 1
                    if depth[v] > deepest:
                        deepest = depth[v]
                    queue[tail] = v
                    tail += 1
    if edges2 // 2 != nodes - trees:
        return False, empty, none, none
    levels = 1
    while (1 << levels) <= deepest and levels < max_levels:
        levels += 1
    up = np.empty((levels, n), np.int32)
    for v in range(n):
        up[0, v] = parent[v] if parent[v] >= 0 else v
    for k in range(1, levels):
        for v in range(n):
            up[k, v] = up[k - 1, up[k - 1, v]]
    return True, up, depth, comp


@njit(cache=True)
def tree_lengths(fp, up, depth, comp, starts, goals):
    """Tree distances (moves) of padded ``starts[i] -> goals[i]``; NaN if blocked or apart."""
    out = np.full(starts.shape[0], np.nan)
    levels = up.shape[0]
    for i in range(starts.shape[0]):
        s = starts[i]
        t = goals[i]
        if fp[s] == 0 or fp[t] == 0 or comp[s] != comp[t]:
            continue
        a, b = s, t
        if depth[a] < depth[b]:
            a, b = b, a
        lift = depth[a] - depth[b]
        k = 0
        while lift > 0 and k < levels:
            if lift & 1:
                a = up[k, a]
            lift >>= 1
            k += 1
        while depth[a] > depth[b]:           # only when the table was capped
            a = up[0, a]
        if a != b:
            for k in range(levels - 1, -1, -1):
                if up[k, a] != up[k, b]:
                    a = up[k, a]
                    b = up[k, b]
            while up[0, a] != up[0, b]:      # only when the table was capped
                a = up[0, a]
                b = up[0, b]
            a = up[0, a]
        out[i] = float(depth[s] + depth[t] - 2 * depth[a])
    return out
