"""A planner that raises and ones that hang become failed rows; the rest completes."""

from __future__ import annotations

from pathlib import Path

from robomaze.bench import load_sweep, read_rows, run_sweep, write_report

HERE = Path(__file__).resolve().parent


def test_raising_hanging_and_crashing_planners_are_failed_rows(tmp_path):
    sweep_file = tmp_path / "iso.toml"
    sweep_file.write_text(f"""
plugins = ["{(HERE / 'bench_plugin_planners.py').as_posix()}"]
[maze]
generator = "prim"
rows = 3
cols = 3
[widen]
corridor = [1, 3]
resolution = 0.1
[robot]
footprint = "disc:0.04"
[run]
planner = ["astar", "test_explode", "test_hang", "test_hang_hard", "test_crash", "wavefront"]
time_limit = 1.0
""")
    sweep = load_sweep(sweep_file)
    result = run_sweep(sweep.scenarios, tmp_path / "out", workers=2, progress=False)
    rows = {(r["method"], r["corridor"]): r for r in read_rows(tmp_path / "out")}
    assert len(rows) == 12 and result.ran == 12 and result.failed == 8
    for k in (1, 3):
        assert rows[("astar", k)]["status"] == "ok" and rows[("astar", k)]["success"]
        assert rows[("wavefront", k)]["status"] == "ok" and rows[("wavefront", k)]["success"]
        boom = rows[("test_explode", k)]
        assert boom["status"] == "error" and not boom["success"]
        assert boom["reason"] == "RuntimeError: test planner exploded on purpose"
        assert "bench_plugin_planners.py" in boom["error"]  # the traceback is kept
        soft = rows[("test_hang", k)]
        assert soft["status"] == soft["outcome"] == "infra_timeout" and "time_limit" in soft["reason"]
        hard = rows[("test_hang_hard", k)]
        assert hard["status"] == hard["outcome"] == "infra_timeout" and hard["reason"].startswith("killed after")
        dead = rows[("test_crash", k)]
        assert dead["status"] == "error" and "worker process died" in dead["reason"]
    md = write_report(tmp_path / "out", examples=False)["report"].read_text()
    assert "## Failed runs" in md and "test planner exploded on purpose" in md
    failed = md.split("## Failed runs", 1)[1].split("\n## ", 1)[0]
    assert failed.count("| infra_timeout |") == 4
    assert "## Outcomes" in md


def test_retry_failed_reruns_only_failed_rows(tmp_path):
    from robomaze.bench.store import ResultStore

    sweep_file = tmp_path / "r.toml"
    sweep_file.write_text("""
[maze]
generator = "prim"
rows = 3
cols = 3
[widen]
corridor = [1, 3]
resolution = 0.1
[robot]
footprint = "disc:0.04"
[run]
planner = "astar"
""")
    scenarios = load_sweep(sweep_file).scenarios
    bad, good = scenarios
    with ResultStore(tmp_path / "out") as store:  # as if the first run had crashed
        store.append({"id": bad.id, "status": "error", "success": False, "reason": "boom"})
    run_sweep(scenarios, tmp_path / "out", workers=1, progress=False)
    assert {r["id"]: r["status"] for r in read_rows(tmp_path / "out")}[bad.id] == "error"
    result = run_sweep(scenarios, tmp_path / "out", workers=1, progress=False, retry_failed=True)
    assert result.ran == 1 and result.skipped == 1
    lines = (tmp_path / "out" / "results.jsonl").read_text().splitlines()
    rows = read_rows(tmp_path / "out", dedupe=False)
    assert len(lines) == 2 and sorted(r["id"] for r in rows) == sorted([bad.id, good.id])
    assert all(r["status"] == "ok" and r["success"] for r in rows)
