"""The 4-connected field of a widened perfect maze of corridor 1 and wall 1 (pitch 2), walked.

At pitch 2 the grid is the maze matrix itself: maze cell ``(r, c)`` is grid
cell ``(2r + 1, 2c + 1)``, the passage east of it ``(2r + 1, 2c + 2)``, the
one south of it ``(2r + 2, 2c + 1)``, posts at even-even cells, openings in
the border. In a perfect maze every grid cell's BFS distance is its depth
in the tree, so a depth-first walk over the *maze cells* (a quarter of the
grid's cells) gives the field in three steps, all read from the occupancy
alone (a grid with or without widening metadata):

1. :func:`maze_sides`: one pass over the grid gives each maze cell's open
   sides (one byte), checks that every post is blocked and every cell free,
   and counts the open inner passages;
2. :func:`cell_depths4`: four depth-first walks, stepped side by side
   over disjoint subtrees (four independent dependency chains where one
   walk, :func:`cell_depths`, is one), write each maze cell's depth into
   a compact ``R x C`` int32 array (a quarter of the field, so the walks'
   scattered stores stay nearer the caches); along a corridor the next
   cell is computed from its one open side's bit, in registers;
3. :func:`write_field`: one streaming pass writes the grid, row by row: a
   cell its depth, an open passage one more than the smaller of its two
   cells (a parent and its child differ by two), posts and closed passages
   -1 -- no -1 fill before it and no reset after.

Exactness: the goal's component is the whole maze and a tree when the maze
has exactly ``R*C - 1`` open inner passages and the walk reaches all
``R*C`` cells (a connected graph with one edge fewer than nodes); anything
else (a braid, a post missing, a blocked cell) returns None and the caller
runs the BFS. Measured against the bit-mask tree walk of every grid cell
(:func:`._bitwave.tree_walk`) and the closed form's forms and bands
(:mod:`._blockwave`): benchmarks/README.md, "Issue 40, round 7".
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._bitwave import _scratch, fresh, populated


@njit(cache=True)
def maze_sides(occ, sides):
    """Open sides of each maze cell of a pitch-2 grid: the open inner passages, or -1 when
    a post is free or a cell blocked.

    ``occ``: ``(2R + 1, 2C + 1)`` uint8, nonzero = blocked; ``sides``: ``R*C``
    uint8, written (N 1, E 2, S 4, W 8; the border's openings are not sides).
    """
    rows, cols = occ.shape
    R = (rows - 1) // 2
    C = (cols - 1) // 2
    bad = 0
    inner = 0
    for r in range(0, rows, 2):
        row = occ[r]
        for c in range(0, cols, 2):
            bad |= row[c] == 0                  # a post
    for r in range(R):
        up = occ[2 * r]
        mid = occ[2 * r + 1]
        dn = occ[2 * r + 2]
        base = r * C
        for c in range(C):
            x = 2 * c + 1
            bad |= mid[x] != 0                  # a cell
            n = np.int64(up[x] == 0) & np.int64(r > 0)
            s = np.int64(dn[x] == 0) & np.int64(r < R - 1)
            e = np.int64(mid[x + 1] == 0) & np.int64(c < C - 1)
            w = np.int64(mid[x - 1] == 0) & np.int64(c > 0)
            sides[base + c] = np.uint8(n | (e << 1) | (s << 2) | (w << 3))
            inner += s + e
    return -1 if bad else inner


@njit(cache=True)
def cell_depths(sides, C, seeds, depth, stack):
    """Depth-first depths of the maze cells from ``seeds``: cells entered, or -1 on a cycle.

    ``seeds``: int64 rows ``(cell, came bit, depth)`` (``came`` the side the
    seed is entered from: it is not walked back through); ``depth``: ``R*C``
    int32, written; ``stack``: int64, at least ``R*C + 8`` long. -1 when
    more cells are entered than the maze has (the walk never steps back
    through the side it came in by, so only a cycle can do that).
    """
    n = sides.shape[0]
    top = 0
    for i in range(seeds.shape[0]):
        stack[top] = (seeds[i, 2] << 34) | (seeds[i, 1] << 30) | seeds[i, 0]
        top += 1
    count = 0
    cm1 = C - 1
    while top > 0:
        top -= 1
        e = stack[top]
        u = e & 0x3FFFFFFF
        came = (e >> 30) & 15
        d = e >> 34
        while True:
            count += 1
            if count > n:
                return -1
            depth[u] = d
            s = np.int64(sides[u]) & ~came
            d += 2
            if s != 0 and (s & (s - 1)) == 0:
                # one way on, stepped by arithmetic on its bit (N 1, E 2, S 4,
                # W 8): a row step for N/S, backwards for N/W. The step is the
                # walk's dependency chain; table look-ups for it (side index,
                # then step and entry side) made it 1.33x longer (8001^2:
                # 170 -> 128 ms, benchmarks/README.md, "round 8 (r8-wave)")
                vm = -((s | (s >> 2)) & 1)
                nm = -((s | (s >> 3)) & 1)
                step = 1 + (cm1 & vm)
                u += (step ^ nm) - nm
                came = ((s << 2) | (s >> 2)) & 15
                continue
            if top + 4 > stack.shape[0]:
                return -1
            dd = d << 34
            stack[top] = dd | (np.int64(4) << 30) | (u - C)
            top += s & 1
            stack[top] = dd | (np.int64(8) << 30) | (u + 1)
            top += (s >> 1) & 1
            stack[top] = dd | (np.int64(1) << 30) | (u + C)
            top += (s >> 2) & 1
            stack[top] = dd | (np.int64(2) << 30) | (u - 1)
            top += (s >> 3) & 1
            break
    return count


#: walkers :func:`cell_depths4` steps side by side
WALKERS = 4
_CELL = 0x3FFFFFFF


@njit(cache=True, inline="always")
def _walker_step(u, came, d, sides, depth, stack, top, cm1, C):
    """One cell of one walker: ``(u, came, d, top)``; ``u`` -1 when it is idle.

    An idle walker takes the stack's top entry (none: it stays idle); a
    walker that reaches a junction or a dead end pushes the ways on and
    goes idle (the next step takes the last way pushed, a child of the same
    junction: the walk stays depth-first and local).
    """
    if u < 0:
        if top == 0:
            return u, came, d, top
        top -= 1
        e = stack[top]
        u = e & _CELL
        came = (e >> 30) & 15
        d = e >> 34
    depth[u] = d
    s = np.int64(sides[u]) & ~came
    d += 2
    if s != 0 and (s & (s - 1)) == 0:
        vm = -((s | (s >> 2)) & 1)
        nm = -((s | (s >> 3)) & 1)
        step = 1 + (cm1 & vm)
        u += (step ^ nm) - nm
        came = ((s << 2) | (s >> 2)) & 15
        return u, came, d, top
    dd = d << 34
    stack[top] = dd | (np.int64(4) << 30) | (u - C)
    top += s & 1
    stack[top] = dd | (np.int64(8) << 30) | (u + 1)
    top += (s >> 1) & 1
    stack[top] = dd | (np.int64(1) << 30) | (u + C)
    top += (s >> 2) & 1
    stack[top] = dd | (np.int64(2) << 30) | (u - 1)
    top += (s >> 3) & 1
    if top == 0:
        return np.int64(-1), came, d, top
    # go on at once with the last way pushed (a child of this junction)
    top -= 1
    e = stack[top]
    return e & _CELL, (e >> 30) & 15, e >> 34, top


@njit(cache=True)
def cell_depths4(sides, C, seeds, depth, stack):
    """:func:`cell_depths` with ``WALKERS`` (4) walks stepped side by side: cells entered, or -1.

    The one walk is a dependency chain (a cell's open sides give the next
    cell, whose sides give the next): about 8 ns a maze cell whatever the
    maze's size. Four walks over disjoint subtrees (each takes a way a
    junction pushed) are four independent chains the core overlaps. The
    depths are the same -- a cell's depth is its parent's plus two, in
    any order the cells are entered. -1 when more cells are entered than
    the maze has (a cycle) or the stack would overflow.
    """
    n = sides.shape[0]
    top = 0
    for i in range(seeds.shape[0]):
        stack[top] = (seeds[i, 2] << 34) | (seeds[i, 1] << 30) | seeds[i, 0]
        top += 1
    cm1 = C - 1
    lim = stack.shape[0] - 16
    u0 = u1 = u2 = u3 = np.int64(-1)
    c0 = c1 = c2 = c3 = np.int64(0)
    d0 = d1 = d2 = d3 = np.int64(0)
    steps = 0
    while True:
        # a step of a walker that was idle with an empty stack enters no
        # cell; counting it anyway only makes the cycle test stricter near
        # the end, so the count of entered cells is kept exactly below
        a0 = u0 >= 0 or top > 0
        u0, c0, d0, top = _walker_step(u0, c0, d0, sides, depth, stack, top, cm1, C)
        a1 = u1 >= 0 or top > 0
        u1, c1, d1, top = _walker_step(u1, c1, d1, sides, depth, stack, top, cm1, C)
        a2 = u2 >= 0 or top > 0
        u2, c2, d2, top = _walker_step(u2, c2, d2, sides, depth, stack, top, cm1, C)
        a3 = u3 >= 0 or top > 0
        u3, c3, d3, top = _walker_step(u3, c3, d3, sides, depth, stack, top, cm1, C)
        steps += np.int64(a0) + np.int64(a1) + np.int64(a2) + np.int64(a3)
        if steps > n or top > lim:
            return -1
        if (u0 & u1 & u2 & u3) < 0 and top == 0:
            break
    return steps


@njit(cache=True)
def write_field(occ, depth, out):
    """The grid's field from the maze cells' depths, row by row (``out``: ``occ``'s shape, int32).

    A cell: its depth; an open passage or opening: one more than the
    smaller depth beside it; posts and closed ones: -1.
    """
    rows, cols = occ.shape
    R = (rows - 1) // 2
    C = (cols - 1) // 2
    big = np.int32(1 << 30)
    for r in range(rows):
        o = out[r]
        q = occ[r]
        if r % 2 == 1:
            dm = depth[(r // 2) * C:(r // 2 + 1) * C]
            o[0] = dm[0] + 1 if q[0] == 0 else -1
            for c in range(C):
                o[2 * c + 1] = dm[c]
            for c in range(C - 1):
                a = dm[c]
                b = dm[c + 1]
                o[2 * c + 2] = (a if a < b else b) + 1 if q[2 * c + 2] == 0 else -1
            o[cols - 1] = dm[C - 1] + 1 if q[cols - 1] == 0 else -1
        else:
            hi = depth[(r // 2 - 1) * C:(r // 2) * C] if r > 0 else depth[:0]
            lo = depth[(r // 2) * C:(r // 2 + 1) * C] if r < rows - 1 else depth[:0]
            for c in range(0, cols, 2):
                o[c] = -1
            for c in range(C):
                a = hi[c] if r > 0 else big
                b = lo[c] if r < rows - 1 else big
                o[2 * c + 1] = (a if a < b else b) + 1 if q[2 * c + 1] == 0 else -1


#: the largest grid the walk takes (the stack packs a maze cell in 30 bits).
#: Round 7 stopped it at 2^25 cells: at 8001^2, interleaved with the C peer,
#: its medians were 0.47-0.54 s against 0.39-0.45 s for the grid-cell tree
#: walk. With the walk's step computed rather than looked up and no -1 fill
#: of the output it is the faster of the two there too:
#: benchmarks/README.md, "Issue 40, round 8 (r8-wave)"
THIN_MAX_CELLS = 1 << 32


def pitch2(occ) -> bool:
    """Whether a bool occupancy has the shape and corner of a pitch-2 widened maze (cheap)."""
    rows, cols = occ.shape
    return (rows % 2 == 1 and cols % 2 == 1 and rows >= 3 and cols >= 3
            and bool(occ[0, 0]) and not occ[1, 1] and bool(occ[2, 2]))


def thin_maze_field(occ: np.ndarray, goal):
    """The field of a pitch-2 widened perfect maze from its occupancy: ``(dist, reached)`` or None.

    ``occ``: ``(2R + 1, 2C + 1)`` bool occupancy; ``goal``: a free ``(row, col)``.
    None when the grid is not such a maze, the maze is not a tree, the goal
    is blocked, or the grid has more than ``THIN_MAX_CELLS`` cells.

    >>> from robomaze.grid import widen
    >>> from robomaze.generate import generate
    >>> from robomaze._search import bfs_field
    >>> g = widen(generate("backtracker", 5, 7, rng=3), corridor=1)
    >>> d, n = thin_maze_field(g.occupied, (1, 2))
    >>> ref = bfs_field(g.occupied.view(np.uint8).ravel(), g.rows, g.cols, g.cols + 2, False,
    ...                 occupied=True)[0]
    >>> bool((d == ref).all()), n == int((ref >= 0).sum())
    (True, True)
    >>> thin_maze_field(widen(generate("backtracker", 5, 7, rng=3, braid=1.0), corridor=1)
    ...                 .occupied, (1, 1)) is None                     # loops
    True
    """
    occ = np.ascontiguousarray(occ, dtype=bool)
    rows, cols = occ.shape
    if not pitch2(occ) or occ.size > THIN_MAX_CELLS:
        return None
    R, C = (rows - 1) // 2, (cols - 1) // 2
    if R * C >= 1 << 30:
        return None                      # the stack packs a cell in 30 bits
    gr, gc = int(goal[0]), int(goal[1])
    if occ[gr, gc]:
        return None
    o8 = occ.view(np.uint8)
    # every cell is written by write_field: no -1 fill first (a 256 MB pass
    # more at 8001^2). The output is faulted in first (``fresh``: the memory
    # another array just gave back is cheap to fault in, the same a walk
    # later up to 20x dearer in system time); the scratch is on 4 KiB pages
    # faulted in at once (``populated``: numpy's huge pages for it cost
    # 14-214 ms of system time at 8001^2, these 32-40 ms). A grid that is no
    # such maze gives them back to the BFS's own arrays a moment later
    out = fresh((rows, cols), np.int32)
    depth = populated(R * C, np.int32)
    sides = populated(R * C, np.uint8)
    if maze_sides(o8, sides) != R * C - 1:
        return None                      # loops or a forest (or not a maze): the BFS
    # seeds: (maze cell, the side bit it is entered from, depth)
    if gr % 2 and gc % 2:
        seeds = [((gr // 2) * C + gc // 2, 0, 0)]
    elif gr % 2:                          # a vertical wall position: W/E neighbours
        r = gr // 2
        seeds = [(r * C + c, side, 1) for c, side in ((gc // 2 - 1, 2), (gc // 2, 8))
                 if 0 <= c < C]
    else:                                 # a horizontal one: N/S neighbours
        c = gc // 2
        seeds = [(r * C + c, side, 1) for r, side in ((gr // 2 - 1, 4), (gr // 2, 1))
                 if 0 <= r < R]
    # the stack: pages faulted in only where it is pushed (a junction's ways)
    count = cell_depths4(sides, C, np.array(seeds, np.int64).reshape(-1, 3), depth,
                         _scratch(R * C + 32, np.int64))
    if count != R * C:
        return None
    write_field(o8, depth, out)
    out[gr, gc] = 0
    # the free cells, all reached: the maze's cells, its R*C - 1 open inner
    # passages and the border's openings (posts and cells were checked) --
    # no count over the grid's bytes
    border = (occ[0], occ[-1], occ[1:-1, 0], occ[1:-1, -1])
    openings = sum(b.size - int(np.count_nonzero(b)) for b in border)
    return out, 2 * R * C - 1 + openings
