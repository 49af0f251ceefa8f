"""Dijkstra and A* on the grid graph (MovingAI convention).

Moves go to the 4 orthogonal neighbours (cost 1 cell) or, with
``connectivity=8``, also to the diagonals (cost sqrt(2)) when both cells
beside the diagonal are free (no corner cutting). The graph is the free
configuration space of the footprint (clearance > radius for discs, the
circumscribed disc for other shapes). Lengths are reported in metres.

Tie-breaking (documented because it decides which of several optimal
paths is returned):

* ``astar``, 4-connected: Manhattan heuristic and an exact two-level
  bucket queue (``f`` and ``f + 2``); among equal ``f`` the most recently
  generated node (the deepest one) is expanded first.
* ``astar``, 8-connected, unit costs: jump point search
  (:func:`robomaze._search.jump_point_path`; the same length as octile A*,
  which it replaces because it expands only jump points -- ``expanded``
  counts those); among equal ``f`` the larger ``g`` first, then the cells
  between jump points along the straight or diagonal segment.
* ``dijkstra``: binary heap on ``g``; the returned path follows parent
  links set by the first strictly better relaxation (neighbours scanned
  N, E, S, W, NE, SE, SW, NW).
"""

from __future__ import annotations

import time as _time

import numpy as np

from ..errors import NoPathError
from ..geometry import Footprint, free_space_padded
from ..grid import OccupancyGrid
from .. import _search as core
from ._endpoints import check_connectivity, check_grid, endpoints
from .path import Path, _make_path

__all__ = ["dijkstra", "astar", "grid_search"]


def grid_search(grid: OccupancyGrid, start, goal, *, footprint: Footprint | None,
                connectivity: int, heuristic: bool, cost: np.ndarray | None = None,
                method: str) -> Path:
    """Shared driver: validate, search with the core engine, build the Path."""
    t0 = _time.perf_counter()
    check_grid(grid)
    conn = check_connectivity(connectivity)
    if footprint is None:
        # a point stands on any free cell (endpoints checks that) and the engine
        # walks the grid's cached padded mask: no per-call pass over the grid
        s, g = endpoints(grid, start, goal)
        free = grid
    else:
        # cached per grid and robot size: a second plan makes no pass over the grid
        padded = free_space_padded(grid, footprint)
        view = padded.reshape(grid.rows + 2, grid.cols + 2)[1:-1, 1:-1].view(bool)
        s, g = endpoints(grid, start, goal, free=view, footprint=footprint)
        free = core.Padded(padded, grid.rows, grid.cols)
    cols = grid.cols
    hmode = 0 if not heuristic else (1 if conn == 4 else 2)
    if hmode == 2 and cost is None:
        # exact and far fewer expansions on open blocks (widened mazes, maps)
        flat, expanded = core.jump_point_path(free, s[0] * cols + s[1], g[0] * cols + g[1])
    else:
        flat, expanded = core.shortest_path(free, s[0] * cols + s[1], g[0] * cols + g[1],
                                            conn8=conn == 8, cost=cost, hmode=hmode)
    if flat.size == 0:
        raise NoPathError(f"goal {g} is not reachable from start {s}", reason="goal unreachable")
    cells = np.empty((flat.size, 2), np.int64)
    np.divmod(flat, cols, out=(cells[:, 0], cells[:, 1]))
    elapsed = _time.perf_counter() - t0
    return _make_path(grid, cells, own=True, footprint=footprint, method=method,
                      expanded=expanded, time=elapsed, walk=None, points=None, headings=None,
                      stats=None)


def dijkstra(grid: OccupancyGrid, start, goal, *, footprint: Footprint | None = None,
             connectivity: int = 4) -> Path:
    """Shortest path by Dijkstra's algorithm.

    Parameters
    ----------
    grid : OccupancyGrid
    start, goal : (row, col) or (x, y)
        Grid cells (ints) or world points (floats).
    footprint : Footprint, optional
    connectivity : {4, 8}

    Returns
    -------
    Path

    Raises
    ------
    ParameterError
        Bad start/goal or connectivity.
    NoPathError
        The goal is unreachable, or the robot does not fit at start/goal.

    Examples
    --------
    >>> from robomaze import OccupancyGrid
    >>> g = OccupancyGrid(np.zeros((3, 4), bool))
    >>> round(dijkstra(g, (0, 0), (2, 3), connectivity=8).length, 4)
    3.8284
    """
    return grid_search(grid, start, goal, footprint=footprint, connectivity=connectivity,
                       heuristic=False, method="dijkstra")


def astar(grid: OccupancyGrid, start, goal, *, footprint: Footprint | None = None,
          connectivity: int = 4) -> Path:
    """Shortest path by A* (Manhattan / octile heuristic, both admissible).

    Same parameters, result length and errors as :func:`dijkstra`; usually
    far fewer nodes expanded.

    Examples
    --------
    >>> from robomaze import OccupancyGrid
    >>> g = OccupancyGrid([[0, 0, 0], [1, 1, 0], [0, 0, 0]])
    >>> p = astar(g, (0, 0), (2, 0))
    >>> p.length, p.turns, p.cells.tolist()[2]
    (6.0, 2, [0, 2])
    """
    return grid_search(grid, start, goal, footprint=footprint, connectivity=connectivity,
                       heuristic=True, method="astar")
