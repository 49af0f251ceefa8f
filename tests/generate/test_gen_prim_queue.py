"""prim's two-level bucket queue pops exactly what one big heap would.

The reference below is textbook Prim written independently in plain Python:
the same SplitMix64 key stream (``splitmix_ref.py``),
``heapq`` as the priority queue, no buckets. The kernel must build the very
same walls for every coarse/fine split, including splits far finer than the
default so that keys land in the current coarse bucket's fine buckets on
small mazes, and at the size where the default split first switches on.
"""

from __future__ import annotations

import heapq

import numpy as np
import pytest

from robomaze.generate import _prim_kernels
from splitmix_ref import SplitMix64

EDGE_MASK = (1 << 31) - 1


def reference_prim(rows: int, cols: int, seed: int):
    """Prim with heapq: keys are a 33-bit weight above the edge id cell*4+dir,
    drawn when an edge first touches the tree, neighbours in the order N, E, S, W."""
    rng = SplitMix64(seed)
    n = rows * cols
    east = np.ones(n, np.uint8)
    south = np.ones(n, np.uint8)
    intree = bytearray(n)
    u = rng.below(n)
    intree[u] = 1
    heap: list[int] = []
    for count in range(1, n + 1):
        r, c = divmod(u, cols)
        for code, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
            rr, cc = r + dr, c + dc
            if 0 <= rr < rows and 0 <= cc < cols and not intree[rr * cols + cc]:
                heapq.heappush(heap, ((rng.next() >> 31) << 31) | (u * 4 + code))
        if count == n:
            break
        while True:
            e = heapq.heappop(heap) & EDGE_MASK
            a, code = e >> 2, e & 3
            b = a + (-cols, 1, cols, -1)[code]
            if not intree[b]:
                break
        if code == 0:
            south[b] = 0
        elif code == 1:
            east[a] = 0
        elif code == 2:
            south[a] = 0
        else:
            east[b] = 0
        intree[b] = 1
        u = b
    return east, south


@pytest.mark.parametrize("rows, cols, seed", [(1, 1, 3), (1, 9, 4), (8, 1, 5),
                                              (23, 31, 6), (40, 40, 7)])
@pytest.mark.parametrize("cbits, fbits", [(12, 0), (1, 0), (2, 3), (4, 4), (6, 10)])
def test_any_split_gives_the_reference_tree(rows, cols, seed, cbits, fbits):
    east, south = _prim_kernels.prim(rows, cols, seed, cbits, fbits)
    ref_east, ref_south = reference_prim(rows, cols, seed)
    np.testing.assert_array_equal(east, ref_east)
    np.testing.assert_array_equal(south, ref_south)


def test_default_split_thresholds():
    # coarse buckets: 16-32 cells each (2**(floor(log2 n) - 4)), between 16 and 4096
    assert [_prim_kernels._coarse_bits(n) for n in (1, 511, 512, 1024, 10_000, 65_535, 65_536,
                                                     4000 * 4000)] == [4, 4, 5, 6, 9, 11, 12, 12]
    # n >> (12 + bits) <= 32: no split up to 131072 cells, 128 fine buckets
    # at 4000x4000 (16e6 >> 19 = 30, 16e6 >> 18 = 61)
    assert _prim_kernels._fine_bits(250 * 250, 12) == 0
    assert _prim_kernels._fine_bits(131072, 12) == 0
    assert _prim_kernels._fine_bits(131073 + 4095, 12) == 1
    assert _prim_kernels._fine_bits(4000 * 4000, 12) == 7


def test_public_kernel_uses_the_split_and_matches_the_reference():
    rows, cols = 380, 380  # 144400 cells: the default split is on (fbits 1)
    assert _prim_kernels._fine_bits(rows * cols, 12) == 1
    east, south = _prim_kernels.prim(rows, cols, 11)
    ref_east, ref_south = reference_prim(rows, cols, 11)
    np.testing.assert_array_equal(east, ref_east)
    np.testing.assert_array_equal(south, ref_south)
