"""Depth-first explorers: Trémaux's algorithm and randomized DFS backtracking.

Both treat every free cell of the footprint's free space as a node and the
passage between two neighbouring free cells as an edge. On a widened maze
with corridors one cell wide (``corridor=1``) this is exactly the maze's
passage graph cut into cells; in a wide corridor every cell is a node, so the
explorer sweeps the corridor cell by cell rather than treating it as one
passage. Both are complete: they find the goal whenever it is reachable.
"""

from __future__ import annotations

import itertools

import numpy as np

from ..._seed import as_rng
from ...grid import OccupancyGrid
from . import _kernels
from .problem import Problem, check_hand, refuse_options, check_route

__all__ = ["tremaux", "dfs_backtracking"]

#: The 24 orders of the four headings; a cell's neighbour order is one row.
_PERMS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)


def tremaux(grid: OccupancyGrid, start, goal, *, footprint=None, connectivity: int = 4,
            hand: str = "right", sight: bool = True, route: str = "shortest_known", **options):
    """Solve with Trémaux's algorithm (Ariadne's thread and chalk marks).

    Each passage between two neighbouring cells gets a mark every time it is
    walked. Arriving at an already visited cell through an unmarked passage,
    the walker turns straight back; otherwise it takes an unmarked passage
    (``hand`` side first, then straight, then the other side) and, if there
    is none, goes back along the passage marked once, rolling up the thread.
    The thread -- the passages marked once -- is therefore at every moment
    the route from the entrance, and when the goal is reached it is the
    returned ``cells`` (rather than the loop-erased walk of the other
    solvers: stepping onto an old cell and turning back is not a retreat, so
    it does not cut the thread). No passage is walked more than twice; back
    at the start with no unmarked passage left, the goal is unreachable.

    Parameters
    ----------
    grid : OccupancyGrid
    start, goal : (row, col) cell or (x, y) world point
    footprint : Footprint, optional
    connectivity : int
        Must be 4.
    hand : {"right", "left"}
        Which unmarked passage to prefer.
    sight : bool
        Walk straight to the goal once it is in line of sight (see
        :func:`robomaze.plan.classic.wall_follower`).
    route : {"thread", "shortest_known"}
        ``cells`` is the thread, or (default) the shortest route through the
        cells the walk stepped on or touched, as for
        :func:`robomaze.plan.classic.wall_follower`.

    Returns
    -------
    Path
        With ``walk`` (every cell visited, retreats included) and ``cells``
        (the thread; loops erased where the final walk on sight crosses it).

    Raises
    ------
    NoPathError
        When the goal is not reachable (the whole region was explored).
    ParameterError
        Bad start, goal or option values.

    Examples
    --------
    >>> from robomaze.maze import Maze
    >>> from robomaze.grid import widen
    >>> m = Maze.from_edges(2, 2, [0, 0, 1], [1, 2, 3])  # a perfect 2x2 maze
    >>> p = tremaux(widen(m), (1, 1), (3, 3), sight=False)
    >>> p.cells.tolist()
    [[1, 1], [1, 2], [1, 3], [2, 3], [3, 3]]
    """
    refuse_options("tremaux", options)
    side = check_hand(hand)
    route = check_route(route, ("thread", "shortest_known"))
    pb = Problem("tremaux", grid, start, goal, footprint, connectivity, sight)
    def run(size):
        marks = np.zeros((2, pb.free.size), np.uint8)   # passages' marks, visited cells
        return _kernels.tremaux_walk(pb.free, pb.rows, pb.cols, pb.start, pb.vis, side,
                                     marks[0], marks[1], _kernels.buffer(size),
                                     _kernels.buffer(size))

    walk, n, status, thread, depth = _kernels.until_room(
        run, _kernels.walk_room(pb.rows, pb.cols, 4))
    walk, thread = walk[:n], thread[:depth]
    if status == _kernels.EXHAUSTED:
        raise pb.fail(f"every passage reachable from the start was walked twice "
                      f"({walk.size - 1} moves); the goal is not reachable",
                      "goal not reachable")
    if route == "shortest_known":
        return pb.result(walk, route=route)
    return pb.result(walk, path=_kernels.loop_erase(thread, pb.rows * pb.cols))


def dfs_backtracking(grid: OccupancyGrid, start, goal, *, footprint=None,
                     connectivity: int = 4, rng=None, sight: bool = True,
                     route: str = "shortest_known", **options):
    """Solve by depth-first search with backtracking in a random neighbour order.

    The walker remembers the cells it has visited; from the current cell it
    moves to the first unvisited free neighbour in that cell's own random
    order, and when there is none it steps back to the cell it came from.
    Every step, forward or back, is part of the walk.

    Parameters
    ----------
    grid : OccupancyGrid
    start, goal : (row, col) cell or (x, y) world point
    footprint : Footprint, optional
    connectivity : int
        Must be 4.
    rng : numpy.random.Generator, int or None
        Draws each cell's neighbour order (one of the 24 permutations).
    sight : bool
        Walk straight to the goal once it is in line of sight.
    route : {"loop_erased", "shortest_known"}
        See :func:`robomaze.plan.classic.wall_follower`.

    Returns
    -------
    Path
        With ``walk`` and ``cells`` (the DFS stack when the goal was reached).

    Raises
    ------
    NoPathError
        When the goal is not reachable.
    ParameterError
        Bad start, goal or option values.

    Examples
    --------
    >>> from robomaze.grid import OccupancyGrid
    >>> room = np.ones((5, 5), bool); room[1:4, 1:4] = False
    >>> a = dfs_backtracking(OccupancyGrid(room), (1, 1), (3, 3), rng=7, sight=False)
    >>> b = dfs_backtracking(OccupancyGrid(room), (1, 1), (3, 3), rng=7, sight=False)
    >>> np.array_equal(a.walk, b.walk), a.cells[-1].tolist()
    (True, [3, 3])
    """
    refuse_options("dfs_backtracking", options)
    route = check_route(route)
    gen = as_rng(rng)
    pb = Problem("dfs_backtracking", grid, start, goal, footprint, connectivity, sight)
    perm_ids = gen.integers(0, len(_PERMS), size=pb.rows * pb.cols, dtype=np.uint8)
    def run(size):
        state = np.zeros((3, pb.free.size), np.uint8)   # visited, cursor, parent
        return _kernels.dfs_walk(pb.free, pb.rows, pb.cols, pb.start, pb.vis, perm_ids, _PERMS,
                                 state[0], state[1], state[2], _kernels.buffer(size))

    walk, n, status = _kernels.until_room(run, _kernels.walk_room(pb.rows, pb.cols, 2))
    walk = walk[:n]
    if status == _kernels.EXHAUSTED:
        raise pb.fail(f"every cell reachable from the start was explored "
                      f"({walk.size - 1} moves); the goal is not reachable",
                      "goal not reachable")
    return pb.result(walk, route=route)
