"""Kruskal for small grids: the keys and their sort in numpy, one small
union-find kernel.

The keys are those of :mod:`robomaze.generate._mst_kernels` bit for bit
(SplitMix64 at counter ``e + 1``, vectorised on ``uint64``, above the edge
id), and with distinct keys the minimum spanning tree is unique, so this
path builds the very maze the tiled reduction builds. It compiles one
kernel of a few lines instead of the reduction's twenty (about 0.2 s
instead of 4 s on a cold cache); above a few tens of thousands of cells the
tiled reduction, which keeps its work in cache, is the faster of the two
(``robomaze.generate.trees.SMALL_CELLS``).

Examples
--------
>>> import numpy as np
>>> from robomaze.generate import _mst_kernels
>>> e, k = edge_keys(3, 4, 7)
>>> bool((_mst_kernels.all_keys(3, 4, 7)[e] == k).all())
True
"""

from __future__ import annotations

import numpy as np

from .._compile.kernels import noalloc
from ._kernels import _GAMMA, _MIX1, _MIX2
from ._common import closed_walls

_U1 = np.uint64(1)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)


def id_bits(n: int) -> int:
    """Bits of the edge id in a key for an ``n``-cell grid (edge ids < 2n);
    :func:`robomaze.generate._mst_kernels.id_bits` in Python."""
    b = 1
    while (1 << b) < 2 * n:
        b += 1
    return b


def edge_keys(rows: int, cols: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The grid's edge ids (east edges, then south, ``int64``) and their keys
    (``uint64``, equal to ``_mst_kernels.edge_key(seed, e, id_bits(n))``)."""
    n = rows * cols
    cell = np.arange(n, dtype=np.int64).reshape(rows, cols)
    m = rows * (cols - 1) + (rows - 1) * cols
    e = np.empty(m, np.int64)
    np.multiply(cell[:, :-1], 2, out=e[:rows * (cols - 1)].reshape(rows, cols - 1))
    np.multiply(cell[:-1, :], 2, out=e[rows * (cols - 1):].reshape(rows - 1, cols))
    e[rows * (cols - 1):] += 1
    # uint64 arrays wrap modulo 2**64 as the kernel's arithmetic does; one
    # scratch array for the shifts (every temporary of this size is a fresh
    # allocation, and above malloc's mmap threshold a fresh set of pages)
    z = e.astype(np.uint64)
    t = np.empty_like(z)
    z += _U1
    z *= _GAMMA
    z += np.uint64(seed)
    for shift, mult in ((_S30, _MIX1), (_S27, _MIX2)):
        np.right_shift(z, shift, out=t)
        z ^= t
        z *= mult
    np.right_shift(z, _S31, out=t)
    z ^= t
    sh = np.uint64(id_bits(n))
    z >>= sh
    z <<= sh
    z |= e.view(np.uint64)  # edge ids are >= 0: the same bits
    return e, z


# Kernels here that allocate nothing (their callers do: kernel style 3) are
# noalloc(no_cfunc_wrapper=True): no reference counting lowered and
# no C wrapper, which nothing calls (issue 40, round 12: benchmarks/README.md).
@noalloc(no_cfunc_wrapper=True)
def _kruskal_picks(a, b, parent, picked):
    """Kruskal's choice over the edges ``(a[j], b[j])`` in increasing key
    order: writes the indices ``j`` of the tree's edges into ``picked`` and
    returns their count. ``parent`` starts all ``-1`` (roots hold ``-size``).

    One kernel with the find written out twice: separate ``find`` / ``union``
    kernels would each be one more compile on a cold start.
    """
    need = parent.size - 1
    k = 0
    for j in range(a.size):
        if k == need:
            break
        x = a[j]
        while parent[x] >= 0:  # path halving
            p = parent[x]
            if parent[p] >= 0:
                parent[x] = parent[p]
            x = p
        y = b[j]
        while parent[y] >= 0:
            p = parent[y]
            if parent[p] >= 0:
                parent[y] = parent[p]
            y = p
        if x == y:
            continue
        if parent[x] > parent[y]:  # union by size
            x, y = y, x
        parent[x] += parent[y]
        parent[y] = x
        picked[k] = j
        k += 1
    return k


def kruskal(rows: int, cols: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Walls (flat ``uint8`` east, south; 1 = wall) of the MST of the keys
    (``rows * cols < 2**30``)."""
    n = rows * cols
    _, keys = edge_keys(rows, cols, seed)
    keys.sort()
    keys &= (_U1 << np.uint64(id_bits(n))) - _U1  # the edge ids, in key order
    # int32 cells and parents: half the memory the union-find jumps around in
    e = keys.astype(np.int32)
    a = e >> 1
    b = e & 1
    b *= cols - 1
    b += 1
    b += a
    picked = np.empty(max(n - 1, 0), np.int32)
    k = _kruskal_picks(a, b, np.full(n, -1, np.int32), picked)
    opened = e[picked[:k]]
    east, south = closed_walls(n)
    east[opened[(opened & 1) == 0] >> 1] = 0
    south[opened[(opened & 1) == 1] >> 1] = 0
    return east, south
