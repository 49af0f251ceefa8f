"""LaCAM* (Okumura, AAAI 2023 / IJCAI 2023): lazy search over configurations, anytime.

A search node is a *configuration* (every agent's vertex). Its successors
are generated lazily: each node holds a queue of low-level constraints
("agent ``a`` goes to ``v``", grown one agent deeper per pop, in the
node's agent order) and every pop asks PIBT (:mod:`._kernels`) for one
successor obeying that constraint. The high level is depth-first, so the
first plan comes fast; LaCAM* then keeps searching: edges to known
configurations rewire their ``g`` values (a Dijkstra update), nodes whose
``g + h`` cannot beat the best plan are dropped, and when the open stack
empties the plan is optimal for LaCAM's cost (the sum of *loss*: an agent
pays one per step unless it stays on its goal). The reported SOC is the
plan's own sum of costs.

Work: one PIBT call is one unit (``expansions``); ``nodes`` counts the
configurations stored. ``anytime=False`` stops at the first plan (LaCAM).
Agents with bodies (``size > 1``) conflict by overlap; their successors
come from :func:`._bodies.body_step`.
"""

from __future__ import annotations

import heapq
import itertools
from collections import deque

import numpy as np

from ._bodies import body_step
from ._kernels import pibt_step
from .instance import Instance
from .result import MapfResult, configs_to_plan

__all__ = ["solve_lacam"]


class _HNode:
    __slots__ = ("q", "parent", "g", "h", "f", "order", "prio", "tree", "nbrs")

    def __init__(self, q, parent, g, h, order, prio):
        self.q = q
        self.parent = parent
        self.g = g
        self.h = h
        self.f = g + h
        self.order = order
        self.prio = prio
        self.tree = deque([((), ())])     # low-level constraints: (agents, vertices)
        self.nbrs: dict = {}          # neighbour -> edge cost


def solve_lacam(inst: Instance, *, max_work: int = 20_000, max_nodes: int = 1_000_000,
                seed: int | None = 0, anytime: bool = True,
                restart: float = 0.001) -> MapfResult:
    """LaCAM* (``anytime=True``) or LaCAM (first plan) within ``max_work`` PIBT calls."""
    name = "lacam_star" if anytime else "lacam"
    nbr, deg = inst.graph()
    dist = inst.distances()
    n = inst.n_agents
    nv = nbr.shape[0]
    starts = inst.start_ids()
    goals = inst.goal_ids()
    idx = np.arange(n)
    if (dist[idx, starts] < 0).any():
        i = int(np.flatnonzero(dist[idx, starts] < 0)[0])
        return MapfResult(name, "no_path", reason=f"agent {i} cannot reach its goal",
                          lower_bound=None)
    rng = np.random.default_rng(np.random.SeedSequence(0 if seed is None else seed,
                                                       spawn_key=(1,)))
    state = np.array([rng.integers(1, 1 << 62)], np.uint64)
    occ_now = np.full(nv, -1, np.int32)
    occ_next = np.full(nv, -1, np.int32)
    stack = np.empty(n, np.int32)
    kidx = np.empty(n, np.int32)
    cand = np.empty((n, 5), np.int32)
    ncand = np.empty(n, np.int32)
    pin_who = np.empty(n, np.int32)
    pin_where = np.empty(n, np.int32)
    q_to = np.empty(n, np.int32)
    chain = np.zeros(n, np.bool_)
    size, cols = inst.size, inst.shape[1]
    goal_key = goals.tobytes()

    def h_of(q):
        return int(dist[idx, q].sum())

    def edge_cost(a, b):
        return int(((a != goals) | (b != goals)).sum())

    def order_of(prio):
        return np.argsort(-prio, kind="stable").astype(np.int32)

    prio0 = dist[idx, starts] / (nv + 1.0)
    root = _HNode(starts.copy(), None, 0, h_of(starts), order_of(prio0), prio0)
    explored = {starts.tobytes(): root}
    open_ = [root]
    goal_node = None
    work = 0
    lb = inst.lower_bound()
    exhausted = False
    while True:
        if not open_:
            exhausted = True
            break
        if work >= max_work or len(explored) >= max_nodes:
            break
        node = open_[-1]
        if goal_node is None and node.q.tobytes() == goal_key:
            goal_node = node
            if not anytime:
                break
        if goal_node is not None and node.f >= goal_node.g:
            open_.pop()
            continue
        if not node.tree:
            open_.pop()
            continue
        who, where = node.tree.popleft()
        depth = len(who)
        if depth < n:
            a = int(node.order[depth])
            v = int(node.q[a])
            moves = [int(u) for u in nbr[v, :deg[v]]] + [v]
            rng.shuffle(moves)
            for u in moves:
                node.tree.append((who + (a,), where + (u,)))
        for k in range(depth):
            pin_who[k] = who[k]
            pin_where[k] = where[k]
        work += 1
        if size == 1:
            found = pibt_step(nbr, deg, dist, node.q, node.order, pin_who, pin_where, depth,
                              state, q_to, occ_now, occ_next, stack, kidx, cand, ncand)
        else:
            found = body_step(nbr, deg, dist, node.q, node.order, pin_who, pin_where, depth,
                              state, q_to, occ_now, occ_next, chain, cand, size, cols)
        if not found:
            continue
        key = q_to.tobytes()
        known = explored.get(key)
        if known is not None:
            if known not in node.nbrs:
                node.nbrs[known] = edge_cost(node.q, known.q)
            _rewrite(node, goal_node, open_)
            nxt = root if rng.random() < restart else known
            if goal_node is None or nxt.f < goal_node.g:
                open_.append(nxt)
            continue
        q = q_to.copy()
        at_goal = q == goals
        prio = np.where(at_goal, node.prio - np.floor(node.prio), node.prio + 1.0)
        c = edge_cost(node.q, q)
        child = _HNode(q, node, node.g + c, h_of(q), order_of(prio), prio)
        node.nbrs[child] = c
        explored[key] = child
        if goal_node is None or child.f < goal_node.g:
            open_.append(child)
    nodes = len(explored)
    if goal_node is None:
        return MapfResult(name, "no_path" if exhausted else "budget", expansions=work,
                          nodes=nodes, lower_bound=lb,
                          reason="configuration space exhausted" if exhausted
                          else "work budget spent")
    configs = []
    cur = goal_node
    seen = set()
    while cur is not None and id(cur) not in seen:   # parents never cycle; guard anyway
        seen.add(id(cur))
        configs.append(cur.q)
        cur = cur.parent
    plan = configs_to_plan(np.array(configs[::-1]), inst.shape[1])
    extra = {"optimal_loss": bool(exhausted and anytime), "loss": int(goal_node.g)}
    return MapfResult(name, "success", plan, expansions=work, nodes=nodes, lower_bound=lb,
                      bound=None, extra=extra)


def _rewrite(frm: _HNode, goal_node, open_) -> None:
    """LaCAM*'s rewiring: a new edge may lower ``g`` of nodes reachable from ``to``."""
    tick = itertools.count()        # ties in insertion order (ids would vary run to run)
    heap = [(frm.g, next(tick), frm)]
    while heap:
        g, _, n_from = heapq.heappop(heap)
        if g > n_from.g:
            continue
        for m, c in n_from.nbrs.items():
            g2 = n_from.g + c
            if g2 < m.g:
                m.g = g2
                m.f = g2 + m.h
                m.parent = n_from
                heapq.heappush(heap, (g2, next(tick), m))
                if goal_node is not None and m.f < goal_node.g:
                    open_.append(m)
