"""The route searches with integer costs and a bucket queue (Dial's algorithm).

Plain Python that numba also compiles: :mod:`._route_kernels` wraps these
functions with ``njit`` for repeated searches, and a one-shot search (the
``robomaze mouse route`` command) runs them as they are, on lists, without
importing numba (its import alone costs more CPU than the whole search in
Python). One algorithm in both, so both give the same route bit for bit.

The graph is the half-cell grid of :mod:`._route_kernels` (states ``p * 8 +
h``; the runs model: positions). Every edge cost is a non-negative integer
below ``len(head)`` -- the number of buckets -- so bucket ``c % len(head)``
holds exactly the entries of cost ``c`` while the search scans costs upwards
from the cost last settled (Dial 1969); entries are FIFO within a bucket.
The number of buckets is a power of two (a mask, not a division, per step);
``occ`` (``len(head) // 32`` int64 words of 32 bits) marks the non-empty
ones, so a search steps over runs of empty costs 32 at a time.
Scratch arrays belong to the caller and are reused across searches: a state
is reached in this search when ``stamp[v] == gen`` (no clearing between
searches); bucket entries are linked lists in a pool (``enode``, ``enext``)
with a free list. Each search returns the goal state it settled first
(optimal: it settles states in cost order), -1 when no goal is reachable,
or -2 when the pool is too small (the caller grows it and searches again).

Move codes as in :mod:`._route_kernels`: ``2 * kind + (side == right)``.
"""

from __future__ import annotations

__all__ = ["slalom_dial", "runs_dial"]

#: The position of a 32-bit word's only set bit, by de Bruijn's multiply
#: (``(bit * 0x077CB531) mod 2**32 >> 27``): the search skips empty buckets
#: 32 at a time through ``occ``, one bit per bucket
_LOW_BIT = (0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
            31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9)


def slalom_dial(passable, horiz, goal, off, starts, along, diag, turns, use_diag, pivot,
                dist, stamp, gen, parent, move, head, tail, occ, enode, enext, cv, cc, cm):
    """Dial's search on the slalom graph; returns the goal state, -1 or -2.

    ``along[n]`` / ``diag[n]`` / ``turns`` / ``pivot`` are integer costs
    (``pivot`` < 0: no FS90), each below ``len(head)``, a power of two;
    ``head``/``tail`` (one per bucket) must hold -1 and ``occ`` 0;
    they hold -1 again on return. ``cv``/``cc``/``cm`` hold at least
    ``len(along) + len(diag) + 16`` candidates.
    """
    nb = len(head)
    mask = nb - 1
    n_along = len(along)
    n_diag = len(diag)
    cap = len(enode)
    free = -1
    used = 0
    live = 0
    for s in starts:
        stamp[s] = gen
        dist[s] = 0
        parent[s] = -1
        move[s] = 0
        if used == cap:
            return -2
        e = used
        used += 1
        enode[e] = s
        enext[e] = -1
        if tail[0] < 0:
            head[0] = e
            occ[0] |= 1
        else:
            enext[tail[0]] = e
        tail[0] = e
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
            if stamp[v] != gen or c < dist[v]:
                stamp[v] = gen
                dist[v] = c
                parent[v] = u
                move[v] = cm[j]
                if free >= 0:
                    e = free
                    free = enext[e]
                elif used < cap:
                    e = used
                    used += 1
                else:
                    end = -2
                    break
                enode[e] = v
                enext[e] = -1
                b = c & mask
                if tail[b] < 0:
                    head[b] = e
                    occ[b >> 5] |= 1 << (b & 31)
                else:
                    enext[tail[b]] = e
                tail[b] = e
                live += 1
        nc = 0
        if end == -2 or live == 0:
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
        e = head[b]
        head[b] = enext[e]
        if head[b] < 0:
            tail[b] = -1
            occ[b >> 5] &= ~(1 << (b & 31))
        live -= 1
        u = enode[e]
        enext[e] = free
        free = e
        g = dist[u]
        if g != cur:                             # a stale entry: u was improved since
            continue
        p = u >> 3
        h = u & 7
        if h % 2 == 0:
            if goal[p]:
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
            if passable[f] == 0:
                continue
            q = p
            m = 1
            while m < n_along:                   # S m: every wall ahead open
                w = q + oh
                if passable[w] == 0:
                    break
                q = w + oh
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
                if passable[w1] == 0:
                    continue
                if use_diag and passable[w1 + off[d45]]:
                    cv[nc] = w1 * 8 + d45
                    cc[nc] = g + turns[0]
                    cm[nc] = 4 + right
                    nc += 1
                cv[nc] = (p + 2 * oh + 2 * off[d90]) * 8 + d90
                cc[nc] = g + turns[1]
                cm[nc] = 6 + right
                nc += 1
                i135 = w1 + off[d135]            # the wall back beside the start cell
                if passable[i135] == 0:
                    continue
                if use_diag and passable[i135 + off[d135]]:
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
            if passable[f] == 0:
                continue
            q = p
            m = 1
            while m < n_diag:                    # D m: ends on a wall whose next is open
                nxt = q + oh
                if passable[nxt + oh] == 0:
                    break
                cv[nc] = nxt * 8 + h
                cc[nc] = g + diag[m]
                cm[nc] = 2
                nc += 1
                q = nxt
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
            if passable[i90]:
                if passable[i90 + off[d90]]:
                    cv[nc] = i90 * 8 + d90
                    cc[nc] = g + turns[4]
                    cm[nc] = 14 + right
                    nc += 1
                cv[nc] = (i90 + off[d135]) * 8 + d135
                cc[nc] = g + turns[2]
                cm[nc] = 16 + right
                nc += 1
    # leave the buckets empty for the next search
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


def runs_dial(passable, goal, off, start, runs, dist, stamp, gen, parent, head, tail, occ,
              enode, enext):
    """Dial's search over cell centres, one edge per straight run priced
    ``runs[n]`` (integers, each < ``len(head)``, a power of two); returns the goal position, -1 or -2.

    ``off`` holds the four axis offsets N E S W; ``head``/``tail`` must hold
    -1 and ``occ`` 0, as they do again on return.
    """
    nb = len(head)
    mask = nb - 1
    n_runs = len(runs)
    cap = len(enode)
    if cap == 0:
        return -2
    stamp[start] = gen
    dist[start] = 0
    parent[start] = -1
    enode[0] = start
    enext[0] = -1
    head[0] = 0
    tail[0] = 0
    occ[0] |= 1
    used = 1
    free = -1
    live = 1
    cur = 0
    end = -1
    while live > 0 and end == -1:
        # the next non-empty bucket: 32 at a time, then the lowest set bit
        b = cur & mask
        w = occ[b >> 5] >> (b & 31)
        while w == 0:
            cur += 32 - (b & 31)
            b = cur & mask
            w = occ[b >> 5]
        cur += _LOW_BIT[((w & -w) * 0x077CB531 & 0xFFFFFFFF) >> 27]
        b = cur & mask
        e = head[b]
        head[b] = enext[e]
        if head[b] < 0:
            tail[b] = -1
            occ[b >> 5] &= ~(1 << (b & 31))
        live -= 1
        p = enode[e]
        enext[e] = free
        free = e
        g = dist[p]
        if g != cur:
            continue
        if goal[p]:
            end = p
            break
        for d in range(4):
            od = off[d]
            q = p
            m = 1
            while m < n_runs:
                w = q + od
                if passable[w] == 0:
                    break
                q = w + od
                c = g + runs[m]
                m += 1
                if stamp[q] == gen and c >= dist[q]:
                    continue
                stamp[q] = gen
                dist[q] = c
                parent[q] = p
                if free >= 0:
                    e = free
                    free = enext[e]
                elif used < cap:
                    e = used
                    used += 1
                else:
                    end = -2
                    break
                enode[e] = q
                enext[e] = -1
                bq = c & mask
                if tail[bq] < 0:
                    head[bq] = e
                    occ[bq >> 5] |= 1 << (bq & 31)
                else:
                    enext[tail[bq]] = e
                tail[bq] = e
                live += 1
            if end == -2:
                break
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
