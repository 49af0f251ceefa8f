"""The backtracker's self-contained kernel (SplitMix64, neighbours and carve
written out) is the depth-first search of the plain-Python reference below,
draw for draw, and the growing tree's ``newest`` selection (another kernel)
on larger grids.
"""

from __future__ import annotations

import numpy as np
import pytest

from robomaze.generate import _kernels, generate
from splitmix_ref import SplitMix64

SEEDS = (0, 1, 2, 12345, 2**40 + 3, 2**62 + 1, 2**63 - 2)


def ref_backtracker(rows: int, cols: int, seed: int):
    """Depth-first search: candidates N, E, S, W, one ``below(m)`` per step."""
    rng = SplitMix64(seed)
    n = rows * cols
    east = np.ones(n, np.uint8)
    south = np.ones(n, np.uint8)
    seen = [False] * n
    u = rng.below(n)
    seen[u] = True
    stack = [u]
    while stack:
        u = stack[-1]
        r, c = divmod(u, cols)
        cand = [v for ok, v in ((r > 0, u - cols), (c < cols - 1, u + 1),
                                (r < rows - 1, u + cols), (c > 0, u - 1)) if ok and not seen[v]]
        if not cand:
            stack.pop()
            continue
        v = cand[rng.below(len(cand))]
        vr, vc = divmod(v, cols)
        if vr != r:
            south[min(u, v)] = 0
        else:
            east[min(u, v)] = 0
        seen[v] = True
        stack.append(v)
    return east, south


@pytest.mark.parametrize("rows,cols", [(1, 1), (1, 2), (2, 1), (2, 2), (1, 9), (9, 1), (3, 7),
                                       (7, 3), (10, 10), (17, 23)])
def test_kernel_is_the_plain_python_search(rows, cols):
    for seed in SEEDS:
        east, south = _kernels.backtracker(rows, cols, seed)
        want_e, want_s = ref_backtracker(rows, cols, seed)
        assert east.dtype == south.dtype == np.uint8
        assert np.array_equal(east, want_e) and np.array_equal(south, want_s), (rows, cols, seed)


@pytest.mark.parametrize("rows,cols", [(1, 500), (500, 1), (64, 65), (201, 130)])
def test_kernel_is_the_growing_trees_newest_selection(rows, cols):
    for seed in SEEDS[:4]:
        assert generate("backtracker", rows, cols, rng=seed) == generate(
            "growing_tree", rows, cols, rng=seed, selection="newest")
