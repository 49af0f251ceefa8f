"""The row-sweep 4-connected field (robomaze._search._sweep) against scipy csgraph and a plain BFS."""

from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robomaze import _search as core
from robomaze._search._sweep import (SWEEP_OPEN_SHARE, dirty_words, open_share,
                                     small_component_field, sweep_field)
from robomaze.generate import generate
from robomaze.grid import widen

from test_core_bfs_branchless import scipy_field


def plain_bfs(free: np.ndarray, src: int) -> np.ndarray:
    """The textbook FIFO BFS, in Python: -1 blocked or unreachable."""
    rows, cols = free.shape
    d = np.full(free.shape, -1, np.int64)
    r0, c0 = divmod(src, cols)
    if not free[r0, c0]:
        return d
    d[r0, c0] = 0
    q = deque([(r0, c0)])
    while q:
        r, c = q.popleft()
        for rr, cc in ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)):
            if 0 <= rr < rows and 0 <= cc < cols and free[rr, cc] and d[rr, cc] < 0:
                d[rr, cc] = d[r, c] + 1
                q.append((rr, cc))
    return d


def sweep(free: np.ndarray, src: int, *, occupied: bool = False):
    rows, cols = free.shape
    mask = (~free if occupied else free).view(np.uint8).ravel()
    dist = np.empty(rows * cols, np.int32)
    nfree, reached, sweeps = sweep_field(mask, rows, cols, src, occupied, dist,
                                         dirty_words(rows, cols))
    return dist.reshape(rows, cols), nfree, reached, sweeps


def spiral(n: int) -> np.ndarray:
    """Free mask of concentric square walls two cells apart, one gap each, alternating sides."""
    occ = np.zeros((n, n), bool)
    for i, lo in enumerate(range(1, n // 2, 2)):
        hi = n - 1 - lo
        if hi - lo < 2:
            break
        occ[lo, lo:hi + 1] = occ[hi, lo:hi + 1] = True
        occ[lo:hi + 1, lo] = occ[lo:hi + 1, hi] = True
        occ[lo if i % 2 else hi, (lo + hi) // 2] = False
    return ~occ


def rooms(n: int, size: int = 9) -> np.ndarray:
    occ = np.zeros((n, n), bool)
    occ[::size, :] = True
    occ[:, ::size] = True
    occ[::size, size // 2::size] = False
    occ[size // 2::size, ::size] = False
    return ~occ


GRIDS = {
    "open": lambda: np.ones((37, 53), bool),
    "random10": lambda: np.random.default_rng(1).random((60, 71)) >= 0.1,
    "random30": lambda: np.random.default_rng(2).random((60, 71)) >= 0.3,
    "random45": lambda: np.random.default_rng(3).random((60, 71)) >= 0.45,
    "spiral": lambda: spiral(61),
    "rooms": lambda: rooms(82),
    "maze-c1": lambda: ~widen(generate("backtracker", 15, 17, rng=4), corridor=1).occupied,
    "braid-c3": lambda: ~widen(generate("backtracker", 9, 11, rng=5, braid=0.5),
                               corridor=3).occupied,
    "one row": lambda: np.random.default_rng(6).random((1, 200)) >= 0.05,
    "one column": lambda: np.random.default_rng(7).random((150, 1)) >= 0.05,
    # wider than 64 chunks of 32 cells: two dirty words a row
    "wide": lambda: np.random.default_rng(8).random((7, 2300)) >= 0.2,
}


@pytest.mark.parametrize("kind", sorted(GRIDS))
def test_sweep_field_is_scipys_bfs(kind):
    free = GRIDS[kind]()
    rng = np.random.default_rng(len(kind))
    cells = np.flatnonzero(free)
    for src in rng.choice(cells, 4):
        goal = divmod(int(src), free.shape[1])
        ref = scipy_field(free, goal)
        d, nfree, reached, _ = sweep(free, int(src))
        assert d.dtype == np.int32
        np.testing.assert_array_equal(d, ref)
        assert nfree == free.sum()
        assert reached == (ref >= 0).sum()


def test_occupied_mask_and_blocked_source():
    free = GRIDS["random30"]()
    src = int(np.flatnonzero(free)[17])
    a = sweep(free, src)[0]
    b = sweep(free, src, occupied=True)[0]
    np.testing.assert_array_equal(a, b)
    blocked = int(np.flatnonzero(~free)[0])
    d, nfree, reached, sweeps = sweep(free, blocked)
    assert (d == -1).all() and reached == 0 and sweeps == 0 and nfree == free.sum()


def test_open_grid_is_manhattan_in_two_or_three_sweeps():
    rows, cols = 41, 130
    d, _, reached, sweeps = sweep(np.ones((rows, cols), bool), 20 * cols + 64)
    r, c = np.mgrid[:rows, :cols]
    np.testing.assert_array_equal(d, np.abs(r - 20) + np.abs(c - 64))
    assert reached == rows * cols
    assert sweeps <= 3                   # down, up (and an empty check), no more


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 40), st.integers(1, 90), st.floats(0.0, 0.6), st.integers(0, 2**31 - 1))
def test_sweep_field_matches_the_textbook_bfs(rows, cols, density, seed):
    rng = np.random.default_rng(seed)
    free = rng.random((rows, cols)) >= density
    src = int(rng.integers(rows * cols))
    np.testing.assert_array_equal(sweep(free, src)[0], plain_bfs(free, src))


def test_open_share_separates_open_grids_from_corridors():
    def share(free):
        return open_share((~free).view(np.uint8).ravel(), *free.shape, True)

    assert share(np.ones((100, 100), bool)) > SWEEP_OPEN_SHARE
    assert share(rooms(200, 40)) > SWEEP_OPEN_SHARE
    assert share(spiral(201)) < 0.05
    assert share(np.random.default_rng(1).random((200, 200)) >= 0.3) < 0.4
    assert share(np.zeros((80, 80), bool)) == 0.0


@pytest.mark.parametrize("kind", ["open", "rooms", "random30", "spiral"])
def test_bfs_field_takes_the_sweeps_on_open_grids_only_and_agrees(kind):
    free = {"open": lambda: np.ones((90, 120), bool), "rooms": lambda: rooms(130, 40),
            "random30": lambda: np.random.default_rng(2).random((90, 120)) >= 0.3,
            "spiral": lambda: spiral(101)}[kind]()
    rows, cols = free.shape
    src = int(np.flatnonzero(free)[len(np.flatnonzero(free)) // 2])
    occ = (~free).view(np.uint8).ravel()
    dist, expanded = core.bfs_field(occ, rows, cols, src, False, occupied=True)
    ref = scipy_field(free, divmod(src, cols))
    np.testing.assert_array_equal(dist, ref)
    assert expanded == (ref >= 0).sum()
    # the sweeps return a plain array; the queue BFS a view into its padded labels
    assert dist.flags.c_contiguous == (kind in ("open", "rooms"))


def probe(free: np.ndarray, src: int, limit: int):
    rows, cols = free.shape
    cap = 1 << (2 * limit - 1).bit_length()
    dist = np.full(rows * cols, 7, np.int32)
    got = small_component_field((~free).view(np.uint8).ravel(), rows, cols, src, True, dist,
                                np.empty(cap, np.int64), np.empty(cap, np.int32),
                                np.empty(limit, np.int64))
    return got, dist.reshape(rows, cols)


@pytest.mark.parametrize("density", [0.3, 0.45, 0.55, 0.7])
def test_small_component_probe_is_scipys_bfs_or_gives_up_untouched(density):
    free = np.random.default_rng(int(density * 100)).random((70, 90)) >= density
    cells = np.flatnonzero(free)
    rng = np.random.default_rng(5)
    seen = {True: 0, False: 0}
    for src in rng.choice(cells, 12):
        ref = scipy_field(free, divmod(int(src), free.shape[1]))
        size = int((ref >= 0).sum())
        got, dist = probe(free, int(src), 64)
        if size <= 64:
            assert got == size
            np.testing.assert_array_equal(dist, ref)
        else:
            assert got == -1 and (dist == 7).all()       # nothing written
        seen[size <= 64] += 1
    blocked = int(np.flatnonzero(~free)[0])
    got, dist = probe(free, blocked, 64)
    assert got == 0 and (dist == -1).all()
    if density >= 0.55:
        assert seen[True] > 0
    if density <= 0.3:
        assert seen[False] > 0


def test_bfs_field_small_component_agrees():
    free = np.random.default_rng(3).random((300, 400)) >= 0.45
    rows, cols = free.shape
    occ = (~free).view(np.uint8).ravel()
    for src in np.flatnonzero(free)[::9000]:
        dist, expanded = core.bfs_field(occ, rows, cols, int(src), False, occupied=True)
        ref = scipy_field(free, divmod(int(src), cols))
        np.testing.assert_array_equal(dist, ref)
        assert expanded == (ref >= 0).sum()
