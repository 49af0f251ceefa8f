"""The tiled MST (kruskal, mst) against scipy on the whole graph, and its law.

``kruskal`` and ``mst`` reduce the grid tile by tile before a global pass;
the reduction must not change the tree: for the same edge keys the result
must be exactly scipy's minimum spanning tree of the whole grid graph, for
every tile size and shape (tiles of 2-5 cells exercise many tiles, ragged
last tiles, tiles without terminals and one-cell-wide grids).
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from scipy import stats
from scipy.sparse import csgraph

from robomaze.generate import GENERATORS, _mst_kernels
from robomaze.maze import Maze


def scipy_mst_walls(rows, cols, weight_of_edge):
    """Walls of scipy's MST of the grid with ``weight_of_edge[e]`` (e = 2*cell
    + (0 east | 1 south)), as flat uint8 east/south arrays."""
    n = rows * cols
    u = np.arange(n)
    e = np.concatenate([2 * u[u % cols < cols - 1], 2 * u[u < n - cols] + 1])
    a = e >> 1
    b = np.where(e & 1, a + cols, a + 1)
    graph = sp.coo_matrix((weight_of_edge[e], (a, b)), shape=(n, n)).tocsr()
    tree = csgraph.minimum_spanning_tree(graph).tocoo()
    east = np.ones(n, np.uint8)
    south = np.ones(n, np.uint8)
    horiz = (tree.col == tree.row + 1) & (cols > 1)
    east[tree.row[horiz]] = 0
    south[tree.row[~horiz]] = 0
    return east, south


def maze_of(east, south, rows, cols):
    return Maze(east.reshape(rows, cols).astype(bool), south.reshape(rows, cols).astype(bool))


@pytest.mark.parametrize("rows,cols", [(1, 1), (1, 9), (9, 1), (2, 2), (7, 9), (33, 17),
                                       (64, 65)])
@pytest.mark.parametrize("tile", [2, 3, 5, 128])
def test_tiled_kruskal_is_scipys_mst_of_the_same_keys(rows, cols, tile):
    for seed in (1, 2**40 + 7, 2**62 + 3):
        keys = _mst_kernels.all_keys(rows, cols, seed)
        # the keys' top 53 bits are distinct and exact in a float64
        weight = (keys >> np.uint64(11)).astype(np.float64) + 1.0
        want = maze_of(*scipy_mst_walls(rows, cols, weight), rows, cols)
        east, south = _mst_kernels.kruskal(rows, cols, seed, tile)
        got = maze_of(east, south, rows, cols)
        assert got == want
        assert got.is_perfect()


def test_keys_are_distinct_and_carry_the_edge_id():
    keys = _mst_kernels.all_keys(40, 50, 99)
    n = 40 * 50
    valid = np.flatnonzero(keys)
    idbits = _mst_kernels.id_bits(n)
    assert len(np.unique(keys[valid])) == valid.size
    assert (keys[valid] & np.uint64((1 << idbits) - 1) == valid).all()
    # the random part is uniform: its top byte over ~3900 edges
    top = (keys[valid] >> np.uint64(56)).astype(np.int64)
    assert stats.chisquare(np.bincount(top, minlength=256)).pvalue > 1e-3


@pytest.mark.parametrize("seed", range(6))
def test_mst_and_kruskal_agree_maze_for_maze(seed):
    # two global solvers (scipy, numba union-find) on the same keys
    assert GENERATORS["mst"](150, 140, rng=seed) == GENERATORS["kruskal"](150, 140, rng=seed)


def _reference(rows, cols, gen):
    """The MST of i.i.d. uniform weights from numpy, with scipy on the whole
    graph: the law kruskal, mst and prim must share."""
    weight = 1.0 + gen.random(2 * rows * cols)
    return maze_of(*scipy_mst_walls(rows, cols, weight), rows, cols)


def _stats(maze):
    """Dead-end fraction and corner-to-corner path length."""
    return maze.dead_ends().mean(), maze.distances((0, 0))[-1, -1]


@pytest.mark.parametrize("name", ["kruskal", "prim"])
def test_same_law_as_scipy_mst_of_iid_weights(name):
    # 60 mazes of 40x40 each; per maze the dead-end fraction has sd ~0.008
    # and the corner distance sd ~25, so a real difference of 1% of dead
    # ends or 10% of path length would show; Welch's t-test at p > 1e-3.
    gen = np.random.default_rng(2026)
    ref = np.array([_stats(_reference(40, 40, gen)) for _ in range(60)])
    got = np.array([_stats(GENERATORS[name](40, 40, rng=1000 + s)) for s in range(60)])
    for k in range(2):
        assert stats.ttest_ind(ref[:, k], got[:, k], equal_var=False).pvalue > 1e-3
    # and the test has the power to see a different law (frontier Prim)
    other = np.array([_stats(GENERATORS["prim_frontier"](40, 40, rng=s)) for s in range(60)])
    assert stats.ttest_ind(ref[:, 0], other[:, 0], equal_var=False).pvalue < 1e-6


@pytest.mark.parametrize("n", [1, 2, 33, 100, 1000])
@pytest.mark.parametrize("shift", [0, 20])
def test_tile_key_sort_matches_numpy(n, shift):
    """The tiles' bucket sort against numpy's, on uniform keys and on keys
    crowded into few buckets (``shift``: top bits zero); the keys are
    distinct, so any correct sort agrees. (The global pass's sort is
    numpy's own.)"""
    from robomaze.generate import _mst_kernels as K

    rng = np.random.default_rng(n)
    keys = np.unique(rng.integers(0, 2**63, n, dtype=np.int64).astype(np.uint64)
                     >> np.uint64(shift))
    rng.shuffle(keys)
    got = keys.copy()
    K._sort_keys(got, got.size, np.empty_like(got), np.empty(got.size + 2, np.int32))
    assert np.array_equal(got, np.sort(keys))
