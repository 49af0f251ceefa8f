"""The core's expansion loops: best-first search and the FIFO wave (padded grids).

See :mod:`robomaze._search` for the rules, costs and heuristics.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from numba import njit

from .._compile.kernels import NO_CFUNC, noalloc
from ._heap import heap_grow, heap_push, heap_push_py

SQRT2 = math.sqrt(2.0)

# move k: N, E, S, W, NE, SE, SW, NW
_DR = np.array([-1, 0, 1, 0, -1, 1, 1, -1], np.int64)
_DC = np.array([0, 1, 0, -1, 1, 1, -1, -1], np.int64)


# ---------------------------------------------------------------- padding
@njit(cache=True, inline="always")
def _to_pad(i, cols):
    r = i // cols
    return (r + 1) * (cols + 2) + (i - r * cols) + 1


@njit(cache=True, inline="always")
def _from_pad(p, cols):
    pc = cols + 2
    r = p // pc
    return (r - 1) * cols + (p - r * pc) - 1


@functools.lru_cache(maxsize=64)
def offsets(cols: int) -> np.ndarray:
    """Flat padded offsets of the 8 moves (N, E, S, W, NE, SE, SW, NW): int64, read-only.

    Made here and passed to the search kernels: as a kernel they each
    called, it was one more compile of a first run (~0.1 s of CPU, its
    wrappers and ``np.empty``'s call) for eight numbers (issue 40, round 11).
    Kept per column count, so a small search pays a dictionary look-up.

    >>> offsets(3).tolist()
    [-5, 1, 5, -1, -4, 6, 4, -6]
    """
    off = _DR * (int(cols) + 2) + _DC
    off.flags.writeable = False
    return off


# ---------------------------------------------------------------- best-first
@njit(cache=True, inline="always")
def _hval(hmode, dr, dc):
    dr = abs(dr)
    dc = abs(dc)
    if hmode == 1:
        return float(dr + dc)
    if hmode == 2:
        if dr < dc:
            return (dc - dr) + SQRT2 * dr
        return (dr - dc) + SQRT2 * dc
    if hmode == 3:
        return math.sqrt(dr * dr + dc * dc)
    return 0.0


def _hval_py(hmode: int, dr: int, dc: int) -> float:
    """:func:`_hval` in Python (the same float operations, so the same keys)."""
    dr = abs(dr)
    dc = abs(dc)
    if hmode == 1:
        return float(dr + dc)
    if hmode == 2:
        if dr < dc:
            return (dc - dr) + SQRT2 * dr
        return (dr - dc) + SQRT2 * dc
    if hmode == 3:
        return math.sqrt(dr * dr + dc * dc)
    return 0.0


@njit(cache=True, inline="always")
def line_of_sight(free, pc, a, b):
    """Whether the straight segment between two padded cell centres is safe.

    Every point of the segment must lie in a unit square whose four corner
    cells (cell centres) are all free. For a disc of radius r whose free
    cells have clearance > r, the disc swept along such a segment keeps a
    clearance > r (the distance to any obstacle square from a point of that
    square is at least the distance from one of its corners). Exact integer
    arithmetic, so no rounding can make the test optimistic. The blocked
    padding border stands for the outside of the grid.

    Written out in :func:`_expand`, whose one specialisation runs it behind a
    run-time flag: as a call, its clobbered registers cost Theta* a few
    percent (issue 40, round 9); inlined, numba typed it again at the site
    (issue 40, round 12).
    """
    r0 = a // pc
    c0 = a - r0 * pc
    r1 = b // pc
    c1 = b - r1 * pc
    if c0 == c1:
        # selects, not min/max: numba compiles those overloads apart (kernel style 2)
        lo = r0 if r0 < r1 else r1
        hi = r1 if r0 < r1 else r0
        for r in range(lo, hi + 1):
            if not free[r * pc + c0]:
                return False
        return True
    if c0 > c1:
        r0, c0, r1, c1 = r1, c1, r0, c0
    dx = c1 - c0
    dy = r1 - r0
    for i in range(c0, c1):
        na = dy * (i - c0)
        nb = dy * (i + 1 - c0)
        fa = r0 + na // dx
        fb = r0 + nb // dx
        ca = r0 - ((-na) // dx)
        cb = r0 - ((-nb) // dx)
        lo = fa if fa < fb else fb
        hi = ca if ca > cb else cb
        for r in range(lo, hi + 1):
            if not free[r * pc + i] or not free[r * pc + i + 1]:
                return False
    return True


def best_first(free, cols, conn8, cost, hmode, heading, nbins, rot_cost, sight_free,
               starts, goal, goal_bin, g, parent, mark, heap, landmarks=None):
    """The expansion loop shared by every weighted grid search.

    ``cost``, ``parent`` and ``sight_free`` are always arrays, empty when
    absent, so the distance fields, the unit and weighted searches and
    Theta* share one specialisation of :func:`_expand` (each is about a
    second of compile on a first run; the flags they become are
    loop-invariant, well-predicted branches: line of sight as a run-time
    flag, issue 40 round 9, ``benchmarks/bench_engine.py``).
    ``heading`` and ``landmarks`` are ``None`` or an array: numba compiles
    one specialisation per combination and prunes the branches of the
    absent ones (the HEADING rule's masks and parents have other dtypes
    anyway).

    Parameters (padded space; see the module docstring for the rules)
    ----------
    free : uint8 padded free mask; for HEADING uint16 words, ``ceil(nbins /
        16)`` per cell, bit ``b % 16`` of word ``b // 16`` set where bin
        ``b`` is free (states are ``cell * nbins + bin``)
    cols : the unpadded column count
    conn8 : bool
    cost : float64 padded per-cell cost, or empty (unit lengths)
    hmode : heuristic 0-3 (towards ``goal``'s cell)
    heading : None, or any array (its contents are not read): the HEADING
        rule, with ``nbins`` bins and rotations costing ``rot_cost``. A
        translation needs only its target (and, diagonally, the two cells
        beside it) free in the bin: a region moving one cell along an axis
        sweeps exactly the cells it covers at the two ends, diagonally no
        cell outside those and the two side cells' kernels (see
        :func:`robomaze.geometry.motion_cspace`)
    sight_free : empty, or the mask for line of sight (uint8, as ``free``):
        the ANYANGLE rule (needs ``parent``)
    starts : start states (cost 0)
    goal : goal cell (padded) or -1 to settle everything reachable
    goal_bin : required bin at the goal (HEADING), -1 any
    g : float64 per state, uninitialised: valid where ``mark`` > 0
    parent : empty (not recorded) or int32/int64 per state (written on
        every improvement); for the HEADING rule uint8, the move that
        reached the state (``k`` < 8 a translation along ``_DR/_DC[k]``,
        ``nk`` / ``nk + 1`` a rotation to the next / previous bin, 255 a
        start): one byte instead of eight per state of a state space
        ``nbins`` times the grid
    mark : uint8 per state, zeros: 1 once reached, 2 once settled (zero
        pages cost nothing until touched, so a search of a few states in a
        huge state space allocates cheaply)
    heap : ``(keys, g, nodes)`` arrays
    landmarks : None, or float64 ``(Np, K)`` exact distances from K landmark
        cells: the heuristic of a state on cell ``v`` becomes ``max(h, max_k
        |d_k(goal) - d_k(v)|)`` (ALT, Goldberg & Harrelson 2005), still
        consistent when the distances are those of a graph containing every
        move of the search (with the goal as its one landmark: the exact
        distance to the goal of a relaxed problem)

    Returns
    -------
    (reached, expanded, heap)
        ``reached`` is the settled goal state or -1; ``heap`` the arrays,
        grown if the search needed more room.

    A Python loop around :func:`_expand`, which hands back only to grow the
    heap (rarely): as a kernel this loop compiled the whole engine again,
    linked into it (0.4-0.9 s of every cold start that searches).
    """
    hk, hg, hn = heap
    starts = np.asarray(starts, np.int64)
    while hk.shape[0] < starts.shape[0] + 10:     # the starts go in before the first full test
        hk, hg, hn = heap_grow(hk, hg, hn)
    # the starts go in from here (a kernel of their own for many): pushed by
    # the search kernel, their loop was ~0.3 s of each of its specialisations'
    # compile (a first run compiles one or two)
    root = 255 if heading is not None else -1
    if starts.shape[0] <= _FEW_STARTS:
        size = _push_starts_py(starts, cols + 2, nbins, hmode, goal, root, g, parent, mark,
                               hk, hg, hn)
    else:
        size = _push_starts(starts, cols + 2, nbins, hmode, goal, root, g, parent, mark,
                            hk, hg, hn)
    expanded = 0
    off = offsets(cols)
    while True:
        reached, size, expanded = _expand(free, cols, off, conn8, cost, hmode, heading, nbins,
                                          rot_cost, sight_free, goal, goal_bin, g,
                                          parent, mark, hk, hg, hn, size, expanded, landmarks)
        if reached != -2:
            return reached, expanded, (hk, hg, hn)
        hk, hg, hn = heap_grow(hk, hg, hn)


#: Up to this many start states are pushed from Python (a few microseconds).
_FEW_STARTS = 64


def _push_starts_py(starts, pc, nbins, hmode, goal, root, g, parent, mark, hk, hg, hn) -> int:
    """Mark the start states reached at cost 0 and push them: the heap's size.

    ``root``: the parent a start records (-1, or the HEADING rule's 255).
    """
    goal, pc, nbins = int(goal), int(pc), int(nbins)      # Python ints: cheaper arithmetic
    gr, gc = divmod(goal, pc) if goal >= 0 else (0, 0)
    has_parent = parent.shape[0] > 0
    starts = starts.tolist()
    if len(starts) == 1:                  # the usual search: the heap's root, no sift
        s = starts[0]
        cell = s // nbins
        r, c = divmod(cell, pc)
        mark[s] = 1
        g[s] = 0.0
        if has_parent:
            parent[s] = root
        hk[0] = _hval_py(hmode, r - gr, c - gc) if goal >= 0 else 0.0
        hg[0] = 0.0
        hn[0] = s
        return 1
    size = 0
    for s in starts:
        cell = s // nbins
        r = cell // pc
        mark[s] = 1
        g[s] = 0.0
        if has_parent:
            parent[s] = root
        h0 = _hval_py(hmode, r - gr, cell - r * pc - gc) if goal >= 0 else 0.0
        size = heap_push_py(hk, hg, hn, size, h0, 0.0, s)
    return size


@njit(cache=True)
def _push_starts(starts, pc, nbins, hmode, goal, root, g, parent, mark, hk, hg, hn):
    """:func:`_push_starts_py` as a kernel, for many starts."""
    gr = gc = 0
    if goal >= 0:
        gr = goal // pc
        gc = goal - gr * pc
    size = 0
    for s in starts:
        cell = s // nbins
        r = cell // pc
        mark[s] = 1
        g[s] = 0.0
        if parent.shape[0] > 0:
            parent[s] = root
        h0 = _hval(hmode, r - gr, cell - r * pc - gc) if goal >= 0 else 0.0
        size = heap_push(hk, hg, hn, size, h0, 0.0, s)
    return size


@noalloc   # allocates nothing (kernel style 3)
def _expand(free, cols, off, conn8, cost, hmode, heading, nbins, rot_cost, sight_free, goal,
            goal_bin, g, parent, mark, hk, hg, hn, size, expanded, landmarks):
    """Expands until the goal (returns it), exhaustion (-1) or a full heap (-2):
    :func:`best_first`'s loop (the starts pushed already); ``off``: :func:`offsets`.

    The heap's pop and push (:mod:`._heap`), :func:`_hval` and
    :func:`line_of_sight` are written out here, not inlined: numba types an
    inlined helper again at each site (0.3 s of this kernel's compile for the
    heap's two, issue 40 round 12). No reference counting: it allocates
    nothing."""
    pc = cols + 2
    cap = hk.shape[0]
    gr = gc = 0
    if goal >= 0:
        gr = goal // pc
        gc = goal - gr * pc
    nk = 8 if conn8 else 4
    nmoves = nk
    nw = (nbins + 15) >> 4                 # HEADING: uint16 bin words per cell
    one = np.uint16(1)
    one64 = np.uint64(1)
    bw = 0
    bb = np.uint16(0)
    if heading is not None:
        nmoves = nk + 2
    has_cost = cost.shape[0] > 0
    has_parent = parent.shape[0] > 0
    has_sight = sight_free.shape[0] > 0
    while size > 0:
        if size + nmoves > cap:
            return -2, size, expanded
        # heap_pop written out (an inlined helper is typed again per site: issue 40, round 12):
        # the top, then the last entry sifted down from the root
        size -= 1
        s, gv = hn[0], hg[0]
        lk, lg, ln = hk[size], hg[size], hn[size]
        usize = np.uint64(size)
        u = np.uint64(0)
        while True:
            ch = u + u + one64
            if ch >= usize:
                break
            c2 = ch + one64
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
        us = np.uint64(s)
        if mark[us] == 2 or gv > g[us]:
            continue
        mark[us] = 2
        expanded += 1
        b = 0
        cell = s
        if heading is not None:
            cell = s // nbins
            b = s - cell * nbins
            bw = b >> 4
            bb = np.uint16(b & 15)
        if cell == goal and (goal_bin < 0 or b == goal_bin):
            return s, size, expanded
        r = cell // pc
        c = cell - r * pc
        p = -1
        if has_sight:
            p = parent[s]
        for k in range(nmoves):
            if k < nk:
                t = cell + off[k]
                if heading is not None:
                    if not (free[t * nw + bw] >> bb) & one:
                        continue
                    if k >= 4 and not ((free[(cell + _DC[k]) * nw + bw] >> bb) & one
                                       and (free[(t - _DC[k]) * nw + bw] >> bb) & one):
                        continue
                else:
                    # the side cells first: on narrow corridors they rule out
                    # most diagonals before the diagonal cell is read
                    if k >= 4 and not (free[np.uint64(cell + _DC[k])]
                                       and free[np.uint64(t - _DC[k])]):
                        continue
                    if not free[np.uint64(t)]:
                        continue
                nr = r + _DR[k]
                ncc = c + _DC[k]
                ns = t
                if heading is not None:
                    ns = t * nbins + b
                ncell = t
                step = 1.0 if k < 4 else SQRT2
            else:
                if heading is None:
                    # never taken (nmoves == nk); pruned with the rotations
                    # below, which the other rules' specialisation compiled
                    # for nothing
                    continue
                if nbins == 1 or (nbins == 2 and k == nk + 1):
                    continue
                b2 = (b + (1 if k == nk else nbins - 1)) % nbins
                ns = cell * nbins + b2
                if not (free[cell * nw + (b2 >> 4)] >> np.uint16(b2 & 15)) & one:
                    continue
                ncell = cell
                step = rot_cost
                nr = r
                ncc = c
            uns = np.uint64(ns)
            if mark[uns] == 2:
                continue
            src_state = s
            if has_sight:
                # line_of_sight written out (an inlined helper is typed again at
                # its site: issue 40 round 12); the same integer tests
                vis = p >= 0
                if vis:
                    r0 = p // pc
                    c0 = p - r0 * pc
                    r1 = ns // pc
                    c1 = ns - r1 * pc
                    if c0 == c1:
                        lo = r0 if r0 < r1 else r1
                        hi = r1 if r0 < r1 else r0
                        for rr in range(lo, hi + 1):
                            if not sight_free[rr * pc + c0]:
                                vis = False
                                break
                    else:
                        if c0 > c1:
                            r0, c0, r1, c1 = r1, c1, r0, c0
                        dx = c1 - c0
                        dy = r1 - r0
                        for ci in range(c0, c1):
                            na = dy * (ci - c0)
                            nb = dy * (ci + 1 - c0)
                            fa = r0 + na // dx
                            fb = r0 + nb // dx
                            ca = r0 - ((-na) // dx)
                            cb = r0 - ((-nb) // dx)
                            lo = fa if fa < fb else fb
                            hi = ca if ca > cb else cb
                            for rr in range(lo, hi + 1):
                                if not sight_free[rr * pc + ci] or not sight_free[rr * pc + ci + 1]:
                                    vis = False
                                    break
                            if not vis:
                                break
                if vis:
                    pr = p // pc
                    dr = pr - nr
                    dc = p - pr * pc - ncc
                    # products, not ** 2: the same integers without numba's int_power
                    ng = g[p] + math.sqrt(dr * dr + dc * dc)
                    src_state = p
                else:
                    ng = gv + step
            else:
                if has_cost:
                    step = step * 0.5 * (cost[cell] + cost[ncell])
                ng = gv + step
            if mark[uns] == 0 or ng < g[uns]:
                mark[uns] = 1
                g[uns] = ng
                if has_parent:
                    if heading is not None:
                        parent[uns] = k
                    else:
                        parent[uns] = src_state
                # _hval written out, as heap_pop above: the same float operations
                hv = 0.0
                if goal >= 0 and hmode != 0:
                    adr = abs(nr - gr)
                    adc = abs(ncc - gc)
                    if hmode == 1:
                        hv = float(adr + adc)
                    elif hmode == 2:
                        if adr < adc:
                            hv = (adc - adr) + SQRT2 * adr
                        else:
                            hv = (adr - adc) + SQRT2 * adc
                    elif hmode == 3:
                        hv = math.sqrt(adr * adr + adc * adc)
                if landmarks is not None:
                    # ALT; landmarks that do not reach both cells say nothing
                    # (inf - inf). Written out, not an inlined helper: numba
                    # inlines (runs the helper's untyped passes) before it prunes
                    # the branch of absent landmarks
                    for lk in range(landmarks.shape[1]):
                        la = landmarks[goal, lk]
                        lb = landmarks[ncell, lk]
                        if la < np.inf and lb < np.inf:
                            ld = abs(la - lb)
                            if ld > hv:
                                hv = ld
                # heap_push written out, as heap_pop above: the hole sifted up
                key = ng + hv
                u = np.uint64(size)
                while u > 0:
                    up = (u - one64) >> one64
                    if hk[up] < key or (hk[up] == key and hg[up] >= ng):
                        break
                    hk[u] = hk[up]
                    hg[u] = hg[up]
                    hn[u] = hn[up]
                    u = up
                hk[u] = key
                hg[u] = ng
                hn[u] = ns
                size += 1
    return -1, size, expanded


# ---------------------------------------------------------------- FIFO wave
WAVE_GRID, WAVE_EDGES = 0, 1


@njit(cache=True)
def wave(rule, free, know, cols, conn8, sources, goal, unknown_open, dist, queue, parent):
    """Breadth-first wave: step counts from ``sources`` (unit moves).

    ``rule`` WAVE_GRID: the GRID moves (4 or 8, no corner cutting) over a
    padded int32 ``dist`` pre-filled by the caller with -2 on free cells and
    -1 on blocked ones and the border (so one load tells "free and
    unlabelled", and blocked cells already read -1 as a field's callers
    want); ``free`` is not read. Free cells left unreached stay -2.
    ``rule`` WAVE_EDGES: unpadded cells whose sides N, E, S, W are described
    by ``know`` (``(n, 4)`` int8: 0 unknown, 1 open, 2 wall; a wall on the
    grid's outline is the caller's business only through ``know``; moves
    off the grid are refused); ``dist`` pre-filled with -1.
    The wave stops once ``goal`` (>= 0) is labelled and expanded; ``parent``
    (if non-empty) gets the cell each one was reached from. Returns the
    number of cells expanded.
    """
    unseen = -2 if rule == WAVE_GRID else -1
    tail = 0
    for s in sources:
        if dist[s] == unseen:
            dist[s] = 0
            queue[tail] = s
            tail += 1
            if parent.shape[0] > 0:
                parent[s] = s
    head = 0
    want_parent = parent.shape[0] > 0
    if rule == WAVE_GRID:
        pc = cols + 2
        while head < tail:
            cur = queue[head]
            head += 1
            if cur == goal:
                break
            d = dist[cur] + 1
            for k in range(4):
                nb = cur + (-pc if k == 0 else (1 if k == 1 else (pc if k == 2 else -1)))
                if dist[nb] == -2:
                    dist[nb] = d
                    queue[tail] = nb
                    tail += 1
                    if want_parent:
                        parent[nb] = cur
            if conn8:
                for k in range(4, 8):
                    dr = _DR[k]
                    dc = _DC[k]
                    nb = cur + dr * pc + dc
                    if dist[nb] == -2 and dist[cur + dr * pc] != -1 and dist[cur + dc] != -1:
                        dist[nb] = d
                        queue[tail] = nb
                        tail += 1
                        if want_parent:
                            parent[nb] = cur
    else:
        rows = dist.shape[0] // cols
        while head < tail:
            u = queue[head]
            head += 1
            if u == goal:
                break
            r = u // cols
            c = u - r * cols
            for side in range(4):
                st = know[u, side]
                if st == 2 or (st == 0 and not unknown_open):
                    continue
                if side == 0:
                    if r == 0:
                        continue
                    v = u - cols
                elif side == 1:
                    if c == cols - 1:
                        continue
                    v = u + 1
                elif side == 2:
                    if r == rows - 1:
                        continue
                    v = u + cols
                else:
                    if c == 0:
                        continue
                    v = u - 1
                if dist[v] == -1:
                    dist[v] = dist[u] + 1
                    queue[tail] = v
                    tail += 1
                    if want_parent:
                        parent[v] = u
    return head


# ---------------------------------------------------------------- 4-connected unit A*
@njit(cache=True, **NO_CFUNC)
def _astar4(free, cols, start, goal):
    """A* with unit moves and the Manhattan heuristic on a padded mask.

    With a consistent heuristic every move keeps ``f`` or raises it by 2, so
    two stacks (``f`` and ``f + 2``) are an exact priority queue -- the
    engine's queue for this one case (unit costs, 4 moves); within an ``f``
    level the most recently generated (deepest) node is expanded first.
    Returns ``(cells, expanded)``: the unpadded cells from ``start`` to
    ``goal`` through neighbours one lower in ``g`` (N, E, S, W first),
    empty when unreachable. The path is read in this kernel: one kernel
    (and one call) fewer; its code costs this kernel about what its own
    kernel did (issue 40 round 11).
    """
    pc = cols + 2
    n = free.shape[0]
    # np.full written out (np.full: two overloads more to compile; kernels.filled
    # inlined: its site typed again, ~0.05 s, issue 40 round 12)
    g = np.empty(n, np.int32)
    for i in range(n):
        g[i] = -1
    cap = n // 16
    cap = cap if cap > 1024 else 1024
    cur_s = np.empty(cap, np.int32)
    nxt_s = np.empty(cap, np.int32)
    nnxt = 0
    gr = goal // pc
    gc = goal - gr * pc
    sr = start // pc
    g[start] = 0
    cur_s[0] = start
    ncur = 1
    fcur = abs(sr - gr) + abs(start - sr * pc - gc)
    expanded = 0
    found = False
    while True:
        if ncur == 0:
            if nnxt == 0:
                break
            cur_s, nxt_s = nxt_s, cur_s
            ncur, nnxt = nnxt, 0
            fcur += 2
        ncur -= 1
        node = cur_s[ncur]
        r = node // pc
        c = node - r * pc
        # stale entries without a closed array (np.zeros: two overloads more to
        # compile, issue 40 round 12): every push lowers a node's g, so each of
        # its entries has its own f, and the one entry whose f is the node's
        # f now is popped once; an expanded node's g never drops again
        if g[node] + abs(r - gr) + abs(c - gc) != fcur:
            continue
        expanded += 1
        if node == goal:
            found = True
            break
        ng = g[node] + 1
        for k in range(4):
            if k == 0:
                nb, nr, nc = node - pc, r - 1, c
            elif k == 1:
                nb, nr, nc = node + 1, r, c + 1
            elif k == 2:
                nb, nr, nc = node + pc, r + 1, c
            else:
                nb, nr, nc = node - 1, r, c - 1
            # closed nodes already hold their optimal g (consistent heuristic),
            # so the g test alone rejects them
            if not free[nb]:
                continue
            gn = g[nb]
            if gn < 0 or ng < gn:
                g[nb] = ng
                f = ng + abs(nr - gr) + abs(nc - gc)
                if f == fcur:
                    if ncur == cur_s.shape[0]:
                        grown = np.empty(2 * ncur, np.int32)   # not np.concatenate: its own compile
                        for i in range(ncur):
                            grown[i] = cur_s[i]
                        cur_s = grown
                    cur_s[ncur] = nb
                    ncur += 1
                else:
                    if nnxt == nxt_s.shape[0]:
                        grown = np.empty(2 * nnxt, np.int32)   # not np.concatenate: its own compile
                        for i in range(nnxt):
                            grown[i] = nxt_s[i]
                        nxt_s = grown
                    nxt_s[nnxt] = nb
                    nnxt += 1
    if not found:
        return np.empty(0, np.int64), expanded
    # the path, from the goal down through neighbours one lower
    i = g[goal]
    out = np.empty(i + 1, np.int64)
    cur = goal
    while True:
        r = cur // pc                       # unpadded (_from_pad written out: one site)
        out[i] = (r - 1) * cols + (cur - r * pc) - 1
        if i == 0:
            break
        i -= 1
        for k in range(4):
            nb = cur + (-pc if k == 0 else (1 if k == 1 else (pc if k == 2 else -1)))
            if free[nb] and g[nb] == g[cur] - 1:
                cur = nb
                break
    return out, expanded
