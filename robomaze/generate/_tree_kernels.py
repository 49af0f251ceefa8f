"""Numba kernels for frontier Prim, the row-by-row and the wall-adding generators.

Same conventions as :mod:`robomaze.generate._kernels`: flat arrays, a
SplitMix64 stream from one seed, ``uint8`` east/south wall arrays out.

"Kernel style N" notes refer to :mod:`robomaze._compile.kernels`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._kernels import _INV53, _S11, _S63, below, scale_below, step, uniform
from ._mst_kernels import _find
from ._common import closed_walls, kernel_state


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


def unpack_blocked(cell, rows, cols, east_bit, south_bit):
    """:func:`_unpack_walls` in numpy, for a caller outside a kernel (nothing
    to compile): the 8x8 blocks transposed back to rows."""
    tr = (rows + 7) >> 3
    tc = (cols + 7) >> 3
    grid = cell.reshape(tr, tc, 8, 8).transpose(0, 2, 1, 3).reshape(tr * 8, tc * 8)
    grid = grid[:rows, :cols]
    return ((grid & east_bit) != 0).view(np.uint8).ravel(), \
        ((grid & south_bit) != 0).view(np.uint8).ravel()


def prim_frontier(rows, cols, seed):
    """Frontier-cell Prim: cells are Out, Frontier or In.

    A uniformly random Frontier cell joins the maze through a uniformly
    random In neighbour; its Out neighbours become Frontier. The frontier is
    an int32 array with swap-removal, so every step is O(1). The step lands
    anywhere on the rim, so a cell's state (bits 0-1) and its east and south
    walls (bits 2, 3) share one byte, laid out in 8x8 blocks of one cache
    line: a cell and its neighbours are mostly one memory access.

    The arrays are allocated here, in numpy, and :func:`_prim_frontier`
    carves (kernel style 3).
    """
    n = rows * cols
    tcols = (cols + 7) >> 3
    cell = np.full(((rows + 7) >> 3) * tcols * 64, 12, np.uint8)  # out, both walls
    _prim_frontier(rows, cols, kernel_state(seed), tcols, cell, np.empty(n, np.int32),
                   np.empty(4, np.int64))
    return unpack_blocked(cell, rows, cols, 4, 8)


@njit(cache=True)
def _prim_frontier(rows, cols, st, tcols, cell, front, cand):
    """The growth of :func:`prim_frontier` on its arrays (``cell``: state and
    walls in 8x8 blocks; ``front``: the frontier)."""
    n = rows * cols
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


def eller(rows, cols, seed):
    """Eller's row-at-a-time algorithm with union-find set labels.

    Merging two sets in a row is a union (no relabelling pass), so a row
    costs O(cols) whatever the merges. After each row the labels are
    renumbered to ``0 .. cols-1`` in order of first appearance (a fresh set
    for each cell that did not go down), so every per-set array
    has ``cols`` entries and stays in cache whatever the number of rows;
    only the set structure, never a label's value, drives a random draw.

    The arrays are allocated here, in numpy, and :func:`_eller` carves
    (kernel style 3).
    """
    n = rows * cols
    east, south = closed_walls(n)
    _eller(rows, cols, kernel_state(seed), east, south,
           np.full(cols, -1, np.int32),  # parent: roots negative, as _find expects
           np.arange(cols, dtype=np.int32), np.full(cols, -1, np.int32),
           np.zeros(cols, np.uint8), np.zeros(cols, np.uint8), np.zeros(cols, np.int64),
           np.zeros(cols, np.int64))
    return east, south


@njit(cache=True)
def _eller(rows, cols, st, east, south, parent, label, remap, down, has, seen, choice):
    """The rows of :func:`eller` on its arrays (per-set arrays of ``cols`` entries)."""
    for r in range(rows):
        base = r * cols
        last = r == rows - 1
        for c in range(cols - 1):
            # int64 like the MST tiles' cell indices: one _find serves both
            a = _find(parent, np.int64(label[c]))
            b = _find(parent, np.int64(label[c + 1]))
            if a != b and (last or uniform(st) < 0.5):
                parent[b] = a
                east[base + c] = 0
        if last:
            break
        for c in range(cols):
            label[c] = _find(parent, np.int64(label[c]))
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
        for c in range(cols):  # loops, not a slice assignment (kernel style 4)
            remap[c] = -1
            parent[c] = -1


def sidewinder(rows, cols, seed):
    """Runs along each row, each closed by one passage north from a random cell.

    The arrays are allocated here, in numpy, and :func:`_sidewinder` carves
    (kernel style 3).
    """
    n = rows * cols
    east, south = closed_walls(n)
    _sidewinder(rows, cols, kernel_state(seed), east, south)
    return east, south


@njit(cache=True)
def _sidewinder(rows, cols, st, east, south):
    """The runs of :func:`sidewinder` on its arrays.

    The stream's state is a local scalar (``step`` inlined), stored back
    once, and no branch depends on a coin flip (half of them were
    mispredicted): a cell's coin ``uniform() < 0.5`` is its draw's top bit
    being 0 (``(z >> 11) * 2**-53 < 0.5`` exactly when ``z < 2**63``), the
    run-closing draw is computed every time and the state advanced past it
    only when the run closes, and the passage north is cleared with
    ``&= 1 - close`` (a no-op on a cell of the run when it does not close).
    The draws are :func:`uniform`'s and :func:`below`'s, one for one.
    """
    s = st[0]
    one = np.uint8(1)
    for c in range(cols - 1):
        east[c] = 0
    for r in range(1, rows):
        base = r * cols
        up = base - cols
        run = 0
        for c in range(cols - 1):
            s, z = step(s)
            close = np.int64(z >> _S63)                  # 1: the coin closed the run
            east[base + c] = np.uint8(close)
            s2, z2 = step(s)
            s += np.uint64(close) * (s2 - s)
            k = run + scale_below(z2, c - run + 1)
            j = up + c + close * (k - c)
            south[j] &= one - np.uint8(close)
            run += close * (c + 1 - run)
        c = cols - 1                                     # the last cell closes its run
        s, z = step(s)
        south[up + run + scale_below(z, c - run + 1)] = 0
    st[0] = s


def binary_tree(rows, cols, seed):
    """Each cell opens north or west (whichever exist), at random.

    The arrays are allocated here, in numpy, and :func:`_binary_tree` carves
    (kernel style 3).
    """
    n = rows * cols
    east, south = closed_walls(n)
    _binary_tree(rows, cols, kernel_state(seed), east, south)
    return east, south


@njit(cache=True)
def _binary_tree(rows, cols, st, east, south):
    """The draws of :func:`binary_tree` on its arrays (the state a local
    scalar, as in :func:`_sidewinder`).

    ``uniform() < 0.5`` is the draw's top bit being 0 (``(z >> 11) * 2**-53
    < 0.5`` exactly when ``z < 2**63``), and each cell's two walls are its
    own, so both are stored from that bit with no branch on a coin flip
    (half of them mispredicted).
    """
    s = st[0]
    for c in range(1, cols):
        east[c - 1] = 0
    for r in range(1, rows):
        base = r * cols
        south[base - cols] = 0
        for c in range(1, cols):
            s, z = step(s)
            north_closed = np.uint8(z >> _S63)       # 1: the coin opened west
            south[base - cols + c] = north_closed
            east[base + c - 1] = np.uint8(1) - north_closed
    st[0] = s


def division(rows, cols, seed):
    """Recursive division with an explicit stack of chambers.

    Each wall splits a chamber in two and leaves exactly one gap, so the two
    halves (each a tree by induction) join by one passage: the result is a
    spanning tree. Each split shrinks height + width, so the stack depth is
    below rows + cols.

    The arrays are allocated here, in numpy, and :func:`_division` carves
    (kernel style 3).
    """
    n = rows * cols
    east = np.zeros(n, np.uint8)
    south = np.zeros(n, np.uint8)
    stack = np.empty((2 * (rows + cols) + 8, 4), np.int64)
    _division(rows, cols, kernel_state(seed), east, south, stack)
    return east, south


@njit(cache=True)
def _division(rows, cols, st, east, south, stack):
    """The splits of :func:`division` on its arrays (``stack``: chambers)."""
    s = st[0]
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
        horizontal = h > w
        if h == w:
            s, z = step(s)
            horizontal = np.float64(z >> _S11) * _INV53 < 0.5
        if horizontal:
            s, z = step(s)
            wr = r0 + scale_below(z, h - 1)  # wall south of row wr
            s, z = step(s)
            gap = c0 + scale_below(z, w)
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
            s, z = step(s)
            wc = c0 + scale_below(z, w - 1)  # wall east of column wc
            s, z = step(s)
            gap = r0 + scale_below(z, h)
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
    st[0] = s


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

    The arrays are allocated here, in numpy, and :func:`_wall_adder` grows
    the walls (kernel style 3).
    """
    n = rows * cols
    pc = cols + 1
    # one byte per post, in 8x8 blocks of one cache line (a step touches a
    # post and its four neighbours): state in bits 0-1 (0 unattached,
    # 1 frontier, 2 attached), bit 2 the wall segment down to post (i+1, j)
    # = east wall of cell (i, j-1), bit 3 the segment right to post (i, j+1)
    # = south wall of cell (i-1, j)
    tcols = (pc + 7) >> 3
    east = np.zeros(n, np.uint8)
    south = np.zeros(n, np.uint8)
    _wall_adder(rows, cols, kernel_state(seed), tcols, east, south,
                np.zeros(((rows + 8) >> 3) * tcols * 64, np.uint8),
                np.empty((rows + 1) * pc, np.int32), np.empty(4, np.int64), np.empty(4, np.int64))
    return east, south


@njit(cache=True)
def _wall_adder(rows, cols, st, tcols, east, south, post, front, cand, nbi):
    """The walls of :func:`wall_adder` grown on its arrays (``post``: the
    posts' bytes in 8x8 blocks; ``front``: the frontier posts)."""
    pc = cols + 1
    flen = np.int64(0)  # typed, not a literal (kernel style 4)
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
        m = np.int64(0)
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
    for r in range(rows):
        for c in range(cols - 1):
            east[r * cols + c] = 1 if post[_bidx(r, c + 1, tcols)] & 4 else 0
    for r in range(rows - 1):
        for c in range(cols):
            south[r * cols + c] = 1 if post[_bidx(r + 1, c, tcols)] & 8 else 0
