"""The bucket-ring octile field (robomaze._search._octile) against scipy's Dijkstra.

Unit octile moves (1 and sqrt 2, no corner cutting) on random grids, widened
and braided mazes, many sources and a grid large enough to grow the ring's
buckets; inf exactly where scipy has inf.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

from robomaze import _search as core
from robomaze import widen
from robomaze.generate import generate

from test_core_batch import graph8


def scipy_field(free, sources):
    d = csgraph.dijkstra(graph8(free), indices=np.asarray(sources), min_only=True)
    return d.reshape(free.shape)


def check(free, sources):
    got = core.distance_field(free, sources, conn8=True)
    want = scipy_field(free, [s for s in sources if free.ravel()[s]]) \
        if any(free.ravel()[s] for s in sources) else np.full(free.shape, np.inf)
    assert np.array_equal(np.isinf(got), np.isinf(want))
    fin = np.isfinite(want)
    assert np.allclose(got[fin], want[fin], rtol=1e-12, atol=0)
    return got


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 30), st.integers(1, 30), st.floats(0.0, 0.6), st.integers(0, 10 ** 6),
       st.integers(1, 4))
def test_random_grids_equal_scipy(rows, cols, p, seed, nsrc):
    rng = np.random.default_rng(seed)
    free = rng.random((rows, cols)) >= p
    check(free, rng.choice(rows * cols, nsrc).tolist())


@pytest.mark.parametrize("corridor,braid", [(1, 0.0), (3, 0.0), (2, 0.5), (5, 1.0)])
def test_mazes_equal_scipy(corridor, braid):
    g = widen(generate("backtracker", 12, 10, rng=4, braid=braid), corridor=corridor, wall=1)
    free = ~g.occupied
    got = check(free, [int(np.flatnonzero(free)[0])])
    assert np.isfinite(got[free]).all()          # a maze is connected


def test_open_grid_grows_the_buckets_and_is_exact_octile():
    # 300^2 open: the ring's first allocation (1024 a bucket) is outgrown;
    # on an open grid the octile distance is closed form
    n = 300
    free = np.ones((n, n), bool)
    got = check(free, [0])
    r, c = np.indices((n, n))
    lo, hi = np.minimum(r, c), np.maximum(r, c)
    assert np.allclose(got, hi - lo + lo * 2 ** 0.5, rtol=1e-12)


def test_blocked_sources_and_an_all_blocked_grid():
    free = np.ones((3, 4), bool)
    free[0, 0] = False
    got = check(free, [0, 11])                    # source 0 is blocked: only 11 counts
    assert got[2, 3] == 0.0 and np.isinf(got[0, 0])
    assert np.isinf(core.distance_field(np.zeros((2, 2), bool), [0])).all()
