"""Numba kernels of the classic maze solvers.

Every kernel works on a flat ``uint8`` free mask (1 = the robot's reference
point may stand there) of a ``rows x cols`` grid, with cells numbered
``row * cols + col``. Headings are 0 = N, 1 = E, 2 = S, 3 = W, so turning
right is ``+1`` and left ``-1`` (mod 4). A ``hand`` of ``+1`` is the right
hand, ``-1`` the left.

The *sight* array (see :func:`sight_field`) holds, for every cell from which
the goal is in line of sight, the direction of the next step towards it
(0-3 axis moves, 4-7 diagonal moves NE, SE, SW, NW realised as a vertical
then a horizontal move), 8 on the goal itself and -1 elsewhere; a walker that
reaches such a cell walks straight to the goal.

Walk buffers come from the caller, as long as the walker's moves can be
(:func:`walk_room`; only the pages a walk writes are touched); a kernel whose
buffer fills returns :data:`ROOM` and :func:`until_room` runs it again with
twice the room. Kernels return the buffer and the walk's length ``n`` and
the wrappers take ``walk[:n]`` (kernel style: :mod:`robomaze._compile.kernels`).
Kernels return a status code; the Python wrappers
turn failures into :class:`robomaze.errors.NoPathError`.

The callers allocate what a kernel needs (the first walk buffer, zeroed
marks, the sight array): ``np.zeros`` and ``np.full`` inside a kernel
compiled implementations of their own on a cold start (issue 40, round 9:
benchmarks/README.md). The five walkers are one kernel, :func:`walker`, the
rule a small integer (issue 40, round 11): one loop whose sight check, move
and store they share, written once, compiles ~1 s less than five kernels
did (round 9's attempt inlined five whole bodies under a dispatch, which
compiled no less). The functions named after each walker call it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..._compile.kernels import noalloc


# Kernels here that allocate nothing (their callers do: kernel style 3) are
# noalloc(no_cfunc_wrapper=True): no reference counting lowered and
# no C wrapper, which nothing calls (issue 40, round 12: benchmarks/README.md).
# error_model="numpy" on those whose only divisions are ``// cols`` (cols >= 1):
# numba's default (Python) model tests every ``//`` for a zero divisor and
# lowers a ZeroDivisionError never raised (issue 40, round 13: benchmarks/README.md).
DR = np.array([-1, 0, 1, 0, -1, 1, 1, -1], dtype=np.int64)
DC = np.array([0, 1, 0, -1, 1, 1, -1, -1], dtype=np.int64)

# Move tables as module constants (numba embeds them).
#: turns tried by the wall followers, hand side, straight, other side, back:
#: ``hand * _TURN_BY_HAND[k] + _TURN_FIXED[k]``
_TURN_BY_HAND = np.array([1, 0, -1, 0], np.int64)
_TURN_FIXED = np.array([0, 0, 0, 2], np.int64)
#: Pledge's turns (its U-turn counts ``-2 * hand``): ``hand * _PLEDGE_TURN[k]``
_PLEDGE_TURN = np.array([1, 0, -1, -2], np.int64)
#: the random mouse's candidates: a 4-bit mask of directions, its number of
#: set bits and (at ``4 * mask + j``) its j-th set bit, ascending
_BITS = np.array([bin(m).count("1") for m in range(16)], np.int64)
_NTH_BIT = np.array([([d for d in range(4) if m >> d & 1] + [0] * 4)[j]
                     for m in range(16) for j in range(4)], np.int64)
#: dead-end filling's neighbour order N NE E SE S SW W NW
_RING = np.array([0, 4, 1, 5, 2, 6, 3, 7], np.int64)

#: Kernel status codes.
OK = 0
BACK_AT_START = 1      # wall follower: back in its start state
LOOPING = 2            # a deterministic walker entered a cycle of states
STUCK = 3              # no free neighbour to move to
EXHAUSTED = 4          # explorer: every reachable cell explored, no goal
STEP_LIMIT = 5         # random walk: ran out of steps (chunk finished)
ROOM = 6               # the walk buffer is full: run again with a longer one (:func:`until_room`)


def _step(free, rows, cols, p, d):
    """The cell one move ``d`` from ``p``, -1 when it is off the grid or
    blocked (Python: the kernels test a cell's four neighbours at once)."""
    r = p // cols + DR[d]
    c = p % cols + DC[d]
    if r < 0 or r >= rows or c < 0 or c >= cols:
        return -1
    q = r * cols + c
    if free[q]:
        return q
    return -1


@njit(inline="always")
def _walk_sight(walk, n, cols, p, vis):
    """Append the straight walk from ``p`` (which sees the goal) to the goal:
    the walk's new length, -1 when ``walk`` has no room for it.

    Inlined into :func:`walker`, its one caller (kernel style 1): as an
    inner kernel it was one more library to compile, link and cache.
    """
    while vis[p] != 8:
        d = vis[p]
        if d < 4:
            p = p + DR[d] * cols + DC[d]
        else:
            p = p + DR[d] * cols
            if n == walk.shape[0]:
                return -1
            walk[n] = p
            n += 1
            p = p + DC[d]
        if n == walk.shape[0]:
            return -1
        walk[n] = p
        n += 1
    return n


def sight_field(free, rows: int, cols: int, goal: int, enabled: bool) -> np.ndarray:
    """The sight array (see module doc); only the goal when not ``enabled``."""
    vis = np.full(rows * cols, -1, np.int8)
    vis[goal] = 8
    if enabled:
        sight_rays(free, rows, cols, goal, vis)
    return vis


@njit(cache=True)
def loop_erase(walk, ncells):
    """Chronological loop erasure: on revisiting a cell, cut back to it."""
    pos = np.full(ncells, -1, np.int64)
    path = np.empty(walk.shape[0], np.int64)
    m = 0
    for v in walk:
        i = pos[v]
        if i >= 0:
            for j in range(i + 1, m):
                pos[path[j]] = -1
            m = i + 1
        else:
            pos[v] = m
            path[m] = v
            m += 1
    return path[:m].copy()


@noalloc(no_cfunc_wrapper=True)
def count_distinct(walk, seen):
    """Number of distinct cells in a walk; ``seen``: zeroed uint8, one per cell."""
    count = 0
    for v in walk:
        if not seen[v]:
            seen[v] = 1
            count += 1
    return count


def buffer(n: int) -> np.ndarray:
    """A walk buffer for a walker kernel (int64; at least 1 long)."""
    return np.empty(max(int(n), 1), np.int64)


def walk_room(rows: int, cols: int, per_cell: int) -> int:
    """A walker's first buffer length: ``per_cell`` moves per cell, plus a
    straight run and the walk to the goal on sight (each at most ``2 * (rows +
    cols)`` moves), at most 2**26 (a longer walk runs again: :func:`until_room`).

    The wall follower enters each (cell, heading) state once (4 per cell),
    Tremaux walks each passage at most twice (4), the depth-first walker
    each cell at most twice (2); Pledge's walk has no such bound (4 is a
    guess). Only pages the walk writes are touched.
    """
    return min(per_cell * rows * cols + 4 * (rows + cols) + 8, 1 << 26)


def until_room(run, size: int):
    """``run(size)``, again with twice the size while it returns :data:`ROOM`.

    ``run(size)`` calls a walker kernel on fresh scratch and a buffer of
    ``size`` (the walk is deterministic, so a run again repeats it): the
    kernels do not grow their buffers, which kept a ``np.empty`` and a call
    returning a tuple at every move they store (issue 40, round 9: ~0.1 s of
    each walker's cold compile).
    """
    while True:
        out = run(size)
        if out[2] != ROOM:
            return out
        size *= 2


#: Walker rules of :func:`walker`.
WALL = 0
PLEDGE = 1
TREMAUX = 2
DFS = 3
MOUSE = 4
#: Not walkers: the sight array's rays (:func:`sight_rays`) and the cells a
#: walk knows (:func:`known_cells`), in the same kernel (one compile fewer
#: each; dead-end filling, larger, compiled 0.3-0.6 s more inside it than apart).
SIGHT = 5
KNOWN = 6


@noalloc(no_cfunc_wrapper=True, error_model="numpy")   # see the note on error_model
def walker(rule, free, rows, cols, p, h, aux, vis, hand, s0, s1, s2, s3, walk, buf, perms, u):
    """Every classic walker in one kernel: ``rule`` (:data:`WALL`,
    :data:`PLEDGE`, :data:`TREMAUX`, :data:`DFS`, :data:`MOUSE`) picks the
    move; the sight check, the step and the walk's store are shared. One
    compile instead of five, each of which paid the wrappers, the sight
    walk's and the step's call sites and a tuple return per exit.

    Returns ``(n, status, depth, p, h)``; the functions named after each
    rule (:func:`wall_follow` ...) document its arguments and results.
    ``s0`` ... ``s3``: uint8 scratch, one per cell (zeroed); ``buf``: Pledge's
    moves, Tremaux's thread (as long as ``walk``).
    """
    n = np.int64(0)
    depth = np.int64(0)
    if rule == SIGHT:           # p: the goal
        gr = p // cols
        gc = p - gr * cols
        for d in range(8):
            dr = DR[d]
            dc = DC[d]
            back = ((d + 2) & 3) | (d & 4)
            r = gr
            c = gc
            while True:
                nr = r + dr
                nc = c + dc
                if nr < 0 or nr >= rows or nc < 0 or nc >= cols or not free[nr * cols + nc]:
                    break
                # A diagonal step is walked as two axis moves: both corners must be free.
                if d >= 4 and not (free[nr * cols + c] and free[r * cols + nc]):
                    break
                r = nr
                c = nc
                vis[r * cols + c] = back
        return n, OK, depth, p, h
    if rule == KNOWN:           # s0: known
        for j in range(walk.shape[0]):
            v = walk[j]
            r = v // cols
            c = v - r * cols
            if s0[v] != 2:
                s0[v] = 2
                n += 1
            for d in range(8):
                nr = r + DR[d]
                nc = c + DC[d]
                if 0 <= nr < rows and 0 <= nc < cols and free[nr * cols + nc]:
                    q = nr * cols + nc
                    if s0[q] == 0:
                        s0[q] = 1
        return n, OK, depth, p, h
    start = p
    if rule != MOUSE:
        walk[0] = p         # buffers are at least 1 long
        n = np.int64(1)
    if rule == PLEDGE:
        buf[0] = aux
        h = aux
    elif rule == TREMAUX:
        buf[0] = p
        depth = np.int64(1)
        s1[p] = 1
        h = 0
    elif rule == DFS:
        s0[p] = 1
    # the wall follower's run to a wall, Pledge's straight mode: move ``aux``
    straight = rule == PLEDGE or (rule == WALL and h < 0)
    start_state = p * 4 + h
    if rule == WALL and h >= 0:
        s0[p] |= 1 << h
    check = False
    count = 0
    seg = np.int64(0)
    bounce = False
    i = 0
    status = OK
    while True:
        if vis[p] >= 0:
            n0 = n
            n = _walk_sight(walk, n, cols, p, vis)
            if n < 0:
                status = ROOM
            elif rule == TREMAUX:
                for j in range(n0, n):
                    if depth == buf.shape[0]:
                        status = ROOM
                        break
                    buf[depth] = walk[j]
                    depth += 1
            break
        if check:           # the wall follower, after a move along the wall
            bit = 1 << h
            if s0[p] & bit:
                status = BACK_AT_START if p * 4 + h == start_state else LOOPING
                break
            s0[p] |= bit
        # the open directions from p, once per move (bit d: neighbour d is
        # free): one bounds test each, no step call per try
        r = p // cols
        c = p - r * cols
        nb = 0
        if r > 0 and free[p - cols]:
            nb |= 1
        if c < cols - 1 and free[p + 1]:
            nb |= 2
        if r < rows - 1 and free[p + cols]:
            nb |= 4
        if c > 0 and free[p - 1]:
            nb |= 8
        # each rule picks the direction d of its move; the move itself (q, one
        # step from p) is written once below, not once per rule
        d = -1
        if rule <= PLEDGE:
            if straight:
                if rule == PLEDGE:
                    if s0[p]:
                        status = LOOPING
                        break
                    s0[p] = 1
                if (nb >> aux) & 1:
                    d = aux
                else:
                    straight = False
                    h = (aux - hand) & 3
                    if rule == PLEDGE:
                        count = -hand
                        seg = n
                    else:
                        start_state = p * 4 + h
                        s0[p] |= 1 << h
            if d < 0:
                k = 0
                for k in range(4):
                    dd = (h + hand * _PLEDGE_TURN[k]) & 3
                    if (nb >> dd) & 1:
                        d = dd
                        break
                if d < 0:
                    status = STUCK
                    break
                count += hand * _PLEDGE_TURN[k]
                h = d
                check = rule == WALL
        elif rule == TREMAUX:
            if bounce:
                d = (h + 2) & 3
            else:
                # an unmarked passage in hand order, else a once-marked one
                # in the order N, E, S, W: one loop over the 8 candidates
                for k in range(8):
                    dd = (h + hand * _PLEDGE_TURN[k]) & 3 if k < 4 else k - 4
                    if (nb >> dd) & 1 and (s0[p] >> (2 * dd)) & 3 == k >> 2:
                        d = dd
                        break
                if d < 0:
                    status = EXHAUSTED
                    break
        elif rule == DFS:
            while s1[p] < 4:
                dd = perms[4 * s3[p] + s1[p]]
                s1[p] += 1
                if (nb >> dd) & 1:
                    q = p + DR[dd] * cols + DC[dd]
                    if not s0[q]:
                        s0[q] = 1
                        s2[q] = (dd + 2) & 3
                        d = dd
                        break
            if d < 0:
                if p == start:
                    status = EXHAUSTED
                    break
                d = np.int64(s2[p])
        else:
            if i == u.shape[0]:
                status = STEP_LIMIT
                break
            # the open directions but straight back, as a mask: its count and
            # its j-th direction (ascending) are table look-ups
            mask = nb if h < 0 else nb & ~(1 << ((h + 2) & 3))
            m = _BITS[mask]
            if m == 0:
                if mask == nb:
                    status = STUCK
                    break
                d = (h + 2) & 3
            else:
                j = np.int64(u[i] * m)
                d = _NTH_BIT[4 * mask + (j if j < m - 1 else m - 1)]
            h = d
            i += 1
        q = p + DR[d] * cols + DC[d]
        if rule == TREMAUX:
            m = ((s0[p] >> (2 * d)) & 3) + 1
            # a passage's two marks are equal and at most 2: a mark + 1 does
            # not carry into the next direction's bits
            s0[p] += 1 << (2 * d)
            s0[q] += 1 << (2 * ((d + 2) & 3))
            if m == 1 and s1[q] == 0:
                if depth == buf.shape[0]:
                    status = ROOM
                    break
                buf[depth] = q                          # a new cell: unroll the thread
                depth += 1
            elif m == 2 and not bounce:
                depth -= 1                              # retreat: roll it back up
            bounce = s1[q] == 1 and m == 1
            s1[q] = 1
            h = d
        p = q
        if n == walk.shape[0]:
            status = ROOM
            break
        walk[n] = p
        n += 1
        if rule == PLEDGE:
            buf[n - 1] = 4 * count + h
            if straight:
                continue
            if count == 0:
                straight = True
                for j in range(seg, n):
                    s1[walk[j]] = 0
                continue
            bit = 1 << h
            if s1[p] & bit:
                j = n - 2
                while not (walk[j] == p and buf[j] & 3 == h):
                    j -= 1
                delta = count - (buf[j] >> 2)
                if delta == 0 or delta * count > 0:
                    status = LOOPING
                    break
                for j in range(seg, n):
                    s1[walk[j]] = 0
                seg = n - 1
            s1[p] |= bit
    return n, status, depth, p, h


_NO_U8 = np.zeros(1, np.uint8)
_NO_U = np.zeros(0, np.float64)
_NO_PERMS = np.zeros(4, np.int64)
_NO_BUF = np.zeros(1, np.int64)


def wall_follow(free, rows, cols, start, vis, hand, h0, run_dir, marks, walk):
    """Hand-on-the-wall walk: try hand side, straight, other side, back.

    If ``h0 >= 0`` the walker starts following at once with heading ``h0``
    (the caller chose it so the wall is on the hand side); otherwise it first
    runs straight in ``run_dir`` to the first wall and turns away from it.
    ``marks``: zeroed uint8, one per cell; ``walk``: a :func:`buffer`.
    Returns ``(walk, n, status)``.
    """
    n, status, _, _, _ = walker(WALL, free, rows, cols, start, h0, run_dir, vis, hand, marks,
                                _NO_U8, _NO_U8, _NO_U8, walk, _NO_BUF, _NO_PERMS, _NO_U)
    return walk, n, status


def pledge_walk(free, rows, cols, start, vis, hand, main, straight_seen, follow_marks, walk,
                moves):
    """The Pledge algorithm: go ``main`` until blocked, follow the wall
    counting turns, leave it when the count is back to zero.

    Deterministic, so it fails when a state (position, heading, count, mode)
    provably repeats forever: a straight-mode state seen twice, or a full lap
    of wall following whose turn count drifts away from zero (the outer
    boundary of a region with no exit to be found). A lap whose count drifts
    towards zero is continued, as the walker will leave it on a later lap.
    (While following, the count keeps the sign of the first turn away from
    the wall: turns towards the hand move it by one towards zero, where the
    walker leaves, and U-turns move it away.)
    ``moves[i]`` is ``4 * count + heading`` after move ``i`` (one buffer for
    both, parallel to the walk: a buffer as long as ``walk``);
    ``straight_seen`` and ``follow_marks``: zeroed uint8, one per cell.
    Returns ``(walk, n, status)``.
    """
    n, status, _, _, _ = walker(PLEDGE, free, rows, cols, start, 0, main, vis, hand,
                                straight_seen, follow_marks, _NO_U8, _NO_U8, walk, moves,
                                _NO_PERMS, _NO_U)
    return walk, n, status


def tremaux_walk(free, rows, cols, start, vis, hand, marks, visited, walk, thread):
    """Trémaux's rule with marks on the passages between neighbouring cells.

    A passage is marked each time it is walked (at most twice). Arriving at
    a visited cell through a fresh passage, turn back; otherwise take an
    unmarked passage (hand side first), else the once-marked one back along
    the thread. Back at the start with nothing left: the goal is not
    reachable. ``marks`` (2 bits per direction) and ``visited``: zeroed
    uint8, one per cell; ``walk`` and ``thread``: buffers. Returns ``(walk, n, status,
    thread, depth)``; the thread (the cells joined by passages marked once,
    start first) ends with the walk to the goal on sight, which may cross it.
    """
    n, status, depth, _, _ = walker(TREMAUX, free, rows, cols, start, 0, 0, vis, hand, marks,
                                    visited, _NO_U8, _NO_U8, walk, thread, _NO_PERMS, _NO_U)
    return walk, n, status, thread, depth


def dfs_walk(free, rows, cols, start, vis, perm_ids, perms, visited, cursor, parent, walk):
    """Depth-first exploration with backtracking; cell ``p`` tries its
    neighbours in the order ``perms[perm_ids[p]]``. ``visited``, ``cursor``,
    ``parent``: zeroed uint8, one per cell; ``perm_ids``: uint8. Returns
    ``(walk, n, status)``."""
    # the orders flat (row i at 4 * i): a 1-D argument, a 1-D look-up
    n, status, _, _, _ = walker(DFS, free, rows, cols, start, 0, 0, vis, 1, visited, cursor,
                                parent, perm_ids, walk, _NO_BUF, perms.reshape(-1), _NO_U)
    return walk, n, status


def mouse_walk(free, rows, cols, p, h, vis, u, walk):
    """Random mouse for ``len(u)`` moves from ``p`` facing ``h`` (-1: none).

    Picks uniformly (one number of ``u`` per move) among the open directions
    except straight back, turning back only at a dead end. Returns
    ``(walk, n, status, p, h)``; the walk excludes ``p`` itself and status is
    STEP_LIMIT when the numbers ran out first.
    """
    n, status, _, p, h = walker(MOUSE, free, rows, cols, p, h, 0, vis, 1, _NO_U8, _NO_U8,
                                _NO_U8, _NO_U8, walk, _NO_BUF, _NO_PERMS, u)
    return walk, n, status, p, h


_NO_VIS = np.zeros(1, np.int8)


def sight_rays(free, rows, cols, goal, vis):
    """Mark in ``vis`` the cells that see the goal along one of the 8 compass
    rays (see module doc); ``vis``: int8, -1 everywhere but 8 on the goal (the
    caller fills it: ``np.full`` in a kernel compiled an implementation of its own)."""
    walker(SIGHT, free, rows, cols, goal, 0, 0, vis, 1, _NO_U8, _NO_U8, _NO_U8, _NO_U8,
           _NO_BUF, _NO_BUF, _NO_PERMS, _NO_U)


def known_cells(free, rows, cols, walk, known):
    """Mark in ``known`` (zeroed uint8, one per cell) the free cells a walk
    stepped on (2) or touched (1: its cells' free 8-neighbours); returns the
    number of distinct cells stepped on (:func:`count_distinct`'s, one
    kernel fewer to compile for the default route)."""
    return walker(KNOWN, free, rows, cols, 0, 0, 0, _NO_VIS, 1, known, _NO_U8, _NO_U8, _NO_U8,
                  walk, _NO_BUF, _NO_PERMS, _NO_U)[0]


@noalloc(no_cfunc_wrapper=True, error_model="numpy")   # see the note on error_model
def fill_dead_ends(free, rows, cols, a, b, removable, inq, queue):
    """Fill (in place) every free cell that is a dead end in the topological
    sense, except the anchors ``a`` and ``b``, until none is left.

    ``removable[config]`` says whether a cell whose 8 neighbours are free per
    the bits of ``config`` (N, NE, E, SE, S, SW, W, NW) may be filled. Cells
    are processed first in, first out, so wide regions are peeled layer by
    layer. ``inq``: zeroed uint8, ``queue``: int64, one per cell (the
    caller's: ``np.zeros`` and ``np.empty`` here compiled numba's
    implementations for this kernel). Returns the number of cells filled.
    """
    ncells = rows * cols
    head = 0
    size = 0
    for p in range(ncells):
        if not free[p] or p == a or p == b:
            continue
        r = p // cols
        c = p - r * cols
        border = False
        for d in range(8):
            rr = r + DR[d]
            cc = c + DC[d]
            if rr < 0 or rr >= rows or cc < 0 or cc >= cols or not free[rr * cols + cc]:
                border = True
                break
        if border:
            queue[size] = p     # head is 0 and size < ncells here
            size += 1
            inq[p] = 1
    filled = 0
    while size > 0:
        p = queue[head]
        # the ring's indices wrap by a test, not a modulo (no division)
        head += 1
        if head == ncells:
            head = 0
        size -= 1
        inq[p] = 0
        if not free[p] or p == a or p == b:
            continue
        r = p // cols
        c = p - r * cols
        config = 0
        for i in range(8):
            d = _RING[i]
            rr = r + DR[d]
            cc = c + DC[d]
            if 0 <= rr < rows and 0 <= cc < cols and free[rr * cols + cc]:
                config |= 1 << i
        if not removable[config]:
            continue
        free[p] = 0
        filled += 1
        for i in range(8):
            d = _RING[i]
            rr = r + DR[d]
            cc = c + DC[d]
            if 0 <= rr < rows and 0 <= cc < cols:
                q = rr * cols + cc
                if free[q] and not inq[q]:
                    t = head + size
                    queue[t - ncells if t >= ncells else t] = q
                    size += 1
                    inq[q] = 1
    return filled
