"""Numba kernels of the random-walk generators: Aldous-Broder and Wilson.

Same conventions as :mod:`robomaze.generate._kernels` (flat arrays, the
SplitMix64 stream, ``uint8`` east/south walls); both kernels also return
their number of walk moves, for the scaling benchmark.

Numba's on-disk cache only watches the file a kernel is defined in: after
editing a helper in ``_kernels.py``, delete ``__pycache__/*.nbi`` and
``*.nbc`` here so these kernels are recompiled against it.

"Kernel style N" notes refer to :mod:`robomaze._compile.kernels`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._kernels import _walk, below, next_u64, scale_below, step, wall_between
from ._common import closed_walls, kernel_state

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
    Aldous-Broder's kernel writes this out (kernel style 1); its walk is
    checked draw for draw against a reference that jumps this way.
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


def _calm_blocks(rows, cols, lb):
    """Unvisited-cell counts and calm flags of the whole ``2**lb`` blocks."""
    nbr = rows >> lb
    nbc = cols >> lb
    # without a whole block the one entry is a placeholder no one reads (and
    # 4**lb may not fit an int32 when lb is larger than the grid)
    count = 1 << (2 * lb) if nbr * nbc else 0
    nb = max(nbr * nbc, 1)
    return nbr, nbc, np.full(nb, count, np.int32), np.zeros(nb, np.uint8)


def _move_tables(cols):
    """Row, column and flat-index steps for directions 0 N, 1 E, 2 S, 3 W, and
    the wall a move crosses: cell ``u + woff[d]``, east (``wsel`` 0) or south (1)."""
    return (np.array([-1, 0, 1, 0], np.int64), np.array([0, 1, 0, -1], np.int64),
            np.array([-cols, 1, cols, -1], np.int64), np.array([-cols, 0, 0, -1], np.int64),
            np.array([1, 0, 1, 0], np.int64))


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
    # conditionals, not max() / min() (kernel style 2)
    for i in range(br - 1 if br > 1 else 1, br + 2 if br + 2 < nbr - 1 else nbr - 1):
        for j in range(bc - 1 if bc > 1 else 1, bc + 2 if bc + 2 < nbc - 1 else nbc - 1):
            ok = 1
            for a in range(i - 1, i + 2):
                for e in range(j - 1, j + 2):
                    if unvisited[a * nbc + e] != 0:
                        ok = 0
            calm[i * nbc + j] = ok


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

    The arrays are allocated here, in numpy, and :func:`_aldous_broder_walk`
    runs the walk (kernel style 3).
    """
    n = rows * cols
    east, south = closed_walls(n)
    # int(): a default left to numba would be typed as its literal, and the
    # helpers taking ``fine`` and ``coarse`` would compile once for each
    moves = _aldous_broder_walk(
        rows, cols, seed, int(fine), int(coarse), east, south,
        np.zeros(n, np.uint8), *_calm_blocks(rows, cols, fine),
        *_calm_blocks(rows, cols, coarse), *_move_tables(cols)[:3])
    return east, south, moves


@njit(cache=True)
def _aldous_broder_walk(rows, cols, seed, fine, coarse, east, south, visited, nbr, nbc, unv, calm,
                        nbr2, nbc2, unv2, calm2, dr, dc, off):
    """The walk of :func:`aldous_broder` on its arrays (``unv``/``calm``: the
    fine blocks' unvisited counts and calm flags, ``unv2``/``calm2`` the
    coarse blocks'); returns the number of moves.

    The draws (:func:`._kernels.step`) and the wall to open are inlined, the
    step (``_walk``) and :func:`srw_jump` written out:
    as calls they would be a dozen more compiles on a cold start; only
    :func:`_calm_around`, rarely run, stays a call.
    """
    n = rows * cols
    st = np.uint64(seed)
    st, z = step(st)
    u = scale_below(z, n)
    visited[u] = 1
    remaining = n - 1
    moves = 0
    r = u // cols
    c = u - r * cols
    # the first cell's block counts; the walk's visits count theirs below
    if (r >> fine) < nbr and (c >> fine) < nbc:
        unv[(r >> fine) * nbc + (c >> fine)] -= 1
        if unv[(r >> fine) * nbc + (c >> fine)] == 0:
            _calm_around(r >> fine, c >> fine, nbr, nbc, unv, calm)
    if (r >> coarse) < nbr2 and (c >> coarse) < nbc2:
        unv2[(r >> coarse) * nbc2 + (c >> coarse)] -= 1
        if unv2[(r >> coarse) * nbc2 + (c >> coarse)] == 0:
            _calm_around(r >> coarse, c >> coarse, nbr2, nbc2, unv2, calm2)
    while remaining > 0:
        if ((r >> fine) < nbr and (c >> fine) < nbc
                and calm[(r >> fine) * nbc + (c >> fine)] != 0):
            # a calm block: k steps at once (srw_jump: x + y and x - y move
            # by independent fair signs, two popcounts of k random bits)
            k = 1 << fine
            if ((r >> coarse) < nbr2 and (c >> coarse) < nbc2
                    and calm2[(r >> coarse) * nbc2 + (c >> coarse)] != 0):
                k = 1 << coarse
            su = 0
            sv = 0
            left = k
            while left > 0:
                st, z = step(st)
                m = _M32 if left >= 32 else np.uint64((1 << left) - 1)
                for half in range(2):
                    x = z & m if half == 0 else (z >> _S32) & m
                    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
                    x = ((x & np.uint64(0x3333333333333333))
                         + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333)))
                    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
                    cnt = np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))
                    if half == 0:
                        su += cnt
                    else:
                        sv += cnt
                left -= 32
            du = 2 * su - k
            dv = 2 * sv - k
            r += (du - dv) >> 1
            c += (du + dv) >> 1
            u = r * cols + c
            moves += k
            continue
        st, bits = step(st)
        for _ in range(32):
            d = np.int64(bits & np.uint64(3))
            bits >>= np.uint64(2)
            # table look-ups, not a 4-way branch on a random direction
            nr = r + dr[d]
            nc = c + dc[d]
            if nr < 0 or nr >= rows or nc < 0 or nc >= cols:
                continue  # an off-grid draw is a stay
            v = u + off[d]
            r = nr
            c = nc
            moves += 1
            if visited[v] == 0:
                visited[v] = 1
                south_side, w = wall_between(u, v, cols)
                if south_side:
                    south[w] = 0
                else:
                    east[w] = 0
                remaining -= 1
                # the block counts written out: a call here costs ~20% (numba
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
    return moves


#: Wilson's jumps: 2**5 = 32 steps, one 64-bit word, from 32x32 blocks.
WILSON_BLOCK = 5
#: Jump ids must fit the time stamps of ``nxt`` (int32, 2 bits of direction).
_STAMP_MAX = (1 << 28) - 2
#: At most this many jumps are kept for one walk (16 bytes each: 1 GiB).
_JUMP_CAP = 1 << 26
#: A jump's step t: bit t of the word's low half (sign of x+y) and bit t of
#: its high half (sign of x-y), as ``a | b << 1`` -> direction 0 N 1 E 2 S 3 W.
_SIGNS_TO_DIR = np.array([3, 2, 0, 1], np.int64)


@njit(cache=True)
def word_jump(w, k):
    """Displacement ``(dr, dc)`` of the ``k`` (<= 32) steps word ``w`` encodes:
    bit t of its low and high halves are step t's signs of x+y and x-y (see
    :func:`srw_jump`; :func:`replay_word` takes the same steps one by one)."""
    m = _M32 if k >= 32 else np.uint64((1 << k) - 1)
    du = 2 * _popcount(w & m) - k
    dv = 2 * _popcount((w >> _S32) & m) - k
    return (du - dv) >> 1, (du + dv) >> 1


@njit(cache=True)
def replay_word(p, w, k, stamp, off, nxt):
    """Take the ``k`` steps of word ``w`` from cell ``p``, writing each cell's
    exit into ``nxt`` as ``stamp << 2 | direction`` unless the cell holds a
    later stamp; returns the end cell."""
    s4 = stamp << 2
    for t in range(k):
        d = _SIGNS_TO_DIR[np.int64(((w >> np.uint64(t)) & np.uint64(1))
                                   | ((w >> np.uint64(t + 31)) & np.uint64(2)))]
        if (nxt[p] >> 2) <= stamp:
            nxt[p] = np.int32(s4 | d)
        p += off[d]
    return p


def wilson(rows, cols, seed, lb=WILSON_BLOCK):
    """Loop-erased random walks into the growing tree (Wilson 1996).

    ``nxt[u]`` remembers the last exit taken from ``u``; overwriting it on a
    revisit is exactly loop erasure, so retracing ``nxt`` from the walk's
    start yields the loop-erased path. Any order of start cells and any root
    give a uniform spanning tree. Returns the walls and the number of walk
    moves made.

    The expected number of moves grows like ``n log n`` (the sum over cells
    of their expected visits before the walk hits the root), most of it far
    from the tree, where a move cannot end the walk. So, as in
    :func:`aldous_broder`, the walk jumps ``k = 2**lb`` steps at once (``lb``
    <= 5: one word; a larger ``lb`` turns the jumps off)
    from a calm block -- one not on the block grid's rim whose 3x3 block
    neighbourhood holds no tree cell -- drawing one word, whose bits are the
    steps (:func:`word_jump`). Loop erasure needs the exits a jump skipped,
    but only for cells the retrace reaches: the jump's start cell and word
    are kept, and before the retrace reads a cell's exit it replays
    (:func:`replay_word`) every jump of this walk that started within a
    block of it and came after the cell's last recorded exit. ``nxt`` holds
    ``stamp << 2 | direction`` with stamps ordering the walk's steps and
    jumps (``2 j`` for steps taken after ``j`` jumps, ``2 j + 1`` for jump
    ``j``), so replays in any order leave every cell its last exit. The
    walk's law is unchanged and so is the tree's; mazes narrower than three
    blocks never jump and draw the same bits as the step-by-step walk.

    The arrays are allocated here, in numpy, and :func:`_wilson_walks` runs
    the walks (kernel style 3).
    """
    n = rows * cols
    nbr = rows >> lb
    nbc = cols >> lb
    if lb > WILSON_BLOCK:  # a jump is one word, at most 32 steps: larger blocks never jump
        nbr = 0
        nbc = 0
    nb = max(nbr * nbc, 1)
    calm = np.zeros(nb, np.uint8)
    if nbr > 2 and nbc > 2:  # the block grid's inside; the root's blocks are cleared next
        calm[:nbr * nbc].reshape(nbr, nbc)[1:-1, 1:-1] = 1
    # a walk stops jumping when the jump arrays are full. A walk's words are
    # 2 bits per jumped step, and a rare first walk takes ~n log(n)**2 steps
    # (a 4000² maze: up to ~1e9, 3e7 jumps), so the cap is large; its pages
    # cost nothing until a walk that long touches them.
    cap = min(2 * n, _JUMP_CAP) + 1024
    walls = np.ones(2 * n, np.uint8)  # cell i's east wall at 2i, south wall at 2i + 1
    moves = _wilson_walks(
        rows, cols, kernel_state(seed), lb, nbr, nbc, walls,
        np.zeros(n, np.uint8), np.zeros(n, np.int32), np.zeros(nb, np.int32), calm,
        np.full(nb, -1, np.int32), np.full(nb, -1, np.int32), np.full(nb, -1, np.int64),
        np.empty(cap, np.int32), np.empty(cap, np.uint64), np.empty(cap, np.int32),
        *_move_tables(cols))
    return walls[0::2].copy(), walls[1::2].copy(), moves


@njit(cache=True)
def _wilson_walks(rows, cols, st, lb, nbr, nbc, walls, intree, nxt, ntree, calm, head, cursor,
                  cwalk, jcell, jword, jlink, dr, dc, off, woff, wsel):
    """The walks of :func:`wilson` on its arrays (``st``: the SplitMix64
    state; ``ntree``: tree cells per block; ``head``: a block's latest jump,
    jumps link back through ``jlink``; ``cursor``: the block's latest jump
    not replayed yet, of walk ``cwalk``); returns the number of moves."""
    n = rows * cols
    k = 1 << lb
    cap = jcell.size
    njump = 0
    root = below(st, n)
    intree[root] = 1
    rr = root // cols
    rc = root - rr * cols
    if (rr >> lb) < nbr and (rc >> lb) < nbc:
        ntree[(rr >> lb) * nbc + (rc >> lb)] = 1
        for a in range(max((rr >> lb) - 1, 0), min((rr >> lb) + 2, nbr)):
            for e in range(max((rc >> lb) - 1, 0), min((rc >> lb) + 2, nbc)):
                calm[a * nbc + e] = 0
    bits = np.uint64(0)
    nbits = 0
    moves = 0
    for s in range(n):
        if intree[s]:
            continue
        base = njump  # this walk's first jump
        u = s
        r = s // cols
        c = s - r * cols
        while True:
            if nbits == 0:
                # jump while the block is calm; a jump never ends in the
                # tree, so it looks nothing up in the big arrays
                while True:
                    w = next_u64(st)
                    br = r >> lb
                    bc = c >> lb
                    i = njump - base
                    if not (br < nbr and bc < nbc and calm[br * nbc + bc] and i < cap
                            and njump < _STAMP_MAX):
                        break
                    jcell[i] = u
                    jword[i] = w
                    b = br * nbc + bc
                    jlink[i] = head[b]
                    head[b] = njump
                    njump += 1
                    jr, jc = word_jump(w, k)
                    r += jr
                    c += jc
                    u = r * cols + c
                    moves += k
                bits = w
                nbits = 32
            d = np.int64(bits & np.uint64(3))
            bits >>= np.uint64(2)
            nbits -= 1
            v, r, c = _walk(u, r, c, d, rows, cols, dr, dc, off)
            if v < 0:
                continue
            moves += 1
            nxt[u] = np.int32(((2 * njump) << 2) | d)
            u = v
            if intree[u]:
                break
        u = s
        r = s // cols
        c = s - r * cols
        while intree[u] == 0:
            br = r >> lb
            bc = c >> lb
            if (nxt[u] >> 2) < 2 * njump:  # a jump came after u's last step
                for a in range(max(br - 1, 0), min(br + 2, nbr)):
                    for e in range(max(bc - 1, 0), min(bc + 2, nbc)):
                        b = a * nbc + e
                        if cwalk[b] != s:
                            cwalk[b] = s
                            cursor[b] = head[b]
                        j = cursor[b]
                        while j >= base and 2 * j + 1 > (nxt[u] >> 2):
                            replay_word(jcell[j - base], jword[j - base], k, 2 * j + 1, off,
                                        nxt)
                            j = jlink[j - base]
                        cursor[b] = j
            intree[u] = 1
            d = nxt[u] & 3
            walls[2 * (u + woff[d]) + wsel[d]] = 0  # no branch on a random direction
            if br < nbr and bc < nbc:
                b = br * nbc + bc
                ntree[b] += 1
                if ntree[b] == 1:
                    for a in range(max(br - 1, 0), min(br + 2, nbr)):
                        for e in range(max(bc - 1, 0), min(bc + 2, nbc)):
                            calm[a * nbc + e] = 0
            u += off[d]
            r += dr[d]
            c += dc[d]
    return moves
