"""Numba kernels for the minimum spanning tree of i.i.d. random edge weights,
computed tile by tile so that the work per cell stays in cache.

Edge ``e`` of the ``rows x cols`` grid is ``2 * cell`` (the wall east of the
cell) or ``2 * cell + 1`` (south). Its key is a 64-bit integer: random high
bits above the edge id in the low ``idbits`` bits, so keys are distinct and
their order is that of i.i.d. uniform weights (ties of the random part, about
one per ``2**(64 - idbits)`` comparisons, fall back to edge-id order). The
random part is SplitMix64's output at counter ``e + 1`` -- a pure function of
``(seed, e)``, so a key is recomputed wherever it is needed instead of being
stored for all 2 n edges.

With distinct keys the MST is unique, and three exact facts make it local:

1. Cycle property: an edge that is not in the MST of a tile's own edges is
   the heaviest edge of a cycle, so it is not in the global MST. Kruskal
   inside each ``tile x tile`` block (in cache) keeps ``cells - 1`` of its
   about ``2 * cells`` edges.
2. Of the kept tile trees plus the edges between tiles, only edges on a
   cycle can still be dropped. A tile-tree edge lies on a cycle only if it
   is on the tree path between two *terminals* (tile-border cells with an
   edge to another tile); pruning non-terminal leaves leaves that Steiner
   tree, and the pruned edges are final passages.
3. On a chain of degree-2 vertices every cycle through one edge runs through
   the whole chain, so only the chain's heaviest edge can be dropped: the
   chain becomes one edge carrying its maximum key, and the others are final.

The remaining graph -- terminals and branch points, chains and inter-tile
edges, about ``7 / tile`` edges per cell (2.8% of the edges at tile 128 on
a 4000x4000 grid) -- goes through one global Kruskal
(:func:`kruskal`) or, from :func:`reduce`, to scipy (the ``mst``
generator). Either way the result is exactly the MST of all the keys, which
the tests check against scipy on the whole graph.

"Kernel style N" notes refer to :mod:`robomaze._compile.kernels`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._kernels import _GAMMA, mix64
from ._common import closed_walls

_U1 = np.uint64(1)


@njit(cache=True)
def id_bits(n):
    """Bits of the edge id in a key for an ``n``-cell grid (edge ids < 2n)."""
    b = 1
    while (1 << b) < 2 * n:
        b += 1
    return b


@njit(cache=True)
def edge_key(seed, e, idbits):
    """The key of edge ``e``: SplitMix64 output ``e + 1`` above the edge id."""
    z = mix64(np.uint64(seed) + np.uint64(e + 1) * _GAMMA)
    sh = np.uint64(idbits)
    return ((z >> sh) << sh) | np.uint64(e)


@njit(cache=True)
def all_keys(rows, cols, seed):
    """Keys of every edge (index = edge id; ``0`` for edges off the grid).

    Only the tests need all of them at once (to hand the whole graph to
    scipy as an independent reference).
    """
    n = rows * cols
    idbits = id_bits(n)
    keys = np.zeros(2 * n, np.uint64)
    for u in range(n):
        if u % cols < cols - 1:
            keys[2 * u] = edge_key(seed, 2 * u, idbits)
        if u < n - cols:
            keys[2 * u + 1] = edge_key(seed, 2 * u + 1, idbits)
    return keys


@njit(cache=True)
def _bucket_starts(keys, k, per, counts):
    """Bucket ``keys[:k]`` by their top bits, about ``per`` keys per bucket:
    ``counts[b]`` becomes bucket b's first slot. Returns the shift that
    maps a key to its bucket."""
    lb = 1
    while (per << lb) < k:
        lb += 1
    shift = np.uint64(64 - lb)
    nbuck = 1 << lb
    for b in range(nbuck + 1):
        counts[b] = 0
    for i in range(k):
        counts[np.int64(keys[i] >> shift) + 1] += 1
    for b in range(nbuck):
        counts[b + 1] += counts[b]
    return shift


@njit(cache=True)
def _sort_keys(keys, k, tmp, counts):
    """Sort ``keys[:k]`` (uniform random high bits) in place in expected O(k).

    One counting pass on the top bits into about ``k / 4`` buckets, then an
    insertion sort that only has to fix the order inside each bucket.
    """
    if k < 2:
        return
    shift = _bucket_starts(keys, k, np.int64(4), counts)  # about four keys per bucket
    for i in range(k):
        b = np.int64(keys[i] >> shift)
        tmp[counts[b]] = keys[i]
        counts[b] += 1
    keys[0] = tmp[0]
    for i in range(1, k):  # elements only move within their bucket
        x = tmp[i]
        j = i - 1
        while j >= 0 and keys[j] > x:
            keys[j + 1] = keys[j]
            j -= 1
        keys[j + 1] = x


@njit(cache=True)
def _find(parent, x):
    """Root of ``x`` with path halving; roots hold ``-size``."""
    while parent[x] >= 0:
        p = parent[x]
        if parent[p] >= 0:
            parent[x] = parent[p]
        x = p
    return x


@njit(cache=True)
def _union(parent, a, b):
    """Join the sets of roots ``a != b`` (union by size)."""
    if parent[a] > parent[b]:
        a, b = b, a
    parent[a] += parent[b]
    parent[b] = a


#: ``_set_wall``'s values as uint8 globals: literal 0 and 1 arguments would
#: each get their own compiled specialisation.
_OPEN = np.uint8(0)
_SHUT = np.uint8(1)


@njit(cache=True)
def _set_wall(east, south, e, wall):
    """Set the wall of edge ``e`` (1 closed, 0 open)."""
    if e & 1:
        south[e >> 1] = wall
    else:
        east[e >> 1] = wall


@njit(cache=True)
def _tile(r0, c0, h, w, rows, cols, seed, idbits, east, south, keys, tkeys,
          counts, uf, mask, term, stack, gid, nkey, ga, gb, gkey, m):
    """Reduce one ``h x w`` tile at ``(r0, c0)``; append its chains to the
    global edge list ``(ga, gb, gkey)[m:]`` and return the new length ``m``.

    Local cell ``i = (r - r0) * w + (c - c0)``; ``mask[i]`` holds the tile
    tree's edges at ``i`` (bit 0 N, 1 E, 2 S, 3 W). Final passages are
    opened in ``east`` / ``south`` directly; ``gid`` maps a global cell to
    its vertex in the reduced graph.
    """
    nloc = h * w
    # local keys: the same random part as the global key above the local
    # edge id 2 * i + (0 east | 1 south); local ids are ordered like the
    # global ones, so ties break the same way in the tile and globally
    rmask = ~((_U1 << np.uint64(idbits)) - _U1)
    k = np.int64(0)  # typed, not a literal (kernel style 4)
    for lr in range(h):
        u = (r0 + lr) * cols + c0
        i = lr * w
        for lc in range(w):
            if lc < w - 1:
                keys[k] = (edge_key(seed, 2 * u, idbits) & rmask) | np.uint64(2 * i)
                k += 1
            if lr < h - 1:
                keys[k] = (edge_key(seed, 2 * u + 1, idbits) & rmask) | np.uint64(2 * i + 1)
                k += 1
            u += 1
            i += 1
    _sort_keys(keys, k, tkeys, counts)
    lmask = (_U1 << np.uint64(id_bits(nloc))) - _U1
    # loops, not slice assignments (kernel style 4)
    for i in range(nloc):
        uf[i] = -1
        mask[i] = 0
        term[i] = False
    joined = 0
    for j in range(k):  # Kruskal inside the tile
        le = np.int64(keys[j] & lmask)
        a = le >> 1
        b = a + w if le & 1 else a + 1
        ra = _find(uf, a)
        rb = _find(uf, b)
        if ra == rb:
            continue
        _union(uf, ra, rb)
        if le & 1:
            mask[a] |= 4
            mask[b] |= 1
        else:
            mask[a] |= 2
            mask[b] |= 8
        joined += 1
        if joined == nloc - 1:
            break
    # terminals: border cells with an edge leaving the tile
    for i in range(w):
        if r0 > 0:
            term[i] = True
        if r0 + h < rows:
            term[nloc - w + i] = True
    for i in range(0, nloc, w):
        if c0 > 0:
            term[i] = True
        if c0 + w < cols:
            term[i + w - 1] = True
    # prune non-terminal leaves: their edges are bridges, final passages
    sp = 0
    for i in range(nloc):
        if not term[i] and _deg(mask[i]) == 1:
            stack[sp] = i
            sp += 1
    while sp > 0:
        sp -= 1
        i = np.int64(stack[sp])  # int64 like every other cell index: one _nb, one _edge
        if mask[i] == 0:
            continue
        d = _low_dir(mask[i])
        j = _nb(i, d, w)
        _set_wall(east, south, _edge(i, d, r0, c0, w, cols), _OPEN)
        mask[i] = 0
        mask[j] &= ~(1 << ((d + 2) & 3))
        if not term[j] and _deg(mask[j]) == 1:
            stack[sp] = j
            sp += 1
    # vertices of the reduced graph: terminals and branch points (from here
    # on term[i] marks them all)
    for i in range(nloc):
        if term[i] or _deg(mask[i]) >= 3:
            term[i] = True
            gid[(r0 + i // w) * cols + c0 + i % w] = nkey[0]
            nkey[0] += 1
    # chains between them: open every edge, then close the heaviest again
    # and hand it to the global pass
    for i in range(nloc):
        if not term[i]:
            continue
        while mask[i] != 0:
            d = _low_dir(mask[i])
            mask[i] &= ~(1 << d)
            cur = i
            best = np.uint64(0)
            while True:
                e = _edge(cur, d, r0, c0, w, cols)
                _set_wall(east, south, e, _OPEN)
                key = edge_key(seed, e, idbits)
                if key > best:
                    best = key
                cur = _nb(cur, d, w)
                mask[cur] &= ~(1 << ((d + 2) & 3))
                if term[cur]:
                    break
                d = _low_dir(mask[cur])
                mask[cur] = 0
            _set_wall(east, south, np.int64(best & ~rmask), _SHUT)
            ga[m] = gid[(r0 + i // w) * cols + c0 + i % w]
            gb[m] = gid[(r0 + cur // w) * cols + c0 + cur % w]
            gkey[m] = best
            m += 1
    return m


@njit(cache=True)
def _deg(mk):
    return (mk & 1) + ((mk >> 1) & 1) + ((mk >> 2) & 1) + ((mk >> 3) & 1)


@njit(cache=True)
def _low_dir(mk):
    d = 0
    while not (mk >> d) & 1:
        d += 1
    return d


@njit(cache=True)
def _nb(i, d, w):
    if d == 0:
        return i - w
    if d == 1:
        return i + 1
    if d == 2:
        return i + w
    return i - 1


@njit(cache=True)
def _edge(i, d, r0, c0, w, cols):
    """Edge id of the edge leaving local cell ``i`` in direction ``d``."""
    u = (r0 + i // w) * cols + c0 + i % w
    if d == 0:
        return 2 * (u - cols) + 1
    if d == 1:
        return 2 * u
    if d == 2:
        return 2 * u + 1
    return 2 * (u - 1)


def reduce(rows, cols, seed, tile):
    """All tiles, then the inter-tile edges: the reduced graph.

    Returns ``east, south`` (final passages open, everything else walled),
    the reduced graph's edges ``ga, gb, gkey`` (length ``m``), its vertex
    count and the key's edge-id bits. The arrays are allocated here, in
    numpy: np.empty, np.ones and the like inside a kernel each compile
    numba's own implementation (~0.05-0.2 s apiece) on a cold start.
    """
    n = rows * cols
    idbits = int(id_bits(n))
    th = min(tile, rows)
    tw = min(tile, cols)
    ntr = (rows + th - 1) // th
    ntc = (cols + tw - 1) // tw
    cap_loc = th * tw
    # chains per tile < 2 * terminals <= 4 * (h + w); plus the inter-tile edges
    cap = ntr * ntc * 4 * (th + tw) + rows * (ntc - 1) + cols * (ntr - 1) + 1
    east, south = closed_walls(n)
    ga = np.empty(cap, np.int64)
    gb = np.empty(cap, np.int64)
    gkey = np.empty(cap, np.uint64)
    nkey = np.zeros(1, np.int64)
    m = _reduce(rows, cols, seed, idbits, th, tw, east, south,
                np.empty(2 * cap_loc, np.uint64), np.empty(2 * cap_loc, np.uint64),
                np.empty(cap_loc + 2, np.int32), np.empty(cap_loc, np.int32),
                np.empty(cap_loc, np.uint8), np.empty(cap_loc, np.bool_),
                np.empty(cap_loc, np.int32),
                np.empty(n, np.int64),  # gid: read and written at reduced vertices only
                nkey, ga, gb, gkey)
    return east, south, ga[:m], gb[:m], gkey[:m], int(nkey[0]), idbits


@njit(cache=True)
def _reduce(rows, cols, seed, idbits, th, tw, east, south, keys, tkeys, counts, uf, mask,
            term, stack, gid, nkey, ga, gb, gkey):
    """The tiles of :func:`reduce` and the inter-tile edges, on its arrays;
    returns the number ``m`` of reduced edges."""
    ntr = (rows + th - 1) // th
    ntc = (cols + tw - 1) // tw
    m = np.int64(0)  # typed, not a literal (kernel style 4)
    for tr in range(ntr):
        r0 = tr * th
        h = min(th, rows - r0)
        for tc in range(ntc):
            c0 = tc * tw
            w = min(tw, cols - c0)
            m = _tile(r0, c0, h, w, rows, cols, seed, idbits, east, south, keys,
                      tkeys, counts, uf, mask, term, stack, gid, nkey, ga, gb, gkey, m)
    for r in range(rows):  # east edges across tile columns
        for tc in range(1, ntc):
            u = r * cols + tc * tw - 1
            ga[m] = gid[u]
            gb[m] = gid[u + 1]
            gkey[m] = edge_key(seed, 2 * u, idbits)
            m += 1
    for tr in range(1, ntr):  # south edges across tile rows
        base = (tr * th - 1) * cols
        for c in range(cols):
            u = base + c
            ga[m] = gid[u]
            gb[m] = gid[u + cols]
            gkey[m] = edge_key(seed, 2 * u + 1, idbits)
            m += 1
    return m


def kruskal(rows, cols, seed, tile):
    """Maze walls of the MST of the keys: tiles, then Kruskal on the rest.

    The reduced graph's edges are sorted by numpy (``np.argsort``: faster
    than a bucket sort in the kernel at every size measured, 17 vs 24 ms for
    the ~875,000 edges of a 4000x4000 grid, and nothing to compile).
    """
    east, south, ga, gb, gkey, nv, idbits = reduce(rows, cols, seed, tile)
    order = np.argsort(gkey)
    # int32 parents, as in the tiles: one _find and _union serve both
    _global_kruskal(east, south, ga[order], gb[order], gkey[order], np.full(nv, -1, np.int32),
                    idbits)
    return east, south


@njit(cache=True)
def _global_kruskal(east, south, ga, gb, gkey, parent, idbits):
    """Kruskal on the reduced graph, its edges in increasing key order
    (``parent`` all ``-1``): opens the walls of the edges it takes."""
    nv = parent.size
    idmask = (_U1 << np.uint64(idbits)) - _U1
    joined = 0
    for j in range(gkey.size):
        ra = _find(parent, ga[j])
        rb = _find(parent, gb[j])
        if ra == rb:
            continue
        _union(parent, ra, rb)
        _set_wall(east, south, np.int64(gkey[j] & idmask), _OPEN)
        joined += 1
        if joined == nv - 1:
            break
