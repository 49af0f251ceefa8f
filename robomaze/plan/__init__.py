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

from .._options import keywords, refuse
from .._registry import Registry
from ..geometry import Footprint
from ..grid import OccupancyGrid
from ._endpoints import check_connectivity
from .path import Path, make_path, retimed
from .anyangle import smooth, theta_star
from .clearance_planner import inflation_cost, max_clearance
from .footprint_planner import collision_free
from .search import astar, dijkstra
from .wavefront import wavefront, wavefront_field

__all__ = ["PLANNERS", "plan", "check_planner_options", "register", "unregister", "check_planner", "Path", "make_path", "wavefront", "wavefront_field",
           "dijkstra", "astar", "collision_free", "max_clearance", "inflation_cost",
           "theta_star", "smooth"]

#: Planner name -> planner function (a :class:`robomaze._registry.Registry`;
#: entry points in the group ``robomaze.planners`` join on the first lookup).
PLANNERS: Registry = Registry("planner", "robomaze.planners", {
    "wavefront": wavefront,
    "dijkstra": dijkstra,
    "astar": astar,
    "collision_free": collision_free,
    "max_clearance": max_clearance,
    "theta_star": theta_star,
})

# classic maze solvers (robomaze/plan/classic/) register below this line
# --- classic maze solvers ---
from .classic import (dead_end_filling, dfs_backtracking, pledge,  # noqa: E402
                      random_mouse, tremaux, wall_follower)
PLANNERS["wall_follower"] = wall_follower
PLANNERS["pledge"] = pledge
PLANNERS["tremaux"] = tremaux
PLANNERS["dfs_backtracking"] = dfs_backtracking
PLANNERS["dead_end_filling"] = dead_end_filling
PLANNERS["random_mouse"] = random_mouse
# --- end classic maze solvers ---

# --- sampling-based planners through OMPL (robomaze[ompl]; OMPL imported when one runs) ---
from .sampling import OMPL_PLANNERS as _OMPL, CAR_SPACES as _CARS, ompl_planner  # noqa: E402
for _name in _OMPL:
    PLANNERS["ompl:" + _name] = ompl_planner(_name)
for _space in _CARS:
    PLANNERS["ompl:" + _space] = ompl_planner("rrt_connect", space=_space)
# --- end OMPL planners ---

from .contract import check_planner  # noqa: E402


def register(name: str, fn: Callable[..., Path] | None = None, *, replace: bool = False):
    """Register a planner ``fn(grid, start, goal, *, footprint, connectivity, **options) -> Path``.

    Usable as a decorator (``@register("mine")``); see :func:`check_planner`
    for the contract a planner must meet.
    """
    return PLANNERS.register(name, fn, replace=replace)


def unregister(name: str) -> Callable[..., Path]:
    """Remove the planner registered as ``name`` and return it."""
    return PLANNERS.unregister(name)


def check_planner_options(method: str, options: dict, *, keep: tuple = ()) -> None:
    """Raise ParameterError for an option planner ``method`` does not take.

    The planner's keyword parameters are its options (a planner taking
    ``**options`` checks them itself); an OMPL planner's are checked by
    :func:`robomaze.plan.sampling.typed_options` (names and values).
    ``keep``: runner arguments the caller lets the user set (the CLI's
    ``rng``).

    >>> check_planner_options("astar", {})
    >>> check_planner_options("max_clearance", {"wieght": 2})
    Traceback (most recent call last):
    ...
    robomaze.errors.ParameterError: planner 'max_clearance' takes no option 'wieght'; did you mean 'weight'? its options are: weight, decay, inflation_radius
    """
    if not options:
        return
    fn = PLANNERS.lookup(method)
    if method.startswith("ompl:"):
        from .sampling import typed_options

        typed_options(method, {k: v for k, v in options.items() if k not in keep})
        return
    valid, anything = keywords(fn, keep)
    if anything:
        return                                # it takes anything and checks it itself
    for opt in options:
        if opt not in valid:
            raise refuse("planner", method, opt, valid)


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
    from .._clock import method_clock

    fn = PLANNERS.lookup(method)
    check_connectivity(connectivity)
    # checked before any kernel compiles or OMPL object exists, as the CLI does
    check_planner_options(method, options)
    # the reported time is the planner's CPU time without compiling: a
    # verdict never depends on load, and a first run is not a slow planner
    with method_clock() as clock:
        path = fn(grid, start, goal, footprint=footprint, connectivity=connectivity, **options)
    if not isinstance(path, Path):
        return path
    return retimed(path, time=clock.cpu_s, compile_time=clock.compile_s)
