"""OMPL options bounded by the world and runs stopped by work (issue 35)."""

import math

import pytest

pytest.importorskip("ompl")

from robomaze import Maze, widen  # noqa: E402
from robomaze.cli import main  # noqa: E402
from robomaze.errors import NoPathError, ParameterError  # noqa: E402
from robomaze.plan.sampling import budget as budget_mod, solve  # noqa: E402
from robomaze.plan.sampling.budget import ITERATIONS_PER_CHECK, WorkBudget  # noqa: E402
from robomaze.plan.sampling.lengths import check_lengths, world_extent  # noqa: E402

GRID = widen(Maze.empty(3, 3), corridor=3, wall=1)        # 13 x 13 cells of 1 m


def test_extent_is_the_diagonal_of_the_world():
    assert world_extent(GRID) == pytest.approx(math.hypot(13, 13))


@pytest.mark.parametrize("key, value", [
    ("turning_radius", 1e-300), ("turning_radius", 1e300), ("turning_radius", 0.0009),
    ("step", 1e-300), ("step", 19.0), ("planner_range", 1e-12), ("planner_range", 1e9)])
def test_lengths_outside_the_world_are_one_line(key, value):
    with pytest.raises(ParameterError) as e:
        kw = {"space": "dubins", "turning_radius": 1.0, key: value}
        solve.ompl_plan(GRID, (1, 1), (11, 11), planner="rrt_connect", max_checks=200, **kw)
    msg = str(e.value)
    assert "\n" not in msg and f"option {key}=" in msg and "grid resolution 1 m" in msg


def test_lengths_at_the_edges_are_accepted():
    ext = world_extent(GRID)
    assert check_lengths(GRID, "x", turning_radius=1e-3, step=ext, planner_range=1e3 * ext) \
        == {"turning_radius": 1e-3, "step": ext, "planner_range": 1e3 * ext}


@pytest.mark.parametrize("option", ["turning_radius=1e-300", "step=1e-300"])
def test_the_cli_refuses_them_with_exit_2(capsys, option):
    code = main(["plan", "prim", "3x3", "--seed", "1", "--method", "ompl:dubins",
                 "--option", "turning_radius=1", "--option", option,
                 "--option", "max_checks=500"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and option.split("=")[0] in err


def test_a_budget_without_validity_checks_stops_on_iterations():
    b = WorkBudget(max_checks=10, time_limit=None)
    b.start(type("Look", (), {"checks": 0})())
    n = 0
    while not b.stop():
        n += 1
    assert b.stopped_by == "iterations" and n == ITERATIONS_PER_CHECK * 10 - 1


def test_a_budget_stops_on_checked_motions():
    b = WorkBudget(max_checks=10, time_limit=None)
    b.start(type("Look", (), {"checks": 0})())
    motions = iter(range(100))
    b.motions = lambda: next(motions)
    n = 0
    while not b.stop():
        n += 1
    assert b.stopped_by == "motions" and n == 10


def test_a_run_that_hardly_checks_is_stopped_by_work(monkeypatch):
    # the run (a car of radius 1e-300: about two validity checks, then
    # iterations for ever) with the length check taken away: it must end
    monkeypatch.setattr(solve, "check_lengths", lambda grid, name, **kw: kw)
    with pytest.raises(NoPathError) as e:
        solve.ompl_plan(GRID, (1, 1), (11, 11), planner="rrt_connect", space="dubins",
                        turning_radius=1e-300, max_checks=50, rng=1)
    assert "stopped by iterations" in str(e.value)
    assert f"{ITERATIONS_PER_CHECK * 50} iterations" in str(e.value)


def test_normal_runs_are_still_stopped_by_checks_or_solution():
    # the extra counters never end an ordinary run first (its result is unchanged)
    for planner in ("rrt_connect", "rrtstar", "kpiece", "bitstar", "prmstar"):
        try:
            p = solve.ompl_plan(GRID, (1, 1), (11, 11), planner=planner, max_checks=3000,
                                rng=2, simplify=False)
            assert p.stats["stopped_by"] in ("checks", "solution"), planner
        except NoPathError as e:
            assert "stopped by" not in str(e), planner
    assert budget_mod.ITERATIONS_PER_CHECK >= 2


@pytest.mark.parametrize("key", ["planner_range", "step", "goal_heading", "time_limit"])
def test_an_integer_too_large_for_a_float_is_a_bad_value(key):
    from robomaze.plan.sampling.options import typed_options

    with pytest.raises(ParameterError, match=f"option {key}="):
        typed_options("ompl:rrtstar", {key: 10 ** 400})
