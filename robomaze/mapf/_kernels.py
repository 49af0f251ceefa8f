"""numba kernels of the MAPF solvers: graph, distances, space-time search, MDDs, PIBT.

Vertices are row-major grid cells (``v = row * cols + col``); ``nbr[v, :deg[v]]``
are a vertex's 4-neighbours. Blocked-at-time tables are dense ``int32[T, V]``
arrays: ``-1`` free, ``-2`` a CBS vertex constraint, ``j >= 0`` reserved by
agent ``j`` (prioritised planning; the swap test reads the ids).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._search import heap_grow, heap_pop, heap_push
from ._bodies import body_step

INF = np.int32(1 << 30)


# ---------------------------------------------------------------- graph
@njit(cache=True)
def grid_neighbours(valid):
    """4-neighbours (north, west, east, south) of every valid cell."""
    h, w = valid.shape
    nbr = np.full((h * w, 4), -1, np.int32)
    deg = np.zeros(h * w, np.int32)
    for r in range(h):
        for c in range(w):
            if not valid[r, c]:
                continue
            v = r * w + c
            k = 0
            if r > 0 and valid[r - 1, c]:
                nbr[v, k] = v - w
                k += 1
            if c > 0 and valid[r, c - 1]:
                nbr[v, k] = v - 1
                k += 1
            if c + 1 < w and valid[r, c + 1]:
                nbr[v, k] = v + 1
                k += 1
            if r + 1 < h and valid[r + 1, c]:
                nbr[v, k] = v + w
                k += 1
            deg[v] = k
    return nbr, deg


@njit(cache=True)
def goal_distances(nbr, deg, goals):
    """``dist[i, v]``: BFS steps from ``v`` to ``goals[i]`` (-1 unreachable)."""
    nv = nbr.shape[0]
    n = goals.shape[0]
    dist = np.full((n, nv), -1, np.int32)
    queue = np.empty(nv, np.int32)
    for i in range(n):
        g = goals[i]
        d = dist[i]
        d[g] = 0
        queue[0] = g
        head = 0
        tail = 1
        while head < tail:
            v = queue[head]
            head += 1
            for k in range(deg[v]):
                u = nbr[v, k]
                if d[u] < 0:
                    d[u] = d[v] + 1
                    queue[tail] = u
                    tail += 1
    return dist


# ---------------------------------------------------------------- heap
# The core's heap (robomaze._search._heap): keys ordered, equal keys larger g
# first. Open list: key f, g the arrival time (deeper first, as before);
# focal list: key conflicts * G + f, g the arrival time. Both are exact
# integers in float64 (conflicts and f stay far below 2**32 and G = 2**20).
@njit(cache=True, inline="always")
def _room(hk, hg, hn, size):
    if size == hk.shape[0]:
        return heap_grow(hk, hg, hn)
    return hk, hg, hn


# ---------------------------------------------------------------- space-time search
@njit(cache=True)
def _blocked(v, t, blk, goal_from):
    if t < blk.shape[0] and blk[t, v] != -1:
        return True
    return t >= goal_from[v]


@njit(cache=True)
def _swap(u, v, t, blk, econs, point):
    """Whether the move ``u -> v`` from ``t`` to ``t + 1`` is forbidden."""
    for k in range(econs.shape[0]):
        if econs[k, 0] == t and econs[k, 1] == u and econs[k, 2] == v:
            return True
    if point and u != v and t + 1 < blk.shape[0]:
        j = blk[t, v]
        if j >= 0 and blk[t + 1, u] == j:
            return True
    return False


@njit(cache=True)
def _conf(v, t, cat, cat_final):
    if cat.shape[0] == 0:
        return 0
    if t < cat.shape[0]:
        return np.int64(cat[t, v])
    return np.int64(cat_final[v])


@njit(cache=True)
def st_astar(nbr, deg, h, start, goal, blk, econs, goal_from, cat, cat_final,
             w, max_expand, point):
    """Focal space-time A* for one agent (``w = 1``: A* breaking ties on conflicts).

    Minimises arrival time (the agent waits at its goal after it) under
    the blocked table ``blk``, the edge constraints ``econs`` (rows
    ``t, u, v``), ``goal_from[v]`` (blocked from that time on) and counts
    conflicts with the other agents' table ``cat`` (``cat_final`` after
    its end) as the focal list's key. Returns ``(path, cost, lower bound,
    expansions)``; ``cost = -1`` when no path exists, ``-2`` when
    ``max_expand`` is spent.
    """
    nv = nbr.shape[0]
    empty = np.empty(0, np.int32)
    if h[start] < 0 or _blocked(start, 0, blk, goal_from):
        return empty, -1, -1, 0
    if goal_from[goal] < INF:
        return empty, -1, -1, 0
    # the agent may stop at its goal only after the last time it is blocked there
    last = -1
    for t in range(blk.shape[0]):
        if blk[t, goal] != -1:
            last = t
    tc = max(blk.shape[0], cat.shape[0]) + 1   # states beyond tc are time-independent
    horizon = tc + nv + 1
    nstate = (tc + 1) * nv
    best = np.full(nstate, -1, np.int32)       # node id of a state's current node
    closed = np.zeros(nstate, np.bool_)
    cap = 1024
    nvert = np.empty(cap, np.int32)
    ntime = np.empty(cap, np.int32)
    npar = np.empty(cap, np.int32)
    nconf = np.empty(cap, np.int64)
    nf = np.empty(cap, np.int64)
    okeys = np.empty(256, np.float64)
    ogs = np.empty(256, np.float64)
    onodes = np.empty(256, np.int64)
    osize = 0
    fkeys = np.empty(256, np.float64)
    fgs = np.empty(256, np.float64)
    fnodes = np.empty(256, np.int64)
    fsize = 0
    G = np.int64(1 << 20)
    nn = 0
    nvert[0] = start
    ntime[0] = 0
    npar[0] = -1
    nconf[0] = _conf(start, 0, cat, cat_final)
    f0 = np.int64(h[start])
    nf[0] = f0
    nn = 1
    best[start] = 0
    osize = heap_push(okeys, ogs, onodes, osize, np.float64(f0), 0.0, 0)
    fsize = heap_push(fkeys, fgs, fnodes, fsize, np.float64(nconf[0] * G + f0), 0.0, 0)
    fmin = f0
    expanded = 0
    while fsize > 0:
        node, _, _, fsize = heap_pop(fkeys, fgs, fnodes, fsize)
        v = nvert[node]
        t = ntime[node]
        ts = min(t, tc)
        s = ts * nv + v
        if closed[s] or best[s] != node:
            continue
        if v == goal and t > last:
            # lower bound: the least f still open (the focal node's own f if smaller)
            lb = nf[node]
            while osize > 0:
                o = onodes[0]
                so = min(ntime[o], tc) * nv + nvert[o]
                if closed[so] or best[so] != o or o == node:
                    o, _, _, osize = heap_pop(okeys, ogs, onodes, osize)
                    continue
                break
            if osize > 0 and nf[onodes[0]] < lb:
                lb = nf[onodes[0]]
            path = np.empty(t + 1, np.int32)
            k = node
            for i in range(t, -1, -1):
                path[i] = nvert[k]
                k = npar[k]
            return path, t, lb, expanded
        closed[s] = True
        expanded += 1
        if expanded > max_expand:
            return empty, -2, -1, expanded
        if t + 1 > horizon:
            continue
        for k in range(deg[v] + 1):
            u = v if k == deg[v] else nbr[v, k]
            t1 = t + 1
            if _blocked(u, t1, blk, goal_from) or _swap(v, u, t, blk, econs, point):
                continue
            s1 = min(t1, tc) * nv + u
            if closed[s1]:
                continue
            c1 = nconf[node] + _conf(u, t1, cat, cat_final)
            old = best[s1]
            if old >= 0 and (ntime[old] < t1 or (ntime[old] == t1 and nconf[old] <= c1)):
                continue
            if nn == nvert.shape[0]:
                m = 2 * nn
                a1 = np.empty(m, np.int32)
                a1[:nn] = nvert[:nn]
                nvert = a1
                a2 = np.empty(m, np.int32)
                a2[:nn] = ntime[:nn]
                ntime = a2
                a3 = np.empty(m, np.int32)
                a3[:nn] = npar[:nn]
                npar = a3
                a4 = np.empty(m, np.int64)
                a4[:nn] = nconf[:nn]
                nconf = a4
                a5 = np.empty(m, np.int64)
                a5[:nn] = nf[:nn]
                nf = a5
            nvert[nn] = u
            ntime[nn] = t1
            npar[nn] = node
            nconf[nn] = c1
            f1 = np.int64(t1 + h[u])
            nf[nn] = f1
            best[s1] = nn
            okeys, ogs, onodes = _room(okeys, ogs, onodes, osize)
            osize = heap_push(okeys, ogs, onodes, osize, np.float64(f1), np.float64(t1), nn)
            if f1 <= w * fmin:
                fkeys, fgs, fnodes = _room(fkeys, fgs, fnodes, fsize)
                fsize = heap_push(fkeys, fgs, fnodes, fsize, np.float64(c1 * G + f1),
                                  np.float64(t1), nn)
            nn += 1
        # the least open f may have grown: admit the nodes it now lets into focal
        while osize > 0:
            o = onodes[0]
            so = min(ntime[o], tc) * nv + nvert[o]
            if closed[so] or best[so] != o:
                o, _, _, osize = heap_pop(okeys, ogs, onodes, osize)
                continue
            break
        if osize == 0:
            continue
        nmin = nf[onodes[0]]
        if nmin > fmin:
            old_bound = w * fmin
            fmin = nmin
            for i in range(osize):
                o = onodes[i]
                so = min(ntime[o], tc) * nv + nvert[o]
                if closed[so] or best[so] != o:
                    continue
                if old_bound < nf[o] <= w * fmin:
                    fkeys, fgs, fnodes = _room(fkeys, fgs, fnodes, fsize)
                    fsize = heap_push(fkeys, fgs, fnodes, fsize,
                                      np.float64(nconf[o] * G + nf[o]),
                                      np.float64(ntime[o]), o)
        if fsize == 0 and osize > 0:
            o = onodes[0]
            fkeys, fgs, fnodes = _room(fkeys, fgs, fnodes, fsize)
            fsize = heap_push(fkeys, fgs, fnodes, fsize, np.float64(nconf[o] * G + nf[o]),
                              np.float64(ntime[o]), o)
    return empty, -1, -1, expanded


@njit(cache=True)
def mdd_singletons(nbr, deg, h, start, goal, cost, blk, econs):
    """``single[t]``: the one vertex of the agent's MDD layer ``t`` (``-1`` if
    the layer holds several), for paths of length ``cost`` under the
    constraints (``blk`` with ``-2`` entries, ``econs`` rows ``t, u, v``)."""
    nv = nbr.shape[0]
    layer = np.zeros((cost + 1, nv), np.bool_)
    fr = np.empty(nv, np.int32)
    nfr = 1
    fr[0] = start
    layer[0, start] = True
    nxt = np.empty(nv, np.int32)
    for t in range(cost):
        nn = 0
        for i in range(nfr):
            v = fr[i]
            for k in range(deg[v] + 1):
                u = v if k == deg[v] else nbr[v, k]
                if layer[t + 1, u] or h[u] < 0 or h[u] > cost - t - 1:
                    continue
                if t + 1 < blk.shape[0] and blk[t + 1, u] != -1:
                    continue
                bad = False
                for e in range(econs.shape[0]):
                    if econs[e, 0] == t and econs[e, 1] == v and econs[e, 2] == u:
                        bad = True
                        break
                if bad:
                    continue
                layer[t + 1, u] = True
                nxt[nn] = u
                nn += 1
        for i in range(nn):
            fr[i] = nxt[i]
        nfr = nn
    single = np.full(cost + 1, -1, np.int32)
    keep = np.zeros(nv, np.bool_)
    keep2 = np.zeros(nv, np.bool_)
    if not layer[cost, goal]:
        return single
    keep[goal] = True
    single[cost] = goal
    for t in range(cost - 1, -1, -1):
        cnt = 0
        last = -1
        for v in range(nv):
            keep2[v] = False
            if not layer[t, v]:
                continue
            for k in range(deg[v] + 1):
                u = v if k == deg[v] else nbr[v, k]
                if keep[u]:
                    bad = False
                    for e in range(econs.shape[0]):
                        if econs[e, 0] == t and econs[e, 1] == v and econs[e, 2] == u:
                            bad = True
                            break
                    if not bad:
                        keep2[v] = True
                        break
            if keep2[v]:
                cnt += 1
                last = v
        for v in range(nv):
            keep[v] = keep2[v]
        single[t] = last if cnt == 1 else -1
    return single


# ---------------------------------------------------------------- PIBT
@njit(cache=True, inline="always")
def _rand(state):
    # xorshift64*: the tie-breaking stream, seeded from the method stage
    x = state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[0] = x
    return x * np.uint64(2685821657736338717)


@njit(cache=True)
def pibt_step(nbr, deg, dist, q_from, order, pin_who, pin_where, npin, state,
              q_to, occ_now, occ_next, stack, kidx, cand, ncand):
    """One PIBT step from ``q_from`` into ``q_to`` with the first ``npin``
    agents of ``pin_who`` pinned to ``pin_where`` (LaCAM's constraints).

    ``occ_now``/``occ_next`` are ``-1``-filled work arrays of one entry per
    vertex (left ``-1``-filled on return). Returns whether a configuration
    was found.
    """
    n = q_from.shape[0]
    touched = np.empty(6 * n + npin + 1, np.int32)
    keys = np.empty(5, np.uint64)
    nt = 0
    for i in range(n):
        q_to[i] = -1
        occ_now[q_from[i]] = i
    ok = True
    for k in range(npin):
        i = pin_who[k]
        v = pin_where[k]
        if occ_next[v] != -1:
            ok = False
            break
        j = occ_now[v]
        if j != -1 and j != i and q_to[j] == q_from[i]:
            ok = False
            break
        q_to[i] = v
        occ_next[v] = i
        touched[nt] = v
        nt += 1
    if ok:
        for oi in range(n):
            a = order[oi]
            if q_to[a] != -1:
                continue
            # iterative priority inheritance: one frame per agent on the chain
            depth = 0
            stack[0] = a
            kidx[0] = 0
            _candidates(nbr, deg, dist, q_from[a], a, state, cand, ncand, 0, keys, occ_now)
            result = False
            returning = False
            while depth >= 0:
                i = stack[depth]
                v = q_from[i]
                if returning:
                    returning = False
                    if result:
                        depth -= 1
                        returning = True
                        continue
                pushed = False
                found = False
                while kidx[depth] < ncand[depth]:
                    u = cand[depth, kidx[depth]]
                    kidx[depth] += 1
                    if occ_next[u] != -1:
                        continue
                    j = occ_now[u]
                    if j != -1 and q_to[j] == v:
                        continue
                    occ_next[u] = i
                    touched[nt] = u
                    nt += 1
                    q_to[i] = u
                    if j != -1 and j != i and q_to[j] == -1:
                        depth += 1
                        stack[depth] = j
                        kidx[depth] = 0
                        _candidates(nbr, deg, dist, q_from[j], j, state, cand, ncand, depth, keys, occ_now)
                        pushed = True
                        break
                    found = True
                    break
                if pushed:
                    continue
                if not found:
                    # no free move: stay put (the caller's chain must make room)
                    occ_next[v] = i
                    touched[nt] = v
                    nt += 1
                    q_to[i] = v
                result = found
                depth -= 1
                returning = True
            if not result:
                ok = False
                break
    for i in range(n):
        occ_now[q_from[i]] = -1
    for k in range(nt):
        occ_next[touched[k]] = -1
    return ok


@njit(cache=True, inline="always")
def _candidates(nbr, deg, dist, v, i, state, cand, ncand, depth, keys, occ_now):
    """The agent's moves (neighbours and staying), nearest to its goal first;
    among equals a vertex nobody holds now first (no one to push, as in
    LaCAM3's PIBT), then at random."""
    m = deg[v] + 1
    for k in range(m):
        u = v if k == deg[v] else nbr[v, k]
        cand[depth, k] = u
        held = np.uint64(1) if (occ_now[u] != -1 and u != v) else np.uint64(0)
        keys[k] = (np.uint64(dist[i, u]) << np.uint64(32)) | (held << np.uint64(31)) \
            | (_rand(state) >> np.uint64(40))
    for a in range(1, m):
        ku = keys[a]
        cu = cand[depth, a]
        b = a - 1
        while b >= 0 and keys[b] > ku:
            keys[b + 1] = keys[b]
            cand[depth, b + 1] = cand[depth, b]
            b -= 1
        keys[b + 1] = ku
        cand[depth, b + 1] = cu
    ncand[depth] = m


@njit(cache=True)
def pibt_run(nbr, deg, dist, starts, goals, max_steps, seed, size=1, cols=1):
    """PIBT from ``starts`` until every agent stands on its goal or ``max_steps``
    steps; returns ``(configs[T + 1, n], solved)``. Priorities grow while an
    agent is away from its goal and drop to their fraction on it. Bodies of
    ``size > 1`` cells a side (on a grid ``cols`` wide) step by
    :func:`._bodies.body_step`."""
    n = starts.shape[0]
    nv = nbr.shape[0]
    state = np.empty(1, np.uint64)
    state[0] = np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(1)
    prio = np.empty(n, np.float64)
    for i in range(n):
        prio[i] = dist[i, starts[i]] / (nv + 1.0)
    configs = np.empty((max_steps + 1, n), np.int32)
    configs[0] = starts
    occ_now = np.full(nv, -1, np.int32)
    occ_next = np.full(nv, -1, np.int32)
    stack = np.empty(n, np.int32)
    kidx = np.empty(n, np.int32)
    cand = np.empty((n, 5), np.int32)
    ncand = np.empty(n, np.int32)
    pin = np.empty(0, np.int32)
    q_to = np.empty(n, np.int32)
    chain = np.zeros(n, np.bool_)
    for t in range(max_steps):
        q = configs[t]
        done = True
        for i in range(n):
            if q[i] != goals[i]:
                done = False
                break
        if done:
            return configs[: t + 1].copy(), True
        order = np.argsort(-prio, kind="mergesort").astype(np.int32)
        if size == 1:
            moved = pibt_step(nbr, deg, dist, q, order, pin, pin, 0, state, q_to,
                              occ_now, occ_next, stack, kidx, cand, ncand)
        else:
            moved = body_step(nbr, deg, dist, q, order, pin, pin, 0, state, q_to,
                              occ_now, occ_next, chain, cand, size, cols)
        if not moved:
            return configs[: t + 1].copy(), False
        configs[t + 1] = q_to
        for i in range(n):
            if q_to[i] == goals[i]:
                prio[i] -= np.floor(prio[i])
            else:
                prio[i] += 1.0
    q = configs[max_steps]
    for i in range(n):
        if q[i] != goals[i]:
            return configs, False
    return configs, True
