"""Minimum-spanning-tree style generators: Prim (two flavours), Kruskal and
a scipy MST of random edge weights.

``prim``, ``kruskal`` and ``mst`` all return the minimum spanning tree of
i.i.d. continuous edge weights, so they share one distribution (about 30.5%
dead ends on large mazes); ``prim_frontier`` -- the frontier-cell variant
often called "randomized Prim" -- is a different distribution with more,
shorter dead ends (about 36%).

``kruskal`` and ``mst`` draw the same edge keys from a seed
(:mod:`robomaze.generate._mst_kernels`) and the MST of distinct weights is
unique, so for the same ``rng`` they return the same maze by two different
global solvers (numba Kruskal, scipy); ``prim`` draws its weights as it
pushes edges, so its mazes differ while their law is the same.
"""

from __future__ import annotations

import numpy as np

from ..errors import ParameterError
from ..maze import Maze, check_shape
from . import _mst_kernels, _mst_small, _prim_kernels, _prim_small, _tree_kernels
from ._common import closed_walls, kernel_seed, run_kernel, walls_to_maze

__all__ = ["prim", "prim_frontier", "kruskal", "mst"]

#: Side of the square tiles the MST is first reduced in: 128x128 cells keep
#: a tile's keys, union-find and tree in the 1 MiB L2 of the reference
#: machine and leave about 3% of the edges to the global pass.
TILE = 128

#: Grids of at most this many cells take :mod:`._mst_small` (numpy keys and
#: sort, one small kernel: ~0.15 s of compiling instead of the tiles' ~3-4 s);
#: it is also the faster path up to here (100x100: 51 vs 69 ns/cell, 200x200:
#: 67 vs 73; level at 215-250, slower beyond, where its random accesses leave
#: the cache: ``benchmarks/bench_kruskal_paths.py``). Both build the same maze
#: (the MST of distinct keys is unique).
SMALL_CELLS = 40_000

#: Grids of at most this many cells go to scipy's MST whole (the keys' ranks
#: as weights; nothing compiled, instead of the tiles' ~3.6 s); scipy on the
#: whole graph is ~4x the tiled path's time (100x100: 3.2 vs 0.74 ms), so
#: larger grids, whose run time grows, keep the tiles.
MST_SCIPY_CELLS = 10_000

#: Prim's queue keys keep ``cell * 4 + direction`` in 31 bits.
PRIM_MAX_CELLS = 2**29 - 1

#: Grids of at most this many cells take :mod:`._prim_small` (one kernel,
#: a plain binary heap: ~0.3 s of compiling instead of ~2 s for the 19
#: specialisations of :mod:`._prim_kernels`' bucketed, prefetching queue).
#: It is the faster path on small grids (32x32: 88 vs 103 ns/cell), level
#: from 80x80 to 100x100 (1.01x) and slower beyond, where its heap of all
#: waiting edges leaves the cache (181x181: 1.12x;
#: ``benchmarks/bench_generate_paths.py``). Both build the same maze.
PRIM_SMALL_CELLS = 10_000


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
        If the size is invalid or above :data:`PRIM_MAX_CELLS` cells.

    Examples
    --------
    >>> prim(6, 6, rng=5).is_perfect()
    True
    """
    rows, cols = check_shape(rows, cols)
    if rows * cols > PRIM_MAX_CELLS:
        raise ParameterError(
            f"prim: a {rows}x{cols} maze has {rows * cols} cells; expected rows*cols <= "
            f"{PRIM_MAX_CELLS} (its queue keys hold a 31-bit edge id)")
    if rows * cols <= PRIM_SMALL_CELLS:
        return walls_to_maze(*_prim_small.prim(rows, cols, kernel_seed(rng)), rows, cols)
    return run_kernel(_prim_kernels.prim, rows, cols, rng)


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
    """Kruskal: open walls in increasing random weight unless that would
    close a loop.

    Every wall gets an i.i.d. random 64-bit key (a uniformly random order).
    Kruskal runs first inside each 128x128 tile, in cache; a wall it leaves
    closed is the heaviest on a cycle, so no spanning tree of smaller weight
    uses it (the cycle property). Of the kept edges only those on tree
    paths between tile borders can still close a loop; chains of them
    collapse to their heaviest edge, and one global Kruskal (union-find with
    path halving and union by size) decides those. The result is exactly the
    MST of the keys, i.e. Kruskal on the whole shuffled wall list, in about
    linear time and memory traffic. Up to :data:`SMALL_CELLS` cells the
    keys are sorted at once in numpy and Kruskal runs on all of them
    (cheaper to compile, as fast there); the maze is the same.

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
    rows, cols = check_shape(rows, cols)
    seed = kernel_seed(rng)
    if rows * cols <= SMALL_CELLS:
        east, south = _mst_small.kruskal(rows, cols, seed)
    else:
        east, south = _mst_kernels.kruskal(rows, cols, seed, TILE)
    return walls_to_maze(east, south, rows, cols)


def mst(rows: int, cols: int, *, rng=None) -> Maze:
    """Minimum spanning tree of random edge weights, solved by scipy.

    The edge keys and the tile reduction are those of :func:`kruskal`; the
    reduced graph (about 3% of the edges: chains weighted by their heaviest
    key, and the edges between tiles) goes through
    :func:`scipy.sparse.csgraph.minimum_spanning_tree` instead of the numba
    union-find; up to :data:`MST_SCIPY_CELLS` cells scipy takes the whole grid
    graph, the keys' ranks as weights, and nothing is compiled. Both give
    exactly the MST of the keys, so ``mst`` and ``kruskal`` return the same
    maze for the same ``rng``.

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
    >>> m = mst(4, 5, rng=8)
    >>> m.is_perfect(), m == kruskal(4, 5, rng=8)
    (True, True)
    """
    rows, cols = check_shape(rows, cols)
    seed = kernel_seed(rng)
    if rows * cols <= MST_SCIPY_CELLS:
        return walls_to_maze(*_scipy_mst_of_all_keys(rows, cols, seed), rows, cols)
    east, south, ga, gb, gkey, nv, idbits = _mst_kernels.reduce(rows, cols, seed, TILE)
    if gkey.size:
        # the keys' top 53 bits are exact in a float64 and distinct unless
        # two random parts tie (about 2**-39 per pair at 4000x4000, where
        # the edge id takes the low 25 bits). scipy drops zero weights,
        # hence the + 1.
        weight = (gkey >> np.uint64(11)).astype(np.float64) + 1.0
        lo, hi = np.minimum(ga, gb), np.maximum(ga, gb)
        import scipy.sparse as sp  # here: the other generators need no scipy import
        from scipy.sparse import csgraph

        graph = sp.csr_matrix((weight, (lo, hi)), shape=(nv, nv))
        tree = csgraph.minimum_spanning_tree(graph, overwrite=True).tocoo()
        # an edge of the reduced graph is named by its end pair (no two
        # edges share one: chains stay inside a tile, other edges cross)
        code = lo * np.int64(nv) + hi
        order = np.argsort(code)
        picked = order[np.searchsorted(code[order], tree.row.astype(np.int64) * nv + tree.col)]
        edge = (gkey[picked] & np.uint64((1 << int(idbits)) - 1)).astype(np.int64)
        cell, south_side = edge >> 1, (edge & 1).astype(bool)
        east[cell[~south_side]] = 0
        south[cell[south_side]] = 0
    return walls_to_maze(east, south, rows, cols)


def _scipy_mst_of_all_keys(rows: int, cols: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Walls of scipy's MST of the whole grid graph weighted by the keys'
    ranks (distinct and exact in a float64, unlike the keys themselves)."""
    n = rows * cols
    e, keys = _mst_small.edge_keys(rows, cols, seed)
    east, south = closed_walls(n)
    if e.size:
        import scipy.sparse as sp  # here: the other generators need no scipy import
        from scipy.sparse import csgraph

        order = np.argsort(keys)
        rank = np.empty(e.size)
        rank[order] = np.arange(1, e.size + 1)
        a = e >> 1
        graph = sp.csr_matrix((rank, (a, a + np.where(e & 1, cols, 1))), shape=(n, n))
        tree = csgraph.minimum_spanning_tree(graph, overwrite=True)
        # a tree edge's weight is its rank: the rank names the edge
        edge = e[order[tree.data.astype(np.int64) - 1]]
        east[edge[(edge & 1) == 0] >> 1] = 0
        south[edge[(edge & 1) == 1] >> 1] = 0
    return east, south
