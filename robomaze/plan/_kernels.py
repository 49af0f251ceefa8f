"""Numba kernels behind the grid planners.

All kernels take the free (configuration-space) mask as a flat ``uint8``
array of ``rows * cols`` cells, index ``row * cols + col``. Moves are the
4 orthogonal ones (N, E, S, W) and, with ``conn8``, the diagonals (NE, SE,
SW, NW), a diagonal only when both orthogonal cells beside it are free too
(no corner cutting, the MovingAI convention).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

SQRT2 = math.sqrt(2.0)


@njit(cache=True)
def _move_ok(free, rows, cols, r, c, k):
    """Target flat index of move ``k`` from ``(r, c)``, or -1 if not allowed."""
    dr = (-1, 0, 1, 0, -1, 1, 1, -1)[k]
    dc = (0, 1, 0, -1, 1, 1, -1, -1)[k]
    rr, cc = r + dr, c + dc
    if rr < 0 or rr >= rows or cc < 0 or cc >= cols:
        return -1
    if not free[rr * cols + cc]:
        return -1
    if k >= 4 and not (free[rr * cols + c] and free[r * cols + cc]):
        return -1
    return rr * cols + cc


# ---------------------------------------------------------------- wavefront
@njit(cache=True)
def _border_blocked(free, rows, cols):
    for c in range(cols):
        if free[c] or free[(rows - 1) * cols + c]:
            return False
    for r in range(rows):
        if free[r * cols] or free[r * cols + cols - 1]:
            return False
    return True


@njit(cache=True)
def bfs_field(free, rows, cols, goal, conn8):
    """Lee/Moore wave: BFS step counts from ``goal`` (-1 unreachable).

    Returns ``(dist, expanded)``. Occupied cells are pre-marked -2 in the
    label array, so one load tells "free and unlabelled". When the grid's
    border is blocked (every widened maze) no free cell has an outside
    neighbour and the 4-connected loop needs neither bounds checks nor the
    row/column division; otherwise it is the textbook BFS of
    ``benchmarks/bfs_ref.c``.
    """
    n = rows * cols
    dist = np.empty(n, np.int32)
    for i in range(n):
        dist[i] = -1 if free[i] else -2
    queue = np.empty(n, np.int32)
    dist[goal] = 0
    queue[0] = goal
    head, tail = 0, 1
    if not conn8 and rows >= 3 and cols >= 3 and _border_blocked(free, rows, cols):
        while head < tail:
            cur = queue[head]
            head += 1
            d = dist[cur] + 1
            nb = cur - cols
            if dist[nb] == -1:
                dist[nb] = d
                queue[tail] = nb
                tail += 1
            nb = cur + 1
            if dist[nb] == -1:
                dist[nb] = d
                queue[tail] = nb
                tail += 1
            nb = cur + cols
            if dist[nb] == -1:
                dist[nb] = d
                queue[tail] = nb
                tail += 1
            nb = cur - 1
            if dist[nb] == -1:
                dist[nb] = d
                queue[tail] = nb
                tail += 1
    else:
        last = rows - 1
        lastc = cols - 1
        while head < tail:
            cur = queue[head]
            head += 1
            r = cur // cols
            c = cur - r * cols
            d = dist[cur] + 1
            if r > 0:
                nb = cur - cols
                if dist[nb] == -1:
                    dist[nb] = d
                    queue[tail] = nb
                    tail += 1
            if c < lastc:
                nb = cur + 1
                if dist[nb] == -1:
                    dist[nb] = d
                    queue[tail] = nb
                    tail += 1
            if r < last:
                nb = cur + cols
                if dist[nb] == -1:
                    dist[nb] = d
                    queue[tail] = nb
                    tail += 1
            if c > 0:
                nb = cur - 1
                if dist[nb] == -1:
                    dist[nb] = d
                    queue[tail] = nb
                    tail += 1
            if conn8:
                for k in range(4, 8):
                    nb = _move_ok(free, rows, cols, r, c, k)
                    if nb >= 0 and dist[nb] == -1:
                        dist[nb] = d
                        queue[tail] = nb
                        tail += 1
    for i in range(n):
        if dist[i] == -2:
            dist[i] = -1
    return dist, head


@njit(cache=True)
def descend(free, dist, rows, cols, start, conn8):
    """Backtrace down the wave labels from ``start`` to the goal (label 0).

    At each cell the first move (order N, E, S, W, NE, SE, SW, NW) to a
    label one lower is taken.
    """
    out = np.empty(dist[start] + 1, np.int64)
    cur = start
    out[0] = cur
    nk = 8 if conn8 else 4
    for i in range(1, dist[start] + 1):
        r = cur // cols
        c = cur - r * cols
        for k in range(nk):
            nb = _move_ok(free, rows, cols, r, c, k)
            if nb >= 0 and dist[nb] == dist[cur] - 1:
                cur = nb
                break
        out[i] = cur
    return out


@njit(cache=True)
def descend_fewest_bends(free, dist, rows, cols, start, conn8):
    """Among all shortest (fewest-step) routes, one with the fewest direction changes.

    Dynamic programming over the cells lying on some shortest route from
    ``start``: ``B[v, k]`` = fewest bends from ``v`` to the goal when the
    first move is ``k``; a bend is any change of move direction.
    """
    nk = 8 if conn8 else 4
    # cells on shortest routes, found by walking down the labels from start
    mark = np.zeros(rows * cols, np.uint8)
    stack = np.empty(16, np.int64)
    cells = np.empty(16, np.int64)
    ns, nc = 1, 0
    stack[0] = start
    mark[start] = 1
    while ns > 0:
        ns -= 1
        cur = stack[ns]
        if nc == cells.shape[0]:
            cells = np.concatenate((cells, np.empty(nc, np.int64)))
        cells[nc] = cur
        nc += 1
        r = cur // cols
        c = cur - r * cols
        for k in range(nk):
            nb = _move_ok(free, rows, cols, r, c, k)
            if nb >= 0 and dist[nb] == dist[cur] - 1 and not mark[nb]:
                mark[nb] = 1
                if ns == stack.shape[0]:
                    stack = np.concatenate((stack, np.empty(ns, np.int64)))
                stack[ns] = nb
                ns += 1
    cells = cells[:nc]
    ids = np.sort(cells)
    order = np.argsort(dist[cells], kind="mergesort")
    big = 1 << 30
    B = np.full((nc, nk), big, np.int64)
    for j in range(nc):
        v = cells[order[j]]
        vi = np.searchsorted(ids, v)
        r = v // cols
        c = v - r * cols
        for k in range(nk):
            u = _move_ok(free, rows, cols, r, c, k)
            if u < 0 or dist[u] != dist[v] - 1:
                continue
            if dist[u] == 0:
                B[vi, k] = 0
                continue
            ui = np.searchsorted(ids, u)
            best = big
            for k2 in range(nk):
                b = B[ui, k2] + (0 if k2 == k else 1)
                if b < best:
                    best = b
            B[vi, k] = best
    L = dist[start]
    out = np.empty(L + 1, np.int64)
    out[0] = start
    cur = start
    prev = -1
    for i in range(1, L + 1):
        ci = np.searchsorted(ids, cur)
        bestk, best = -1, big
        for k in range(nk):
            b = B[ci, k] + (0 if (prev < 0 or k == prev) else 1)
            if b < best or (b == best and k == prev):
                best, bestk = b, k
        r = cur // cols
        c = cur - r * cols
        cur = _move_ok(free, rows, cols, r, c, bestk)
        prev = bestk
        out[i] = cur
    return out


# ---------------------------------------------------------------- A* (4, unit)
@njit(cache=True)
def astar4(free, rows, cols, start, goal):
    """A* with unit moves and the Manhattan heuristic; returns ``(g, expanded)``.

    With a consistent heuristic every move keeps ``f`` or raises it by 2, so
    two stacks (``f`` and ``f + 2``) are an exact priority queue. Within an
    ``f`` level the most recently generated (deepest) node is expanded first.
    The goal's ``g`` is -1 when unreachable.
    """
    n = rows * cols
    g = np.full(n, -1, np.int32)
    closed = np.zeros(n, np.uint8)
    cap = max(1024, n // 16)
    cur_s = np.empty(cap, np.int32)
    nxt_s = np.empty(cap, np.int32)
    ncur, nnxt = 0, 0
    gr = goal // cols
    gc = goal - gr * cols
    sr = start // cols
    g[start] = 0
    cur_s[0] = start
    ncur = 1
    fcur = abs(sr - gr) + abs(start - sr * cols - gc)
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
        r = node // cols
        c = node - r * cols
        ng = g[node] + 1
        for k in range(4):
            # neighbour row/col are known per direction: no division needed
            if k == 0:
                if r == 0:
                    continue
                nb, nr, nc = node - cols, r - 1, c
            elif k == 1:
                if c == cols - 1:
                    continue
                nb, nr, nc = node + 1, r, c + 1
            elif k == 2:
                if r == rows - 1:
                    continue
                nb, nr, nc = node + cols, r + 1, c
            else:
                if c == 0:
                    continue
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
def descend_g(free, g, rows, cols, goal):
    """Walk from the goal to g = 0 through neighbours whose g is one lower."""
    L = g[goal]
    out = np.empty(L + 1, np.int64)
    cur = goal
    out[L] = cur
    for i in range(L - 1, -1, -1):
        r = cur // cols
        c = cur - r * cols
        for k in range(4):
            nb = _move_ok(free, rows, cols, r, c, k)
            if nb >= 0 and g[nb] == g[cur] - 1:
                cur = nb
                break
        out[i] = cur
    return out


# ---------------------------------------------------------------- binary heap
@njit(cache=True)
def _heap_push(hk, hg, hn, size, key, gval, node):
    if size == hk.shape[0]:
        hk = np.concatenate((hk, np.empty(size, np.float64)))
        hg = np.concatenate((hg, np.empty(size, np.float64)))
        hn = np.concatenate((hn, np.empty(size, np.int64)))
    i = size
    while i > 0:
        p = (i - 1) >> 1
        # smaller key first; on equal keys larger g first
        if hk[p] < key or (hk[p] == key and hg[p] >= gval):
            break
        hk[i], hg[i], hn[i] = hk[p], hg[p], hn[p]
        i = p
    hk[i], hg[i], hn[i] = key, gval, node
    return hk, hg, hn, size + 1


@njit(cache=True)
def _heap_pop(hk, hg, hn, size):
    top_n, top_g = hn[0], hg[0]
    size -= 1
    key, gval, node = hk[size], hg[size], hn[size]
    i = 0
    while True:
        ch = 2 * i + 1
        if ch >= size:
            break
        if ch + 1 < size and (hk[ch + 1] < hk[ch] or (hk[ch + 1] == hk[ch] and hg[ch + 1] > hg[ch])):
            ch += 1
        if key < hk[ch] or (key == hk[ch] and gval >= hg[ch]):
            break
        hk[i], hg[i], hn[i] = hk[ch], hg[ch], hn[ch]
        i = ch
    if size > 0:
        hk[i], hg[i], hn[i] = key, gval, node
    return top_n, top_g, size


@njit(cache=True)
def _h(mode, r, c, gr, gc):
    dr = abs(r - gr)
    dc = abs(c - gc)
    if mode == 1:
        return float(dr + dc)
    if mode == 2:
        lo = min(dr, dc)
        return (max(dr, dc) - lo) + SQRT2 * lo
    if mode == 3:
        return math.sqrt(dr * dr + dc * dc)
    return 0.0


@njit(cache=True)
def heap_search(free, rows, cols, start, goal, conn8, cost, hmode):
    """Dijkstra (``hmode`` 0) or A* (1 Manhattan, 2 octile) with a binary heap.

    Move length is 1 or sqrt(2) (cell units); with a non-empty ``cost``
    array the move costs ``length * (cost[u] + cost[v]) / 2``. Ties on ``f``
    go to the larger ``g``. Returns ``(parent, g, expanded)``; the goal's
    parent is -2 when unreachable (start's parent is -1).
    """
    n = rows * cols
    g = np.full(n, np.inf)
    parent = np.full(n, -2, np.int64)
    closed = np.zeros(n, np.uint8)
    cap = 1024
    hk = np.empty(cap, np.float64)
    hg = np.empty(cap, np.float64)
    hn = np.empty(cap, np.int64)
    size = 0
    gr = goal // cols
    gc = goal - gr * cols
    weighted = cost.shape[0] > 0
    g[start] = 0.0
    parent[start] = -1
    sr = start // cols
    hk, hg, hn, size = _heap_push(hk, hg, hn, size, _h(hmode, sr, start - sr * cols, gr, gc),
                                  0.0, start)
    nk = 8 if conn8 else 4
    expanded = 0
    while size > 0:
        node, gv, size = _heap_pop(hk, hg, hn, size)
        if closed[node] or gv > g[node]:
            continue
        closed[node] = 1
        expanded += 1
        if node == goal:
            break
        r = node // cols
        c = node - r * cols
        for k in range(nk):
            nb = _move_ok(free, rows, cols, r, c, k)
            if nb < 0 or closed[nb]:
                continue
            step = 1.0 if k < 4 else SQRT2
            if weighted:
                step = step * 0.5 * (cost[node] + cost[nb])
            ng = gv + step
            if ng < g[nb]:
                g[nb] = ng
                parent[nb] = node
                nr = nb // cols
                hk, hg, hn, size = _heap_push(hk, hg, hn, size,
                                              ng + _h(hmode, nr, nb - nr * cols, gr, gc), ng, nb)
    if not closed[goal]:
        parent[goal] = -2
    return parent, g, expanded


@njit(cache=True)
def follow_parents(parent, goal):
    """Chain of parents from the root (parent -1) to ``goal``."""
    n = 0
    cur = goal
    while cur >= 0:
        n += 1
        cur = parent[cur]
    out = np.empty(n, np.int64)
    cur = goal
    for i in range(n - 1, -1, -1):
        out[i] = cur
        cur = parent[cur]
    return out


# ---------------------------------------------------------------- any-angle
@njit(cache=True)
def line_of_sight(free, rows, cols, a, b):
    """Whether the straight segment between two cell centres is safe.

    Every point of the segment must lie in a unit square whose four corner
    cells (cell centres) are all free. For a disc of radius r whose free
    cells have clearance > r, the disc swept along such a segment keeps a
    clearance > r (the distance to any obstacle square from a point of that
    square is at least the distance from one of its corners). Exact integer
    arithmetic, so no rounding can make the test optimistic.
    """
    r0 = a // cols
    c0 = a - r0 * cols
    r1 = b // cols
    c1 = b - r1 * cols
    if c0 == c1:
        lo, hi = min(r0, r1), max(r0, r1)
        for r in range(lo, hi + 1):
            if not free[r * cols + c0]:
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
            if r < 0 or r >= rows:
                return False
            if not free[r * cols + i] or not free[r * cols + i + 1]:
                return False
    return True


@njit(cache=True)
def theta_star(free, rows, cols, start, goal, conn8):
    """Basic Theta*: A* over grid cells whose parent may be any visible cell."""
    n = rows * cols
    g = np.full(n, np.inf)
    parent = np.full(n, -2, np.int64)
    closed = np.zeros(n, np.uint8)
    hk = np.empty(1024, np.float64)
    hg = np.empty(1024, np.float64)
    hn = np.empty(1024, np.int64)
    size = 0
    gr = goal // cols
    gc = goal - gr * cols
    g[start] = 0.0
    parent[start] = -1
    sr = start // cols
    hk, hg, hn, size = _heap_push(hk, hg, hn, size, _h(3, sr, start - sr * cols, gr, gc), 0.0, start)
    expanded = 0
    while size > 0:
        node, gv, size = _heap_pop(hk, hg, hn, size)
        if closed[node] or gv > g[node]:
            continue
        closed[node] = 1
        expanded += 1
        if node == goal:
            break
        r = node // cols
        c = node - r * cols
        p = parent[node]
        for k in range(8 if conn8 else 4):
            nb = _move_ok(free, rows, cols, r, c, k)
            if nb < 0 or closed[nb]:
                continue
            nr = nb // cols
            nc = nb - nr * cols
            if p >= 0 and line_of_sight(free, rows, cols, p, nb):
                pr = p // cols
                src, base = p, g[p] + math.sqrt((pr - nr) ** 2 + (p - pr * cols - nc) ** 2)
            else:
                src, base = node, gv + (1.0 if k < 4 else SQRT2)
            if base < g[nb]:
                g[nb] = base
                parent[nb] = src
                hk, hg, hn, size = _heap_push(hk, hg, hn, size, base + _h(3, nr, nc, gr, gc),
                                              base, nb)
    if not closed[goal]:
        parent[goal] = -2
    return parent, g, expanded


@njit(cache=True)
def shortcut(free, rows, cols, cells):
    """Greedy string pulling: indices of the vertices kept from a cell path."""
    n = cells.shape[0]
    keep = np.empty(n, np.int64)
    m = 0
    i = 0
    keep[m] = 0
    m += 1
    while i < n - 1:
        j = i + 1
        while j + 1 < n and line_of_sight(free, rows, cols, cells[i], cells[j + 1]):
            j += 1
        keep[m] = j
        m += 1
        i = j
    return keep[:m]


# ---------------------------------------------------------------- (cell, heading)
@njit(cache=True)
def state_search(free_b, move_free, rows, cols, nb, starts, goal, goal_bin, conn8, rot_cost):
    """Dijkstra/A* over states ``bin * N + cell`` of a heading-binned C-space.

    ``free_b`` is the flat ``(nb * N)`` free mask, ``move_free`` the flat
    ``(motions, nb, N)`` mask of collision-free sweeps E, S[, SE, SW] from
    each cell. Moves: to a neighbouring cell in the same bin (free in that
    bin, its sweep free, diagonals also without corner cutting) at cost 1
    or sqrt(2), or a rotation in place to
    the neighbouring bin at cost ``rot_cost``. The octile distance is the
    heuristic. ``starts`` are the admissible start states; the search ends
    at the first state on ``goal`` (in ``goal_bin`` if >= 0).
    Returns ``(parent, reached_state, expanded)``.
    """
    N = rows * cols
    S = nb * N
    g = np.full(S, np.inf)
    parent = np.full(S, -2, np.int64)
    closed = np.zeros(S, np.uint8)
    hk = np.empty(1024, np.float64)
    hg = np.empty(1024, np.float64)
    hn = np.empty(1024, np.int64)
    size = 0
    gr = goal // cols
    gc = goal - gr * cols
    for s in starts:
        cell = s % N
        r = cell // cols
        g[s] = 0.0
        parent[s] = -1
        hk, hg, hn, size = _heap_push(hk, hg, hn, size, _h(2, r, cell - r * cols, gr, gc), 0.0, s)
    nk = 8 if conn8 else 4
    expanded = 0
    reached = -1
    while size > 0:
        s, gv, size = _heap_pop(hk, hg, hn, size)
        if closed[s] or gv > g[s]:
            continue
        closed[s] = 1
        expanded += 1
        b = s // N
        cell = s - b * N
        if cell == goal and (goal_bin < 0 or b == goal_bin):
            reached = s
            break
        r = cell // cols
        c = cell - r * cols
        fb = free_b[b * N:(b + 1) * N]
        for k in range(nk + 2):
            if k < nk:
                t = _move_ok(fb, rows, cols, r, c, k)
                if t < 0:
                    continue
                # the sweep of a move west/north(-east/-west) is the E/S/SW/SE
                # sweep starting from the target cell
                if k == 0:
                    m, src = 1, t
                elif k == 1:
                    m, src = 0, cell
                elif k == 2:
                    m, src = 1, cell
                elif k == 3:
                    m, src = 0, t
                elif k == 4:
                    m, src = 3, t
                elif k == 5:
                    m, src = 2, cell
                elif k == 6:
                    m, src = 3, cell
                else:
                    m, src = 2, t
                if not move_free[(m * nb + b) * N + src]:
                    continue
                ns = b * N + t
                step = 1.0 if k < 4 else SQRT2
                tr = t // cols
                hv = _h(2, tr, t - tr * cols, gr, gc)
            else:
                if nb == 1:
                    continue
                if nb == 2 and k == nk + 1:
                    continue
                b2 = (b + (1 if k == nk else nb - 1)) % nb
                ns = b2 * N + cell
                if not free_b[ns]:
                    continue
                step = rot_cost
                hv = _h(2, r, c, gr, gc)
            if closed[ns]:
                continue
            ng = gv + step
            if ng < g[ns]:
                g[ns] = ng
                parent[ns] = s
                hk, hg, hn, size = _heap_push(hk, hg, hn, size, ng + hv, ng, ns)
    return parent, reached, expanded
