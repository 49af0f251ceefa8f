"""Hostile files given to ``robomaze bench`` (issue 20): FIFOs and devices
are refused before ``open()`` (no hang), undecodable and too-deep files are
one line and exit 2 naming the file, and the results folder is not a link.

Commands that could hang run in a child process with a timeout.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from robomaze.cli import main

ROOT = Path(__file__).resolve().parents[2]

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


def _cli(*argv, timeout=120):
    """Exit code and stderr lines of ``robomaze ARGV`` in a child process."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-m", "robomaze", *map(str, argv)], env=env,
                         capture_output=True, text=True, timeout=timeout)
    return out.returncode, out.stderr.strip().splitlines()


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    base = tmp_path_factory.mktemp("res")
    (base / "s.toml").write_text(SWEEP)
    assert main(["bench", str(base / "s.toml"), "-o", str(base / "out"), "-q"]) == 0
    return base / "out"


@pytest.fixture
def copy(results, tmp_path):
    d = tmp_path / "copy"
    shutil.copytree(results, d)
    return d


def _one_line(code, err, *needles):
    err = [e for e in err if " runs from " not in e]   # the sweep's opening line
    assert code == 2, err
    assert len(err) == 1, err
    assert "Traceback" not in err[0]
    for needle in needles:
        assert needle in err[0], err


# ----------------------------------------------------------------- no hang
@pytest.mark.parametrize("name", ["results.jsonl", "sweep.json"])
def test_a_fifo_in_the_results_folder_is_refused_by_report(copy, name):
    (copy / name).unlink()
    os.mkfifo(copy / name)
    _one_line(*_cli("bench", "report", copy), name, "is a FIFO (named pipe); expected a "
                                                    "regular file")


def test_a_fifo_results_file_is_refused_by_compare(copy, results):
    (copy / "results.jsonl").unlink()
    os.mkfifo(copy / "results.jsonl")
    _one_line(*_cli("bench", "compare", copy, results), "baseline", "is a FIFO")
    _one_line(*_cli("bench", "compare", results, copy), "current", "is a FIFO")


def test_a_fifo_results_file_is_refused_by_a_resumed_sweep(copy, tmp_path):
    (copy / "results.jsonl").unlink()
    os.mkfifo(copy / "results.jsonl")
    (tmp_path / "s.toml").write_text(SWEEP)
    _one_line(*_cli("bench", tmp_path / "s.toml", "-o", copy, "-q"), "results.jsonl",
              "not a regular file")


def test_a_fifo_manifest_does_not_hang(copy):
    (copy / ".robomaze-results.json").unlink()
    os.mkfifo(copy / ".robomaze-results.json")
    code, err = _cli("bench", "report", copy)
    assert code in (0, 2) and not any("Traceback" in e for e in err), err


@pytest.mark.parametrize("make, needle", [
    (lambda p: os.mkfifo(p), "is a FIFO (named pipe); expected a regular file"),
    (None, "/dev/zero: is a character device; expected a regular file"),
])
def test_a_sweep_file_that_is_no_regular_file(tmp_path, make, needle):
    path = tmp_path / "s.toml"
    if make is None:
        path = Path("/dev/zero")
    else:
        make(path)
    _one_line(*_cli("bench", path, "-o", tmp_path / "out"), needle)
    assert not (tmp_path / "out").exists()


# ------------------------------------------------- undecodable, too deep
@pytest.mark.parametrize("text, needles", [
    (SWEEP.replace('"prim"', '"pr\xffim"').encode("latin-1"),
     [":3:16: not UTF-8 text (byte 0xff)"]),
    (b"a = " + b"[" * 50_000 + b"]" * 50_000 + b"\n", ["nested more than 32 deep"]),
    (b"a = " + b"{b = " * 5_000 + b"1" + b"}" * 5_000 + b"\n", ["nested more than 32 deep"]),
    (SWEEP.encode() + b"[run.options.astar]\nx = " + b"[" * 40 + b"]" * 40 + b"\n",
     ["nested more than 32 deep"]),
])
def test_undecodable_or_too_deep_sweep_is_one_line(tmp_path, text, needles):
    path = tmp_path / "s.toml"
    path.write_bytes(text)
    _one_line(*_cli("bench", path, "-o", tmp_path / "out"), str(path), *needles)
    assert not (tmp_path / "out").exists()


def test_a_3000_deep_sweep_json_is_one_line(copy):
    (copy / "sweep.json").write_text("[" * 3000 + "]" * 3000)
    for name in ("report.md", "summary.csv"):
        (copy / name).unlink()
    _one_line(*_cli("bench", "report", copy), "sweep.json: JSON nested too deeply")
    # read with the rows, before anything is written (round 16: it was the last
    # line, after the figures, the summary and the statistics)
    assert not (copy / "report.md").exists() and not (copy / "summary.csv").exists()


def test_a_sweep_json_of_the_wrong_shape_is_ignored(copy):
    (copy / "sweep.json").write_text('{"ids": [[1], {"a": 2}], "description": 5}')
    code, err = _cli("bench", "report", copy)
    assert code == 0, err


@pytest.mark.parametrize("command", ["report", "compare"])
def test_a_3000_deep_results_line_is_one_line(copy, results, command):
    with open(copy / "results.jsonl", "a") as fh:
        fh.write('{"id": "x", "deep": ' + "[" * 3000 + "]" * 3000 + "}\n")
    argv = ["bench", "report", copy] if command == "report" else \
        ["bench", "compare", results, copy]
    _one_line(*_cli(*argv), "results.jsonl:2")


def test_a_row_whose_id_is_no_string_is_corrupt(copy):
    with open(copy / "results.jsonl", "a") as fh:
        fh.write('{"id": ["a"], "status": "ok"}\n{"id": "b", "status": "ok"}\n')
    _one_line(*_cli("bench", "report", copy), "results.jsonl:2: corrupt result row")


# ------------------------------------------------------ the folder is no link
def test_an_output_folder_that_is_a_link_is_refused(tmp_path):
    (tmp_path / "s.toml").write_text(SWEEP)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "elsewhere")
    assert main(["bench", str(tmp_path / "s.toml"), "-o", str(tmp_path / "link"), "-q"]) == 2
    assert list((tmp_path / "elsewhere").iterdir()) == []


def test_a_report_into_a_linked_folder_is_refused(results, tmp_path, capsys):
    (tmp_path / "link").symlink_to(results)
    assert main(["bench", "report", str(tmp_path / "link")]) == 2
    assert "is a symbolic link" in capsys.readouterr().err


def test_a_link_of_another_user_on_the_way_is_refused(tmp_path):
    (tmp_path / "s.toml").write_text(SWEEP)
    (tmp_path / "elsewhere").mkdir()
    link = tmp_path / "theirs"
    link.symlink_to(tmp_path / "elsewhere")
    try:
        os.lchown(link, 54321, 54321)          # as if another user had made it
    except PermissionError:
        pytest.skip("needs root to hand a link to another user")
    code, err = _cli("bench", tmp_path / "s.toml", "-o", link / "out", "-q")
    _one_line(code, err, "goes through the symbolic link", "owned by user id 54321")
    assert list((tmp_path / "elsewhere").iterdir()) == []


def test_a_link_of_your_own_on_the_way_is_followed(tmp_path):
    (tmp_path / "s.toml").write_text(SWEEP)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "mine").symlink_to(tmp_path / "elsewhere")
    assert main(["bench", str(tmp_path / "s.toml"), "-o", str(tmp_path / "mine" / "out"),
                 "-q"]) == 0
    assert (tmp_path / "elsewhere" / "out" / "results.jsonl").is_file()


# ------------------------------------- samples of what the fuzz campaign found
# (benchmarks/fuzz_inputs.py; one per failure class, see benchmarks/README.md)
def _edit_row(d: Path, index: int, edit) -> None:
    import json

    rows = [json.loads(line) for line in (d / "results.jsonl").read_text().splitlines()]
    edit(rows[index])
    (d / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


def test_fuzz_sample_a_list_where_the_scenario_holds_a_number(copy, results):
    # TypeError: unhashable type: 'list' while grouping by the swept axes
    import json

    first = json.loads((copy / "results.jsonl").read_text().splitlines()[0])
    first["id"] = "other"
    first["scenario"]["maze"]["cols"] = [1, 2]
    with open(copy / "results.jsonl", "a") as fh:
        fh.write(json.dumps(first) + "\n")
    assert main(["bench", "report", str(copy)]) == 0
    assert "cols=[1, 2]" in (copy / "report.md").read_text()


def test_fuzz_sample_a_number_where_a_row_holds_text(copy):
    # TypeError: '<' not supported between instances of 'str' and 'float'
    _edit_row(copy, 0, lambda r: r.update(sweep=1.5))
    with open(copy / "results.jsonl", "a") as fh:
        fh.write('{"id": "tail", "status": "ok"}\n')
    _one_line(*_cli("bench", "report", copy),
              "results.jsonl:1: corrupt result row: field 'sweep': expected text, got float")


def test_fuzz_sample_a_list_where_a_metric_holds_a_number(copy):
    # TypeError: float() argument must be a string or a real number, not 'list'
    _edit_row(copy, 0, lambda r: r["metrics"].update(length_ratio=[[1]]))
    with open(copy / "results.jsonl", "a") as fh:
        fh.write('{"id": "tail", "status": "ok"}\n')
    _one_line(*_cli("bench", "report", copy), "results.jsonl:1: corrupt result row: field "
                                              "'metrics.length_ratio': expected a number, got list")


def test_fuzz_sample_an_overflowing_resolution_is_left_off_the_figures(copy):
    # ValueError: Axis limits cannot be NaN or Inf (corridor * 1e308 m overflows)
    _edit_row(copy, 0, lambda r: r.update(resolution=1e308))
    code, err = _cli("bench", "report", copy)
    assert code == 0 and not any("Traceback" in line for line in err), err
    assert (copy / "report.md").is_file()


def test_fuzz_sample_text_where_a_metric_holds_a_number(copy):
    # ValueError: could not convert string to float: '' (only label metrics are text)
    _edit_row(copy, 0, lambda r: r["metrics"].update(danger_fraction=""))
    with open(copy / "results.jsonl", "a") as fh:
        fh.write('{"id": "tail", "status": "ok"}\n')
    _one_line(*_cli("bench", "report", copy), "results.jsonl:1: corrupt result row: field "
                                              "'metrics.danger_fraction': expected a number, got str")
