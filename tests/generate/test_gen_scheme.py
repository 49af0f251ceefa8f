"""scheme_dfs is the Scheme program's generator: maze for maze equal to a
plain-Python port of its code on the same random numbers, and measurably not
the backtracker."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from scipy.stats import mannwhitneyu

from robomaze.generate import GENERATORS, backtracker, generate, scheme_dfs
from robomaze.generate._common import kernel_seed
from splitmix_ref import SplitMix64

# izq, der, arr, aba as (drow, dcol): the program's direction list
IZQ, DER, ARR, ABA = (0, -1), (0, 1), (-1, 0), (1, 0)


def random_list(lst, random):
    """The program's random-list: walk the rotation from a random offset and
    cons each element onto the result (so the rotation comes out reversed)."""
    n = len(lst)
    k = random(n)
    acc = []
    for i in range(n):
        acc = [lst[(k + i) % n]] + acc
    return acc


def port(rows, cols, random):
    """The Scheme program's recursion, literally: a (2r+1)x(2c+1) matrix of
    walls, the entrance cell first, directions listed if in bounds."""
    sys.setrecursionlimit(max(1000, 4 * rows * cols))
    m = np.ones((2 * rows + 1, 2 * cols + 1), np.uint8)
    seen = set()

    def visit(r, c):
        seen.add((r, c))
        m[2 * r + 1, 2 * c + 1] = 0
        dirs = [d for d in (IZQ, DER, ARR, ABA)
                if 0 <= r + d[0] < rows and 0 <= c + d[1] < cols]
        if not dirs:
            return
        for dr, dc in random_list(dirs, random):
            if (r + dr, c + dc) not in seen:
                m[2 * r + 1 + dr, 2 * c + 1 + dc] = 0  # knock the wall down
                visit(r + dr, c + dc)

    visit(0, 0)
    return m


def test_random_list_reverses_the_rotation():
    # offset 1 of (a b c d): the rotation is (b c d a), random-list gives (a d c b)
    assert random_list(list("abcd"), lambda n: 1) == list("adcb")
    assert random_list(list("abc"), lambda n: 0) == list("cba")


@pytest.mark.parametrize("shape", [(1, 1), (1, 7), (7, 1), (2, 2), (5, 8), (12, 12), (9, 17)])
@pytest.mark.parametrize("seed", range(6))
def test_maze_for_maze_equal_to_the_port(shape, seed):
    stream = SplitMix64(kernel_seed(np.random.default_rng(seed)))
    want = port(*shape, stream.below)
    got = scheme_dfs(*shape, rng=seed)
    assert np.array_equal(got.to_matrix(), want)
    assert got.is_perfect()


def test_registered_and_deterministic():
    assert GENERATORS["scheme_dfs"] is scheme_dfs
    a = generate("scheme_dfs", 30, 40, rng=11)
    assert a == generate("scheme_dfs", 30, 40, rng=11)
    assert a != generate("scheme_dfs", 30, 40, rng=12)


def test_corner_to_corner_routes_differ_from_the_backtracker():
    # the measurement: 150 mazes of 20x20 each, fixed seeds (here
    # means 158.0 against 119.4, p = 4e-12)
    sch = np.array([generate("scheme_dfs", 20, 20, rng=s).solution_length()
                    for s in range(150)])
    bt = np.array([generate("backtracker", 20, 20, rng=10_000 + s).solution_length()
                   for s in range(150)])
    res = mannwhitneyu(sch, bt, alternative="two-sided")
    assert res.pvalue < 1e-8, (sch.mean(), bt.mean(), res.pvalue)
    assert sch.mean() > bt.mean() + 25
