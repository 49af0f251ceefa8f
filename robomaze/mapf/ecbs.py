"""ECBS: bounded-suboptimal CBS with focal search at both levels (Barer et al. 2014).

With a bound ``w >= 1`` the low level is a focal search: among the nodes
with ``f <= w * f_min`` it expands the one with the fewest conflicts with
the other agents' paths, and returns a path of cost at most ``w`` times
its lower bound ``f_min``. A constraint-tree node's lower bound ``LB`` is
the sum of its agents' lower bounds; the high level expands, among the
nodes whose cost is at most ``w * min LB``, the one with the fewest
conflicting pairs. The first conflict-free node expanded therefore costs
at most ``w`` times the optimal sum of costs; the result reports ``w`` and
the proven ratio ``soc / min LB``.
"""

from __future__ import annotations

import heapq
import itertools

from ..errors import ParameterError
from .cbs import _Node, _Search
from .instance import Instance
from .result import BudgetSpent, MapfResult, Work, paths_to_plan

__all__ = ["solve_ecbs"]


def solve_ecbs(inst: Instance, *, w: float = 1.2, max_work: int = 2_000_000,
               max_nodes: int = 100_000, seed: int | None = None) -> MapfResult:
    """Plan ``inst`` within ``w`` times the optimal sum of costs (or spend the budget)."""
    if not (isinstance(w, (int, float)) and w >= 1.0):
        raise ParameterError(f"w must be a number >= 1, got {w!r}")
    work = Work(max_work=max_work, max_nodes=max_nodes)
    s = _Search(inst, work, w=w)
    n = inst.n_agents
    lb0 = inst.lower_bound()
    empty = ((), ())
    best_lb = lb0
    try:
        paths: list = [None] * n
        costs = [0] * n
        lbs = [0] * n
        for i in range(n):
            r = s.replan(i, empty, paths)
            if r is None:
                return MapfResult("ecbs", "no_path", expansions=work.expansions,
                                  lower_bound=lb0, bound=w,
                                  reason=f"agent {i} cannot reach its goal")
            paths[i], costs[i], lbs[i] = r
        root = _Node(tuple([empty] * n), paths, costs, s.all_conflicts(paths))
        root.lbs = lbs
        root.lb = sum(lbs)
        work.add(nodes=1)
        tick = itertools.count()
        open_lb = [(root.lb, next(tick), root)]        # by lower bound
        alive = {id(root): root}
        while alive:
            while id(open_lb[0][2]) not in alive:
                heapq.heappop(open_lb)
            lb_min = open_lb[0][0]
            best_lb = max(best_lb, lb_min)
            # focal: cost within w * LB_min, fewest conflicting pairs, then cheapest
            node = min((nd for nd in alive.values() if nd.cost <= w * lb_min),
                       key=lambda nd: (len(nd.conf), nd.cost, nd.lb))
            del alive[id(node)]
            if not node.conf:
                return MapfResult("ecbs", "success", paths_to_plan(node.paths, s.cols),
                                  expansions=work.expansions, nodes=work.nodes,
                                  lower_bound=int(lb_min), bound=float(w),
                                  extra={"proven_ratio": node.cost / max(lb_min, 1)})
            pair, c = min(node.conf.items(), key=lambda kv: (kv[1][1], kv[0]))
            for agent, cons_a in s.child_constraints(node, pair, c):
                new_cons = node.cons[:agent] + (cons_a,) + node.cons[agent + 1:]
                new_paths = list(node.paths)
                r = s.replan(agent, cons_a, new_paths)
                work.add(nodes=1)
                if r is None:
                    continue
                new_paths[agent], cost_a, lb_a = r
                new_costs = list(node.costs)
                new_costs[agent] = cost_a
                child = _Node(new_cons, new_paths, new_costs,
                              s.update_conflicts(node.conf, new_paths, agent))
                child.lbs = list(node.lbs)
                child.lbs[agent] = lb_a
                child.lb = sum(child.lbs)
                alive[id(child)] = child
                heapq.heappush(open_lb, (child.lb, next(tick), child))
        return MapfResult("ecbs", "no_path", expansions=work.expansions, nodes=work.nodes,
                          lower_bound=best_lb, bound=float(w),
                          reason="every constraint tree branch is infeasible")
    except BudgetSpent:
        return MapfResult("ecbs", "budget", expansions=work.expansions, nodes=work.nodes,
                          lower_bound=best_lb, bound=float(w), reason="work budget spent")
