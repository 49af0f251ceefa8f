"""``unpack_blocked`` (numpy) reads the 8x8 cache-line blocks back to rows as
the ``_unpack_walls`` kernel does, and as the block index says cell by cell."""

from __future__ import annotations

import numpy as np
import pytest

from robomaze.generate import _tree_kernels as T


@pytest.mark.parametrize("rows,cols", [(1, 1), (1, 9), (9, 1), (8, 8), (13, 29), (64, 65),
                                       (100, 100)])
def test_numpy_unpacking_equals_the_kernel_and_the_block_index(rows, cols):
    rng = np.random.default_rng(rows * 1000 + cols)
    tcols = (cols + 7) >> 3
    cell = rng.integers(0, 256, ((rows + 7) >> 3) * tcols * 64).astype(np.uint8)
    east, south = T.unpack_blocked(cell, rows, cols, 4, 8)
    assert east.dtype == south.dtype == np.uint8 and east.shape == (rows * cols,)
    want = T._unpack_walls(cell, rows, cols, np.int64(4), np.int64(8))
    assert np.array_equal(east, want[0]) and np.array_equal(south, want[1])
    for r in range(rows):  # the block index in plain Python
        for c in range(cols):
            x = int(cell[((r >> 3) * tcols + (c >> 3)) * 64 + (r & 7) * 8 + (c & 7)])
            assert east[r * cols + c] == (x >> 2) & 1 and south[r * cols + c] == (x >> 3) & 1
