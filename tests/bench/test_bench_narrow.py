"""The narrow-passage and car sweeps: packaged, valid, and a tiny variant reports success vs gap."""

import tomllib

import pytest

from robomaze.bench import load_sweep, parse_sweep, run_sweep, write_report
from robomaze.bench.report_sections import gap_table
from robomaze.bench.store import read_rows
from robomaze.data import sample_path

pytest.importorskip("ompl")


@pytest.mark.parametrize("name, planners", [
    ("narrow_passages", {"collision_free", "theta_star", "ompl:rrt_connect", "ompl:rrtstar",
                         "ompl:bitstar", "ompl:kpiece"}),
    ("cars", {"collision_free", "ompl:dubins", "ompl:reeds_shepp"})])
def test_packaged_sweeps_load(name, planners):
    sweep = load_sweep(sample_path(f"scenarios/{name}.toml"))
    assert {s.method for s in sweep.scenarios} == planners
    corridors = sorted({s.spec["widen"]["corridor"] for s in sweep.scenarios})
    assert corridors[0] == 3 and len(corridors) >= 5   # barely fitting to wide


def _tiny(name, corridors, planners):
    spec = tomllib.loads(sample_path(f"scenarios/{name}.toml").read_text())
    spec["seed"] = [1]
    spec["widen"]["corridor"] = corridors
    spec["run"]["planner"] = planners
    spec["run"]["options"] = {k: v for k, v in spec["run"].get("options", {}).items()
                              if k in planners}
    return parse_sweep(spec)


def test_tiny_narrow_passages_report_has_success_vs_gap(tmp_path):
    sweep = _tiny("narrow_passages", [3, 5], ["collision_free", "ompl:rrt_connect"])
    run_sweep(sweep.scenarios, tmp_path, workers=1, progress=False)
    rows = read_rows(tmp_path)
    write_report(tmp_path, examples=False)
    text = (tmp_path / "report.md").read_text()
    assert "## Success vs corridor gap" in text
    assert (tmp_path / "figures" / "success_vs_gap.png").stat().st_size > 1000
    table = gap_table(rows)
    assert len(table) == 2 * 2 * 2   # footprint x planner x corridor
    for t in table:
        runs = [r for r in rows if (r["footprint"], r["method"], r["corridor"])
                == (t["footprint"], t["method"], t["corridor"])]
        assert t["success_rate"] == sum(r["success"] for r in runs) / len(runs)
        width = {"disc:0.13": 0.26, "rect:0.36x0.2": 0.2}[t["footprint"]]
        assert t["gap"] == pytest.approx(t["corridor"] * 0.1 - width)
    # the disc (0.26 m) fits the 0.3 m corridors: the grid planner always gets through
    assert all(t["success_rate"] == 1.0 for t in table
               if t["footprint"] == "disc:0.13" and t["method"] == "collision_free")
    assert "| ompl:rrt_connect | 3 | 0.040 |" in text


def test_tiny_cars_sweep_runs(tmp_path):
    sweep = _tiny("cars", [10], ["ompl:reeds_shepp"])
    run_sweep(sweep.scenarios, tmp_path, workers=1, progress=False)
    rows = read_rows(tmp_path)
    assert len(rows) == 2 and all(r["status"] == "ok" for r in rows)
    assert all(r["success"] for r in rows)    # 1 m corridors: a Reeds-Shepp car gets through
