"""The route searches with integer costs and a bucket queue (Dial's algorithm).

Plain Python that numba also compiles: :mod:`._route_kernels` wraps these
functions with ``njit`` for repeated searches, and a one-shot search (the
``robomaze mouse route`` command) runs them as they are, on lists, without
importing numba (its import alone costs more CPU than the whole search in
Python). One algorithm in both, so both give the same route bit for bit.

The graph is the half-cell grid of :mod:`._route_kernels` (states ``p * 8 +
h``; the runs model: positions). :func:`prepare` writes a maze's walls
into the grid, so a search reads the walls it is given, no array is built
per search. Every edge cost is a non-negative integer below ``len(head)``
-- the number of buckets -- so bucket ``c % len(head)`` holds exactly the
states of cost ``c`` while the search scans costs upwards from the cost last
settled (Dial 1969). The number of buckets is a power of two (a mask, not a
division, per step); ``occ`` (``len(head) // 32`` int64 words of 32 bits)
marks the non-empty ones, so a search steps over runs of empty costs 32 at
a time. A bucket is a doubly linked FIFO list threaded through the states
(``head``/``tail`` per bucket, ``nxt``/``prv`` per state): a state whose
cost drops moves to the end of its new bucket, so no stale entry is ever
popped and no entry pool can run out. States leave in the order round 6's
entry pool popped them (its stale entries were skipped), and the pruning
below leaves out only moves that would not have improved anything, so the
route among equally fast ones is the same as round 6's.

Scratch arrays belong to the caller and are reused across searches: a state
is reached in this search when ``stamp[v] == gen`` and a position is a goal
when ``goal[p] == gen`` (no clearing between searches). Each search returns
the goal state it settled first (optimal: it settles states in cost order),
or -1 when no goal is reachable.

Straight-run pruning (``prune``, exact)
---------------------------------------
A state reached by a straight does not extend that straight, and in the
runs model a cell reached by a run expands only the two directions across
it: the run of its parent ``p'`` (``J`` cells behind, settled earlier, with
``dist = dist[p'] + r[J]``) already reaches every cell further on at
``dist[p'] + r[J + k] <= dist + r[k]`` (``r`` subadditive), and every cell
back along the run or beyond ``p'`` at most at ``dist[p'] + r[|k - J|] <=
dist + r[k]`` (``r`` non-decreasing). So each settled state's omitted moves
are relaxed, at least as cheaply, by states settled before it -- the
invariant Dijkstra's proof needs -- and the costs are exactly those of the
full search. The caller sets ``prune`` only when its tables are
non-decreasing and subadditive over every run the maze allows
(:func:`robomaze.micromouse.route.prunable`); the kerikun tables are. On a
16x16 contest maze it cuts the runs model's relaxations ~5x (1,580 -> 280)
and the slalom graph's candidates ~2x. (micromouse-maze-library's own
pruning -- stop a straight at the first cell already reached as cheaply --
is not exact: it misses the optimum on 16MM2017CX.)

Move codes as in :mod:`._route_kernels`: ``2 * kind + (side == right)``.
"""

from __future__ import annotations

__all__ = ["prepare", "slalom_dial", "runs_dial", "GEN_MAX"]

#: The position of a 32-bit word's only set bit, by de Bruijn's multiply
#: (``(bit * 0x077CB531) mod 2**32 >> 27``): the search skips empty buckets
#: 32 at a time through ``occ``, one bit per bucket
_LOW_BIT = (0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
            31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9)

#: The scratch of one search object, as laid out by
#: :class:`robomaze.micromouse.route.RouteSearch` for the compiled entries
#: (:mod:`._route_kernels`): int32 sections (``W32``) in one array, int64
#: sections (``W64``) after a header in another, so a search is a call with
#: three arguments. Header slots:
H_GEN, H_ROWS, H_COLS, H_WIDTH, H_START, H_NGOALS, H_PRUNE, H_DIAG, H_PIVOT, H_FILL = range(10)
W32 = ("grid", "goal", "horiz", "dist", "stamp", "parent", "move", "head", "tail", "nxt",
       "prv")
W64 = ("occ", "off", "starts", "goals", "along", "diag", "turns", "runs", "cv", "cc", "cm")
#: ``wl[H_W32 + k]`` .. ``wl[H_W32 + k + 1]``: section ``W32[k]`` of the
#: int32 array; ``wl[H_W64 + k]`` ..: section ``W64[k]`` of the int64 one
H_W32 = 10
H_W64 = H_W32 + len(W32) + 1
HEADER = H_W64 + len(W64) + 1

#: Search numbers (stamps) stay below this; the caller clears the stamps and
#: starts again from 1 when it is reached (int32 stamps).
GEN_MAX = 2 ** 31 - 2


def prepare(walls, fill, grid, rows, cols, width, goal, stamp, goals, n_goals, gen, p0, slalom,
            starts):
    """Set up search number ``gen + 1``; returns ``(gen + 1, number of start states)``.

    * ``fill``: write the wall midpoints of ``walls`` (``rows * cols * 4``
      flags, a flat ``(rows, cols, 4)`` array, sides N E S W, true = wall)
      into the padded half-cell ``grid``; a wall is open (1) only if neither
      of its two cells says it is closed. Only interior wall midpoints are
      written: centres (1), corners and the border (0) are the caller's,
      once. (Plain Python passes 0 and a grid from ``passable_grid``.)
    * mark the goal positions ``goals[:n_goals]`` with the search number;
      stamps from earlier searches stay where they are; past
      :data:`GEN_MAX` the stamps and goal marks are cleared once and the
      count starts again at 1;
    * write the start states from centre ``p0`` into ``starts``: the runs
      model, the position; the slalom graph, heading north if the wall ahead
      is open, else every open side (north if none is: a start walled in).
    """
    if fill:
        row4 = 4 * cols
        for r in range(rows):
            p = (2 * r + 3) * width + 3           # centre of (r, 0): padding 2
            i = r * row4
            for c in range(cols - 1):             # east walls
                grid[p + 1] = 0 if walls[i + 1] or walls[i + 7] else 1
                p += 2
                i += 4
        for r in range(rows - 1):
            p = (2 * r + 4) * width + 3           # wall south of (r, 0)
            i = r * row4
            for c in range(cols):                 # south walls
                grid[p] = 0 if walls[i + 2] or walls[i + row4] else 1
                p += 2
                i += 4
    gen += 1
    if gen > GEN_MAX:
        for i in range(len(stamp)):
            stamp[i] = 0
        for i in range(len(goal)):
            goal[i] = 0
        gen = 1
    for i in range(n_goals):
        goal[goals[i]] = gen
    if not slalom:
        starts[0] = p0
        return gen, 1
    if grid[p0 - width]:
        starts[0] = p0 * 8
        return gen, 1
    n = 0
    if grid[p0 + 1]:
        starts[n] = p0 * 8 + 2
        n += 1
    if grid[p0 + width]:
        starts[n] = p0 * 8 + 4
        n += 1
    if grid[p0 - 1]:
        starts[n] = p0 * 8 + 6
        n += 1
    if n == 0:
        starts[0] = p0 * 8
        n = 1
    return gen, n


def slalom_dial(grid, horiz, goal, gen, off, starts, n_starts, along, diag, turns, use_diag,
                pivot, prune, dist, stamp, parent, move, head, tail, nxt, prv, occ, cv, cc, cm):
    """Dial's search on the slalom graph; returns the goal state or -1.

    ``along[n]`` / ``diag[n]`` / ``turns`` / ``pivot`` are integer costs
    (``pivot`` < 0: no FS90), each below ``len(head)``, a power of two, the
    tables longer than any straight of the maze; ``head``/``tail`` must hold -1
    and ``occ`` 0, as they do again on return. ``cv``/``cc``/``cm`` hold at
    least ``len(along) + len(diag) + 16`` candidates. ``prune``: see the
    module notes (a state reached by ``S`` does not extend it with ``S``,
    one reached by ``D`` not with ``D``).
    """
    mask = len(head) - 1
    live = 0
    for i in range(n_starts):
        s = starts[i]
        stamp[s] = gen
        dist[s] = 0
        parent[s] = -1
        move[s] = 0
        t0 = tail[0]
        nxt[s] = -1
        prv[s] = t0
        if t0 >= 0:
            nxt[t0] = s
        else:
            head[0] = s
            occ[0] |= 1
        tail[0] = s
        live += 1
    cur = 0
    nc = 0
    u = -1
    end = -1
    while True:
        # relax the moves the last expansion collected, in order
        for j in range(nc):
            v = cv[j]
            c = cc[j]
            if stamp[v] == gen:
                if c >= dist[v]:
                    continue
                # a cheaper way to a queued state: move it to its new bucket
                ob = dist[v] & mask
                pv = prv[v]
                nx = nxt[v]
                if pv >= 0:
                    nxt[pv] = nx
                else:
                    head[ob] = nx
                if nx >= 0:
                    prv[nx] = pv
                else:
                    tail[ob] = pv
                if head[ob] < 0:
                    occ[ob >> 5] &= ~(1 << (ob & 31))
                live -= 1
            else:
                stamp[v] = gen
            dist[v] = c
            parent[v] = u
            move[v] = cm[j]
            b = c & mask
            tb = tail[b]
            nxt[v] = -1
            prv[v] = tb
            if tb >= 0:
                nxt[tb] = v
            else:
                head[b] = v
                occ[b >> 5] |= 1 << (b & 31)
            tail[b] = v
            live += 1
        nc = 0
        if live == 0:
            break
        # the next non-empty bucket: 32 at a time, then the lowest set bit
        b = cur & mask
        w = occ[b >> 5] >> (b & 31)
        while w == 0:
            cur += 32 - (b & 31)
            b = cur & mask
            w = occ[b >> 5]
        cur += _LOW_BIT[((w & -w) * 0x077CB531 & 0xFFFFFFFF) >> 27]
        b = cur & mask
        u = head[b]
        nx = nxt[u]
        head[b] = nx
        if nx >= 0:
            prv[nx] = -1
        else:
            tail[b] = -1
            occ[b >> 5] &= ~(1 << (b & 31))
        live -= 1
        g = cur                                  # == dist[u]: no stale entries
        p = u >> 3
        h = u & 7
        if h % 2 == 0:
            if goal[p] == gen:
                end = u
                break
            if pivot >= 0:
                cv[nc] = p * 8 + ((h - 2) & 7)
                cc[nc] = g + pivot
                cm[nc] = 18
                nc += 1
                cv[nc] = p * 8 + ((h + 2) & 7)
                cc[nc] = g + pivot
                cm[nc] = 19
                nc += 1
            oh = off[h]
            f = p + oh
            if grid[f] == 0:
                continue
            if not (prune and move[u] == 0 and parent[u] >= 0):
                q = p
                m = 1
                while grid[q + oh]:              # S m: every wall ahead open
                    q += 2 * oh
                    cv[nc] = q * 8 + h
                    cc[nc] = g + along[m]
                    cm[nc] = 0
                    nc += 1
                    m += 1
            for right in range(2):
                s = 2 * right - 1
                d45 = (h + s) & 7
                d90 = (h + 2 * s) & 7
                d135 = (h + 3 * s) & 7
                w1 = f + off[d45]                # the side wall of the cell ahead
                if grid[w1] == 0:
                    continue
                if use_diag and grid[w1 + off[d45]]:
                    cv[nc] = w1 * 8 + d45
                    cc[nc] = g + turns[0]
                    cm[nc] = 4 + right
                    nc += 1
                cv[nc] = (p + 2 * oh + 2 * off[d90]) * 8 + d90
                cc[nc] = g + turns[1]
                cm[nc] = 6 + right
                nc += 1
                i135 = w1 + off[d135]            # the wall back beside the start cell
                if grid[i135] == 0:
                    continue
                if use_diag and grid[i135 + off[d135]]:
                    cv[nc] = i135 * 8 + d135
                    cc[nc] = g + turns[2]
                    cm[nc] = 8 + right
                    nc += 1
                cv[nc] = (p + 2 * off[d90]) * 8 + ((h + 4) & 7)
                cc[nc] = g + turns[3]
                cm[nc] = 10 + right
                nc += 1
        else:
            oh = off[h]
            f = p + oh                           # the next wall on the diagonal
            if grid[f] == 0:
                continue
            if not (prune and move[u] == 2):
                q = f
                m = 1
                while grid[q + oh]:              # D m: ends on a wall whose next is open
                    cv[nc] = q * 8 + h
                    cc[nc] = g + diag[m]
                    cm[nc] = 2
                    nc += 1
                    q += oh
                    m += 1
            # turn towards the axis heading that crosses f
            a = (h - 1) & 7
            if (a % 4 == 0) == (horiz[f] == 1):
                s = -1
                right = 0
            else:
                s = 1
                right = 1
            d45 = (h + s) & 7
            d90 = (h + 2 * s) & 7
            d135 = (h + 3 * s) & 7
            cv[nc] = (f + off[d45]) * 8 + d45
            cc[nc] = g + turns[0]
            cm[nc] = 12 + right
            nc += 1
            i90 = f + off[d90]
            if grid[i90]:
                if grid[i90 + off[d90]]:
                    cv[nc] = i90 * 8 + d90
                    cc[nc] = g + turns[4]
                    cm[nc] = 14 + right
                    nc += 1
                cv[nc] = (i90 + off[d135]) * 8 + d135
                cc[nc] = g + turns[2]
                cm[nc] = 16 + right
                nc += 1
    # leave the buckets empty for the next search (it may have ended early)
    for i in range(len(occ)):
        w = occ[i]
        while w != 0:
            low = w & -w
            b = (i << 5) + _LOW_BIT[(low * 0x077CB531 & 0xFFFFFFFF) >> 27]
            head[b] = -1
            tail[b] = -1
            w ^= low
        occ[i] = 0
    return end


def runs_dial(grid, goal, gen, off, starts, n_starts, runs, prune, dist, stamp, parent,
              head, tail, nxt, prv, occ):
    """Dial's search over cell centres, one edge per straight run priced
    ``runs[n]`` (integers, each < ``len(head)``, a power of two; the table
    longer than any run of the maze); returns the goal position or -1.

    ``off`` holds the four axis offsets N E S W (``off[2]`` is the row
    width); ``head``/``tail`` must hold -1 and ``occ`` 0, as they do
    again on return. ``prune``: see the module notes (a cell reached by a run
    expands only the two directions across it).
    """
    mask = len(head) - 1
    width = off[2]
    live = 0
    for i in range(n_starts):
        s = starts[i]
        stamp[s] = gen
        dist[s] = 0
        parent[s] = -1
        t0 = tail[0]
        nxt[s] = -1
        prv[s] = t0
        if t0 >= 0:
            nxt[t0] = s
        else:
            head[0] = s
            occ[0] |= 1
        tail[0] = s
        live += 1
    cur = 0
    end = -1
    while live > 0:
        # the next non-empty bucket: 32 at a time, then the lowest set bit
        b = cur & mask
        w = occ[b >> 5] >> (b & 31)
        while w == 0:
            cur += 32 - (b & 31)
            b = cur & mask
            w = occ[b >> 5]
        cur += _LOW_BIT[((w & -w) * 0x077CB531 & 0xFFFFFFFF) >> 27]
        b = cur & mask
        u = head[b]
        nx = nxt[u]
        head[b] = nx
        if nx >= 0:
            prv[nx] = -1
        else:
            tail[b] = -1
            occ[b >> 5] &= ~(1 << (b & 31))
        live -= 1
        if goal[u] == gen:
            end = u
            break
        g = cur                                  # == dist[u]: no stale entries
        d = 0
        step = 1
        pu = parent[u]
        if prune and pu >= 0:
            step = 2                             # across the run that reached u
            d = 0 if -width < u - pu < width else 1
        while d < 4:
            od = off[d]
            q = u
            m = 1
            while grid[q + od]:
                q += 2 * od
                c = g + runs[m]
                m += 1
                if stamp[q] == gen:
                    if c >= dist[q]:
                        continue
                    ob = dist[q] & mask          # move q to its new bucket
                    pv = prv[q]
                    nx = nxt[q]
                    if pv >= 0:
                        nxt[pv] = nx
                    else:
                        head[ob] = nx
                    if nx >= 0:
                        prv[nx] = pv
                    else:
                        tail[ob] = pv
                    if head[ob] < 0:
                        occ[ob >> 5] &= ~(1 << (ob & 31))
                    live -= 1
                else:
                    stamp[q] = gen
                dist[q] = c
                parent[q] = u
                bq = c & mask
                tb = tail[bq]
                nxt[q] = -1
                prv[q] = tb
                if tb >= 0:
                    nxt[tb] = q
                else:
                    head[bq] = q
                    occ[bq >> 5] |= 1 << (bq & 31)
                tail[bq] = q
                live += 1
            d += step
    # leave the buckets empty for the next search (it may have ended early)
    for i in range(len(occ)):
        w = occ[i]
        while w != 0:
            low = w & -w
            b = (i << 5) + _LOW_BIT[(low * 0x077CB531 & 0xFFFFFFFF) >> 27]
            head[b] = -1
            tail[b] = -1
            w ^= low
        occ[i] = 0
    return end
