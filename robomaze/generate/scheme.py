"""The Scheme seed program's generator: a depth-first search whose direction
order at each cell is a rotation, not a shuffle."""

from __future__ import annotations

from ..maze import Maze
from . import _scheme_kernels
from ._common import run_kernel

__all__ = ["scheme_dfs"]


def scheme_dfs(rows: int, cols: int, *, rng=None) -> Maze:
    """Depth-first carving exactly as the Scheme program does it.

    The search starts at the entrance cell ``(0, 0)`` (north-west, where the
    ``corners`` placement puts the start). On entering a cell it lists the
    in-bounds directions in the program's order izq, der, arr, aba (west,
    east, north, south), draws one offset ``k`` uniform in ``[0, m)`` for the
    ``m`` directions listed, and tries them in the order its ``random-list``
    returns; each direction leading to an unvisited cell opens the wall and
    recurses (here: an explicit stack, so any size works) before the next
    direction is tried.

    ``random-list`` walks the rotation ``L[k], L[k+1], ..., L[k-1]`` and
    builds its result by prepending (``cons``), so the order tried is that
    rotation reversed: ``L[k-1], L[k-2], ..., L[k]``. The program's prose
    example shows the rotation unreversed; the code wins, since it is what
    made the program's mazes. Only ``m`` of the ``m!`` orders can occur, and
    the mazes differ measurably from :func:`backtracker`'s (longer
    corner-to-corner routes on average; see ``tests/generate``).

    One offset is drawn per cell, in the order the cells are entered, from
    the SplitMix64 stream of the other kernels; a 1x1 maze draws nothing.

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
    >>> m = scheme_dfs(6, 9, rng=1)
    >>> m.is_perfect(), m == scheme_dfs(6, 9, rng=1)
    (True, True)
    """
    return run_kernel(_scheme_kernels.scheme_dfs, rows, cols, rng)
