"""Results directories: one writer at a time, never another file destroyed,
nothing written or deleted outside the directory or through a link."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from robomaze.bench import load_sweep, read_rows, run_sweep, write_report
from robomaze.bench.files import LOCK_NAME, DirLock, Manifest, safe_name
from robomaze.bench.store import ResultStore
from robomaze.cli import main
from robomaze.errors import ResultsDirError

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
PLUGIN = (HERE / "bench_plugin_planners.py").as_posix()


def _sweep(tmp_path: Path, planner: str = '"astar"', seeds: str = "1") -> Path:
    p = tmp_path / "s.toml"
    p.write_text(f"""
plugins = ["{PLUGIN}"]
seed = {seeds}
[maze]
generator = "kruskal"
rows = 3
cols = 3
[widen]
corridor = [1, 3]
resolution = 0.1
[robot]
footprint = "disc:0.04"
[run]
planner = {planner}
""")
    return p


def _cli(*args, slow: float = 0.0, **popen) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(REPO), ROBOMAZE_TEST_SLOW=str(slow))
    return subprocess.Popen([sys.executable, "-m", "robomaze", "bench", *map(str, args), "-q",
                             "--workers", "1", "--no-report"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, **popen)


# ------------------------------------------------------------------ lock
def test_a_second_writer_is_refused_naming_the_holder(tmp_path):
    sweep = load_sweep(_sweep(tmp_path))
    out = tmp_path / "out"
    out.mkdir()
    with DirLock(out, "test holder"):
        with pytest.raises(ResultsDirError) as info:
            run_sweep(sweep.scenarios, out, workers=1, progress=False)
        msg = str(info.value)
        assert f"pid {os.getpid()}" in msg and "test holder" in msg and "command" in msg
        with pytest.raises(ResultsDirError, match="another robomaze process"):
            run_sweep(sweep.scenarios, out, workers=1, progress=False, retry_failed=True)
    assert not (out / "results.jsonl").exists()
    run_sweep(sweep.scenarios, out, workers=1, progress=False)  # released: runs now
    assert len(read_rows(out)) == 2


def test_two_concurrent_sweeps_into_one_directory_the_second_refuses(tmp_path):
    sweep = _sweep(tmp_path, '"test_slow_astar"', seeds="[1, 2, 3]")
    out = tmp_path / "out"
    first = _cli(sweep, "-o", out, slow=0.5)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:  # the holder has written its name
            lock = out / LOCK_NAME
            if lock.exists() and lock.read_text().strip():
                break
            time.sleep(0.05)
        second = _cli(sweep, "-o", out)
        _, err = second.communicate(timeout=120)
        assert second.returncode == 2
        assert f"another robomaze process is writing here (pid {first.pid}" in err
        assert len(err.strip().splitlines()) == 1  # the error alone (issue 35: no header first)
    finally:
        first.communicate(timeout=240)
    assert first.returncode == 0
    ids = [r["id"] for r in read_rows(out, dedupe=False)]
    assert len(ids) == 6 == len(set(ids))


def test_kill_9_during_retry_failed_loses_and_duplicates_no_row(tmp_path):
    """Kill -9 at random moments of --retry-failed (the rewrite and the runs),
    then finish: every run exactly once, every successful row kept as it was."""
    sweep_file = _sweep(tmp_path, '"test_slow_astar"', seeds="[1, 2, 3, 4]")
    scenarios = load_sweep(sweep_file).scenarios
    out = tmp_path / "out"
    run_sweep(scenarios[:4], out, workers=1, progress=False)
    good = {r["id"]: r for r in read_rows(out)}
    with ResultStore(out) as store:  # four failed runs to retry
        for sc in scenarios[4:]:
            store.append({"id": sc.id, "status": "error", "success": False, "reason": "boom"})
    rng = random.Random(11)
    for _ in range(5):
        proc = _cli(sweep_file, "-o", out, "--retry-failed", slow=0.3)
        time.sleep(rng.uniform(0.0, 2.5))
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=60)
        rows = read_rows(out, dedupe=False)
        ids = [r["id"] for r in rows]
        assert len(ids) == len(set(ids))  # never a run twice
        for rid, row in good.items():  # never a successful row lost or changed
            assert [r for r in rows if r["id"] == rid] == [row]
    proc = _cli(sweep_file, "-o", out, "--retry-failed", slow=0.0)
    assert proc.communicate(timeout=240) and proc.returncode == 0
    rows = read_rows(out, dedupe=False)
    assert sorted(r["id"] for r in rows) == sorted(sc.id for sc in scenarios)
    assert all(r["status"] == "ok" for r in rows)


# ------------------------------------------------------- not robomaze's files
def test_output_that_is_an_existing_file_is_refused_untouched(tmp_path, capsys):
    sweep = _sweep(tmp_path)
    victim = tmp_path / "existing_file.jsonl"
    victim.write_text('{"id": "mine", "precious": true}\n')
    assert main(["bench", str(sweep), "-o", str(victim), "-q"]) == 2
    assert "must be a directory" in capsys.readouterr().err
    other = tmp_path / "notes.txt"
    other.write_text("keep me\n")
    assert main(["bench", str(sweep), "-o", str(other), "-q"]) == 2
    assert "is an existing file" in capsys.readouterr().err
    assert victim.read_text() == '{"id": "mine", "precious": true}\n'
    assert other.read_text() == "keep me\n"


def test_a_directory_holding_other_files_is_refused(tmp_path, capsys):
    sweep = _sweep(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    (home / "thesis.tex").write_text("x")
    assert main(["bench", str(sweep), "-o", str(home), "-q"]) == 2
    assert "holds files robomaze did not write" in capsys.readouterr().err
    assert sorted(p.name for p in home.iterdir()) == ["thesis.tex"]
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["bench", str(sweep), "-o", str(empty), "-q", "--no-report"]) == 0
    assert main(["bench", str(sweep), "-o", str(empty), "-q", "--no-report"]) == 0  # ours now


def test_results_file_that_is_a_link_is_not_written_through(tmp_path, capsys):
    sweep = _sweep(tmp_path)
    out = tmp_path / "out"
    outside = tmp_path / "outside.jsonl"
    outside.write_text("")
    out.mkdir()
    (out / "results.jsonl").symlink_to(outside)  # not robomaze's directory: refused
    assert main(["bench", str(sweep), "-o", str(out), "-q"]) == 2
    assert "holds files robomaze did not write" in capsys.readouterr().err
    (out / "results.jsonl").unlink()
    assert main(["bench", str(sweep), "-o", str(out), "-q", "--no-report"]) == 0
    (out / "results.jsonl").unlink()  # robomaze's directory, a link planted in it
    (out / "results.jsonl").symlink_to(outside)
    for retry in ([], ["--retry-failed"]):
        assert main(["bench", str(sweep), "-o", str(out), "-q", *retry]) == 2
        assert "symbolic link" in capsys.readouterr().err
    assert outside.read_text() == ""


# --------------------------------------------------------- crafted report
def _snapshot(root: Path, skip: Path) -> dict:
    return {p: p.read_bytes() for p in root.rglob("*")
            if p.is_file() and not p.is_symlink() and skip not in p.parents}


def test_report_on_a_crafted_directory_stays_inside_and_deletes_only_its_files(tmp_path):
    sweep = load_sweep(_sweep(tmp_path))
    out = tmp_path / "box" / "out"
    run_sweep(sweep.scenarios, out, workers=1, progress=False)
    write_report(out)  # a first report: its pictures are in the manifest
    first_examples = sorted(p.name for p in (out / "examples").iterdir())
    assert first_examples and all(f"examples/{n}" in Manifest.load(out).files
                                  for n in first_examples)
    # craft: names that walk out, a foreign picture, an examples/ link elsewhere
    rows = read_rows(out)
    rows[0] = dict(rows[0], method="../../../evil", footprint="../../x:0.1")
    rows[1] = dict(rows[1], method="$x^$/..", kind="plan")
    (out / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (out / "examples" / "user_drawing.png").write_bytes(b"not robomaze's")
    before = _snapshot(tmp_path, out)
    written = write_report(out)
    assert _snapshot(tmp_path, out) == before  # nothing outside changed or appeared
    for p in written.values():
        assert out.resolve() in p.resolve().parents
    assert (out / "examples" / "user_drawing.png").read_bytes() == b"not robomaze's"
    for name in first_examples:  # the old pictures, robomaze's own, were replaced
        assert not (out / "examples" / name).exists() or f"examples/{name}" in \
            Manifest.load(out).files
    assert any("evil" in p.name for p in (out / "examples").iterdir())
    # a link: neither written through nor emptied
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "holiday.png").write_bytes(b"photo")
    for rel in list(Manifest.load(out).files):
        if rel.startswith("examples/"):
            (out / rel).unlink()
    (out / "examples" / "user_drawing.png").unlink()
    (out / "examples").rmdir()
    (out / "examples").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(ResultsDirError, match="symbolic link"):
        write_report(out)
    assert sorted(p.name for p in elsewhere.iterdir()) == ["holiday.png"]
    assert (elsewhere / "holiday.png").read_bytes() == b"photo"


def test_safe_names_stay_in_their_folder_and_do_not_collide():
    for text in ("../../etc/passwd", "a/b", "..", ".hidden", "x" * 500, "poly:0,0;1,0;0,1",
                 "ümlaut", "a\x00b", "C:\\win"):
        name = safe_name(text)
        assert "/" not in name and "\\" not in name and not name.startswith(".")
        assert 0 < len(name) <= 80 and name.isascii()
    assert safe_name("a/b") != safe_name("a_b") != safe_name("a:b")


def test_a_folder_another_worker_makes_meanwhile_is_used_not_an_error(tmp_path, monkeypatch):
    # two sweep workers building the reference cache at once: the folder appears
    # between one worker's check and its mkdir (seen in CI as FileExistsError)
    from robomaze.bench import files

    made = tmp_path / "cache"
    real_exists = Path.exists

    def late_exists(self, *a, **k):
        if self == made and not real_exists(self):
            made.mkdir()                  # the other worker wins the race
            return False
        return real_exists(self, *a, **k)

    monkeypatch.setattr(Path, "exists", late_exists)
    out = files.target(tmp_path, "cache/key.npz")
    assert out == made / "key.npz" and made.is_dir()
