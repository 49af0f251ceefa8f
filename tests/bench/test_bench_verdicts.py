"""Verdicts that do not depend on the machine: load, the safety net, re-runs."""

import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from robomaze.bench import compare_dirs, load_sweep, read_rows, run_sweep
from robomaze.bench.rerun import find_row, rerun_row, row_differences, show_row
from robomaze.bench.run import OUTCOMES
from robomaze.bench.store import row_poses

SWEEP = """\
name = "verdicts"
seed = {seeds}

[maze]
generator = "kruskal"
rows = 3
cols = 3

[widen]
corridor = {corridors}
resolution = 0.1

[robot]
footprint = "disc:0.08"
sensor = "lidar"

[run]
planner = ["astar", "random_mouse"]
agent = ["wall_follow"]
max_steps = 600
time_limit = {limit}
"""


def _sweep(tmp_path, limit=600.0, small=False):
    p = tmp_path / f"sweep-{limit:g}-{small}.toml"
    p.write_text(SWEEP.format(limit=limit, seeds="[1]" if small else "[1, 2]",
                              corridors="[3]" if small else "[1, 3]"))
    return load_sweep(p)


def _run(tmp_path, name, *, limit=600.0, slow=None, monkeypatch=None, small=False):
    if slow is not None:
        monkeypatch.setenv("ROBOMAZE_SLOW_RUNS", str(slow))
    else:
        monkeypatch.delenv("ROBOMAZE_SLOW_RUNS", raising=False)
    out = tmp_path / name
    run_sweep(_sweep(tmp_path, limit, small).scenarios, out, workers=1, progress=False)
    return out


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """The sweep run once on a quiet machine (shared by the tests that only read it)."""
    mp = pytest.MonkeyPatch()
    try:
        yield _run(tmp_path_factory.mktemp("verdicts"), "base", monkeypatch=mp)
    finally:
        mp.undo()


def _deterministic(row):
    return (row["status"], row["outcome"], row["success"], row["metrics"], row["poses"])


def test_slow_runs_give_the_same_rows_and_verdict(base, tmp_path, monkeypatch):
    import time

    t0 = time.monotonic()
    slow = _run(tmp_path, "slow", slow=0.4, monkeypatch=monkeypatch)
    assert time.monotonic() - t0 >= 12 * 0.4     # the runs did sleep
    a = {r["id"]: r for r in read_rows(base)}
    b = {r["id"]: r for r in read_rows(slow)}
    assert set(a) == set(b) and len(a) == 12
    assert all(_deterministic(a[i]) == _deterministic(b[i]) for i in a)
    res = compare_dirs(base, slow)
    assert res.ok and not res.changes and not res.inconclusive


def test_safety_net_rows_are_inconclusive_never_a_regression(tmp_path, monkeypatch):
    base = _run(tmp_path, "base", monkeypatch=monkeypatch, small=True)
    # every run sleeps past a 2 s safety net: the machine "is overloaded"
    late = _run(tmp_path, "late", limit=2.0, slow=3.0, monkeypatch=monkeypatch, small=True)
    rows = read_rows(late)
    assert {r["status"] for r in rows} == {"infra_timeout"}
    assert {r["outcome"] for r in rows} == {"infra_timeout"}
    assert all("safety net" in r["error"] for r in rows)
    # still overloaded when compare re-runs them (the injected sleep counts as
    # waiting for a CPU, longer than a 1 s re-run limit): inconclusive, exit 3,
    # neither REGRESSION nor OK
    res = compare_dirs(base, late, rerun_time_limit=1.0)
    assert not res.changes and not res.hangs and res.status == "inconclusive"
    assert res.exit_code == 3
    assert len(res.rerun) == len(rows) and len(res.inconclusive) == len(rows)
    assert all("starved" in why or "waited for a CPU" in why for _, why in res.inconclusive)
    assert "INCONCLUSIVE" in res.table() and "REGRESSION" not in res.table()
    # the machine recovered: the serial re-runs decide, and they agree
    monkeypatch.delenv("ROBOMAZE_SLOW_RUNS")
    res = compare_dirs(base, late)
    assert res.ok and res.exit_code == 0
    assert not res.inconclusive and len(res.rerun) == len(rows)


def test_compare_still_catches_a_real_change(base, tmp_path):
    rows = read_rows(base)
    bad = tmp_path / "bad.jsonl"
    moved = next(r for r in rows if r["metrics"].get("length_m"))
    moved["metrics"]["length_m"] += 1e-3
    bad.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert not compare_dirs(base, bad).ok


def test_every_row_has_an_outcome_and_moved_runs_keep_safety(base, tmp_path):
    for r in read_rows(base):
        assert r["outcome"] in OUTCOMES
        assert (r["outcome"] == "success") == r["success"]
        if r["outcome"] in ("gave_up", "budget", "collided"):
            assert r["metrics"].get("min_clearance") is not None
        # compared data hold no machine-specific fields
        assert "platform" not in r["provenance"]
        assert r["base_dir"].startswith("/") or r["base_dir"].startswith("pkg:")


def test_rows_store_their_continuous_path_exactly(base, tmp_path):
    checked = 0
    for r in read_rows(base):
        p = row_poses(r)
        if r["metrics"].get("length_m") is None or p is None:
            continue
        length = float(np.hypot(*np.diff(p[:, :2], axis=0).T).sum())
        assert length == pytest.approx(r["metrics"]["length_m"], rel=1e-12, abs=1e-12)
        checked += 1
    assert checked >= 6


def test_rerun_reproduces_every_row_and_flags_a_tampered_one(base, tmp_path):
    for r in read_rows(base):
        assert row_differences(r, rerun_row(r)) == []
    r = read_rows(base)[0]
    r["metrics"]["expanded"] = 10**9
    diffs = row_differences(r, rerun_row(r))
    assert [d[0] for d in diffs] == ["metrics.expanded"]


def _cli(*words, cwd):
    return subprocess.run([sys.executable, "-m", "robomaze", *words], cwd=cwd,
                          capture_output=True, text=True, timeout=600)


def test_cli_show_command_and_python_reproduce_the_length(base, tmp_path):
    rows = [r for r in read_rows(base) if r["metrics"].get("length_m")]
    plan_row = next(r for r in rows if r["method"] == "random_mouse")
    agent_row = next(r for r in rows if r["kind"] == "simulate")
    for row in (plan_row, agent_row):
        text = _cli("bench", "show", str(base), row["id"], cwd=tmp_path).stdout
        shell = text.split("# shell\n", 1)[1].split("\n", 1)[0].split()
        assert shell[0] == "robomaze" and "--seed" in shell
        out = _cli(*shell[1:], cwd=tmp_path)
        if row["kind"] == "plan":
            got = json.loads(out.stdout)["length_m"]
            assert abs(got - row["metrics"]["length_m"]) <= 1e-9
        python = text.split("# Python: the world and the method, step by step\n", 1)[1]
        python = python.split("# or the whole row", 1)[0]
        out = subprocess.run([sys.executable, "-c", python], capture_output=True, text=True,
                             timeout=600, cwd=tmp_path)
        assert abs(float(out.stdout.split()[-1]) - row["metrics"]["length_m"]) <= 1e-9, \
            out.stderr
    ok = _cli("bench", "rerun", str(base), plan_row["id"], cwd=tmp_path)
    assert ok.returncode == 0 and "identical" in ok.stdout


def test_one_seed_names_one_maze_in_the_sweep_and_the_cli(tmp_path, monkeypatch):
    from robomaze.io import read_maze
    from robomaze.world import WorldSpec

    base = _run(tmp_path, "base", monkeypatch=monkeypatch)
    row = next(r for r in read_rows(base) if r["seed"] == 2)
    out = _cli("generate", "kruskal", "3x3", "--seed", "2", "-o", "m.json", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    cli_maze = read_maze(tmp_path / "m.json")
    from robomaze.bench.rerun import row_scenario

    sweep_maze = WorldSpec.from_scenario(row_scenario(row)).build_maze()
    assert np.array_equal(cli_maze.east, sweep_maze.east)
    assert np.array_equal(cli_maze.south, sweep_maze.south)


def test_bench_show_of_an_unknown_row_is_one_line(base, tmp_path):
    out = _cli("bench", "show", str(base), "nosuchrow", cwd=tmp_path)
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("code", [
    "import robomaze, gymnasium; gymnasium.make('robomaze/Maze-v0')",
    "import gymnasium, robomaze; gymnasium.make('robomaze/Maze-v0')",
    "import gymnasium; gymnasium.make('robomaze:robomaze/Maze-v0')",
])
def test_gymnasium_finds_the_env_in_any_import_order(code):
    pytest.importorskip("gymnasium")
    out = subprocess.run([sys.executable, "-c", code + "; print('ok')"], capture_output=True,
                         text=True, timeout=600)
    assert out.stdout.strip() == "ok", out.stderr[-2000:]


def test_import_robomaze_does_not_import_gymnasium():
    out = subprocess.run([sys.executable, "-c", "import sys, robomaze; "
                          "print('gymnasium' in sys.modules)"], capture_output=True, text=True,
                         timeout=600)
    assert out.stdout.strip() == "False"


def test_method_clock_takes_compilation_out():
    numba = pytest.importorskip("numba")
    from robomaze._compile import method_clock

    src = textwrap.dedent("""
        def f(n):
            s = 0.0
            for i in range(n):
                s += i * 0.5
            return s
    """)
    ns = {}
    exec(src, ns)
    kernel = numba.njit(cache=False)(ns["f"])
    with method_clock() as cold:
        kernel(10)
    with method_clock() as warm:
        kernel(10)
    assert cold.compile_s > 0 and warm.compile_s == 0
    assert cold.cpu_s < cold.compile_s      # the compile is not in the method's time


def test_progress_clock_starts_after_the_warm_up():
    import io
    import time

    from robomaze.bench.runner import Progress

    bar = Progress(10, stream=io.StringIO())
    t_created = bar.t0
    time.sleep(0.05)
    bar.start()
    assert bar.t0 >= t_created + 0.05


def test_an_agent_circling_phantom_walls_gave_up_and_keeps_its_safety(tmp_path):
    """Under `mixture` sensor noise wall_follow circles around phantom walls: the
    row is `gave_up` (it moved), not "no collision-free path", and its
    clearance and danger metrics stay in the safety tables."""
    from robomaze.bench.run import run_scenario

    p = tmp_path / "circle.toml"
    p.write_text('seed = 1\n[maze]\ngenerator = "kruskal"\nrows = 6\ncols = 6\n'
                 '[widen]\ncorridor = 3\nresolution = 0.1\n'
                 '[robot]\nfootprint = "disc:0.1"\nnoise = "mixture"\n'
                 '[run]\nagent = "wall_follow"\nmax_steps = 4000\n')
    row = run_scenario(load_sweep(p).scenarios[0])
    assert row["outcome"] == "gave_up" and not row["success"]
    assert "circling" in row["reason"] and "no collision-free" not in row["reason"]
    m = row["metrics"]
    assert m["min_clearance"] is not None and m["danger_fraction"] is not None
    assert m["length_m"] > 0.5
    assert row_poses(row).shape[0] > 10


def test_the_readme_row_id_is_a_run_of_the_ci_sweep():
    """The README's `bench show/rerun ci-results 8a2c642586a5` names a real row:
    ids hash the scenario (not the machine, not the safety net)."""
    import re
    from pathlib import Path

    from robomaze.data import resolve

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    ids = set(re.findall(r"robomaze bench (?:show|rerun) ci-results ([0-9a-f]{12})", readme))
    assert ids
    assert ids <= {s.id for s in load_sweep(resolve("pkg:scenarios/ci.toml")).scenarios}
