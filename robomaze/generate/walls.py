"""Wall-adding generators: recursive division and the wall adder.

Both start from a room with no interior walls and add walls; both keep the
invariant that the walls never enclose a region, which is what makes the
result a perfect maze.
"""

from __future__ import annotations

from ..maze import Maze
from . import _tree_kernels
from ._common import run_kernel

__all__ = ["division", "wall_adder"]


def division(rows: int, cols: int, *, rng=None) -> Maze:
    """Recursive division: split each chamber by a wall with one gap.

    Chambers taller than wide are split horizontally, wider than tall
    vertically, square ones at random; a chamber one cell thin is a corridor
    and stays as it is.

    Parameters
    ----------
    rows, cols : int
        Maze size in cells (>= 1 each).
    rng : numpy.random.Generator, int or None
        Source of randomness.

    Returns
    -------
    Maze
        A perfect maze with long straight walls.

    Raises
    ------
    ParameterError
        If the size is invalid.

    Examples
    --------
    >>> division(8, 5, rng=12).is_perfect()
    True
    """
    return run_kernel(_tree_kernels.division, rows, cols, rng)


def wall_adder(rows: int, cols: int, *, rng=None) -> Maze:
    """The wall adder ("Anderson" construction), grown from wall posts.

    Start with no interior walls; the boundary posts are attached. Repeatedly
    pick a uniformly random post not yet attached to any wall among those
    next to an attached post, and add a wall segment from it to a random
    attached neighbour, until every post is attached. A segment from an
    unattached post to the attached structure never closes a cycle of walls,
    so no region is ever cut off; once every post is attached the walls are
    a spanning tree of the posts rooted at the boundary, and its dual, the
    passages, is a spanning tree of the cells -- a perfect maze.

    Parameters
    ----------
    rows, cols : int
        Maze size in cells (>= 1 each).
    rng : numpy.random.Generator, int or None
        Source of randomness.

    Returns
    -------
    Maze
        A perfect maze.

    Raises
    ------
    ParameterError
        If the size is invalid.

    Examples
    --------
    >>> m = wall_adder(6, 7, rng=13)
    >>> m.is_perfect(), int(m.degrees().sum()) // 2
    (True, 41)
    """
    return run_kernel(_tree_kernels.wall_adder, rows, cols, rng)
