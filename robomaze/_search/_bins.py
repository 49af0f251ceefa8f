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
search, read back by ``_chain_moves``); every update is a strict
improvement, so they form a tree whose chain from the goal costs ``U``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._engine import SQRT2, _DC, offsets
from ._heap import heap_grow, heap_pop, heap_push


@njit(cache=True, inline="always")
def _mask(fm, cell, nw):
    """Free bins of padded ``cell`` as one uint64 (bit b = bin b)."""
    m = np.uint64(fm[cell * nw])
    for k in range(1, nw):
        m |= np.uint64(fm[cell * nw + k]) << np.uint64(16 * k)
    return m


@njit(cache=True)
def _rotate_closure(G, parent, reached, fmask, base, nbins, nk, rot):
    """Rotations on the spot: close ``G[base:base + nbins]`` over the free bins ``fmask``.

    One forward and one backward pass, each twice round the cycle: an
    optimal rotation turns one way only, so every chain of less than
    ``nbins`` steps is carried. Returns the bins whose value improved
    (newly reached or lower).
    """
    one = np.uint64(1)
    got = reached
    changed = np.uint64(0)
    for direction in range(2):
        if direction == 1 and nbins == 2:
            break                   # both neighbours of a bin are the same bin
        for i in range(2 * nbins):
            if direction == 0:
                b = i % nbins
                b2 = b + 1 if b + 1 < nbins else 0
            else:
                b = nbins - 1 - (i % nbins)
                b2 = b - 1 if b > 0 else nbins - 1
            if not ((got >> np.uint64(b)) & one):
                continue
            bit2 = one << np.uint64(b2)
            if not (fmask & bit2):
                continue
            v = G[base + b] + rot
            if not (got & bit2) or v < G[base + b2]:
                G[base + b2] = v
                parent[base + b2] = nk + direction
                got |= bit2
                changed |= bit2
    return got, changed


@njit(cache=True)
def bin_search(fm, cols, nbins, conn8, rot, starts, goal, goal_bin, h, G, parent, reached,
               dirty, heap):
    """Shortest (cell, bin) path to padded cell ``goal``: ``(goal state or -1, expanded)``.

    ``fm``: uint16 free-bin words per padded cell (``ceil(nbins / 16)`` a
    cell, ``nbins`` <= 64); ``starts``: states ``cell * nbins + bin`` (cost
    0); ``goal_bin`` -1 for any bin; ``h``: float64 per padded cell, a
    consistent heuristic for every bin. ``G`` (float64) and ``parent``
    (uint8) per state and ``reached``/``dirty`` (uint64 bin masks) per cell
    must be zero-filled. ``expanded`` counts the bins relaxed (a state
    relaxed twice counts twice).
    """
    hk, hg, hn = heap
    nw = (nbins + 15) >> 4
    one = np.uint64(1)
    size = np.int64(0)
    for s in starts:
        cell = s // nbins
        b = s - cell * nbins
        bit = one << np.uint64(b)
        G[s] = 0.0
        parent[s] = 255
        reached[cell] |= bit
        dirty[cell] |= bit
        if size == hk.shape[0]:
            hk, hg, hn = heap_grow(hk, hg, hn)
        size = heap_push(hk, hg, hn, size, h[cell], 0.0, cell)
    expanded = np.int64(0)
    best = np.inf
    best_state = np.int64(-1)
    while True:
        done, size, expanded, best, best_state = _run(
            fm, cols, nbins, nw, conn8, rot, goal, goal_bin, h, G, parent, reached, dirty,
            hk, hg, hn, size, expanded, best, best_state)
        if done:
            return best_state, expanded
        hk, hg, hn = heap_grow(hk, hg, hn)


@njit(cache=True)
def _run(fm, cols, nbins, nw, conn8, rot, goal, goal_bin, h, G, parent, reached, dirty,
         hk, hg, hn, size, expanded, best, best_state):
    """Pops until the search is done (True) or the heap might overflow (False)."""
    off = offsets(cols)
    nk = 8 if conn8 else 4
    one = np.uint64(1)
    zero = np.uint64(0)
    cap = hk.shape[0]
    while size > 0:
        if size + nk > cap:
            return False, size, expanded, best, best_state
        cell, _, key, size = heap_pop(hk, hg, hn, size)
        if key >= best:
            break
        d = dirty[cell]
        if d == zero:
            continue                       # stale: its bins went out with an earlier pop
        dirty[cell] = zero
        base = cell * nbins
        fmc = _mask(fm, cell, nw)
        if nbins > 1:
            got, changed = _rotate_closure(G, parent, reached[cell], fmc, base, nbins, nk, rot)
            reached[cell] = got
            d |= changed
        if cell == goal:
            for b in range(nbins):
                if (goal_bin < 0 or b == goal_bin) and (reached[cell] >> np.uint64(b)) & one:
                    if G[base + b] < best:
                        best = G[base + b]
                        best_state = base + b
        m = d
        while m:
            expanded += np.int64(m & one)
            m >>= one
        for k in range(nk):
            t = cell + off[k]
            allowed = d & _mask(fm, t, nw)
            if k >= 4 and allowed:
                allowed &= _mask(fm, cell + _DC[k], nw) & _mask(fm, t - _DC[k], nw)
            if allowed == zero:
                continue
            step = 1.0 if k < 4 else SQRT2
            tb = t * nbins
            rt = reached[t]
            improved = zero
            low = np.inf
            m = allowed
            b = 0
            while m:
                if m & one:
                    bit = one << np.uint64(b)
                    v = G[base + b] + step
                    if not (rt & bit) or v < G[tb + b]:
                        G[tb + b] = v
                        parent[tb + b] = k
                        improved |= bit
                        if v < low:
                            low = v
                m >>= one
                b += 1
            if improved:
                reached[t] = rt | improved
                dirty[t] |= improved
                size = heap_push(hk, hg, hn, size, low + h[t], low, t)
    return True, size, expanded, best, best_state
