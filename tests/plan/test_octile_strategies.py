"""The octile field's big-grid strategies against scipy's Dijkstra, on every grid kind.

``distance_field(free, sources, conn8=True)`` takes, on grids of at least
``_octile_probe.BIG`` cells, a small-component probe and (one source, no
free 2x2 square) the 4-connected field; the whole-grid bucket ring takes the
rest. Here ``BIG`` is lowered to 0 so that small grids take every path, and
each field is compared with ``scipy.sparse.csgraph.dijkstra`` on the
8-connected graph without corner cutting (inf exactly where scipy has inf).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

from robomaze import _search as core
from robomaze import widen
from robomaze._search import _octile_probe
from robomaze._search._octile_probe import small_component_field
from robomaze._search._octile_thin import has_free_square, thin_field
from robomaze.generate import generate

from test_core_batch import graph8


def scipy_field(free, sources):
    live = [s for s in sources if free.ravel()[s]]
    if not live:
        return np.full(free.shape, np.inf)
    return csgraph.dijkstra(graph8(free), indices=live, min_only=True).reshape(free.shape)


def same(got, want):
    assert got.dtype == np.float64 and got.shape == want.shape
    assert np.array_equal(np.isinf(got), np.isinf(want))
    fin = np.isfinite(want)
    assert np.allclose(got[fin], want[fin], rtol=1e-12, atol=0)


def spiral(n):
    occ = np.zeros((n, n), bool)
    for i, lo in enumerate(range(1, n // 2, 2)):
        hi = n - 1 - lo
        if hi - lo < 2:
            break
        occ[lo, lo:hi + 1] = occ[hi, lo:hi + 1] = True
        occ[lo:hi + 1, lo] = occ[lo:hi + 1, hi] = True
        occ[(lo, hi)[i % 2 == 0], (lo + hi) // 2] = False
    return ~occ


def rooms(n, size=8):
    occ = np.zeros((n, n), bool)
    occ[::size, :] = occ[:, ::size] = True
    for i in range(0, n, size):
        occ[i, size // 2::size] = occ[size // 2::size, i] = False
    return ~occ


def maze(corridor, braid=0.0):
    return ~widen(generate("backtracker", 9, 8, rng=3, braid=braid), corridor=corridor,
                  wall=1).occupied


def kinds():
    rng = np.random.default_rng(7)
    out = {f"maze-c{k}": maze(k) for k in (1, 3, 9)}
    out["braid-c3"] = maze(3, 0.5)
    out.update({f"random{p}": rng.random((40, 50)) >= p / 100 for p in (10, 30, 45)})
    out.update(open=np.ones((30, 40), bool), spiral=spiral(41), rooms=rooms(41))
    return out


@pytest.fixture
def big_everywhere(monkeypatch):
    monkeypatch.setattr(_octile_probe, "BIG", 0)


@pytest.mark.parametrize("kind", sorted(kinds()))
@pytest.mark.parametrize("forced", [False, True])
def test_every_kind_equals_scipy(kind, forced, monkeypatch):
    if forced:
        monkeypatch.setattr(_octile_probe, "BIG", 0)
    free = kinds()[kind]
    cells = np.flatnonzero(free)
    for src in (cells[len(cells) // 2], cells[0]):
        same(core.distance_field(free, [int(src)], conn8=True), scipy_field(free, [int(src)]))


def test_each_strategy_is_taken_where_it_should_be(monkeypatch):
    monkeypatch.setattr(_octile_probe, "BUDGET", 64)
    k = kinds()
    # a corridor-1 maze and a spiral have no free 2x2 square: the 4-connected field
    assert not has_free_square(k["maze-c1"].view(np.uint8))
    assert not has_free_square(spiral(41).view(np.uint8))
    assert thin_field(k["spiral"], int(np.flatnonzero(k["spiral"])[0])) is not None
    assert thin_field(k["open"], 0) is None
    # the probe declines a component over its budget and takes a small one
    assert small_component_field(k["open"], np.array([0])) is None
    free = np.zeros((20, 30), bool)
    free[3:6, 4:9] = True
    got = small_component_field(free, np.array([3 * 30 + 4]))
    same(got, scipy_field(free, [3 * 30 + 4]))
    assert np.isfinite(got).sum() == 15


def test_probe_declines_a_small_component_in_a_huge_box(monkeypatch):
    # a staircase of 399 cells spans a 200x200 box (40,000 cells)
    n = 200
    free = np.zeros((n, n), bool)
    for i in range(n - 1):
        free[i, i] = free[i, i + 1] = True
    free[n - 1, n - 1] = True
    want = scipy_field(free, [0])
    monkeypatch.setattr(_octile_probe, "BUDGET", 1000)     # box <= 64 x budget: taken
    same(small_component_field(free, np.array([0])), want)
    monkeypatch.setattr(_octile_probe, "BUDGET", 400)      # box > 64 x budget: declined
    assert small_component_field(free, np.array([0])) is None
    monkeypatch.setattr(_octile_probe, "BUDGET", 300)      # the flood runs over its budget
    assert small_component_field(free, np.array([0])) is None
    monkeypatch.setattr(_octile_probe, "BIG", 0)           # and the ring takes over
    same(core.distance_field(free, [0], conn8=True), want)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 14), st.integers(2, 14), st.floats(0.0, 0.7), st.integers(0, 10 ** 6),
       st.integers(1, 3))
def test_random_grids_every_path_equals_scipy(rows, cols, p, seed, nsrc):
    rng = np.random.default_rng(seed)
    free = rng.random((rows, cols)) >= p
    sources = rng.choice(rows * cols, nsrc).tolist()
    want = scipy_field(free, sources)
    same(core.distance_field(free, sources, conn8=True), want)
    big, old = _octile_probe.BIG, _octile_probe.BUDGET
    try:
        _octile_probe.BIG = 0
        for budget in (4, 1 << 14):
            _octile_probe.BUDGET = budget
            same(core.distance_field(free, sources, conn8=True), want)
    finally:
        _octile_probe.BIG, _octile_probe.BUDGET = big, old


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 12), st.integers(2, 12), st.integers(0, 10 ** 6))
def test_thin_grids_equal_scipy_and_the_square_test_is_brute_force(rows, cols, seed):
    rng = np.random.default_rng(seed)
    free = rng.random((rows, cols)) < 0.7
    brute = bool((free[:-1, :-1] & free[1:, :-1] & free[:-1, 1:] & free[1:, 1:]).any())
    assert has_free_square(free.view(np.uint8)) == brute
    # break every free 2x2 square: a thin grid (no diagonal move is legal)
    for r in range(rows - 1):
        for c in range(cols - 1):
            if free[r:r + 2, c:c + 2].all():
                free[r + 1, c + 1] = False
    cells = np.flatnonzero(free)
    if cells.size == 0:
        return
    src = int(cells[rng.integers(cells.size)])
    got = thin_field(free, src)
    assert got is not None
    same(got, scipy_field(free, [src]))
