"""Braiding: turn a perfect maze into a multiply connected one by removing
dead ends."""

from __future__ import annotations

import numpy as np

from .._seed import as_rng

from .._validate import check_fraction
from ..errors import ParameterError
from ..maze import Maze
from . import _kernels
from ._common import SEED_HIGH

__all__ = ["braid"]


def braid(maze: Maze, fraction: float, *, rng=None) -> Maze:
    """Remove a fraction of the dead ends by opening one wall of each.

    The dead ends are visited in random order; each one still a dead end
    opens a wall toward a neighbouring dead end when it has one (removing
    two at once, as in Jamis Buck's braid), otherwise toward a random walled
    neighbour. Opening walls never creates a dead end, so the process stops
    as soon as ``round(fraction * dead_ends)`` of them are gone (one more if
    the last wall removed two).

    Parameters
    ----------
    maze : Maze
        Any maze; start, goals and openings are kept.
    fraction : float
        Share of the dead ends to remove, in [0, 1]. 0 returns the maze
        unchanged; 1 leaves no dead end, except the two ends of a maze one
        cell wide, which have no wall that could be opened.
    rng : numpy.random.Generator, int or None
        Source of randomness.

    Returns
    -------
    Maze
        The braided maze (a new object; ``maze`` is immutable).

    Raises
    ------
    ParameterError
        If ``maze`` is not a Maze or ``fraction`` is outside [0, 1].

    Examples
    --------
    >>> from robomaze.generate import backtracker
    >>> m = braid(backtracker(10, 10, rng=1), 1.0, rng=2)
    >>> int(m.dead_ends().sum()), m.n_loops() > 0
    (0, True)
    """
    if not isinstance(maze, Maze):
        raise ParameterError(f"maze must be a robomaze.maze.Maze, got {type(maze).__name__}")
    fraction = check_fraction("fraction", fraction)
    gen = as_rng(rng)
    dead = np.flatnonzero(maze.dead_ends().ravel())
    target = int(round(fraction * dead.size))
    if target == 0:
        return maze
    east = maze.east.ravel().astype(np.uint8)
    south = maze.south.ravel().astype(np.uint8)
    order = gen.permutation(dead).astype(np.int64)
    _kernels.braid(east, south, maze.rows, maze.cols, order, target,
                   int(gen.integers(0, SEED_HIGH)))
    return maze.replace(east=east.reshape(maze.shape).astype(bool),
                        south=south.reshape(maze.shape).astype(bool))
