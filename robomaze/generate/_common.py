"""Glue shared by the generator wrappers: seeding a kernel, shaping its output."""

from __future__ import annotations

import numpy as np

from .._seed import as_rng
from ..maze import Maze, check_shape

#: Kernel seeds are drawn in [0, 2**63 - 1) so they fit a signed int64.
SEED_HIGH = 2**63 - 1


def closed_walls(n: int) -> tuple[np.ndarray, np.ndarray]:
    """East and south walls of ``n`` cells, every one up: what a carving kernel starts from.

    >>> [a.tolist() for a in closed_walls(2)]
    [[1, 1], [1, 1]]
    """
    return np.ones(n, np.uint8), np.ones(n, np.uint8)


def kernel_state(seed: int) -> np.ndarray:
    """The one-word SplitMix64 state a kernel draws from (allocated here: an
    array constructor inside a kernel compiles on every cold start)."""
    return np.array([seed], np.uint64)


def kernel_seed(rng) -> int:
    """One 63-bit seed for a kernel's SplitMix64 stream, drawn from ``rng``.

    This is the only draw a kernel-based generator makes from the caller's
    Generator, so a maze is a pure function of the Generator's state.
    """
    return int(as_rng(rng).integers(0, SEED_HIGH))


def walls_to_maze(east: np.ndarray, south: np.ndarray, rows: int, cols: int) -> Maze:
    """A :class:`Maze` from flat uint8 wall arrays (1 = wall)."""
    # Maze copies them to bool itself (an astype here was a second copy)
    return Maze(east.reshape(rows, cols), south.reshape(rows, cols))


def run_kernel(kernel, rows, cols, rng, *args) -> Maze:
    """Validate the size, seed ``kernel`` from ``rng`` and build the maze.

    The kernel returns ``(east, south, *counters)``; counters (the walk
    kernels' move counts) are for the benchmarks and dropped here.
    """
    rows, cols = check_shape(rows, cols)
    out = kernel(rows, cols, kernel_seed(rng), *args)
    return walls_to_maze(out[0], out[1], rows, cols)
