"""The localize sweep axis: canonical specs, stable ids, rows and the report section."""

import json

import pytest

from robomaze.bench.report_localize import localize_groups, localize_section
from robomaze.bench.run import run_scenario
from robomaze.bench.scenario import parse_sweep
from robomaze.errors import ScenarioError

BASE = {"maze": {"generator": "kruskal", "rows": 3, "cols": 3}, "seed": 4,
        "widen": {"corridor": 5, "resolution": 0.1},
        "robot": {"footprint": "disc:0.1", "odometry_noise": "gaussian:0.02+drift:0.02"}}


def sweep(robot=None, run=None):
    data = json.loads(json.dumps(BASE))
    data["robot"].update(robot or {})
    data["run"] = run or {"agent": "follow_plan"}
    return parse_sweep(data, check_names=False)


def test_axis_multiplies_agent_runs_only_and_none_keeps_ids():
    sw = sweep({"localize": ["none", "mcl", "slam"]},
               {"agent": ["follow_plan"], "planner": ["astar"]})
    agents = [s for s in sw.scenarios if s.kind == "simulate"]
    plans = [s for s in sw.scenarios if s.kind == "plan"]
    assert len(agents) == 3 and len(plans) == 1
    assert {s.spec["robot"].get("localize") for s in agents} == {None, "mcl", "slam"}
    plain = sweep().scenarios[0]
    explicit = sweep({"localize": "none"}).scenarios[0]
    assert plain.id == explicit.id and "localize" not in plain.spec["robot"]


@pytest.mark.parametrize("value, expected", [("ekf", "robot.localize: expected one of"),
                                             (["none", 3], r"robot.localize\[1\]")])
def test_bad_values_name_the_key(value, expected):
    with pytest.raises(ScenarioError, match=expected):
        sweep({"localize": value})


def test_rows_carry_the_localizer_and_its_metrics():
    sw = sweep({"localize": ["none", "mcl"]})
    rows = [run_scenario(s) for s in sw.scenarios]
    by = {r.get("localize", "none"): r for r in rows}
    assert "localize" not in by["none"] and "ate_rmse" not in by["none"]["metrics"]
    m = by["mcl"]["metrics"]
    assert by["mcl"]["success"] and m["collisions"] == 0 and 0 < m["ate_rmse"] < 0.05
    assert by["none"]["metrics"]["odometry_error"] > 2 * m["ate_rmse"]   # the filter corrects
    groups = localize_groups(rows)
    assert [g["localize"] for g in groups] == ["none", "mcl"]
    text = localize_section(rows)
    assert "## Localisation" in text and f"{m['ate_rmse']:.3f}" in text
    assert localize_section([by["none"]]) == ""


def test_gym_env_option_reports_the_estimate():
    pytest.importorskip("gymnasium")
    import numpy as np

    from robomaze.errors import ParameterError
    from robomaze.envs.gym_env import MazeEnv

    kw = dict(size=3, corridor=5, footprint=0.1, odometry_noise="gaussian:0.02+drift:0.02")
    plain, loc = MazeEnv(**kw), MazeEnv(localize="mcl", **kw)
    a, _ = plain.reset(seed=3)
    b, _ = loc.reset(seed=3)
    errs = []
    for _ in range(60):
        act = np.array([0.3, 0.4], np.float32)
        a, *_ = plain.step(act)
        b, *_ = loc.step(act)
        truth = loc.sim.pose
        assert plain.sim.pose == truth     # the option changes what the agent sees, not the run
        errs.append(np.hypot(*(b["odom"][:2] - truth[:2])))
        assert not np.array_equal(a["odom"][:3], b["odom"][:3]) or len(errs) == 1
    assert max(errs) < 0.05
    with pytest.raises(ParameterError, match="localize"):
        MazeEnv(localize="ekf", **kw)
    with pytest.raises(ParameterError, match="sensor"):
        MazeEnv(localize="mcl", sensor=None, **kw)
