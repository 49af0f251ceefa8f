"""Conflict-Based Search (Sharon et al. 2015) with the improvements that keep it optimal.

The high level searches a tree of constraint sets best first; a node's
paths are each agent's cheapest path under its constraints (space-time A*,
ties broken towards fewer conflicts with the other paths). A node with
conflicts splits on one of them, forbidding it to one agent in each child.
On top of plain CBS (ICBS, Boyarski et al. 2015; Felner et al. 2018):

* **cardinal conflicts first**: a conflict is *cardinal* for an agent when
  its MDD (all its cheapest paths) is a single vertex there, so every child
  costs more; cardinal before semi-cardinal before non-cardinal;
* **bypass**: a child of equal cost with fewer conflicts gives its path to
  the parent instead of being added to the tree;
* **heuristic**: ``h`` is the minimum vertex cover of the graph of agent
  pairs whose first conflict is cardinal (each such pair costs at least
  one more step in any solution below, so ``h`` is admissible), kept
  consistent along the tree by pathmax (``f(child) >= f(parent)``).

The first conflict-free node popped has the optimal sum of costs. Bodies
larger than a cell conflict by overlap; a conflict at time ``t`` between
agents at ``a`` and ``b`` forbids ``a`` at ``t`` to one and ``b`` at ``t``
to the other (both children keep every solution).
"""

from __future__ import annotations

import heapq
import itertools

import numpy as np

from .instance import Instance
from .lowlevel import Lowlevel, padded
from .result import BudgetSpent, MapfResult, Work, paths_to_plan

__all__ = ["solve_cbs", "pair_conflict", "min_vertex_cover"]


def pair_conflict(pa: np.ndarray, pb: np.ndarray, size: int):
    """The earliest conflict of two vertex paths on a grid, or None.

    Returns ``("vertex", t, a, b)`` (bodies at ``a`` and ``b`` overlap at
    ``t``) or ``("edge", t, u, v)`` (the first agent moves ``u -> v`` while
    the second moves ``v -> u`` between ``t`` and ``t + 1``). ``size`` 1
    compares vertex ids; bodies need :func:`_body_conflict`.
    """
    t = max(len(pa), len(pb))
    a = np.empty(t, np.int64)
    b = np.empty(t, np.int64)
    a[: len(pa)] = pa
    a[len(pa):] = pa[-1]
    b[: len(pb)] = pb
    b[len(pb):] = pb[-1]
    v = np.flatnonzero(a == b)
    tv = int(v[0]) if len(v) else t
    e = np.flatnonzero((a[:-1] == b[1:]) & (a[1:] == b[:-1]) & (a[:-1] != a[1:]))
    te = int(e[0]) if len(e) else t
    if tv == t and te == t:
        return None
    if tv <= te:
        return ("vertex", tv, int(a[tv]), int(b[tv]))
    return ("edge", te, int(a[te]), int(a[te + 1]))


def _body_conflict(pa, pb, size: int, cols: int):
    t = max(len(pa), len(pb))
    a = np.empty(t, np.int64)
    b = np.empty(t, np.int64)
    a[: len(pa)] = pa
    a[len(pa):] = pa[-1]
    b[: len(pb)] = pb
    b[len(pb):] = pb[-1]
    hit = (np.abs(a // cols - b // cols) < size) & (np.abs(a % cols - b % cols) < size)
    v = np.flatnonzero(hit)
    if not len(v):
        return None
    tv = int(v[0])
    return ("vertex", tv, int(a[tv]), int(b[tv]))


#: Largest cardinal conflict graph (edges) whose vertex cover is found exactly;
#: larger graphs take a maximal matching's size, also a lower bound on any cover.
EXACT_COVER_EDGES = 16


def min_vertex_cover(edges) -> int:
    """A lower bound on the minimum vertex cover: exact (branching on an edge) up to
    :data:`EXACT_COVER_EDGES` edges, else the size of a greedy maximal matching
    (every cover holds one end of each matched edge).

    >>> min_vertex_cover([(0, 1), (1, 2), (2, 0)]), min_vertex_cover([(0, 1), (2, 3)])
    (2, 2)
    """
    edges = sorted({tuple(sorted(e)) for e in edges})
    if len(edges) > EXACT_COVER_EDGES:
        used: set = set()
        k = 0
        for u, v in edges:
            if u not in used and v not in used:
                used.update((u, v))
                k += 1
        return k

    def cover(es, k):
        if not es:
            return True
        if k == 0:
            return False
        u, v = es[0]
        return cover([e for e in es if u not in e], k - 1) or \
            cover([e for e in es if v not in e], k - 1)

    k = 0
    while not cover(edges, k):
        k += 1
    return k


class _Node:
    __slots__ = ("cons", "paths", "costs", "conf", "cost", "h", "f", "lb", "lbs", "card")

    def __init__(self, cons, paths, costs, conf):
        self.cons = cons          # per agent: (vertex constraints, edge constraints)
        self.paths = paths
        self.costs = costs
        self.conf = conf          # {(i, j): conflict}
        self.cost = int(sum(costs))
        self.h = 0
        self.f = self.cost
        self.lb = self.cost
        self.lbs = None
        self.card: dict = {}      # pair -> cardinality of its conflict (see classify)


class _Search:
    """State shared by CBS and ECBS: low level, conflicts, MDD cache, work."""

    def __init__(self, inst: Instance, work: Work, w: float = 1.0):
        self.inst = inst
        self.ll = Lowlevel(inst)
        self.work = work
        self.w = float(w)
        self.n = inst.n_agents
        self.cols = inst.shape[1]
        self._mdd: dict = {}

    def conflict(self, pa, pb):
        if self.inst.size == 1:
            return pair_conflict(pa, pb, 1)
        return _body_conflict(pa, pb, self.inst.size, self.cols)

    def all_conflicts(self, paths) -> dict:
        out = {}
        for i in range(self.n):
            out.update({k: v for k, v in self.conflicts_of(paths, i).items() if k[0] == i})
        return out

    def update_conflicts(self, conf: dict, paths, i: int) -> dict:
        out = {k: v for k, v in conf.items() if i not in k}
        out.update(self.conflicts_of(paths, i))
        return out

    def conflicts_of(self, paths, i: int) -> dict:
        """The earliest conflict of agent ``i`` with every other agent, all at once
        (the same answers as :func:`pair_conflict` pair by pair)."""
        m = padded(paths)
        t = m.shape[1]
        me = m[i]
        if self.inst.size == 1:
            hit_v = m == me[None, :]
            if t > 1:
                hit_e = (me[None, :-1] == m[:, 1:]) & (me[None, 1:] == m[:, :-1]) \
                    & (me[None, :-1] != me[None, 1:])
            else:
                hit_e = np.zeros((len(m), 0), bool)
        else:
            k, cols = self.inst.size, self.cols
            hit_v = (np.abs(m // cols - me // cols) < k) & (np.abs(m % cols - me % cols) < k)
            hit_e = np.zeros((len(m), max(t - 1, 0)), bool)
        hit_v[i] = False
        hit_e[i] = False
        out = {}
        big = t + 1
        tv = np.where(hit_v.any(axis=1), hit_v.argmax(axis=1), big)
        te = np.where(hit_e.any(axis=1), hit_e.argmax(axis=1), big) if hit_e.shape[1] \
            else np.full(len(m), big)
        for j in np.flatnonzero((tv < big) | (te < big)):
            j = int(j)
            first = i < j
            a, b = (i, j) if first else (j, i)
            if tv[j] <= te[j]:
                x = int(tv[j])
                c = ("vertex", x, int(m[a, x]), int(m[b, x]))
            else:
                x = int(te[j])
                c = ("edge", x, int(m[a, x]), int(m[a, x + 1]))
            out[(a, b)] = c
        return out

    def replan(self, i: int, cons_i, paths, *, use_cat: bool = True):
        """``(path, cost, lower bound)`` of agent ``i`` or None (no path)."""
        vcons, econs = cons_i
        blk, e = self.ll.constraint_tables(vcons, econs)
        cat, fin = self.ll.cat(paths, i) if use_cat else (None, None)
        path, cost, lb, exp = self.ll.plan(i, blk, e, cat=cat, cat_final=fin, w=self.w,
                                           max_expand=self.work.left + 1)
        self.work.add(expansions=exp)
        if cost == -2:
            raise BudgetSpent
        if cost < 0:
            return None
        return path, int(cost), int(lb)

    def singletons(self, i: int, cons_i, cost: int) -> np.ndarray:
        key = (i, cons_i, cost)
        s = self._mdd.get(key)
        if s is None:
            blk, e = self.ll.constraint_tables(*cons_i)
            s = self.ll.mdd(i, cost, blk, e)
            self.work.add(expansions=int(cost) + 1)
            if len(self._mdd) > 200_000:
                self._mdd.clear()
            self._mdd[key] = s
        return s

    def cardinal_for(self, node: _Node, i: int, c, first: bool) -> bool:
        """Whether conflict ``c`` is cardinal for agent ``i`` (``first``: ``i`` is
        the pair's first agent, whose cells the conflict names first)."""
        kind, t, x, y = c
        cost = node.costs[i]
        if kind == "vertex":
            v = x if first else y
            if t >= cost:
                return True
            return int(self.singletons(i, node.cons[i], cost)[t]) == v
        u, v = (x, y) if first else (y, x)
        if t + 1 > cost:
            return False
        s = self.singletons(i, node.cons[i], cost)
        return int(s[t]) == u and int(s[t + 1]) == v

    def classify(self, node: _Node, pair, c) -> int:
        """2 cardinal, 1 semi-cardinal, 0 non-cardinal (kept on the node)."""
        k = node.card.get(pair)
        if k is None:
            i, j = pair
            k = int(self.cardinal_for(node, i, c, True)) + \
                int(self.cardinal_for(node, j, c, False))
            node.card[pair] = k
        return k

    @staticmethod
    def inherit(child: _Node, parent: _Node, agent: int) -> None:
        """A child keeps the parent's verdicts on pairs whose agents and conflict
        it did not change."""
        child.card = {p: k for p, k in parent.card.items()
                      if agent not in p and child.conf.get(p) == parent.conf.get(p)}

    def child_constraints(self, node: _Node, pair, c):
        """The two ``(agent, new constraints)`` branches of a conflict."""
        i, j = pair
        kind, t, x, y = c
        out = []
        for agent, first in ((i, True), (j, False)):
            vcons, econs = node.cons[agent]
            if kind == "vertex":
                vcons = vcons + ((t, x if first else y),)
            else:
                econs = econs + (((t, x, y) if first else (t, y, x)),)
            out.append((agent, (vcons, econs)))
        return out


def solve_cbs(inst: Instance, *, max_work: int = 2_000_000, max_nodes: int = 100_000,
              seed: int | None = None, bypass: bool = True, heuristic: bool = True,
              prioritize: bool = True) -> MapfResult:
    """Optimal sum of costs by CBS with bypass, cardinal conflicts first and the
    cardinal-conflict-graph heuristic (each can be switched off for ablations)."""
    work = Work(max_work=max_work, max_nodes=max_nodes)
    s = _Search(inst, work)
    n = inst.n_agents
    lb0 = inst.lower_bound()
    empty = ((), ())
    best_open = lb0
    try:
        cons = [empty] * n
        paths: list = [None] * n
        costs = [0] * n
        for i in range(n):
            r = s.replan(i, empty, paths)
            if r is None:
                return MapfResult("cbs", "no_path", expansions=work.expansions, nodes=0,
                                  lower_bound=lb0, bound=1.0,
                                  reason=f"agent {i} cannot reach its goal")
            paths[i], costs[i], _ = r
        root = _Node(tuple(cons), paths, costs, s.all_conflicts(paths))
        work.add(nodes=1)
        if heuristic:
            _set_h(s, root, None)
        tick = itertools.count()
        heap = [(root.f, len(root.conf), next(tick), root)]
        while heap:
            f, _, _, node = heapq.heappop(heap)
            best_open = max(best_open, f)
            while True:
                if not node.conf:
                    return MapfResult("cbs", "success", paths_to_plan(node.paths, s.cols),
                                      expansions=work.expansions, nodes=work.nodes,
                                      lower_bound=node.cost, bound=1.0)
                pair, c = _choose(s, node, prioritize)
                children = []
                bypassed = False
                for agent, cons_a in s.child_constraints(node, pair, c):
                    new_cons = node.cons[:agent] + (cons_a,) + node.cons[agent + 1:]
                    new_paths = list(node.paths)
                    r = s.replan(agent, cons_a, new_paths)
                    work.add(nodes=1)
                    if r is None:
                        continue
                    new_paths[agent], cost_a, _ = r
                    new_costs = list(node.costs)
                    new_costs[agent] = cost_a
                    conf = s.update_conflicts(node.conf, new_paths, agent)
                    if bypass and cost_a == node.costs[agent] and len(conf) < len(node.conf):
                        # the parent keeps its constraints and takes the better path
                        old = _Node(node.cons, node.paths, node.costs, node.conf)
                        old.card = node.card
                        node.paths = new_paths
                        node.conf = conf
                        s.inherit(node, old, agent)
                        bypassed = True
                        break
                    child = _Node(new_cons, new_paths, new_costs, conf)
                    s.inherit(child, node, agent)
                    children.append(child)
                if bypassed:
                    if heuristic:
                        _set_h(s, node, None)
                    node.f = max(node.f, f)
                    if node.f > f:
                        heapq.heappush(heap, (node.f, len(node.conf), next(tick), node))
                        break
                    continue
                for child in children:
                    if heuristic:
                        _set_h(s, child, node)
                    else:
                        child.f = max(child.cost, node.f)
                    heapq.heappush(heap, (child.f, len(child.conf), next(tick), child))
                break
        return MapfResult("cbs", "no_path", expansions=work.expansions, nodes=work.nodes,
                          lower_bound=best_open, bound=1.0,
                          reason="every constraint tree branch is infeasible")
    except BudgetSpent:
        return MapfResult("cbs", "budget", expansions=work.expansions, nodes=work.nodes,
                          lower_bound=best_open, bound=1.0, reason="work budget spent")


def _choose(s: _Search, node: _Node, prioritize: bool):
    """The conflict to split: cardinal, then semi-cardinal, then the rest; earliest first."""
    items = sorted(node.conf.items(), key=lambda kv: (kv[1][1], kv[0]))
    if not prioritize:
        return items[0]
    best = None
    for pair, c in items:
        k = s.classify(node, pair, c)
        if k == 2:
            return pair, c
        if best is None or k > best[0]:
            best = (k, pair, c)
    return best[1], best[2]


def _set_h(s: _Search, node: _Node, parent) -> None:
    edges = [pair for pair, c in node.conf.items() if s.classify(node, pair, c) == 2]
    node.h = min_vertex_cover(edges) if edges else 0
    node.f = node.cost + node.h
    if parent is not None and parent.f > node.f:
        node.f = parent.f      # pathmax: f never drops along the tree
