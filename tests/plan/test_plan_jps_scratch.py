"""Jump point search with scratch kept between queries (robomaze._search._jps_scratch),
against scipy's Dijkstra on the same 8-connected graph (no corner cutting)."""

import numpy as np
import pytest
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra

from robomaze import _search as core
from robomaze._search import _jps_scratch as scratch

SQRT2 = 2 ** 0.5


def csgraph_of(free):
    """The 8-connected grid graph (diagonals only with both side cells free), built apart."""
    rows, cols = free.shape
    idx = np.arange(rows * cols).reshape(rows, cols)
    src, dst, w = [], [], []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        r0, r1 = max(0, -dr), rows - max(0, dr)
        c0, c1 = max(0, -dc), cols - max(0, dc)
        a = free[r0:r1, c0:c1] & free[r0 + dr:r1 + dr, c0 + dc:c1 + dc]
        if dr and dc:
            a &= free[r0 + dr:r1 + dr, c0:c1] & free[r0:r1, c0 + dc:c1 + dc]
        u = idx[r0:r1, c0:c1][a]
        v = idx[r0 + dr:r1 + dr, c0 + dc:c1 + dc][a]
        src += [u, v]
        dst += [v, u]
        w += [np.full(u.size * 2, SQRT2 if dr and dc else 1.0)]
    n = rows * cols
    return coo_matrix((np.concatenate(w), (np.concatenate(src), np.concatenate(dst))),
                      shape=(n, n)).tocsr()


def path_length(cells, cols):
    r, c = np.divmod(np.asarray(cells), cols)
    d = np.abs(np.diff(r)) + np.abs(np.diff(c))
    return float(np.sum(np.where(d == 2, SQRT2, 1.0)))


def grids(seed, n=3, size=41):
    rng = np.random.default_rng(seed)
    return [rng.random((size, size)) >= p for p in (0.1, 0.3, 0.4)][:n]


def test_reused_scratch_many_queries_many_grids_match_scipy():
    scratch.free_scratch()
    rng = np.random.default_rng(7)
    checked = unreachable = 0
    for free in grids(1) + grids(2):                  # same size: one kept set for all
        cols = free.shape[1]
        starts = rng.choice(np.flatnonzero(free.ravel()), 6)
        goals = rng.choice(np.flatnonzero(free.ravel()), 6)
        full = dijkstra(csgraph_of(free), indices=starts)
        for i, (s, g) in enumerate(zip(starts, goals)):
            cells, _ = core.jump_point_path(free, int(s), int(g))
            if np.isinf(full[i, g]):
                assert cells.size == 0
                unreachable += 1
                continue
            assert cells[0] == s and cells[-1] == g
            assert path_length(cells, cols) == pytest.approx(full[i, g], abs=1e-9)
            checked += 1
    assert checked >= 20 and unreachable >= 1
    assert scratch._KEPT and scratch._KEPT[0].n == 43 * 43


def test_marks_cleared_when_bases_run_out():
    free = grids(3, n=1)[0]
    cols = free.shape[1]
    core.jump_point_path(free, 0, 1)                  # a kept set of this size
    s = scratch._KEPT[0]
    s.base = scratch._MARK_LIMIT - 3                   # the next query wraps around
    starts = np.flatnonzero(free.ravel())
    full = dijkstra(csgraph_of(free), indices=starts[:3])
    for i in range(3):
        g = int(starts[-1 - i])
        cells, _ = core.jump_point_path(free, int(starts[i]), g)
        if np.isinf(full[i, g]):
            assert cells.size == 0
        else:
            assert path_length(cells, cols) == pytest.approx(full[i, g], abs=1e-9)
    assert scratch._KEPT[0].base < 10


def test_budget_and_free(monkeypatch):
    free = np.ones((20, 20), bool)
    core.jump_point_path(free, 0, 399)
    assert scratch.free_scratch() > 0 and scratch.free_scratch() == 0
    monkeypatch.setenv("ROBOMAZE_JPS_SCRATCH_MB", "0")
    cells, _ = core.jump_point_path(free, 0, 399)
    assert path_length(cells, 20) == pytest.approx(19 * SQRT2)
    assert scratch._KEPT == []                         # nothing kept at a zero budget
