"""RouteSearch: Dial's bucket-queue search reused across searches, in numba
and in plain Python, against the independent heapq reference of
test_mouse_route.py (written from the rules in another frame)."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest

from robomaze.errors import NoPathError, ParameterError
from robomaze.generate import generate
from robomaze.io import read_maze
from robomaze.micromouse import RouteSearch, fastest_route, get_profile, wall_array

from test_mouse_route import (CONTEST, ROOT, SAMPLES, kerikun_tables, reference_runs,
                              reference_slalom)

KERIKUN = get_profile("kerikun")
SLALOM = replace(KERIKUN, pivots=True, orthogonal="slalom")


def _braided(seeds, size=16):
    return [generate("kruskal", size, size, rng=s, braid=0.5, placement="contest")
            for s in seeds]


def _north_open(seeds):
    """Braided mazes whose start is open to the north (the reference starts
    heading north, as contest mazes do)."""
    return [m for m in _braided(seeds) if not wall_array(m)[m.start][0]]


@pytest.mark.parametrize("jit", [True, False])
def test_one_search_object_many_mazes_matches_the_reference(jit):
    # one object per mode, reused for 12 different mazes: no state of an
    # earlier search may leak into the next (states are stamped, not cleared)
    along, diag, turns, runs = kerikun_tables(2 * 32 + 4)
    searches = {(d, p.orthogonal): RouteSearch(16, 16, diagonals=d, profile=p, jit=jit)
                for d, p in ((True, KERIKUN), (False, KERIKUN), (False, SLALOM))}
    braided = _north_open(range(20))
    assert len(braided) >= 5
    mazes = [read_maze(SAMPLES / f"{n}.maze") for n in CONTEST[:5]] + braided
    unreachable = 0
    for m in mazes:
        w = wall_array(m)
        want = reference_slalom(m, along, diag, turns, diagonals=True)
        s = searches[(True, "runs")]
        assert s.dial
        if want is None:          # no pivots: some starts cannot drive out at all
            unreachable += 1
            with pytest.raises(NoPathError):
                s.route(w, m.start, m.goals)
        else:
            assert s.route(w, m.start, m.goals).cost_ms == 2 * want
        assert searches[(False, "runs")].cost(w, m.start, m.goals) == \
            2 * reference_runs(m, runs)
        assert searches[(False, "slalom")].cost(w, m.start, m.goals) == \
            2 * reference_slalom(m, along, diag, turns, diagonals=False, pivot=287 // 2)
    assert 0 < unreachable < len(mazes)


def test_plain_python_and_numba_give_the_same_route():
    found = 0
    for m in _braided(range(100, 130)):
        for d in (False, True):
            try:
                a = fastest_route(m, diagonals=d, jit=True)
            except NoPathError:
                with pytest.raises(NoPathError):
                    fastest_route(m, diagonals=d, jit=False)
                continue
            b = fastest_route(m, diagonals=d, jit=False)
            assert (a.cost_ms, a.route, a.cells) == (b.cost_ms, b.route, b.cells)
            found += 1
    assert found >= 40


def test_non_integer_profile_takes_the_heap_and_agrees():
    m = read_maze(SAMPLES / "16MM2017CX.maze")
    p = get_profile("simple")
    s = RouteSearch(16, 16, diagonals=True, profile=p, jit=False)
    assert not s.dial and s.jit                   # float costs: the heap kernel
    n = 2 * 32 + 4
    t = dict(zip(("F45", "F90", "F135", "F180", "V90"), p.turn_costs()))
    want = reference_slalom(m, p.along_table(n).tolist(), p.diag_table(2 * n).tolist(), t,
                            diagonals=True, pivot=p.pivot_cost())
    assert s.cost(wall_array(m), m.start, m.goals) == pytest.approx(want, rel=1e-12)


def test_walled_off_goal_after_a_reachable_one():
    m = _braided([3])[0]
    s = RouteSearch(16, 16, diagonals=True, jit=False)
    w = wall_array(m)
    assert s.cost(w, m.start, m.goals) > 0
    shut = w.copy()
    for r, c in m.goals:
        shut[r, c, :] = True
        for dr, dc, side in ((-1, 0, 2), (1, 0, 0), (0, -1, 1), (0, 1, 3)):
            if 0 <= r + dr < 16 and 0 <= c + dc < 16:
                shut[r + dr, c + dc, side] = True
    with pytest.raises(NoPathError):
        s.route(shut, m.start, m.goals)
    # and the object still answers for the open maze afterwards
    assert s.cost(w, m.start, m.goals) == fastest_route(m, diagonals=True).cost_ms


def test_wrong_shape_is_one_clear_error():
    s = RouteSearch(4, 4)
    with pytest.raises(ParameterError, match=r"shape \(4, 4, 4\)"):
        s.route(np.zeros((5, 4, 4), bool), (0, 0), [(1, 1)])


def test_mouse_route_command_does_not_import_numba():
    code = ("import sys, io, contextlib\n"
            "from robomaze.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    rc = main(['mouse', 'route', {str(SAMPLES / '32MM2019HX.maze')!r}, "
            "'--diagonals'])\n"
            "print(rc, sorted(m for m in ('numba', 'scipy', 'matplotlib') if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, timeout=300, env=dict(os.environ))
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split("\n")[0] == "0 []"
