"""Traffic: several robots and moving obstacles in one maze.

Robots (footprint, sensor, start, goal, differential / car / holonomic
kinematics) and moving obstacles (discs, rectangles, polygons following
waypoints, wandering, or walking as social-force pedestrians) share one
widened maze. :class:`TrafficSpec` describes such a world as data,
:func:`build` makes it, :func:`run_traffic` runs it to success, deadlock or
budget. Robots avoid each other with ORCA (:mod:`robomaze.traffic._orca`,
a port of RVO2 checked against ``pyrvo``); contacts are found exactly and
continuously (conservative advancement between bodies, the simulator's
swept check against walls); range sensors see walls, robots and obstacles.
:class:`~robomaze.envs.multi_maze.MultiMazeEnv` is the PettingZoo ParallelEnv.
"""

from .spec import (AGENT_CHOICES, ASSIGNMENTS, BEHAVIOURS, KINEMATICS, ObstacleSpec,
                   OrcaParams, RobotSpec, TrafficSpec, child_rng)
from .world import TrafficWorld, build
from .run import OUTCOMES, ROBOT_METRICS, RUN_METRICS, TrafficResult, run_traffic
from .stall import StallDetector
from .metrics import time_to_collision

__all__ = ["TrafficSpec", "RobotSpec", "ObstacleSpec", "OrcaParams", "TrafficWorld", "build",
           "run_traffic", "TrafficResult", "StallDetector", "time_to_collision", "KINEMATICS",
           "BEHAVIOURS", "ASSIGNMENTS", "AGENT_CHOICES", "OUTCOMES", "ROBOT_METRICS",
           "RUN_METRICS", "child_rng"]
