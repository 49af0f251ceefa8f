"""The straight-run pruning and the one-call compiled entries of RouteSearch
(round 7), against the round-5 binary-heap kernels (no pruning, float costs,
scratch allocated per call) and the independent heapq reference of
test_mouse_route.py."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from robomaze.errors import NoPathError
from robomaze.generate import generate
from robomaze.io import read_maze
from robomaze.micromouse import RouteSearch, fastest_route, get_profile, wall_array
from robomaze.micromouse import _route_dial as rd
from robomaze.micromouse.profile import MouseProfile
from robomaze.micromouse.route import _tables, passable_grid, prunable

from test_mouse_route import CONTEST, SAMPLES, kerikun_tables, reference_runs

KERIKUN = get_profile("kerikun")
PIVOTS = replace(KERIKUN, pivots=True, orthogonal="slalom")
PAD = 2
#: (diagonals, profile): every mode whose tables are integers (Dial's kernel)
MODES = [(False, KERIKUN), (True, KERIKUN), (False, PIVOTS), (True, PIVOTS)]


def heap_cost(walls, start, goals, diagonals, profile):
    """The cost (units) by the round-5 heap kernels on the same tables, or None."""
    from robomaze.micromouse._route_kernels import runs_search, slalom_search
    rows, cols = walls.shape[:2]
    passable, horiz, width = passable_grid(walls)
    goal = np.zeros(passable.shape[0], np.uint8)
    pos = lambda r, c: (2 * r + 1 + PAD) * width + 2 * c + 1 + PAD  # noqa: E731
    for r, c in goals:
        goal[pos(r, c)] = 1
    along, diag, turns, runs = _tables(profile, 2 * max(rows, cols) + 2)
    p0 = pos(*start)
    if not diagonals and profile.orthogonal == "runs":
        e, dist, _ = runs_search(passable, width, p0, goal, runs)
    else:
        # heading north, or every open side if north is closed (either cell)
        heads = [0] if passable[p0 - width] else \
            [h for h, o in ((2, 1), (4, width), (6, -1)) if passable[p0 + o]] or [0]
        e, dist, _, _ = slalom_search(passable, horiz, width,
                                      np.array([p0 * 8 + h for h in heads], np.int64), goal,
                                      along, diag, turns, diagonals, profile.pivot_cost())
    return None if e < 0 else float(dist[e])


def braided(seeds, size=16, braid=0.5):
    return [generate("kruskal", size, size, rng=s, braid=braid, placement="contest")
            for s in seeds]


def contest():
    return [read_maze(SAMPLES / f"{n}.maze") for n in CONTEST]


def _cost_or_none(search, walls, start, goals):
    try:
        return search.cost(walls, start, goals) / search.profile.unit_ms
    except NoPathError:
        return None


def test_kerikun_tables_are_prunable_and_the_search_uses_it():
    for size in (4, 16, 32):
        for d, p in MODES:
            assert RouteSearch(size, size, diagonals=d, profile=p).prune
    # hand-checked: 143 + 143 >= 220 (two runs of one cell cost more than
    # one of two), and the along table 77 + 77 >= 129
    _, _, _, runs = kerikun_tables(8)
    assert runs[:4] == [0, 143, 220, 273]
    along = KERIKUN.along_table(4).tolist()
    assert along[:3] == [0.0, 77.0, 129.0]
    assert prunable(runs, 7, monotone=True) and prunable(along, 4)
    # a table that is not subadditive (a turn cheaper than a cell) or not
    # monotone is refused
    assert not prunable([0, 10, 87, 129], 3)
    assert not prunable([0, 143, 140, 280], 3, monotone=True)
    assert prunable([0, 143, 140, 280], 3)


@pytest.mark.parametrize("diagonals,profile", MODES, ids=["runs", "diag", "pivots",
                                                          "pivots-diag"])
def test_pruned_search_equals_the_heap_search_on_every_maze(diagonals, profile):
    # the 7 packaged contest mazes (04_test_01 included) and 240 braided 16x16
    # and 32x32 mazes: 247 mazes per mode, the cost of the round-5 heap kernel
    mazes = contest() + [read_maze(SAMPLES / "04_test_01.maze")] + \
        braided(range(200)) + braided(range(40), size=32, braid=0.3)
    searches = {}
    reached = 0
    for m in mazes:
        rows, cols = m.shape
        s = searches.setdefault(m.shape, RouteSearch(rows, cols, diagonals=diagonals,
                                                     profile=profile))
        assert s.dial and s.prune
        w = wall_array(m)
        want = heap_cost(w, m.start, m.goals, diagonals, profile)
        assert _cost_or_none(s, w, m.start, m.goals) == want, m
        reached += want is not None
    assert reached >= 200


def test_pruning_off_gives_the_same_costs():
    # the flag in the compiled entry's header switches the pruning off
    for d, p in MODES:
        on = RouteSearch(16, 16, diagonals=d, profile=p)
        off = RouteSearch(16, 16, diagonals=d, profile=p)
        off._wl[rd.H_PRUNE] = 0
        for m in contest()[:5] + braided(range(300, 340)):
            w = wall_array(m)
            assert _cost_or_none(on, w, m.start, m.goals) == \
                _cost_or_none(off, w, m.start, m.goals)


def test_a_table_that_is_not_subadditive_is_searched_in_full():
    # a small turn (20 ms) far cheaper than a cell (154 ms): runs of one cell
    # beat longer runs, and a cell reached by a run must extend it one cell
    # at a time. RouteSearch sees the table is not subadditive and keeps
    # every move; forcing the pruning on gives slower routes on some mazes.
    cheap = MouseProfile(name="cheap-turn", orthogonal="runs", pivots=False,
                         library_units=True, small_turn=20.0)
    n = 2 * 16 + 2
    runs = _tables(cheap, n)[3].tolist()
    assert runs[1] == 10 and runs[2] == 87
    s = RouteSearch(16, 16, profile=cheap)
    assert s.dial and not s.prune
    forced = RouteSearch(16, 16, profile=cheap)
    forced._wl[rd.H_PRUNE] = 1
    worse = 0
    for m in braided(range(20)):
        w = wall_array(m)
        want = reference_runs(m, runs)
        assert s.cost(w, m.start, m.goals) == 2 * want
        got = forced.cost(w, m.start, m.goals)
        assert got >= 2 * want
        worse += got > 2 * want
    assert worse >= 10


@pytest.mark.parametrize("diagonals,profile", MODES, ids=["runs", "diag", "pivots",
                                                          "pivots-diag"])
def test_plain_python_equals_the_compiled_entry_bit_for_bit(diagonals, profile):
    jit = RouteSearch(16, 16, diagonals=diagonals, profile=profile)
    py = RouteSearch(16, 16, diagonals=diagonals, profile=profile, jit=False)
    assert py.dial and not py.jit
    found = 0
    for m in contest()[:5] + braided(range(500, 525)):
        w = wall_array(m)
        try:
            a = jit.route(w, m.start, m.goals)
        except NoPathError:
            with pytest.raises(NoPathError):
                py.route(w, m.start, m.goals)
            continue
        b = py.route(w, m.start, m.goals)
        assert (a.cost_ms, a.route, a.cells, a.poses) == (b.cost_ms, b.route, b.cells, b.poses)
        found += 1
    assert found >= 20


def test_search_numbers_wrap_and_the_stamps_are_cleared():
    m, other = braided([7, 8])
    w, w2 = wall_array(m), wall_array(other)
    for jit in (True, False):
        s = RouteSearch(16, 16, diagonals=True, jit=jit)
        want = s.cost(w, m.start, m.goals)
        want2 = s.cost(w2, other.start, other.goals)
        if jit:
            s._wl[rd.H_GEN] = rd.GEN_MAX
        else:
            s._gen = rd.GEN_MAX
        # the next search is number 1 again: stale stamps of the old numbers
        # must not read as reached
        assert s.cost(w2, other.start, other.goals) == want2
        assert s.cost(w, m.start, m.goals) == want
        assert (s._wl[rd.H_GEN] if jit else s._gen) == 2


def test_a_wall_closed_on_one_side_only_is_closed():
    # wall arrays from a mouse's map can disagree between the two cells of a
    # wall; the search treats the wall as closed when either side says so,
    # as passable_grid (and the heap kernel) does
    m = braided([11])[0]
    base = wall_array(m)
    rng = np.random.default_rng(5)
    for jit in (True, False):
        for d, p in MODES:
            s = RouteSearch(16, 16, diagonals=d, profile=p, jit=jit)
            w = base.copy()
            for _ in range(30):
                r, c, side = rng.integers(16), rng.integers(16), rng.integers(4)
                w[r, c, side] = True             # only this cell's side
            want = heap_cost(w, m.start, m.goals, d, p)
            assert _cost_or_none(s, w, m.start, m.goals) == want


def test_one_object_follows_changing_walls_starts_and_goals():
    # a mouse's search: walls change, the start moves, the goal set changes
    mazes = braided(range(40, 60))
    s = RouteSearch(16, 16, diagonals=True)
    py = RouteSearch(16, 16, diagonals=True, jit=False)
    rng = np.random.default_rng(3)
    for m in mazes:
        w = wall_array(m)
        start = tuple(int(x) for x in rng.integers(0, 16, 2))
        goals = [tuple(int(x) for x in rng.integers(0, 16, 2)) for _ in range(rng.integers(1, 4))]
        want = heap_cost(w, start, goals, True, KERIKUN)
        assert _cost_or_none(s, w, start, goals) == want
        assert _cost_or_none(py, w, start, goals) == want
        # the same call again (cached cells), then the maze's own cells
        assert _cost_or_none(s, w, start, goals) == want
        assert _cost_or_none(s, w, m.start, m.goals) == \
            heap_cost(w, m.start, m.goals, True, KERIKUN)


def test_fastest_route_is_unchanged_for_float_profiles():
    # profiles whose tables are not integers keep the heap kernel
    m = read_maze(SAMPLES / "16MM2019CX.maze")
    p = get_profile("simple")
    s = RouteSearch(16, 16, diagonals=True, profile=p)
    assert not s.dial
    assert s.cost(wall_array(m), m.start, m.goals) == \
        pytest.approx(heap_cost(wall_array(m), m.start, m.goals, True, p))
    assert fastest_route(m, diagonals=True, profile=p).cost_ms == \
        s.cost(wall_array(m), m.start, m.goals)


@pytest.mark.parametrize("shape", [(16, 16), (5, 9), (32, 32), (1, 4)])
def test_prepare_writes_the_grid_passable_grid_builds(shape):
    # the compiled entries write the walls with prepare; plain Python and
    # the heap kernels use passable_grid (numpy): the same grid, also for
    # walls closed on one side only
    from numba import njit

    from robomaze.micromouse import _route_kernels
    # the entries' prepare has no Python entry point (inner): the same
    # unsigned-indexing copy compiled with one
    prepare = njit(cache=False)(_route_kernels.prepare.py_func)
    rows, cols = shape
    rng = np.random.default_rng(rows * 100 + cols)
    s = RouteSearch(rows, cols, diagonals=True)
    goal, stamp = np.zeros_like(s._sec["goal"]), np.zeros_like(s._sec["stamp"])
    for density in (0.0, 0.3, 0.7, 1.0):
        walls = rng.random((rows, cols, 4)) < density
        want = passable_grid(walls)[0]
        grid = s._sec["grid"].copy()
        starts = np.zeros(4, np.int64)
        gen, n = prepare(walls.reshape(-1), 1, grid, rows, cols, s.width, goal, stamp,
                         np.array([s.width * 3 + 3], np.int64), 1, 6, s.width * 3 + 3, True,
                         starts)
        assert np.array_equal(grid, want)
        assert gen == 7 and goal[s.width * 3 + 3] == 7
        plain = s._sec["grid"].tolist()
        pstarts = [0] * 4
        assert rd.prepare(walls.reshape(-1).tolist(), 1, plain, rows, cols, s.width,
                          goal.tolist(), stamp.tolist(), [s.width * 3 + 3], 1, 6,
                          s.width * 3 + 3, True, pstarts) == (gen, n)
        assert plain == want.tolist() and pstarts[:n] == starts[:n].tolist()
        # the start cell (0, 0): heading north unless that wall is closed
        # (it always is: the border), then its open sides, else north
        open_sides = [h for h, o in ((2, 1), (4, s.width), (6, -1))
                      if want[s.width * 3 + 3 + o]]
        p0 = s.width * 3 + 3
        assert starts[:n].tolist() == [p0 * 8 + h for h in (open_sides or [0])]


def test_index_cast_copy_reads_the_same_elements():
    # the compiled kernels index through a cast (unsigned in numba); the copy
    # with an identity cast is the same function as the original
    seen = []

    def cast(i):
        seen.append(i)
        return i

    from robomaze._compile.kernels import with_index_cast
    copy = with_index_cast(rd.runs_dial, cast, also=("_LOW_BIT",))
    assert copy is not rd.runs_dial and copy.__qualname__ == "runs_dial"
    m = braided([21])[0]
    w = wall_array(m)
    a = RouteSearch(16, 16, jit=False)
    want = a.cost(w, m.start, m.goals)
    import robomaze.micromouse.route as route_mod
    original = route_mod._rd.runs_dial
    try:
        route_mod._rd.runs_dial = copy
        b = RouteSearch(16, 16, jit=False)
        assert b.cost(w, m.start, m.goals) == want
    finally:
        route_mod._rd.runs_dial = original
    assert len(seen) > 1000 and min(seen) >= 0
