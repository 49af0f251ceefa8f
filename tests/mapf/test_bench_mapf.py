"""The mapf run kind: a sweep's rows carry validated plans and the report draws
the success figures."""

import pytest

from robomaze.bench.mapf import mapf_section, mapf_tables
from robomaze.bench.run import run_scenario
from robomaze.bench.scenario import parse_sweep
from robomaze.errors import ScenarioError
from robomaze.mapf import maze_instance, solve

SWEEP = {"seed": [3], "maze": {"generator": "kruskal", "rows": 5, "cols": 5},
         "widen": {"corridor": [2, 3]},
         "run": {"mapf": ["cbs", "lacam"], "agents": [4, 12], "bucket": "random",
                 "max_work": 20000}}


def test_sweep_rows(tmp_path):
    sweep = parse_sweep(SWEEP)
    assert len(sweep.scenarios) == 8
    assert {s.kind for s in sweep.scenarios} == {"mapf"}
    rows = [run_scenario(s) for s in sweep.scenarios]
    for r in rows:
        m = r["metrics"]
        assert r["kind"] == "mapf" and m["agents"] in (4, 12)
        if r["success"]:
            assert m["soc"] >= m["sum_of_distances"] and m["suboptimality"] >= 1.0
    # CBS's row agrees with CBS run directly on the same instance (same seed, same agents)
    cbs = [r for r in rows if r["method"] == "cbs" and r["metrics"]["agents"] == 4
           and r["corridor"] == 2][0]
    from robomaze.mapf import random_instance
    from robomaze.world import WorldSpec

    g = WorldSpec(generator="kruskal", rows=5, cols=5, corridor=2, seed=3).build().grid
    direct = solve(random_instance(g.occupied, 4, seed=3), "cbs")
    assert cbs["success"] and cbs["metrics"]["soc"] == direct.soc
    t = mapf_tables(rows)
    assert t["agents"][("cbs", 4)] == (2, 2)
    md, figs = mapf_section(rows, tmp_path, tmp_path / "figures")
    assert "## Multi-agent path finding" in md and "| cbs | 4 |" in md
    assert {p.name for p in figs.values()} == {"mapf_success_agents.png",
                                                "mapf_success_corridor.png"}
    assert all(p.stat().st_size > 1000 for p in figs.values())


def test_sweep_rejects_unknown_solver_and_bucket():
    bad = {**SWEEP, "run": {**SWEEP["run"], "mapf": ["lacma"]}}
    with pytest.raises(ScenarioError, match="unknown mapf 'lacma'"):
        parse_sweep(bad)
    bad = {**SWEEP, "run": {**SWEEP["run"], "bucket": "uneven"}}
    with pytest.raises(ScenarioError, match="run.bucket"):
        parse_sweep(bad)


def test_mapf_keys_leave_other_runs_ids_alone():
    base = {"maze": {"generator": "prim", "rows": 3, "cols": 3},
            "robot": {"footprint": "disc:0.2"}, "run": {"planner": ["astar"]}}
    a = parse_sweep(base, check_names=False).scenarios[0]
    b = parse_sweep({**base, "run": {"planner": ["astar"], "mapf": ["cbs"], "agents": 5}},
                    check_names=False).scenarios
    astar = [s for s in b if s.kind == "plan"][0]
    assert astar.id == a.id
