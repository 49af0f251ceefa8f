"""Minimum-spanning-tree style generators: Prim (two flavours), Kruskal and
a scipy MST of random edge weights.

``prim``, ``kruskal`` and ``mst`` all return the minimum spanning tree of
i.i.d. continuous edge weights, so they share one distribution (about 30.5%
dead ends on large mazes); ``prim_frontier`` -- the frontier-cell variant
often called "randomized Prim" -- is a different distribution with more,
shorter dead ends (about 36%).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph

from .._validate import as_rng
from ..maze import Maze, check_shape
from . import _tree_kernels
from ._common import run_kernel

__all__ = ["prim", "prim_frontier", "kruskal", "mst"]


def prim(rows: int, cols: int, *, rng=None) -> Maze:
    """Randomized Prim on random edge weights ("true" Prim).

    Every edge gets an independent uniform weight; the tree grows from a
    random cell by always taking the lightest edge leaving it (binary heap).

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
    >>> prim(6, 6, rng=5).is_perfect()
    True
    """
    return run_kernel(_tree_kernels.prim, rows, cols, rng)


def prim_frontier(rows: int, cols: int, *, rng=None) -> Maze:
    """Frontier-cell Prim with In / Frontier labels.

    Cells next to the maze are Frontier; each step moves a uniformly random
    Frontier cell In, through a random In neighbour.

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
    >>> prim_frontier(3, 8, rng=6).is_perfect()
    True
    """
    return run_kernel(_tree_kernels.prim_frontier, rows, cols, rng)


def kruskal(rows: int, cols: int, *, rng=None) -> Maze:
    """Kruskal: open walls in random order unless that would close a loop.

    Uses union-find with path halving and union by size.

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
    >>> kruskal(9, 2, rng=7).is_perfect()
    True
    """
    return run_kernel(_tree_kernels.kruskal, rows, cols, rng)


def mst(rows: int, cols: int, *, rng=None) -> Maze:
    """Minimum spanning tree of uniform random edge weights (scipy.sparse).

    The grid graph with i.i.d. weights in ``[1, 2)`` (scipy treats a zero
    weight as a missing edge) goes through
    :func:`scipy.sparse.csgraph.minimum_spanning_tree`.

    Parameters
    ----------
    rows, cols : int
        Maze size in cells (>= 1 each).
    rng : numpy.random.Generator, int or None
        Source of randomness (one weight per edge).

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
    >>> mst(4, 5, rng=8).is_perfect()
    True
    """
    rows, cols = check_shape(rows, cols)
    gen = as_rng(rng)
    n = rows * cols
    # Upper-triangular CSR built directly (row u lists u+1 then u+cols), so
    # scipy needs no COO conversion; weights follow the CSR entry order.
    u = np.arange(n, dtype=np.int32)
    has_e = (u % cols) < cols - 1
    has_s = u < n - cols
    indptr = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(has_e.astype(np.int32) + has_s, out=indptr[1:])
    indices = np.empty(int(indptr[-1]), dtype=np.int32)
    indices[indptr[:-1][has_e]] = u[has_e] + 1
    indices[(indptr[:-1] + has_e)[has_s]] = u[has_s] + cols
    weights = 1.0 + gen.random(indices.size)
    graph = sp.csr_matrix((weights, indices, indptr), shape=(n, n))
    tree = csgraph.minimum_spanning_tree(graph, overwrite=True).tocoo()
    east = np.ones(n, bool)
    south = np.ones(n, bool)
    # with one column u + 1 is the cell below: every edge is vertical then
    horiz = (tree.col == tree.row + 1) & (cols > 1)
    east[tree.row[horiz]] = False
    south[tree.row[~horiz]] = False
    return Maze(east.reshape(rows, cols), south.reshape(rows, cols))
