"""JPS+ confined to the stacks of a query's route, on grids whose stacks form a tree.

The stacks of :mod:`._stacks` (rectangles of identical row runs, found from
the grid alone) of a widened perfect maze -- any corridor and wall width --
form a tree. A path from stack ``A`` to stack ``B`` crosses every stack of
the tree path between them, and a shortest one needs no other: a detour
into a side stack leaves and re-enters through one crossing into one
rectangle, where the octile distance between the two crossing cells is no
longer. Jump point search keeps that: the diagonal-first form of a path
inside those stacks stays inside (each swap of a straight and a diagonal
move puts a cell beside an existing path cell in its row, so in its run
and its stack), and a jump between two route cells crosses only route
stacks (consecutive stacks of a jump are adjacent, and the tree has one
path). So :func:`robomaze._search._jps_plus.jps_plus` run with successors
outside the route's stacks dropped expands only the route's corridors and
returns a shortest path (tests compare it with scipy's Dijkstra).

Per grid: a stack label per padded cell (int32, 61 MB at 4001^2) and the
rooted stack tree; per query: the route's stacks stamped in ``allowed``
(one int32 per stack, a stamp per query: nothing cleared).
"""

from __future__ import annotations

import threading

import numpy as np
from numba import njit

__all__ = ["Route", "build_route", "mark_route"]


@njit(cache=True)
def mark_route(lab, parent, depth, root, s, t, allowed, q):
    """Stamp ``q`` on the stacks of the tree path between cells ``s`` and ``t``; False if apart."""
    a = lab[s]
    b = lab[t]
    if root[a] != root[b]:
        return False
    while a != b:
        if depth[a] >= depth[b]:
            allowed[a] = q
            a = parent[a]
        else:
            allowed[b] = q
            b = parent[b]
    allowed[a] = q
    return True


class Route:
    """A padded mask's stack labels and stack tree, and a pool of ``allowed`` stamp arrays."""

    __slots__ = ("lab", "parent", "depth", "root", "nstacks", "nbytes", "_lock", "_free")

    def __init__(self, lab, parent, depth, root, nstacks):
        self.lab, self.parent, self.depth, self.root = lab, parent, depth, root
        self.nstacks = nstacks
        self.nbytes = lab.nbytes + 4 * parent.nbytes      # labels, the tree, one stamp array
        self._lock = threading.Lock()
        self._free = [(np.zeros(max(nstacks, 1), np.int32), 0)]

    def mark(self, s: int, t: int):
        """``(allowed, q)`` with the route ``s .. t`` stamped, or None if the two are apart.

        Give the pair back with :meth:`give` after the search.
        """
        with self._lock:
            allowed, q = (self._free.pop() if self._free
                          else (np.zeros(max(self.nstacks, 1), np.int32), 0))
        q += 1
        if q >= 2**31 - 1:                         # stamps ran out: start again from zeros
            allowed[:] = 0
            q = 1
        ok = mark_route(self.lab, self.parent, self.depth, self.root, s, t, allowed, np.int32(q))
        if not ok:
            self.give(allowed, q)
            return None
        return allowed, q

    def give(self, allowed, q: int) -> None:
        with self._lock:
            if not self._free:
                self._free.append((allowed, q))


def build_route(fp: np.ndarray, cols: int):
    """The :class:`Route` of padded read-only mask ``fp``, or None when its stacks hold a cycle.

    >>> from robomaze._search._batch import _pad
    >>> free = np.array([[1, 1, 0, 1, 1],
    ...                  [1, 1, 1, 1, 1],
    ...                  [0, 0, 0, 1, 1]], bool)
    >>> r = build_route(_pad(free), 5)
    >>> r.nstacks, build_route(_pad(np.array([[1, 1, 1], [1, 0, 1], [1, 1, 1]], bool)), 3)
    (4, None)
    """
    from ._stacks import _root_tree, runs_in, stack_tree

    if fp.flags.writeable:
        fp = fp.view()
        fp.setflags(write=False)
    n = fp.shape[0]
    pc = cols + 2
    nruns = runs_in(fp) + 1                  # stacks and tree edges: at most one per run
    lab = np.empty(n, np.int32)
    top, bot, c0, c1, uf = (np.empty(nruns, np.int32) for _ in range(5))
    eu, ev, e0, e1 = (np.empty(nruns, np.int32) for _ in range(4))
    ns, ne = stack_tree(fp, cols, lab, top, bot, c0, c1, eu, ev, e0, e1, uf,
                        np.empty((6, pc), np.int32), False)
    if ns < 0:
        return None
    m = max(ns, 1)
    parent, depth, root, rx, ry, o0, o1, queue = (np.empty(m, np.int32) for _ in range(8))
    _root_tree(ns, ne, top, bot, eu, ev, e0, e1, parent, depth, root, rx, ry, o0, o1,
               np.empty(m + 1, np.int32), np.empty(max(2 * ne, 1), np.int32), queue)
    return Route(lab, parent, depth, root, ns)


def routed_query(fp, table, rt, pt, cols: int, ps: int, pg: int, query):
    """``query`` (``_search._jps_query``) with route ``rt`` and peel ``pt``: ``(cells, expanded)``.

    With a peel (:mod:`._jps_peel`) the tree ends are walked first and the
    search joins their core cells (none when the walks meet); with a
    :class:`Route` (else None) that search is confined to the route's stacks.
    """
    if not (fp[ps] and fp[pg]):
        return query(fp, table, cols, ps, pg)
    a, b, na, nb = ps, pg, 0, 0
    if pt is not None:
        from ._jps_peel import tree_route

        a, b, na, nb = tree_route(pt, ps, pg)
        if a < 0:
            return np.empty(0, np.int64), 0
    if a == b:
        mid, expanded = np.array([(a // (cols + 2) - 1) * cols + a % (cols + 2) - 1], np.int64), 0
    elif rt is None:
        mid, expanded = query(fp, table, cols, a, b)
    else:
        marked = rt.mark(a, b)
        if marked is None:
            return np.empty(0, np.int64), 0
        allowed, q = marked
        try:
            mid, expanded = query(fp, table, cols, a, b, (rt.lab, allowed, np.int32(q)))
        finally:
            rt.give(allowed, q)
    if na == 0 and nb == 0 or mid.shape[0] == 0:
        return mid, expanded
    from ._jps_peel import tree_cells

    return tree_cells(pt, ps, pg, na, nb, mid, cols), expanded
