"""Lee/Moore wavefront: a BFS wave of labels from the goal, then a backtrace.

The wave spreads over the free configuration-space cells (for a disc the
cells with clearance > radius; for other shapes the heading-agnostic free
space of their circumscribed disc -- use ``collision_free`` to exploit the
shape). Each move costs one label, diagonals included with
``connectivity=8`` (Moore neighbourhood, no corner cutting), so the labels
are step counts: the navigation function of the grid graph.

For a point robot, 4-connected, on a grid made by ``widen`` from a perfect
maze, the field has a closed form per corridor block and is written in one
pass (:mod:`robomaze._search._blockwave`); with loops (braided mazes) each
maze cell holds the minimum of a few such forms (from corridor + wall >= 4).
The grid's cells are checked against its maze on the way; any difference, a
footprint or 8-connectivity runs the BFS wave. All give the same field.
"""

from __future__ import annotations

import time as _time

import numpy as np

from ..errors import NoPathError
from ..geometry import Footprint, free_space
from ..grid import OccupancyGrid
from .. import _search as core
from .._search import maze_field
from . import _kernels as K
from ._endpoints import (as_cell, check_connectivity, check_grid, check_placeable, endpoints,
                         flat_u8)
from .path import Path, make_path

__all__ = ["wavefront", "wavefront_field"]

# Grid cells from which the closed form beats the BFS (benchmarks/README.md,
# issue 22): below them both take microseconds and the wave's single call
# wins. With corridor = wall = 1 (pitch 2) the "closed form" is a walk over
# the maze's cells read off the occupancy (robomaze/_search/_thinmaze.py),
# at parity with bfs_field's own tree walk at 1001^2 and about 1.5x it at
# 4001^2 (benchmarks/README.md, "Issue 40, round 7").
_MAZE_MIN_CELLS = 1 << 14
_MAZE_MIN_CELLS_PITCH2 = 1 << 14


def _maze_pays(grid: OccupancyGrid) -> bool:
    w = grid.widening
    if w is None:
        return False
    need = _MAZE_MIN_CELLS_PITCH2 if w.pitch <= 2 else _MAZE_MIN_CELLS
    return grid.rows * grid.cols >= need


def _point_field(grid: OccupancyGrid, gcell, conn8: bool):
    """A point robot's field from a free goal cell: ``(dist, expanded, how)``.

    ``how`` is ``"maze"`` when the closed form of a widened maze gave it
    (:mod:`robomaze._search._blockwave`: 4-connected, a grid made by
    ``widen`` whose cells match its maze, or one whose maze is read back
    from the occupancy, large enough to pay), without a
    loop where the goal is, ``"maze-loops"`` when there were loops (a
    Dijkstra over the cells' forms; only from corridor + wall >= 4), and
    ``"bfs"`` when the engine's wave ran; all give the same field.
    """
    fast = None
    if not conn8 and _maze_pays(grid):
        fast = maze_field(grid, gcell)
    if fast is None and not conn8 and (grid.widening is None or grid.maze is None):
        # a widened maze that lost its metadata (loaded from a file, a bare
        # array): its structure is read back from the occupancy
        fast = core.detected_maze_field(grid.occupied, gcell, min_cells=_MAZE_MIN_CELLS,
                                        min_cells_pitch2=_MAZE_MIN_CELLS_PITCH2)
    if fast is not None:
        return fast[0], fast[1], "maze" if fast[2] == "tree" else "maze-loops"
    rows, cols = grid.shape
    # a point fits on any free cell: the wave reads the grid's occupancy in
    # place, no C-space mask or copy
    occ = grid.occupied.view(np.uint8).ravel()
    dist, expanded = core.bfs_field(occ, rows, cols, gcell[0] * cols + gcell[1], conn8,
                                    occupied=True)
    return dist, expanded, "bfs"


def wavefront_field(grid: OccupancyGrid, goal, *, footprint: Footprint | None = None,
                    connectivity: int = 4) -> np.ndarray:
    """Step counts from every cell to ``goal`` (-1 where unreachable or blocked).

    Parameters
    ----------
    grid : OccupancyGrid
    goal : (row, col) or (x, y)
        Grid cell (ints) or world point (floats).
    footprint : Footprint, optional
    connectivity : {4, 8}

    Returns
    -------
    ndarray of int32, shape (rows, cols)

    Raises
    ------
    ParameterError
        Goal outside the grid or on an occupied cell; bad connectivity.
    NoPathError
        The footprint does not fit at the goal.

    Examples
    --------
    >>> from robomaze import OccupancyGrid
    >>> g = OccupancyGrid([[0, 0, 0], [1, 1, 0], [0, 0, 0]])
    >>> wavefront_field(g, (2, 0))
    array([[ 6,  5,  4],
           [-1, -1,  3],
           [ 0,  1,  2]], dtype=int32)
    >>> wavefront_field(g, (2, 0), connectivity=8)[0, 0]  # diagonals may not cut the corners
    6
    """
    check_grid(grid)
    conn = check_connectivity(connectivity)
    gcell = as_cell(grid, "goal", goal)
    rows, cols = grid.shape
    gi = gcell[0] * cols + gcell[1]
    if footprint is None:
        # as_cell checked the goal is free; on a widened perfect maze the
        # field has a closed form written in one pass
        return _point_field(grid, gcell, conn == 8)[0]
    free = free_space(grid, footprint)
    check_placeable(grid, "goal", gcell, free, footprint)
    return core.bfs_field(flat_u8(free), rows, cols, gi, conn == 8)[0]


def wavefront(grid: OccupancyGrid, start, goal, *, footprint: Footprint | None = None,
              connectivity: int = 4, fewest_bends: bool = False) -> Path:
    """Shortest path (fewest moves) by the Lee/Moore wavefront.

    Parameters
    ----------
    grid : OccupancyGrid
    start, goal : (row, col) or (x, y)
    footprint : Footprint, optional
    connectivity : {4, 8}
    fewest_bends : bool
        Lee's rule: among all fewest-move paths return one with the fewest
        changes of direction (exact, by dynamic programming over the cells
        on shortest paths). Otherwise the backtrace takes, at each cell, the
        first lower label in the order N, E, S, W, NE, SE, SW, NW.

    Returns
    -------
    Path

    Raises
    ------
    ParameterError
        Bad start/goal or connectivity.
    NoPathError
        Goal unreachable (``reason="goal unreachable"``) or the robot does
        not fit at start/goal.

    Examples
    --------
    >>> from robomaze import OccupancyGrid
    >>> g = OccupancyGrid(np.zeros((3, 3), bool))
    >>> p = wavefront(g, (0, 0), (2, 2), fewest_bends=True)
    >>> len(p) - 1, p.turns
    (4, 1)
    """
    t0 = _time.perf_counter()
    check_grid(grid)
    conn = check_connectivity(connectivity)
    free = free_space(grid, footprint)
    s, g = endpoints(grid, start, goal, free=free, footprint=footprint)
    rows, cols = grid.shape
    f8 = flat_u8(free)
    if footprint is None:
        dist, expanded, _ = _point_field(grid, g, conn == 8)
    else:
        dist, expanded = core.bfs_field(f8, rows, cols, g[0] * cols + g[1], conn == 8)
    dist = np.ascontiguousarray(dist).ravel()
    si = s[0] * cols + s[1]
    if dist[si] < 0:
        raise NoPathError(f"goal {g} is not reachable from start {s}", reason="goal unreachable")
    if fewest_bends:
        flat = K.descend_fewest_bends(f8, dist, rows, cols, si, conn == 8)
    else:
        flat = np.empty(int(dist[si]) + 1, np.int64)
        K.descend(f8, dist, rows, cols, si, conn == 8, flat)
    cells = np.column_stack(np.divmod(flat, cols))
    elapsed = _time.perf_counter() - t0
    return make_path(grid, cells, footprint=footprint, method="wavefront", expanded=expanded,
                     time=elapsed)
