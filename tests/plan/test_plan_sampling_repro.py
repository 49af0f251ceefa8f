"""OMPL planners: same seed and budget, same bytes; work budgets; poses; anytime progress."""

import math
import subprocess
import sys

import numpy as np
import pytest

from robomaze import Maze, widen
from robomaze.cli import main
from robomaze.errors import NoPathError, ParameterError, UnknownNameError
from robomaze.geometry import Footprint
from robomaze.plan import PLANNERS
from robomaze.plan.sampling import (CAR_SPACES, OMPL_PLANNERS, OPTIMIZING, WallClockLimitError,
                                    typed_options, ompl_plan)

pytest.importorskip("ompl")

# every exposed planner, in R² (disc) and SE(2) (rectangle, simplified), and the cars
# (the default turning radius is twice the circumscribed radius: a small car for the U-turn)
CASES = ([(n, "disc:0.1") for n in OMPL_PLANNERS] + [(n, "rect:0.3x0.16") for n in OMPL_PLANNERS]
         + [(c, "rect:0.1x0.06") for c in CAR_SPACES])
BUDGET = 6000
# PRM* needs a larger roadmap to get the rectangle round the U-turn
BUDGETS = {("prmstar", "rect:0.3x0.16"): 12000}


def _grid():
    # a 2x3 maze with one U-turn, corridor 5 at 0.1 m
    return widen(Maze.from_edges(2, 3, [0, 1, 2, 5, 4], [1, 2, 5, 4, 3]), corridor=5, wall=1,
                 resolution=0.1)


def _run(name, fp, rng=7, budget=None, **kw):
    budget = BUDGETS.get((name, fp), BUDGET) if budget is None else budget
    return PLANNERS[f"ompl:{name}"](_grid(), None, None, footprint=Footprint.from_spec(fp),
                                    rng=rng, max_checks=budget, **kw)


def _fingerprint(p):
    return p.poses.tobytes(), p.stats["validity_checks"], p.stats["simplify_checks"]


@pytest.mark.parametrize("name, fp", CASES)
def test_same_seed_and_budget_give_the_same_bytes(name, fp):
    a, b = _run(name, fp), _run(name, fp)
    assert a.collision_free
    assert _fingerprint(a) == _fingerprint(b)
    assert [s[1:] for s in a.stats["progress"]["samples"]] == \
        [s[1:] for s in b.stats["progress"]["samples"]]
    # and the seed matters (the runs above are not the same for want of randomness)
    c = _run(name, fp, rng=8)
    assert c.poses.tobytes() != a.poses.tobytes()


def test_fresh_processes_give_the_same_bytes():
    # the full bytes, not a digest: runs on one machine compared with each other
    code = ("import sys\n"
            "sys.path.insert(0, %r)\n"
            "from test_plan_sampling_repro import CASES, _run\n"
            "for name, fp in CASES:\n"
            "    print(name, fp, _run(name, fp).poses.tobytes().hex())\n"
            % str(__import__("pathlib").Path(__file__).parent))
    outs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True).stdout for _ in range(2)]
    assert outs[0] == outs[1]
    here = "".join(f"{n} {fp} {_run(n, fp).poses.tobytes().hex()}\n"
                   for n, fp in reversed(CASES))   # another order in this process
    assert sorted(here.splitlines()) == sorted(outs[0].splitlines())


@pytest.mark.parametrize("budget", [3000, 9000])
def test_prmstar_stops_on_its_check_budget(budget):
    p = _run("prmstar", "disc:0.1", budget=budget)
    checks = p.stats["validity_checks"]
    # a milestone's connections are checked before the condition is seen again:
    # the overshoot is one milestone's attempts (measured: <= 300 checks here)
    assert budget <= checks <= budget + 600, checks
    assert p.stats["stopped_by"] == "checks"


def test_optimizing_planners_spend_their_budget_and_stop_there():
    for name in sorted(OPTIMIZING - {"prmstar"}):
        p = _run(name, "disc:0.1")
        # one iteration's checks past the budget at most
        assert BUDGET <= p.stats["validity_checks"] <= BUDGET + 200, name
        assert p.stats["stopped_by"] == "checks"


def test_the_wall_clock_safety_net_raises_instead_of_returning_a_path():
    with pytest.raises(WallClockLimitError, match="time_limit=1e-09 s fired after") as e:
        _run("rrtstar", "disc:0.1", time_limit=1e-9)
    assert e.value.checks < BUDGET
    assert not isinstance(e.value, NoPathError)   # not a planning result
    assert isinstance(e.value, TimeoutError)
    # without a check budget the clock is the budget, and the path says so
    p = ompl_plan(_grid(), None, None, planner="rrtstar", footprint=Footprint.disc(0.1),
                  rng=1, max_checks=None, time_limit=0.2)
    assert p.stats["stopped_by"] == "time" and p.stats["budget_checks"] is None


def test_poses_are_the_continuous_path_in_metres():
    g = _grid()
    for fp in ("disc:0.1", "rect:0.3x0.16"):
        p = _run("rrtstar", fp)
        poses = p.poses
        assert poses.shape == (len(p), 3) and poses.dtype == np.float64
        # not snapped to cell centres: the fractional cell offsets vary
        u = (poses[:, 0] - g.origin[0]) / g.resolution % 1.0
        assert np.ptp(u) > 0.1
        # length recomputed from the poses alone is the path's length
        seg = np.hypot(*np.diff(poses[:, :2], axis=0).T)
        assert seg.sum() == pytest.approx(p.length, abs=1e-12)
        # motions are checked every quarter cell: consecutive poses no further apart
        assert seg.max() <= 0.25 * g.resolution + 1e-9
        if fp.startswith("rect"):
            assert np.array_equal(poses[:, 2], p.headings)


@pytest.mark.parametrize("name", sorted(OMPL_PLANNERS))
def test_progress_is_a_falling_best_cost_within_the_budget(name):
    p = _run(name, "disc:0.1")
    s = np.array(p.stats["progress"]["samples"], float)
    assert p.stats["progress"]["properties"] == ["time REAL", "best cost REAL",
                                                 "validity checks INTEGER"]
    assert len(s) >= 1
    assert np.all(np.diff(s[:, 1]) < 0)          # each sample improves the best cost
    assert np.all(np.diff(s[:, 0]) > 0) and np.all(np.diff(s[:, 2]) >= 0)
    assert s[-1, 2] <= p.stats["validity_checks"]
    assert p.stats["first_solution_checks"] == s[0, 2]
    assert p.stats["best_cost"] == s[-1, 1]
    # the best cost is OMPL's length of the path before simplification, which only shortens
    assert p.length <= s[-1, 1] + 1e-9
    # no shorter than the straight line between the ends
    ends = p.points[[0, -1]]
    assert s[-1, 1] >= np.hypot(*(ends[1] - ends[0])) - 1e-9
    if name in OPTIMIZING:
        longer = _run(name, "disc:0.1", budget=4 * BUDGET)
        assert longer.stats["best_cost"] <= p.stats["best_cost"] + 1e-12 or name == "prmstar"


def test_prmstar_route_is_the_shortest_in_its_roadmap():
    # the driver's Dijkstra route, checked against a plain-Python Dijkstra on the same roadmap
    import heapq

    from ompl import base as ob, geometric as og, util as ou

    sp = ob.RealVectorStateSpace(2)
    b = ob.RealVectorBounds(2)
    b.setLow(0.0)
    b.setHigh(1.0)
    sp.setBounds(b)
    ss = og.SimpleSetup(sp)
    ss.setStateValidityChecker(lambda s: not (0.4 < s[0] < 0.6 and s[1] < 0.8))
    st, gl = sp.allocState(), sp.allocState()
    st[0], st[1], gl[0], gl[1] = 0.1, 0.1, 0.9, 0.1
    ss.setStartAndGoalStates(st, gl)
    ou.setLogLevel(ou.LogLevel.LOG_NONE)
    ou.RNG.setSeed(5)
    pl = og.PRMstar(ss.getSpaceInformation())
    ss.setPlanner(pl)
    ss.setup()
    ss.solve(ob.plannerAlwaysTerminatingCondition())
    n = [0]

    def stop():
        n[0] += 1
        return n[0] > 300
    pl.growRoadmapPtc(ob.PlannerTerminationCondition(stop))
    from robomaze.plan.sampling.prm import roadmap_route

    cost, states, pd = roadmap_route(ob, ss.getSpaceInformation(), pl, headed=False, car=False)
    xy = [(pd.getVertex(i).getState()[0], pd.getVertex(i).getState()[1])
          for i in range(pd.numVertices())]
    s0, g0 = pd.getStartIndex(0), pd.getGoalIndex(0)
    dist = {s0: 0.0}
    heap = [(0.0, s0)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist.get(u, math.inf):
            continue
        for v in pd.getEdges(u):
            nd = d + math.dist(xy[u], xy[v])
            if nd < dist.get(v, math.inf):
                dist[v] = nd
                heapq.heappush(heap, (nd, v))
    assert cost == pytest.approx(dist[g0], rel=1e-12)
    route = [(s[0], s[1]) for s in states]
    assert route[0] == xy[s0] and route[-1] == xy[g0]
    assert sum(math.dist(a, b) for a, b in zip(route, route[1:])) == pytest.approx(cost)


@pytest.mark.parametrize("options, match", [
    ({"max_check": 10}, r"unknown option 'max_check' for ompl:rrtstar \(did you mean "
                        r"'max_checks'\?\); accepted: goal_heading, max_checks, "),
    ({"max_checks": 0}, r"option max_checks=0 for ompl:rrtstar: expected an integer >= 1"),
    ({"simplify": "maybe"}, r"option simplify='maybe' for ompl:rrtstar: expected true/false"),
    ({"space": "dubin"}, r"option space='dubin' for ompl:rrtstar: expected one of: dubins"),
    ({"max_checks": "none"}, r"max_checks=none needs a time_limit"),
    ({"planner": "rrt"}, r"unknown option 'planner' for ompl:rrtstar"),
])
def test_option_typos_are_one_clear_error(options, match):
    with pytest.raises(ParameterError, match=match):
        typed_options("ompl:rrtstar", options)


def test_typed_options_normalises_and_knows_the_car_planners():
    assert typed_options("ompl:dubins", {"planner": "rrtstar", "turning_radius": "0.3",
                                         "time_limit": "none", "simplify": "false"}) == \
        {"planner": "rrtstar", "turning_radius": 0.3, "time_limit": None, "simplify": False}
    with pytest.raises(ParameterError, match="option planner='rrt' for ompl:dubins"):
        typed_options("ompl:dubins", {"planner": "rrt"})
    with pytest.raises(UnknownNameError, match="ompl:rrtstr"):
        typed_options("ompl:rrtstr", {})


def test_cli_option_typo_is_one_line_and_exit_2_before_the_maze_is_built(capsys, monkeypatch):
    from robomaze.world import WorldSpec

    def no_maze(*a, **k):
        raise AssertionError("the maze was built before the options were checked")
    monkeypatch.setattr(WorldSpec, "build_source", no_maze)   # every world is built here
    rc = main(["plan", "kruskal", "4x4", "--seed", "1", "--method", "ompl:rrtstar",
               "--option", "max_check=10"])
    err = capsys.readouterr().err
    assert rc == 2
    assert err.count("\n") == 1 and "unknown option 'max_check' for ompl:rrtstar" in err
    assert "accepted: goal_heading, max_checks" in err
