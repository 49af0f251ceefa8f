"""The octile field's row sweeps and repair (robomaze._search._octile_sweep, _octile_repair).

``distance_field(free, sources, conn8=True)`` sweeps rows on big grids
where a window about the first source says it pays (open grids, rooms,
sparse random obstacles) and repairs what the sweeps leave wrong with a
bucket queue. Every field is compared cell for cell with
``scipy.sparse.csgraph.dijkstra`` on the 8-connected graph without corner
cutting (an independent reference; inf exactly where scipy has inf), and,
since the sweeps claim the bucket ring's values bit for bit, with the ring
(``_octile.octile_field``) by ``np.array_equal``: after 0, 1, 2 or enough
rounds of sweeps (0 rounds: the repair alone is a whole Dijkstra).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

from robomaze import _search as core
from robomaze._search import _octile_probe, _padded, _to_padded
from robomaze._search._octile import octile_field
from robomaze._search._octile_repair import repair_field
from robomaze._search._octile_sweep import sweep_field, sweep_pays

from test_core_batch import graph8
from test_octile_strategies import kinds, maze, rooms, spiral


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


def padded(free, sources):
    rows, cols = free.shape
    fp = _padded(free, rows, cols)
    ps = _to_padded(np.asarray(sources, np.int64), rows, cols).astype(np.int64)
    return fp, cols, ps[fp[ps] != 0]


def inner(g, free):
    rows, cols = free.shape
    return g.reshape(rows + 2, cols + 2)[1:-1, 1:-1]


@pytest.fixture
def big_everywhere(monkeypatch):
    monkeypatch.setattr(_octile_probe, "BIG", 0)


@pytest.mark.parametrize("shape", [(1, 1), (1, 9), (9, 1), (2, 2), (17, 5), (30, 41), (64, 64)])
@pytest.mark.parametrize("nsrc", [1, 2, 5])
def test_open_grids_equal_scipy_and_the_ring_bit_for_bit(shape, nsrc, big_everywhere):
    rng = np.random.default_rng(shape[0] * 100 + shape[1] + nsrc)
    free = np.ones(shape, bool)
    sources = rng.choice(free.size, nsrc).tolist()
    got = core.distance_field(free, sources, conn8=True)
    same(got, scipy_field(free, sources))
    ring = inner(octile_field(*padded(free, sources)), free)
    assert np.array_equal(got, ring)              # the same floats, not only close ones
    # one round settles an open grid: the sweeps never needed the ring
    g, work = sweep_field(*padded(free, sources), rounds=1)
    assert work == 0 and np.array_equal(inner(g, free), ring)


def test_one_source_on_an_open_grid_is_the_closed_form():
    n = 120
    free = np.ones((n, n), bool)
    g = inner(sweep_field(*padded(free, [0]))[0], free)
    r, c = np.indices((n, n))
    lo, hi = np.minimum(r, c), np.maximum(r, c)
    assert np.allclose(g, hi - lo + lo * 2 ** 0.5, rtol=1e-12, atol=0)


@pytest.mark.parametrize("kind", sorted(kinds()))
def test_every_kind_settled_by_enough_rounds_is_the_ring_and_scipy(kind):
    # with obstacles a round fixes one turn of every path; given rounds enough
    # the sweeps reach the fixed point, which is the ring's field exactly
    free = kinds()[kind]
    cells = np.flatnonzero(free)
    sources = [int(cells[len(cells) // 2]), int(cells[0])]
    ring = inner(octile_field(*padded(free, sources)), free)
    for rounds in (0, 1, 2, 10 ** 4):
        g, work = sweep_field(*padded(free, sources), rounds=rounds)
        got = inner(g, free)
        same(got, scipy_field(free, sources))
        assert np.array_equal(got, ring), rounds


def test_a_maze_needs_the_repair_and_its_limit_hands_over_to_the_ring(big_everywhere):
    free = maze(3)
    src = [int(np.flatnonzero(free)[0])]
    g, work = sweep_field(*padded(free, src), rounds=1)
    assert work > free.sum() // 2                 # most of a maze is wrong after a round
    same(inner(g, free), scipy_field(free, src))
    assert sweep_field(*padded(free, src), rounds=1, limit=3) == (None, -1)
    assert not sweep_pays(free, np.array(src))
    same(core.distance_field(free, src, conn8=True), scipy_field(free, src))


def test_the_repair_from_a_field_above_the_ring_by_hand():
    # 1x4 corridor from cell 0; cells 2 and 3 too high: the repair lowers them
    free = np.ones((1, 4), bool)
    fp, cols, ps = padded(free, [0])
    g = np.full(fp.shape[0], np.inf)
    g[7:11] = [0.0, 1.0, 7.0, 9.0]
    assert repair_field(fp, cols, g, 10) >= 2
    assert g[7:11].tolist() == [0.0, 1.0, 2.0, 3.0]
    g[7:11] = [0.0, 1.0, 7.0, 9.0]
    assert repair_field(fp, cols, g, 0) == -1        # one seed is over a limit of none


def test_unreachable_cells_blocked_and_no_sources(big_everywhere):
    free = np.ones((6, 7), bool)
    assert np.isinf(core.distance_field(free, [], conn8=True)).all()
    # a walled-off pocket keeps inf; the sweeps are not taken (a cell is blocked)
    walled = free.copy()
    walled[:, 3] = False
    got = core.distance_field(walled, [0], conn8=True)
    same(got, scipy_field(walled, [0]))
    assert np.isinf(got[:, 3:]).all()
    g, work = sweep_field(*padded(walled, [0]), rounds=4)
    assert work == 0 and np.array_equal(inner(g, walled), got)
    # the same source twice, and a field over more sources, on the open grid
    same(core.distance_field(free, [8, 8], conn8=True), scipy_field(free, [8]))
    same(core.distance_field(free, [0, 41, 20], conn8=True), scipy_field(free, [0, 41, 20]))


def test_spirals_and_rooms_settle_and_equal_the_ring():
    for free in (spiral(31), rooms(33)):
        src = [int(np.flatnonzero(free)[len(np.flatnonzero(free)) // 3])]
        g, work = sweep_field(*padded(free, src), rounds=10 ** 4)
        assert work == 0
        same(inner(g, free), scipy_field(free, src))
        assert np.array_equal(inner(g, free), inner(octile_field(*padded(free, src)), free))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 16), st.integers(1, 16), st.floats(0.0, 0.6), st.integers(0, 10 ** 6),
       st.integers(0, 4))
def test_random_grids_sweeps_equal_the_ring_and_scipy(rows, cols, p, seed, nsrc):
    rng = np.random.default_rng(seed)
    free = rng.random((rows, cols)) >= p
    sources = rng.choice(rows * cols, nsrc).tolist() if nsrc else []
    want = scipy_field(free, sources)
    ring = inner(octile_field(*padded(free, sources)), free)
    for rounds in (0, 1, 10 ** 4):
        got = inner(sweep_field(*padded(free, sources), rounds=rounds)[0], free)
        same(got, want)
        assert np.array_equal(got, ring)
    # and the public call on the open version of the grid takes the sweeps
    old = _octile_probe.BIG
    try:
        _octile_probe.BIG = 0
        open_ = np.ones_like(free)
        same(core.distance_field(open_, sources, conn8=True), scipy_field(open_, sources))
    finally:
        _octile_probe.BIG = old


def test_the_chooser_sweeps_rooms_open_and_sparse_grids_not_mazes_or_dense_ones(monkeypatch):

    k = kinds()
    for name in ("open", "rooms"):
        free = k[name]
        assert sweep_pays(free, np.array([int(np.flatnonzero(free)[0])]))
    rng = np.random.default_rng(7)
    assert sweep_pays(rng.random((256, 256)) >= 0.1, np.array([0]))
    bigger = {"maze-c3": k["maze-c3"], "maze-c9": k["maze-c9"],
              "random30": rng.random((256, 256)) >= 0.3}
    for name, free in bigger.items():
        assert not sweep_pays(free, np.array([int(np.flatnonzero(free)[0])])), name
    # a window smaller than the grid: only the part about the first source is tried
    monkeypatch.setattr(_octile_probe, "BIG", 0)
    import robomaze._search._octile_sweep as sw
    monkeypatch.setattr(sw, "WINDOW", 16)
    free = rooms(65)
    src = [int(np.flatnonzero(free)[0]), int(np.flatnonzero(free)[-1])]
    assert sweep_pays(free, np.array(src))
    same(core.distance_field(free, src, conn8=True), scipy_field(free, src))


@pytest.mark.parametrize("kind", sorted(kinds()))
def test_every_strategy_of_the_public_call_gives_the_rings_floats(kind, big_everywhere):
    # whichever strategy the chooser takes (probe, thin, sweeps, ring), the
    # values are the whole-grid ring's bit for bit, not only close
    free = kinds()[kind]
    cells = np.flatnonzero(free)
    for sources in ([int(cells[len(cells) // 2])], [int(cells[0]), int(cells[-1])]):
        got = core.distance_field(free, sources, conn8=True)
        assert np.array_equal(got, inner(octile_field(*padded(free, sources)), free))
