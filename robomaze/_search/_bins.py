"""The heading-bin search with one queue entry per cell: bins relaxed as a vector.

The (cell, heading bin) graph of the HEADING rule (:mod:`robomaze._search`)
searched with labels per cell instead of per state. The heuristic depends
on the cell alone, and the rotation cost is small against a translation, so
a plain state search expands almost every bin of every cell it reaches
(11 of 16 on the widened-maze benchmark): each bin's state costs a heap push
and pop of its own. Here a cell is queued once per improvement of any of its
bins, and popping it relaxes every bin that improved since its last pop
(*dirty* bins) together: rotations close over the cell's free bins first,
then each translation carries the dirty bins free at its target (and,
diagonally, at the two cells beside it) in one pass over a bit mask.

This is a label-correcting A*: a cell may be popped again when a later pop
of a neighbour improves some of its bins. It is exact by the usual
argument -- with a consistent heuristic, as long as the best goal value
``U`` exceeds the optimum, the first state of an optimal path whose final
value has not been propagated is dirty and queued with key at most the
optimum, so the search stops (smallest key >= ``U``) only with ``U`` optimal.
Parents are one-byte move codes per state (the same codes as the state
search); every update is a strict improvement, so they form a tree whose
chain from the goal costs ``U``. The per-cell records live in a pool filled
in the order cells are reached (a slot index per cell), so the memory a
search touches is dense: the page faults of bin-major arrays spread over
the grid were most of the time on small grids.
"""

from __future__ import annotations

import numpy as np

from .._compile.kernels import inner, noalloc
from ._engine import SQRT2, _DC, offsets
from ._heap import heap_grow, heap_push_py


@inner
def _mask(fm, cell, nw):
    """Free bins of padded ``cell`` (int64) as one uint64 (bit b = bin b); ``nw`` <= 4.

    No loop over the words: LLVM vectorised that loop of at most four
    iterations (67 vector instructions, compiled for nothing; issue 40,
    round 13). ``cell`` is int64 at every call, so one specialisation (an
    int32 heap node made a second)."""
    i = cell * nw
    m = np.uint64(fm[i])
    if nw > 1:
        m |= np.uint64(fm[i + 1]) << np.uint64(16)
        if nw > 2:
            m |= np.uint64(fm[i + 2]) << np.uint64(32)
            if nw > 3:
                m |= np.uint64(fm[i + 3]) << np.uint64(48)
    return m


#: the move back along move k (N<->S, E<->W, NE<->SW, SE<->NW)
_OPP = np.array([2, 3, 0, 1, 6, 7, 4, 5], np.int64)

#: de Bruijn sequence and table: the index of a uint64's single set bit by one multiply
_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_DB_INDEX = np.array([0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4, 62, 55, 59, 36,
                      53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12, 5, 63, 47, 56, 27, 60, 41, 37,
                      16, 54, 35, 52, 21, 44, 32, 23, 11, 46, 26, 40, 15, 34, 20, 31, 10, 25, 14,
                      19, 9, 13, 8, 7, 6], np.int64)


def bin_search(fm, cols, nbins, conn8, rot, starts, goal, goal_bin, h, slot, pool, heap):
    """Shortest (cell, bin) path to padded cell ``goal``: ``(states, expanded)``.

    ``fm``: uint16 free-bin words per padded cell (``ceil(nbins / 16)`` a
    cell, ``nbins`` <= 64); ``starts``: int64 padded states ``cell * nbins + bin``
    (cost 0); ``goal_bin`` -1 for any bin; ``h``: a consistent heuristic
    per padded cell, the same for every bin -- float64 (inf where the goal
    is out of reach) or int32 step counts (-1 there); cells out of reach are
    never entered. ``slot``: int32 per padded cell, zero-filled. ``pool``:
    ``(G, parent, reached, dirty, qkey)``, uninitialised, with room for
    one slot per cell the search can touch plus one: each touched cell gets
    the next slot, holding its ``nbins`` values (float64) and move codes
    (uint8), its reached and dirty bin masks and the smallest key it is
    queued with (a cell is queued again only below it), so the search writes
    memory in the order it reaches cells, dense, whatever the grid's size.
    ``expanded`` counts the bins relaxed (a state relaxed twice counts
    twice). ``states``: int64 padded states ``cell * nbins + bin`` from a
    start to the goal (read back by the search's kernel),
    empty when the goal is unreachable.

    A Python loop around :func:`_expand_cells` (which hands back only to
    grow the heap, rarely): as a kernel this loop compiled the whole search
    again, linked into it (0.6-0.9 s of a cold start).
    """
    G, parent, reached, dirty, qkey = pool
    hk, hg, hn = heap
    starts = np.asarray(starts, np.int64)
    while hk.shape[0] < starts.shape[0] + 8:      # the starts go in before the first full test
        hk, hg, hn = heap_grow(hk, hg, hn)
    # the starts go in here, in Python (few; a loop for them in the kernel cost its compile
    # ~0.1 s): what the kernel did, step for step
    size = 0
    nslots = 1
    for s in starts.tolist():
        cell, b = divmod(s, nbins)
        sl = int(slot[cell])
        if sl == 0:
            sl = nslots
            nslots += 1
            slot[cell] = sl
            reached[sl] = 0
            dirty[sl] = 0
            qkey[sl] = np.inf
        bit = np.uint64(1 << b)
        G[sl * nbins + b] = 0.0
        parent[sl * nbins + b] = 255
        reached[sl] |= bit
        dirty[sl] |= bit
        size = heap_push_py(hk, hg, hn, size, float(h[cell]) + 0.0, 0.0, cell)
    size = np.int64(size)
    nslots = np.int64(nslots)
    expanded = np.int64(0)
    best = np.inf
    best_bin = np.int64(-1)
    nw = (nbins + 15) >> 4
    back = np.empty(8, np.uint64)
    off = offsets(cols)
    out = np.empty(G.shape[0], np.int64)    # the path (untouched pages cost nothing)
    while True:
        done, size, expanded, best, best_bin, nslots, n = _expand_cells(
            fm, off, nbins, nw, conn8, rot, goal, goal_bin, h, slot, G, parent, reached,
            dirty, qkey, nslots, hk, hg, hn, size, expanded, best, best_bin, back, out)
        if done:
            return out[:n].copy(), int(expanded)
        hk, hg, hn = heap_grow(hk, hg, hn)


@noalloc   # allocates nothing (kernel style 3)
def _expand_cells(fm, off, nbins, nw, conn8, rot, goal, goal_bin, h, slot, G, parent, reached,
                  dirty, qkey, nslots, hk, hg, hn, size, expanded, best, best_bin, back, out):
    """Pops until the search is done (True) or the heap might overflow (False), the
    starts already queued (:func:`bin_search`). ``back``: 8 uint64 of scratch;
    ``off``: :func:`~robomaze._search._engine.offsets`. Done, the path's states
    are written to ``out[:n]`` (int64, room for every state of the pool: a chain
    of strict improvements visits a state once) and ``n`` comes back (0 before,
    and when the goal is out of reach): read here, the path is one kernel (and
    one call) fewer (issue 40 round 11); written into the caller's array, this
    kernel allocates nothing and compiles without reference counting.

    The heap's pop and push (:mod:`._heap`), the lowest set bit's index, a
    cell's slot and the path's read-back are written out here, not inlined
    helpers: numba types an inlined helper again at each site, ~0.1 s of
    compile apiece (issue 40, round 12); so is the rotation closure, which
    was an inner kernel (round 13)."""
    nk = 8 if conn8 else 4
    done = True
    one = np.uint64(1)
    zero = np.uint64(0)
    b58 = np.uint64(58)
    cap = hk.shape[0]
    while size > 0:
        if size + nk > cap:
            done = False
            break
        # heap_pop (the top, then the last entry sifted down from the root)
        key = hk[0]
        cell = np.int64(hn[0])             # int64: one _mask specialisation, no casts
        size -= 1
        lk, lg, ln = hk[size], hg[size], hn[size]
        usize = np.uint64(size)
        u = np.uint64(0)
        while True:
            ch = u + u + one
            if ch >= usize:
                break
            c2 = ch + one
            if c2 < usize and (hk[c2] < hk[ch] or (hk[c2] == hk[ch] and hg[c2] > hg[ch])):
                ch = c2
            if lk < hk[ch] or (lk == hk[ch] and lg >= hg[ch]):
                break
            hk[u] = hk[ch]
            hg[u] = hg[ch]
            hn[u] = hn[ch]
            u = ch
        if size > 0:
            hk[u] = lk
            hg[u] = lg
            hn[u] = ln
        if key >= best:
            break
        sc = slot[cell]
        d = dirty[sc]
        if d == zero:
            continue                       # stale: its bins went out with an earlier pop
        dirty[sc] = zero
        qkey[sc] = np.inf
        base = sc * nbins
        if nbins > 1:
            # rotations on the spot out of the dirty bins d, over the cell's free
            # bins: between pops only translations change a cell's values, and
            # only on its dirty bins, so the values are already closed under
            # rotation apart from what those bins carry -- from each dirty bin
            # one walk each way, stopping at the first bin it does not improve
            # (that bin's own value already covers what lies beyond it); the
            # bins the walks improve become dirty too. Written out here, not an
            # inner kernel of its own (its one call site): a kernel's own
            # passes, library and machine code cost ~0.15-0.3 s of compile
            # (issue 40, round 13)
            fmask = _mask(fm, cell, nw)
            got = reached[sc]
            changed = zero
            m = d
            while m:
                bit = m & (~m + one)       # the lowest set bit and its index (de Bruijn)
                b = _DB_INDEX[(bit * _DEBRUIJN) >> b58]
                m ^= bit
                for direction in range(2):
                    if direction == 1 and nbins == 2:
                        break               # both neighbours of a bin are the same bin
                    v = G[base + b]
                    x = b
                    for _ in range(nbins - 1):
                        if direction == 0:
                            x = x + 1 if x + 1 < nbins else 0
                        else:
                            x = x - 1 if x > 0 else nbins - 1
                        bx = one << np.uint64(x)
                        if not (fmask & bx):
                            break
                        v = v + rot
                        if (got & bx) and not (v < G[base + x]):
                            break
                        G[base + x] = v
                        parent[base + x] = nk + direction
                        got |= bx
                        changed |= bx
            reached[sc] = got
            d |= changed
        if cell == goal:
            for b in range(nbins):
                if (goal_bin < 0 or b == goal_bin) and (reached[sc] >> np.uint64(b)) & one:
                    if G[base + b] < best:
                        best = G[base + b]
                        best_bin = b
        m = d
        while m:
            expanded += np.int64(m & one)
            m >>= one
        # bins reached by a move from a neighbour cannot improve that neighbour
        # (a loop: the slice store lowered to 300 instructions, its error path's)
        k = 0
        while k < 8:
            back[k] = zero
            k += 1
        for b in range(nbins):
            pk = parent[base + b]
            if pk < nk:
                back[pk] |= one << np.uint64(b)
        for k in range(nk):
            t = cell + off[k]
            allowed = d & _mask(fm, t, nw) & ~back[_OPP[k]]
            if k >= 4 and allowed:
                allowed &= _mask(fm, cell + _DC[k], nw) & _mask(fm, t - _DC[k], nw)
            if allowed == zero:
                continue
            ht = h[t]
            if not (ht >= 0 and ht < np.inf):
                continue                   # the goal is out of reach from t
            step = 1.0 if k < 4 else SQRT2
            # the pool slot of t, the next one if it has none
            st = slot[t]
            if st == 0:
                st = nslots
                nslots += 1
                slot[t] = st
                reached[st] = 0
                dirty[st] = 0
                qkey[st] = np.inf
            tb = st * nbins
            rt = reached[st]
            improved = zero
            low = np.inf
            m = allowed
            while m:
                bit = m & (~m + one)       # the lowest set bit and its index
                b = _DB_INDEX[(bit * _DEBRUIJN) >> b58]
                m ^= bit
                v = G[base + b] + step
                if not (rt & bit) or v < G[tb + b]:
                    G[tb + b] = v
                    parent[tb + b] = k
                    improved |= bit
                    if v < low:
                        low = v
            if improved:
                reached[st] = rt | improved
                dirty[st] |= improved
                key2 = low + ht
                if key2 < qkey[st]:
                    # else an entry with a smaller key is queued: its pop takes these bins too
                    qkey[st] = key2
                    # heap_push (the hole sifted up)
                    u = np.uint64(size)
                    while u > 0:
                        up = (u - one) >> one
                        if hk[up] < key2 or (hk[up] == key2 and hg[up] >= low):
                            break
                        hk[u] = hk[up]
                        hg[u] = hg[up]
                        hn[u] = hn[up]
                        u = up
                    hk[u] = key2
                    hg[u] = low
                    hn[u] = t
                    size += 1
    # the path: padded states cell * nbins + bin, from a start (move 255)
    # to (goal, best_bin), undoing the moves; none before the search is done
    # or when the goal is out of reach. One walk from the goal writes it
    # backwards, then it is turned around in place (a counting walk and a
    # writing walk were the move code twice; issue 40, round 13); a rotation
    # undone by selects, not ``%`` (Python's modulo: ~50 instructions each)
    n = 0
    if done and best_bin >= 0:
        c, x = goal, best_bin
        while True:
            out[n] = c * nbins + x
            n += 1
            k = parent[slot[c] * nbins + x]
            if k == 255:
                break
            if k < nk:
                c = c - off[k]
            elif k == nk:                           # came from the previous bin
                x = x - 1 if x > 0 else nbins - 1
            else:
                x = x + 1 if x + 1 < nbins else 0
        i = 0
        while i < n - 1 - i:
            v = out[i]
            out[i] = out[n - 1 - i]
            out[n - 1 - i] = v
            i += 1
    return done, size, expanded, best, best_bin, nslots, n
