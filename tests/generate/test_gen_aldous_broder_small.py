"""Aldous-Broder's small-grid kernel walks the very steps of the jumping kernel.

Below three 16x16 blocks either way (``SMALL_SIDE`` = 48) the jumping kernel
of ``_walk_kernels`` has no calm block and walks step by step; the small
kernel must then return the same walls and move count byte for byte, and
so must the jumping kernel with its blocks larger than the grid on any
grid. Both are also checked against the plain-Python walk of
``test_gen_walk_reference`` (SplitMix64 in Python ints).
"""

from __future__ import annotations

import numpy as np
import pytest

from robomaze.generate import _aldous_broder_small, _walk_kernels, generate
from test_gen_walk_reference import ref_aldous_broder

SEEDS = (0, 1, 2, 12345, 2**40 + 3, 2**62 + 1, 2**63 - 2)

#: Thin, tiny and square shapes narrower than SMALL_SIDE either way.
NARROW = [(1, 1), (1, 2), (2, 1), (2, 2), (1, 9), (9, 1), (1, 200), (200, 1), (3, 7), (7, 3),
          (10, 10), (17, 33), (47, 47), (47, 150), (150, 47)]


def _equal(a, b):
    assert a[0].dtype == b[0].dtype == np.uint8 and a[1].dtype == b[1].dtype == np.uint8
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    assert int(a[2]) == int(b[2])


def test_the_threshold_is_three_fine_blocks():
    assert _aldous_broder_small.SMALL_SIDE == 3 * 2**_walk_kernels.AB_FINE == 48


@pytest.mark.parametrize("rows,cols", NARROW)
def test_small_kernel_equals_the_jumping_kernel_on_narrow_grids(rows, cols):
    assert min(rows, cols) < _aldous_broder_small.SMALL_SIDE
    for seed in SEEDS:
        _equal(_aldous_broder_small.aldous_broder(rows, cols, seed),
               _walk_kernels.aldous_broder(rows, cols, seed))


@pytest.mark.parametrize("rows,cols", [(48, 48), (60, 71)])
def test_small_kernel_equals_the_jumping_kernel_without_blocks(rows, cols):
    for seed in SEEDS[:3]:
        _equal(_aldous_broder_small.aldous_broder(rows, cols, seed),
               _walk_kernels.aldous_broder(rows, cols, seed, 30, 31))


def test_where_the_kernel_jumps_the_mazes_differ():
    # so the public call must not take the small kernel there
    for seed in SEEDS[:3]:
        small = _aldous_broder_small.aldous_broder(100, 100, seed)
        jumping = _walk_kernels.aldous_broder(100, 100, seed)
        assert not np.array_equal(small[0], jumping[0])


def test_many_seeds_on_small_shapes():
    rng = np.random.default_rng(22)
    for _ in range(300):
        rows, cols = (int(x) for x in rng.integers(1, 14, size=2))
        seed = int(rng.integers(0, 2**63 - 1))
        _equal(_aldous_broder_small.aldous_broder(rows, cols, seed),
               _walk_kernels.aldous_broder(rows, cols, seed))


@pytest.mark.parametrize("rows,cols", [(1, 1), (1, 6), (5, 1), (2, 2), (4, 7), (13, 11)])
def test_small_kernel_is_the_plain_python_walk(rows, cols):
    for seed in SEEDS:
        east, south, moves, jumps = ref_aldous_broder(rows, cols, seed, 30, 31)
        assert jumps == 0
        _equal(_aldous_broder_small.aldous_broder(rows, cols, seed), (east, south, moves))


def test_the_public_call_takes_the_small_kernel_below_48_either_way(monkeypatch):
    seen = []
    real = _walk_kernels.aldous_broder
    monkeypatch.setattr(_walk_kernels, "aldous_broder", lambda *a: seen.append(a[:2]) or real(*a))
    mazes = [generate("aldous_broder", r, c, rng=3) for r, c in ((47, 120), (120, 47), (10, 10))]
    assert seen == []
    mazes.append(generate("aldous_broder", 48, 48, rng=3))
    assert seen == [(48, 48)]
    assert all(m.is_perfect() for m in mazes)
