"""Generators that grow one tree by carving from cells already in the maze:
recursive backtracker, hunt-and-kill and the growing tree family."""

from __future__ import annotations

from .._validate import check_choice, check_fraction
from ..maze import Maze
from . import _kernels
from ._common import run_kernel

__all__ = ["backtracker", "hunt_and_kill", "growing_tree", "SELECTIONS"]

#: Cell selection policies of :func:`growing_tree`, in kernel code order.
SELECTIONS = ("newest", "random", "mixed")


def backtracker(rows: int, cols: int, *, rng=None) -> Maze:
    """Recursive backtracker: a randomized depth-first search, run iteratively.

    An explicit stack replaces recursion, so any size works. Long winding
    corridors, about 10% dead ends.

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
    >>> backtracker(5, 5, rng=0).is_perfect()
    True
    """
    return run_kernel(_kernels.backtracker, rows, cols, rng)


def hunt_and_kill(rows: int, cols: int, *, rng=None) -> Maze:
    """Hunt-and-kill: random walk into unvisited cells; when stuck, scan
    (hunt) for the first unvisited cell next to the maze and attach it.

    The hunt resumes from the first unvisited cell in row-major order, which
    only moves forward, so the scans stay cheap.

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
    >>> hunt_and_kill(4, 6, rng=3).is_perfect()
    True
    """
    return run_kernel(_kernels.hunt_and_kill, rows, cols, rng)


def growing_tree(rows: int, cols: int, *, rng=None, selection: str = "newest",
                 mix: float = 0.5) -> Maze:
    """Growing tree: keep a list of active cells, extend from a chosen one.

    ``selection="newest"`` behaves like the backtracker, ``"random"`` like
    frontier Prim; ``"mixed"`` picks the newest cell with probability
    ``mix`` and a random active cell otherwise.

    Parameters
    ----------
    rows, cols : int
        Maze size in cells (>= 1 each).
    rng : numpy.random.Generator, int or None
        Source of randomness.
    selection : {"newest", "random", "mixed"}
        Which active cell to extend.
    mix : float
        Probability of ``newest`` under ``selection="mixed"``, in [0, 1].

    Returns
    -------
    Maze
        A perfect maze.

    Raises
    ------
    ParameterError
        If the size, ``selection`` or ``mix`` is invalid.

    Examples
    --------
    >>> growing_tree(5, 7, rng=4, selection="mixed", mix=0.75).is_perfect()
    True
    >>> growing_tree(5, 7, selection="oldest")
    Traceback (most recent call last):
    ...
    robomaze.errors.ParameterError: selection must be one of 'newest', 'random', 'mixed', got 'oldest'
    """
    check_choice("selection", selection, SELECTIONS)
    mix = check_fraction("mix", mix)
    return run_kernel(_kernels.growing_tree, rows, cols, rng,
                      SELECTIONS.index(selection), mix)
