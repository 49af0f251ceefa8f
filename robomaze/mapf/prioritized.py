"""Prioritised planning: agents one at a time with space-time A* and a reservation table.

Agents are planned in priority order (longest shortest path first, then
index); each one's path is reserved for those after it, cell by cell and
time step by time step (a body reserves every reference cell it overlaps),
and its goal is reserved from its arrival on (*goal reservations*), so a
later agent neither crosses a parked agent nor parks where an earlier agent
still has to pass. Fast and incomplete: an agent with no path under the
reservations ends the run (``gave_up``).
"""

from __future__ import annotations

import numpy as np

from .instance import Instance
from .lowlevel import Lowlevel
from .result import MapfResult, paths_to_plan

__all__ = ["solve_prioritized"]


def solve_prioritized(inst: Instance, *, max_work: int = 10_000_000, seed: int | None = None,
                      order: str = "longest") -> MapfResult:
    """Plan ``inst`` with prioritised planning (see the module docstring).

    ``order``: ``longest`` (longest shortest path first) or ``index``.
    """
    from ..errors import ParameterError

    if order not in ("longest", "index"):
        raise ParameterError(f"order must be 'longest' or 'index', got {order!r}")
    ll = Lowlevel(inst)
    n = inst.n_agents
    d0 = ll.dist[np.arange(n), ll.starts]
    ranks = sorted(range(n), key=lambda i: (-int(d0[i]), i)) if order == "longest" \
        else list(range(n))
    blk = np.full((1, ll.nv), -1, np.int32)
    goal_from = ll.no_goal_block.copy()
    paths: list = [None] * n
    spent = 0
    for i in ranks:
        path, cost, _lb, exp = ll.plan(i, blk, ll.no_edges, goal_from=goal_from,
                                       max_expand=max_work - spent)
        spent += exp
        if cost < 0:
            outcome = "budget" if cost == -2 else "gave_up"
            return MapfResult("prioritized", outcome, expansions=spent, nodes=n,
                              lower_bound=inst.lower_bound(),
                              reason=f"agent {i} found no path under the reservations"
                              if cost == -1 else "work budget spent")
        paths[i] = path
        if len(path) > blk.shape[0]:
            blk = np.vstack([blk, np.full((len(path) - blk.shape[0], ll.nv), -1, np.int32)])
        for t, v in enumerate(path):
            blk[t, ll.mark(v)] = i
        m = ll.mark(path[-1])
        blk[len(path) - 1:, m] = i
        goal_from[m] = np.minimum(goal_from[m], len(path) - 1)
    plan = paths_to_plan(paths, inst.shape[1])
    return MapfResult("prioritized", "success", plan, expansions=spent, nodes=n,
                      lower_bound=inst.lower_bound(), bound=None)
