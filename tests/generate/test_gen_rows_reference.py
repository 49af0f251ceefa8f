"""Sidewinder, binary tree and recursive division against plain-Python references.

The kernels keep the SplitMix64 state in a register and (sidewinder, binary
tree) carve without branching on the coin: the references here draw one
word at a time from ``splitmix_ref.py`` with the textbook control flow
(``uniform() < 0.5`` as a float comparison, ``below`` as ``int(u * n)``),
so the kernels must return the very same walls, seed for seed, and leave
the stream where the reference leaves it.
"""

from __future__ import annotations

import numpy as np
import pytest

from robomaze.generate import _tree_kernels
from splitmix_ref import SplitMix64

INV53 = 1.0 / 9007199254740992.0


def coin(sm: SplitMix64) -> bool:
    return float(sm.next() >> 11) * INV53 < 0.5


def sidewinder_ref(rows, cols, seed):
    sm = SplitMix64(seed)
    east = np.ones((rows, cols), np.uint8)
    south = np.ones((rows, cols), np.uint8)
    east[0, :cols - 1] = 0
    for r in range(1, rows):
        run = 0
        for c in range(cols):
            if c < cols - 1 and coin(sm):
                east[r, c] = 0
            else:
                south[r - 1, run + sm.below(c - run + 1)] = 0
                run = c + 1
    return east.ravel(), south.ravel(), sm.state


def binary_tree_ref(rows, cols, seed):
    sm = SplitMix64(seed)
    east = np.ones((rows, cols), np.uint8)
    south = np.ones((rows, cols), np.uint8)
    for r in range(rows):
        for c in range(cols):
            if r > 0 and c > 0:
                if coin(sm):
                    south[r - 1, c] = 0
                else:
                    east[r, c - 1] = 0
            elif r > 0:
                south[r - 1, c] = 0
            elif c > 0:
                east[r, c - 1] = 0
    return east.ravel(), south.ravel(), sm.state


def division_ref(rows, cols, seed):
    sm = SplitMix64(seed)
    east = np.zeros((rows, cols), np.uint8)
    south = np.zeros((rows, cols), np.uint8)
    east[:, -1] = 1
    south[-1, :] = 1
    stack = [(0, 0, rows, cols)]
    while stack:
        r0, c0, h, w = stack.pop()
        if h < 2 or w < 2:
            continue
        if h > w or (h == w and coin(sm)):
            wr = r0 + sm.below(h - 1)
            gap = c0 + sm.below(w)
            south[wr, c0:c0 + w] = 1
            south[wr, gap] = 0
            stack += [(r0, c0, wr - r0 + 1, w), (wr + 1, c0, r0 + h - wr - 1, w)]
        else:
            wc = c0 + sm.below(w - 1)
            gap = r0 + sm.below(h)
            east[r0:r0 + h, wc] = 1
            east[gap, wc] = 0
            stack += [(r0, c0, h, wc - c0 + 1), (r0, wc + 1, h, c0 + w - wc - 1)]
    return east.ravel(), south.ravel(), sm.state


def run_kernel(kernel, rows, cols, seed, division=False):
    st = np.array([seed], np.uint64)
    n = rows * cols
    if division:
        east, south = np.zeros(n, np.uint8), np.zeros(n, np.uint8)
        kernel(rows, cols, st, east, south, np.empty((2 * (rows + cols) + 8, 4), np.int64))
        # the public wrapper adds the outer walls (Maze forces them)
        east.reshape(rows, cols)[:, -1] = 1
        south.reshape(rows, cols)[-1, :] = 1
    else:
        east, south = np.ones(n, np.uint8), np.ones(n, np.uint8)
        kernel(rows, cols, st, east, south)
    return east, south, int(st[0])


SHAPES = [(1, 1), (1, 6), (6, 1), (2, 2), (5, 9), (9, 5), (16, 16), (23, 40)]


@pytest.mark.parametrize("rows,cols", SHAPES)
@pytest.mark.parametrize("seed", [0, 1, 12345, 2**63 - 2])
def test_sidewinder_and_binary_tree_draw_like_the_textbook(rows, cols, seed):
    for kernel, ref in ((_tree_kernels._sidewinder, sidewinder_ref),
                        (_tree_kernels._binary_tree, binary_tree_ref)):
        e, s, state = run_kernel(kernel, rows, cols, seed)
        re, rs, rstate = ref(rows, cols, seed)
        assert e.tolist() == re.tolist() and s.tolist() == rs.tolist(), kernel
        assert state == rstate


@pytest.mark.parametrize("rows,cols", SHAPES)
@pytest.mark.parametrize("seed", [0, 7, 2**62 + 3])
def test_division_draws_like_the_textbook(rows, cols, seed):
    e, s, state = run_kernel(_tree_kernels._division, rows, cols, seed, division=True)
    re, rs, rstate = division_ref(rows, cols, seed)
    assert e.tolist() == re.tolist() and s.tolist() == rs.tolist()
    assert state == rstate
