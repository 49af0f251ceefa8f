"""prim's small-grid path (one kernel, a plain binary heap) builds the very
maze of the bucketed kernel.

Prim pops the smallest waiting key whatever the queue, the keys are
distinct and drawn when a cell joins, so both paths must agree byte for
byte for every seed and shape; both are also checked against the plain
Python heapq Prim of ``test_gen_prim_queue`` (SplitMix64 in Python ints).
"""

from __future__ import annotations

import numpy as np
import pytest

from robomaze.generate import _prim_kernels, _prim_small, generate, trees
from test_gen_prim_queue import reference_prim

SEEDS = (0, 1, 2, 12345, 2**40 + 3, 2**62 + 1, 2**63 - 2)

#: Thin, tiny, square and threshold-sized shapes, all at most PRIM_SMALL_CELLS.
SHAPES = [(1, 1), (1, 2), (2, 1), (2, 2), (1, 9), (9, 1), (1, 200), (200, 1), (3, 3), (3, 7),
          (7, 3), (10, 10), (17, 33), (64, 65), (99, 101), (100, 100), (1, 10_000),
          (10_000, 1)]


def test_shapes_are_below_the_threshold():
    assert all(r * c <= trees.PRIM_SMALL_CELLS for r, c in SHAPES)
    assert (100, 100) in SHAPES and 100 * 100 == trees.PRIM_SMALL_CELLS


@pytest.mark.parametrize("rows,cols", SHAPES)
def test_small_path_equals_the_bucketed_kernel(rows, cols):
    for seed in SEEDS:
        se, ss = _prim_small.prim(rows, cols, seed)
        le, ls = _prim_kernels.prim(rows, cols, seed)
        assert se.dtype == le.dtype == np.uint8 and ss.dtype == ls.dtype == np.uint8
        assert np.array_equal(se, le) and np.array_equal(ss, ls), (rows, cols, seed)
        # a spanning tree opens n - 1 walls (the boundary entries stay 1)
        assert 2 * rows * cols - int(se.sum()) - int(ss.sum()) == rows * cols - 1


def test_many_seeds_on_small_shapes():
    rng = np.random.default_rng(22)
    for _ in range(300):
        rows, cols = (int(x) for x in rng.integers(1, 13, size=2))
        seed = int(rng.integers(0, 2**63 - 1))
        se, ss = _prim_small.prim(rows, cols, seed)
        le, ls = _prim_kernels.prim(rows, cols, seed)
        assert np.array_equal(se, le) and np.array_equal(ss, ls), (rows, cols, seed)


@pytest.mark.parametrize("rows,cols", [(1, 1), (1, 6), (5, 1), (2, 2), (4, 7), (13, 11)])
def test_small_path_is_the_plain_python_prim(rows, cols):
    for seed in SEEDS:
        want_e, want_s = reference_prim(rows, cols, seed)
        got_e, got_s = _prim_small.prim(rows, cols, seed)
        assert np.array_equal(got_e, want_e) and np.array_equal(got_s, want_s)


def test_the_public_call_takes_the_small_path_up_to_the_threshold(monkeypatch):
    seen = []
    real = _prim_kernels.prim
    monkeypatch.setattr(_prim_kernels, "prim", lambda *a: seen.append(a[:2]) or real(*a))
    small = generate("prim", 100, 100, rng=3)
    assert seen == []
    big = generate("prim", 100, 101, rng=3)
    assert seen == [(100, 101)]
    assert small.is_perfect() and big.is_perfect()
