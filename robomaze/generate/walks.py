"""Uniform spanning trees from random walks: Aldous-Broder and Wilson.

Both sample every spanning tree of the ``rows x cols`` grid graph with the
same probability (the tests check this exactly on the 192 trees of the 3x3
grid). A uniform maze has about 29.45% dead ends in the bulk, the known
dead-end density ``8/pi**2 * (1 - 2/pi)`` of the uniform spanning tree of
``Z**2``; biased "Aldous-Broder" variants that stop the walk from stepping
back into visited cells show far fewer.
"""

from __future__ import annotations

from ..maze import Maze, check_shape
from . import _aldous_broder_small, _walk_kernels, _wilson_small
from ._common import run_kernel

__all__ = ["aldous_broder", "wilson"]


def aldous_broder(rows: int, cols: int, *, rng=None) -> Maze:
    """Uniform spanning tree by the Aldous-Broder random walk.

    A simple random walk runs until it has visited every cell; the edge by
    which it first enters each cell is a passage. The walk takes the grid's
    cover time, about ``n log(n)**2`` steps for ``n`` cells, but where all
    cells around it are visited it takes 16 or 128 steps at once (sampled
    from their exact joint law), so the running time grows about linearly
    with ``n``. A maze narrower than 48 cells either way has no room to
    jump and takes a smaller kernel (:mod:`._aldous_broder_small`) that
    walks the same steps.

    Parameters
    ----------
    rows, cols : int
        Maze size in cells (>= 1 each).
    rng : numpy.random.Generator, int or None
        Source of randomness (one seed is drawn from it).

    Returns
    -------
    Maze
        A perfect maze, start ``(0, 0)``, goal the opposite corner.

    Raises
    ------
    ParameterError
        If ``rows`` or ``cols`` is not an integer >= 1 or the maze is too large.

    Examples
    --------
    >>> m = aldous_broder(6, 9, rng=1)
    >>> m.shape, m.is_perfect()
    ((6, 9), True)
    """
    rows, cols = check_shape(rows, cols)
    if min(rows, cols) < _aldous_broder_small.SMALL_SIDE:  # no jumps: the same maze
        return run_kernel(_aldous_broder_small.aldous_broder, rows, cols, rng)
    return run_kernel(_walk_kernels.aldous_broder, rows, cols, rng)


def wilson(rows: int, cols: int, *, rng=None) -> Maze:
    """Uniform spanning tree by Wilson's loop-erased random walks.

    Starting from a random root, every cell not yet in the tree launches a
    random walk that stops on hitting the tree; the walk's loop erasure is
    added. The walks take about ``n log(n)`` steps in all, but far from the
    tree the walk takes 32 steps at once and replays them only where the
    loop erasure needs them, so the running time grows about linearly.
    Faster than Aldous-Broder at the same (uniform) distribution. A maze
    narrower than 96 cells either way has no room to jump and takes a
    smaller kernel (:mod:`._wilson_small`) that walks the same steps.

    Parameters
    ----------
    rows, cols : int
        Maze size in cells (>= 1 each).
    rng : numpy.random.Generator, int or None
        Source of randomness (one seed is drawn from it).

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
    >>> m = wilson(7, 4, rng=2)
    >>> m.is_perfect(), m == wilson(7, 4, rng=2)
    (True, True)
    """
    rows, cols = check_shape(rows, cols)
    if min(rows, cols) < _wilson_small.SMALL_SIDE:  # the walks could not jump: same maze
        return run_kernel(_wilson_small.wilson, rows, cols, rng)
    return run_kernel(_walk_kernels.wilson, rows, cols, rng)
