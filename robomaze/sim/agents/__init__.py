"""Agents (controllers) registered by name, like planners.

``AGENTS`` maps a name to a factory ``factory(ctx, **options) -> agent``;
the agent is called once per step with the observation and returns an
action. Each agent's spec (``sim/agents/_specs.py``) declares its typed
options and two flags: ``uses_map`` (it is given the occupancy grid;
otherwise it only knows the map frame) and ``explorer`` (its runs report
the fraction of the maze seen).

>>> sorted(AGENTS)
['car_pursuit', 'explore', 'follow_plan', 'tremaux', 'wall_follow']
"""

from __future__ import annotations

from typing import Callable

from ...registry import AGENTS
from .base import AgentContext
from .car_pursuit import car_pursuit
from .explore import explore
from .follow_plan import follow_plan
from .tremaux import tremaux
from .wall_follow import wall_follow

__all__ = ["AGENTS", "AgentContext", "make_agent", "register", "unregister"]

#: Agent name -> factory: :data:`robomaze.registry.AGENTS` (entry points in
#: the group ``robomaze.agents`` join on the first lookup).
from . import _specs  # noqa: E402,F401  (declares the built-in agents)


def register(name: str, factory: Callable | None = None, *, replace: bool = False):
    """Register an agent ``factory(ctx, **options) -> agent`` (or decorate)."""
    return AGENTS.register(name, factory, replace=replace)


def unregister(name: str) -> Callable:
    """Remove the agent registered as ``name`` and return it."""
    return AGENTS.unregister(name)



def make_agent(name: str, ctx: AgentContext, **options):
    """Build the agent registered as ``name``."""
    return AGENTS.lookup(name)(ctx, **options)
