"""What a MAPF solver returns: the plan (or why there is none) and the work it did.

Budgets are counted in work, never in time: ``max_work`` caps the
solver's *work units* -- low-level expansions for search-based solvers
(space-time A* nodes expanded, summed over every call), configurations
generated for PIBT and LaCAM -- and ``max_nodes`` caps high-level nodes
(CBS/ECBS constraint-tree nodes, LaCAM's configurations).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .plan import Plan

__all__ = ["MapfResult", "Work", "BudgetSpent"]


class BudgetSpent(Exception):
    """Raised inside a solver when its work budget is spent (caught by the solver)."""


@dataclass
class Work:
    """Work counters and their caps."""

    max_work: int = 10_000_000
    max_nodes: int = 1_000_000
    expansions: int = 0
    nodes: int = 0

    def add(self, expansions: int = 0, nodes: int = 0) -> None:
        """Count work; raise :class:`BudgetSpent` past a cap."""
        self.expansions += int(expansions)
        self.nodes += int(nodes)
        if self.expansions > self.max_work or self.nodes > self.max_nodes:
            raise BudgetSpent

    @property
    def left(self) -> int:
        return max(0, self.max_work - self.expansions)


@dataclass
class MapfResult:
    """A solver's answer.

    ``outcome`` is ``success``, ``budget`` (work budget spent), ``no_path``
    (proven unsolvable) or ``gave_up`` (an incomplete solver stopped);
    ``lower_bound`` is the best proven lower bound on the optimal sum of
    costs the solver knows (CBS's best open cost, LaCAM*'s when its search
    ends, else the sum of shortest paths); ``bound`` is the suboptimality
    factor the solver guarantees (1 for optimal, w for ECBS, None for
    none).
    """

    solver: str
    outcome: str
    plan: Plan | None = None
    expansions: int = 0
    nodes: int = 0
    lower_bound: int | None = None
    bound: float | None = None
    reason: str | None = None
    extra: dict = field(default_factory=dict)

    @property
    def success(self) -> bool:
        return self.outcome == "success" and self.plan is not None

    @property
    def soc(self) -> int | None:
        return self.plan.soc if self.plan is not None else None

    @property
    def makespan(self) -> int | None:
        return self.plan.makespan if self.plan is not None else None

    def summary(self) -> dict:
        """JSON-ready numbers of the result."""
        return {"solver": self.solver, "outcome": self.outcome, "success": self.success,
                "soc": self.soc, "makespan": self.makespan, "expansions": self.expansions,
                "nodes": self.nodes, "lower_bound": self.lower_bound, "bound": self.bound,
                "reason": self.reason, **self.extra}


def configs_to_plan(configs: np.ndarray, cols: int) -> Plan:
    """A trimmed :class:`Plan` from vertex-id configurations."""
    return Plan.from_vertices(configs, cols).trimmed()


def paths_to_plan(paths: list, cols: int) -> Plan:
    """A :class:`Plan` from per-agent vertex paths (each waits at its end)."""
    t = max(len(p) for p in paths)
    out = np.empty((t, len(paths)), np.int64)
    for i, p in enumerate(paths):
        out[: len(p), i] = p
        out[len(p):, i] = p[-1]
    return Plan.from_vertices(out, cols).trimmed()
