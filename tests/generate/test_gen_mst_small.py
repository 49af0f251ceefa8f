"""Kruskal's small-grid path (numpy keys and sort, one union-find kernel).

With distinct keys the minimum spanning tree is unique, so the small path
and the tiled reduction must build the same maze byte for byte, and both
must be scipy's MST of the whole grid graph. The keys are checked against
SplitMix64 in Python integers (``splitmix_ref``), independent of both the
numpy and the numba code.
"""

from __future__ import annotations

import numpy as np
import pytest

from robomaze.generate import GENERATORS, _mst_kernels, _mst_small, trees
from robomaze.maze import Maze
from splitmix_ref import M64
from test_gen_mst_tiles import maze_of, scipy_mst_walls

SEEDS = (0, 1, 2**40 + 7, 2**62 + 3, 2**63 - 2)


def ref_key(seed: int, e: int, idbits: int) -> int:
    """SplitMix64 output ``e + 1`` of ``seed`` above the edge id, in Python ints."""
    z = (seed + (e + 1) * 0x9E3779B97F4A7C15) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    z ^= z >> 31
    return ((z >> idbits) << idbits) | e


@pytest.mark.parametrize("rows,cols", [(1, 1), (1, 2), (2, 1), (3, 4), (5, 1), (17, 9)])
@pytest.mark.parametrize("seed", SEEDS)
def test_numpy_keys_are_splitmix64_bit_for_bit(rows, cols, seed):
    e, keys = _mst_small.edge_keys(rows, cols, seed)
    n = rows * cols
    idbits = _mst_small.id_bits(n)
    assert idbits == _mst_kernels.id_bits(n)
    assert 2 * n <= 1 << idbits
    # every edge of the grid once: east edges off the last column, south off the last row
    want_e = sorted([2 * u for u in range(n) if u % cols < cols - 1]
                    + [2 * u + 1 for u in range(n - cols)])
    assert sorted(e.tolist()) == want_e
    assert keys.dtype == np.uint64
    assert [int(k) for k in keys] == [ref_key(seed, int(x), idbits) for x in e]


@pytest.mark.parametrize("rows,cols", [(40, 50), (199, 201)])
def test_numpy_keys_equal_the_kernels_keys(rows, cols):
    for seed in SEEDS:
        e, keys = _mst_small.edge_keys(rows, cols, seed)
        assert np.array_equal(_mst_kernels.all_keys(rows, cols, seed)[e], keys)


@pytest.mark.parametrize("rows,cols", [(1, 1), (1, 9), (9, 1), (2, 2), (7, 9), (33, 17),
                                       (64, 65)])
def test_small_path_is_scipys_mst_of_the_same_keys(rows, cols):
    for seed in SEEDS:
        keys = _mst_kernels.all_keys(rows, cols, seed)
        # ranks, not the keys' top bits: distinct and exact in a float64
        valid = np.flatnonzero(keys)
        weight = np.zeros(keys.size)
        weight[valid[np.argsort(keys[valid])]] = np.arange(1, valid.size + 1)
        want = maze_of(*scipy_mst_walls(rows, cols, weight), rows, cols)
        got = maze_of(*_mst_small.kruskal(rows, cols, seed), rows, cols)
        assert got == want
        assert got.is_perfect()


#: Shapes on both sides of the threshold (40,000 cells), thin ones included.
AROUND = [(199, 201), (200, 200), (201, 200), (1, 40_001), (40_001, 1), (7, 5_715),
          (128, 129), (129, 128), (256, 3), (3, 300)]


@pytest.mark.parametrize("rows,cols", AROUND)
def test_small_and_tiled_paths_are_byte_identical(rows, cols):
    for seed in SEEDS[:3]:
        se, ss = _mst_small.kruskal(rows, cols, seed)
        te, ts = _mst_kernels.kruskal(rows, cols, seed, trees.TILE)
        assert se.dtype == te.dtype == np.uint8 and ss.dtype == ts.dtype == np.uint8
        assert se.tobytes() == te.tobytes()
        assert ss.tobytes() == ts.tobytes()


@pytest.mark.parametrize("rows,cols", [(2, 3), (11, 13), (30, 31)])
@pytest.mark.parametrize("tile", [2, 3, 5])
def test_small_path_equals_tiles_of_every_size(rows, cols, tile):
    for seed in SEEDS:
        a = _mst_small.kruskal(rows, cols, seed)
        b = _mst_kernels.kruskal(rows, cols, seed, tile)
        assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


def test_public_kruskal_takes_the_small_path_up_to_the_threshold(monkeypatch):
    def no_tiles(*args):
        raise AssertionError("the tiled kernels ran for a small grid")

    want = GENERATORS["kruskal"](200, 200, rng=5)
    monkeypatch.setattr(_mst_kernels, "kruskal", no_tiles)
    assert trees.SMALL_CELLS == 40_000
    assert GENERATORS["kruskal"](200, 200, rng=5) == want
    assert isinstance(GENERATORS["kruskal"](1, 1, rng=5), Maze)
    with pytest.raises(AssertionError, match="tiled kernels ran"):
        GENERATORS["kruskal"](200, 201, rng=5)


def test_public_kruskal_takes_the_tiled_path_above_it(monkeypatch):
    def no_small(*args):
        raise AssertionError("the small path ran for a large grid")

    monkeypatch.setattr(_mst_small, "kruskal", no_small)
    m = GENERATORS["kruskal"](201, 200, rng=5)
    assert m.is_perfect()
    with pytest.raises(AssertionError, match="small path ran"):
        GENERATORS["kruskal"](200, 200, rng=5)


@pytest.mark.parametrize("rows,cols", [(1, 1), (1, 9), (9, 1), (2, 2), (7, 9), (99, 101),
                                       (100, 100), (100, 101), (1, 10_001)])
def test_mst_whole_graph_path_equals_its_tiled_path(rows, cols, monkeypatch):
    # up to MST_SCIPY_CELLS scipy takes the whole graph; forcing the tiles
    # (threshold 0) must give the same maze, and kruskal's too
    for seed in SEEDS[:3]:
        small = GENERATORS["mst"](rows, cols, rng=seed)
        assert small == GENERATORS["kruskal"](rows, cols, rng=seed)
        with monkeypatch.context() as m:
            m.setattr(trees, "MST_SCIPY_CELLS", 0)
            tiled = GENERATORS["mst"](rows, cols, rng=seed)
        assert small.to_matrix().tobytes() == tiled.to_matrix().tobytes()


def test_mst_compiles_nothing_up_to_its_threshold(monkeypatch):
    def no_tiles(*args):
        raise AssertionError("the tile reduction ran")

    assert trees.MST_SCIPY_CELLS == 10_000
    monkeypatch.setattr(_mst_kernels, "reduce", no_tiles)
    assert GENERATORS["mst"](100, 100, rng=1).is_perfect()
    with pytest.raises(AssertionError, match="tile reduction ran"):
        GENERATORS["mst"](100, 101, rng=1)
