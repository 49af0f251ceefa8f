"""The unit-cost Dijkstra kernel (``_search._dijkstra``) pops in the engine's order.

``shortest_path(hmode=0)`` without costs runs it instead of the general
best-first loop; both must return the same cells and the same expansion
count (the same order of settling, the same parents) on every grid, and
lengths equal to scipy's.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

from robomaze import widen
from robomaze import _search as core
from robomaze._search._dijkstra import dijkstra_grid
from robomaze.generate import generate

from test_core_batch import graph8


def engine(free, s, t, conn8):
    """The general best-first loop, as shortest_path ran Dijkstra before."""
    fp, rows, cols = core._free_padded(free)
    ps, pg = core._to_padded([s, t], rows, cols)
    reached, expanded, _, parent = core._search(fp, cols, conn8, None, 0, [ps], pg)
    if reached < 0:
        return np.empty(0, np.int64), expanded
    return core._chain(parent, reached, cols), expanded


def same(free, s, t, conn8):
    a = engine(free, s, t, conn8)
    b = core.shortest_path(free, s, t, conn8=conn8, hmode=0)
    assert np.array_equal(a[0], b[0]) and a[1] == b[1]
    return b


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 30), st.integers(1, 30), st.floats(0.0, 0.6), st.integers(0, 10 ** 6),
       st.booleans())
def test_random_grids_same_cells_and_expansions(rows, cols, p, seed, conn8):
    rng = np.random.default_rng(seed)
    free = rng.random((rows, cols)) >= p
    for s, t in rng.integers(0, free.size, (6, 2)):
        same(free, int(s), int(t), conn8)


@pytest.mark.parametrize("corridor", [1, 2, 4])
@pytest.mark.parametrize("conn8", [False, True])
def test_mazes_same_cells_and_lengths_as_scipy(corridor, conn8):
    free = widen(generate("kruskal", 9, 11, rng=corridor), corridor=corridor, wall=1).free
    rng = np.random.default_rng(corridor)
    g = graph8(free) if conn8 else None
    for s, t in rng.choice(np.flatnonzero(free), (8, 2)):
        cells, _ = same(free, int(s), int(t), conn8)
        if conn8:
            r, c = np.divmod(cells, free.shape[1])
            diag = (np.diff(r) != 0) & (np.diff(c) != 0)
            length = (~diag).sum() + np.sqrt(2) * diag.sum()
            assert length == pytest.approx(csgraph.dijkstra(g, indices=int(s))[t], rel=1e-12)


def test_heap_growth_keeps_the_order():
    # an open grid's frontier outgrows a heap of 8 entries many times over
    free = np.ones((40, 40), bool)
    fp = np.pad(free, 1).astype(np.uint8).ravel()
    fp.setflags(write=False)
    ps, pg = core._to_padded([0, free.size - 1], 40, 40)
    n = fp.shape[0]
    g, parent, mark = np.empty(n), np.empty(n, np.int32), np.zeros(n, np.uint8)
    reached, expanded = dijkstra_grid(fp, 40, True, int(ps), int(pg), g, parent, mark,
                                      np.empty(8), np.empty(8, np.int32))
    cells = core._chain(parent, reached, 40)
    ref, ref_expanded = engine(free, 0, free.size - 1, True)
    assert np.array_equal(cells, ref) and expanded == ref_expanded
    assert g[pg] == pytest.approx(39 * np.sqrt(2), rel=1e-12)


def test_unreachable_and_start_is_goal():
    free = np.ones((5, 5), bool)
    free[:, 2] = False
    cells, expanded = same(free, 0, 4, True)
    assert cells.size == 0 and expanded == 10
    cells, expanded = same(free, 6, 6, False)
    assert cells.tolist() == [6] and expanded == 1


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 25), st.integers(1, 25), st.floats(0.0, 0.6), st.integers(0, 10 ** 6))
def test_landmark_fields_equal_to_the_general_loop(rows, cols, p, seed):
    rng = np.random.default_rng(seed)
    free = rng.random((rows, cols)) >= p
    fp = core._padded(free, rows, cols)
    for src in rng.choice(np.flatnonzero(fp), 2) if fp.any() else []:
        _, _, ref, _ = core._search(fp, cols, True, None, 0, [int(src)], -1, want_parent=False,
                                    want_g=True)
        got = core._unit_field(fp, cols, int(src))
        # the bucket ring sums the same moves in another order: equal up to rounding
        assert np.array_equal(np.isinf(got), np.isinf(ref))
        assert np.allclose(got[np.isfinite(ref)], ref[np.isfinite(ref)], rtol=1e-12, atol=0)
    want = csgraph.dijkstra(graph8(free), indices=int(np.flatnonzero(free)[0])) \
        if free.any() else None
    if want is not None:
        s = int(np.flatnonzero(free)[0])
        got = core._unit_field(fp, cols, int(core._to_padded([s], rows, cols)[0]))
        got = got.reshape(rows + 2, cols + 2)[1:-1, 1:-1].ravel()
        assert np.allclose(got, want, rtol=1e-12) and np.array_equal(np.isinf(got), np.isinf(want))


@pytest.mark.parametrize("dtype", [bool, np.uint8, np.int64, np.float64])
@pytest.mark.parametrize("shape", [(1, 1), (3, 5), (2, 40, 31)])
def test_the_padded_mask_is_numpys_pad(dtype, shape):
    # the engine's pad is written out (np.pad's set-up dominated small
    # grids' searches); numpy's own pad of the same cast is the reference
    rows, cols = shape[-2:]
    mask = (np.random.default_rng(5).random(shape) * 3).astype(dtype)
    got = core._padded(mask, rows, cols)
    want = np.pad(mask.reshape(-1, rows, cols).astype(np.uint8), ((0, 0), (1, 1), (1, 1))).ravel()
    assert got.dtype == np.uint8 and np.array_equal(got, want) and not got.flags.writeable
