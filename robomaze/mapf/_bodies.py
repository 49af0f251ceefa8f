"""PIBT's step for agents with bodies: ``size x size`` squares that conflict by overlap.

A body is named by its top-left (reference) cell ``v = row * cols + col``
and covers ``v + dr * cols + dc`` for ``0 <= dr, dc < size``. Point PIBT
(:func:`._kernels.pibt_step`) pushes the one agent standing on the cell it
wants; a body's next place may overlap the current bodies of several
agents (at most four: each must hold one of the window's corner cells), so
here an agent reserves a place, then asks every agent it overlaps to move
away (priority inheritance to each, depth first). If one of them cannot,
the place is released and the next candidate tried; agents that did move
keep their moves (each was checked against every reservation made before
it, so it stays valid when a reservation is dropped).

Two rules keep a failed agent's *stay* safe: an agent may not move into the
current body of an agent on the inheritance chain above it (that agent may
yet have to stay), and an agent on the chain is never pushed again. A
failed agent's stay can then overlap only its ancestors' reservations,
which they see and release. Rotations (a cycle of agents each moving into
the next one's place) are therefore not found within one step, as for
point PIBT's swaps; LaCAM's constraints (every agent pinned) still reach
every collision-free successor, so LaCAM* stays complete. For square
bodies of side >= 2 two agents that swap or pass through each other overlap
at ``t`` or ``t + 1``, so vertex overlap is the only conflict; for side 1
the chain rule forbids swaps.

The step ends with an independent check of the whole next configuration
(every cell covered at most once); any overlap fails the step.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["body_step", "body_free"]


@njit(cache=True)
def _overlap(a, b, size, cols):
    ra, ca = a // cols, a % cols
    rb, cb = b // cols, b % cols
    return abs(ra - rb) < size and abs(ca - cb) < size


@njit(cache=True)
def _mark(grid, v, size, cols, who, only):
    """Set the body's cells of ``grid`` to ``who`` (where they hold ``only``,
    or anywhere if ``only < -1``)."""
    for dr in range(size):
        base = v + dr * cols
        for dc in range(size):
            if only < -1 or grid[base + dc] == only:
                grid[base + dc] = who


@njit(cache=True)
def _order_moves(nbr, deg, dist, v, i, state, cand, depth, cur):
    """Agent ``i``'s moves from ``v`` (neighbours and staying), nearest to its
    goal first; among equals a place nobody stands on now first, then at random."""
    m = deg[v] + 1
    keys = np.empty(m, np.uint64)
    for k in range(m):
        u = v if k == deg[v] else nbr[v, k]
        cand[depth, k] = u
        held = np.uint64(1) if (cur[u] != -1 and cur[u] != i) else np.uint64(0)
        x = state[0]
        x ^= x >> np.uint64(12)
        x ^= x << np.uint64(25)
        x ^= x >> np.uint64(27)
        state[0] = x
        r = x * np.uint64(2685821657736338717)
        keys[k] = (np.uint64(dist[i, u]) << np.uint64(32)) | (held << np.uint64(31)) \
            | (r >> np.uint64(40))
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
    return m


@njit(cache=True)
def _push_body(a, nbr, deg, dist, q_from, q_to, cur, nxt, chain, state, cand, size, cols,
               stk):
    """Move agent ``a``, priority inheritance to the bodies in its way (depth
    first, one frame per agent on the chain: an explicit stack, as numba's
    cache cannot hold a self-recursive function). Returns False if ``a`` had to
    stay against a reservation. ``stk`` is an ``(n, 10)`` int64 work array:
    agent, next candidate, candidates, reserved place (-1 none), blockers,
    next blocker, then up to four blockers."""
    depth = 0
    _frame(stk, 0, a, nbr, deg, dist, q_from, state, cand, cur, chain)
    ret = True
    while depth >= 0:
        i = stk[depth, 0]
        u = stk[depth, 3]
        if u != -1:
            # a place is reserved: every body in its way must have moved off it
            pushed = False
            failed = False
            while stk[depth, 5] < stk[depth, 4]:
                j = stk[depth, 6 + stk[depth, 5]]
                if q_to[j] == -1:
                    depth += 1
                    _frame(stk, depth, j, nbr, deg, dist, q_from, state, cand, cur, chain)
                    pushed = True
                    break
                if _overlap(q_to[j], u, size, cols):
                    failed = True
                    break
                stk[depth, 5] += 1
            if pushed:
                continue
            if not failed:
                chain[i] = False
                ret = True
                depth -= 1
                continue
            _mark(nxt, u, size, cols, -1, i)
            q_to[i] = -1
            stk[depth, 3] = -1
        # the next candidate place
        found = False
        while stk[depth, 1] < stk[depth, 2]:
            u = cand[depth, stk[depth, 1]]
            stk[depth, 1] += 1
            ok = True
            nb = 0
            for dr in range(size):
                base = u + dr * cols
                for dc in range(size):
                    c = base + dc
                    if nxt[c] != -1:
                        ok = False
                        break
                    o = cur[c]
                    if o != -1 and o != i:
                        if chain[o]:
                            ok = False
                            break
                        if q_to[o] == -1:
                            seen = False
                            for b in range(nb):
                                if stk[depth, 6 + b] == o:
                                    seen = True
                            if not seen:
                                stk[depth, 6 + nb] = o
                                nb += 1
                if not ok:
                    break
            if ok:
                q_to[i] = u
                _mark(nxt, u, size, cols, i, -2)
                stk[depth, 3] = u
                stk[depth, 4] = nb
                stk[depth, 5] = 0
                found = True
                break
        if found:
            continue
        # no move: stay (a chain above sees the overlap with its reservation and gives way)
        v = q_from[i]
        chain[i] = False
        clean = True
        for dr in range(size):
            base = v + dr * cols
            for dc in range(size):
                if nxt[base + dc] != -1:
                    clean = False
        q_to[i] = v
        _mark(nxt, v, size, cols, i, -2)
        ret = clean
        depth -= 1
    return ret


@njit(cache=True)
def _frame(stk, depth, i, nbr, deg, dist, q_from, state, cand, cur, chain):
    chain[i] = True
    stk[depth, 0] = i
    stk[depth, 1] = 0
    stk[depth, 2] = _order_moves(nbr, deg, dist, q_from[i], i, state, cand, depth, cur)
    stk[depth, 3] = -1
    stk[depth, 4] = 0
    stk[depth, 5] = 0


@njit(cache=True)
def body_free(q, size, cols, grid):
    """Whether the bodies at ``q`` are pairwise disjoint (``grid`` a ``-1``-filled
    work array of one entry per cell, left ``-1``-filled)."""
    ok = True
    n = q.shape[0]
    for i in range(n):
        for dr in range(size):
            base = q[i] + dr * cols
            for dc in range(size):
                if grid[base + dc] != -1:
                    ok = False
                grid[base + dc] = i
    for i in range(n):
        _mark(grid, q[i], size, cols, -1, -2)
    return ok


@njit(cache=True)
def body_step(nbr, deg, dist, q_from, order, pin_who, pin_where, npin, state, q_to,
              cur, nxt, chain, cand, size, cols):
    """One PIBT step of ``size x size`` bodies from ``q_from`` into ``q_to`` with
    the first ``npin`` agents of ``pin_who`` pinned to ``pin_where``.

    ``cur``/``nxt`` are ``-1``-filled work arrays of one entry per grid
    cell and ``chain`` a False-filled one per agent (all left so on
    return). Returns whether a collision-free configuration was found.
    """
    n = q_from.shape[0]
    stk = np.empty((n, 10), np.int64)
    for i in range(n):
        q_to[i] = -1
        _mark(cur, q_from[i], size, cols, i, -2)
    ok = True
    for k in range(npin):
        i = pin_who[k]
        v = pin_where[k]
        for dr in range(size):
            for dc in range(size):
                if nxt[v + dr * cols + dc] != -1:
                    ok = False
        if not ok:
            break
        q_to[i] = v
        _mark(nxt, v, size, cols, i, -2)
    if ok:
        for oi in range(n):
            a = order[oi]
            if q_to[a] != -1:
                continue
            if not _push_body(a, nbr, deg, dist, q_from, q_to, cur, nxt, chain, state,
                              cand, size, cols, stk):
                ok = False
                break
    for i in range(n):
        _mark(cur, q_from[i], size, cols, -1, -2)
        if q_to[i] != -1:
            _mark(nxt, q_to[i], size, cols, -1, -2)
        chain[i] = False
    if ok:
        ok = body_free(q_to, size, cols, nxt)
    return ok
