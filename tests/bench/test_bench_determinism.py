"""Same sweep + seed: identical deterministic metrics across runs and worker counts."""

from __future__ import annotations


from robomaze.bench import compare_rows, load_sweep, read_rows, run_sweep
from robomaze.bench.run import DETERMINISTIC_METRICS
from robomaze.plan import PLANNERS

# stochastic planners are the interesting ones: their rng comes from the seed
METHODS = [m for m in ("random_mouse", "dfs_backtracking", "astar", "max_clearance") if m in PLANNERS]


def test_identical_metrics_across_runs_and_worker_counts(tmp_path):
    p = tmp_path / "det.toml"
    p.write_text(f"""
seed = [3, 4]
[maze]
generator = "wilson"
rows = 4
cols = 4
braid = 0.3
[widen]
corridor = [1, 3]
resolution = 0.1
[robot]
footprint = ["disc:0.04", "rect:0.2x0.1"]
[run]
planner = {METHODS!r}
agent = ["explore"]
max_steps = 400
""".replace("'", '"'))
    scenarios = load_sweep(p).scenarios
    run_sweep(scenarios, tmp_path / "one", workers=1, progress=False)
    run_sweep(scenarios, tmp_path / "two", workers=2, progress=False)
    a, b = read_rows(tmp_path / "one"), read_rows(tmp_path / "two")
    assert len(a) == len(b) == len(scenarios)
    key = lambda r: r["id"]  # noqa: E731
    for ra, rb in zip(sorted(a, key=key), sorted(b, key=key)):
        assert ra["status"] == rb["status"] == "ok", ra["reason"]
        assert ra["success"] == rb["success"]
        for m in DETERMINISTIC_METRICS:
            assert ra["metrics"].get(m) == rb["metrics"].get(m), (ra["method"], m)  # bit for bit
        assert ra["path"] == rb["path"]
    assert compare_rows(a, b).ok
    assert any(r["success"] for r in a)
