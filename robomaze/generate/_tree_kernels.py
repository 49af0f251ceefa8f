"""Numba kernels for the tree-growing, row-by-row and wall-adding generators.

Same conventions as :mod:`robomaze.generate._kernels`: flat arrays, a
SplitMix64 stream from one seed, ``uint8`` east/south wall arrays out.

Numba's on-disk cache only watches the file a kernel is defined in: after
editing a helper in ``_kernels.py``, ``_mst_kernels.py`` or ``_prefetch.py``,
delete ``__pycache__/*.nbi`` and ``*.nbc`` here so these kernels are
recompiled against it (``_mst_kernels.py`` likewise uses ``_kernels.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._search import heap_pop, heap_push
from ._kernels import below, carve, neighbours, new_state, next_u64, uniform
from ._mst_kernels import _find
from ._prefetch import prefetch


_S31 = np.uint64(31)
_EDGE_MASK = np.uint64((1 << 31) - 1)

#: Prim's queue: 4096 coarse buckets by the key's top 12 bits, lists of
#: 32-key chunks; the current coarse bucket is split again by the next bits
#: once the 4096 would hold more than ``_FINE_AT`` keys each on average.
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
def _bidx(r, c, tcols):
    """Index of cell ``(r, c)`` in 8x8 blocks of one 64-byte cache line each."""
    return (((r >> 3) * tcols + (c >> 3)) << 6) | ((r & 7) << 3) | (c & 7)


@njit(cache=True)
def _unpack_walls(cell, rows, cols, east_bit, south_bit):
    """Row-major ``east, south`` wall arrays from blocked cell bytes."""
    tcols = (cols + 7) >> 3
    east = np.empty(rows * cols, np.uint8)
    south = np.empty(rows * cols, np.uint8)
    for r in range(rows):
        for c in range(cols):
            x = cell[_bidx(r, c, tcols)]
            east[r * cols + c] = 1 if x & east_bit else 0
            south[r * cols + c] = 1 if x & south_bit else 0
    return east, south


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
    k = 0
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
def prim(rows, cols, seed, cbits=_COARSE_BITS, fbits=-1):
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
    ``fbits`` -1: :func:`_fine_bits`). The tree is the same for any of them.
    """
    if fbits < 0:
        fbits = _fine_bits(rows * cols, cbits)
    n = rows * cols
    st = new_state(seed)
    tcols = (cols + 7) >> 3
    cell = np.full(((rows + 7) >> 3) * tcols * 64, 6, np.uint8)  # 1 in tree, 2 east, 4 south
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
    head = np.full(ncoarse + nfine, -1, np.int32)
    tail = np.full(ncoarse + nfine, -1, np.int32)
    fill = np.zeros(ncoarse + nfine, np.int32)
    tgt = np.empty((2, _CHUNK), np.int64)
    free = -1
    nalloc = 0
    cur = -1  # the current coarse bucket, and fine bucket in it
    curf = nfine - 1
    size = 0
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
                    free, nalloc, size = _drain(ncoarse + curf, False, ncoarse, fshift,
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
    return _unpack_walls(cell, rows, cols, 2, 4)


@njit(cache=True)
def prim_frontier(rows, cols, seed):
    """Frontier-cell Prim: cells are Out, Frontier or In.

    A uniformly random Frontier cell joins the maze through a uniformly
    random In neighbour; its Out neighbours become Frontier. The frontier is
    an int32 array with swap-removal, so every step is O(1). The step lands
    anywhere on the rim, so a cell's state (bits 0-1) and its east and south
    walls (bits 2, 3) share one byte, laid out in 8x8 blocks of one cache
    line: a cell and its neighbours are mostly one memory access.
    """
    n = rows * cols
    st = new_state(seed)
    tcols = (cols + 7) >> 3
    cell = np.full(((rows + 7) >> 3) * tcols * 64, 12, np.uint8)  # out, both walls
    front = np.empty(n, np.int32)
    cand = np.empty(4, np.int64)
    flen = 0
    u = below(st, n)
    r = u // cols
    c = u - r * cols
    cell[_bidx(r, c, tcols)] |= 2
    while True:
        # Out neighbours become Frontier, in the order N, E, S, W
        if r > 0:
            i = _bidx(r - 1, c, tcols)
            if cell[i] & 3 == 0:
                cell[i] |= 1
                front[flen] = u - cols
                flen += 1
        if c < cols - 1:
            i = _bidx(r, c + 1, tcols)
            if cell[i] & 3 == 0:
                cell[i] |= 1
                front[flen] = u + 1
                flen += 1
        if r < rows - 1:
            i = _bidx(r + 1, c, tcols)
            if cell[i] & 3 == 0:
                cell[i] |= 1
                front[flen] = u + cols
                flen += 1
        if c > 0:
            i = _bidx(r, c - 1, tcols)
            if cell[i] & 3 == 0:
                cell[i] |= 1
                front[flen] = u - 1
                flen += 1
        if flen == 0:
            break
        k = below(st, flen)
        u = front[k]
        flen -= 1
        front[k] = front[flen]
        r = u // cols
        c = u - r * cols
        m = 0
        if r > 0 and cell[_bidx(r - 1, c, tcols)] & 3 == 2:
            cand[m] = 0
            m += 1
        if c < cols - 1 and cell[_bidx(r, c + 1, tcols)] & 3 == 2:
            cand[m] = 1
            m += 1
        if r < rows - 1 and cell[_bidx(r + 1, c, tcols)] & 3 == 2:
            cand[m] = 2
            m += 1
        if c > 0 and cell[_bidx(r, c - 1, tcols)] & 3 == 2:
            cand[m] = 3
            m += 1
        d = cand[below(st, m)]
        iu = _bidx(r, c, tcols)
        if d == 0:
            cell[_bidx(r - 1, c, tcols)] &= 0xF7  # south wall of the cell above
        elif d == 1:
            cell[iu] &= 0xFB
        elif d == 2:
            cell[iu] &= 0xF7
        else:
            cell[_bidx(r, c - 1, tcols)] &= 0xFB  # east wall of the cell to the left
        cell[iu] = (cell[iu] & 0xFC) | 2
    return _unpack_walls(cell, rows, cols, 4, 8)


@njit(cache=True)
def eller(rows, cols, seed):
    """Eller's row-at-a-time algorithm with union-find set labels.

    Merging two sets in a row is a union (no relabelling pass), so a row
    costs O(cols) whatever the merges. After each row the labels are
    renumbered to ``0 .. cols-1`` in order of first appearance (a fresh set
    for each cell that did not go down), so every per-set array
    has ``cols`` entries and stays in cache whatever the number of rows;
    only the set structure, never a label's value, drives a random draw.
    """
    n = rows * cols
    st = new_state(seed)
    east = np.ones(n, np.uint8)
    south = np.ones(n, np.uint8)
    parent = np.full(cols, -1, np.int32)  # roots negative, as _find expects
    label = np.arange(cols).astype(np.int32)
    remap = np.full(cols, -1, np.int32)
    down = np.zeros(cols, np.uint8)
    has = np.zeros(cols, np.uint8)
    seen = np.zeros(cols, np.int64)
    choice = np.zeros(cols, np.int64)
    for r in range(rows):
        base = r * cols
        last = r == rows - 1
        for c in range(cols - 1):
            a = _find(parent, label[c])
            b = _find(parent, label[c + 1])
            if a != b and (last or uniform(st) < 0.5):
                parent[b] = a
                east[base + c] = 0
        if last:
            break
        for c in range(cols):
            label[c] = _find(parent, label[c])
            down[c] = 1 if uniform(st) < 0.5 else 0
            if down[c]:
                has[label[c]] = 1
        # every set needs a way down: sets that drew none get one random
        # member (reservoir sampling over the row in one pass)
        for c in range(cols):
            lab = label[c]
            if has[lab] == 0:
                seen[lab] += 1
                if below(st, seen[lab]) == 0:
                    choice[lab] = c
        for c in range(cols):
            lab = label[c]
            if has[lab] == 0:
                down[choice[lab]] = 1
                has[lab] = 1
        nxt = 0
        for c in range(cols):
            lab = label[c]
            has[lab] = 0
            seen[lab] = 0
            if down[c]:
                south[base + c] = 0
                if remap[lab] < 0:
                    remap[lab] = nxt
                    nxt += 1
                label[c] = remap[lab]
            else:
                label[c] = nxt  # a fresh set for the next row
                nxt += 1
        remap[:] = -1
        parent[:] = -1
    return east, south


@njit(cache=True)
def sidewinder(rows, cols, seed):
    """Runs along each row, each closed by one passage north from a random cell."""
    n = rows * cols
    st = new_state(seed)
    east = np.ones(n, np.uint8)
    south = np.ones(n, np.uint8)
    for c in range(cols - 1):
        east[c] = 0
    for r in range(1, rows):
        base = r * cols
        run = 0
        for c in range(cols):
            if c < cols - 1 and uniform(st) < 0.5:
                east[base + c] = 0
            else:
                k = run + below(st, c - run + 1)
                south[base - cols + k] = 0
                run = c + 1
    return east, south


@njit(cache=True)
def binary_tree(rows, cols, seed):
    """Each cell opens north or west (whichever exist), at random."""
    n = rows * cols
    st = new_state(seed)
    east = np.ones(n, np.uint8)
    south = np.ones(n, np.uint8)
    for u in range(n):
        r = u // cols
        c = u - r * cols
        if r > 0 and c > 0:
            if uniform(st) < 0.5:
                south[u - cols] = 0
            else:
                east[u - 1] = 0
        elif r > 0:
            south[u - cols] = 0
        elif c > 0:
            east[u - 1] = 0
    return east, south


@njit(cache=True)
def division(rows, cols, seed):
    """Recursive division with an explicit stack of chambers.

    Each wall splits a chamber in two and leaves exactly one gap, so the two
    halves (each a tree by induction) join by one passage: the result is a
    spanning tree. Each split shrinks height + width, so the stack depth is
    below rows + cols.
    """
    n = rows * cols
    st = new_state(seed)
    east = np.zeros(n, np.uint8)
    south = np.zeros(n, np.uint8)
    cap = 2 * (rows + cols) + 8
    stack = np.empty((cap, 4), np.int64)
    stack[0, 0] = 0
    stack[0, 1] = 0
    stack[0, 2] = rows
    stack[0, 3] = cols
    sp = 1
    while sp > 0:
        sp -= 1
        r0 = stack[sp, 0]
        c0 = stack[sp, 1]
        h = stack[sp, 2]
        w = stack[sp, 3]
        if h < 2 or w < 2:
            continue
        horizontal = h > w or (h == w and uniform(st) < 0.5)
        if horizontal:
            wr = r0 + below(st, h - 1)  # wall south of row wr
            gap = c0 + below(st, w)
            for c in range(c0, c0 + w):
                if c != gap:
                    south[wr * cols + c] = 1
            stack[sp, 0] = r0
            stack[sp, 1] = c0
            stack[sp, 2] = wr - r0 + 1
            stack[sp, 3] = w
            stack[sp + 1, 0] = wr + 1
            stack[sp + 1, 1] = c0
            stack[sp + 1, 2] = r0 + h - wr - 1
            stack[sp + 1, 3] = w
        else:
            wc = c0 + below(st, w - 1)  # wall east of column wc
            gap = r0 + below(st, h)
            for r in range(r0, r0 + h):
                if r != gap:
                    east[r * cols + wc] = 1
            stack[sp, 0] = r0
            stack[sp, 1] = c0
            stack[sp, 2] = h
            stack[sp, 3] = wc - c0 + 1
            stack[sp + 1, 0] = r0
            stack[sp + 1, 1] = wc + 1
            stack[sp + 1, 2] = h
            stack[sp + 1, 3] = c0 + w - wc - 1
        sp += 2
    return east, south


@njit(cache=True)
def wall_adder(rows, cols, seed):
    """Grow walls between posts until every post is attached to the boundary.

    Posts sit at cell corners, ``(rows + 1) x (cols + 1)`` of them, index
    ``i * (cols + 1) + j``. Boundary posts start attached (the outer wall);
    the maze starts with no interior walls. A uniformly random unattached
    post that neighbours an attached one is joined to a random attached
    neighbour by one wall segment, until none is left unattached.

    Why the result is perfect: each segment joins an unattached post to the
    attached component, so it never closes a cycle of walls (a wall cycle
    would wall off a region of cells); when every one of the
    ``(rows - 1) * (cols - 1)`` interior posts is attached, the interior
    walls form a spanning tree of the post graph with the boundary contracted
    to its root. Its planar dual -- the open passages -- is then a spanning
    tree of the cells: ``rows*(cols-1) + cols*(rows-1) - (rows-1)*(cols-1)
    = rows*cols - 1`` passages, and no cell region is cut off.
    """
    n = rows * cols
    st = new_state(seed)
    pc = cols + 1
    npost = (rows + 1) * pc
    # one byte per post, in 8x8 blocks of one cache line (a step touches a
    # post and its four neighbours): state in bits 0-1 (0 unattached,
    # 1 frontier, 2 attached), bit 2 the wall segment down to post (i+1, j)
    # = east wall of cell (i, j-1), bit 3 the segment right to post (i, j+1)
    # = south wall of cell (i-1, j)
    tcols = (pc + 7) >> 3
    post = np.zeros(((rows + 8) >> 3) * tcols * 64, np.uint8)
    front = np.empty(npost, np.int32)
    flen = 0
    for i in range(rows + 1):
        for j in range(pc):
            if i == 0 or i == rows or j == 0 or j == cols:
                post[_bidx(i, j, tcols)] = 2
    for i in range(1, rows):
        for j in range(1, cols):
            if i == 1 or i == rows - 1 or j == 1 or j == cols - 1:
                post[_bidx(i, j, tcols)] = 1
                front[flen] = i * pc + j
                flen += 1
    cand = np.empty(4, np.int64)
    nbi = np.empty(4, np.int64)
    while flen > 0:
        k = below(st, flen)
        p = front[k]
        flen -= 1
        front[k] = front[flen]
        i = p // pc
        j = p - i * pc
        nbi[0] = _bidx(i - 1, j, tcols)  # interior posts have all four neighbours
        nbi[1] = _bidx(i, j + 1, tcols)
        nbi[2] = _bidx(i + 1, j, tcols)
        nbi[3] = _bidx(i, j - 1, tcols)
        m = 0
        for d in range(4):
            if post[nbi[d]] & 3 == 2:
                cand[m] = d
                m += 1
        d = cand[below(st, m)]
        ip = _bidx(i, j, tcols)
        if d == 0:  # segment (i-1, j)-(i, j)
            post[nbi[0]] |= 4
        elif d == 2:  # segment (i, j)-(i+1, j)
            post[ip] |= 4
        elif d == 1:  # segment (i, j)-(i, j+1)
            post[ip] |= 8
        else:  # segment (i, j-1)-(i, j)
            post[nbi[3]] |= 8
        post[ip] = (post[ip] & 0xFC) | 2
        for d in range(4):
            if post[nbi[d]] & 3 == 0:
                post[nbi[d]] |= 1
                q = p - pc if d == 0 else (p + 1 if d == 1 else (p + pc if d == 2 else p - 1))
                front[flen] = q
                flen += 1
    east = np.zeros(n, np.uint8)
    south = np.zeros(n, np.uint8)
    for r in range(rows):
        for c in range(cols - 1):
            east[r * cols + c] = 1 if post[_bidx(r, c + 1, tcols)] & 4 else 0
    for r in range(rows - 1):
        for c in range(cols):
            south[r * cols + c] = 1 if post[_bidx(r + 1, c, tcols)] & 8 else 0
    return east, south
