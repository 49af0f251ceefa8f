"""Which stacks a shortest path may use: the block-cut tree of the stack graph.

The stacks of :mod:`._stacks` (rectangles of identical row runs) and their
adjacency form a graph with the same connectivity as the free cells' moves.
Its biconnected components (blocks) and cut stacks form the block-cut
tree; every simple path from stack ``X`` to stack ``Y`` stays inside the
blocks on the tree path between them. A shortest cell path that left those
blocks would leave and re-enter through one cut stack, a rectangle, where
the octile distance between the two crossing cells is no longer than the
detour -- so some shortest path stays inside, and a search restricted to
those blocks' stacks is exact on *any* grid. It pays where dead ends and
side pockets hang off the routes by single stacks (random maps near the
percolation threshold, such as random512-40, whose largest component is a
thin web); on a map that is one big block it restricts nothing (``Blocks.largest``
says so).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._csr import edge_csr

__all__ = ["block_cut_tree", "mark_path", "Blocks", "build_blocks"]


@njit(cache=True)
def block_cut_tree(ns, ne, eu, ev, deg, adj, disc, low, it, pedge, st, estack, eblock, isart,
                   node, bparent, bdepth, mstart, members, mark, queue, cut):
    """Blocks (Tarjan, iterative), the block-cut tree rooted per component, block members.

    Returns ``(nblocks, nnodes, nmembers)``. ``node[x]``: the tree node of
    stack ``x`` (its block, or ``nblocks + k`` for the ``k``-th cut stack);
    ``bparent``/``bdepth``: the tree; block ``b``'s stacks are
    ``members[mstart[b]:mstart[b + 1]]``. All arrays are the caller's.
    """
    edge_csr(ns, ne, eu, ev, deg, adj)
    for i in range(ns):
        disc[i] = -1
        isart[i] = 0
    nb = 0
    time = 0
    for r0 in range(ns):
        if disc[r0] >= 0:
            continue
        disc[r0] = time
        low[r0] = time
        time += 1
        pedge[r0] = -1
        it[r0] = deg[r0]
        sp = 1
        st[0] = r0
        esp = 0
        kids = 0
        while sp > 0:
            u = st[sp - 1]
            if it[u] < deg[u + 1]:
                j = adj[it[u]]
                it[u] += 1
                if j == pedge[u]:
                    continue
                v = ev[j] if eu[j] == u else eu[j]
                if disc[v] < 0:
                    pedge[v] = j
                    disc[v] = time
                    low[v] = time
                    time += 1
                    it[v] = deg[v]
                    estack[esp] = j
                    esp += 1
                    st[sp] = v
                    sp += 1
                    if u == r0:
                        kids += 1
                elif disc[v] < disc[u]:           # a back edge to an ancestor
                    if disc[v] < low[u]:
                        low[u] = disc[v]
                    estack[esp] = j
                    esp += 1
            else:
                sp -= 1
                if sp > 0:
                    p = st[sp - 1]
                    if low[u] < low[p]:
                        low[p] = low[u]
                    if low[u] >= disc[p]:         # p cuts u's subtree off: a block ends
                        while True:
                            esp -= 1
                            e = estack[esp]
                            eblock[e] = nb
                            if e == pedge[u]:
                                break
                        nb += 1
                        if p != r0:
                            isart[p] = 1
        if kids > 1:
            isart[r0] = 1
        elif kids == 0:                           # a lone stack: a block of its own
            node[r0] = nb
            nb += 1
    # tree nodes of the stacks: cut stacks get their own, the others their block's
    na = 0
    for x in range(ns):
        if isart[x]:
            node[x] = nb + na
            cut[na] = x
            na += 1
    for j in range(ne):
        if not isart[eu[j]]:
            node[eu[j]] = eblock[j]
        if not isart[ev[j]]:
            node[ev[j]] = eblock[j]
    nn = nb + na
    # block members, each (block, stack) pair once: a cut stack lies in the
    # blocks of its edges (mark[b] = the last stack that counted block b)
    for b in range(nb + 1):
        mstart[b] = 0
        mark[b] = -1
    for x in range(ns):
        if not isart[x]:
            mstart[node[x] + 1] += 1
            continue
        for p in range(deg[x], deg[x + 1]):
            b = eblock[adj[p]]
            if mark[b] != x:
                mark[b] = x
                mstart[b + 1] += 1
    for b in range(nb):
        mstart[b + 1] += mstart[b]
    for b in range(nb):
        it[b] = mstart[b]
        mark[b] = -1
    for x in range(ns):
        if not isart[x]:
            b = node[x]
            members[it[b]] = x
            it[b] += 1
            continue
        for p in range(deg[x], deg[x + 1]):
            b = eblock[adj[p]]
            if mark[b] != x:
                mark[b] = x
                members[it[b]] = x
                it[b] += 1
    # the tree: BFS from each component's first block over block <-> cut stack links
    for v in range(nn):
        bparent[v] = -2
    for b0 in range(nb):
        if bparent[b0] != -2:
            continue
        bparent[b0] = b0
        bdepth[b0] = 0
        head = 0
        tail = 1
        queue[0] = b0
        while head < tail:
            v = queue[head]
            head += 1
            if v < nb:
                for q in range(mstart[v], mstart[v + 1]):
                    x = members[q]
                    if isart[x] and bparent[node[x]] == -2:
                        w = node[x]
                        bparent[w] = v
                        bdepth[w] = bdepth[v] + 1
                        queue[tail] = w
                        tail += 1
            else:
                x = cut[v - nb]
                for p in range(deg[x], deg[x + 1]):
                    b = eblock[adj[p]]
                    if bparent[b] == -2:
                        bparent[b] = v
                        bdepth[b] = bdepth[v] + 1
                        queue[tail] = b
                        tail += 1
    return nb, nn, mstart[nb]


@njit(cache=True)
def mark_path(node, bparent, bdepth, nb, mstart, members, x, y, allowed, q):
    """Stamp ``q`` into ``allowed`` for every stack of the blocks on the tree path ``x .. y``."""
    a = node[x]
    b = node[y]
    if a == b and a >= nb:                   # one cut stack: the pair lies in that rectangle
        allowed[x] = q
        return
    while True:
        if bdepth[a] < bdepth[b]:
            a, b = b, a
        if a < nb:
            for p in range(mstart[a], mstart[a + 1]):
                allowed[members[p]] = q
        if a == b:
            break
        a = bparent[a]


class Blocks:
    """A map's stack labels and block-cut tree (:func:`build_blocks`)."""

    __slots__ = ("lab", "node", "bparent", "bdepth", "nb", "mstart", "members", "nstacks",
                 "largest", "allowed")

    def __init__(self, lab, node, bparent, bdepth, nb, mstart, members, nstacks, largest):
        self.lab, self.node, self.bparent, self.bdepth = lab, node, bparent, bdepth
        self.nb, self.mstart, self.members = nb, mstart, members
        self.nstacks, self.largest = nstacks, largest
        self.allowed = None                     # the searches' stamps, set by the user


def build_blocks(fp, cols: int) -> Blocks:
    """Stacks of padded read-only mask ``fp`` and their block-cut tree.

    ``largest``: the share of all stacks in the biggest block (near 1: the
    restriction would restrict nothing).

    >>> from robomaze._search._batch import _pad
    >>> free = np.array([[1, 1, 1, 0, 1],
    ...                  [1, 0, 1, 1, 1],
    ...                  [1, 1, 1, 0, 1]], bool)
    >>> b = build_blocks(_pad(free), 5)
    >>> b.nstacks, b.nb          # a ring of 4 stacks and two dead ends: 3 blocks
    (6, 3)
    """
    from ._stacks import runs_in, stack_tree

    n = fp.shape[0]
    pc = cols + 2
    nruns = runs_in(fp) + 1                  # stacks: at most one per run; edges: two
    lab = np.empty(n, np.int32)
    top, bot, c0, c1, uf = (np.empty(nruns, np.int32) for _ in range(5))
    eu, ev, e0, e1 = (np.empty(2 * nruns + 2, np.int32) for _ in range(4))
    ns, ne = stack_tree(fp, cols, lab, top, bot, c0, c1, eu, ev, e0, e1, uf,
                        np.empty((6, pc), np.int32), True)
    m = max(ns, 1)
    deg = np.empty(m + 1, np.int32)
    adj = np.empty(max(2 * ne, 1), np.int32)
    disc, low, it, pedge, st, node, cut = (np.empty(m + ne + 1, np.int32) for _ in range(7))
    estack, eblock = np.empty(max(ne, 1), np.int32), np.empty(max(ne, 1), np.int32)
    isart = np.empty(m, np.uint8)
    bparent, bdepth, queue = (np.empty(2 * m + ne + 1, np.int32) for _ in range(3))
    mstart = np.empty(m + ne + 2, np.int32)
    members = np.empty(2 * ne + m + 1, np.int32)
    mark = np.empty(m + ne + 1, np.int32)
    nb, nn, nm = block_cut_tree(ns, ne, eu, ev, deg, adj, disc, low, it, pedge, st, estack,
                                eblock, isart, node, bparent, bdepth, mstart, members, mark,
                                queue, cut)
    sizes = np.diff(mstart[:nb + 1])
    largest = float(sizes.max()) / ns if nb else 1.0
    return Blocks(lab, node, bparent, bdepth, nb, mstart, members, ns, largest)
