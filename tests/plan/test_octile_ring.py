"""The big grids' octile ring (robomaze._search._octile_ring) against the ring and scipy.

``signed_ring_field`` keeps the mask in the field's sign (-1 on blocked
cells while it runs), indexes with uint64 and prefetches; it claims the
bucket ring's floats (``_octile.octile_field``) bit for bit. Every field
here is compared with the ring by ``np.array_equal`` and with
``scipy.sparse.csgraph.dijkstra`` on the 8-connected graph without corner
cutting (an independent reference; inf exactly where scipy has inf).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robomaze import _search as core
from robomaze._search import _octile_probe, _octile_ring
from robomaze._search._octile import octile_field
from robomaze._search._octile_ring import signed_ring_field

from test_octile_strategies import kinds, maze
from test_octile_sweep import inner, padded, same, scipy_field


def ring(free, sources):
    return inner(octile_field(*padded(free, sources)), free)


@pytest.mark.parametrize("kind", sorted(kinds()))
def test_every_kind_is_the_rings_floats_and_scipys_field(kind):
    free = kinds()[kind]
    cells = np.flatnonzero(free)
    blocked = np.flatnonzero(~free.ravel())
    for sources in ([int(cells[len(cells) // 2])], [int(cells[0]), int(cells[-1])],
                    [int(cells[3]), int(cells[3])] + [int(b) for b in blocked[:2]]):
        got = signed_ring_field(free, sources)
        assert got.shape == free.shape and got.dtype == np.float64
        assert np.array_equal(got, ring(free, sources))      # bit for bit
        same(got, scipy_field(free, sources))
        assert not (got < 0).any()                            # the -1 sentinel never leaks
        assert np.isinf(got[~free]).all()


def test_no_live_source_leaves_every_cell_inf():
    free = maze(3)
    assert np.isinf(signed_ring_field(free, [])).all()
    assert np.isinf(signed_ring_field(free, [int(np.flatnonzero(~free)[0])])).all()


def test_buckets_past_the_queues_first_size_grow_and_keep_the_floats():
    # a thousand sources on an open grid: the first bucket alone is over the
    # queue's initial 1024 entries a row, so it grows mid-search
    rng = np.random.default_rng(11)
    free = rng.random((180, 170)) >= 0.05
    sources = rng.choice(free.size, 3000, replace=False).tolist()
    got = signed_ring_field(free, sources)
    assert np.array_equal(got, ring(free, sources))
    same(got, scipy_field(free, sources))


@pytest.mark.parametrize("shape", [(1, 1), (1, 7), (7, 1), (2, 2), (3, 40)])
def test_thin_and_tiny_shapes_touch_no_cell_outside_the_border(shape):
    free = np.ones(shape, bool)
    got = signed_ring_field(free, [free.size - 1])
    assert np.array_equal(got, ring(free, [free.size - 1]))
    same(got, scipy_field(free, [free.size - 1]))


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 18), st.integers(1, 18), st.floats(0.0, 0.7), st.integers(0, 10 ** 6),
       st.integers(0, 5))
def test_random_grids_equal_the_ring_and_scipy(rows, cols, p, seed, nsrc):
    rng = np.random.default_rng(seed)
    free = rng.random((rows, cols)) >= p
    sources = rng.choice(rows * cols, nsrc).tolist() if nsrc else []
    got = signed_ring_field(free, sources)
    assert np.array_equal(got, ring(free, sources))
    same(got, scipy_field(free, sources))


def test_the_public_call_takes_it_on_big_grids_the_strategies_decline(monkeypatch):
    calls = []
    real = _octile_ring.signed_ring_field

    def spy(free, sources):
        calls.append(len(sources))
        return real(free, sources)

    monkeypatch.setattr(_octile_ring, "signed_ring_field", spy)
    free = maze(3)
    src = [int(np.flatnonzero(free)[0])]
    assert np.array_equal(core.distance_field(free, src, conn8=True), ring(free, src))
    assert calls == []                         # below BIG: the plain ring, no new kernel
    monkeypatch.setattr(_octile_probe, "BIG", 0)
    monkeypatch.setattr(_octile_probe, "BUDGET", 64)     # the maze is one component of more
    got = core.distance_field(free, src, conn8=True)
    assert calls == [1]                        # a maze: no probe, no thin path, no sweeps
    assert np.array_equal(got, ring(free, src))
    same(got, scipy_field(free, src))
