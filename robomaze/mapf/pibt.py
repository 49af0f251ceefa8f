"""PIBT: priority inheritance with backtracking (Okumura et al., AIJ 2022).

Every step, agents in priority order take the free neighbour nearest their
goal; an agent that wants a cell held by a lower-priority agent lends it
its priority, and the chain backtracks when it cannot move. Priorities grow
while an agent is away from its goal. One step is one unit of work.
Incomplete (it can cycle), very fast; it is LaCAM's successor generator.
Agents with bodies (``size > 1``) push every agent their next place
overlaps (:mod:`._bodies`).
"""

from __future__ import annotations

import numpy as np

from ._kernels import pibt_run
from .instance import Instance
from .result import MapfResult, configs_to_plan

__all__ = ["solve_pibt"]


def solve_pibt(inst: Instance, *, max_work: int = 10_000, seed: int | None = 0) -> MapfResult:
    """Run PIBT for at most ``max_work`` steps."""
    nbr, deg = inst.graph()
    dist = inst.distances()
    configs, solved = pibt_run(nbr, deg, dist, inst.start_ids(), inst.goal_ids(),
                               int(max_work), np.uint64(seed or 0), inst.size, inst.shape[1])
    steps = configs.shape[0] - 1
    if not solved:
        return MapfResult("pibt", "budget" if steps >= max_work else "gave_up",
                          expansions=steps, nodes=steps, lower_bound=inst.lower_bound(),
                          reason="agents not all on their goals after the step budget"
                          if steps >= max_work else "PIBT found no next configuration")
    return MapfResult("pibt", "success", configs_to_plan(configs, inst.shape[1]),
                      expansions=steps, nodes=steps, lower_bound=inst.lower_bound())
