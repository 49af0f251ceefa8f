"""The contract every registered agent meets, as a check plugin authors can run.

>>> from robomaze.sim.agents import follow_plan
>>> check_agent(follow_plan)
'agent follow_plan: 4 checks passed'
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

import numpy as np

from ..errors import ContractError
from ..geometry import Footprint
from ..maze import Maze
from ..registry import Spec
from ..sim import simulate
from ..sim.agents import AGENTS
from ..world import widen_maze

__all__ = ["check_agent"]


def check_agent(factory: Callable, *, name: str | None = None, require_goal: bool = True,
                max_steps: int = 4000, **options) -> str:
    """Drive an agent in the simulator on a small open maze and check the run.

    The factory is registered under a temporary name and run by
    :func:`robomaze.sim.simulate` (a disc of radius 0.1 m on a 2x2 maze
    widened to 5-cell corridors at 0.1 m, lidar, ``rng=3``) twice. It must
    build an agent that is callable, drive without raising, produce the
    same trajectory for the same seed, and (``require_goal``) reach the
    goal within ``max_steps``.

    Parameters
    ----------
    factory : callable or Spec
        ``factory(ctx, **options) -> agent``, or its
        :class:`robomaze.registry.Spec` (its flags and needs hold: an agent
        needing a contact sensor is run with ``sensor=`` one).
    name : str, optional
        Used in messages; default ``factory.__name__``.
    require_goal : bool
        Also require reaching the goal (explorers that may wander: False).
    max_steps : int
    **options
        Passed to the factory.

    Returns
    -------
    str
        A one-line summary.

    Raises
    ------
    ContractError
        Listing every check that failed.
    """
    if not isinstance(factory, Spec):
        # a registered agent's own function: run it with its spec's flags and needs
        entry = f"{getattr(factory, '__module__', '')}:{getattr(factory, '__qualname__', '')}"
        factory = next((s for s in AGENTS.specs() if s.entry == entry
                        or (s.loaded and s.load() is factory)), factory)
    label = name or (factory.name if isinstance(factory, Spec)
                     else getattr(factory, "__name__", repr(factory)))
    tmp = f"__check_agent_{id(factory)}"
    # a spec keeps its flags and needs under the temporary name
    AGENTS.register(replace(factory, name=tmp) if isinstance(factory, Spec) else tmp,
                    None if isinstance(factory, Spec) else factory, replace=True)
    failures: list[str] = []
    g = widen_maze(Maze.empty(2, 2), corridor=5, wall=1, resolution=0.1)
    fp = Footprint.disc(0.1)
    try:
        runs = []
        for _ in range(2):
            try:
                runs.append(simulate(g, footprint=fp, agent=tmp, max_steps=max_steps, rng=3,
                                     **options))
            except Exception as exc:  # the report says what was raised
                failures.append(f"simulate raised {type(exc).__name__}: {exc}")
                break
    finally:
        AGENTS.unregister(tmp)
    if len(runs) == 2:
        a, b = runs
        if not callable(a.agent):
            failures.append(f"factory returned {type(a.agent).__name__}, expected a callable agent")
        if not np.array_equal(np.asarray(a.trajectory.poses), np.asarray(b.trajectory.poses)):
            failures.append("two runs with the same seed drove different trajectories")
        if require_goal and not a.success:
            failures.append(f"did not reach the goal on an open 2x2 maze ({a.reason})")
    if failures:
        raise ContractError(f"agent {label} breaks the agent contract:\n  " + "\n  ".join(failures))
    return f"agent {label}: 4 checks passed"
