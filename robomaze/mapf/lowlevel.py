"""The single-agent layer shared by the search-based solvers.

One call plans one agent with the space-time focal A* kernel under its
constraints (CBS/ECBS) or the reservations of the agents planned before it
(prioritised planning), breaking ties on conflicts with the other agents'
current paths (a conflict-avoidance table). Bodies larger than a cell
reserve every reference cell their body overlaps (:func:`body_neighbours`).
"""

from __future__ import annotations

import numpy as np

from ._kernels import INF, mdd_singletons, st_astar
from .instance import Instance

__all__ = ["body_neighbours", "Lowlevel", "padded"]


def padded(paths) -> np.ndarray:
    """``m[i, t]``: path ``i``'s vertex at ``t``, each path waiting at its end.

    >>> padded([np.array([1, 2]), np.array([5])]).tolist()
    [[1, 2], [5, 5]]
    """
    t = max(len(p) for p in paths)
    m = np.empty((len(paths), t), np.int64)
    for i, p in enumerate(paths):
        m[i, : len(p)] = p
        m[i, len(p):] = p[-1]
    return m


def body_neighbours(inst: Instance) -> np.ndarray:
    """``nb[v]``: the vertices whose body overlaps the body at ``v`` (-1 padded).

    >>> import numpy as np
    >>> inst = Instance(np.zeros((3, 3), bool), [(0, 0)], [(1, 1)], size=2)
    >>> sorted(int(u) for u in body_neighbours(inst)[4] if u >= 0)
    [0, 1, 3, 4]
    """
    h, w = inst.shape
    k = inst.size
    valid = inst.valid
    offs = [(a, b) for a in range(-(k - 1), k) for b in range(-(k - 1), k)]
    nb = np.full((h * w, len(offs)), -1, np.int32)
    rr, cc = np.nonzero(valid)
    for m, (a, b) in enumerate(offs):
        r2, c2 = rr + a, cc + b
        ok = (r2 >= 0) & (r2 < h) & (c2 >= 0) & (c2 < w)
        ok[ok] &= valid[r2[ok], c2[ok]]
        nb[(rr * w + cc)[ok], m] = (r2 * w + c2)[ok]
    return nb


class Lowlevel:
    """Space-time A* calls on one instance, with the arrays they share."""

    def __init__(self, inst: Instance) -> None:
        self.inst = inst
        self.nbr, self.deg = inst.graph()
        self.dist = inst.distances()
        self.nv = self.nbr.shape[0]
        self.starts = inst.start_ids()
        self.goals = inst.goal_ids()
        self.point = inst.size == 1
        self.nb = None if self.point else body_neighbours(inst)
        self.no_goal_block = np.full(self.nv, INF, np.int32)
        self.no_edges = np.zeros((0, 3), np.int32)
        self.no_cat = np.zeros((0, self.nv), np.int16)
        self.no_cat_final = np.zeros(self.nv, np.int16)

    def mark(self, v: int) -> np.ndarray:
        """The vertices a body at ``v`` blocks for others."""
        if self.point:
            return np.array([v], np.int32)
        row = self.nb[v]
        return row[row >= 0]

    # ------------------------------------------------------------ constraints
    def constraint_tables(self, vcons, econs) -> tuple[np.ndarray, np.ndarray]:
        """The ``blk`` table (``-2`` at constrained ``(t, v)``) and edge rows of
        one agent's constraints (``vcons``: ``(t, v)``; ``econs``: ``(t, u, v)``)."""
        tmax = max((t for t, _ in vcons), default=-1) + 1
        blk = np.full((max(tmax, 1), self.nv), -1, np.int32)
        for t, v in vcons:
            blk[t, v] = -2
        e = np.array(econs, np.int32).reshape(-1, 3) if econs else self.no_edges
        return blk, e

    def cat(self, paths, skip: int) -> tuple[np.ndarray, np.ndarray]:
        """Conflict-avoidance table of every path but ``paths[skip]``."""
        others = [p for i, p in enumerate(paths) if i != skip and p is not None]
        if not others:
            return self.no_cat, self.no_cat_final
        m = padded(others)
        t = m.shape[1]
        if self.point:
            idx = (np.arange(t)[None, :] * self.nv + m).ravel()
            cat = np.bincount(idx, minlength=t * self.nv).astype(np.int16).reshape(t, self.nv)
            fin = np.bincount(m[:, -1], minlength=self.nv).astype(np.int16)
            return cat, fin
        cat = np.zeros((t, self.nv), np.int16)
        fin = np.zeros(self.nv, np.int16)
        for row in m:
            for s_, v in enumerate(row):
                cat[s_, self.mark(v)] += 1
            fin[self.mark(row[-1])] += 1
        return cat, fin

    def plan(self, i: int, blk, econs, *, goal_from=None, cat=None, cat_final=None,
             w: float = 1.0, max_expand: int = 1 << 60):
        """``(path, cost, lower bound, expansions)`` of agent ``i`` (cost -1: no
        path, -2: ``max_expand`` spent)."""
        return st_astar(self.nbr, self.deg, self.dist[i], int(self.starts[i]),
                        int(self.goals[i]), blk, econs,
                        self.no_goal_block if goal_from is None else goal_from,
                        self.no_cat if cat is None else cat,
                        self.no_cat_final if cat_final is None else cat_final,
                        float(w), int(min(max_expand, 1 << 60)), self.point)

    def mdd(self, i: int, cost: int, blk, econs) -> np.ndarray:
        """The singleton layers of agent ``i``'s MDD at ``cost`` (see the kernel)."""
        return mdd_singletons(self.nbr, self.deg, self.dist[i], int(self.starts[i]),
                              int(self.goals[i]), int(cost), blk, econs)
