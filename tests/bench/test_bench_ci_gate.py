"""The CI gate checks robots: scenarios/ci.toml holds seeded agent runs with
noise and mice, the baseline holds exactly its runs, and reruns are identical."""

import json
from pathlib import Path

from robomaze.bench.run import run_scenario
from robomaze.bench.scenario import load_sweep
from robomaze.data import resolve

BASELINE = Path(__file__).resolve().parents[2] / "benchmarks" / "baselines" / "ci" / "results.jsonl"


def ci_sweep():
    return load_sweep(resolve("pkg:scenarios/ci.toml"))


def test_ci_sweep_runs_agents_with_and_without_noise_and_mice():
    sc = ci_sweep().scenarios
    agents = [s for s in sc if s.kind == "simulate"]
    assert {s.method for s in agents} == {"wall_follow", "follow_plan", "explore", "tremaux"}
    levels = {(s.spec["robot"].get("noise"), s.spec["robot"].get("odometry_noise"))
              for s in agents}
    assert (None, None) in levels and len(levels) == 4
    assert all(s.spec["seed"] == 7 for s in sc)
    assert {s.method for s in sc if s.kind == "mouse"} == {"floodfill", "tremaux"}
    assert len([s for s in sc if s.kind == "plan"]) == 48


def test_baseline_holds_exactly_the_runs_of_ci_toml_in_its_layout():
    rows = [json.loads(line) for line in BASELINE.read_text().splitlines()]
    assert {r["id"] for r in rows} == {s.id for s in ci_sweep().scenarios}
    assert all(r["status"] == "ok" for r in rows)
    assert sorted(p.name for p in BASELINE.parent.iterdir()) == ["README.md", "results.jsonl"]
    noisy = [r for r in rows if r["kind"] == "simulate" and r["odometry_noise"] != "none"
             and r["success"]]
    assert noisy and all("odometry_error" in r["metrics"] for r in noisy)


def test_noisy_agent_runs_are_identical_when_run_again():
    chosen = [s for s in ci_sweep().scenarios
              if s.kind == "simulate" and s.spec["widen"]["corridor"] == 5
              and s.footprint == "disc:0.04" and s.method in ("wall_follow", "follow_plan")
              and s.spec["robot"].get("noise") and s.spec["robot"].get("odometry_noise")]
    assert len(chosen) == 2
    for sc in chosen:
        a, b = run_scenario(sc), run_scenario(sc)
        assert a["metrics"] == b["metrics"] and a["path"] == b["path"]
