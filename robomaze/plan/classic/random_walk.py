"""The random mouse: wander at random until the goal turns up."""

from __future__ import annotations

import numpy as np

from ..._seed import as_rng

from ..._validate import check_int
from ...grid import OccupancyGrid
from . import _kernels
from .problem import Problem, refuse_options, check_route

__all__ = ["random_mouse"]

#: Random numbers drawn per kernel call; the walk does not depend on it.
_CHUNK = 1 << 18
#: Largest default step limit.
_DEFAULT_CAP = 10_000_000


def random_mouse(grid: OccupancyGrid, start, goal, *, footprint=None, connectivity: int = 4,
                 rng=None, max_steps: int | None = None, sight: bool = True,
                 route: str = "shortest_known", **options):
    """Solve by random walk: at every cell pick an open direction at random.

    The mouse never turns straight back unless it is in a dead end, so in a
    one-cell-wide corridor it follows the corridor and only decides at
    junctions (the classic random mouse); in open space it wanders with
    random turns. One uniform number of ``rng`` is used per move, so a seed
    gives the same walk whatever the step limit.

    Parameters
    ----------
    grid : OccupancyGrid
    start, goal : (row, col) cell or (x, y) world point
    footprint : Footprint, optional
    connectivity : int
        Must be 4.
    rng : numpy.random.Generator, int or None
    max_steps : int, optional
        Give up after this many random moves; default ``100`` times the
        number of free cells, at most ten million (the whole walk is kept,
        about 24 bytes a move).
    sight : bool
        Walk straight to the goal once it is in line of sight (these moves
        do not count against ``max_steps``).
    route : {"loop_erased", "shortest_known"}
        See :func:`robomaze.plan.classic.wall_follower`.

    Returns
    -------
    Path
        With ``walk`` (every move) and ``cells`` (the walk's loops erased).

    Raises
    ------
    NoPathError
        When ``max_steps`` moves did not reach the goal (reason "step
        limit"), or the start has no free neighbour.
    ParameterError
        Bad start, goal or option values.

    Examples
    --------
    >>> from robomaze.maze import Maze
    >>> from robomaze.grid import widen
    >>> g = widen(Maze.empty(3, 3))
    >>> p = random_mouse(g, (1, 1), (5, 5), rng=1)
    >>> p.cells[0].tolist(), p.cells[-1].tolist()
    ([1, 1], [5, 5])
    """
    refuse_options("random_mouse", options)
    route = check_route(route)
    gen = as_rng(rng)
    pb = Problem("random_mouse", grid, start, goal, footprint, connectivity, sight)
    if max_steps is None:
        limit = min(100 * int(pb.free.sum()), _DEFAULT_CAP)
    else:
        limit = check_int("max_steps", max_steps, min_value=0)
    pieces = [np.array([pb.start], np.int64)]
    p, h, done = pb.start, -1, 0
    status = _kernels.STEP_LIMIT
    while True:
        u = gen.random(min(_CHUNK, limit - done))
        walk, n, status, p, h = _kernels.until_room(
            lambda size, p=p, h=h, u=u: _kernels.mouse_walk(
                pb.free, pb.rows, pb.cols, p, h, pb.vis, u, _kernels.buffer(size)),
            u.size + _kernels.walk_room(pb.rows, pb.cols, 0))
        pieces.append(walk[:n])
        done += u.size
        if status != _kernels.STEP_LIMIT or done >= limit:
            break
    walk = np.concatenate(pieces)
    if status == _kernels.STUCK:
        raise pb.fail("the start cell has no free neighbour", "start is walled in")
    if status != _kernels.OK:
        raise pb.fail(f"the random mouse did not reach the goal within max_steps={limit} "
                      f"moves", "step limit")
    return pb.result(walk, route=route)
