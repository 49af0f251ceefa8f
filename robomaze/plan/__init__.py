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

from ..errors import unknown_name
from ..geometry import Footprint
from ..grid import OccupancyGrid
from ._endpoints import check_connectivity
from .path import Path, make_path
from .anyangle import smooth, theta_star
from .clearance_planner import inflation_cost, max_clearance
from .footprint_planner import collision_free
from .search import astar, dijkstra
from .wavefront import wavefront, wavefront_field

__all__ = ["PLANNERS", "plan", "Path", "make_path", "wavefront", "wavefront_field",
           "dijkstra", "astar", "collision_free", "max_clearance", "inflation_cost",
           "theta_star", "smooth"]

#: Planner name -> planner function.
PLANNERS: dict[str, Callable[..., Path]] = {
    "wavefront": wavefront,
    "dijkstra": dijkstra,
    "astar": astar,
    "collision_free": collision_free,
    "max_clearance": max_clearance,
    "theta_star": theta_star,
}

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
    """
    if method not in PLANNERS:
        raise unknown_name("planner", method, PLANNERS)
    check_connectivity(connectivity)
    return PLANNERS[method](grid, start, goal, footprint=footprint, connectivity=connectivity,
                            **options)
