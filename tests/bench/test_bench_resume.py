"""Kill a sweep mid-way (SIGKILL, whole process group) and rerun: nothing lost or doubled."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from robomaze.bench import load_sweep, read_rows
from robomaze.bench.store import ResultStore

HERE = Path(__file__).resolve().parent


def _sweep(tmp_path: Path) -> Path:
    p = tmp_path / "slow.toml"
    p.write_text(f"""
plugins = ["{(HERE / 'bench_plugin_planners.py').as_posix()}"]
seed = [1, 2, 3, 4]
[maze]
generator = "kruskal"
rows = 3
cols = 3
[widen]
corridor = [1, 3, 5]
resolution = 0.1
[robot]
footprint = "disc:0.04"
[run]
planner = "test_slow_astar"
""")
    return p


def _cli(sweep: Path, out: Path, **popen):
    env = dict(os.environ, ROBOMAZE_TEST_SLOW="0.2")
    return subprocess.Popen([sys.executable, "-m", "robomaze.cli", "bench", str(sweep), "-o", str(out),
                             "--workers", "1", "-q", "--no-report"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **popen)


def test_kill_mid_sweep_then_resume(tmp_path):
    sweep = _sweep(tmp_path)
    out = tmp_path / "out"
    results = out / "results.jsonl"
    proc = _cli(sweep, out, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if results.exists() and results.read_text().count("\n") >= 3:
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)  # the sweep and its workers, no clean-up
    proc.wait()
    text = results.read_text()
    before = text[: text.rfind("\n") + 1].splitlines()  # whole lines (a kill may cut the last)
    assert 3 <= len(before) < 12
    from robomaze.bench import write_report

    md = write_report(out, figures=False, examples=False)["report"].read_text()
    assert f"Results for {len(before)} of the 12 scenarios" in md and "not run yet" in md
    # a crash in the middle of a write leaves half a line behind
    with open(results, "a") as fh:
        fh.write(before[0][: len(before[0]) // 2])
    proc = _cli(sweep, out)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err.decode()
    assert f"{12 - len(before)} ran, {len(before)} already done" in err.decode()
    lines = results.read_text().splitlines()
    rows = [json.loads(line) for line in lines]  # every line is whole JSON again
    ids = [r["id"] for r in rows]
    assert len(ids) == len(set(ids)) == 12
    assert set(ids) == {s.id for s in load_sweep(sweep).scenarios}
    assert lines[: len(before)] == before  # finished rows were not rewritten
    assert all(r["status"] == "ok" and r["success"] for r in rows), [r["reason"] for r in rows]


def test_store_tolerates_only_a_truncated_last_line(tmp_path):


    from robomaze.errors import RecordFormatError

    p = tmp_path / "results.jsonl"
    p.write_text('{"id": "a"}\n{"id": "b"}\n{"id": "c", "metr')
    assert [r["id"] for r in read_rows(tmp_path)] == ["a", "b"]
    with ResultStore(tmp_path) as store:
        assert store.done == {"a", "b"}
        store.append({"id": "c"})
    assert p.read_text() == '{"id": "a"}\n{"id": "b"}\n{"id": "c"}\n'
    p.write_text('{"id": "a"}\nnot json\n{"id": "c"}\n')
    with pytest.raises(RecordFormatError, match=r"results.jsonl:2: corrupt result row"):
        read_rows(tmp_path)
