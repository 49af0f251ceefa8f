"""The exact 4-connected unit-cost field by row sweeps: no queue, rows streamed.

A queue BFS touches each cell once, but in the order the wave reaches
cells: on an open grid its frontier is a diamond, so consecutive cells of
the queue lie in different rows and nearly every neighbour test misses the
cache (10-15 ns a cell at 4001^2, in C as in numba). This module computes
the same field row by row, in memory order.

The field ``d`` is the least fixed point of ``d(x) = min(d(nb) + 1)`` over
free neighbours (``d(source) = 0``). Every value written here is the length
of a real path (an upper bound), and values only decrease, so once no cell
violates its equation the field is exact -- the textbook BFS's, cell for
cell, whatever the order of the updates. The order chosen:

* a row is relaxed a *range* of cells at a time: a forward pass takes, per
  cell, the least of its own value, the cells above and below plus one and
  the left cell plus one; a backward pass spreads right to left. Outside
  the range both passes stop at the first cell they do not improve (the
  row was consistent before, so nothing beyond can change);
* a cell lowered to ``v`` marks the 32-cell chunk around it *dirty* in the
  row above or below when that row's cell is free and above ``v + 1``
  (so a finished row is not visited again);
* sweeps alternate down and up over the window of rows holding dirty
  chunks, until none is left. Where shortest paths mostly go one way
  vertically (open grids, rooms, sparse obstacles) two or three sweeps
  settle nearly everything, each cell relaxed about once, in streaming
  order; where they wind (mazes, spirals) sweeps multiply and the queue
  BFS is the one to run -- the caller chooses (:func:`sweeps_pay`).

Blocked cells hold -1 from the start and are never written; free cells
start at ``2**30`` (unreached) and the few left there at the end become -1.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: the value of a free cell not reached (yet); well below int32 overflow
BIG = 1 << 30
#: log2 of the dirty chunk's width in cells
CSHIFT = 5

_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_DB_TABLE = np.array([0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4, 62, 55, 59, 36,
                      53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12, 5, 63, 47, 56, 27, 60, 41, 37,
                      16, 54, 35, 52, 21, 44, 32, 23, 11, 46, 26, 40, 15, 34, 20, 31, 10, 25, 14,
                      19, 9, 13, 8, 7, 6], np.int64)


@njit(cache=True, inline="always")
def _ctz(m):
    """Index of the lowest set bit of a non-zero uint64 (de Bruijn multiply)."""
    low = m & (~m + np.uint64(1))
    return _DB_TABLE[(low * _DEBRUIJN) >> np.uint64(58)]


@njit(cache=True, inline="always")
def _mark(dirty, nw, r, x, st):
    k = x >> CSHIFT
    dirty[r * nw + (k >> 6)] |= np.uint64(1) << np.uint64(k & 63)
    if r < st[0]:
        st[0] = r
    if r > st[1]:
        st[1] = r


@njit(cache=True, inline="always")
def _mark_rows(dist, dirty, nw, rows, cols, r, lo, hi, st):
    """Mark the chunks of rows ``r - 1`` and ``r + 1`` that cells ``lo .. hi`` of row ``r`` can improve.

    A chunk at a time, the test reduced over its cells without a branch.
    """
    cs = 1 << CSHIFT
    for nr in (r - 1, r + 1):
        if nr < 0 or nr >= rows:
            continue
        k0 = lo >> CSHIFT
        k1 = hi >> CSHIFT
        for k in range(k0, k1 + 1):
            a = k << CSHIFT
            a = a if a > lo else lo
            b = (k << CSHIFT) + cs
            b = b if b < hi + 1 else hi + 1
            # zero-based loops over slices: numba checks offset indices for wrap-around
            row = dist[r * cols + a:r * cols + b]
            nb = dist[nr * cols + a:nr * cols + b]
            need = False
            for x in range(b - a):
                v = row[x]
                need |= (v >= 0) & (nb[x] > v + 1)
            if need:
                _mark(dirty, nw, nr, a, st)


@njit(cache=True, inline="always")
def _relax_range(dist, dirty, nw, rows, cols, r, xa, xb, st):
    """Relax cells ``xa .. xb - 1`` of row ``r``, spread the changes along the row, mark the
    neighbouring rows' chunks they can improve."""
    base = r * cols
    row = dist[base:base + cols]
    # the row itself stands in for a missing neighbour row
    up = dist[base - cols:base] if r > 0 else row
    dn = dist[base + cols:base + 2 * cols] if r < rows - 1 else row
    c = BIG
    if xa > 0:
        p = row[xa - 1]
        if p >= 0:
            c = p + 1
    lo = cols
    hi = -1
    seg = row[xa:xb]
    sup = up[xa:xb]
    sdn = dn[xa:xb]
    for j in range(xb - xa):                     # no branch on the grid
        own = seg[j]
        u = sup[j]
        d = sdn[j]
        u = u if u >= 0 else BIG
        d = d if d >= 0 else BIG
        v = u if u < d else d
        v += 1
        v = v if v < c else c
        nv = own if (own < 0) | (own <= v) else v
        seg[j] = nv
        ch = nv < own
        lo = j if ch & (j < lo) else lo
        hi = j if ch else hi
        c = BIG if nv < 0 else nv + 1
    if hi >= 0:
        lo += xa
        hi += xa
    x = xb
    while x < cols:                              # the forward spread past the range
        own = row[np.uint64(x)]                  # unsigned: no wrap-around check
        if own <= c:                             # blocked (-1) or not improved
            break
        row[np.uint64(x)] = c
        lo = x if x < lo else lo
        hi = x
        c += 1
        x += 1
    if hi < 0:
        return
    c = BIG
    if hi + 1 < cols:
        p = row[np.uint64(hi + 1)]
        if p >= 0:
            c = p + 1
    seg = row[lo:hi + 1]
    n = hi + 1 - lo
    for j in range(n):                           # backward over the changes
        k = np.uint64(n - 1 - j)
        own = seg[k]
        nv = own if (own < 0) | (own <= c) else c
        seg[k] = nv
        c = BIG if nv < 0 else nv + 1
    x = lo
    while x > 0:                                 # then on while improving
        own = row[np.uint64(x - 1)]
        if own <= c:
            break
        x -= 1
        row[np.uint64(x)] = c
        c += 1
    _mark_rows(dist, dirty, nw, rows, cols, r, x, hi, st)


@njit(cache=True, inline="always")
def _relax_row(dist, dirty, cur, nw, rows, cols, r, st):
    """Relax every run of dirty chunks of row ``r`` (its dirty bits cleared first)."""
    nch = (cols + (1 << CSHIFT) - 1) >> CSHIFT
    for w in range(nw):
        cur[w] = dirty[r * nw + w]
        dirty[r * nw + w] = 0
    k = 0
    one = np.uint64(1)
    while k < nch:
        w = k >> 6
        m = cur[w] >> np.uint64(k & 63)
        if m == 0:
            k = (w + 1) << 6
            continue
        k += _ctz(m)
        if k >= nch:
            break
        s = k
        while k < nch and (cur[k >> 6] >> np.uint64(k & 63)) & one:
            k += 1
        xb = k << CSHIFT
        _relax_range(dist, dirty, nw, rows, cols, r, s << CSHIFT, xb if xb < cols else cols, st)


@njit(cache=True, inline="always")
def _row_dirty(dirty, nw, r):
    for w in range(nw):
        if dirty[r * nw + w]:
            return True
    return False


@njit(cache=True)
def sweep_field(mask, rows, cols, src, occupied, dist, dirty):
    """The exact 4-connected field from flat cell ``src`` into ``dist``: ``(nfree, reached, sweeps)``.

    ``mask``: flat uint8, nonzero on free cells (on blocked ones with
    ``occupied``); ``dist``: ``rows * cols`` int32, written (-1 blocked or
    unreached); ``dirty``: ``rows * nw`` uint64 zeros, ``nw = ceil(ceil(cols
    / 32) / 64)``. ``reached`` counts the labelled cells (0 if ``src`` is
    blocked).
    """
    nw = dirty.shape[0] // rows
    n = rows * cols
    nfree = 0
    for i in range(n):
        f = (mask[i] != 0) != occupied
        dist[i] = np.int32(BIG) if f else np.int32(-1)
        nfree += f
    st = np.empty(2, np.int64)            # the window of rows with dirty chunks
    st[0] = rows
    st[1] = -1
    if dist[src] != BIG:
        dist[:] = -1
        return nfree, 0, 0
    cur = np.empty(nw, np.uint64)
    r0 = src // cols
    x0 = src - r0 * cols
    dist[src] = 0
    c = 1
    x = x0 + 1
    while x < cols and dist[r0 * cols + x] > c:       # the source's row, both ways
        dist[r0 * cols + x] = c
        c += 1
        x += 1
    hi = x - 1
    c = 1
    x = x0 - 1
    while x >= 0 and dist[r0 * cols + x] > c:
        dist[r0 * cols + x] = c
        c += 1
        x -= 1
    for nr in (r0 - 1, r0 + 1):       # the rows beside it: every chunk it spans
        if 0 <= nr < rows:
            for k in range((x + 1) >> CSHIFT, (hi >> CSHIFT) + 1):
                _mark(dirty, nw, nr, k << CSHIFT, st)
    sweeps = 0
    down = True
    # one loop for both directions: the row relaxation is inlined once (its
    # compile time is most of this module's)
    while st[0] <= st[1]:
        sweeps += 1
        lo = st[0]
        hi = st[1]
        st[0] = rows
        st[1] = -1
        r = lo if down else hi
        step = 1 if down else -1
        while True:
            # rows marked ahead of the sweep during it join it
            if down and r > (hi if hi > st[1] else st[1]):
                break
            if not down and r < (lo if lo < st[0] else st[0]):
                break
            if _row_dirty(dirty, nw, r):
                _relax_row(dist, dirty, cur, nw, rows, cols, r, st)
            r += step
        down = not down
    left = 0
    for i in range(n):
        left += dist[i] == BIG
    if left:
        for i in range(n):
            v = dist[i]
            dist[i] = np.int32(-1) if v == BIG else v
    return nfree, nfree - left, sweeps


def dirty_words(rows: int, cols: int) -> np.ndarray:
    """The zeroed dirty-chunk bits :func:`sweep_field` takes for a ``rows x cols`` grid."""
    nch = (cols + (1 << CSHIFT) - 1) >> CSHIFT
    return np.zeros(rows * ((nch + 63) >> 6), np.uint64)


#: the share of free cells with four free neighbours from which the sweeps
#: run instead of the queue BFS (open grids ~0.98 and rooms ~0.90 take them;
#: random 10% obstacles ~0.64, widened mazes of corridor 9 ~0.79, random
#: 30% ~0.24, corridors ~0 do not:
#: benchmarks/README.md, "Issue 40, round 6")
SWEEP_OPEN_SHARE = 0.85


@njit(cache=True)
def open_share(mask, rows, cols, occupied):
    """Share of sampled free cells whose four neighbours are free (outside the grid: blocked).

    The sample of ``_search._shares`` read off the flat mask itself (no
    labels yet): 64 runs of 64 consecutive cells at a fixed multiplicative
    sequence of starts, or every cell of a grid of at most 4096.
    """
    n = rows * cols
    free = 0
    inner = 0
    small = n <= 4096
    for j in range(1 if small else 64):
        i0 = 0 if small else (j * 2654435761) % n
        for k in range(n if small else 64):
            i = (i0 + k) % n
            if (mask[i] != 0) == occupied:
                continue
            free += 1
            r = i // cols
            c = i - r * cols
            if r == 0 or c == 0 or r == rows - 1 or c == cols - 1:
                continue
            inner += (((mask[i - 1] != 0) != occupied) & ((mask[i + 1] != 0) != occupied)
                      & ((mask[i - cols] != 0) != occupied) & ((mask[i + cols] != 0) != occupied))
    return inner / (free if free > 0 else 1)


@njit(cache=True)
def small_component_field(mask, rows, cols, src, occupied, dist, keys, vals, queue):
    """The 4-connected field of a small component without labelling the grid: reached or -1.

    A FIFO BFS from ``src`` that marks the cells it reaches in a small
    open-addressing table (``keys`` int64, a power of two long, at least
    twice ``queue``; ``vals`` int32 beside it) instead of a label array, and
    reads the free test off ``mask`` (bounds checked: no padded copy).
    When the component has at most ``queue.shape[0]`` cells, ``dist``
    (``rows * cols`` int32) is filled with -1 and the component's steps
    written: one write pass where a labelled BFS makes three (labels, the
    wave, the unreached cells' reset). Otherwise nothing is written and -1
    returned (the caller runs the full field; the probe cost at most
    ``queue.shape[0]`` table look-ups).
    """
    limit = queue.shape[0]
    cap = keys.shape[0]
    hm = cap - 1
    for i in range(cap):
        keys[i] = -1
    if (mask[src] != 0) == occupied:
        for i in range(dist.shape[0]):
            dist[i] = -1
        return 0
    h = (src * 0x9E3779B1) & hm
    keys[h] = src
    vals[h] = 0
    queue[0] = src
    head = 0
    tail = 1
    while head < tail:
        cur = queue[head]
        head += 1
        hc = (cur * 0x9E3779B1) & hm
        while keys[hc] != cur:
            hc = (hc + 1) & hm
        d = vals[hc] + 1
        r = cur // cols
        c = cur - r * cols
        for k in range(4):
            if k == 0:
                if r == 0:
                    continue
                nb = cur - cols
            elif k == 1:
                if c == cols - 1:
                    continue
                nb = cur + 1
            elif k == 2:
                if r == rows - 1:
                    continue
                nb = cur + cols
            else:
                if c == 0:
                    continue
                nb = cur - 1
            if (mask[nb] != 0) == occupied:
                continue
            hn = (nb * 0x9E3779B1) & hm
            while keys[hn] != -1 and keys[hn] != nb:
                hn = (hn + 1) & hm
            if keys[hn] == nb:
                continue
            if tail == limit:
                return -1
            keys[hn] = nb
            vals[hn] = d
            queue[tail] = nb
            tail += 1
    for i in range(dist.shape[0]):
        dist[i] = -1
    for j in range(tail):
        cur = queue[j]
        hc = (cur * 0x9E3779B1) & hm
        while keys[hc] != cur:
            hc = (hc + 1) & hm
        dist[cur] = vals[hc]
    return tail


def probe_limit(n: int) -> int:
    """Cells a small-component probe of a grid of ``n`` cells may reach (1/256 of it, 1024-65536)."""
    return min(1 << 16, max(1 << 10, n >> 8))
