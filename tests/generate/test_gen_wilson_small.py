"""Wilson's small-grid kernel walks the very steps of the jumping kernel.

Below three 32x32 blocks either way (``SMALL_SIDE`` = 96) the jumping kernel
of ``_walk_kernels`` has no calm block and walks step by step; the small
kernel must then return the same walls and move count byte for byte, and
so must the jumping kernel with jumps turned off (``lb`` > 5) on any grid.
Both are also checked against the plain-Python Wilson of
``test_gen_walk_reference`` (SplitMix64 in Python ints).
"""

from __future__ import annotations

import numpy as np
import pytest

from robomaze.generate import _walk_kernels, _wilson_small, generate
from test_gen_walk_reference import ref_wilson

SEEDS = (0, 1, 2, 12345, 2**40 + 3, 2**62 + 1, 2**63 - 2)

#: Thin, tiny and square shapes narrower than SMALL_SIDE either way.
NARROW = [(1, 1), (1, 2), (2, 1), (2, 2), (1, 9), (9, 1), (1, 300), (300, 1), (3, 7), (7, 3),
          (10, 10), (17, 33), (64, 65), (95, 95), (95, 400), (400, 95), (33, 1000)]


def _equal(a, b):
    assert a[0].dtype == b[0].dtype == np.uint8 and a[1].dtype == b[1].dtype == np.uint8
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    assert int(a[2]) == int(b[2])


def test_the_threshold_is_three_jump_blocks():
    assert _wilson_small.SMALL_SIDE == 3 * 2**_walk_kernels.WILSON_BLOCK == 96


@pytest.mark.parametrize("rows,cols", NARROW)
def test_small_kernel_equals_the_jumping_kernel_on_narrow_grids(rows, cols):
    assert min(rows, cols) < _wilson_small.SMALL_SIDE
    for seed in SEEDS:
        _equal(_wilson_small.wilson(rows, cols, seed), _walk_kernels.wilson(rows, cols, seed))


@pytest.mark.parametrize("rows,cols", [(96, 96), (130, 101), (200, 200)])
def test_small_kernel_equals_the_jumping_kernel_without_jumps(rows, cols):
    for seed in SEEDS[:3]:
        _equal(_wilson_small.wilson(rows, cols, seed), _walk_kernels.wilson(rows, cols, seed, 6))


def test_where_the_kernel_jumps_the_mazes_differ():
    # so the public call must not take the small kernel there
    for seed in SEEDS[:3]:
        small = _wilson_small.wilson(200, 200, seed)
        jumping = _walk_kernels.wilson(200, 200, seed)
        assert not np.array_equal(small[0], jumping[0])


def test_many_seeds_on_small_shapes():
    rng = np.random.default_rng(22)
    for _ in range(300):
        rows, cols = (int(x) for x in rng.integers(1, 14, size=2))
        seed = int(rng.integers(0, 2**63 - 1))
        _equal(_wilson_small.wilson(rows, cols, seed), _walk_kernels.wilson(rows, cols, seed))


@pytest.mark.parametrize("rows,cols", [(1, 1), (1, 6), (5, 1), (2, 2), (4, 7), (13, 11)])
def test_small_kernel_is_the_plain_python_wilson(rows, cols):
    for seed in SEEDS:
        east, south, moves, jumps = ref_wilson(rows, cols, seed, 6)
        assert jumps == 0
        _equal(_wilson_small.wilson(rows, cols, seed), (east, south, moves))


def test_the_public_call_takes_the_small_kernel_below_96_either_way(monkeypatch):
    seen = []
    real = _walk_kernels.wilson
    monkeypatch.setattr(_walk_kernels, "wilson", lambda *a: seen.append(a[:2]) or real(*a))
    mazes = [generate("wilson", r, c, rng=3) for r, c in ((95, 500), (500, 95), (10, 10))]
    assert seen == []
    mazes.append(generate("wilson", 96, 96, rng=3))
    assert seen == [(96, 96)]
    assert all(m.is_perfect() for m in mazes)
