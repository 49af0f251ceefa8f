"""Numba kernels of the time-optimal route search (:mod:`robomaze.micromouse.route`).

The maze is a *half-cell grid* padded by two blocked rings: position ``p =
(R + 2) * W + (C + 2)`` for half coordinates ``(R, C)`` (cell ``(r, c)``'s
centre is ``(2r + 1, 2c + 1)``, a point with one even coordinate is the
middle of a wall); ``passable[p]`` is 1 on centres and open wall midpoints.
A state is ``p * 8 + h`` with ``h`` the heading in eighths clockwise from
north. Every move checks the wall midpoints it sweeps before it names a
state beyond them, so the padding is never crossed. The heap is the core's
(:func:`robomaze._search.heap_push`); Dijkstra stops at the first goal state
it settles, which is optimal (all costs are > 0).

The heap kernels below serve profiles whose costs are not integers; integer
costs (the library's units) take Dial's bucket queue (:mod:`._route_dial`),
through :func:`dial_entry`: one compiled call per
search with three arguments (the walls and a search object's int32 and
int64 scratch, which carries the tables, the start, the goals and the
search number), so numba's dispatch reads three argument types, not 24.

Move codes (``move[state]``): ``2 * kind + (side == right)``, kinds
:data:`KINDS`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._compile.kernels import direct_entry, inner, with_index_cast
from .._search import heap_grow, heap_pop, heap_push
from . import _route_dial

#: Move kinds in code order.
KINDS = ("S", "D", "F45in", "F90", "F135in", "F180", "F45out", "V90", "F135out", "FS90", "R")


# the bit table the bucket scan reads is indexed like the parameters
_ALSO = ("_LOW_BIT",)

#: Dial's bucket-queue searches (integer costs, scratch reused): the plain
#: Python functions of :mod:`._route_dial`, compiled, indexing unsigned
#: (:func:`robomaze._compile.kernels.with_index_cast`: no negative-index wraparound)
slalom_dial = njit(cache=True)(with_index_cast(_route_dial.slalom_dial, np.uint64, also=_ALSO))
runs_dial = njit(cache=True)(with_index_cast(_route_dial.runs_dial, np.uint64, also=_ALSO))
# one compile shared by both entries (inlined, it was typed and optimised twice:
# +1.2 s of a cold `mouse solve`)
prepare = inner(cache=True)(with_index_cast(_route_dial.prepare, np.uint64, also=_ALSO))

# section k of the int32 scratch is ws[wl[_H32 + k]:wl[_H32 + k + 1]], of the
# int64 array wl[wl[_H64 + k]:wl[_H64 + k + 1]] (module constants: numba
# folds them, where a helper taking k would be compiled once per k)
_H32, _H64 = _route_dial.H_W32, _route_dial.H_W64
(_GRID, _GOAL, _HORIZ, _DIST, _STAMP, _PARENT, _MOVE, _HEAD, _TAIL, _NXT,
 _PRV) = range(_H32, _H32 + len(_route_dial.W32))
(_OCC, _OFF, _STARTS, _GOALS, _ALONG, _DIAG, _TURNS, _RUNS, _CV, _CC,
 _CM) = range(_H64, _H64 + len(_route_dial.W64))
_GEN, _ROWS, _COLS, _WIDTH = (_route_dial.H_GEN, _route_dial.H_ROWS, _route_dial.H_COLS,
                              _route_dial.H_WIDTH)
_START, _NGOALS, _PRUNE = _route_dial.H_START, _route_dial.H_NGOALS, _route_dial.H_PRUNE
_USE_DIAG, _PIVOT, _FILL = _route_dial.H_DIAG, _route_dial.H_PIVOT, _route_dial.H_FILL


@njit(cache=True)
def dial_entry(walls, ws, wl):
    """One search on a search object's scratch (the layout of
    :data:`._route_dial.W32` / ``W64``): walls in, goals marked, Dial's
    search on the slalom graph (the header holds an ``along`` table) or the
    runs model; returns the goal state (slalom) or position (runs), or -1.

    One entry for both models: the scratch's sections are sliced once, where
    two entries compiled the same 25 slices twice (0.75 s of a cold start
    each)."""
    grid = ws[wl[_GRID]:wl[_GRID + 1]]
    goal = ws[wl[_GOAL]:wl[_GOAL + 1]]
    stamp = ws[wl[_STAMP]:wl[_STAMP + 1]]
    starts = wl[wl[_STARTS]:wl[_STARTS + 1]]
    slalom = wl[_ALONG + 1] > wl[_ALONG]
    gen, n = prepare(walls, wl[_FILL], grid, wl[_ROWS], wl[_COLS], wl[_WIDTH], goal, stamp,
                     wl[wl[_GOALS]:wl[_GOALS + 1]], wl[_NGOALS], wl[_GEN], wl[_START],
                     slalom, starts)
    wl[_GEN] = gen
    off = wl[wl[_OFF]:wl[_OFF + 1]]
    dist = ws[wl[_DIST]:wl[_DIST + 1]]
    parent = ws[wl[_PARENT]:wl[_PARENT + 1]]
    head = ws[wl[_HEAD]:wl[_HEAD + 1]]
    tail = ws[wl[_TAIL]:wl[_TAIL + 1]]
    nxt = ws[wl[_NXT]:wl[_NXT + 1]]
    prv = ws[wl[_PRV]:wl[_PRV + 1]]
    occ = wl[wl[_OCC]:wl[_OCC + 1]]
    if not slalom:
        return runs_dial(grid, goal, gen, off, starts, n, wl[wl[_RUNS]:wl[_RUNS + 1]],
                         wl[_PRUNE], dist, stamp, parent, head, tail, nxt, prv, occ)
    return slalom_dial(grid, ws[wl[_HORIZ]:wl[_HORIZ + 1]], goal, gen, off, starts, n,
                       wl[wl[_ALONG]:wl[_ALONG + 1]], wl[wl[_DIAG]:wl[_DIAG + 1]],
                       wl[wl[_TURNS]:wl[_TURNS + 1]], wl[_USE_DIAG], wl[_PIVOT], wl[_PRUNE],
                       dist, stamp, parent, ws[wl[_MOVE]:wl[_MOVE + 1]], head, tail, nxt, prv,
                       occ, wl[wl[_CV]:wl[_CV + 1]], wl[wl[_CC]:wl[_CC + 1]],
                       wl[wl[_CM]:wl[_CM + 1]])


@njit(cache=True, inline="always")
def _relax(v, c, u, code, dist, parent, move, hk, hg, hn, size):
    if c < dist[v]:
        dist[v] = c
        parent[v] = u
        move[v] = code
        if size >= hk.shape[0]:
            hk, hg, hn = heap_grow(hk, hg, hn)
        size = heap_push(hk, hg, hn, size, c, c, v)
    return hk, hg, hn, size


@njit(cache=True, inline="always")
def _cand(cv, cc, cm, nc, v, c, code):
    """Note a move to relax: state ``v`` at cost ``c``, move code ``code``."""
    cv[nc] = v
    cc[nc] = c
    cm[nc] = code
    return nc + 1


@njit(cache=True)
def slalom_search(passable, horiz, width, starts, goal, along, diag, turns, use_diag,
                  pivot):
    """Dijkstra on the slalom graph; returns ``(goal state or -1, dist, parent, move)``.

    ``starts`` are start states (cost 0); ``goal[p]`` marks goal centres;
    ``along[n]`` / ``diag[n]`` price straights of ``n`` cells / diagonal
    steps, ``turns`` the F45, F90, F135, F180 and V90 slaloms; ``horiz[p]``
    is 1 on horizontal wall midpoints. ``use_diag`` False keeps the axis
    moves only (S, F90, F180). ``pivot`` >= 0 adds FS90, a small 90-degree
    turn about a cell centre at that cost.
    """
    n = passable.shape[0] * 8
    dist = np.full(n, np.inf)
    parent = np.full(n, -1, np.int64)
    move = np.zeros(n, np.int8)
    off = np.array([-width, -width + 1, 1, width + 1, width, width - 1, -1, -width - 1],
                   np.int64)
    cap = 1 << 14
    hk = np.empty(cap, np.float64)
    hg = np.empty(cap, np.float64)
    hn = np.empty(cap, np.int64)
    size = 0
    for s in starts:
        dist[s] = 0.0
        size = heap_push(hk, hg, hn, size, 0.0, 0.0, s)
    n_along = along.shape[0]
    n_diag = diag.shape[0]
    # an expansion collects its moves (cv, cc, cm) and the next round
    # relaxes them in order before the next pop: the same heap operations in
    # the same order as relaxing at once, with _relax inlined at one place
    # instead of eleven
    cv = np.empty(n_along + n_diag + 16, np.int64)
    cc = np.empty(n_along + n_diag + 16, np.float64)
    cm = np.empty(n_along + n_diag + 16, np.int64)
    nc = 0
    u = np.int64(-1)
    while True:
        for j in range(nc):
            hk, hg, hn, size = _relax(cv[j], cc[j], u, cm[j], dist, parent, move,
                                      hk, hg, hn, size)
        nc = 0
        if size == 0:
            break
        u, g, k, size = heap_pop(hk, hg, hn, size)
        if k > dist[u]:
            continue
        p = u >> 3
        h = u & 7
        if h % 2 == 0:
            if goal[p]:
                return u, dist, parent, move
            if pivot >= 0:
                for s in (-1, 1):
                    nc = _cand(cv, cc, cm, nc, p * 8 + ((h + 2 * s) & 7), g + pivot,
                               18 + (1 if s > 0 else 0))
            f = p + off[h]
            if passable[f] == 0:
                continue
            q = p
            m = 1
            while m < n_along:                   # S m: every wall ahead open
                w = q + off[h]
                if passable[w] == 0:
                    break
                q = w + off[h]
                nc = _cand(cv, cc, cm, nc, q * 8 + h, g + along[m], 0)
                m += 1
            for s in (-1, 1):
                right = 1 if s > 0 else 0
                d45 = (h + s) & 7
                d90 = (h + 2 * s) & 7
                d135 = (h + 3 * s) & 7
                w1 = f + off[d45]                # the side wall of the cell ahead
                if passable[w1] == 0:
                    continue
                if use_diag and passable[w1 + off[d45]]:
                    nc = _cand(cv, cc, cm, nc, w1 * 8 + d45, g + turns[0], 4 + right)
                v = p + 2 * off[h] + 2 * off[d90]
                nc = _cand(cv, cc, cm, nc, v * 8 + d90, g + turns[1], 6 + right)
                i135 = w1 + off[d135]            # the wall back beside the start cell
                if passable[i135] == 0:
                    continue
                if use_diag and passable[i135 + off[d135]]:
                    nc = _cand(cv, cc, cm, nc, i135 * 8 + d135, g + turns[2], 8 + right)
                v = p + 2 * off[d90]
                nc = _cand(cv, cc, cm, nc, v * 8 + ((h + 4) & 7), g + turns[3], 10 + right)
        else:
            f = p + off[h]                       # the next wall on the diagonal
            if passable[f] == 0:
                continue
            q = p
            m = 1
            while m < n_diag:                    # D m: ends on a wall whose next is open
                nxt = q + off[h]
                if passable[nxt + off[h]] == 0:
                    break
                nc = _cand(cv, cc, cm, nc, nxt * 8 + h, g + diag[m], 2)
                q = nxt
                m += 1
            # turn towards the axis heading that crosses f
            a = (h - 1) & 7
            if (a % 4 == 0) == (horiz[f] == 1):
                s = -1
            else:
                s = 1
            right = 1 if s > 0 else 0
            d45 = (h + s) & 7
            d90 = (h + 2 * s) & 7
            d135 = (h + 3 * s) & 7
            v = f + off[d45]
            nc = _cand(cv, cc, cm, nc, v * 8 + d45, g + turns[0], 12 + right)
            i90 = f + off[d90]
            if passable[i90]:
                if passable[i90 + off[d90]]:
                    nc = _cand(cv, cc, cm, nc, i90 * 8 + d90, g + turns[4], 14 + right)
                v = i90 + off[d135]
                nc = _cand(cv, cc, cm, nc, v * 8 + d135, g + turns[2], 16 + right)
    return -1, dist, parent, move


@njit(cache=True)
def runs_search(passable, width, start, goal, runs):
    """Dijkstra over cell centres, one edge per straight run priced ``runs[n]``.

    States are positions (no heading: every run pays its own turn); returns
    ``(goal position or -1, dist, parent)``.
    """
    n = passable.shape[0]
    dist = np.full(n, np.inf)
    parent = np.full(n, -1, np.int64)
    off = np.array([-width, 1, width, -1], np.int64)
    cap = 1 << 12
    hk = np.empty(cap, np.float64)
    hg = np.empty(cap, np.float64)
    hn = np.empty(cap, np.int64)
    move = np.zeros(n, np.int8)
    dist[start] = 0.0
    size = heap_push(hk, hg, hn, 0, 0.0, 0.0, start)
    n_runs = runs.shape[0]
    while size > 0:
        p, g, k, size = heap_pop(hk, hg, hn, size)
        if k > dist[p]:
            continue
        if goal[p]:
            return p, dist, parent
        for d in range(4):
            q = p
            m = 1
            while m < n_runs:
                w = q + off[d]
                if passable[w] == 0:
                    break
                q = w + off[d]
                hk, hg, hn, size = _relax(q, g + runs[m], p, 20, dist, parent, move,
                                          hk, hg, hn, size)
                m += 1
    return -1, dist, parent
