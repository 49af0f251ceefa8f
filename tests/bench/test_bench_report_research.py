"""Report sections: safety vs noise (table + figure) and the micromouse tables."""

import json

import pytest

from robomaze.bench.report_research import noise_groups, sections
from robomaze.cli import main


def _row(i, *, kind="simulate", method="wall_follow", corridor=5, noise="none",
         odometry="none", success=True, status="ok", **metrics):
    return {"id": f"r{i}", "kind": kind, "method": method, "corridor": corridor, "wall": 1,
            "resolution": 0.1, "footprint": "disc:0.1", "generator": "kruskal", "seed": 1,
            "noise": noise, "odometry_noise": odometry, "success": success, "status": status,
            "reason": None if success else "step limit reached", "metrics": metrics,
            "scenario": {"maze": {"generator": "kruskal"}}}


def test_noise_groups_take_every_completed_run_and_order_levels_by_number():
    rows = [_row(1, min_clearance=0.05, collisions=0, danger_fraction=0.1),
            _row(2, noise="gaussian:0.1", success=False, min_clearance=0.0, collisions=3,
                 danger_fraction=0.5),
            _row(3, noise="gaussian:0.1", min_clearance=0.02, collisions=1, danger_fraction=0.3),
            _row(4, noise="gaussian:0.05", min_clearance=0.04, collisions=0,
                 danger_fraction=0.2),
            _row(5, noise="gaussian:0.1", status="timeout", success=False),
            _row(6, kind="plan", method="astar", min_clearance=0.09)]
    g = noise_groups(rows)
    assert [x["level"] for x in g] == ["none / none", "gaussian:0.05 / none",
                                       "gaussian:0.1 / none"]
    worst = g[2]
    assert worst["runs"] == 3 and worst["success_rate"] == pytest.approx(1 / 3)
    # safety over the completed runs, failed ones included (not the timeout)
    assert worst["min_clearance"] == 0.0
    assert worst["collisions"] == pytest.approx(2.0)
    assert worst["danger_fraction"] == pytest.approx(0.4)


def test_sections_are_empty_without_noise_or_mice(tmp_path):
    rows = [_row(1, min_clearance=0.05), _row(2, kind="plan", method="astar")]
    assert sections(rows, tmp_path, figures=True) == ""
    assert not (tmp_path / "figures").exists()


def test_noise_and_micromouse_sections_in_a_real_report(tmp_path):
    sweep = tmp_path / "s.toml"
    sweep.write_text(
        'seed = 2\n[maze]\nfile = "pkg:micromouse/tiny-4x4.txt"\n'
        '[widen]\ncorridor = 5\nresolution = 0.1\n'
        '[robot]\nfootprint = "disc:0.1"\nnoise = ["none", "gaussian:0.03"]\n'
        'odometry_noise = ["none", "drift:0.2"]\n'
        '[run]\nagent = "wall_follow"\nplanner = "astar"\n'
        'mouse = ["floodfill", "tremaux"]\nmax_steps = 3000\n')
    out = tmp_path / "res"
    assert main(["bench", str(sweep), "-o", str(out), "-q", "--workers", "1",
                 "--no-examples"]) == 0
    text = (out / "report.md").read_text()
    assert "## Safety vs noise" in text and "figures/safety_vs_noise.png" in text
    assert (out / "figures" / "safety_vs_noise.png").read_bytes()[:4] == b"\x89PNG"
    for level in ("none / none", "gaussian:0.03 / none", "none / drift:0.2",
                  "gaussian:0.03 / drift:0.2"):
        assert f"| wall_follow | {level} |" in text
    assert "## Micromouse" in text
    mm = text.split("## Micromouse")[1]
    rows = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    ff = next(r for r in rows if r["method"] == "floodfill")
    line = next(x for x in mm.splitlines() if x.startswith("| tiny-4x4.txt | flood fill, shortest route proven (kerikun profile) |"))
    cells = [c.strip() for c in line.strip("|").split("|")]
    assert cells[2] == "ok" and cells[3] == str(ff["metrics"]["cells_explored"])
    assert "### The same mazes, widened" in mm and "| tiny-4x4.txt | 5 | disc:0.1 | astar |" in mm
