"""The gate is red when it should be: a hang is a regression, a run whose rows
all hit the safety net is inconclusive (exit 3, never 0), an honest run is
clean; results folders import no plugins; every row kind keeps one clock."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from robomaze.bench import compare_dirs, load_sweep, read_rows, run_sweep
from robomaze.bench import reexec

SWEEP = """\
name = "gate"
seed = [1, 2, 3, 4, 5]
{plugins}
[maze]
generator = "kruskal"
rows = 4
cols = 4

[widen]
corridor = 3
resolution = 0.1

[robot]
footprint = "disc:0.08"

[run]
planner = ["astar", "wavefront", "dijkstra", "theta_star", "max_clearance"]
time_limit = {limit}
"""

#: A plugin whose astar never returns (it computes forever).
HANG = """\
from robomaze.plan import PLANNERS


def astar(grid, start, goal, *, footprint=None, connectivity=4, **options):
    while True:
        pass


PLANNERS["astar"] = astar
"""

#: A plugin that writes a file when imported and registers a planner.
WRITER = """\
import os
from robomaze.plan import PLANNERS, plan

open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "IMPORTED"), "a").write("x\\n")


def mine(grid, start, goal, *, footprint=None, connectivity=4, **options):
    return plan(grid, start, goal, method="astar", footprint=footprint,
                connectivity=connectivity)


PLANNERS["mine"] = mine
"""


def _sweep_file(folder, name, *, limit, plugins=""):
    p = folder / f"{name}.toml"
    p.write_text(SWEEP.format(limit=limit, plugins=plugins))
    return p


def _cli(*words, cwd, env=None):
    e = dict(os.environ)
    e.pop("ROBOMAZE_SLOW_RUNS", None)
    e.pop("ROBOMAZE_PLUGINS", None)
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "robomaze", *words], cwd=cwd, env=e,
                          capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """A 25-run CI-like sweep on a quiet machine, and the same sweep with every
    run past its safety net (the machine "overloaded"), run by the CLI."""
    d = tmp_path_factory.mktemp("gate")
    base = _sweep_file(d, "base", limit=600.0)
    late = _sweep_file(d, "late", limit=1.0)
    mp = pytest.MonkeyPatch()
    try:
        mp.delenv("ROBOMAZE_SLOW_RUNS", raising=False)
        mp.delenv("ROBOMAZE_PLUGINS", raising=False)
        run_sweep(load_sweep(base).scenarios, d / "base", workers=2, progress=False)
    finally:
        mp.undo()
    out = _cli("bench", str(late), "-o", str(d / "late"), "--no-report", "-q", "--workers", "2",
               cwd=d, env={"ROBOMAZE_SLOW_RUNS": "1.5"})
    return d, out


def test_a_sweep_whose_runs_all_hit_the_safety_net_writes_them_and_exits_3(runs):
    d, out = runs
    assert out.returncode == 3, out.stderr
    rows = read_rows(d / "late")
    assert len(rows) == 25 and {r["status"] for r in rows} == {"infra_timeout"}
    assert "every run hit the wall-clock safety net" in out.stderr
    assert "inconclusive" in out.stderr


def _scaled_baseline(d, factor=1.1):
    """The baseline with astar's length_m times ``factor``: a real regression."""
    rows = read_rows(d / "base")
    n = 0
    for r in rows:
        if r["method"] == "astar" and r["metrics"].get("length_m"):
            r["metrics"]["length_m"] *= factor
            n += 1
    assert n == 5
    path = d / "scaled.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_a_regression_against_rows_that_all_hit_the_net_is_never_ok(runs):
    d, _ = runs
    scaled = _scaled_baseline(d)
    # the re-runs not allowed: nothing was compared -> inconclusive, exit 3
    out = _cli("bench", "compare", str(scaled), str(d / "late"), "--no-rerun", cwd=d)
    assert out.returncode == 3, out.stdout + out.stderr
    assert "INCONCLUSIVE: 0 of 25 baseline runs compared" in out.stdout
    assert "OK" not in out.stdout.splitlines()[-1]
    # the re-runs allowed (the machine is quiet now): they finish and show the change
    out = _cli("bench", "compare", str(scaled), str(d / "late"), cwd=d)
    assert out.returncode == 1, out.stdout + out.stderr
    assert out.stdout.count("length_m") >= 5 and out.stdout.rstrip().endswith("REGRESSION")


def test_an_honest_run_compares_clean(runs):
    d, _ = runs
    out = _cli("bench", "compare", str(d / "base"), str(d / "late"), cwd=d)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "re-ran 25 run(s)" in out.stdout and "OK: no regression" in out.stdout
    out = _cli("bench", "compare", str(d / "base"), str(d / "base"), cwd=d)
    assert out.returncode == 0 and "compared 25 runs: 0 metric changes" in out.stdout


def test_a_planner_that_never_returns_is_a_regression(runs, tmp_path, monkeypatch):
    d, _ = runs
    plugin = tmp_path / "hang.py"
    plugin.write_text(HANG)
    sweep = _sweep_file(tmp_path, "hang", limit=1.0)
    out = _cli("bench", str(sweep), "-o", str(tmp_path / "hang"), "--no-report", "-q",
               "--workers", "2", cwd=tmp_path, env={"ROBOMAZE_PLUGINS": str(plugin)})
    assert out.returncode == 0, out.stderr
    rows = read_rows(tmp_path / "hang")
    assert {r["status"] for r in rows if r["method"] == "astar"} == {"infra_timeout"}
    assert {r["status"] for r in rows if r["method"] != "astar"} == {"ok"}
    # a smaller CPU budget than the default 2 s keeps the test short; the
    # verdict comes from CPU spent, so the load of the machine cannot turn
    # the hang into "inconclusive"
    monkeypatch.setattr(reexec, "CPU_FLOOR", 0.5)
    monkeypatch.setenv("ROBOMAZE_PLUGINS", str(plugin))   # the CI job's environment
    monkeypatch.delenv("ROBOMAZE_SLOW_RUNS", raising=False)
    # a generous wall limit: however loaded the machine, the spinning re-run
    # reaches its CPU budget before the machine could be blamed
    res = compare_dirs(d / "base", tmp_path / "hang", rerun_time_limit=600)
    assert res.status == "regression" and res.exit_code == 1
    assert sorted(rid for rid, _ in res.hangs) == sorted(
        r["id"] for r in rows if r["method"] == "astar")
    assert all("without finishing" in why for _, why in res.hangs)
    assert {(key, new) for _, key, _, new in res.changes} == {("status", "hang")}
    assert "REGRESSION" in res.table() and "hung" in res.table()
    # the compare process itself imported no plugin: astar is robomaze's
    from robomaze.plan import PLANNERS
    assert PLANNERS["astar"].__module__.startswith("robomaze.")


def test_a_blocked_rerun_is_a_hang_and_a_starved_one_inconclusive(runs, tmp_path, monkeypatch):
    d, _ = runs
    rows = {r["id"]: r for r in read_rows(d / "late")}
    row = next(r for r in rows.values() if r["method"] == "wavefront")
    from robomaze.bench.rerun import row_scenario

    spec = row_scenario(row).to_dict()
    # asleep: neither running nor waiting for a CPU -> the method hangs
    sleepy = tmp_path / "sleepy.py"
    sleepy.write_text("import time\nfrom robomaze.plan import PLANNERS\n"
                      "def wavefront(*a, **k):\n    time.sleep(3600)\n"
                      "PLANNERS['wavefront'] = wavefront\n")
    r = reexec.reexec(spec, plugins=[str(sleepy)], cpu_budget=0.5, wall_limit=60.0)
    assert r.verdict == "hang" and "blocked or asleep" in r.why
    # the machine's injected slowness counts as waiting for a CPU -> starved
    monkeypatch.setenv("ROBOMAZE_SLOW_RUNS", "30")
    r = reexec.reexec(spec, cpu_budget=5.0, wall_limit=1.0)
    assert r.verdict == "starved" and r.row is None


def _plugin_results(tmp_path):
    """A results folder whose sweep names a plugin that writes a file."""
    folder = tmp_path / "sweepdir"
    folder.mkdir()
    (folder / "writer.py").write_text(WRITER)
    sweep = folder / "mine.toml"
    sweep.write_text(SWEEP.replace('seed = [1, 2, 3, 4, 5]', 'seed = [1]')
                     .replace('planner = ["astar", "wavefront", "dijkstra", "theta_star", '
                              '"max_clearance"]', 'planner = ["mine"]')
                     .format(limit=600.0, plugins='plugins = ["writer.py"]'))
    out = _cli("bench", str(sweep), "-o", str(tmp_path / "res"), "--no-report", "-q",
               "--workers", "1", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    (folder / "IMPORTED").unlink()    # the sweep ran it: the user trusted the sweep
    return folder, tmp_path / "res"


def test_results_folders_run_no_code(tmp_path):
    folder, res = _plugin_results(tmp_path)
    row = read_rows(res)[0]
    # rerun: one line naming the plugin, exit 2, nothing imported
    out = _cli("bench", "rerun", str(res), row["id"], cwd=tmp_path)
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1
    assert "writer.py" in out.stderr and "--plugins" in out.stderr
    assert not (folder / "IMPORTED").exists()
    # compare of a row that needs a re-run: not re-run, one line, exit 3, nothing imported
    late = [dict(r, status="infra_timeout", outcome="infra_timeout") for r in read_rows(res)]
    (tmp_path / "late.jsonl").write_text("".join(json.dumps(r) + "\n" for r in late))
    out = _cli("bench", "compare", str(res), str(tmp_path / "late.jsonl"), cwd=tmp_path)
    assert out.returncode == 3, out.stdout + out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "writer.py" in out.stderr
    assert not (folder / "IMPORTED").exists()
    # given again explicitly: imported, and the row re-created
    out = _cli("bench", "rerun", str(res), row["id"], "--plugins", str(folder / "writer.py"),
               cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "identical" in out.stdout and (folder / "IMPORTED").exists()
    (folder / "IMPORTED").unlink()
    out = _cli("bench", "compare", str(res), str(tmp_path / "late.jsonl"), cwd=tmp_path,
               env={"ROBOMAZE_PLUGINS": str(folder / "writer.py")})
    assert out.returncode == 0, out.stdout + out.stderr
    assert (folder / "IMPORTED").exists()
