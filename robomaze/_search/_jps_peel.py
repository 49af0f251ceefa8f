"""Dead ends peeled once per grid: tree parts answered by a walk, the search kept for the rest.

Repeatedly removing the free cells with at most one remaining neighbour
(8-connected, no corner cutting: the graph of :mod:`._jps`) peels every
dead-end subtree off the grid and leaves its 2-core. Each peeled cell ``x``
keeps its *parent* -- its one neighbour still there when it went (-1 if
none: the last cell of a component that is a tree) -- and its peel *time*;
cells of the core keep ``CORE`` (the largest int32). Every edge at a peeled
cell is a parent edge (its other neighbours went before it and are its
children), so:

* the peeled cells form a forest, each tree hanging off one core cell (or
  off nothing: a component that is a tree);
* a simple path enters or leaves a hanging tree only through that core
  cell, so the only simple path between two cells of one tree is the tree
  path through their lowest common ancestor, and a shortest path from a
  peeled ``s`` to anything outside its tree is ``s``'s tree path to its core
  cell ``s'`` followed by a shortest path from ``s'``.

A query therefore walks ``s`` and ``t`` towards their roots, always moving
the one peeled earlier (a parent is peeled after its children, so the walk
meets at the lowest common ancestor without depths). If they meet, that is
the path -- the only simple one, so exact with no search at all; if both
reach the core at ``s'`` and ``t'``, the search (JPS or JPS+, unchanged)
runs from ``s'`` to ``t'`` and the tree paths are spliced on; if one
reaches a tree's root, the two lie in different components.

On a perfect maze of 1-wide corridors the whole free space is a tree (its
turns forbid the diagonal moves), so every query is a walk along its own
path, touching nothing else; where the core is most of the grid (random
maps, mazes of wider corridors, whose corners keep every cell at degree
>= 2) the walk shortens nothing and :mod:`._jps_tables` does not keep it.

Storage: ``pt[2 x]`` the parent, ``pt[2 x + 1]`` the time, int32
interleaved (one cache line per step of a walk): 8 bytes per padded cell,
122 MB at 4001^2.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._engine import _from_pad

__all__ = ["CORE", "peel", "peel_nbytes", "thin_share", "tree_route", "tree_cells"]

CORE = np.int32(2**31 - 1)


def peel_nbytes(rows: int, cols: int) -> int:
    """Bytes of the peel of a ``rows x cols`` grid (two int32 per padded cell).

    >>> peel_nbytes(4001, 4001) // 2**20
    122
    """
    return 8 * (rows + 2) * (cols + 2)


def thin_share(fp: np.ndarray, rows: int, cols: int, sample_rows: int = 256) -> float:
    """The share of free cells with at most two moves, over about ``sample_rows`` rows (numpy).

    The cheap test before peeling: a 1-wide maze's cells are corridors (2),
    dead ends (1) and junctions (3), so most are thin; on random maps and
    wider mazes most cells have 5-8 moves, and the peel would be dropped.

    >>> fp = np.zeros((5, 6), np.uint8); fp[2, 1:5] = 1      # a 1-wide corridor
    >>> thin_share(fp.ravel(), 3, 4)
    1.0
    """
    F = fp.reshape(rows + 2, cols + 2).astype(bool)
    r = np.arange(1, rows + 1, max(1, rows // sample_rows))
    up, mid, dn = F[r - 1], F[r], F[r + 1]
    left, right = mid[:, :-2], mid[:, 2:]
    u, d = up[:, 1:-1], dn[:, 1:-1]
    deg = (left.astype(np.int8) + right + u + d
           + (up[:, :-2] & u & left) + (up[:, 2:] & u & right)
           + (dn[:, :-2] & d & left) + (dn[:, 2:] & d & right))
    free = mid[:, 1:-1]
    nfree = int(free.sum())
    return float((free & (deg <= 2)).sum()) / nfree if nfree else 0.0


@njit(cache=True)
def _degree(fp, x, pc, pt):
    """Neighbours of ``x`` not peeled yet (moves of the no-corner-cutting graph)."""
    d = 0
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr == 0 and dc == 0:
                continue
            y = x + dr * pc + dc
            if not fp[y] or pt[2 * y + 1] != CORE:
                continue
            if dr != 0 and dc != 0 and not (fp[x + dr * pc] and fp[x + dc]):
                continue
            d += 1
    return d


@njit(cache=True)
def peel(fp, cols, pt, deg, queue):
    """Peel the padded mask ``fp`` into ``pt`` (``2 * len(fp)`` int32); returns the core's cells.

    ``deg`` (uint8) and ``queue`` (int32) are scratch of ``len(fp)``. The
    queue is last in, first out, so a dead end is peeled along its corridor
    while its cells are in cache (2x faster than first in, first out on a
    1-wide maze at 2001^2: 0.09 vs 0.18 s).
    """
    pc = cols + 2
    n = fp.shape[0]
    for x in range(n):
        pt[2 * x] = -1
        pt[2 * x + 1] = CORE
    tail = 0
    nfree = 0
    for x in range(pc, n - pc):
        if fp[x]:
            nfree += 1
            d = _degree(fp, x, pc, pt)
            deg[x] = d
            if d <= 1:
                queue[tail] = x
                tail += 1
    head = 0
    while tail > 0:
        tail -= 1
        x = queue[tail]
        pt[2 * x + 1] = head                    # its time; no longer CORE: peeled
        head += 1
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if dr == 0 and dc == 0:
                    continue
                y = x + dr * pc + dc
                if not fp[y] or pt[2 * y + 1] != CORE:
                    continue
                if dr != 0 and dc != 0 and not (fp[x + dr * pc] and fp[x + dc]):
                    continue
                pt[2 * x] = y                   # the one neighbour left
                deg[y] -= 1
                if deg[y] == 1:
                    queue[tail] = y
                    tail += 1
    return nfree - head


@njit(cache=True)
def tree_route(pt, s, t):
    """Walk ``s`` and ``t`` (padded) to their meeting: ``(a, b, na, nb)``.

    ``a == b``: the tree path meets there (``na``/``nb`` moves from
    ``s``/``t``); ``a != b``, both >= 0: the core cells where the search
    must join them; ``a < 0``: no path.
    """
    a = s
    b = t
    na = 0
    nb = 0
    while a != b:
        ta = pt[2 * a + 1]
        tb = pt[2 * b + 1]
        if ta == CORE and tb == CORE:
            break
        if ta < tb:
            a = pt[2 * a]
            na += 1
            if a < 0:
                return -1, -1, 0, 0
        else:
            b = pt[2 * b]
            nb += 1
            if b < 0:
                return -1, -1, 0, 0
    return a, b, na, nb


@njit(cache=True)
def tree_cells(pt, s, t, na, nb, middle, cols):
    """Unpadded cells ``s`` .. (``na`` moves up) ``middle`` .. (``nb`` moves down) ``t``.

    ``middle``: the unpadded cells from ``s``'s walk end to ``t``'s (its
    first and last are those ends; one cell when the walks met).
    """
    nm = middle.shape[0]
    out = np.empty(na + nm + nb, np.int64)
    x = s
    for i in range(na):
        out[i] = _from_pad(x, cols)
        x = pt[2 * x]
    for i in range(nm):
        out[na + i] = middle[i]
    x = t
    for i in range(nb):
        out[na + nm + nb - 1 - i] = _from_pad(x, cols)
        x = pt[2 * x]
    return out
