"""``robomaze bench`` front-end: clear errors before any run, report sub-command."""

from __future__ import annotations

import pytest

from robomaze.bench import default_sweep_path, load_sweep
from robomaze.cli import main

SWEEP = """
[maze]
generator = "prim"
rows = 3
cols = 3
[widen]
corridor = 3
resolution = 0.1
[robot]
footprint = "disc:0.04"
[run]
planner = "astar"
"""


@pytest.mark.parametrize("old,new,message", [
    ('planner = "astar"', 'planner = "astra"', "run.planner: unknown planner 'astra'; expected one of:"),
    ("corridor = 3", "corridor = 0", "widen.corridor: expected an integer >= 1, got 0"),
    ('"disc:0.04"', '"disc:0"', "robot.footprint: expected a disc footprint whose sizes are numbers > 0"),
    ("rows = 3", "rows = 3.5", "maze.rows: expected an integer >= 1, got 3.5"),
    ("rows = 3", "rows = 3\nwalls = 2", "maze.walls: expected one of the keys"),
])
def test_bad_sweep_is_one_line_exit_2_and_nothing_runs(tmp_path, capsys, old, new, message):
    p = tmp_path / "bad.toml"
    p.write_text(SWEEP.replace(old, new, 1))
    assert main(["bench", str(p), "-o", str(tmp_path / "out"), "-q"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err and str(p) in err, err
    assert not (tmp_path / "out").exists()


def test_missing_maze_file_fails_before_running(tmp_path, capsys):
    p = tmp_path / "f.toml"
    p.write_text(SWEEP.replace('generator = "prim"', 'file = "nowhere.maze"'))
    assert main(["bench", str(p), "-o", str(tmp_path / "out"), "-q"]) == 2
    assert "maze.file: no such file" in capsys.readouterr().err
    assert not (tmp_path / "out" / "results.jsonl").exists()


def test_run_then_report_subcommand(tmp_path, capsys):
    p = tmp_path / "s.toml"
    p.write_text(SWEEP)
    out = tmp_path / "out"
    assert main(["bench", str(p), "-o", str(out), "-q", "--workers", "1", "--no-report"]) == 0
    assert not (out / "report.md").exists()
    assert main(["bench", "report", str(out)]) == 0
    assert f"report: {out / 'report.md'}" in capsys.readouterr().out
    assert "| astar | 3 | 1 | 1 |" in (out / "report.md").read_text()
    assert "Results for 1 of the 1 scenarios" in (out / "report.md").read_text()
    # rerun: everything is already there
    assert main(["bench", str(p), "-o", str(out), "-q", "--no-report"]) == 0
    assert "0 ran, 1 already done" in capsys.readouterr().err


def test_usage_errors(capsys):
    assert main(["bench", "report"]) == 2
    assert main(["bench", "compare", "a"]) == 2
    assert main(["bench", "x.toml", "--fail-on-time", "2"]) == 2
    assert main(["bench", "--executor", "dask", "-o", "x"]) == 2
    assert "--executor dask needs --scheduler" in capsys.readouterr().err


def test_default_sweep_is_shipped_in_the_package():
    sweep = load_sweep(default_sweep_path())
    assert sweep.name == "default" and len(sweep.scenarios) > 100


def test_progress_bar_shows_done_total_rate_eta_and_failures():
    import io

    from robomaze.bench import Progress

    buf = io.StringIO()
    bar = Progress(4, stream=buf)
    bar.update({"status": "ok"})
    bar.update({"status": "error"})
    line = bar.line()
    assert "2/4" in line and "run/s" in line and "ETA" in line and "1 failed" in line
    bar.update({"status": "ok"})
    bar.update({"status": "ok"})
    assert buf.getvalue().rstrip().endswith("1 failed") and "4/4" in buf.getvalue()


def test_help_says_plugins_run_arbitrary_code(capsys):
    with pytest.raises(SystemExit):
        main(["bench", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "plugins run arbitrary Python" in out and "ROBOMAZE_PLUGINS" in out


def test_readme_says_plugins_run_code():
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    text = " ".join(readme.split())
    assert "**Plugins run code:**" in text and "ROBOMAZE_PLUGINS" in text
