"""The MAPF solvers' declarations: one :class:`~robomaze.registry.Spec` each.

Every solver is ``f(instance, *, max_work, seed, **options) -> MapfResult``;
``seed`` is the runner's (``takes_rng``), ``max_work`` the budget each
declares with its own default.

>>> from robomaze.registry import MAPF_SOLVERS
>>> MAPF_SOLVERS.spec("ecbs").option("w").low
1.0
"""

from __future__ import annotations

from ..registry import MAPF_SOLVERS, Option, Spec

__all__ = ["SPECS"]


def _work(default: int, unit: str) -> Option:
    return Option("max_work", int, default, f"budget in {unit} (machine-independent)", low=1)


def _nodes(default: int) -> Option:
    return Option("max_nodes", int, default, "most search nodes kept", low=1)


def _solver(name: str, entry: str, description: str, *options: Option) -> Spec:
    return Spec("MAPF solver", name, entry, description, options=options, takes_rng=True)


SPECS = [
    _solver("prioritized", "robomaze.mapf.prioritized:solve_prioritized",
            "Prioritised planning: space-time A* with reservations, one agent after another.",
            _work(10_000_000, "node expansions"),
            Option("order", str, "longest", "agent order: longest shortest path first, or by "
                   "index", choices=("longest", "index"))),
    _solver("cbs", "robomaze.mapf.cbs:solve_cbs",
            "Optimal sum of costs by CBS with bypass, cardinal conflicts first and the "
            "cardinal-conflict-graph heuristic.",
            _work(2_000_000, "node expansions"), _nodes(100_000),
            Option("bypass", bool, True, "take conflict-free bypasses"),
            Option("heuristic", bool, True, "the cardinal-conflict-graph heuristic"),
            Option("prioritize", bool, True, "split cardinal conflicts first")),
    _solver("ecbs", "robomaze.mapf.ecbs:solve_ecbs",
            "ECBS: within w times the optimal sum of costs (or spend the budget).",
            Option("w", float, 1.2, "suboptimality bound", low=1.0),
            _work(2_000_000, "node expansions"), _nodes(100_000)),
    _solver("pibt", "robomaze.mapf.pibt:solve_pibt", "PIBT: priority inheritance with "
            "backtracking, one step at a time.", _work(10_000, "steps")),
    _solver("lacam", "robomaze.mapf:_lacam", "LaCAM: the first plan of its search.",
            _work(20_000, "PIBT calls"), _nodes(1_000_000),
            Option("restart", float, 0.001, "restart probability", low=0.0, high=1.0)),
    _solver("lacam_star", "robomaze.mapf.lacam:solve_lacam",
            "LaCAM*: anytime, refines its plan until the budget ends.",
            _work(20_000, "PIBT calls"), _nodes(1_000_000),
            Option("anytime", bool, True, "keep refining after the first plan"),
            Option("restart", float, 0.001, "restart probability", low=0.0, high=1.0)),
]

MAPF_SOLVERS.declare(*SPECS)
