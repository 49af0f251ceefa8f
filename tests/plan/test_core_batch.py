"""The MovingAI batch (``_search.path_lengths``) against scipy.sparse.csgraph.

Both of its routes are checked: tree distances when the free graph is a
forest (perfect mazes of corridor 1, with parts cut off) and the landmark
A* otherwise (random grids with loops, wide corridors, rooms, disconnected
parts). The reference graph is built here from the mask, independently of
the engine (8-connected, no corner cutting, sqrt(2) diagonals).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

from robomaze import widen
from robomaze import _search as core
from robomaze._search._tree import forest
from robomaze.generate import generate
from robomaze.io import read_movingai, read_scen

DATA = Path(__file__).resolve().parents[2] / "robomaze" / "data" / "samples" / "movingai"


def graph8(free: np.ndarray) -> sp.csr_matrix:
    rows, cols = free.shape
    idx = np.arange(rows * cols).reshape(rows, cols)
    a, b, w = [], [], []
    for dr, dc, length in ((0, 1, 1.0), (1, 0, 1.0), (1, 1, 2 ** 0.5), (1, -1, 2 ** 0.5)):
        src = free[:rows - dr, max(0, -dc):cols - max(0, dc)]
        dst = free[dr:, max(0, dc):cols + min(0, dc) or None]
        ok = src & dst
        if dr and dc:     # no corner cutting: both cells beside the diagonal free
            ok &= free[:rows - 1, max(0, dc):cols + min(0, dc) or None]
            ok &= free[1:, max(0, -dc):cols - max(0, dc)]
        i = idx[:rows - dr, max(0, -dc):cols - max(0, dc)][ok]
        a.append(i)
        b.append(i + dr * cols + dc)
        w.append(np.full(i.size, length))
    a, b, w = (np.concatenate(x) for x in (a, b, w))
    n = rows * cols
    return sp.csr_matrix((np.r_[w, w], (np.r_[a, b], np.r_[b, a])), shape=(n, n))


def reference(free, starts, goals):
    d = csgraph.dijkstra(graph8(free), indices=np.unique(starts))
    row = {s: k for k, s in enumerate(np.unique(starts))}
    out = np.array([d[row[s], t] for s, t in zip(starts, goals)])
    blocked = ~free.ravel()[starts] | ~free.ravel()[goals]
    out[blocked | np.isinf(out)] = np.nan
    return out


def check(free, rng, npairs=80):
    cells = np.arange(free.size)
    starts = rng.choice(cells, npairs)
    goals = rng.choice(cells, npairs)
    got = core.path_lengths(free, starts, goals, landmarks=2)
    want = reference(free, starts, goals)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    ok = ~np.isnan(want)
    assert np.allclose(got[ok], want[ok], rtol=1e-12, atol=0)
    return got


def maze_grid(rows, cols, seed, corridor, gen="backtracker"):
    return widen(generate(gen, rows, cols, rng=seed), corridor=corridor, wall=1).free


def is_forest(free):
    fp = np.pad(free, 1).astype(np.uint8).ravel()
    return bool(forest(fp, free.shape[1], 32)[0])


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 9), st.integers(2, 9), st.integers(0, 10 ** 6),
       st.sampled_from(["backtracker", "kruskal", "prim", "wilson"]), st.integers(0, 6))
def test_forests_perfect_mazes_with_parts_cut_off(rows, cols, seed, gen, cuts):
    free = maze_grid(rows, cols, seed, 1, gen)
    rng = np.random.default_rng(seed)
    # blocking free cells keeps a forest (fewer trees or more of them): disconnected parts
    f = np.flatnonzero(free)
    free.ravel()[rng.choice(f, min(cuts, f.size - 1), replace=False)] = False
    assert is_forest(free)
    got = check(free, rng)
    assert np.all(got[~np.isnan(got)] == np.round(got[~np.isnan(got)]))   # whole moves


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 30), st.integers(3, 30), st.floats(0.0, 0.6), st.integers(0, 10 ** 6))
def test_random_grids_with_loops(rows, cols, p, seed):
    rng = np.random.default_rng(seed)
    free = rng.random((rows, cols)) >= p
    check(free, rng)


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 7), st.integers(2, 7), st.integers(2, 4), st.integers(0, 10 ** 6),
       st.booleans())
def test_wide_corridors_braids_and_split_maps(rows, cols, corridor, seed, split):
    rng = np.random.default_rng(seed)
    free = maze_grid(rows, cols, seed, corridor)
    if split:   # a wall across the map: two parts, queries between them unreachable
        free[:, free.shape[1] // 2] = False
    assert not is_forest(free)
    check(free, rng)


def test_route_choice():
    tree = maze_grid(6, 6, 1, 1)
    assert is_forest(tree)
    braid = tree.copy()
    braid[1, 2] = braid[1, 4] = True          # open walls until a loop closes
    braid[3, 2] = braid[2, 3] = braid[2, 1] = braid[4, 1] = True
    assert not is_forest(braid)
    square = np.ones((2, 2), bool)            # a free 2x2 block: diagonals, a cycle
    assert not is_forest(square)
    assert is_forest(np.array([[1, 1, 1], [0, 1, 0]], bool))
    assert is_forest(np.zeros((3, 3), bool))


def test_rooms_and_open_map():
    rng = np.random.default_rng(7)
    free = np.ones((40, 40), bool)
    free[::10, :] = False
    free[:, ::10] = False
    free[5::10, ::10] = True                  # doors
    free[::10, 5::10] = True
    check(free, rng, 150)
    check(np.ones((25, 25), bool), rng, 150)


def test_movingai_maze_all_problems_agree_and_match_astar():
    grid = read_movingai(DATA / "maze512-1-0.map")
    probs = read_scen(DATA / "maze512-1-0.map.scen")
    cols = grid.cols
    s = np.array([p.start[0] * cols + p.start[1] for p in probs])
    t = np.array([p.goal[0] * cols + p.goal[1] for p in probs])
    opt = np.array([p.optimal for p in probs])
    assert is_forest(grid.free)
    got = core.path_lengths(grid.free, s, t)
    assert len(probs) == 12120
    assert np.all(np.abs(got - opt) <= 1e-6 * np.maximum(opt, 1.0))
    # the same lengths as the engine's A* move for move (whole numbers, exactly)
    for k in range(0, len(probs), 1213):
        cells, _ = core.shortest_path(grid.free, int(s[k]), int(t[k]), conn8=True, hmode=2)
        assert got[k] == len(cells) - 1


@pytest.mark.parametrize("max_levels", [1, 2, 3, 32])
def test_capped_ancestor_table_gives_the_same_lengths(max_levels):
    from robomaze._search._tree import tree_lengths

    free = maze_grid(12, 15, 4, 1)
    free[7, :9] = False                        # two trees
    rows, cols = free.shape
    fp = np.pad(free, 1).astype(np.uint8).ravel()
    ok, up, depth, comp = forest(fp, cols, max_levels)
    assert ok and up.shape[0] == min(max_levels, int(np.ceil(np.log2(depth.max() + 1))))
    rng = np.random.default_rng(max_levels)
    s, t = rng.choice(free.size, 300), rng.choice(free.size, 300)
    got = tree_lengths(fp, up, depth, comp, core._to_padded(s, rows, cols),
                       core._to_padded(t, rows, cols))
    want = reference(free, s, t)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    assert np.array_equal(got[~np.isnan(got)], want[~np.isnan(want)])


def test_table_levels_respect_the_memory_cap():
    from robomaze._search._tree import TABLE_BYTES, table_levels

    assert table_levels(514 * 514) == TABLE_BYTES // (4 * 514 * 514)
    assert table_levels(10 ** 12) == 1
    for n in (10, 10 ** 6, 10 ** 8):
        assert table_levels(n) * 4 * n <= max(TABLE_BYTES, 4 * n)
