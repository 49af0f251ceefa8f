"""JPS+ (robomaze._search._jps_plus, _jps_tables): jump tables, exact lengths, the memory policy.

References: the tables against a cell-by-cell Python transcription of the
scan rules; lengths against scipy's ``csgraph.dijkstra`` on the same
8-connected graph (no corner cutting), built apart; paths against plain JPS
(JPS+ must return the same cells and expansion count).
"""

from pathlib import Path as FsPath

import numpy as np
import pytest
from scipy.sparse.csgraph import dijkstra

import robomaze
from robomaze import OccupancyGrid, widen
from robomaze import _search as core
from robomaze._search import _jps_plus, _jps_tables
from robomaze.errors import ParameterError
from robomaze.generate import generate
from robomaze.io.movingai import read_movingai, read_scen
from robomaze.plan import astar

from test_plan_jps_scratch import SQRT2, csgraph_of, path_length

PKG_DATA = FsPath(robomaze.__file__).resolve().parent / "data" / "samples" / "movingai"


@pytest.fixture(autouse=True)
def _fresh_tables(monkeypatch):
    for var in ("ROBOMAZE_JPS_TABLES_MB", "ROBOMAZE_JPS_PLUS_AFTER"):
        monkeypatch.delenv(var, raising=False)
    _jps_tables.free_tables()
    yield
    _jps_tables.free_tables()


# ------------------------------------------------------------ the tables
def scan_table(free):
    """Jump distances by walking each scan cell by cell (the definitions, not the recurrences)."""
    fp = np.pad(free, 1)
    rows, cols = free.shape
    dirs = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)]

    def straight_jump(r, c, dr, dc):
        """Moves to the first forced cell (> 0), or -(free cells before the wall)."""
        k = 0
        while True:
            nr, nc = r + dr, c + dc
            if not fp[nr, nc]:
                return -k
            k += 1
            pr, pc_ = dc, dr                      # a perpendicular offset (sign irrelevant)
            for s in (1, -1):
                if fp[nr + s * pr, nc + s * pc_] and not fp[r + s * pr, c + s * pc_]:
                    return k
            r, c = nr, nc

    out = np.zeros((rows + 2, cols + 2, 8), np.int64)
    for r in range(1, rows + 1):
        for c in range(1, cols + 1):
            if not fp[r, c]:
                continue
            for k, (dr, dc) in enumerate(dirs):
                if dr == 0 or dc == 0:
                    out[r, c, k] = straight_jump(r, c, dr, dc)
                    continue
                y, x, m = r, c, 0
                while True:
                    if not (fp[y + dr, x] and fp[y, x + dc] and fp[y + dr, x + dc]):
                        out[r, c, k] = -m
                        break
                    y, x, m = y + dr, x + dc, m + 1
                    if straight_jump(y, x, 0, dc) > 0 or straight_jump(y, x, dr, 0) > 0:
                        out[r, c, k] = m
                        break
    return out.reshape(-1)


@pytest.mark.parametrize("seed", range(3))
def test_tables_match_the_scans_cell_by_cell(seed):
    rng = np.random.default_rng(seed)
    for p in (0.0, 0.15, 0.35, 0.6):
        free = rng.random((13, 17)) >= p
        fp = np.pad(free, 1).view(np.uint8).ravel()
        t = _jps_plus.build_tables(fp, 13, 17, np.zeros(8 * fp.size, np.int16))
        assert np.array_equal(t.astype(np.int64), scan_table(free))


def test_int32_tables_beyond_int16_distances():
    free = np.ones((2, 33000), bool)                     # a corridor longer than int16 holds
    assert _jps_plus.table_dtype(2, 33000) is np.int32
    cells, _ = core.jump_point_path(free, 0, 2 * 33000 - 1, tables=True)
    assert path_length(cells, 33000) == pytest.approx(32998 + SQRT2)
    cells, _ = core.jump_point_path(free, 33000, 32999, tables=True)
    assert path_length(cells, 33000) == pytest.approx(32998 + SQRT2)


# ------------------------------------------------------------ exact lengths
def check_against_scipy(free, starts, goals, *, compare_plain=True):
    """JPS+ lengths == scipy Dijkstra, paths == plain JPS paths; ``(reached, unreachable)``."""
    cols = free.shape[1]
    full = dijkstra(csgraph_of(free), indices=np.asarray(starts))
    pad = core.Padded(core._padded(free, *free.shape), *free.shape)
    reached = unreachable = 0
    for i, (s, g) in enumerate(zip(starts, goals)):
        cells, expanded = core.jump_point_path(pad, int(s), int(g), tables=True)
        if compare_plain:
            ref, ref_expanded = core.jump_point_path(pad, int(s), int(g), tables=False)
            assert np.array_equal(cells, ref) and expanded == ref_expanded
        if np.isinf(full[i, g]):
            assert cells.size == 0
            unreachable += 1
            continue
        assert cells[0] == s and cells[-1] == g
        r, c = np.divmod(cells, cols)
        assert free[r, c].all()
        dr, dc = np.abs(np.diff(r)), np.abs(np.diff(c))
        assert np.all(np.maximum(dr, dc) == 1)
        diag = np.flatnonzero((dr == 1) & (dc == 1))     # no corner cutting
        assert free[r[diag], c[diag + 1]].all() and free[r[diag + 1], c[diag]].all()
        assert path_length(cells, cols) == pytest.approx(full[i, g], abs=1e-9)
        reached += 1
    return reached, unreachable


@pytest.mark.parametrize("p", [0.05, 0.1, 0.2, 0.3, 0.4])
def test_random_grids_match_scipy(p):
    rng = np.random.default_rng(int(p * 100))
    free = rng.random((61, 47)) >= p
    idx = np.flatnonzero(free.ravel())
    reached, unreachable = check_against_scipy(free, rng.choice(idx, 25), rng.choice(idx, 25))
    assert reached >= (10 if p < 0.4 else 2)
    if p >= 0.4:
        assert unreachable >= 1


@pytest.mark.parametrize("corridor", [1, 2, 3, 5, 9])
def test_widened_mazes_match_scipy(corridor):
    rng = np.random.default_rng(corridor)
    for algo in ("backtracker", "kruskal"):
        free = widen(generate(algo, 9, 11, rng=corridor), corridor=corridor, wall=1).free
        idx = np.flatnonzero(free.ravel())
        reached, _ = check_against_scipy(free, rng.choice(idx, 12), rng.choice(idx, 12))
        assert reached == 12                              # a perfect maze is connected


def test_rooms_match_scipy():
    rng = np.random.default_rng(5)
    occ = np.zeros((64, 81), bool)
    hw, vw = list(range(12, 63, 12)), list(range(16, 80, 16))    # interior walls
    occ[hw, :] = True
    occ[:, vw] = True
    hb, vb = [-1] + hw + [64], [-1] + vw + [81]
    for r in hw:                                         # a door in every wall segment
        for a, b in zip(vb, vb[1:]):
            occ[r, rng.integers(a + 1, b)] = False
    for c in vw:
        for a, b in zip(hb, hb[1:]):
            occ[rng.integers(a + 1, b), c] = False
    free = ~occ
    idx = np.flatnonzero(free.ravel())
    reached, _ = check_against_scipy(free, rng.choice(idx, 25), rng.choice(idx, 25))
    assert reached >= 15


def test_border_cells_start_equals_goal_and_walled_off_goals():
    rng = np.random.default_rng(11)
    free = rng.random((30, 40)) >= 0.25
    free[0, :] = free[-1, :] = True
    free[:, 0] = free[:, -1] = True                      # the grid's edge is open
    free[14:17, 19:22] = False
    free[15, 20] = True                                  # a free cell walled in
    rows, cols = free.shape
    border = np.concatenate([np.arange(cols), (rows - 1) * cols + np.arange(cols),
                             np.arange(rows) * cols, np.arange(rows) * cols + cols - 1])
    starts = list(rng.choice(border, 12)) + [0, 15 * cols + 20, 0, cols - 1]
    goals = list(rng.choice(border, 12)) + [0, 0, 15 * cols + 20, rows * cols - 1]
    reached, unreachable = check_against_scipy(free, starts, goals)
    assert unreachable == 2 and reached == 14
    cells, expanded = core.jump_point_path(free, 0, 0, tables=True)
    assert cells.tolist() == [0] and expanded == 1


def test_movingai_maze512_matches_scipy_and_the_scenarios():
    grid = read_movingai(PKG_DATA / "maze512-1-0.map")
    free = grid.free
    problems = read_scen(PKG_DATA / "maze512-1-0.map.scen")
    pick = problems[:: max(1, len(problems) // 20)]
    cols = grid.cols
    starts = [p.start[0] * cols + p.start[1] for p in pick]
    goals = [p.goal[0] * cols + p.goal[1] for p in pick]
    reached, _ = check_against_scipy(free, starts, goals, compare_plain=False)
    assert reached == len(pick)
    for p, s, g in zip(pick, starts, goals):
        cells, _ = core.jump_point_path(free, s, g, tables=True)
        assert path_length(cells, cols) == pytest.approx(p.optimal, rel=1e-6)


# ------------------------------------------------------------ the policy
def static_pad(free):
    return core.Padded(core._padded(free, *free.shape), *free.shape)


def test_tables_built_at_the_16th_query_by_default_and_reused():
    assert _jps_tables.build_after() == 16
    free = np.random.default_rng(2).random((50, 50)) >= 0.2
    pad = static_pad(free)
    nbytes = _jps_plus.table_nbytes(50, 50)
    for _ in range(15):
        core.jump_point_path(pad, 0, 2499)
    assert _jps_tables.kept_bytes() == 0                 # one-off queries pay nothing
    core.jump_point_path(pad, 0, 2499)
    assert _jps_tables.kept_bytes() == nbytes
    t = _jps_tables.tables_for(pad.mask, 50, 50)
    assert t is _jps_tables.tables_for(pad.mask, 50, 50) and not t.flags.writeable


def test_after_and_budget_variables(monkeypatch):
    free = np.ones((40, 40), bool)
    pad = static_pad(free)
    monkeypatch.setenv("ROBOMAZE_JPS_PLUS_AFTER", "1")
    core.jump_point_path(pad, 0, 1599)
    assert _jps_tables.kept_bytes() == _jps_plus.table_nbytes(40, 40)
    _jps_tables.free_tables()
    monkeypatch.setenv("ROBOMAZE_JPS_PLUS_AFTER", "0")  # never
    for _ in range(5):
        core.jump_point_path(pad, 0, 1599)
    assert _jps_tables.kept_bytes() == 0
    monkeypatch.setenv("ROBOMAZE_JPS_PLUS_AFTER", "1")
    monkeypatch.setenv("ROBOMAZE_JPS_TABLES_MB", "0")   # nothing fits
    cells, _ = core.jump_point_path(pad, 0, 1599)
    assert _jps_tables.kept_bytes() == 0 and path_length(cells, 40) == pytest.approx(39 * SQRT2)
    with pytest.raises(ParameterError, match=r"tables=True: .*ROBOMAZE_JPS_TABLES_MB=0"):
        core.jump_point_path(pad, 0, 1599, tables=True)


@pytest.mark.parametrize("var, value", [("ROBOMAZE_JPS_TABLES_MB", "lots"),
                                        ("ROBOMAZE_JPS_TABLES_MB", "-5"),
                                        ("ROBOMAZE_JPS_PLUS_AFTER", "2.5"),
                                        ("ROBOMAZE_JPS_PLUS_AFTER", "nan")])
def test_bad_variables_are_one_clear_error(monkeypatch, var, value):
    monkeypatch.setenv(var, value)
    with pytest.raises(ParameterError) as err:
        core.jump_point_path(static_pad(np.ones((5, 5), bool)), 0, 24)
    msg = str(err.value)
    assert var in msg and repr(value) in msg and ">= 0" in msg and "\n" not in msg


def test_least_recently_used_tables_dropped_to_fit_the_budget(monkeypatch):
    monkeypatch.setenv("ROBOMAZE_JPS_PLUS_AFTER", "1")
    one = _jps_plus.table_nbytes(100, 100)
    monkeypatch.setenv("ROBOMAZE_JPS_TABLES_MB", str(2.5 * one / 2**20))   # room for two
    pads = [static_pad(np.ones((100, 100), bool)) for _ in range(3)]
    for p in pads:
        core.jump_point_path(p, 0, 9999)
    assert _jps_tables.kept_bytes() == 2 * one
    kept = [_jps_tables._ENTRIES[id(p.mask)].table is not None for p in pads]
    assert kept == [False, True, True]


def test_writable_masks_never_cached_and_dead_masks_forgotten(monkeypatch):
    monkeypatch.setenv("ROBOMAZE_JPS_PLUS_AFTER", "1")
    free = np.ones((30, 30), bool)
    writable = core.Padded(np.pad(free, 1).view(np.uint8).ravel(), 30, 30)
    for _ in range(4):
        cells, _ = core.jump_point_path(writable, 0, 899)
    assert _jps_tables.kept_bytes() == 0
    cells2, _ = core.jump_point_path(writable, 0, 899, tables=True)   # built for one query
    assert np.array_equal(cells, cells2) and _jps_tables.kept_bytes() == 0
    pad = static_pad(free)
    core.jump_point_path(pad, 0, 899)
    assert _jps_tables.kept_bytes() > 0
    del pad                                               # its tables go with it
    assert _jps_tables.kept_bytes() == 0 and not _jps_tables._ENTRIES


def test_public_astar_on_a_reused_grid_switches_to_tables_with_the_same_paths(monkeypatch):
    monkeypatch.setenv("ROBOMAZE_JPS_PLUS_AFTER", "3")
    grid = widen(generate("backtracker", 15, 15, rng=4), corridor=3, wall=1)
    assert isinstance(grid, OccupancyGrid)
    rng = np.random.default_rng(4)
    idx = np.argwhere(grid.free)
    pairs = [(tuple(map(int, idx[a])), tuple(map(int, idx[b])))
             for a, b in rng.integers(0, len(idx), (6, 2))]
    first = [astar(grid, s, g, connectivity=8) for s, g in pairs]
    entry = next(iter(_jps_tables._ENTRIES.values()))
    assert entry.route is None and entry.peel is None      # planners never take either
    assert _jps_tables.kept_bytes() == _jps_plus.table_nbytes(grid.rows, grid.cols)
    again = [astar(grid, s, g, connectivity=8) for s, g in pairs]   # all with tables
    for a, b in zip(first, again):                        # same bytes with or without tables
        assert np.array_equal(a.cells, b.cells) and a.expanded == b.expanded
