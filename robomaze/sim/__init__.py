"""Simulation: robots with footprints and range sensors moving through grids.

:class:`SimEnv` is the Gymnasium-style simulator, :class:`Robot` a footprint
with kinematics and sensors, :class:`Trajectory` what a run executed (with
its ``.npz`` file format), :data:`AGENTS` the registry of controllers and
:func:`simulate` the one-call front-end.
"""

from ..geometry.validity import Collider, collides
from .env import GoalRegion, SimEnv
from .kinematics import Kinematics, wrap_angle
from .robot import Robot
from .replay import replay
from .trajectory import Trajectory
from .agents import AGENTS, AgentContext, make_agent
from .runner import SimResult, simulate

__all__ = ["SimEnv", "GoalRegion", "Robot", "Kinematics", "Trajectory", "replay", "Collider",
           "collides", "wrap_angle", "AGENTS", "AgentContext", "make_agent", "simulate", "SimResult"]
