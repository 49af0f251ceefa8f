"""The fork server warms up only what the sweep runs (cached fixed cost)."""

import os
import subprocess
import sys

import pytest

from robomaze.bench.runner import WARM_ENV, _warm_list
from robomaze.bench.scenario import parse_sweep

SWEEP = {
    "name": "w", "seed": 1,
    "maze": {"generator": "kruskal", "rows": 3, "cols": 3},
    "widen": {"corridor": 3, "resolution": 0.1},
    "robot": {"footprint": ["disc:0.04", "rect:0.1x0.06"], "sensor": "ir"},
    "run": {"planner": ["astar"], "agent": ["explore"]},
}


def test_warm_list_names_the_sweeps_methods_shapes_and_sensor():
    sweep = parse_sweep(SWEEP, source="w.toml")
    assert _warm_list(sweep.scenarios) == (
        "generate:kruskal,plan:astar,sensor:ir,shape:disc,shape:rectangle,simulate:explore")


def test_warm_module_reads_the_list_and_warms_only_those():
    code = ("import robomaze.bench._warmup as w; p, a, s, n, g, m, l = w._wanted(); "
            "print(sorted(p), sorted(a), sorted(s), sorted(n), sorted(g), sorted(m), sorted(l), "
            "w._tasks(w._wanted()))")
    env = dict(os.environ, **{WARM_ENV: "plan:astar,simulate:explore,shape:disc,sensor:ir,"
                                        "generate:wilson,mouse:tremaux,localize:mcl"})
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=600, check=True).stdout
    assert out.strip() == ("['astar'] ['explore'] ['disc'] ['ir'] ['wilson'] ['tremaux'] ['mcl'] "
                           "['plan:astar', 'simulate', 'sense', 'common', 'figures', 'heap', 'metrics', "
                           "'localize', 'mouse', 'generate:wilson']")


def test_warm_list_names_the_mice_and_localizers_a_sweep_uses():
    spec = {**SWEEP, "robot": {**SWEEP["robot"], "localize": ["none", "mcl"]},
            "run": {**SWEEP["run"], "mouse": ["floodfill"]}}
    sweep = parse_sweep(spec, source="w.toml")
    items = _warm_list(sweep.scenarios).split(",")
    assert "mouse:floodfill" in items and "localize:mcl" in items


def _warm_up(folder, name, processes):
    """A cold warm-up in a fresh process: its STATS and stderr."""
    import json

    env = dict(os.environ, NUMBA_CACHE_DIR=str(folder / name), ROBOMAZE_COMPILE_NOTICE="1",
               ROBOMAZE_WARM_PROCESSES=str(processes),
               **{WARM_ENV: "plan:astar,plan:wall_follower,simulate:wall_follow,"
                            "sensor:ir,shape:disc"})
    proc = subprocess.run([sys.executable, "-c", "import json, robomaze.bench._warm as w; "
                           "print(json.dumps(w.STATS))"], env=env,
                          timeout=600, check=True, capture_output=True, text=True)
    return json.loads(proc.stdout), proc.stderr


@pytest.fixture(scope="module")
def cold_shared(tmp_path_factory):
    """One cold warm-up on two processes (cache folder ``shared``): the two tests
    below need the same cold start, which compiles for tens of seconds."""
    folder = tmp_path_factory.mktemp("warm")
    stats, err = _warm_up(folder, "shared", 2)
    return folder, stats, err


def test_a_cold_warm_up_shares_its_compiles_with_a_helper(tmp_path, cold_shared):
    """With a cold cache a helper process compiles part of the tasks into the
    disk cache, and the server loads those kernels instead of compiling them."""
    alone, _ = _warm_up(tmp_path, "alone", 1)
    _, shared, err = cold_shared
    assert alone["processes"] == 1 and alone["compiled_helpers"] == 0
    assert shared["processes"] == 2
    assert shared["compiled_helpers"] > 0
    assert 0 < shared["compiled_here"] < alone["compiled_here"]
    total = shared["compiled_here"] + shared["compiled_helpers"]
    assert f"compiled {total} kernel(s)" in err and "on 2 processes" in err


def test_a_warm_cache_starts_no_helper(cold_shared):
    folder, first, _ = cold_shared
    again, err = _warm_up(folder, "shared", 2)
    assert first["processes"] == 2
    assert again == {**again, "processes": 1, "compiled_here": 0, "compiled_helpers": 0}
    assert "compil" not in err


def test_tasks_wait_for_the_tasks_that_compile_their_shared_kernels():
    from robomaze.bench import _warmup as w

    tasks = ["plan:dijkstra", "simulate", "plan:max_clearance", "common", "heap", "metrics",
             "plan:theta_star", "generate:kruskal", "generate:wilson"]
    order = w._order(tasks)
    # everything planned waits for them: the longest chains (the server takes
    # "common" first anyway, robomaze.bench._warmup.serve)
    assert set(order[:2]) == {"common", "heap"}
    # the agents' clearance at points compiles in "common" (round 13): they
    # no longer wait for the metrics' chain behind theta_star
    assert w._needs("simulate", tasks) == ("common", "heap", "plan:max_clearance")
    assert w._needs("metrics", tasks) == ("common", "heap", "plan:theta_star")
    assert w._needs("generate:kruskal", tasks) == ()
    assert w._needs("plan:dijkstra", ["plan:dijkstra"]) == ()  # absent tasks are not awaited
    # a task that waits for "common" measures what it plans: it waits for the figures too
    with_figures = tasks + ["figures"]
    assert w._needs("plan:dijkstra", with_figures) == ("common", "heap", "figures")
    assert w._needs("figures", with_figures) == () and w._needs("common", with_figures) == ()
    # a task comes after every task it waits for
    for t in tasks:
        assert all(order.index(n) < order.index(t) for n in w._needs(t, tasks))


def test_the_field_task_loads_the_wave_that_open_grids_use():
    # an open grid's field takes the level-by-level wave inside the labelled
    # field kernel (issue 40's dispatch), which the warm-up maze's field must
    # load too: without it, the first such run in a worker loaded it from the
    # cache inside its compute time; and an open grid's field adds no overload
    code = ("import numpy as np; import robomaze.bench._warmup as w; "
            "from robomaze import _search; from robomaze.grid import OccupancyGrid; "
            "from robomaze.plan import wavefront_field; "
            "w._run('field', w._Context(None), False); "
            "n = len(_search._labelled_field.overloads); "
            "wavefront_field(OccupancyGrid(np.zeros((30, 30), bool)), (3, 3)); "
            "print(n, len(_search._labelled_field.overloads))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.split()[-2:] == ["1", "1"]


def test_searches_sharing_a_compiled_engine_wait_for_the_one_that_compiles_it():
    # round 9: Theta* and max_clearance share one specialisation of the engine's
    # _expand, A* and collision_free (a disc) the 4-connected A*: run in two
    # processes at once, both would compile it
    from robomaze.bench import _warmup as w

    tasks = ["common", "figures", "heap", "plan:theta_star", "plan:max_clearance",
             "plan:astar", "plan:collision_free"]
    assert "plan:theta_star" in w._needs("plan:max_clearance", tasks)
    assert "plan:collision_free" in w._needs("plan:astar", tasks)
    order = w._order(tasks)
    assert order.index("plan:theta_star") < order.index("plan:max_clearance")
    assert order.index("plan:collision_free") < order.index("plan:astar")
    # neither waits for a task the sweep does not run
    assert w._needs("plan:max_clearance", ["common", "plan:max_clearance"]) == ("common",)


def test_the_wave_field_is_a_task_only_the_tasks_calling_it_wait_for():
    # round 10: the clearance ("common") and the wave field ("field") apart, so
    # that A* does not wait for a field it never computes
    import robomaze.bench._warmup as w

    small = w._tasks((set(["astar", "wavefront"]), set(), {"disc"}, set(), set(), set(), set()))
    assert "field" in small
    assert "field" in w._needs("plan:wavefront", small)
    assert "field" not in w._needs("plan:astar", small)
    assert "field" not in w._tasks((set(["astar"]), set(), {"disc"}, set(), set(), set(), set()))
    full = w._tasks(None)
    assert "field" in w._needs("plan:collision_free", full)


def test_the_eight_connected_field_is_warmed_only_for_the_tasks_that_need_it():
    # "heap" (the bucket-ring field) waits in no task of an astar + wavefront
    # sweep: the bench command's small sweep compiled it for nothing
    import robomaze.bench._warmup as w

    small = (set(["astar", "wavefront"]), set(), {"disc"}, set(), {"kruskal"}, set(), set())
    assert "heap" not in w._tasks(small)
    for planners, agents in ((["dijkstra"], set()), (["theta_star"], set()),
                             (["astar"], {"explore"})):
        tasks = w._tasks((set(planners), agents, {"disc"}, set(), set(), set(), set()))
        assert "heap" in tasks and tasks.index("heap") < tasks.index("metrics")


def test_a_task_without_the_task_it_shares_kernels_with_counts_its_own_compile():
    # plan:astar waits for collision_free (a disc's search is its 4-connected A*);
    # without it the A* compiles there, so it goes before the short tasks
    import robomaze.bench._warmup as w

    small = w._tasks((set(["astar", "wavefront"]), set(), {"disc"}, set(), {"kruskal"},
                      set(), set()))
    assert w._cost("plan:astar", small) > w._cost("plan:wavefront", small)
    order = w._order(small)
    assert order.index("plan:astar") < order.index("plan:wavefront")
    both = ["common", "figures", "plan:astar", "plan:collision_free"]
    assert w._cost("plan:astar", both) < w._cost("plan:wavefront", both + ["plan:wavefront"])


def test_the_server_claims_common_first_and_metrics_as_soon_as_it_can_start(monkeypatch):
    # until the metrics' kernels are here no task is measured (round 13: left
    # to its chain, "metrics" came last and its re-runs were the tail)
    import robomaze.bench._warmup as w
    from robomaze import _compile

    monkeypatch.setenv("ROBOMAZE_WARM", "plan:astar,plan:theta_star,shape:disc,generate:kruskal,"
                                        "simulate:explore")
    seen = {}

    def fake_warm(ordered, run, **kw):
        seen["order"] = list(ordered)
        seen["needs"] = {t: tuple(kw["needs"](t)) for t in ordered}
        return {"processes": 1, "errors": []}

    monkeypatch.setattr(_compile, "warm", fake_warm)
    monkeypatch.setattr(w, "_settle", lambda fork_server: None)
    monkeypatch.setattr(w, "_run", lambda task, ctx, metrics: None)  # nothing compiles
    w.serve()
    order = seen["order"]
    assert order[:2] == ["common", "metrics"]
    assert sorted(order) == sorted(w._tasks(w._wanted()))
    # the agents wait for the clearance at points in "common", not for "metrics"
    assert "metrics" not in seen["needs"]["simulate"] and "common" in seen["needs"]["simulate"]


def test_the_big_blocks_are_split_into_tasks_that_can_run_side_by_side():
    # round 14: the agents' scans ("sense"), the heading search of the shapes
    # that are not discs ("shapes") and the dead-end filling are tasks of
    # their own, so that two processes end together
    import robomaze.bench._warmup as w

    full = w._tasks(None)
    assert {"sense", "shapes", "plan:dead_end_filling", "classic"} <= set(full)
    assert "sense" in w._needs("simulate", full) and w._needs("sense", full) == ()
    assert "classic" in w._needs("plan:dead_end_filling", full)
    # the disc's search and the shapes' share no kernel: neither waits for the other
    assert "plan:collision_free" not in w._needs("shapes", full)
    assert "shapes" not in w._needs("plan:collision_free", full)
    assert "field" in w._needs("shapes", full)
    # without a shape other than the disc, or without agents, no such task
    discs = w._tasks(({"collision_free"}, {"explore"}, {"disc"}, {"lidar"}, set(), set(), set()))
    assert "shapes" not in discs and "sense" in discs
    planners = w._tasks(({"collision_free"}, set(), {"disc", "rectangle"}, set(), set(), set(),
                         set()))
    assert "shapes" in planners and "sense" not in planners
    # the filling alone compiles the route search "classic" shares with it
    alone = w._tasks(({"dead_end_filling"}, set(), {"disc"}, set(), set(), set(), set()))
    assert "classic" not in alone
    assert w._cost("plan:dead_end_filling", alone) > w._cost("plan:dead_end_filling", full)


def test_collision_free_warms_the_disc_and_shapes_the_other_footprints(monkeypatch):
    import robomaze.bench._warmup as w

    seen = []
    monkeypatch.setattr(w, "_plan", lambda ctx, names, metrics, footprints=None: seen.append(
        (tuple(names), tuple(f.kind for f in (ctx.footprints if footprints is None
                                              else footprints)))))
    ctx = w._Context(None)
    w._run("plan:collision_free", ctx, False)
    w._run("shapes", ctx, False)
    w._run("plan:astar", ctx, False)
    assert seen == [(("collision_free",), ("disc",)), (("collision_free",), ("rectangle",)),
                    (("astar",), ("disc", "rectangle"))]


def test_the_split_tasks_compile_what_the_tasks_after_them_call(tmp_path):
    # "sense" compiles the scans every agent reads (the same specialisations:
    # "simulate" then compiles none of them); "shapes" compiles no kernel of
    # the disc's 4-connected A*, which "plan:collision_free" compiles alone
    code = (
        "import robomaze.bench._warmup as w; from robomaze.sense import _kernels as s; "
        "from robomaze._search import _engine as e, _bins as b; "
        "ctx = w._Context(w._wanted()); n = lambda f: len(f.overloads); "
        "w._run('sense', ctx, False); a = (n(s.scan_rows), n(s.mark_scan)); "
        "w._run('simulate', ctx, False); c = (n(s.scan_rows), n(s.mark_scan)); "
        "w._run('shapes', ctx, False); d = (n(e._astar4), n(b._expand_cells)); "
        "w._run('plan:collision_free', ctx, False); f = (n(e._astar4), n(b._expand_cells)); "
        "print(a, c, d, f)")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), ROBOMAZE_SHIPPED_KERNELS="0",
               **{WARM_ENV: "plan:collision_free,simulate:explore,simulate:wall_follow,"
                            "sensor:lidar,shape:disc,shape:rectangle"})
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True, timeout=600)
    assert out.stdout.split("\n")[-2] == "(1, 1) (1, 1) (0, 1) (1, 1)"
