"""The MovingAI batch on grids with loops: one A* per pair, octile and landmark (ALT) bounds.

What a batch shares is paid once: the free cells' components (a pair in
two components is NaN at once -- the plain search would exhaust the
start's component first), the landmark fields, and the per-cell scratch.
The scratch is never cleared between pairs: a cell's ``g`` counts for the
current pair only when its stamp is that pair's number, so a pair costs
what its search touches, not the map.

The heap orders on ``f = g + h`` rounded to a multiple of 2^-30, then on
the larger ``g`` (the deeper node, :mod:`._heap`). Lengths on the grid are
``a + b sqrt 2`` with integers ``a, b``; two different such values below
2^28 differ by more than ``1 / (3 b)`` > 2^-30, so the rounding never
reorders two different ``f`` and only makes the ``f`` of nodes on one
octile-shortest plateau (summed in different orders, so a few ulps apart)
compare equal -- where preferring the deeper node saves most of the
expansions an open area costs.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ._blocks import mark_path

__all__ = ["bucket_lengths", "RING"]

SQRT2 = 2.0 ** 0.5
_Q = 2.0 ** 30


#: bucket width of :func:`bucket_lengths` (f values within 1/16 of a cell share a bucket)
_PER = 16
#: buckets in the ring, a power of two (an index is a mask, not a division):
#: f of a queued node never exceeds the smallest queued f by more than
#: 2 sqrt 2 (consistency: a move raises f by at most twice its length), so
#: 2 sqrt 2 * _PER + 2 = 47.25 buckets would do
RING = 64
_MASK = RING - 1


@njit(cache=True, inline="always")
def _hrc(v, dr, dc, lm, lt, li, nl, margin):
    if dr < 0:
        dr = -dr
    if dc < 0:
        dc = -dc
    h = (dr - dc) + dc * SQRT2 if dr > dc else (dc - dr) + dr * SQRT2
    for j in range(nl):
        d = np.float64(lm[v, li[j]]) - lt[j]
        if d < 0:
            d = -d
        d -= margin
        if d > h:
            h = d
    return h


@njit(cache=True)
def _grow_ring(ring, counts):
    bigger = np.empty((ring.shape[0], 2 * ring.shape[1]), np.int32)
    for b in range(ring.shape[0]):
        for i in range(counts[b]):
            bigger[b, i] = ring[b, i]
    return bigger


@njit(cache=True)
def bucket_lengths(fp, cols, comp, lm, margin, starts, goals, out, g, hv, seen, qb, ring,
                   counts, lt, li, stamp0, restrict, lab, node, bparent, bdepth, nb, mstart,
                   members, allowed):
    """A* lengths of padded ``starts[i] -> goals[i]`` into ``out``; returns the last stamp used.

    ``comp``: int32 component labels of the padded cells (0 blocked);
    ``lm``: ``(cells, k)`` float32 landmark fields (inf where a landmark
    does not reach), each bound lowered by ``margin`` (their rounding to
    float32) so it stays a lower bound; ``g``/``hv`` float64 and
    ``seen`` int32 scratch of the padded cells, stamps below ``stamp0``
    (the caller's previous return); ``lt``/``li`` scratch of ``k``. With
    ``restrict`` each search keeps to the stacks (``lab``: a padded cell's
    stack) of the blocks on its block-cut tree path (:mod:`._blocks`),
    stamped into ``allowed`` with the pair's stamp.

    A ring of f buckets instead of a heap. Buckets ``1 / _PER`` wide: a bucket's cells are expanded last in,
    first out (deeper cells first on a plateau), so a cell may be expanded
    before a cell of the same bucket that would have given it a shorter
    ``g``; it is then queued and expanded again (a label-correcting
    search). Every cell whose ``f`` is below the goal's best ``g`` is
    expanded with its final ``g`` before the search stops -- when the next
    bucket starts at or above that ``g`` -- so the length is exact; ``h``
    (octile, landmarks) admissible, and (consistent up to ``margin``)
    every ``f`` pushed from a bucket lands in it or a later one -- one that
    would not is queued in this one: expanded early, still exact. ``qb``: int32 scratch, the
    absolute bucket a cell is queued in (-1: expanded); ``ring``
    (``RING`` x any) int32 and ``counts`` (``RING``) int64 scratch.
    """
    pc = cols + 2
    nk = lm.shape[1]
    q = stamp0
    for i in range(starts.shape[0]):
        out[i] = np.nan
        s = starts[i]
        t = goals[i]
        if fp[s] == 0 or fp[t] == 0 or comp[s] != comp[t]:
            continue
        if s == t:
            out[i] = 0.0
            continue
        q += 1
        if restrict:
            mark_path(node, bparent, bdepth, nb, mstart, members, lab[s], lab[t], allowed, q)
        nl = 0
        for j in range(nk):
            a = np.float64(lm[t, j])
            if a < np.inf and lm[s, j] < np.inf:
                lt[nl] = a
                li[nl] = j
                nl += 1
        tr = t // pc
        tc = t - tr * pc
        for b in range(RING):
            counts[b] = 0
        sr = s // pc
        g[s] = 0.0
        seen[s] = q
        hv[s] = _hrc(s, sr - tr, s - sr * pc - tc, lm, lt, li, nl, margin)
        cur = math.floor(hv[s] * _PER)
        qb[s] = cur
        ring[cur & _MASK, 0] = s
        counts[cur & _MASK] = 1
        queued = 1
        best = np.inf
        while queued > 0:
            b = cur & _MASK
            if counts[b] == 0:
                cur += 1
                continue
            if cur >= best * _PER:               # every f left is >= the goal's g
                break
            counts[b] -= 1
            queued -= 1
            v = ring[b, counts[b]]
            if qb[v] != cur:
                continue                         # queued again elsewhere, or expanded
            qb[v] = -1
            gv = g[v]
            if gv + hv[v] >= best:
                continue
            vr = v // pc
            vc = v - vr * pc
            up = fp[v - pc] != 0
            dn = fp[v + pc] != 0
            lf = fp[v - 1] != 0
            rt = fp[v + 1] != 0
            for k in range(8):
                if k == 0:
                    if not up:
                        continue
                    w = v - pc
                    dr = -1
                    dc = 0
                elif k == 1:
                    if not rt:
                        continue
                    w = v + 1
                    dr = 0
                    dc = 1
                elif k == 2:
                    if not dn:
                        continue
                    w = v + pc
                    dr = 1
                    dc = 0
                elif k == 3:
                    if not lf:
                        continue
                    w = v - 1
                    dr = 0
                    dc = -1
                elif k == 4:
                    if not (up and rt):
                        continue
                    w = v - pc + 1
                    dr = -1
                    dc = 1
                elif k == 5:
                    if not (dn and rt):
                        continue
                    w = v + pc + 1
                    dr = 1
                    dc = 1
                elif k == 6:
                    if not (dn and lf):
                        continue
                    w = v + pc - 1
                    dr = 1
                    dc = -1
                else:
                    if not (up and lf):
                        continue
                    w = v - pc - 1
                    dr = -1
                    dc = -1
                if k >= 4 and fp[w] == 0:
                    continue
                if restrict and allowed[lab[w]] != q:
                    continue
                ng = gv + (1.0 if k < 4 else SQRT2)
                if seen[w] != q:
                    seen[w] = q
                    hv[w] = _hrc(w, vr + dr - tr, vc + dc - tc, lm, lt, li, nl, margin)
                    qb[w] = -1
                elif ng >= g[w] - 1e-9:          # no better (rounding is no gain)
                    continue
                g[w] = ng
                if w == t:
                    if ng < best:
                        best = ng
                    continue
                f = ng + hv[w]
                if f >= best:
                    continue
                nbk = math.floor(f * _PER)
                if nbk < cur:
                    nbk = cur                    # a few ulps under this bucket
                elif nbk > cur + _MASK:
                    nbk = cur + _MASK            # never (consistency); early is still exact
                qb[w] = nbk
                bb = nbk & _MASK
                if counts[bb] == ring.shape[1]:
                    ring = _grow_ring(ring, counts)
                ring[bb, counts[bb]] = w
                counts[bb] += 1
                queued += 1
        if best < np.inf:
            out[i] = best
    return q
