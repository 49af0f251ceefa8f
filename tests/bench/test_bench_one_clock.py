"""A sweep's OMPL rows on one clock, checked through OMPL's own statistics script:
no progress sample past its run's time, no first solution after it, every
declared planner parameter in Planner Arena's plannerConfigs."""

import sqlite3
import subprocess
import sys

import pytest

from robomaze.bench import parse_sweep, run_sweep
from robomaze.bench.store import read_rows
from robomaze.io.ompl_log import write_ompl_logs
from robomaze.plan.sampling.params import DECLARED

pytest.importorskip("ompl")


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    out = tmp_path_factory.mktemp("clock")
    sweep = parse_sweep({
        "name": "clock", "seed": [1, 2],
        "maze": {"generator": "kruskal", "rows": 3, "cols": 3},
        "widen": {"corridor": 5, "wall": 1, "resolution": 0.1},
        "robot": {"footprint": ["disc:0.1", "rect:0.3x0.18"]},
        "run": {"planner": ["ompl:rrtstar", "ompl:bitstar", "ompl:rrt_connect"],
                "time_limit": 60.0,
                "options": {"ompl:rrtstar": {"max_checks": 6000},
                            "ompl:bitstar": {"max_checks": 6000},
                            "ompl:rrt_connect": {"max_checks": 20000}}},
    })
    run_sweep(sweep.scenarios, out, workers=1, progress=False)
    rows = read_rows(out)
    logs = write_ompl_logs(rows, out / "ompl")
    db = out / "bench.db"
    subprocess.run([sys.executable, "-m", "ompl.ompl_benchmark_statistics", "-d", str(db),
                    *[str(p) for p in logs.values()]], check=True, capture_output=True)
    return rows, sqlite3.connect(db)


def test_first_solution_within_the_runs_cpu_time(swept):
    rows, _ = swept
    solved = [r for r in rows if r["metrics"].get("first_solution_s") is not None]
    assert len(solved) >= 6
    for r in solved:
        assert r["metrics"]["first_solution_s"] <= r["timings"]["compute_s"]
        assert all(s[0] <= r["timings"]["compute_s"] for s in r["progress"]["samples"])


def test_planner_arena_database_has_no_sample_past_its_run(swept):
    _, con = swept
    late = con.execute("SELECT COUNT(*) FROM progress g JOIN runs r ON g.runid = r.id "
                       "WHERE g.time > r.time").fetchone()[0]
    first = con.execute("SELECT COUNT(*) FROM runs WHERE time_to_first_solution > time"
                        ).fetchone()[0]
    total = con.execute("SELECT COUNT(*) FROM progress").fetchone()[0]
    assert total > 0 and late == 0 and first == 0


def test_planner_configs_carry_every_declared_parameter(swept):
    rows, con = swept
    settings = dict(con.execute("SELECT name, settings FROM plannerConfigs"))
    for name in ("rrtstar", "bitstar", "rrt_connect"):
        text = settings[f"plan_ompl:{name}"]
        for param in DECLARED[name]:
            assert f"{param} = " in text, (name, param)
    for r in rows:
        if r["success"]:
            assert set(DECLARED[r["method"][5:]]) <= set(r["params"])
