"""Check a joint plan against its instance: the one judge of every solver's output.

Problems found (each a :class:`Problem` with a ``kind``):

=============  ==============================================================
``shape``      the plan's agent count differs from the instance's
``start``      an agent's first cell is not its start
``goal``       an agent's last cell is not its goal
``blocked``    a body touches an occupied or outside cell
``jump``       a step moves further than one 4-neighbour
``vertex``     two bodies share a grid cell at one time step
``edge``       two agents swap cells (point agents; larger square bodies that
               pass through each other always share a cell at ``t`` or
               ``t + 1``, found as ``vertex``)
``following``  an agent enters a cell another agent's body held one step
               before (only with ``following=True``; the standard MAPF model
               allows it)
``soc``        the stated sum of costs differs from the plan's
``makespan``   the stated makespan differs from the plan's
=============  ==============================================================

>>> import numpy as np
>>> from robomaze.mapf.instance import Instance
>>> inst = Instance(np.zeros((1, 3), bool), [(0, 0), (0, 2)], [(0, 2), (0, 0)])
>>> swap = Plan(np.array([[[0, 0], [0, 2]], [[0, 1], [0, 1]], [[0, 2], [0, 0]]]))
>>> [p.kind for p in find_problems(inst, swap)]
['vertex']
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import RobomazeError
from .instance import Instance
from .plan import Plan

__all__ = ["Problem", "InvalidPlanError", "find_problems", "validate_plan", "KINDS"]

KINDS = ("shape", "start", "goal", "blocked", "jump", "vertex", "edge", "following", "soc",
         "makespan")


@dataclass(frozen=True)
class Problem:
    """One violation: its kind, the time step, the agents and a sentence."""

    kind: str
    t: int
    agents: tuple
    message: str

    def __str__(self) -> str:
        return self.message


class InvalidPlanError(RobomazeError):
    """A plan breaks its instance's rules (the first problem is the message)."""


def find_problems(instance: Instance, plan: Plan, *, soc: int | None = None,
                  makespan: int | None = None, following: bool = False,
                  limit: int = 20) -> list[Problem]:
    """Every problem of ``plan`` (up to ``limit`` of each kind), ``[]`` if valid."""
    out: list[Problem] = []
    a = plan.cells
    n = instance.n_agents
    if a.shape[1] != n:
        return [Problem("shape", 0, (), f"plan has {a.shape[1]} agents; expected {n}")]
    h, w = instance.shape
    k = instance.size

    def add(kind, t, agents, msg):
        if sum(p.kind == kind for p in out) < limit:
            out.append(Problem(kind, int(t), tuple(int(x) for x in agents), msg))

    for i in np.flatnonzero((a[0] != instance.starts).any(axis=1)):
        add("start", 0, (i,), f"agent {i} starts at {tuple(a[0, i])}; expected its start "
            f"{tuple(instance.starts[i])}")
    for i in np.flatnonzero((a[-1] != instance.goals).any(axis=1)):
        add("goal", a.shape[0] - 1, (i,), f"agent {i} ends at {tuple(a[-1, i])}; expected "
            f"its goal {tuple(instance.goals[i])}")
    r, c = a[..., 0], a[..., 1]
    inside = (r >= 0) & (c >= 0) & (r <= h - k) & (c <= w - k)
    ok = np.zeros_like(inside)
    ok[inside] = instance.valid[r[inside], c[inside]]
    for t, i in np.argwhere(~ok):
        add("blocked", t, (i,), f"agent {i} at {tuple(a[t, i])} at step {t}: its body "
            "touches an occupied cell or leaves the grid")
    step = np.abs(np.diff(a, axis=0)).sum(axis=2)
    for t, i in np.argwhere(step > 1):
        add("jump", t + 1, (i,), f"agent {i} jumps from {tuple(a[t, i])} to "
            f"{tuple(a[t + 1, i])} at step {t + 1}; expected a 4-neighbour or a wait")
    _vertex(a, k, add)
    if k == 1:
        _swaps(a, w, add)
    if following:
        _following(a, k, add)
    real = plan.costs(instance.goals)
    if soc is not None and int(soc) != int(real.sum()):
        add("soc", 0, (), f"stated sum of costs {soc}; the plan's is {int(real.sum())}")
    mk = int(real.max()) if n else 0
    if makespan is not None and int(makespan) != mk:
        add("makespan", 0, (), f"stated makespan {makespan}; the plan's is {mk}")
    return out


def _pairs_overlapping(cells_t: np.ndarray, k: int):
    """Pairs ``(i, j)``, ``i < j``, whose ``k x k`` bodies at these cells overlap."""
    if k == 1:
        key = cells_t[:, 0] * (1 << 31) + cells_t[:, 1]
        order = np.argsort(key, kind="stable")
        sk = key[order]
        dup = np.flatnonzero(sk[1:] == sk[:-1])
        return [(min(order[d], order[d + 1]), max(order[d], order[d + 1])) for d in dup]
    d = np.abs(cells_t[:, None, :] - cells_t[None, :, :]).max(axis=2) < k
    return [(i, j) for i, j in np.argwhere(np.triu(d, 1))]


def _vertex(a, k, add):
    for t in range(a.shape[0]):
        for i, j in _pairs_overlapping(a[t], k):
            add("vertex", t, (i, j), f"agents {i} and {j} collide at step {t} "
                f"({tuple(a[t, i])} and {tuple(a[t, j])})")


def _swaps(a, w, add):
    ids = a[..., 0] * w + a[..., 1]
    for t in range(a.shape[0] - 1):
        src, dst = ids[t], ids[t + 1]
        moved = src != dst
        fwd = {(int(s), int(d)): i for i, (s, d) in enumerate(zip(src, dst)) if moved[i]}
        for (s, d), i in fwd.items():
            j = fwd.get((d, s))
            if j is not None and i < j:
                add("edge", t + 1, (i, j), f"agents {i} and {j} swap {tuple(a[t, i])} and "
                    f"{tuple(a[t, j])} between steps {t} and {t + 1}")


def _following(a, k, add):
    for t in range(a.shape[0] - 1):
        moved = np.flatnonzero((a[t + 1] != a[t]).any(axis=1))
        if not len(moved):
            continue
        d = np.abs(a[t + 1][moved][:, None, :] - a[t][None, :, :]).max(axis=2) < k
        for m, j in np.argwhere(d):
            i = moved[m]
            if i != j:
                add("following", t + 1, (i, j), f"agent {i} enters {tuple(a[t + 1, i])} at "
                    f"step {t + 1}, held by agent {j} at step {t}")


def validate_plan(instance: Instance, plan: Plan, **kw) -> None:
    """Raise :class:`InvalidPlanError` naming the first problem (and the count)."""
    probs = find_problems(instance, plan, **kw)
    if probs:
        more = f" (and {len(probs) - 1} more problems)" if len(probs) > 1 else ""
        raise InvalidPlanError(f"invalid plan: {probs[0].message}{more}")
