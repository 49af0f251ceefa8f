"""The grid core's search engine: one heap, one best-first loop, one FIFO wave.

Every grid search of robomaze runs here -- Dijkstra, A*, Theta*, the
footprint planner's (cell, heading) search, the MovingAI batch, the agents'
distance fields (:func:`best_first`), and the BFS waves of the wavefront
planner, the classic solvers and the micromouse flood fill (:func:`wave`).
Callers in other packages use the small public functions at the bottom of
this module; the kernels stay private.

Grids are searched **padded**: the free mask gets a one-cell blocked border
(:func:`pad`), so a neighbour is ``node + offset`` with no bounds check and
no row/column division in the hot loop (a sentinel border, the textbook C
trick). Flat indices in padded space are ``(row + 1) * (cols + 2) + col +
1``; the public functions translate at the boundary.

Neighbour rules (``rule``):

* ``GRID``: the 4 orthogonal moves N, E, S, W and, with ``conn8``, the
  diagonals NE, SE, SW, NW, a diagonal only when both orthogonal cells
  beside it are free (no corner cutting, the MovingAI convention). Move
  length 1 or sqrt(2).
* ``HEADING``: states ``bin * Np + cell`` of a heading-binned C-space; the
  GRID moves inside one bin, allowed by that bin's free mask and by the
  sweep mask ``move_free`` of the motion, plus rotations in place to the
  neighbouring bins at cost ``rot_cost``.
* ``ANYANGLE``: GRID moves whose parent may be any earlier cell in line of
  sight (basic Theta*, Nash et al. 2007).

Costs: unit lengths, or with a non-empty ``cost`` array ``length * (cost[u]
+ cost[v]) / 2``. Heuristics (``hmode``): 0 none (Dijkstra), 1 Manhattan,
2 octile, 3 Euclidean.

The heap is one preallocated binary heap of ``(key, g, node)`` in three
arrays, sifted with a hole (no swaps); it is ordered on the key and, among
equal keys, larger ``g`` first (the deeper node). It grows by doubling in the
rare case a search outgrows its first allocation.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

SQRT2 = math.sqrt(2.0)

GRID, HEADING, ANYANGLE = 0, 1, 2

# move k: N, E, S, W, NE, SE, SW, NW
_DR = np.array([-1, 0, 1, 0, -1, 1, 1, -1], np.int64)
_DC = np.array([0, 1, 0, -1, 1, 1, -1, -1], np.int64)


# ---------------------------------------------------------------- padding
@njit(cache=True)
def pad(free, rows, cols, nlayers):
    """``nlayers`` flat masks of ``rows*cols`` cells -> same with a 0 border.

    ``free`` is flat ``uint8`` of ``nlayers * rows * cols``; the result is
    ``nlayers * (rows + 2) * (cols + 2)``.
    """
    pc = cols + 2
    pn = (rows + 2) * pc
    out = np.zeros(nlayers * pn, np.uint8)
    for b in range(nlayers):
        src = b * rows * cols
        dst = b * pn + pc + 1
        for r in range(rows):
            for c in range(cols):
                out[dst + c] = free[src + c]
            src += cols
            dst += pc
    return out


@njit(cache=True, inline="always")
def _to_pad(i, cols):
    r = i // cols
    return (r + 1) * (cols + 2) + (i - r * cols) + 1


@njit(cache=True, inline="always")
def _from_pad(p, cols):
    pc = cols + 2
    r = p // pc
    return (r - 1) * cols + (p - r * pc) - 1


@njit(cache=True)
def offsets(cols):
    """Flat padded offsets of the 8 moves (N, E, S, W, NE, SE, SW, NW)."""
    pc = cols + 2
    off = np.empty(8, np.int64)
    for k in range(8):
        off[k] = _DR[k] * pc + _DC[k]
    return off


# ---------------------------------------------------------------- the heap
@njit(cache=True, inline="always")
def heap_push(hk, hg, hn, size, key, gval, node):
    """Insert ``(key, gval, node)``; the caller guarantees ``size < len(hk)``.

    Smaller key first; on equal keys larger ``g`` first. ``hg`` and ``hn``
    may both be None: a heap of bare keys (numba compiles that case apart).
    """
    i = size
    if hg is None:
        while i > 0:
            p = (i - 1) >> 1
            if hk[p] <= key:
                break
            hk[i] = hk[p]
            i = p
        hk[i] = key
        return size + 1
    while i > 0:
        p = (i - 1) >> 1
        if hk[p] < key or (hk[p] == key and hg[p] >= gval):
            break
        hk[i] = hk[p]
        hg[i] = hg[p]
        hn[i] = hn[p]
        i = p
    hk[i] = key
    hg[i] = gval
    hn[i] = node
    return size + 1


@njit(cache=True, inline="always")
def heap_pop(hk, hg, hn, size):
    """Remove the top; returns ``(node, g, key, new size)`` (node and g 0 for bare keys)."""
    top_k = hk[0]
    size -= 1
    if hg is None:
        key = hk[size]
        i = 0
        while True:
            ch = 2 * i + 1
            if ch >= size:
                break
            if ch + 1 < size and hk[ch + 1] < hk[ch]:
                ch += 1
            if hk[ch] >= key:
                break
            hk[i] = hk[ch]
            i = ch
        if size > 0:
            hk[i] = key
        return 0, 0.0, top_k, size
    top_n, top_g = hn[0], hg[0]
    key, gval, node = hk[size], hg[size], hn[size]
    i = 0
    while True:
        ch = 2 * i + 1
        if ch >= size:
            break
        if ch + 1 < size and (hk[ch + 1] < hk[ch] or (hk[ch + 1] == hk[ch]
                                                       and hg[ch + 1] > hg[ch])):
            ch += 1
        if key < hk[ch] or (key == hk[ch] and gval >= hg[ch]):
            break
        hk[i] = hk[ch]
        hg[i] = hg[ch]
        hn[i] = hn[ch]
        i = ch
    if size > 0:
        hk[i] = key
        hg[i] = gval
        hn[i] = node
    return top_n, top_g, top_k, size


@njit(cache=True)
def heap_grow(hk, hg, hn):
    """The heap's arrays at twice the capacity (rare: searches start big enough)."""
    n = hk.shape[0]
    k2 = np.empty(2 * n, hk.dtype)
    g2 = np.empty(2 * n, hg.dtype)
    n2 = np.empty(2 * n, hn.dtype)
    k2[:n] = hk
    g2[:n] = hg
    n2[:n] = hn
    return k2, g2, n2


def new_heap(capacity: int, key_dtype=np.float64, g_dtype=np.float64, node_dtype=np.int64):
    """Empty heap arrays ``(keys, g, nodes)`` of ``capacity`` entries."""
    cap = max(int(capacity), 16)
    return (np.empty(cap, key_dtype), np.empty(cap, g_dtype), np.empty(cap, node_dtype))


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


@njit(cache=True, inline="always")
def _alt(lm, goal, v, h):
    # landmarks that do not reach both cells say nothing (inf - inf)
    for k in range(lm.shape[1]):
        a = lm[goal, k]
        b = lm[v, k]
        if a < np.inf and b < np.inf:
            d = abs(a - b)
            if d > h:
                h = d
    return h


@njit(cache=True)
def line_of_sight(free, pc, a, b):
    """Whether the straight segment between two padded cell centres is safe.

    Every point of the segment must lie in a unit square whose four corner
    cells (cell centres) are all free. For a disc of radius r whose free
    cells have clearance > r, the disc swept along such a segment keeps a
    clearance > r (the distance to any obstacle square from a point of that
    square is at least the distance from one of its corners). Exact integer
    arithmetic, so no rounding can make the test optimistic. The blocked
    padding border stands for the outside of the grid.
    """
    r0 = a // pc
    c0 = a - r0 * pc
    r1 = b // pc
    c1 = b - r1 * pc
    if c0 == c1:
        lo, hi = min(r0, r1), max(r0, r1)
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
        lo = min(fa, fb)
        hi = max(ca, cb)
        for r in range(lo, hi + 1):
            if not free[r * pc + i] or not free[r * pc + i + 1]:
                return False
    return True


@njit(cache=True)
def best_first(free, cols, conn8, cost, hmode, move_free, nbins, rot_cost, sight_free,
               starts, goal, goal_bin, g, parent, mark, heap, landmarks=None):
    """The expansion loop shared by every weighted grid search.

    The optional arguments are ``None`` or an array: numba compiles one
    specialisation per combination and prunes the branches of the absent
    ones, so the GRID search pays nothing for the HEADING and ANYANGLE rules.

    Parameters (padded space; see the module docstring for the rules)
    ----------
    free : uint8 padded free mask; for HEADING ``nbins`` values per cell
        (state ``cell * nbins + bin``: the bins of a cell share a cache line)
    cols : the unpadded column count
    conn8 : bool
    cost : None (unit lengths) or float64 padded per-cell cost
    hmode : heuristic 0-3 (towards ``goal``'s cell)
    move_free : None, or uint8 ``(motions, nbins, N)`` sweep masks (unpadded
        cells): the HEADING rule, with ``nbins`` bins and rotations costing
        ``rot_cost``
    sight_free : None, or the mask for line of sight: the ANYANGLE rule
        (needs ``parent``)
    starts : start states (cost 0)
    goal : goal cell (padded) or -1 to settle everything reachable
    goal_bin : required bin at the goal (HEADING), -1 any
    g : float64 per state, uninitialised: valid where ``mark`` > 0
    parent : None or int64 per state (written on every improvement)
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
    """
    pc = cols + 2
    np_ = free.shape[0] // nbins
    hk, hg, hn = heap
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
        if parent is not None:
            parent[s] = -1
        if size == hk.shape[0]:
            hk, hg, hn = heap_grow(hk, hg, hn)
        h0 = _hval(hmode, r - gr, cell - r * pc - gc) if goal >= 0 else 0.0
        size = heap_push(hk, hg, hn, size, h0, 0.0, s)
    expanded = 0
    while True:
        # the loop runs with fixed heap arrays (no reallocation in the hot
        # path) and hands back when one more expansion might not fit
        reached, size, expanded = _expand(free, cols, conn8, cost, hmode, move_free, nbins,
                                          rot_cost, sight_free, goal, goal_bin, g, parent,
                                          mark, hk, hg, hn, size, expanded, landmarks)
        if reached != -2:
            return reached, expanded, (hk, hg, hn)
        hk, hg, hn = heap_grow(hk, hg, hn)


@njit(cache=True)
def _expand(free, cols, conn8, cost, hmode, move_free, nbins, rot_cost, sight_free, goal,
            goal_bin, g, parent, mark, hk, hg, hn, size, expanded, landmarks):
    """Expansions until the goal (returns it), exhaustion (-1) or a full heap (-2)."""
    pc = cols + 2
    np_ = free.shape[0] // nbins
    off = offsets(cols)
    cap = hk.shape[0]
    gr = gc = 0
    if goal >= 0:
        gr = goal // pc
        gc = goal - gr * pc
    nk = 8 if conn8 else 4
    nmoves = nk
    ncells = (np_ // pc - 2) * cols
    if move_free is not None:
        nmoves = nk + 2
    while size > 0:
        if size + nmoves > cap:
            return -2, size, expanded
        s, gv, _, size = heap_pop(hk, hg, hn, size)
        if mark[s] == 2 or gv > g[s]:
            continue
        mark[s] = 2
        expanded += 1
        b = 0
        cell = s
        if move_free is not None:
            cell = s // nbins
            b = s - cell * nbins
        if cell == goal and (goal_bin < 0 or b == goal_bin):
            return s, size, expanded
        r = cell // pc
        c = cell - r * pc
        p = -1
        if sight_free is not None:
            p = parent[s]
        for k in range(nmoves):
            if k < nk:
                t = cell + off[k]
                if move_free is not None:
                    if not free[t * nbins + b]:
                        continue
                    if k >= 4 and not (free[(cell + _DC[k]) * nbins + b]
                                       and free[(t - _DC[k]) * nbins + b]):
                        continue
                else:
                    if not free[t]:
                        continue
                    if k >= 4 and not (free[cell + _DC[k]] and free[t - _DC[k]]):
                        continue
                nr = r + _DR[k]
                ncc = c + _DC[k]
                if move_free is not None:
                    # the sweep of a move W / N (NE / NW) is the E / S (SW / SE)
                    # sweep starting from the target cell; move_free is unpadded
                    here = (r - 1) * cols + c - 1
                    there = (nr - 1) * cols + ncc - 1
                    if k == 0:
                        m, src = 1, there
                    elif k == 1:
                        m, src = 0, here
                    elif k == 2:
                        m, src = 1, here
                    elif k == 3:
                        m, src = 0, there
                    elif k == 4:
                        m, src = 3, there
                    elif k == 5:
                        m, src = 2, here
                    elif k == 6:
                        m, src = 3, here
                    else:
                        m, src = 2, there
                    if not move_free[(m * nbins + b) * ncells + src]:
                        continue
                ns = t
                if move_free is not None:
                    ns = t * nbins + b
                ncell = t
                step = 1.0 if k < 4 else SQRT2
            else:
                if nbins == 1 or (nbins == 2 and k == nk + 1):
                    continue
                b2 = (b + (1 if k == nk else nbins - 1)) % nbins
                ns = cell * nbins + b2
                if not free[ns]:
                    continue
                ncell = cell
                step = rot_cost
                nr = r
                ncc = c
            if mark[ns] == 2:
                continue
            src_state = s
            if sight_free is not None:
                if p >= 0 and line_of_sight(sight_free, pc, p, ns):
                    pr = p // pc
                    ng = g[p] + math.sqrt((pr - nr) ** 2 + (p - pr * pc - ncc) ** 2)
                    src_state = p
                else:
                    ng = gv + step
            else:
                if cost is not None:
                    step = step * 0.5 * (cost[cell] + cost[t])
                ng = gv + step
            if mark[ns] == 0 or ng < g[ns]:
                mark[ns] = 1
                g[ns] = ng
                if parent is not None:
                    parent[ns] = src_state
                hv = _hval(hmode, nr - gr, ncc - gc) if goal >= 0 else 0.0
                if landmarks is not None:
                    hv = _alt(landmarks, goal, ncell, hv)
                size = heap_push(hk, hg, hn, size, ng + hv, ng, ns)
    return -1, size, expanded


# ---------------------------------------------------------------- FIFO wave
WAVE_GRID, WAVE_EDGES = 0, 1


@njit(cache=True)
def wave(rule, free, know, cols, conn8, sources, goal, unknown_open, dist, queue, parent):
    """Breadth-first wave: step counts from ``sources`` (unit moves).

    ``rule`` WAVE_GRID: padded free mask ``free``, the GRID moves (4 or 8,
    no corner cutting); ``dist`` is padded int32, pre-filled by the caller
    with -1 on free cells and -2 on blocked ones (so one load tells "free
    and unlabelled").
    ``rule`` WAVE_EDGES: unpadded cells whose sides N, E, S, W are described
    by ``know`` (``(n, 4)`` int8: 0 unknown, 1 open, 2 wall; a wall on the
    grid's outline is the caller's business only through ``know``; moves
    off the grid are refused); ``dist`` pre-filled with -1.
    The wave stops once ``goal`` (>= 0) is labelled and expanded; ``parent``
    (if non-empty) gets the cell each one was reached from. Returns the
    number of cells expanded.
    """
    tail = 0
    for s in sources:
        if dist[s] == -1:
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
                if dist[nb] == -1:
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
                    if dist[nb] == -1 and dist[cur + dr * pc] != -2 and dist[cur + dc] != -2:
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
@njit(cache=True)
def _astar4(free, cols, start, goal):
    """A* with unit moves and the Manhattan heuristic on a padded mask.

    With a consistent heuristic every move keeps ``f`` or raises it by 2, so
    two stacks (``f`` and ``f + 2``) are an exact priority queue -- the
    engine's queue for this one case (unit costs, 4 moves); within an ``f``
    level the most recently generated (deepest) node is expanded first.
    Returns ``(g, expanded)``, the goal's ``g`` -1 when unreachable.
    """
    pc = cols + 2
    n = free.shape[0]
    g = np.full(n, -1, np.int32)
    closed = np.zeros(n, np.uint8)
    cap = max(1024, n // 16)
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
    while True:
        if ncur == 0:
            if nnxt == 0:
                break
            cur_s, nxt_s = nxt_s, cur_s
            ncur, nnxt = nnxt, 0
            fcur += 2
        ncur -= 1
        node = cur_s[ncur]
        if closed[node]:
            continue
        closed[node] = 1
        expanded += 1
        if node == goal:
            break
        r = node // pc
        c = node - r * pc
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
                        cur_s = np.concatenate((cur_s, np.empty(ncur, np.int32)))
                    cur_s[ncur] = nb
                    ncur += 1
                else:
                    if nnxt == nxt_s.shape[0]:
                        nxt_s = np.concatenate((nxt_s, np.empty(nnxt, np.int32)))
                    nxt_s[nnxt] = nb
                    nnxt += 1
    if not closed[goal]:
        g[goal] = -1
    return g, expanded


@njit(cache=True)
def _descend_g(free, g, cols, goal):
    """Padded cells from g = 0 to ``goal`` through neighbours one lower (N, E, S, W)."""
    pc = cols + 2
    L = g[goal]
    out = np.empty(L + 1, np.int64)
    cur = goal
    out[L] = _from_pad(cur, cols)
    for i in range(L - 1, -1, -1):
        for k in range(4):
            nb = cur + (-pc if k == 0 else (1 if k == 1 else (pc if k == 2 else -1)))
            if free[nb] and g[nb] == g[cur] - 1:
                cur = nb
                break
        out[i] = _from_pad(cur, cols)
    return out


# ---------------------------------------------------------------- public core calls
@njit(cache=True)
def _chain(parent, last):
    """Parent chain from the root (parent -1) to ``last``."""
    n = 0
    cur = last
    while cur >= 0:
        n += 1
        cur = parent[cur]
    out = np.empty(n, np.int64)
    cur = last
    for i in range(n - 1, -1, -1):
        out[i] = cur
        cur = parent[cur]
    return out


def _padded(mask, rows: int, cols: int) -> np.ndarray:
    """Flat uint8 mask(s) of ``rows*cols`` cells with a blocked one-cell border."""
    m = np.asarray(mask).reshape(-1, rows, cols)
    return np.pad(m.astype(np.uint8, copy=False), ((0, 0), (1, 1), (1, 1))).ravel()


def _to_padded(idx, rows: int, cols: int):
    """Unpadded states ``layer * N + cell`` -> padded ones."""
    idx = np.asarray(idx, np.int64)
    b, cell = np.divmod(idx, rows * cols)
    r, c = np.divmod(cell, cols)
    return b * ((rows + 2) * (cols + 2)) + (r + 1) * (cols + 2) + c + 1


def _from_padded(idx, rows: int, cols: int):
    """Padded states -> unpadded ``layer * N + cell``."""
    b, cell = np.divmod(np.asarray(idx, np.int64), (rows + 2) * (cols + 2))
    r, c = np.divmod(cell, cols + 2)
    return b * (rows * cols) + (r - 1) * cols + c - 1


def _new_heap(nstates: int):
    cap = 1024 + nstates // 8
    return (np.empty(cap), np.empty(cap), np.empty(cap, np.int64))


def _search(fp, cols, conn8, cost, hmode, starts, goal, *, move_free=None, nbins=1,
            rot_cost=0.0, sight_free=None, goal_bin=-1, want_parent=True, want_g=False,
            landmarks=None):
    n = fp.shape[0]
    g = np.empty(n)
    parent = np.empty(n, np.int64) if want_parent else None
    mark = np.zeros(n, np.uint8)
    reached, expanded, _ = best_first(fp, cols, conn8, cost, hmode, move_free, nbins, rot_cost,
                                      sight_free, np.asarray(starts, np.int64), goal, goal_bin,
                                      g, parent, mark, _new_heap(n), landmarks)
    return reached, expanded, (np.where(mark > 0, g, np.inf) if want_g else None), parent


def shortest_path(free, start: int, goal: int, *, conn8: bool, cost=None, hmode: int = 0):
    """Flat cells of a shortest path ``start -> goal`` on a 2-D mask; empty if none.

    ``cost``: per-cell cost (same shape) or None for unit lengths;
    ``hmode``: 0 Dijkstra, 1 Manhattan A*, 2 octile A*. The 4-connected
    unit-cost A* (``hmode`` 1, no cost) uses the exact two-stack bucket
    queue (deepest node first on ties), everything else the heap (larger
    ``g`` first on ties). Returns ``(cells, expanded)``.

    Examples
    --------
    >>> free = np.array([[1, 1, 1], [0, 0, 1], [1, 1, 1]], bool)
    >>> cells, _ = shortest_path(free, 0, 6, conn8=True, hmode=2)
    >>> cells.tolist()          # no corner cutting around the blocked cells 3, 4
    [0, 1, 2, 5, 8, 7, 6]
    """
    rows, cols = free.shape
    fp = _padded(free, rows, cols)
    ps, pg = _to_padded([start, goal], rows, cols)
    if hmode == 1 and not conn8 and cost is None:
        gf, expanded = _astar4(fp, cols, ps, pg)
        if gf[pg] < 0:
            return np.empty(0, np.int64), expanded
        return _descend_g(fp, gf, cols, pg), expanded
    cp = None
    if cost is not None:
        cp = np.pad(np.asarray(cost, np.float64).reshape(rows, cols), 1,
                    constant_values=1.0).ravel()
    reached, expanded, _, parent = _search(fp, cols, conn8, cp, hmode, [ps], pg)
    if reached < 0:
        return np.empty(0, np.int64), expanded
    return _from_padded(_chain(parent, reached), rows, cols), expanded


def any_angle_path(free, start: int, goal: int, *, conn8: bool):
    """Theta* (Euclidean heuristic) on a 2-D mask: ``(cells, expanded)``, cells empty if none."""
    rows, cols = free.shape
    fp = _padded(free, rows, cols)
    ps, pg = _to_padded([start, goal], rows, cols)
    reached, expanded, _, parent = _search(fp, cols, conn8, None, 3, [ps], pg, sight_free=fp)
    if reached < 0:
        return np.empty(0, np.int64), expanded
    return _from_padded(_chain(parent, reached), rows, cols), expanded


def shortcut(free, cells) -> np.ndarray:
    """Greedy string pulling on a 2-D mask: indices of the kept vertices of a flat cell path."""
    rows, cols = free.shape
    return _shortcut(_padded(free, rows, cols), cols, _to_padded(cells, rows, cols))


@njit(cache=True)
def _shortcut(fp, cols, pcells):
    pc = cols + 2
    n = pcells.shape[0]
    keep = np.empty(n, np.int64)
    m = 0
    i = 0
    keep[m] = 0
    m += 1
    while i < n - 1:
        j = i + 1
        while j + 1 < n and line_of_sight(fp, pc, pcells[i], pcells[j + 1]):
            j += 1
        keep[m] = j
        m += 1
        i = j
    return keep[:m]


def heading_path(free_b, move_free, starts, goal: int, goal_bin: int, *, conn8: bool,
                 rot_cost: float):
    """Shortest (cell, heading bin) path: ``(states, expanded)``, states empty if none.

    ``free_b``: ``(nbins, rows, cols)`` free masks; ``move_free``:
    ``(motions, nbins, rows, cols)`` sweep masks (motions E, S[, SE, SW]);
    states are ``bin * N + cell``. The heuristic is the exact distance to
    the goal in the plain grid graph of the cells free at some heading
    (every move of the state search is one of its moves, so it is
    consistent), never below the octile distance.
    """
    nbins, rows, cols = free_b.shape
    fp = _pad_cell_major(np.ascontiguousarray(free_b).reshape(nbins, -1).view(np.uint8),
                         rows, cols)
    mp = np.ascontiguousarray(move_free).reshape(-1).view(np.uint8)
    pgoal = int(_to_padded(goal, rows, cols))
    hfree = np.zeros(fp.shape[0] // nbins, np.uint8)
    _any_bin(fp, nbins, hfree)
    _, _, h2d, _ = _search(hfree, cols, conn8, None, 0, [pgoal], -1, want_parent=False,
                           want_g=True)
    b, cell = np.divmod(np.asarray(starts, np.int64), rows * cols)
    pstarts = _to_padded(cell, rows, cols) * nbins + b
    reached, expanded, _, parent = _search(
        fp, cols, conn8, None, 2, pstarts, pgoal, move_free=mp, nbins=nbins,
        rot_cost=float(rot_cost), goal_bin=goal_bin, landmarks=h2d.reshape(-1, 1))
    if reached < 0:
        return np.empty(0, np.int64), expanded
    cell, b = np.divmod(_chain(parent, reached), nbins)
    return b * (rows * cols) + _from_padded(cell, rows, cols), expanded


@njit(cache=True)
def _pad_cell_major(free_b, rows, cols):
    """``(nbins, rows*cols)`` masks -> padded flat states ``cell * nbins + bin`` (border 0)."""
    nbins = free_b.shape[0]
    pc = cols + 2
    out = np.zeros((rows + 2) * pc * nbins, np.uint8)
    for r in range(rows):
        for c in range(cols):
            i = r * cols + c
            o = ((r + 1) * pc + c + 1) * nbins
            for b in range(nbins):
                out[o + b] = free_b[b, i]
    return out


@njit(cache=True)
def _any_bin(fp, nbins, out):
    for i in range(out.shape[0]):
        for b in range(nbins):
            if fp[i * nbins + b]:
                out[i] = 1
                break


def distance_field(free, sources, *, conn8: bool = True) -> np.ndarray:
    """Dijkstra distances (cells) from flat ``sources`` over a 2-D mask.

    8-connected (no corner cutting) or 4-connected; unreachable and blocked
    cells get ``inf``; blocked sources are ignored.

    >>> distance_field(np.ones((2, 3), bool), [0]).round(3)
    array([[0.   , 1.   , 2.   ],
           [1.   , 1.414, 2.414]])
    """
    rows, cols = free.shape
    fp = _padded(free, rows, cols)
    src = _to_padded(sources, rows, cols)
    src = src[fp[src] != 0]
    _, _, g, _ = _search(fp, cols, conn8, None, 0, src, -1, want_parent=False, want_g=True)
    return g.reshape(rows + 2, cols + 2)[1:-1, 1:-1].copy()


def path_lengths(free, starts, goals, *, landmarks: int = 8) -> np.ndarray:
    """Shortest 8-connected lengths (cells; no corner cutting) of many pairs on a 2-D mask.

    A* whose heuristic is the larger of the octile distance and the ALT
    bound of ``landmarks`` exact distance fields (landmarks picked farthest
    first; one Dijkstra each, paid once for the batch). NaN where the goal
    is unreachable or an endpoint blocked.
    """
    rows, cols = free.shape
    fp = _padded(free, rows, cols)
    lm = None
    if landmarks > 0 and len(starts) > 4 * landmarks:
        lm = _landmarks(fp, cols, landmarks)
    return _lengths(fp, cols, _to_padded(starts, rows, cols), _to_padded(goals, rows, cols), lm)


def _landmarks(fp, cols: int, k: int) -> np.ndarray:
    """``(Np, k)`` distance fields from ``k`` cells spread farthest-first."""
    free_idx = np.flatnonzero(fp)
    out = np.empty((fp.shape[0], k))
    if free_idx.size == 0:
        out[:] = np.inf
        return out
    near = np.full(fp.shape[0], np.inf)
    src = int(free_idx[0])
    for j in range(k):
        _, _, g, _ = _search(fp, cols, True, None, 0, [src], -1, want_parent=False, want_g=True)
        if j == 0:
            # the first landmark is the cell farthest from an arbitrary one
            g0 = np.where(np.isfinite(g), g, -1.0)
            src = int(np.argmax(g0))
            _, _, g, _ = _search(fp, cols, True, None, 0, [src], -1, want_parent=False, want_g=True)
        out[:, j] = g
        near = np.minimum(near, g)
        src = int(np.argmax(np.where(np.isfinite(near), near, -1.0)))
    return out


@njit(cache=True)
def _lengths(fp, cols, starts, goals, lm):
    # one set of per-cell arrays for the whole batch, reset between problems
    n = fp.shape[0]
    g = np.empty(n)
    mark = np.empty(n, np.uint8)
    heap = (np.empty(1024 + n // 8), np.empty(1024 + n // 8), np.empty(1024 + n // 8, np.int64))
    out = np.full(starts.shape[0], np.nan)
    st = np.empty(1, np.int64)
    for k in range(starts.shape[0]):
        s = starts[k]
        t = goals[k]
        if fp[s] == 0 or fp[t] == 0:
            continue
        mark[:] = 0
        st[0] = s
        reached, _, heap = best_first(fp, cols, True, None, 2, None, 1, 0.0, None, st, t, -1,
                                      g, None, mark, heap, lm)
        if reached >= 0:
            out[k] = g[t]
    return out


def bfs_field(free, rows: int, cols: int, goal: int, conn8: bool):
    """Wave step counts from flat cell ``goal`` over a flat uint8 mask: ``(dist, expanded)``.

    ``dist`` is ``(rows, cols)`` int32, -1 where unreachable or blocked: a
    view into the padded label array (occupied cells and the blocked border
    are pre-marked -2 there, so the wave needs no bounds check and one load
    per neighbour; only the -2 left inside the grid are rewritten).
    """
    dist, expanded = _bfs_field(free, rows, cols, goal, conn8)
    return dist.reshape(rows + 2, cols + 2)[1:-1, 1:-1], expanded


@njit(cache=True)
def _bfs_field(free, rows, cols, goal, conn8):
    pc = cols + 2
    npd = (rows + 2) * pc
    dist = np.full(npd, -2, np.int32)
    for r in range(rows):
        src = r * cols
        dst = (r + 1) * pc + 1
        for c in range(cols):
            dist[dst + c] = -1 if free[src + c] else -2
    queue = np.empty(rows * cols, np.int32)
    expanded = wave(WAVE_GRID, dist.view(np.uint8)[:0], np.empty((0, 4), np.int8), cols, conn8,
                    np.array([_to_pad(goal, cols)], np.int32), -1, False, dist, queue,
                    np.empty(0, np.int32))
    for r in range(rows):
        src = (r + 1) * pc + 1
        for c in range(cols):
            if dist[src + c] == -2:
                dist[src + c] = -1
    return dist, expanded


@njit(cache=True)
def bfs_path(free, rows, cols, s, g):
    """Shortest 4-connected route ``s -> g`` over free cells, first-found parents (N, E, S, W).

    Flat unpadded cells; empty if none.
    """
    pc = cols + 2
    npd = (rows + 2) * pc
    dist = np.full(npd, -2, np.int32)
    for r in range(rows):
        for c in range(cols):
            dist[(r + 1) * pc + 1 + c] = -1 if free[r * cols + c] else -2
    parent = np.full(npd, -1, np.int32)
    ps, pg = _to_pad(s, cols), _to_pad(g, cols)
    wave(WAVE_GRID, np.empty(0, np.uint8), np.empty((0, 4), np.int8), cols, False,
         np.array([ps], np.int32), pg, False, dist, np.empty(rows * cols, np.int32), parent)
    if dist[pg] < 0:
        return np.empty(0, np.int64)
    m = dist[pg] + 1
    out = np.empty(m, np.int64)
    v = pg
    for i in range(m - 1, -1, -1):
        out[i] = _from_pad(v, cols)
        v = parent[v]
    return out


@njit(cache=True)
def flood_edges(know, rows, cols, sources, unknown_open):
    """Moves from every cell to the nearest source over a wall map (-1 unreachable).

    ``know``: ``(rows*cols, 4)`` int8 sides N, E, S, W (0 unknown, 1 open,
    2 wall); an edge is passable when open, or unknown and ``unknown_open``.
    """
    n = rows * cols
    dist = np.full(n, -1, np.int32)
    wave(WAVE_EDGES, np.empty(0, np.uint8), know, cols, False, sources.astype(np.int32), -1,
         unknown_open, dist, np.empty(n, np.int32), np.empty(0, np.int32))
    return dist
