"""Numba kernels of the random-walk generators: Aldous-Broder and Wilson.

Same conventions as :mod:`robomaze.generate._kernels` (flat arrays, the
SplitMix64 stream, ``uint8`` east/south walls); both kernels also return
their number of walk moves, for the scaling benchmark.

Numba's on-disk cache only watches the file a kernel is defined in: after
editing a helper in ``_kernels.py``, delete ``__pycache__/*.nbi`` and
``*.nbc`` here so these kernels are recompiled against it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._kernels import _moves, _walk, below, carve, new_state, next_u64

_M32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)

#: Aldous-Broder's calm blocks: side 2**4 (16-step jumps) and 2**7 (128).
AB_FINE = 4
AB_COARSE = 7


@njit(cache=True)
def _popcount(x):
    """Number of set bits of a uint64 (SWAR; numba has no popcount)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def srw_jump(st, k):
    """Displacement ``(dr, dc)`` of ``k`` steps of the simple random walk on Z^2.

    Each step moves ``x + y`` and ``x - y`` by independent fair signs (the
    four steps are the four sign pairs), so after ``k`` steps both are
    ``2 Binomial(k, 1/2) - k``, independent: two popcounts of ``k`` random
    bits -- the same two bits per step the step-by-step walk draws.
    """
    su = 0
    sv = 0
    left = k
    while left > 0:
        w = next_u64(st)
        m = _M32 if left >= 32 else np.uint64((1 << left) - 1)
        su += _popcount(w & m)
        sv += _popcount((w >> _S32) & m)
        left -= 32
    du = 2 * su - k
    dv = 2 * sv - k
    return (du - dv) >> 1, (du + dv) >> 1


@njit(cache=True)
def _calm_blocks(rows, cols, lb):
    """Unvisited-cell counts and calm flags of the whole ``2**lb`` blocks."""
    nbr = rows >> lb
    nbc = cols >> lb
    unvisited = np.full(max(nbr * nbc, 1), np.int32(1 << (2 * lb)), np.int32)
    calm = np.zeros(max(nbr * nbc, 1), np.uint8)
    return nbr, nbc, unvisited, calm


@njit(cache=True)
def _visit_block(r, c, lb, nbr, nbc, unvisited, calm):
    """Count a newly visited cell; when its block fills, re-derive the calm
    flags of the blocks around it (:func:`_calm_around`)."""
    br = r >> lb
    bc = c >> lb
    if br < nbr and bc < nbc:
        b = br * nbc + bc
        unvisited[b] -= 1
        if unvisited[b] == 0:
            _calm_around(br, bc, nbr, nbc, unvisited, calm)


@njit(cache=True)
def _calm_around(br, bc, nbr, nbc, unvisited, calm):
    """Calm flags of the blocks around the just-filled block ``(br, bc)``.

    Block ``(i, j)`` is calm when it is not on the block grid's rim and its
    3x3 block neighbourhood is fully visited. From any cell of a calm block
    every cell within L1 distance ``2**lb`` is visited, and every cell within
    ``2**lb - 1`` is off the grid's outer ring (a partial last block is never
    counted), so the next ``2**lb`` steps are simple-random-walk steps of
    Z^2 that enter no new cell.
    """
    for i in range(max(br - 1, 1), min(br + 2, nbr - 1)):
        for j in range(max(bc - 1, 1), min(bc + 2, nbc - 1)):
            ok = 1
            for a in range(i - 1, i + 2):
                for e in range(j - 1, j + 2):
                    if unvisited[a * nbc + e] != 0:
                        ok = 0
            calm[i * nbc + j] = ok


@njit(cache=True)
def _is_calm(r, c, lb, nbr, nbc, calm):
    br = r >> lb
    bc = c >> lb
    return br < nbr and bc < nbc and calm[br * nbc + bc] != 0


@njit(cache=True)
def aldous_broder(rows, cols, seed, fine=AB_FINE, coarse=AB_COARSE):
    """Simple random walk; the first entrance into each cell is a tree edge.

    A direction is drawn among all four and an off-grid draw is a stay
    (a lazy walk): the sequence of moves actually made is still the simple
    random walk on the grid graph, and the first-entrance edges depend only
    on that sequence, so the tree is uniform (Aldous 1990, Broder 1989).
    Two random bits per step, 32 steps per 64-bit draw. Returns the walls and
    the number of moves made (the cover time, for the scaling benchmark).

    The cover time grows like ``n log(n)**2``, and nearly all of the excess
    is spent wandering through cells visited long ago, where no step can
    add an edge. So the walk jumps: from a calm block (see
    :func:`_calm_around`; sides ``2**fine`` and ``2**coarse``) it takes the
    block side's steps at once with :func:`srw_jump`. The walk's law is
    unchanged (strong Markov property; the jump samples the exact ``k``-step
    law), so the tree's law is too, and the time per cell no longer grows
    with the size. Mazes narrower than three fine blocks never jump.
    """
    n = rows * cols
    st = new_state(seed)
    east = np.ones(n, np.uint8)
    south = np.ones(n, np.uint8)
    visited = np.zeros(n, np.uint8)
    nbr, nbc, unv, calm = _calm_blocks(rows, cols, fine)
    nbr2, nbc2, unv2, calm2 = _calm_blocks(rows, cols, coarse)
    u = below(st, n)
    visited[u] = 1
    remaining = n - 1
    moves = 0
    r = u // cols
    c = u - r * cols
    _visit_block(r, c, fine, nbr, nbc, unv, calm)
    _visit_block(r, c, coarse, nbr2, nbc2, unv2, calm2)
    dr, dc, off = _moves(cols)
    while remaining > 0:
        if _is_calm(r, c, fine, nbr, nbc, calm):
            k = 1 << coarse if _is_calm(r, c, coarse, nbr2, nbc2, calm2) else 1 << fine
            jr, jc = srw_jump(st, k)
            r += jr
            c += jc
            u = r * cols + c
            moves += k
            continue
        bits = next_u64(st)
        for _ in range(32):
            d = np.int64(bits & np.uint64(3))
            bits >>= np.uint64(2)
            v, r, c = _walk(u, r, c, d, rows, cols, dr, dc, off)
            if v < 0:
                continue
            moves += 1
            if visited[v] == 0:
                visited[v] = 1
                carve(east, south, cols, u, v)
                remaining -= 1
                # _visit_block, written out: a call here costs ~20% (numba
                # counts references to the arrays it passes)
                b = (r >> fine) * nbc + (c >> fine)
                if (r >> fine) < nbr and (c >> fine) < nbc:
                    unv[b] -= 1
                    if unv[b] == 0:
                        _calm_around(r >> fine, c >> fine, nbr, nbc, unv, calm)
                b = (r >> coarse) * nbc2 + (c >> coarse)
                if (r >> coarse) < nbr2 and (c >> coarse) < nbc2:
                    unv2[b] -= 1
                    if unv2[b] == 0:
                        _calm_around(r >> coarse, c >> coarse, nbr2, nbc2, unv2, calm2)
                if remaining == 0:
                    break
            u = v
    return east, south, moves


@njit(cache=True)
def wilson(rows, cols, seed):
    """Loop-erased random walks into the growing tree (Wilson 1996).

    ``nxt[u]`` remembers the last exit taken from ``u``; overwriting it on a
    revisit is exactly loop erasure, so retracing ``nxt`` from the walk's
    start yields the loop-erased path. Any order of start cells and any root
    give a uniform spanning tree. The walk keeps its row and column and
    steps by table lookup (as in :func:`aldous_broder`), and ``nxt`` is
    int32 to halve its cache footprint.
    Returns the walls and the number of walk moves made.
    """
    n = rows * cols
    st = new_state(seed)
    east = np.ones(n, np.uint8)
    south = np.ones(n, np.uint8)
    intree = np.zeros(n, np.uint8)
    nxt = np.empty(n, np.int32)
    intree[below(st, n)] = 1
    bits = np.uint64(0)
    nbits = 0
    moves = 0
    dr, dc, off = _moves(cols)
    for s in range(n):
        if intree[s]:
            continue
        u = s
        r = s // cols
        c = s - r * cols
        while intree[u] == 0:
            if nbits == 0:
                bits = next_u64(st)
                nbits = 32
            d = np.int64(bits & np.uint64(3))
            bits >>= np.uint64(2)
            nbits -= 1
            v, r, c = _walk(u, r, c, d, rows, cols, dr, dc, off)
            if v < 0:
                continue
            moves += 1
            nxt[u] = v
            u = v
        u = s
        while intree[u] == 0:
            intree[u] = 1
            v = nxt[u]
            carve(east, south, cols, u, v)
            u = v
    return east, south, moves
