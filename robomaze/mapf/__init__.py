"""Multi-agent path finding (MAPF) on mazes and widened grids.

Many agents share a grid; each moves one 4-neighbour or waits per time
step, and no two may be in one place at one time or swap places. This
package holds the problem and its files, a validator, and the solvers:

==================  ==========================================================
``instance``        :class:`Instance` (grid, starts, goals, body size)
``scen``            MovingAI ``.map`` + ``.scen`` files (one agent per line)
``plan``            :class:`Plan` and the community plan file
``generate``        seeded instances on any maze or grid (random / even)
``validate``        vertex, edge (swap), following conflicts; start, goal,
                    stated sum of costs and makespan
``prioritized``     prioritised planning, space-time A* with reservations
``cbs``             CBS with bypass, cardinal conflicts first, CG heuristic
``ecbs``            ECBS with suboptimality bound ``w``
``pibt``            PIBT
``lacam``           LaCAM* (anytime) / LaCAM
==================  ==========================================================

Solvers are in :data:`SOLVERS` (:data:`robomaze.registry.MAPF_SOLVERS`,
entry-point group ``robomaze.mapf_solvers``); :func:`solve` runs one and
validates its plan.

>>> inst = maze_instance(8, rows=5, cols=5, corridor=2, seed=4)
>>> r = solve(inst, "cbs")
>>> r.outcome, r.soc >= inst.lower_bound()
('success', True)
"""

from __future__ import annotations

from ..registry import MAPF_SOLVERS as SOLVERS
from .cbs import solve_cbs
from .ecbs import solve_ecbs
from .generate import BUCKETS, maze_instance, random_instance
from .instance import Instance, body_size
from .lacam import solve_lacam
from .pibt import solve_pibt
from .plan import Plan, PlanFile, format_plan, parse_plan, read_plan, write_plan
from .prioritized import solve_prioritized
from .result import MapfResult
from .scen import read_mapf, write_mapf
from .validate import InvalidPlanError, Problem, find_problems, validate_plan

__all__ = ["SOLVERS", "solve", "Instance", "Plan", "PlanFile", "MapfResult", "body_size",
           "maze_instance", "random_instance", "BUCKETS", "read_mapf", "write_mapf",
           "format_plan", "parse_plan", "read_plan", "write_plan", "find_problems",
           "validate_plan", "InvalidPlanError", "Problem"]


def _lacam(inst, **kw):
    kw.setdefault("anytime", False)
    return solve_lacam(inst, **kw)


#: MAPF solvers by name: ``f(instance, *, max_work, seed, **options) -> MapfResult``:
#: :data:`robomaze.registry.MAPF_SOLVERS`, specs in ``mapf/_specs.py``.
from . import _specs  # noqa: E402,F401  (declares the built-in solvers)


def solve(instance: Instance, solver: str = "lacam_star", *, max_work: int | None = None,
          seed: int | None = 0, validate: bool = True, **options) -> MapfResult:
    """Run a solver of :data:`SOLVERS` on ``instance``; its plan, if any, is
    checked by :func:`validate_plan` (an invalid plan raises)."""
    fn = SOLVERS.lookup(solver)
    instance.check_solvable()
    kw = dict(options, seed=seed)
    if max_work is not None:
        kw["max_work"] = int(max_work)
    res = fn(instance, **kw)
    if validate and res.plan is not None:
        validate_plan(instance, res.plan)
    return res
