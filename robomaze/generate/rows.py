"""Row-by-row generators: Eller, sidewinder and binary tree.

They need only one row of state (Eller, sidewinder) or none (binary tree)
and leave visible biases: sidewinder and binary tree always have an open
corridor along the north row (binary tree also along the west column).
"""

from __future__ import annotations

from ..maze import Maze
from . import _tree_kernels
from ._common import run_kernel

__all__ = ["eller", "sidewinder", "binary_tree"]


def eller(rows: int, cols: int, *, rng=None) -> Maze:
    """Eller's algorithm: one row at a time, cells labelled by set.

    Adjacent cells of different sets join at random; every set then sends
    at least one passage south; the last row joins all remaining sets.

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
    >>> eller(5, 10, rng=9).is_perfect()
    True
    """
    return run_kernel(_tree_kernels.eller, rows, cols, rng)


def sidewinder(rows: int, cols: int, *, rng=None) -> Maze:
    """Sidewinder: runs of eastward passages, each closed by one passage north.

    Parameters
    ----------
    rows, cols : int
        Maze size in cells (>= 1 each).
    rng : numpy.random.Generator, int or None
        Source of randomness.

    Returns
    -------
    Maze
        A perfect maze whose north row is one open corridor.

    Raises
    ------
    ParameterError
        If the size is invalid.

    Examples
    --------
    >>> m = sidewinder(4, 6, rng=10)
    >>> m.is_perfect(), bool(m.east[0, :-1].any())
    (True, False)
    """
    return run_kernel(_tree_kernels.sidewinder, rows, cols, rng)


def binary_tree(rows: int, cols: int, *, rng=None) -> Maze:
    """Binary tree: every cell opens north or west, chosen at random.

    Parameters
    ----------
    rows, cols : int
        Maze size in cells (>= 1 each).
    rng : numpy.random.Generator, int or None
        Source of randomness.

    Returns
    -------
    Maze
        A perfect maze with open north row and west column.

    Raises
    ------
    ParameterError
        If the size is invalid.

    Examples
    --------
    >>> binary_tree(5, 5, rng=11).is_perfect()
    True
    """
    return run_kernel(_tree_kernels.binary_tree, rows, cols, rng)
