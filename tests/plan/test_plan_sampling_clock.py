"""One clock for an OMPL run: first solution and progress on the thread CPU clock
of the run's own time; every declared planner parameter recorded."""

import itertools

import pytest

from robomaze import Maze, widen
from robomaze.geometry import Footprint
from robomaze.plan import plan
from robomaze.plan.sampling import OMPL_PLANNERS, budget as B
from robomaze.plan.sampling.params import DECLARED

pytest.importorskip("ompl")

BUDGET = dict(max_checks=6_000, time_limit=60.0)


def _grid():
    return widen(Maze.from_edges(2, 3, [0, 1, 2, 5, 4], [1, 2, 5, 4, 3]), corridor=5, wall=1,
                 resolution=0.1)


@pytest.mark.parametrize("name", ["rrtstar", "bitstar", "prmstar", "rrt_connect"])
def test_first_solution_and_progress_lie_inside_the_runs_cpu_time(name):
    p = plan(_grid(), None, None, method=f"ompl:{name}", footprint=Footprint.disc(0.12), rng=2,
             **BUDGET)
    # plan() reports the method's thread CPU time; the samples read the same clock
    times = [s[0] for s in p.stats["progress"]["samples"]]
    assert times and times == sorted(times)
    assert 0.0 <= p.stats["first_solution_s"] == times[0]
    assert max(times) <= p.time


def test_progress_reads_the_cpu_clock_not_the_wall_clock(monkeypatch):
    ticks = itertools.count()
    monkeypatch.setattr(B, "cpu_now", lambda: 0.001 * next(ticks))
    wall = itertools.count(step=1000)   # a wall clock racing ahead (a loaded machine)
    monkeypatch.setattr(B._time, "perf_counter", lambda: float(next(wall)))
    look = type("Look", (), {"checks": 0})()
    b = B.WorkBudget(max_checks=10, time_limit=None)
    b.start(look)
    prog = B.Progress(look, t0=b.t0)
    prog.add(5.0)
    prog.add(4.0)
    assert [round(s[0], 6) for s in prog.samples] == [0.001, 0.002]
    assert b.elapsed() == pytest.approx(0.003)


def test_safety_net_reads_the_wall_clock():
    look = type("Look", (), {"checks": 0})()
    b = B.WorkBudget(max_checks=10**9, time_limit=1e-9)
    b.start(look)
    while not b.stop():
        pass
    assert b.stopped_by == "time_limit"
    with pytest.raises(B.WallClockLimitError):
        b.raise_if_wall_clock("test")


@pytest.mark.parametrize("name", sorted(OMPL_PLANNERS))
def test_every_declared_parameter_is_recorded(name):
    p = plan(_grid(), None, None, method=f"ompl:{name}", footprint=Footprint.disc(0.12), rng=2,
             **BUDGET)
    params = p.stats["params"]
    assert params["planner"] == OMPL_PLANNERS[name]
    assert set(DECLARED[name]) <= set(params)
    assert params["max_checks"] == BUDGET["max_checks"] and params["ompl_seed"] > 0
    if "range" in DECLARED[name]:
        # setup() fills the default range from the space: recorded after it, never 0
        assert params["range"] > 0


def test_failed_run_still_carries_its_parameters():
    from robomaze.errors import NoPathError

    with pytest.raises(NoPathError) as info:
        plan(_grid(), None, None, method="ompl:rrtstar", footprint=Footprint.disc(0.12), rng=2,
             max_checks=5, time_limit=60.0)
    assert info.value.params["max_checks"] == 5
    assert info.value.params["rewire_factor"] == pytest.approx(1.1)
