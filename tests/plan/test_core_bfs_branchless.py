"""The branch-free 4-connected wave against the engine's wave and scipy csgraph."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

from robomaze import _search as core
from robomaze._search import _labels, _open_share, _wave4_branchless
from robomaze._search._engine import WAVE_GRID, _to_pad, wave


def scipy_field(free: np.ndarray, goal) -> np.ndarray:
    """Unit-weight 4-connected distances by scipy csgraph; -1 blocked or unreachable."""
    R, C = free.shape
    idx = np.arange(R * C).reshape(R, C)
    pairs = [(a[free[sa] & free[sb]], b[free[sa] & free[sb]])
             for a, b, sa, sb in ((idx[:, :-1], idx[:, 1:], np.s_[:, :-1], np.s_[:, 1:]),
                                  (idx[:-1], idx[1:], np.s_[:-1], np.s_[1:]))]
    src = np.concatenate([p[0] for p in pairs])
    dst = np.concatenate([p[1] for p in pairs])
    g = sp.csr_matrix((np.ones(src.size), (src, dst)), shape=(R * C, R * C))
    d = csgraph.shortest_path(g, directed=False, unweighted=True, indices=idx[goal])
    out = np.where(np.isfinite(d), d, -1).astype(np.int64).reshape(R, C)
    out[~free] = -1
    return out


def padded_labels(occ: np.ndarray):
    rows, cols = occ.shape
    return _labels(np.ascontiguousarray(occ).view(np.uint8).ravel(), rows, cols, True)


def engine_wave(occ: np.ndarray, goal):
    """The engine's own wave on the same padded labels (the reference kernel)."""
    rows, cols = occ.shape
    dist, nfree = padded_labels(occ)
    queue = np.empty(max(nfree, 1), np.int32)
    n = wave(WAVE_GRID, np.empty(0, np.uint8), np.empty((0, 4), np.int8), cols, False,
             np.array([_to_pad(goal[0] * cols + goal[1], cols)], np.int32), np.int64(-1), False,
             dist, queue, np.empty(0, np.int32))
    return dist, n


def branchless(occ: np.ndarray, goal):
    rows, cols = occ.shape
    dist, nfree = padded_labels(occ)
    n = _wave4_branchless(dist, cols, _to_pad(goal[0] * cols + goal[1], cols), nfree)
    return dist, n


@pytest.mark.parametrize("density", [0.0, 0.1, 0.3, 0.45, 0.6])
@pytest.mark.parametrize("shape", [(1, 1), (1, 17), (13, 1), (40, 57)])
def test_same_labels_as_the_engine_and_scipy(density, shape):
    rng = np.random.default_rng(int(density * 100) + shape[1])
    occ = rng.random(shape) < density
    occ.flat[0] = False
    goal = (0, 0)
    d1, n1 = branchless(occ, goal)
    d2, n2 = engine_wave(occ, goal)
    assert n1 == n2 and np.array_equal(d1, d2)
    field = core.bfs_field(occ.view(np.uint8).ravel(), *shape, 0, False, occupied=True)[0]
    assert np.array_equal(field, scipy_field(~occ, goal))


def test_blocked_source_labels_nothing():
    occ = np.array([[True, False], [False, False]])
    d, n = branchless(occ, (0, 0))
    assert n == 0 and (d[d != -1] == -2).all()


def test_dispatch_by_open_share():
    rng = np.random.default_rng(3)
    cluttered = rng.random((200, 200)) < 0.3
    open_ = np.zeros((200, 200), bool)
    assert _open_share(padded_labels(cluttered)[0], 200, 200) < 0.5
    assert _open_share(padded_labels(open_)[0], 200, 200) > 0.9
    for occ in (cluttered, open_):
        occ[0, 0] = False
        field = core.bfs_field(occ.view(np.uint8).ravel(), 200, 200, 0, False, occupied=True)[0]
        assert np.array_equal(field, scipy_field(~occ, (0, 0)))


@settings(max_examples=80, deadline=None)
@given(rows=st.integers(1, 30), cols=st.integers(1, 30), density=st.floats(0, 0.7),
       seed=st.integers(0, 2**16), pick=st.integers(0, 10**6))
def test_property_random_grids(rows, cols, density, seed, pick):
    occ = np.random.default_rng(seed).random((rows, cols)) < density
    free = np.argwhere(~occ)
    if len(free) == 0:
        return
    goal = tuple(int(v) for v in free[pick % len(free)])
    d1, n1 = branchless(occ, goal)
    d2, n2 = engine_wave(occ, goal)
    assert n1 == n2 and np.array_equal(d1, d2)
    assert n1 == int((scipy_field(~occ, goal) >= 0).sum())


@pytest.mark.parametrize("shape", [(1, 1), (5, 7), (64, 64)])
def test_open_share_of_a_small_grid_is_exact(shape):
    # up to 4096 cells every cell is read once: the share is the plain count, checked with numpy
    rng = np.random.default_rng(sum(shape))
    occ = rng.random(shape) < 0.25
    free = np.pad(~occ, 1)
    inner = free[1:-1, 1:-1] & free[:-2, 1:-1] & free[2:, 1:-1] & free[1:-1, :-2] & free[1:-1, 2:]
    want = inner.sum() / max(int((~occ).sum()), 1)
    assert _open_share(padded_labels(occ)[0], *shape) == pytest.approx(want, abs=1e-15)
