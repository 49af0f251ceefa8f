"""Numba kernel of ``prim``: Prim's algorithm on i.i.d. random edge weights.

Same conventions as :mod:`robomaze.generate._kernels`: flat arrays, a
SplitMix64 stream from one seed, ``uint8`` east/south wall arrays out. The
cell bytes share the 8x8 cache-line layout of :mod:`._tree_kernels`.

"Kernel style N" notes refer to :mod:`robomaze._compile.kernels`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._compile.kernels import filled
from .._search import heap_pop, heap_push
from ._kernels import below, new_state, next_u64
from .._compile.kernels import prefetch
from ._tree_kernels import _bidx, _unpack_walls


_S31 = np.uint64(31)
_EDGE_MASK = np.uint64((1 << 31) - 1)

#: Prim's queue: up to 4096 coarse buckets by the key's top 12 bits (fewer
#: on small mazes, :func:`_coarse_bits`), lists of 32-key chunks; the
#: current coarse bucket is split again by the next bits once the 4096
#: would hold more than ``_FINE_AT`` keys each on average.
_COARSE_BITS = 12
_CHUNK = 32
_FINE_AT = 32



@njit(cache=True)
def _bucket_put(key, b, pool, cnext, head, tail, fill, free, nalloc):
    """Append ``key`` to bucket ``b``; returns the new ``(free, nalloc)``."""
    ch = tail[b]
    if ch < 0 or fill[b] == _CHUNK:
        if free >= 0:
            new = free
            free = cnext[free]
        else:
            new = nalloc
            nalloc += 1
        cnext[new] = -1
        if ch < 0:
            head[b] = new
        else:
            cnext[ch] = new
        tail[b] = new
        fill[b] = 0
        ch = new
    pool[ch * _CHUNK + fill[b]] = key
    fill[b] += 1
    return free, nalloc


@njit(cache=True)
def _prim_target(key, cols, tcols):
    """Prim queue key -> (direction code, row and column of the tree-side
    cell, row, column and blocked index of the other cell)."""
    e = np.int64(key & _EDGE_MASK)
    a = e >> 2
    code = e & 3
    ra = a // cols
    ca = a - ra * cols
    rb = ra - 1 if code == 0 else (ra + 1 if code == 2 else ra)
    cb = ca + 1 if code == 1 else (ca - 1 if code == 3 else ca)
    return code, ra, ca, rb, cb, _bidx(rb, cb, tcols)


@njit(cache=True)
def _coarse_bits(n):
    """Bits of the coarse split: 16-32 cells per bucket, at least 16 and
    at most ``2**_COARSE_BITS`` buckets. Draining a bucket has a fixed cost,
    so 4096 nearly empty buckets made a 30x30 maze 5x slower than 32."""
    b = 4
    while b < _COARSE_BITS and (n >> (b + 5)) > 0:
        b += 1
    return b


@njit(cache=True)
def _fine_bits(n, cbits):
    """Bits of the fine split: the fewest that keep ``n >> (cbits + bits)``
    (about the keys of one fine band over the run) at most ``_FINE_AT``."""
    b = 0
    while (n >> (cbits + b)) > _FINE_AT:
        b += 1
    return b


@njit(cache=True)
def _chunk_targets(pool, ch, m, cell, cols, tcols, tgt, k):
    """Blocked cell index of the far end of the first ``m`` keys of chunk
    ``ch`` into ``tgt[k]``, each prefetched."""
    for j in range(m):
        t = _prim_target(pool[ch * _CHUNK + j], cols, tcols)[5]
        tgt[k, j] = t
        prefetch(cell, t)


@njit(cache=True)
def _drain(b, split, fbase, fshift, fmask, pool, cnext, head, tail, fill, free, nalloc,
           heap, size, cell, cols, tcols, tgt):
    """Empty bucket ``b``: drop the keys gone stale while they waited (their
    far cell joined the tree), then push the others onto the heap, or with
    ``split`` put each into its fine bucket ``fbase + ((key >> fshift) &
    fmask)``. Returns the new ``(free, nalloc, size)``.

    The stale test looks up cells anywhere in the maze, and the chunks are
    anywhere in the pool, so the walk is software-pipelined: while chunk
    ``ch`` is tested, the look-ups of the next chunk are already prefetched
    (``tgt`` holds both chunks' indices) and the one after it is being read,
    so the cache misses overlap instead of coming one by one.
    """
    ch = head[b]
    k = np.int64(0)  # typed, not a literal (kernel style 4)
    if ch >= 0:
        _chunk_targets(pool, ch, _CHUNK if cnext[ch] >= 0 else fill[b], cell, cols, tcols,
                       tgt, k)
    while ch >= 0:
        nxt = cnext[ch]
        m = _CHUNK if nxt >= 0 else fill[b]
        if nxt >= 0:
            nn = cnext[nxt]
            if nn >= 0:
                for j in range(0, _CHUNK, 8):
                    prefetch(pool, nn * _CHUNK + j)
                prefetch(pool, nn * _CHUNK + _CHUNK - 1)
                prefetch(cnext, nn)
            _chunk_targets(pool, nxt, _CHUNK if nn >= 0 else fill[b], cell, cols, tcols,
                           tgt, 1 - k)
        for j in range(m):
            if cell[tgt[k, j]] & 1 == 0:
                key = pool[ch * _CHUNK + j]
                if split:
                    free, nalloc = _bucket_put(key, fbase + np.int64((key >> fshift) & fmask),
                                               pool, cnext, head, tail, fill, free, nalloc)
                else:
                    size = heap_push(heap, None, None, size, key, 0.0, 0)
        cnext[ch] = free  # the chunk is read: free it
        free = ch
        ch = nxt
        k = 1 - k
    head[b] = -1
    tail[b] = -1
    return free, nalloc, size


@njit(cache=True)
def prim(rows, cols, seed, cbits=-1, fbits=-1):
    """Prim's algorithm on i.i.d. uniform edge weights.

    Each edge enters the queue at most once (from whichever end joins the
    tree first), so drawing its weight at push time is the same as drawing
    all weights up front. A queue entry is one uint64: a 33-bit random
    weight above the 31-bit edge id ``cell * 4 + direction``. (Equal 33-bit
    weights, about one pair per 2**33 comparisons, fall back to edge-id
    order: a negligible tie-break.)

    The tree grows where the lightest waiting edge is -- anywhere on its
    rim -- so both the queue and the cells are built for cache misses:

    * The queue is exact but small where it is busy. Most of the ~0.85 n
      entries it holds at its peak are heavy edges that wait a long time,
      so they wait outside the heap: 4096 coarse buckets by the key's top 12
      bits, each a list of 32-key chunks (an append touches one cache line
      per bucket). On large mazes the current coarse bucket is split again
      into ``2**fbits`` fine buckets by the next bits (:func:`_fine_bits`:
      none up to 131072 cells, 128 at 4000x4000), so only a ~32/n wide band
      of waiting weights is in the heap. Only that band and the keys below
      it live in the core's binary heap (:mod:`robomaze._search`); when the
      heap runs dry the next fine bucket moves in, and after the last one
      the next coarse bucket is split. Keys below the current band never
      reach a bucket, so the band only rises and every pop is the global
      minimum: the same tree as one big heap, for any split. (The heap
      still grows with the maze -- mean 39 keys at 250x250, 2170 at
      4000x4000, 3040 without the split -- with the front of the current
      avalanche, the light edges around a region being invaded.)
    * Moving a bucket drops the keys gone stale while they waited; those
      look-ups go anywhere in the maze and the chunks anywhere in the pool,
      so the walk is software-pipelined with prefetches (:func:`_drain`):
      the cache misses overlap instead of coming one by one.
    * The growth runs in avalanches: a new cell's lightest edge is often
      lighter than everything waiting, and then it is the next pop. It is
      held outside the heap until that is known, which saves a sift to the
      root and back out of the heap for it (12% of the time at every size).
    * A cell's in-tree flag and its east and south walls are three bits of
      one byte, and the bytes are laid out in 8x8 blocks of one cache line,
      so a new cell and its four neighbours mostly share one line. The walls
      are unpacked to row-major arrays at the end.

    ``cbits`` and ``fbits`` set the split, ``2**cbits`` coarse and
    ``2**fbits`` fine buckets (``cbits + fbits <= 33``, the weight's bits;
    -1: :func:`_coarse_bits`, :func:`_fine_bits`). The tree is the same for
    any of them.
    """
    if cbits < 0:
        cbits = _coarse_bits(rows * cols)
    if fbits < 0:
        fbits = _fine_bits(rows * cols, cbits)
    n = rows * cols
    st = new_state(seed)
    tcols = (cols + 7) >> 3
    cell = filled(((rows + 7) >> 3) * tcols * 64, 6, np.uint8)  # 1 in tree, 2 east, 4 south
    heap = np.empty(2 * n + 4, np.uint64)
    ncoarse = 1 << cbits
    nfine = 1 << fbits
    split = nfine > 1
    cshift = np.uint64(64 - cbits)
    fshift = np.uint64(64 - cbits - fbits)
    fmask = np.uint64(nfine - 1)
    nchunks = (2 * n + _CHUNK - 1) // _CHUNK + ncoarse + nfine + 1
    pool = np.empty(nchunks * _CHUNK, np.uint64)
    cnext = np.empty(nchunks, np.int32)
    head = filled(ncoarse + nfine, -1, np.int32)
    tail = filled(ncoarse + nfine, -1, np.int32)
    fill = filled(ncoarse + nfine, 0, np.int32)
    tgt = np.empty((2, _CHUNK), np.int64)
    # np.int64, not literals (kernel style 4)
    free = np.int64(-1)
    nalloc = np.int64(0)
    cur = -1  # the current coarse bucket, and fine bucket in it
    curf = nfine - 1
    size = np.int64(0)
    no_split = np.bool_(False)  # typed, not a literal (kernel style 4)
    u = below(st, n)
    r = u // cols
    c = u - r * cols
    cell[_bidx(r, c, tcols)] |= 1
    count = 1
    hold = np.uint64(0)
    while True:
        held = False
        for code in range(4):  # N, E, S, W: the order the weights are drawn in
            if code == 0:
                if r == 0 or cell[_bidx(r - 1, c, tcols)] & 1:
                    continue
            elif code == 1:
                if c == cols - 1 or cell[_bidx(r, c + 1, tcols)] & 1:
                    continue
            elif code == 2:
                if r == rows - 1 or cell[_bidx(r + 1, c, tcols)] & 1:
                    continue
            elif c == 0 or cell[_bidx(r, c - 1, tcols)] & 1:
                continue
            key = ((next_u64(st) >> _S31) << _S31) | np.uint64(u * 4 + code)
            bk = np.int64(key >> cshift)
            if bk > cur:
                free, nalloc = _bucket_put(key, bk, pool, cnext, head, tail, fill,
                                           free, nalloc)
            else:
                f = np.int64((key >> fshift) & fmask)
                if bk < cur or f <= curf:  # the lightest waits outside the heap
                    if not held:
                        hold = key
                        held = True
                    else:
                        if key < hold:
                            key, hold = hold, key
                        size = heap_push(heap, None, None, size, key, 0.0, 0)
                else:
                    free, nalloc = _bucket_put(key, ncoarse + f, pool, cnext, head, tail,
                                               fill, free, nalloc)
        if count == n:
            break
        if held and size > 0 and heap[0] < hold:
            size = heap_push(heap, None, None, size, hold, 0.0, 0)
            held = False
        while True:  # pop until an edge leaves the tree
            if held:  # the new cell's lightest edge is the lightest of all
                code, ra, ca, rb, cb, ib = _prim_target(hold, cols, tcols)
                break
            while size == 0:  # move the next fine bucket into the heap
                curf += 1
                if curf == nfine:  # first split the next coarse bucket
                    cur += 1
                    curf = 0
                    free, nalloc, size = _drain(cur, split, ncoarse, fshift, fmask, pool,
                                                cnext, head, tail, fill, free, nalloc,
                                                heap, size, cell, cols, tcols, tgt)
                if split:
                    free, nalloc, size = _drain(ncoarse + curf, no_split, ncoarse, fshift,
                                                fmask, pool, cnext, head, tail, fill, free,
                                                nalloc, heap, size, cell, cols, tcols, tgt)
            _, _, top, size = heap_pop(heap, None, None, size)
            code, ra, ca, rb, cb, ib = _prim_target(top, cols, tcols)
            if cell[ib] & 1 == 0:
                break
        if code == 0:  # the wall south of b
            cell[ib] &= 0xFB
        elif code == 1:
            cell[_bidx(ra, ca, tcols)] &= 0xFD
        elif code == 2:
            cell[_bidx(ra, ca, tcols)] &= 0xFB
        else:  # the wall east of b
            cell[ib] &= 0xFD
        cell[ib] |= 1
        count += 1
        u = rb * cols + cb
        r = rb
        c = cb
    # int64 bits, not literals: one specialisation of _unpack_walls, not one per literal
    return _unpack_walls(cell, rows, cols, np.int64(2), np.int64(4))
