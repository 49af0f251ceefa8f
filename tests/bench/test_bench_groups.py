"""The report keeps every swept axis apart; a sweep's size is refused before expansion."""

from __future__ import annotations

import csv
import tracemalloc

import pytest

from robomaze.bench import load_sweep, parse_sweep, read_rows, run_sweep, write_report
from robomaze.bench.report import summarize
from robomaze.cli import main
from robomaze.errors import ScenarioError

SWEEP = """
seed = [1, 2]
[maze]
generator = "kruskal"
rows = 4
cols = 4
[widen]
corridor = 3
resolution = [0.1, 0.05]
[robot]
footprint = "disc:0.001"  # well under a cell at both resolutions: the same free space
[run]
planner = ["astar", "wavefront"]
"""


def test_a_sweep_over_two_resolutions_is_not_merged(tmp_path):
    (tmp_path / "res.toml").write_text(SWEEP)
    sweep = load_sweep(tmp_path / "res.toml")
    out = tmp_path / "out"
    run_sweep(sweep.scenarios, out, workers=2, progress=False)
    rows = read_rows(out)
    summary = summarize(rows)
    assert len(summary) == 4  # 2 planners x 2 resolutions, each over the 2 seeds
    by = {(s["method"], s["widen.resolution"]): s for s in summary}
    for method in ("astar", "wavefront"):
        coarse, fine = by[(method, 0.1)], by[(method, 0.05)]
        assert coarse["runs"] == fine["runs"] == 2
        assert coarse["setting"] == "resolution=0.1" and fine["setting"] == "resolution=0.05"
        # same mazes, same grid in cells: halving the cell size halves every length
        assert fine["length_m"] == pytest.approx(coarse["length_m"] / 2, rel=1e-9)
        mine = [r["metrics"]["length_m"] for r in rows
                if r["method"] == method and r["resolution"] == 0.05]
        assert fine["length_m"] == pytest.approx(sum(mine) / len(mine), rel=1e-12)
    written = write_report(out, examples=False)
    with open(written["summary"], newline="") as fh:
        table = list(csv.DictReader(fh))
    assert sorted((r["method"], r["widen.resolution"]) for r in table) == [
        ("astar", "0.05"), ("astar", "0.1"), ("wavefront", "0.05"), ("wavefront", "0.1")]
    md = written["report"].read_text()
    assert "| astar | resolution=0.05 | 3 |" in md and "| astar | resolution=0.1 | 3 |" in md


def test_seeds_and_maze_sources_are_the_sample_not_an_axis():
    rows = [{"id": f"{g}{s}", "kind": "plan", "method": "astar", "corridor": 1,
             "footprint": "disc:0.1", "status": "ok", "success": True,
             "metrics": {"length_m": 1.0}, "timings": {"compute_s": 0.1},
             "scenario": {"seed": s, "maze": {"generator": g, "rows": 4},
                          "widen": {"wall": 1}}}
            for g in ("prim", "kruskal") for s in (1, 2)]
    assert [(s["runs"], s["setting"]) for s in summarize(rows)] == [(4, "")]
    rows[0]["scenario"]["widen"]["wall"] = 2  # a swept wall thickness splits the group
    assert sorted((s["runs"], s["setting"]) for s in summarize(rows)) == [(1, "wall=2"),
                                                                          (3, "wall=1")]


def _huge(per_axis: int) -> dict:
    """Three axes of ``per_axis`` values each: ``per_axis ** 3`` runs."""
    values = list(range(1, per_axis + 1))
    return {"seed": values, "maze": {"generator": "prim", "rows": values},
            "widen": {"corridor": values}, "robot": {"footprint": "disc:0.1"},
            "run": {"planner": "astar"}}


def test_sweep_size_is_counted_before_expansion_and_refused_with_the_count():
    data = _huge(1000)  # 1000 x 1000 x 1000 = 10**9 combinations
    tracemalloc.start()
    try:
        with pytest.raises(ScenarioError) as info:
            parse_sweep(data, check_names=False)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    msg = str(info.value)
    assert "1,000,000,000 runs" in msg and "1000 seed x 1000 maze.rows x 1000 widen.corridor x 1 methods" in msg
    assert "limit of 100,000" in msg and "--max-runs" in msg
    assert peak < 50_000_000  # nothing was expanded
    small = _huge(10)  # 10 x 10 x 10 = 1,000 runs
    with pytest.raises(ScenarioError, match="1,000 runs"):
        parse_sweep(small, check_names=False, max_runs=999)
    assert len(parse_sweep(small, check_names=False, max_runs=1000).scenarios) == 1000


def test_cli_max_runs(tmp_path, capsys):
    (tmp_path / "res.toml").write_text(SWEEP)
    assert main(["bench", str(tmp_path / "res.toml"), "-o", str(tmp_path / "o"), "-q",
                 "--max-runs", "7"]) == 2
    err = capsys.readouterr().err
    assert "the sweep has 8 runs" in err and "limit of 7" in err
    assert not (tmp_path / "o").exists()
