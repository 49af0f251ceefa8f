"""Dead ends peeled once per grid (robomaze._search._jps_peel) under jump point search.

References: the peeled cells against a set-based Python 2-core of scipy's
graph (built apart); every path checked move by move on that graph, its
length against ``scipy.sparse.csgraph.dijkstra``; MovingAI's own optima.
"""

from pathlib import Path as FsPath

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse.csgraph import dijkstra

import robomaze
from robomaze import widen
from robomaze import _search as core
from robomaze._search import _jps_peel, _jps_plus, _jps_tables
from robomaze.generate import generate
from robomaze.io.movingai import read_movingai, read_scen

from test_plan_jps_scratch import csgraph_of, path_length

PKG_DATA = FsPath(robomaze.__file__).resolve().parent / "data" / "samples" / "movingai"


@pytest.fixture(autouse=True)
def _fresh_tables(monkeypatch):
    for var in ("ROBOMAZE_JPS_TABLES_MB", "ROBOMAZE_JPS_PLUS_AFTER"):
        monkeypatch.delenv(var, raising=False)
    _jps_tables.free_tables()
    yield
    _jps_tables.free_tables()


def two_core(free):
    """Cells left after removing degree <= 1 cells until none is: plain sets on scipy's graph."""
    g = csgraph_of(free)
    nbr = {u: set(g.indices[g.indptr[u]:g.indptr[u + 1]]) for u in np.flatnonzero(free.ravel())}
    todo = [u for u, s in nbr.items() if len(s) <= 1]
    while todo:
        u = todo.pop()
        if u not in nbr:
            continue
        for v in nbr.pop(u):
            nbr[v].discard(u)
            if len(nbr[v]) <= 1:
                todo.append(v)
    return set(nbr)


def check(free, pairs, **kw):
    """Every pair's path legal on scipy's graph and as long as scipy's distance; counts reached."""
    g = csgraph_of(free)
    rows, cols = free.shape
    reached = 0
    for s, t in pairs:
        d = dijkstra(g, indices=int(s))[int(t)]
        cells, _ = core.jump_point_path(free if not kw.get("pad") else kw["pad"], int(s), int(t),
                                        **{k: v for k, v in kw.items() if k != "pad"})
        if not np.isfinite(d):
            assert cells.size == 0
            continue
        reached += 1
        assert cells[0] == s and cells[-1] == t
        for a, b in zip(cells[:-1], cells[1:]):
            assert g[int(a), int(b)] > 0                 # a legal move
        assert path_length(cells, cols) == pytest.approx(d, rel=1e-12, abs=1e-12)
    return reached


def maze(corridor, n=12, seed=3):
    return widen(generate("backtracker", n, n, rng=seed), corridor=corridor, wall=1).free


def test_peeled_cells_are_the_complement_of_the_two_core():
    rng = np.random.default_rng(5)
    for free in (maze(1), maze(3), rng.random((40, 40)) >= 0.4, rng.random((30, 50)) >= 0.15):
        rows, cols = free.shape
        fp = core._padded(free, rows, cols)
        pt = np.empty(2 * fp.size, np.int32)
        ncore = _jps_peel.peel(fp, cols, pt, np.empty(fp.size, np.uint8),
                               np.empty(fp.size, np.int32))
        times = pt[1::2].reshape(rows + 2, cols + 2)[1:-1, 1:-1].ravel()
        ours = set(np.flatnonzero(free.ravel() & (times == _jps_peel.CORE)).tolist())
        assert ours == two_core(free) and ncore == len(ours)


def test_a_one_wide_perfect_maze_is_all_tree_and_a_grid_with_rooms_is_mostly_core():
    free = maze(1)
    fp = core._padded(free, *free.shape)
    pt = np.empty(2 * fp.size, np.int32)
    assert _jps_peel.peel(fp, free.shape[1], pt, np.empty(fp.size, np.uint8),
                          np.empty(fp.size, np.int32)) == 0
    free3 = maze(3)
    fp3 = core._padded(free3, *free3.shape)
    pt3 = np.empty(2 * fp3.size, np.int32)
    ncore = _jps_peel.peel(fp3, free3.shape[1], pt3, np.empty(fp3.size, np.uint8),
                           np.empty(fp3.size, np.int32))
    assert ncore > 0.9 * free3.sum()


@pytest.mark.parametrize("kind", ["maze1", "maze2", "random40", "random25", "mixed"])
def test_peeled_queries_match_scipy(kind):
    rng = np.random.default_rng(7)
    if kind == "maze1":
        free = maze(1, n=20)
    elif kind == "maze2":
        free = maze(2, n=10)
    elif kind == "mixed":                              # a 1-wide maze with loops cut in
        free = maze(1, n=20)
        walls = np.argwhere(~free[1:-1, 1:-1]) + 1
        for r, c in walls[rng.choice(len(walls), 30)]:
            free[r, c] = True
    else:
        free = rng.random((45, 45)) >= int(kind[6:]) / 100
    idx = np.flatnonzero(free.ravel())
    pairs = list(zip(rng.choice(idx, 30), rng.choice(idx, 30))) + [(idx[0], idx[0])]
    for tables in (True, False):
        assert check(free, pairs, tables=tables, peel=True) >= 10


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 14), st.integers(2, 14), st.integers(0, 2**32 - 1),
       st.floats(0.0, 0.6))
def test_peeled_queries_match_scipy_on_any_small_grid(rows, cols, seed, p):
    rng = np.random.default_rng(seed)
    free = rng.random((rows, cols)) >= p
    free.ravel()[rng.integers(0, rows * cols, 2)] = True
    idx = np.flatnonzero(free.ravel())
    pairs = list(zip(rng.choice(idx, 6), rng.choice(idx, 6)))
    check(free, pairs, tables=False, peel=True)


def test_blocked_end_unchanged_by_the_peel():
    free = maze(1, n=6)
    blocked = int(np.flatnonzero(~free.ravel())[0])
    cells, _ = core.jump_point_path(free, 0 if free.ravel()[0] else 1, blocked, peel=True)
    assert cells.size == 0


def test_policy_keeps_the_peel_of_a_tree_maze_without_tables(monkeypatch):
    monkeypatch.setenv("ROBOMAZE_JPS_PLUS_AFTER", "2")
    free = maze(1, n=25)
    rows, cols = free.shape
    pad = core.Padded(core._padded(free, rows, cols), rows, cols)
    idx = np.flatnonzero(free.ravel())
    rng = np.random.default_rng(2)
    pairs = list(zip(rng.choice(idx, 8), rng.choice(idx, 8)))
    lets = dict(peel=None, route=None)                     # the policy may keep either
    first = core.jump_point_path(pad, int(pairs[0][0]), int(pairs[0][1]), **lets)[0]
    assert _jps_tables.kept_bytes() == 0
    assert check(free, pairs, pad=pad, **lets) == 8        # the 2nd query builds
    entry = _jps_tables._ENTRIES[id(pad.mask)]
    assert entry.peel is not None and entry.table is None   # a forest: no search needed
    assert _jps_tables.kept_bytes() == _jps_peel.peel_nbytes(rows, cols)
    again = core.jump_point_path(pad, int(pairs[0][0]), int(pairs[0][1]), **lets)
    assert np.array_equal(first, again[0]) and again[1] == 0   # the one simple path, no search


def test_default_answers_do_not_depend_on_the_grid_query_count(monkeypatch):
    """The planners' default never takes the peel or the route: cells and expansions of the
    1st query equal those after the policy decided (a plan is reproducible on its own)."""
    monkeypatch.setenv("ROBOMAZE_JPS_PLUS_AFTER", "3")
    for corridor in (1, 3):
        free = widen(generate("backtracker", 12, 12, rng=corridor), corridor=corridor).free
        rows, cols = free.shape
        pad = core.Padded(core._padded(free, rows, cols), rows, cols)
        idx = np.flatnonzero(free.ravel())
        rng = np.random.default_rng(corridor)
        pairs = [(int(a), int(b)) for a, b in zip(rng.choice(idx, 4), rng.choice(idx, 4))]
        before = [core.jump_point_path(pad, s, t) for s, t in pairs]
        after = [core.jump_point_path(pad, s, t) for s, t in pairs]
        entry = _jps_tables._ENTRIES[id(pad.mask)]
        assert entry.decided and entry.peel is None and entry.route is None
        assert entry.table is not None                     # JPS+ answered the later ones
        for (c0, e0), (c1, e1) in zip(before, after):
            assert np.array_equal(c0, c1) and e0 == e1


def test_policy_drops_the_peel_where_the_core_is_most_of_the_grid(monkeypatch):
    monkeypatch.setenv("ROBOMAZE_JPS_PLUS_AFTER", "1")
    free = np.random.default_rng(4).random((60, 60)) >= 0.2
    pad = core.Padded(core._padded(free, 60, 60), 60, 60)
    core.jump_point_path(pad, 0, 3599, peel=None, route=None)
    entry = _jps_tables._ENTRIES[id(pad.mask)]
    assert entry.peel is None and entry.table is not None
    assert _jps_tables.kept_bytes() == _jps_plus.table_nbytes(60, 60)
    for _ in range(3):                                     # decided once: no rebuilds
        core.jump_point_path(pad, 0, 3599, peel=None, route=None)
    assert _jps_tables._ENTRIES[id(pad.mask)] is entry and entry.peel is None


def test_movingai_maze512_peeled_matches_the_scenarios():
    grid = read_movingai(PKG_DATA / "maze512-1-0.map")
    free = grid.free
    problems = read_scen(PKG_DATA / "maze512-1-0.map.scen")
    pick = problems[:: max(1, len(problems) // 40)]
    cols = grid.cols
    rows = grid.rows
    pad = core.Padded(core._padded(free, rows, cols), rows, cols)
    for p in pick:
        s, g = p.start[0] * cols + p.start[1], p.goal[0] * cols + p.goal[1]
        cells, _ = core.jump_point_path(pad, s, g, peel=True)
        assert cells[0] == s and cells[-1] == g
        assert path_length(cells, cols) == pytest.approx(p.optimal, rel=1e-6)


# ------------------------------------------------------------ JPS+ confined to the route's stacks
@pytest.mark.parametrize("corridor, wall", [(1, 1), (2, 1), (3, 1), (5, 2), (9, 1)])
def test_route_confined_jps_plus_matches_scipy_on_widened_mazes(corridor, wall):
    free = widen(generate("backtracker", 9, 9, rng=corridor), corridor=corridor, wall=wall).free
    rows, cols = free.shape
    pad = core.Padded(core._padded(free, rows, cols), rows, cols)
    idx = np.flatnonzero(free.ravel())
    rng = np.random.default_rng(corridor)
    pairs = list(zip(rng.choice(idx, 40), rng.choice(idx, 40))) + [(idx[0], idx[0])]
    assert check(free, pairs, pad=pad, tables=True, route=True) == len(pairs)
    plain = [core.jump_point_path(pad, int(s), int(t), tables=True)[1] for s, t in pairs]
    confined = [core.jump_point_path(pad, int(s), int(t), tables=True, route=True)[1]
                for s, t in pairs]
    assert sum(confined) < sum(plain)                  # it does confine the search
    e = _jps_tables._ENTRIES[id(pad.mask)]
    assert e.route is not None and e.route.lab[pad.mask == 0].max() == -1


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 7), st.integers(2, 7), st.integers(1, 4), st.integers(1, 3),
       st.integers(0, 2**32 - 1))
def test_route_confined_jps_plus_matches_scipy_on_any_small_widened_maze(n, m, corridor, wall,
                                                                         seed):
    free = widen(generate("backtracker", n, m, rng=seed), corridor=corridor, wall=wall).free
    rng = np.random.default_rng(seed)
    idx = np.flatnonzero(free.ravel())
    pairs = list(zip(rng.choice(idx, 8), rng.choice(idx, 8)))
    check(free, pairs, tables=True, route=True, peel=bool(seed % 2))


def test_grids_with_cycles_get_no_route_and_a_random_grid_keeps_tables_only(monkeypatch):
    monkeypatch.setenv("ROBOMAZE_JPS_PLUS_AFTER", "1")
    free = np.random.default_rng(9).random((50, 50)) >= 0.3
    pad = core.Padded(core._padded(free, 50, 50), 50, 50)
    assert check(free, [(0, 2499), (51, 2400)], pad=pad, tables=True, route=True) <= 2
    assert _jps_tables._ENTRIES[id(pad.mask)].route is None


def test_policy_keeps_the_route_of_a_wide_maze(monkeypatch):
    monkeypatch.setenv("ROBOMAZE_JPS_PLUS_AFTER", "1")
    free = maze(3, n=15)
    rows, cols = free.shape
    pad = core.Padded(core._padded(free, rows, cols), rows, cols)
    idx = np.flatnonzero(free.ravel())
    rng = np.random.default_rng(1)
    assert check(free, list(zip(rng.choice(idx, 10), rng.choice(idx, 10))), pad=pad,
                 peel=None, route=None) == 10
    e = _jps_tables._ENTRIES[id(pad.mask)]
    assert e.route is not None and e.table is not None and e.peel is None
    assert _jps_tables.kept_bytes() == _jps_plus.table_nbytes(rows, cols) + e.route.nbytes


def test_thin_grid_with_a_big_core_is_peeled_then_dropped(monkeypatch):
    monkeypatch.setenv("ROBOMAZE_JPS_PLUS_AFTER", "1")
    r, c = np.indices((41, 41))
    free = (r % 2 == 1) | (c % 2 == 1)                 # a lattice of 1-wide corridors
    pad = core.Padded(core._padded(free, 41, 41), 41, 41)
    assert _jps_peel.thin_share(pad.mask, 41, 41) >= _jps_tables.PEEL_TRY
    idx = np.flatnonzero(free.ravel())
    rng = np.random.default_rng(3)
    assert check(free, list(zip(rng.choice(idx, 10), rng.choice(idx, 10))), pad=pad,
                 peel=None, route=None) == 10
    e = _jps_tables._ENTRIES[id(pad.mask)]
    assert e.decided and e.peel is None and e.table is not None   # its core is most of it
