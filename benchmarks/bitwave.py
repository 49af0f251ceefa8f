"""Bit-parallel wavefront (an experiment of bench_speed.py, not used by robomaze).

4-connected unit-cost step counts, 64 cells a word.

The free mask is packed into rows of ``uint64`` words (bit ``i`` of word
``j`` of row ``r`` is cell ``(r, 64 j + i)``), and so is the set of free
cells not yet labelled (``open``). The wave keeps its frontier as a list of
*words* with their frontier bits, not of cells: one level's successors of a
word are ``(b << 1) | (b >> 1)`` in the word itself (plus one carry bit into
each horizontal neighbour word) and ``b`` itself in the words above and
below, each masked with ``open``. A word the level touches is listed once;
its new bits are labelled with the level's distance (one store per cell,
found by count-trailing-zeros) and become the next frontier.

Per cell the scalar wave pops a queue entry and reads four neighbour labels
scattered over three rows of a 4-byte-per-cell array; here the neighbour
tests are word operations on two bitsets 32x smaller than the labels, and
the only per-cell work left is the store of the label. The labels are the
BFS levels, so the field is identical to the scalar wave's
(:func:`robomaze._search.bfs_field`; bench_speed.py checks it).

Why it stays here: a 4-connected wave's front is a diamond in open space
and a short segment across a corridor, so it sets 1-1.3 bits per word on
average (12.0 M cells in 9.7 M frontier words on a corridor-3 maze at
4001^2) and pays ~5 word updates per frontier word; measured against the
scalar wave it is 1.07-1.09x on mazes of corridor 1 and 3 and random
grids, 0.85x on corridor 9 and 0.4x on an open grid (benchmarks/README.md).
"""

from __future__ import annotations

import numpy as np
from numba import njit  # cache=False: a benchmark, not the package
from numba.cpython.unsafe.numbers import trailing_zeros

__all__ = ["pack_rows", "bit_field"]


def pack_rows(mask: np.ndarray, rows: int, cols: int, *, occupied: bool = False) -> np.ndarray:
    """Free cells of a flat uint8 mask, packed: ``(rows + 2, words + 1)`` uint64.

    Bit ``i`` of word ``j`` of padded row ``r + 1`` is cell ``(r, 64 j + i)``;
    the first and last rows, the last word of every row and the bits past
    ``cols`` are 0 (blocked), so the wave needs no bounds checks.
    ``occupied``: the mask is nonzero on blocked cells.

    >>> m = np.array([1, 0, 1, 1, 0, 0, 1, 1, 1, 0], np.uint8)
    >>> [[bin(int(w)) for w in row] for row in pack_rows(m, 2, 5)]
    [['0b0', '0b0'], ['0b1101', '0b0'], ['0b1110', '0b0'], ['0b0', '0b0']]
    >>> [bin(int(w)) for w in pack_rows(m, 2, 5, occupied=True)[1:-1, 0]]
    ['0b10010', '0b10001']
    """
    words = (cols + 63) // 64
    m2 = np.asarray(mask).reshape(rows, cols)
    packed = np.zeros((rows + 2, (words + 1) * 8), np.uint8)
    packed[1:-1, :(cols + 7) // 8] = np.packbits(m2, axis=1, bitorder="little")
    bits = packed.view("<u8")
    if occupied:
        inner = bits[1:-1, :words]
        np.invert(inner, out=inner)
        tail = cols - 64 * (words - 1)
        if tail < 64:
            inner[:, -1] &= np.uint64((1 << tail) - 1)  # (Python int: no uint64 overflow)
    return bits.astype(np.uint64, copy=False)


def bit_field(mask, rows: int, cols: int, goal: int, *, occupied: bool = False):
    """Step counts from flat cell ``goal``: ``(dist (rows, cols) int32, cells labelled)``.

    -1 on blocked and unreachable cells; the goal must be free. ``dist`` is
    a view into the padded label array (rows of ``64 * (words + 1)``).

    >>> m = np.array([[1, 1, 0], [0, 1, 1]], np.uint8).ravel()
    >>> bit_field(m, 2, 3, 0)[0].tolist()
    [[0, 1, -1], [-1, 2, 3]]
    """
    bits = pack_rows(mask, rows, cols, occupied=occupied)
    nw = bits.shape[1]
    gr, gc = divmod(int(goal), cols)
    dist, labelled = _bit_field(bits.reshape(-1), nw, (gr + 1) * nw * 64 + gc)
    return dist.reshape(rows + 2, nw * 64)[1:-1, :cols], labelled


@njit
def _bit_field(open_, nw, goal):
    # padded cell index c = 64 * w + bit, w the padded word: no division anywhere
    dist = np.full(open_.shape[0] * 64, -1, np.int32)
    one = np.uint64(1)
    top = np.uint64(1) << np.uint64(63)
    gw = goal >> 6
    gb = one << np.uint64(goal & 63)
    if open_[gw] & gb == 0:
        return dist, 0
    open_[gw] &= ~gb
    dist[goal] = 0
    cap = 16
    f_word = np.empty(cap, np.int64)
    f_bits = np.empty(cap, np.uint64)
    n_word = np.empty(5 * cap, np.int64)
    acc = np.zeros(open_.shape[0], np.uint64)  # a level's new bits per word
    f_word[0] = gw
    f_bits[0] = gb
    nf = 1
    labelled = 1
    d = 0
    while nf > 0:
        d += 1
        if 5 * nf > n_word.shape[0]:
            n_word = np.empty(10 * nf, np.int64)
        nn = 0
        for k in range(nf):
            w = f_word[k]
            b = f_bits[k]
            # the word itself, its east/west carries, the words above and below;
            # a word is listed when it first gets a bit (branch-free bookkeeping)
            m = ((b << one) | (b >> one)) & open_[w]
            a = acc[w]
            n_word[nn] = w
            nn += (a == 0) & (m != 0)
            acc[w] = a | m
            m = (b >> np.uint64(63)) & open_[w + 1]
            a = acc[w + 1]
            n_word[nn] = w + 1
            nn += (a == 0) & (m != 0)
            acc[w + 1] = a | m
            m = (b << np.uint64(63)) & open_[w - 1]
            a = acc[w - 1]
            n_word[nn] = w - 1
            nn += (a == 0) & (m != 0)
            acc[w - 1] = a | m
            m = b & open_[w - nw]
            a = acc[w - nw]
            n_word[nn] = w - nw
            nn += (a == 0) & (m != 0)
            acc[w - nw] = a | m
            m = b & open_[w + nw]
            a = acc[w + nw]
            n_word[nn] = w + nw
            nn += (a == 0) & (m != 0)
            acc[w + nw] = a | m
        if nn > f_word.shape[0]:
            cap = 2 * nn
            f_word = np.empty(cap, np.int64)
            f_bits = np.empty(cap, np.uint64)
        dd = np.int32(d)
        for k in range(nn):
            w = n_word[k]
            m = acc[w]
            acc[w] = 0
            open_[w] &= ~m
            f_word[k] = w
            f_bits[k] = m
            base = w << 6
            while m:
                dist[base + trailing_zeros(m)] = dd
                labelled += 1
                m &= m - one
        nf = nn
    return dist, labelled
