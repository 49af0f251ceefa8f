"""Faults of the harness: a sweep that failed fails, a run's BaseException is its
row, runs leave no process behind, workers import the parent's robomaze."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from robomaze.bench import load_sweep, read_rows, run_sweep
from robomaze.cli import main

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
PLUGIN = (HERE / "bench_plugin_planners.py").as_posix()


def _sweep(tmp_path: Path, planners: str, extra: str = "") -> Path:
    p = tmp_path / "s.toml"
    p.write_text(f"""
plugins = ["{PLUGIN}"]
{extra}
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
planner = {planners}
time_limit = 5.0
""")
    return p


def _env() -> dict:
    return dict(os.environ, PYTHONPATH=str(REPO))


def test_every_run_failed_exits_1_with_the_first_error_and_failures_first(tmp_path, capsys):
    sweep = _sweep(tmp_path, '"test_explode"')
    out = tmp_path / "out"
    assert main(["bench", str(sweep), "-o", str(out), "-q", "--workers", "1",
                 "--no-examples"]) == 1
    err = capsys.readouterr().err
    assert "every run failed (2 of 2)" in err
    assert "RuntimeError: test planner exploded on purpose" in err
    md = (out / "report.md").read_text()
    assert md.index("## Failed runs") < md.index("## At a glance")
    assert "(every run failed)" in md
    # one success is enough for exit 0 (the failures are in the report)
    sweep2 = _sweep(tmp_path, '["test_explode", "astar"]')
    assert main(["bench", str(sweep2), "-o", str(tmp_path / "out2"), "-q", "--workers", "1",
                 "--no-report"]) == 0


def test_systemexit_and_keyboardinterrupt_in_a_run_are_failed_rows(tmp_path):
    sweep = load_sweep(_sweep(tmp_path, '["test_exit", "astar", "test_interrupt"]'))
    result = run_sweep(sweep.scenarios, tmp_path / "out", workers=2, progress=False)
    rows = {(r["method"], r["corridor"]): r for r in read_rows(tmp_path / "out")}
    assert result.ran == 6 and result.failed == 4 and len(rows) == 6
    for k in (1, 3):
        assert rows[("test_exit", k)]["status"] == "error"
        assert rows[("test_exit", k)]["reason"] == "SystemExit: 3"
        assert rows[("test_interrupt", k)]["status"] == "error"
        assert rows[("test_interrupt", k)]["reason"] == "KeyboardInterrupt"
        assert rows[("astar", k)]["status"] == "ok" and rows[("astar", k)]["success"]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_runs_leave_no_process_behind(tmp_path):
    """A planner that starts a setsid child and a multiprocessing fork server: the
    sweep's stdout pipe closes when robomaze exits (nothing else holds it) and
    every process the runs started is gone."""
    sweep = _sweep(tmp_path, '"test_forking_astar"')
    pids = tmp_path / "pids.txt"
    proc = subprocess.Popen([sys.executable, "-m", "robomaze", "bench", str(sweep), "-o",
                             str(tmp_path / "out"), "-q", "--workers", "1", "--no-report"],
                            env=dict(_env(), ROBOMAZE_TEST_PIDS=str(pids)),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    try:
        out, err = proc.communicate(timeout=240)  # EOF on both pipes: nobody holds them
    except subprocess.TimeoutExpired:
        proc.kill()
        for pid in map(int, pids.read_text().split()):
            os.kill(pid, signal.SIGKILL)
        pytest.fail("the sweep's output pipes stayed open: a process outlived the sweep")
    assert proc.returncode == 0, err.decode()
    started = [int(p) for p in pids.read_text().split()]
    assert len(started) == 4  # two runs, two children each
    deadline = time.monotonic() + 10
    while any(map(_alive, started)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [p for p in started if _alive(p)]
    assert {r["status"] for r in read_rows(tmp_path / "out")} == {"ok"}


def test_workers_import_the_parents_robomaze_not_a_folder_in_the_cwd(tmp_path):
    """Run from a folder holding a directory named robomaze (a clone, say): the
    workers must not import it. The command is started as the installed script
    is (sys.path[0] is the script's folder, not the current directory)."""
    clone = tmp_path / "clone"
    (clone / "robomaze").mkdir(parents=True)
    # importable, like a clone of another version: the fork server's preload keeps it
    (clone / "robomaze" / "__init__.py").write_text("BOGUS = True  # no __version__\n")
    script = tmp_path / "bin" / "robomaze-script.py"
    script.parent.mkdir()
    script.write_text("import sys\nfrom robomaze.cli import main\n"
                      "if __name__ == '__main__':\n    sys.exit(main())\n")  # as pip writes it
    sweep = _sweep(tmp_path, '"astar"').read_text().replace(f'plugins = ["{PLUGIN}"]', "")
    (clone / "s.toml").write_text(sweep)
    proc = subprocess.run([sys.executable, str(script), "bench", "s.toml", "-o", "out", "-q",
                           "--workers", "1", "--no-report"], env=_env(), cwd=clone,
                          capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr
    rows = read_rows(clone / "out")
    assert len(rows) == 2 and all(r["status"] == "ok" and r["success"] for r in rows)


def test_a_real_ctrl_c_stops_the_sweep_resumably(tmp_path):
    """Runs raising KeyboardInterrupt are rows; SIGINT to robomaze itself stops
    the sweep with exit 130, and rerunning completes it with no run twice."""
    sweep = _sweep(tmp_path, '["test_interrupt", "test_slow_astar"]', extra="seed = [1, 2, 3]")
    out = tmp_path / "out"
    results = out / "results.jsonl"
    cmd = [sys.executable, "-m", "robomaze", "bench", str(sweep), "-o", str(out), "-q",
           "--workers", "1", "--no-report"]
    env = dict(_env(), ROBOMAZE_TEST_SLOW="0.3")
    # as from a terminal: a job started in the background of a script (as a CI
    # runner may start this suite) inherits SIGINT ignored, and Python then
    # installs no KeyboardInterrupt handler
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if results.exists() and results.read_text().count("\n") >= 4:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130 and "rerun the same command to resume" in err
    kept = read_rows(out, dedupe=False)
    assert 4 <= len(kept) < 12
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr
    rows = read_rows(out, dedupe=False)
    assert len(rows) == 12 == len({r["id"] for r in rows})
    assert {r["status"] for r in rows if r["method"] == "test_interrupt"} == {"error"}
    assert {r["status"] for r in rows if r["method"] == "test_slow_astar"} == {"ok"}
