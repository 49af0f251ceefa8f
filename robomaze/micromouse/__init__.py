"""Micromouse mode: a cell-level mouse world, solvers, metrics and a host
for external mouse programs speaking the mms text protocol.

>>> from robomaze.maze import Maze
>>> run = solve(Maze.empty(4, 4, start=(3, 0), goals=[(1, 1)]))
>>> run.success, run.route_length
(True, 3)
"""

from __future__ import annotations


import importlib
import sys
import types

from ..maze import Maze

# names -> the module that defines them, imported on first use: ``robomaze
# mouse route`` needs the route search only, not the flood fill's numba
# kernels (numba's import alone costs ~0.4 s of CPU)
_LAZY = {
    **dict.fromkeys(("WallMap", "floodfill", "floodfill_time", "known_route"), "floodfill"),
    **dict.fromkeys(("left_wall", "right_wall", "tremaux", "wall_follower"), "followers"),
    **dict.fromkeys(("MotionProfile", "contest_score", "mms_stats", "route_commands",
                     "route_straights", "route_turns", "run_time"), "robomaze.metrics.micromouse"),
    **dict.fromkeys(("PROFILES", "MouseProfile", "get_profile", "load_profile"), "profile"),
    "MouseRun": "result",
    **dict.fromkeys(("FastRoute", "RouteSearch", "fastest_route"), "route"),
    **dict.fromkeys(("MouseWorld", "wall_array"), "world"),
    "warm_up": "_warm",
}

__all__ = ["SOLVERS", "solve", "floodfill", "floodfill_time", "left_wall", "right_wall", "tremaux",
           "wall_follower", "MouseWorld", "MouseRun", "MotionProfile", "run_time",
           "route_turns", "route_straights", "contest_score", "mms_stats", "route_commands",
           "WallMap", "known_route",
           "wall_array", "MouseProfile", "PROFILES", "get_profile", "load_profile",
           "FastRoute", "RouteSearch", "fastest_route", "warm_up"]


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    # a module of this package by its name, another (the metrics) by its full name
    full = module if module.startswith("robomaze.") else f"{__name__}.{module}"
    value = getattr(importlib.import_module(full), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


class _Package(types.ModuleType):
    """This package, where a submodule named like its own function (``floodfill``)
    never replaces the function.

    Importing ``robomaze.micromouse.floodfill`` (the module; ``followers`` does,
    the warm-up does) makes Python set the package's attribute ``floodfill``
    to that module, so ``from robomaze.micromouse import floodfill`` gave a
    module, not the public function, depending on what ran first. The
    module stays importable by its full name (``from
    robomaze.micromouse.floodfill import WallMap``).
    """

    def __setattr__(self, name, value):
        if isinstance(value, types.ModuleType) and _LAZY.get(name) == name \
                and value.__name__ == f"{self.__name__}.{name}":
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


#: Mouse solvers: name -> ``fn(maze, **options) -> MouseRun``:
#: :data:`robomaze.registry.SOLVERS`, specs in ``micromouse/_specs.py``.
from ..registry import SOLVERS  # noqa: E402
from . import _specs  # noqa: E402,F401  (declares the solvers and the profiles)


def solve(maze: Maze, *, method: str = "floodfill", **options) -> MouseRun:
    """Run a built-in solver by name (see :data:`SOLVERS`)."""
    return SOLVERS.lookup(method)(maze, **options)
