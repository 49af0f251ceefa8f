"""Agents (controllers) registered by name, like planners.

``AGENTS`` maps a name to a factory ``factory(ctx, **options) -> agent``;
the agent is called once per step with the observation and returns an
action. Each factory carries two flags: ``uses_map`` (it is given the
occupancy grid; otherwise it only knows the map frame) and ``explorer``
(its runs report the fraction of the maze seen).

>>> sorted(AGENTS)
['explore', 'follow_plan', 'tremaux', 'wall_follow']
"""

from __future__ import annotations

from typing import Callable

from ...errors import unknown_name
from .base import AgentContext
from .explore import explore
from .follow_plan import follow_plan
from .tremaux import tremaux
from .wall_follow import wall_follow

__all__ = ["AGENTS", "AgentContext", "make_agent"]

#: Agent name -> factory.
AGENTS: dict[str, Callable] = {
    "wall_follow": wall_follow,
    "follow_plan": follow_plan,
    "explore": explore,
    "tremaux": tremaux,
}


def make_agent(name: str, ctx: AgentContext, **options):
    """Build the agent registered as ``name``."""
    if name not in AGENTS:
        raise unknown_name("agent", name, AGENTS)
    return AGENTS[name](ctx, **options)
