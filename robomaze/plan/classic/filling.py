"""Dead-end filling on the whole map.

Classic dead-end filling fills every cell with a single open neighbour
(other than start and goal) until none is left; what remains of a perfect
maze is exactly its solution, and in a maze with loops every route from
start to goal survives. On a grid with wide corridors a dead-end corridor
has no cell with a single neighbour, so the filling here uses the
topological generalisation: a cell is filled when it is a *simple point*
of the free space (filling it changes neither which free cells are
4-connected nor which blocked cells enclose holes; Rosenfeld's local test on
the 3x3 neighbourhood, 4-connected free space, 8-connected obstacles), or
when it has no free 4-neighbour at all. On one-cell-wide corridors a cell is
simple exactly when it is a dead end, so this is the classic algorithm
there; wide dead ends are peeled in layers from their walls until only a
thin route, one cell wide, joins start and goal (plus a ring around every
loop of the free space).
"""

from __future__ import annotations

import numpy as np

from ...grid import OccupancyGrid
from ... import _search as core
from . import _kernels
from .problem import Problem, refuse_options

__all__ = ["dead_end_filling", "fill_dead_ends", "REMOVABLE"]

# Neighbour offsets in ring order N, NE, E, SE, S, SW, W, NW (bit i of a config).
_RING = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))


def _components(cells: list[tuple[int, int]], adjacent) -> list[set]:
    comps: list[set] = []
    for cell in cells:
        touching = [comp for comp in comps if any(adjacent(cell, o) for o in comp)]
        merged = {cell}.union(*touching)
        comps = [comp for comp in comps if all(comp is not t for t in touching)] + [merged]
    return comps


def _removable_table() -> np.ndarray:
    four = lambda a, b: abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1  # noqa: E731
    eight = lambda a, b: max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1  # noqa: E731
    table = np.zeros(256, dtype=np.uint8)
    for config in range(256):
        fg = [_RING[i] for i in range(8) if config >> i & 1]
        bg = [_RING[i] for i in range(8) if not config >> i & 1]
        t4 = sum(1 for comp in _components(fg, four)
                 if any(abs(r) + abs(c) == 1 for r, c in comp))
        t8 = len(_components(bg, eight))
        table[config] = (t4 == 1 and t8 == 1) or t4 == 0
    return table


#: ``REMOVABLE[config]``: may a cell whose free 8-neighbours are the bits of
#: ``config`` (ring order N, NE, E, SE, S, SW, W, NW) be filled?
REMOVABLE = _removable_table()
REMOVABLE.setflags(write=False)


def fill_dead_ends(grid: OccupancyGrid, start, goal, *, footprint=None) -> np.ndarray:
    """The free cells left after dead-end filling (2-D bool, True = left open).

    Parameters
    ----------
    grid : OccupancyGrid
    start, goal : (row, col) cell or (x, y) world point
        Never filled.
    footprint : Footprint, optional
        Fill the footprint's free space instead of the grid's.

    Returns
    -------
    ndarray of bool
        On a widened perfect maze with one-cell corridors: exactly the cells
        of the solution.

    Examples
    --------
    >>> from robomaze.maze import Maze
    >>> from robomaze.grid import widen
    >>> m = Maze.from_edges(2, 2, [0, 0, 1], [1, 2, 3])
    >>> fill_dead_ends(widen(m), (1, 1), (3, 3)).astype(int)
    array([[0, 0, 0, 0, 0],
           [0, 1, 1, 1, 0],
           [0, 0, 0, 1, 0],
           [0, 0, 0, 1, 0],
           [0, 0, 0, 0, 0]])
    """
    pb = Problem("dead_end_filling", grid, start, goal, footprint, 4, sight=False)
    return _fill(pb)[0].reshape(pb.rows, pb.cols).astype(bool)


def _fill(pb: Problem) -> tuple[np.ndarray, int]:
    left = pb.free.copy()
    filled = _kernels.fill_dead_ends(left, pb.rows, pb.cols, pb.start, pb.goal, REMOVABLE,
                                     np.zeros(left.size, np.uint8), np.empty(left.size, np.int64))
    return left, int(filled)


def dead_end_filling(grid: OccupancyGrid, start, goal, *, footprint=None,
                     connectivity: int = 4, **options):
    """Solve by filling dead ends on the whole map, then walking what is left.

    See the module documentation for how dead ends are recognised in wide
    corridors. The route is the shortest 4-connected route through the cells
    left open (the only one on a perfect maze); the robot walks it once, so
    ``walk`` equals ``cells``. ``expanded`` counts the free cells examined
    (the whole free space).

    Parameters
    ----------
    grid : OccupancyGrid
    start, goal : (row, col) cell or (x, y) world point
    footprint : Footprint, optional
    connectivity : int
        Must be 4.

    Returns
    -------
    Path

    Raises
    ------
    NoPathError
        When start and goal are not connected.
    ParameterError
        Bad start, goal or option values.

    Examples
    --------
    >>> from robomaze.maze import Maze
    >>> from robomaze.grid import widen
    >>> m = Maze.from_edges(2, 2, [0, 0, 1], [1, 2, 3])
    >>> dead_end_filling(widen(m), (1, 1), (3, 3)).cells.tolist()
    [[1, 1], [1, 2], [1, 3], [2, 3], [3, 3]]
    """
    refuse_options("dead_end_filling", options)
    pb = Problem("dead_end_filling", grid, start, goal, footprint, connectivity, sight=False)
    left, _ = _fill(pb)
    route = core.bfs_path(left, pb.rows, pb.cols, pb.start, pb.goal)
    if route.size == 0:
        raise pb.fail("start and goal are not connected (nothing joins them after "
                      "dead-end filling)", "goal not reachable")
    return pb.result(route, path=route, expanded=int(pb.free.sum()))
