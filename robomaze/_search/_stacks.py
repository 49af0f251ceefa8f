"""Exact 8-connected lengths on grids whose free space is a tree of rectangles (widened mazes).

The free cells of every row fall into maximal runs; a run whose row above
holds a run of exactly the same columns continues that run's *stack*, so
the free space is cut into rectangles (stacks) found from the grid alone --
no corridor width, wall width, period or offset is read or assumed. Two
stacks are adjacent when a bottom row of one and the top row of the other
overlap in columns (runs are maximal, so no two stacks meet side by side,
and a diagonal move between stacks always has a side cell in each of them,
so it joins vertically adjacent stacks too). A widened perfect maze of any
corridor and wall width -- MovingAI's ``maze512-W-*`` maps among them -- is
a tree of stacks (a horizontal stretch of cells is one stack, a passage
another, a straight vertical corridor one more); rooms, braids and random
maps are not, and :func:`stack_tree` says so (early, at the first cycle).

**Why the search collapses to a sweep.** On a tree of stacks a path from
``s`` (in stack ``R_0``) to ``t`` (in ``R_k``) crosses every edge
``R_i - R_{i+1}`` of the tree path, and each crossing is one move from a
cell of ``R_i``'s boundary row to one of ``R_{i+1}``'s, in the columns the
two rows share (vertical) or between two neighbouring shared columns
(diagonal: both side cells lie in those rows). Cut a shortest path at the
last crossing of every edge: between two cuts it runs from a cell of
``R_i`` to a cell of ``R_i``, at least their octile distance, which a path
inside the rectangle ``R_i`` attains (no corner is cut inside a free
rectangle). So

    dist(s, t) = min over crossings of  sum octile(entry_i, exit_i) + sum move_i,

a min-plus sweep along the tree path: the values on the shared columns of
one crossing give those of the next. Each query costs the sum over its
path of (entry width x exit width) -- a corridor's width squared per
stack -- and touches nothing off its path; exact for every grid the
detector accepts, whatever its wall width, with lengths equal to any exact
search's up to the rounding of their sums.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._csr import edge_csr

__all__ = ["stack_tree", "stack_lengths", "StackTree", "build"]

SQRT2 = 2.0 ** 0.5

#: a pair's sweep costs the product of consecutive crossing widths, at most
#: twice the sum of every crossing's width squared; a tree whose sum passes
#: this many times the free cells (rectangles joined along hundreds of
#: cells, again and again) is left to the search, whose pair costs at most
#: the free cells -- maze512-W stand-ins sum to 0.6-1.2 times
SWEEP_BUDGET = 16.0


@njit(cache=True)
def _find(uf, a):
    while uf[a] != a:
        uf[a] = uf[uf[a]]
        a = uf[a]
    return a


@njit(cache=True)
def stack_tree(fp, cols, lab, top, bot, c0, c1, eu, ev, e0, e1, uf, runs, cycles_ok):
    """Cut padded mask ``fp`` into stacks; ``(nstacks, nedges)``, or ``(-1, -1)`` on a cycle.

    With ``cycles_ok`` every edge is kept and no cycle stops the cut (the
    edge arrays then need twice the free cells: a run meets at most the
    runs above it that end inside it, plus one).

    Callers allocate (sizes: ``lab`` the padded cells, set to -1 on blocked
    cells here; ``top``/``bot``/``c0``/``c1``/``uf`` and the edge arrays
    ``eu``/``ev``/``e0``/``e1`` one more than the free cells; ``runs`` a
    ``(6, cols + 2)`` int32 scratch). Edge ``j`` joins stack ``eu[j]``
    (above) to ``ev[j]`` (below) over columns ``e0[j]..e1[j]``.
    """
    pc = cols + 2
    nrows = fp.shape[0] // pc
    for i in range(pc):
        lab[i] = -1
        lab[(nrows - 1) * pc + i] = -1
    ns = 0
    ne = 0
    pn = 0                     # runs of the previous row: runs[0..2, :pn]
    for r in range(1, nrows - 1):
        base = r * pc
        lab[base] = -1
        lab[base + pc - 1] = -1
        k = 0                  # runs of this row: runs[3..5, :k]
        j = 0
        c = 1
        while c <= cols:
            if fp[base + c] == 0:
                lab[base + c] = -1
                c += 1
                continue
            a = c
            while fp[base + c] != 0:
                c += 1
            b = c - 1
            while j < pn and runs[1, j] < a:
                j += 1
            if j < pn and runs[0, j] == a and runs[1, j] == b:
                sid = runs[2, j]             # the same columns: the stack goes on
                bot[sid] = r
            else:
                sid = ns
                ns += 1
                top[sid] = r
                bot[sid] = r
                c0[sid] = a
                c1[sid] = b
                uf[sid] = sid
                q = j
                while q < pn and runs[0, q] <= b:      # every run above it overlaps
                    u = runs[2, q]
                    if not cycles_ok:
                        ra = _find(uf, u)
                        rb = _find(uf, sid)
                        if ra == rb:
                            return -1, -1              # a second way between them: a cycle
                        uf[rb] = ra
                    eu[ne] = u
                    ev[ne] = sid
                    e0[ne] = a if a > runs[0, q] else runs[0, q]
                    e1[ne] = b if b < runs[1, q] else runs[1, q]
                    ne += 1
                    q += 1
            for x in range(a, b + 1):
                lab[base + x] = sid
            runs[3, k] = a
            runs[4, k] = b
            runs[5, k] = sid
            k += 1
        for x in range(k):
            runs[0, x] = runs[3, x]
            runs[1, x] = runs[4, x]
            runs[2, x] = runs[5, x]
        pn = k
    return ns, ne


@njit(cache=True)
def _root_tree(ns, ne, top, bot, eu, ev, e0, e1, parent, depth, root, pe_rx, pe_ry, pe_o0,
               pe_o1, deg, adj, queue):
    """Parents, depths, roots and the crossing to the parent of every stack (BFS)."""
    edge_csr(ns, ne, eu, ev, deg, adj)
    for i in range(ns):
        root[i] = -1
    for r0 in range(ns):
        if root[r0] >= 0:
            continue
        root[r0] = r0
        parent[r0] = r0
        depth[r0] = 0
        head = 0
        tail = 1
        queue[0] = r0
        while head < tail:
            u = queue[head]
            head += 1
            for p in range(deg[u], deg[u + 1]):
                j = adj[p]
                v = ev[j] if eu[j] == u else eu[j]
                if root[v] >= 0:
                    continue
                root[v] = r0
                parent[v] = u
                depth[v] = depth[u] + 1
                if eu[j] == u:          # u above v: v's top row meets u's bottom row
                    pe_rx[v] = top[v]
                    pe_ry[v] = bot[u]
                else:
                    pe_rx[v] = bot[v]
                    pe_ry[v] = top[u]
                pe_o0[v] = e0[j]
                pe_o1[v] = e1[j]
                queue[tail] = v
                tail += 1


@njit(cache=True, inline="always")
def _octile(dr, dc):
    if dr < dc:
        return (dc - dr) + dr * SQRT2
    return (dr - dc) + dc * SQRT2


@njit(cache=True)
def stack_lengths(fp, cols, lab, parent, depth, root, pe_rx, pe_ry, pe_o0, pe_o1, starts,
                  goals, out, up, dn, ed, nd):
    """Lengths of padded ``starts[i] -> goals[i]`` into ``out`` (NaN: blocked or apart).

    ``up``/``dn``: int32 scratch of the number of stacks; ``ed``/``nd``:
    float64 scratch of ``cols + 2``.
    """
    pc = cols + 2
    for i in range(starts.shape[0]):
        out[i] = np.nan
        s = starts[i]
        t = goals[i]
        if fp[s] == 0 or fp[t] == 0:
            continue
        x = lab[s]
        y = lab[t]
        if root[x] != root[y]:
            continue
        rs = s // pc
        cs = s - rs * pc
        rt = t // pc
        ct = t - rt * pc
        nu = 0
        nv = 0
        a = x
        b = y
        while depth[a] > depth[b]:
            up[nu] = a
            nu += 1
            a = parent[a]
        while depth[b] > depth[a]:
            dn[nv] = b
            nv += 1
            b = parent[b]
        while a != b:
            up[nu] = a
            nu += 1
            a = parent[a]
            dn[nv] = b
            nv += 1
            b = parent[b]
        # the entry set: cells (erow, e0 .. e0 + ew - 1) with values ed
        erow = rs
        e0 = cs
        ew = 1
        ed[0] = 0.0
        for k in range(nu + nv):
            if k < nu:                       # up the tree: the stack's own crossing
                z = up[k]
                xr = pe_rx[z]
                yr = pe_ry[z]
            else:                            # down: the child's crossing, reversed
                z = dn[nu + nv - 1 - k]
                xr = pe_ry[z]
                yr = pe_rx[z]
            o0 = pe_o0[z]
            w = pe_o1[z] - o0 + 1
            dr = xr - erow if xr > erow else erow - xr
            for c in range(w):
                best = np.inf
                col = o0 + c
                for q in range(ew):
                    dc = col - (e0 + q)
                    if dc < 0:
                        dc = -dc
                    v = ed[q] + _octile(dr, dc)
                    if v < best:
                        best = v
                nd[c] = best
            # the crossing move: straight down/up, or diagonal between shared columns
            for c in range(w):
                v = nd[c] + 1.0
                if c > 0 and nd[c - 1] + SQRT2 < v:
                    v = nd[c - 1] + SQRT2
                if c + 1 < w and nd[c + 1] + SQRT2 < v:
                    v = nd[c + 1] + SQRT2
                ed[c] = v
            erow = yr
            e0 = o0
            ew = w
        dr = rt - erow if rt > erow else erow - rt
        best = np.inf
        for q in range(ew):
            dc = ct - (e0 + q)
            if dc < 0:
                dc = -dc
            v = ed[q] + _octile(dr, dc)
            if v < best:
                best = v
        out[i] = best
    return out


def runs_in(fp) -> int:
    """The free runs of padded flat mask ``fp`` (free cells whose left neighbour is blocked)."""
    f = fp.view(np.uint8) if fp.dtype == np.uint8 else fp.astype(np.uint8)
    return int(np.count_nonzero(f[1:] > f[:-1]))


class StackTree:
    """A padded mask's tree of stacks, built once, queried in batches (:func:`build`)."""

    __slots__ = ("fp", "cols", "lab", "parent", "depth", "root", "pe_rx", "pe_ry", "pe_o0",
                 "pe_o1", "nstacks")

    def __init__(self, fp, cols, lab, parent, depth, root, pe, nstacks):
        self.fp, self.cols, self.lab = fp, cols, lab
        self.parent, self.depth, self.root = parent, depth, root
        self.pe_rx, self.pe_ry, self.pe_o0, self.pe_o1 = pe
        self.nstacks = nstacks

    def lengths(self, starts, goals) -> np.ndarray:
        """Lengths of padded flat ``starts[i] -> goals[i]`` (NaN: blocked endpoint or apart)."""
        starts = np.asarray(starts, np.int64)
        goals = np.asarray(goals, np.int64)
        out = np.empty(starts.shape[0])
        m = max(self.nstacks, 1)
        pc = self.cols + 2
        return stack_lengths(self.fp, self.cols, self.lab, self.parent, self.depth, self.root,
                             self.pe_rx, self.pe_ry, self.pe_o0, self.pe_o1, starts, goals,
                             out, np.empty(m, np.int32), np.empty(m, np.int32), np.empty(pc),
                             np.empty(pc))


def build(fp, cols: int):
    """The :class:`StackTree` of padded flat uint8 mask ``fp``, or None when its stacks hold a cycle.

    >>> from robomaze._search._batch import _pad
    >>> free = np.array([[1, 1, 0, 1, 1],
    ...                  [1, 1, 1, 1, 1],
    ...                  [0, 0, 0, 1, 1]], bool)
    >>> tree = build(_pad(free), 5)
    >>> tree.nstacks
    4
    >>> p = lambda r, c: (r + 1) * 7 + c + 1       # padded flat index
    >>> tree.lengths([p(0, 0), p(0, 0)], [p(2, 4), p(0, 4)]).round(6).tolist()
    [4.828427, 4.828427]
    >>> build(_pad(np.array([[1, 1, 1], [1, 0, 1], [1, 1, 1]], bool)), 3) is None
    True
    """
    if fp.flags.writeable:             # the engine's masks are read-only: one compile
        fp = fp.view()
        fp.setflags(write=False)
    n = fp.shape[0]
    pc = cols + 2
    nfree = int(np.count_nonzero(fp)) + 1
    nruns = runs_in(fp) + 1                  # stacks and tree edges: at most one per run
    lab = np.empty(n, np.int32)
    top, bot, c0, c1, uf = (np.empty(nruns, np.int32) for _ in range(5))
    eu, ev, e0, e1 = (np.empty(nruns, np.int32) for _ in range(4))
    runs = np.empty((6, pc), np.int32)
    ns, ne = stack_tree(fp, cols, lab, top, bot, c0, c1, eu, ev, e0, e1, uf, runs, False)
    if ns < 0:
        return None
    widths = (e1[:ne] - e0[:ne] + 1).astype(np.float64)
    if 2.0 * float(widths @ widths) > SWEEP_BUDGET * nfree:
        return None            # wide crossings everywhere: a search is cheaper
    m = max(ns, 1)
    parent, depth, root, rx, ry, o0, o1, queue = (np.empty(m, np.int32) for _ in range(8))
    deg = np.empty(m + 1, np.int32)
    adj = np.empty(max(2 * ne, 1), np.int32)
    _root_tree(ns, ne, top, bot, eu, ev, e0, e1, parent, depth, root, rx, ry, o0, o1, deg, adj,
               queue)
    return StackTree(fp, cols, lab, parent, depth, root, (rx, ry, o0, o1), ns)
