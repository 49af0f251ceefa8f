"""One line means one line (issue 35): nothing is printed on stderr before an
error, and library messages (argparse usage of nested commands, shapely
warnings, multi-line texts) are folded into the one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from robomaze.cli import main, one_line
from robomaze.errors import ParameterError

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


def _err_lines(capsys) -> list[str]:
    return capsys.readouterr().err.strip().splitlines()


@pytest.mark.parametrize("argv", [["mouse", "sim"], ["mouse", "route", "--bogus"],
                                  ["bench", "--bogus"], ["bogus"]])
def test_argparse_errors_of_nested_commands_are_one_line(capsys, argv):
    with pytest.raises(SystemExit) as e:
        main(argv)
    lines = _err_lines(capsys)
    assert e.value.code == 2 and len(lines) == 1, lines
    assert "error:" in lines[0] and "usage:" not in lines[0]


def test_a_huge_footprint_is_refused_without_library_warnings():
    # in a fresh process: warnings would be printed once per process
    p = subprocess.run([sys.executable, "-m", "robomaze", "plan", "prim", "3x3", "--seed", "1",
                        "--footprint", "disc:1e308"], capture_output=True, text=True,
                       timeout=120, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    lines = [ln for ln in p.stderr.splitlines() if "compiling numba" not in ln]
    assert p.returncode == 2 and len(lines) == 1, p.stderr
    assert "radius must be <= 1000000" in lines[0] and "Warning" not in p.stderr


@pytest.mark.parametrize("spec", ["rect:1e308x1", "poly:0,0;1e300,0;0,1e300",
                                  "rect:1x1@1e300,0"])
def test_every_footprint_size_is_bounded(capsys, spec):
    assert main(["plan", "prim", "3x3", "--seed", "1", "--footprint", spec]) == 2
    assert len(_err_lines(capsys)) == 1


def test_simulate_without_a_seed_says_nothing_before_its_error(capsys):
    # the robot fits nowhere: an error after the seed was drawn
    code = main(["simulate", "prim", "3x3", "--footprint", "disc:50"])
    lines = _err_lines(capsys)
    assert code == 2 and len(lines) == 1, lines
    assert "seed" not in lines[0].split("error:")[0]


def _sweep(tmp_path) -> Path:
    p = tmp_path / "s.toml"
    p.write_text(SWEEP)
    return p


@pytest.mark.parametrize("make_out", ["file", "fifo-results", "symlinked-results",
                                      "dev-full", "workers-0"])
def test_bench_says_nothing_before_refusing_its_output(tmp_path, capsys, make_out):
    out = tmp_path / "out"
    extra = []
    if make_out == "file":
        out.write_text("not a results folder\n")
    elif make_out == "fifo-results":
        out.mkdir()
        os.mkfifo(out / "results.jsonl")
    elif make_out == "symlinked-results":
        out.mkdir()
        (tmp_path / "elsewhere.jsonl").write_text("")
        os.symlink(tmp_path / "elsewhere.jsonl", out / "results.jsonl")
    elif make_out == "dev-full":
        out = Path("/dev/full")
    else:
        extra = ["--workers", "0"]
    code = main(["bench", str(_sweep(tmp_path)), "-o", str(out), "-q", *extra])
    lines = _err_lines(capsys)
    assert code == 2 and len(lines) == 1, lines
    assert "runs from" not in lines[0]


def test_bench_says_what_it_runs_once_the_output_is_good(tmp_path, capsys):
    code = main(["bench", str(_sweep(tmp_path)), "-o", str(tmp_path / "out"), "-q",
                 "--no-report"])
    err = capsys.readouterr().err
    assert code == 0 and "1 runs from" in err


def test_multi_line_error_messages_are_folded(capsys, monkeypatch):
    import robomaze.cli.stats as stats_cmd

    def boom(args):
        raise ParameterError("first line\n  second line\n    ^")
    monkeypatch.setattr(stats_cmd, "run", boom)
    main(["stats", "prim", "3x3", "--seed", "1"])
    assert _err_lines(capsys) == ["robomaze stats: error: first line second line ^"]
    assert one_line("a\n\tb") == "a b"
