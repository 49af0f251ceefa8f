"""OMPL benchmark logs load with OMPL's own ompl_benchmark_statistics.py (Planner Arena)."""

import sqlite3
import subprocess
import sys

import pytest

from robomaze.bench import parse_sweep, run_sweep
from robomaze.bench.store import read_rows
from robomaze.io.ompl_log import STATUS_NAMES, ompl_status, write_ompl_logs

pytest.importorskip("ompl")


def test_status_names_are_ompls_own():
    from ompl import base as ob

    T = ob.PlannerStatus.PlannerStatusType
    for code in range(8):   # codes 8, 9 print as "Unknown status" in the 2.0.1 bindings
        assert ob.PlannerStatus(T(code)).asString() == STATUS_NAMES[code]
    assert T.EXACT_SOLUTION.value == 6 and T.ABORT.value == 8 and T.INFEASIBLE.value == 9


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    out = tmp_path_factory.mktemp("ompl_sweep")
    sweep = parse_sweep({
        "name": "ompl-log", "seed": [1, 3],   # kruskal mazes where the big disc fits the start
        "maze": {"generator": "kruskal", "rows": 3, "cols": 3},
        "widen": {"corridor": 3, "wall": 1, "resolution": 0.1},
        "robot": {"footprint": ["disc:0.04", "disc:0.2"]},   # the second does not fit
        "run": {"planner": ["astar", "ompl:rrt_connect", "ompl:bitstar"], "time_limit": 60.0,
                "options": {"ompl:rrt_connect": {"max_checks": 20000, "time_limit": 20.0},
                            "ompl:bitstar": {"max_checks": 8000, "time_limit": 20.0}}},
    })
    run_sweep(sweep.scenarios, out, workers=1, progress=False)
    rows = read_rows(out)
    logs = write_ompl_logs(rows, out / "ompl")
    db = out / "bench.db"
    subprocess.run([sys.executable, "-m", "ompl.ompl_benchmark_statistics", "-d", str(db),
                    *[str(p) for p in logs.values()]], check=True, capture_output=True)
    return rows, db


def test_planner_arena_database_has_ompl_planners_side_by_side(swept):
    rows, db = swept
    con = sqlite3.connect(db)
    names = {n for (n,) in con.execute("SELECT name FROM plannerConfigs")}
    assert names == {"plan_astar", "plan_ompl:rrt_connect", "plan_ompl:bitstar"}
    exps = {n for (n,) in con.execute("SELECT name FROM experiments")}
    assert exps == {"robomaze_corridor3_disc-0.04", "robomaze_corridor3_disc-0.2"}
    assert con.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == len(rows) == 12
    enum = dict(con.execute("SELECT value, description FROM enums WHERE name='status'"))
    assert enum[6] == "Exact solution" and enum[4] == "Timeout" and enum[9] == "Infeasible"
    # the view Planner Arena ranks planners by exists and covers all three
    best = con.execute("SELECT COUNT(*) FROM bestPlannerConfigs").fetchone()[0]
    assert best == 3


def test_rows_match_the_database(swept):
    rows, db = swept
    con = sqlite3.connect(db)
    got = con.execute(
        "SELECT p.name, e.footprint, r.seed, r.solved, r.status, r.solution_length "
        "FROM runs r JOIN plannerConfigs p ON r.plannerid = p.id "
        "JOIN experiments e ON r.experimentid = e.id").fetchall()
    want = {(f"plan_{r['method']}", r["footprint"], r["seed"]): r for r in rows}
    assert len(got) == len(want)
    for name, fp, seed, solved, status, length in got:
        r = want[(name, fp, seed)]
        assert solved == int(r["success"])
        assert status == ompl_status(r)
        if solved:
            assert status == 6 and length == pytest.approx(r["metrics"]["length_m"])
        else:
            assert length is None     # a failed run carries no length
    # the big disc: A* proves infeasibility (9), OMPL cannot place the start (1)
    big = {(n, s) for n, fp, _, _, s, _ in got if fp == "disc:0.2"}
    assert big == {("plan_astar", 9), ("plan_ompl:rrt_connect", 1), ("plan_ompl:bitstar", 1)}
    small = {s for _, fp, _, _, s, _ in got if fp == "disc:0.04"}
    assert small == {6}


def _progress_rows():
    """Rows as the bench writes them, carrying the planners' own progress."""
    from robomaze import Maze, widen
    from robomaze.geometry import Footprint
    from robomaze.plan.sampling import ompl_plan

    g = widen(Maze.from_edges(2, 3, [0, 1, 2, 5, 4], [1, 2, 5, 4, 3]), corridor=5, wall=1,
              resolution=0.1)
    rows = []
    for planner in ("rrtstar", "prmstar", "rrt_connect"):
        for seed in (1, 2):
            p = ompl_plan(g, None, None, planner=planner, footprint=Footprint.disc(0.1),
                          rng=seed, max_checks=6000)
            rows.append({"id": f"{planner}-{seed}", "kind": "plan", "method": f"ompl:{planner}",
                         "corridor": 5, "wall": 1, "resolution": 0.1, "footprint": "disc:0.1",
                         "seed": seed, "success": True, "status": "ok",
                         "metrics": {"length_m": p.length, **{k: v for k, v in p.stats.items()
                                                              if k != "progress"}},
                         "timings": {"compute_s": p.time, "total_s": p.time},
                         "scenario": {"run": {"time_limit": 60.0}},
                         "progress": p.stats["progress"]})
    # a grid planner's row has no progress: its planner gets no progress block
    rows.append({**rows[0], "id": "astar-1", "method": "astar", "progress": None})
    return rows


def test_progress_fills_planner_arenas_progress_table(tmp_path):
    from robomaze.io.ompl_log import PROGRESS_PROPERTIES, read_progress
    from robomaze.plan.sampling import PROGRESS_PROPERTIES as FROM_PLANNERS

    assert PROGRESS_PROPERTIES == FROM_PLANNERS
    rows = _progress_rows()
    logs = write_ompl_logs(rows, tmp_path / "ompl")
    db = tmp_path / "bench.db"
    subprocess.run([sys.executable, "-m", "ompl.ompl_benchmark_statistics", "-d", str(db),
                    *[str(p) for p in logs.values()]], check=True, capture_output=True)
    con = sqlite3.connect(db)
    cols = [c[1] for c in con.execute("PRAGMA table_info(progress)")]
    assert cols == ["runid", "time", "best_cost", "validity_checks"]
    got = con.execute("SELECT p.name, r.seed, g.time, g.best_cost, g.validity_checks "
                      "FROM progress g JOIN runs r ON g.runid = r.id "
                      "JOIN plannerConfigs p ON r.plannerid = p.id "
                      "ORDER BY p.name, r.seed, g.time").fetchall()
    want = sorted((f"plan_{r['method']}", r["seed"], *s) for r in rows if r["progress"]
                  for s in r["progress"]["samples"])
    assert len(got) == len(want) > len(rows)   # the optimizing planners improve more than once
    for g_, w in zip(got, want):
        assert g_[:2] == w[:2] and g_[2] == pytest.approx(w[2], rel=1e-12)
        assert g_[3] == pytest.approx(w[3], rel=1e-12) and g_[4] == w[4]
    # our reader follows the script's rules: the same samples
    parsed = read_progress(next(iter(logs.values())))
    assert set(parsed) == {"plan_ompl:rrtstar", "plan_ompl:prmstar", "plan_ompl:rrt_connect"}
    assert sum(len(run) for runs in parsed.values() for run in runs) == len(got)
    # the runs table is unchanged by the progress block: one row per run
    assert con.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == len(rows)


def test_progress_times_are_strictly_increasing_in_the_log(tmp_path):
    from robomaze.io.ompl_log import read_progress

    row = {**_progress_rows()[0], "progress": {"samples": [[0.1, 3.0, 10], [0.1, 2.9, 12],
                                                           [0.05, 2.8, 14], [0.2, 2.7, 20]]}}
    log = next(iter(write_ompl_logs([row], tmp_path).values()))
    assert read_progress(log) == {"plan_ompl:rrtstar": [[["0.1", "2.9", "12"],
                                                         ["0.2", "2.7", "20"]]]}


def test_runs_carry_the_reproducible_work_to_the_first_solution(tmp_path):
    rows = _progress_rows()
    logs = write_ompl_logs(rows, tmp_path / "ompl")
    db = tmp_path / "bench.db"
    subprocess.run([sys.executable, "-m", "ompl.ompl_benchmark_statistics", "-d", str(db),
                    *[str(p) for p in logs.values()]], check=True, capture_output=True)
    con = sqlite3.connect(db)
    got = sorted(con.execute("SELECT p.name, r.seed, r.validity_checks_to_first_solution, "
                             "r.best_cost FROM runs r JOIN plannerConfigs p "
                             "ON r.plannerid = p.id"))
    want = sorted((f"plan_{r['method']}", r["seed"], r["metrics"]["first_solution_checks"],
                   r["metrics"]["best_cost"]) for r in rows)
    assert [g[:3] for g in got] == [w[:3] for w in want]
    assert [g[3] for g in got] == pytest.approx([w[3] for w in want], rel=1e-12)
