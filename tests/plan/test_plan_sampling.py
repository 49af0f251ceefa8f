"""OMPL planners: the planner contract, exact validity, seeds, budgets, errors."""

import math
import subprocess
import sys

import numpy as np
import pytest
import shapely
from shapely.geometry import LineString, box
from shapely.ops import unary_union

from robomaze import Maze, widen
from robomaze.errors import NoPathError, ParameterError, UnknownNameError
from robomaze.geometry import Footprint, footprint_clearance
from robomaze.plan import PLANNERS, plan
from robomaze.testing import check_planner
from robomaze.plan.sampling import OMPL_PLANNERS, ClearanceLookup, ompl_plan

pytest.importorskip("ompl")

BUDGET = dict(max_checks=20_000, time_limit=600.0)  # a safety net only: the checks are the budget


def _maze():
    return Maze.from_edges(3, 4, [0, 1, 2, 3, 7, 6, 5, 4, 8, 9, 10],
                           [1, 2, 3, 7, 6, 5, 4, 8, 9, 10, 11])


def walls(grid):
    """The occupied squares (and the outside) as one shapely geometry."""
    res = grid.resolution
    rr, cc = np.nonzero(grid.occupied)
    x0 = cc * res
    y0 = (grid.rows - rr - 1) * res
    boxes = shapely.box(x0, y0, x0 + res, y0 + res)
    frame = box(-1, -1, grid.width + 1, grid.height + 1).difference(
        box(0, 0, grid.width, grid.height))
    return unary_union(list(boxes) + [frame])


def shapely_collision_free(grid, footprint, points, headings=None):
    """Independent reference: the footprint swept along the path against shapely walls."""
    w = walls(grid)
    if footprint is None or footprint.kind == "disc":
        r = 0.0 if footprint is None else footprint.radius
        line = LineString(points) if len(points) > 1 else shapely.Point(points[0])
        return line.distance(w) > r + 1e-9
    for (x, y), th in zip(points, headings):
        if footprint.at(x, y, th).distance(w) <= 1e-9:
            return False
    return True


def test_every_ompl_planner_is_registered():
    names = {f"ompl:{n}" for n in OMPL_PLANNERS} | {"ompl:dubins", "ompl:reeds_shepp"}
    assert names <= set(PLANNERS)
    assert {"ompl:rrt_connect", "ompl:rrtstar", "ompl:prmstar", "ompl:bitstar"} <= names


@pytest.mark.parametrize("name", ["rrt_connect", "rrtstar", "bitstar", "kpiece", "prmstar"])
def test_ompl_planners_meet_the_planner_contract(name):
    assert "checks passed" in check_planner(PLANNERS[f"ompl:{name}"], name=name, rng=2, **BUDGET)


@pytest.mark.parametrize("name", ["rrt_connect", "rrtstar", "bitstar"])
@pytest.mark.parametrize("fp", [Footprint.disc(0.12), Footprint.rectangle(0.26, 0.14)],
                         ids=["disc", "rect"])
def test_paths_are_collision_free_against_shapely(name, fp):
    g = widen(_maze(), corridor=5, wall=1, resolution=0.1)
    checks = 20_000 if fp.kind == "disc" else 100_000   # SE(2) needs more samples
    p = plan(g, None, None, method=f"ompl:{name}", footprint=fp, rng=5, max_checks=checks,
             time_limit=600.0)
    assert p.collision_free
    h = p.headings if p.headings is not None else np.zeros(len(p))
    assert shapely_collision_free(g, fp, p.points, h)
    # dense: consecutive key poses at most a quarter cell apart
    assert np.hypot(*np.diff(p.points, axis=0).T).max() <= 0.025 + 1e-9
    # never shorter than the route a grid planner proves optimal minus any-angle gains:
    # at least the straight line, at most 2x the 4-connected optimum
    opt = plan(g, None, None, method="collision_free", footprint=fp).length
    assert math.dist(p.points[0], p.points[-1]) <= p.length <= 2 * opt


def test_lookup_agrees_with_exact_clearance():
    g = widen(_maze(), corridor=5, wall=1, resolution=0.1)
    for fp in (Footprint.disc(0.15), Footprint.rectangle(0.3, 0.16, ref=(0.05, 0.0)), None):
        look = ClearanceLookup(g, fp)
        rng = np.random.default_rng(0)
        poses = rng.uniform([0, 0, -math.pi], [g.width, g.height, math.pi], (3000, 3))
        got = np.array([look.valid(*p) for p in poses])
        want = footprint_clearance(g, fp, poses) > look.margin
        assert (got == want).all()
        lo_hi = np.array([look.clearance_bounds(*p) for p in poses[:500]])
        exact = footprint_clearance(g, fp, poses[:500])
        inside = (lo_hi[:, 0] <= exact + 1e-9) & ((exact <= lo_hi[:, 1] + 1e-9) | (exact == 0))
        assert inside.all()
        assert look.exact < look.checks   # the table settles most states


def test_same_seed_same_path_with_a_check_budget():
    g = widen(_maze(), corridor=5, wall=1, resolution=0.1)
    kw = dict(planner="rrtstar", footprint=Footprint.disc(0.12), max_checks=15000,
              time_limit=600.0)
    a = ompl_plan(g, None, None, rng=11, **kw)
    b = ompl_plan(g, None, None, rng=11, **kw)
    c = ompl_plan(g, None, None, rng=12, **kw)
    assert a.stats["stopped_by"] == "checks"
    assert np.array_equal(a.points, b.points)
    assert not np.array_equal(a.points, c.points)


def test_same_seed_same_path_in_another_process():
    code = ("from robomaze import Maze, widen; from robomaze.geometry import Footprint\n"
            "from robomaze.plan.sampling import ompl_plan\n"
            "g = widen(Maze.from_edges(3, 4, [0,1,2,3,7,6,5,4,8,9,10], "
            "[1,2,3,7,6,5,4,8,9,10,11]), corridor=5, wall=1, resolution=0.1)\n"
            "p = ompl_plan(g, None, None, planner='rrtstar', footprint=Footprint.disc(0.12), "
            "max_checks=15000, time_limit=600.0, rng=11)\n"
            "print(repr(p.points.tolist()))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    g = widen(_maze(), corridor=5, wall=1, resolution=0.1)
    p = ompl_plan(g, None, None, planner="rrtstar", footprint=Footprint.disc(0.12),
                  max_checks=15000, time_limit=600.0, rng=11)
    assert out.strip() == repr(p.points.tolist())


def test_stop_at_first_reports_time_to_first_solution():
    g = widen(_maze(), corridor=5, wall=1, resolution=0.1)
    p = ompl_plan(g, None, None, planner="rrtstar", footprint=Footprint.disc(0.12),
                  stop_at_first=True, rng=1, **BUDGET)
    assert p.stats["stopped_by"] == "solution"
    assert 0 < p.stats["first_solution_s"] <= p.time
    q = ompl_plan(g, None, None, planner="rrtstar", footprint=Footprint.disc(0.12), rng=1,
                  **BUDGET)
    # the optimizing planner refines until its budget; its first solution came on the way
    assert q.stats["stopped_by"] == "checks"
    assert 0 < q.stats["first_solution_checks"] <= q.stats["validity_checks"]


def test_no_path_is_a_timeout_not_a_wrong_path():
    walled = Maze.from_edges(3, 4, [0, 1, 2, 3, 7, 6, 5, 4, 8, 9],
                             [1, 2, 3, 7, 6, 5, 4, 8, 9, 10])
    g = widen(walled, corridor=3, wall=1, resolution=0.1)
    with pytest.raises(NoPathError) as e:
        ompl_plan(g, None, None, planner="rrt_connect", max_checks=3000, rng=1)
    # a sampling planner cannot prove there is no path: it runs out of budget
    # with at best an approximate solution, never an exact one
    assert e.value.reason in ("ompl timeout", "ompl approximate solution")


def test_robot_too_big_for_the_start():
    g = widen(_maze(), corridor=3, wall=1, resolution=0.1)
    with pytest.raises(NoPathError, match="start") as e:
        ompl_plan(g, None, None, footprint=Footprint.disc(0.2), max_checks=1000)
    assert e.value.reason == "start blocked for footprint"


@pytest.mark.parametrize("kw, match", [
    (dict(planner="rrt"), "unknown OMPL planner 'rrt'"),
    (dict(time_limit=0), "time_limit"),
    (dict(max_checks=0), "max_checks"),
    (dict(space="dubin"), "did you mean 'dubins'"),
    (dict(space="dubins"), "turning_radius"),
    (dict(rng=-1), "rng"),
])
def test_bad_options_raise_one_clear_error(kw, match):
    g = widen(_maze(), corridor=3, wall=1, resolution=0.1)
    with pytest.raises((ParameterError, UnknownNameError), match=match):
        ompl_plan(g, None, None, **kw)


def test_robomaze_imports_without_ompl_and_the_planner_says_how_to_install():
    code = ("import sys; sys.modules['ompl'] = None\n"
            "import robomaze, robomaze.plan as P\n"
            "from robomaze import Maze, widen\n"
            "from robomaze.errors import OptionalDependencyError\n"
            "g = widen(Maze.empty(2, 2), corridor=3, wall=1)\n"
            "try:\n    P.plan(g, None, None, method='ompl:rrtstar')\n"
            "except OptionalDependencyError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert "pip install 'robomaze[ompl]'" in out


def test_cusps_count_gear_changes():
    from robomaze.plan.sampling.solve import _reverses

    # forward 2 steps east facing east, then back west still facing east, then forward
    pose = np.array([[0, 0, 0], [0.1, 0, 0], [0.2, 0, 0], [0.1, 0, 0], [0.0, 0, 0],
                     [0.1, 0, 0]], float)
    assert _reverses(pose) == 2
    assert _reverses(pose[:3]) == 0


def test_reeds_shepp_plan_in_open_space_is_collision_free_and_reports_cusps():
    g = widen(_maze(), corridor=9, wall=1, resolution=0.1)
    p = plan(g, None, None, method="ompl:reeds_shepp", footprint=Footprint.rectangle(0.3, 0.16),
             turning_radius=0.3, rng=4, max_checks=60_000, time_limit=600.0)
    assert p.collision_free and p.method == "ompl:reeds_shepp"
    assert p.stats["cusps"] >= 0 and p.stats["validity_checks"] > 0
    h = np.asarray(p.headings)
    assert shapely_collision_free(g, Footprint.rectangle(0.3, 0.16), p.points, h)
