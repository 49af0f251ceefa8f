"""Micromouse mode: a cell-level mouse world, solvers, metrics and a host
for external mouse programs speaking the mms text protocol.

>>> from robomaze.maze import Maze
>>> run = solve(Maze.empty(4, 4, start=(3, 0), goals=[(1, 1)]))
>>> run.success, run.route_length
(True, 3)
"""

from __future__ import annotations


from ..maze import Maze
from .floodfill import WallMap, floodfill, floodfill_time, known_route
from .followers import left_wall, right_wall, tremaux, wall_follower
from ..metrics.micromouse import (MotionProfile, contest_score, mms_stats, route_commands,
                                  route_straights, route_turns, run_time)
from .profile import PROFILES, MouseProfile, get_profile, load_profile
from .result import MouseRun
from .route import FastRoute, fastest_route
from .world import MouseWorld, wall_array

__all__ = ["SOLVERS", "solve", "floodfill", "floodfill_time", "left_wall", "right_wall", "tremaux",
           "wall_follower", "MouseWorld", "MouseRun", "MotionProfile", "run_time",
           "route_turns", "route_straights", "contest_score", "mms_stats", "route_commands",
           "WallMap", "known_route",
           "wall_array", "MouseProfile", "PROFILES", "get_profile", "load_profile",
           "FastRoute", "fastest_route"]

#: Mouse solvers: name -> ``fn(maze, **options) -> MouseRun``:
#: :data:`robomaze.registry.SOLVERS`, specs in ``micromouse/_specs.py``.
from ..registry import SOLVERS  # noqa: E402
from . import _specs  # noqa: E402,F401  (declares the solvers and the profiles)


def solve(maze: Maze, *, method: str = "floodfill", **options) -> MouseRun:
    """Run a built-in solver by name (see :data:`SOLVERS`)."""
    return SOLVERS.lookup(method)(maze, **options)
