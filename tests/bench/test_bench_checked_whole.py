"""A sweep is checked whole before its first run (issue 20): every maze file
is read, every name and option resolved; a bad one is one line, exit 2, and
nothing is written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from robomaze.cli import main

ROOT = Path(__file__).resolve().parents[2]
GOOD = ROOT / "tests" / "data" / "micromouse" / "16MM2019CX.maze"

SWEEP = """
[maze]
{maze}
[widen]
corridor = 3
resolution = 0.1
[robot]
footprint = "disc:0.04"
[run]
{run}
"""


def _bench(tmp_path, capsys, maze='generator = "prim"\nrows = 3\ncols = 3',
           run='planner = "astar"'):
    p = tmp_path / "s.toml"
    p.write_text(SWEEP.format(maze=maze, run=run))
    code = main(["bench", str(p), "-o", str(tmp_path / "out"), "-q"])
    return code, capsys.readouterr().err.strip()


def test_a_bad_maze_file_is_refused_before_the_first_run(tmp_path, capsys):
    (tmp_path / "bad.maze").write_text("this is no maze\n")
    (tmp_path / "good.maze").write_bytes(GOOD.read_bytes())
    code, err = _bench(tmp_path, capsys, maze='file = ["good.maze", "bad.maze"]')
    assert code == 2 and len(err.splitlines()) == 1, err
    assert "maze.file: 'bad.maze': " in err and "bad.maze" in err
    assert not (tmp_path / "out").exists(), "a run started before the check"


def test_a_device_as_maze_file_is_not_a_regular_file(tmp_path, capsys):
    code, err = _bench(tmp_path, capsys, maze='file = "/dev/zero"')
    assert code == 2 and len(err.splitlines()) == 1, err
    assert "'/dev/zero' is a character device; expected a regular file" in err
    assert "no such file" not in err


def test_a_fifo_as_maze_file_is_refused_without_blocking(tmp_path, capsys):
    os.mkfifo(tmp_path / "pipe.maze")
    code, err = _bench(tmp_path, capsys, maze='file = "pipe.maze"')
    assert code == 2 and "is a FIFO (named pipe); expected a regular file" in err


def test_a_missing_maze_file_is_no_such_file(tmp_path, capsys):
    code, err = _bench(tmp_path, capsys, maze='file = "nowhere.maze"')
    assert code == 2 and "maze.file: no such file" in err


@pytest.mark.parametrize("run, message", [
    ('planner = "ompl:prmstar"\n[run.options."ompl:prmstar"]\nmax_check = 10',
     "run.options.ompl:prmstar: unknown option 'max_check' for ompl:prmstar "
     "(did you mean 'max_checks'?)"),
    ('agent = "explore"\n[run.options.explore]\nmargn = 0.1',
     "run.options.explore.margn: agent 'explore' takes no option 'margn'"),
    ('agent = "follow_plan"\n[run.options.follow_plan]\nmethod = "astr"',
     "run.options.follow_plan: unknown planner 'astr'"),
    ('agent = "follow_plan"\n[run.options.follow_plan]\nmethod = "max_clearance"\nwieght = 2',
     "run.options.follow_plan.wieght: agent 'follow_plan' takes the options"),
])
def test_every_option_is_resolved_before_the_first_run(tmp_path, capsys, run, message):
    code, err = _bench(tmp_path, capsys, run=run)
    assert code == 2 and len(err.splitlines()) == 1 and message in err, err
    assert not (tmp_path / "out").exists()
