"""The hint of play: the next cells of the shortest route to the goal.

One rule for the window and the page: from the walker's maze cell, the next
:data:`HINT_CELLS` maze cells (fewer near the goal) of the shortest route to
the nearest goal, the same route :func:`robomaze.traverse.score.score` uses
(its downhill walk on the goal distance, ties broken towards the smaller
flat cell index). Five cells is a short look ahead: it settles the next
junction or two on a typical maze without handing over the whole way.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from scipy.sparse import csgraph

from ..errors import ParameterError
from ..grid import OccupancyGrid
from ..maze import Maze
from .score import _adjacency_of, _route

__all__ = ["HINT_CELLS", "goal_distance", "hint_cells"]

#: Cells of the route a hint shows (after the walker's own cell).
HINT_CELLS = 5


def goal_distance(world: Maze | OccupancyGrid, goals: Sequence[Sequence[int]]):
    """``(adjacency, distance)`` of every cell to the nearest goal (moves; inf if cut off).

    ``world`` is a Maze (cells) or a plain grid (free grid cells); a hint
    on a grid widened from a maze is asked on its maze.
    """
    adj, (rows, cols) = _adjacency_of(world)
    goal_idx = np.array([int(r) * cols + int(c) for r, c in goals], dtype=np.int64)
    dist = csgraph.shortest_path(adj, unweighted=True, indices=goal_idx,
                                 directed=False).min(axis=0)
    return adj, dist


def hint_cells(world: Maze | OccupancyGrid, goals: Sequence[Sequence[int]],
               cell: Sequence[int], *, n: int = HINT_CELLS,
               field: tuple | None = None) -> list[tuple[int, int]]:
    """The next ``n`` cells of the score's shortest route from ``cell`` to a goal.

    Parameters
    ----------
    world : Maze or OccupancyGrid
        A Maze (``cell`` and ``goals`` are maze cells) or a plain grid.
    goals : sequence of (int, int)
    cell : (int, int)
        Where the walker is.
    n : int
        How many cells to show; fewer when the goal is nearer.
    field : tuple, optional
        A cached :func:`goal_distance` of the same world and goals.

    Returns
    -------
    list of (int, int)
        The cells after ``cell``, in walking order (empty at a goal).

    Raises
    ------
    ParameterError
        When no goal can be reached from ``cell``.

    Examples
    --------
    A corridor of six cells, goal at the east end:

    >>> m = Maze.from_edges(1, 6, [0, 1, 2, 3, 4], [1, 2, 3, 4, 5], goals=[(0, 5)])
    >>> hint_cells(m, m.goals, (0, 1), n=3)
    [(0, 2), (0, 3), (0, 4)]
    >>> hint_cells(m, m.goals, (0, 4))
    [(0, 5)]
    """
    adj, dist = goal_distance(world, goals) if field is None else field
    cols = world.shape[1]
    start = int(cell[0]) * cols + int(cell[1])
    if np.isinf(dist[start]):
        raise ParameterError(f"no route from {tuple(cell)} to the goals")
    route = _route(adj, dist, start, limit=n)[1:]
    return [divmod(int(v), cols) for v in route]
