"""Path planners on occupancy grids, for a robot with a real footprint.

Every planner is ``fn(grid, start, goal, *, footprint=None, connectivity=4,
**options) -> Path``; start and goal are ``(row, col)`` grid cells (ints)
or ``(x, y)`` world points (floats). :data:`PLANNERS` maps names to
planners and :func:`plan` dispatches by name.

>>> from robomaze import Maze, widen
>>> g = widen(Maze.empty(2, 2), corridor=3, wall=1)
>>> p = plan(g, (2, 2), (6, 6), method="astar")
>>> p.length, p.length_cells, p.collision_free
(8.0, 2.0, True)
"""

from __future__ import annotations

from typing import Callable

from ..errors import NoPathError
from ..registry import PLANNERS
from ..geometry import Footprint, check_footprint
from ..grid import OccupancyGrid
from ._endpoints import check_connectivity
from .path import Path, make_path, retimed
from .anyangle import smooth, theta_star
from .clearance_planner import inflation_cost, max_clearance
from .footprint_planner import collision_free
from .search import astar, dijkstra
from .wavefront import wavefront, wavefront_field

__all__ = ["PLANNERS", "plan", "check_planner_options", "register", "unregister", "Path", "make_path", "wavefront", "wavefront_field",
           "dijkstra", "astar", "collision_free", "max_clearance", "inflation_cost",
           "theta_star", "smooth"]

#: Planner name -> planner function: :data:`robomaze.registry.PLANNERS`,
#: each entry a :class:`~robomaze.registry.Spec` declared in ``plan/_specs.py``
#: (entry points in the group ``robomaze.planners`` join on the first lookup).
from . import _specs  # noqa: E402,F401  (declares the built-in planners)
from .classic import (dead_end_filling, dfs_backtracking, pledge,  # noqa: E402,F401
                      random_mouse, tremaux, wall_follower)


def register(name: str, fn: Callable[..., Path] | None = None, *, replace: bool = False):
    """Register a planner ``fn(grid, start, goal, *, footprint, connectivity, **options) -> Path``.

    Usable as a decorator (``@register("mine")``); see :func:`robomaze.testing.check_planner`
    for the contract a planner must meet.
    """
    return PLANNERS.register(name, fn, replace=replace)


def unregister(name: str) -> Callable[..., Path]:
    """Remove the planner registered as ``name`` and return it."""
    return PLANNERS.unregister(name)


def check_planner_options(method: str, options: dict, *, keep: tuple = ()) -> None:
    """Raise ParameterError for an option planner ``method`` does not take.

    The planner's spec (:data:`robomaze.registry.PLANNERS`) declares its
    typed options (a classic solver, which takes ``**options``, also checks
    them itself); an OMPL planner's are checked by
    :func:`robomaze.plan.sampling.check_options` (names and values).
    ``keep``: runner arguments the caller lets the user set (the CLI's
    ``rng``).

    >>> check_planner_options("astar", {})
    >>> check_planner_options("max_clearance", {"wieght": 2})
    Traceback (most recent call last):
    ...
    robomaze.errors.ParameterError: planner 'max_clearance' takes no option 'wieght'; did you mean 'weight'? its options are: weight, decay, inflation_radius
    """
    PLANNERS.check(method, options, keep=keep)


def plan(grid: OccupancyGrid, start, goal, *, method: str, footprint: Footprint | None = None,
         connectivity: int = 4, **options) -> Path:
    """Plan with the planner registered as ``method``.

    Parameters
    ----------
    grid : OccupancyGrid
    start, goal : (row, col) or (x, y)
        Grid cells (ints) or world points (floats); None picks the maze's
        start / first goal on grids made by ``widen``.
    method : str
        A key of :data:`PLANNERS`.
    footprint : Footprint, optional
    connectivity : {4, 8}
    **options
        Passed to the planner.

    Raises
    ------
    UnknownNameError
        Unknown ``method`` (the message lists the valid names).
    ParameterError
        An option ``method`` does not take (the message names the accepted
        ones), or a bad value for an OMPL planner's option.

    Examples
    --------
    >>> from robomaze import OccupancyGrid
    >>> g = OccupancyGrid([[0, 0], [0, 0]])
    >>> plan(g, (0, 0), (1, 1), method="astar").length
    2.0
    >>> plan(g, (0, 0), (1, 1), method="astar", max_check=10)
    Traceback (most recent call last):
    ...
    robomaze.errors.ParameterError: planner 'astar' takes no option 'max_check'; its options are: none
    """
    from .._compile import method_clock

    fn = PLANNERS.lookup(method)
    check_connectivity(connectivity)
    # checked before any kernel compiles or OMPL object exists, as the CLI does
    check_planner_options(method, options)
    footprint = check_footprint(footprint)   # the planners' door: none checks it again
    # the reported time is the planner's CPU time without compiling: a
    # verdict never depends on load, and a first run is not a slow planner
    clock = method_clock()
    try:
        with clock:
            path = fn(grid, start, goal, footprint=footprint, connectivity=connectivity,
                      **options)
    except NoPathError as exc:
        # "no path" is a result too: its time is the planner's alone, like a path's
        exc.method_time = (clock.cpu_s, clock.compile_s)
        raise
    if not isinstance(path, Path):
        return path
    return retimed(path, time=clock.cpu_s, compile_time=clock.compile_s)
