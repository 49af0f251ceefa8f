"""Hostile walk records given to the CLI (issue 20): deep JSON in the header
or a move, FIFOs and devices are one line and exit 2 (no hang, no traceback)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from robomaze.traverse.record import TraversalRecord
from trav_mazes import comb, comb_detour_walk

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def lines(tmp_path):
    rec = TraversalRecord.from_cells(comb(2), comb_detour_walk(2), times=range(9))
    return rec.save(tmp_path / "walk.jsonl").read_text().split("\n")


def _cli(*argv):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-m", "robomaze", *map(str, argv)], env=env,
                         capture_output=True, text=True, timeout=120)
    return out.returncode, out.stderr.strip().splitlines()


@pytest.mark.parametrize("line, depth", [(0, 3000), (1, 3000), (1, 100_000)])
@pytest.mark.parametrize("command", ["score", "replay"])
def test_deep_json_in_a_record_is_one_line(tmp_path, lines, line, depth, command):
    lines[line] = lines[line][:-1] + ',"x":' + "[" * depth + "]" * depth + "}"
    path = tmp_path / "deep.jsonl"
    path.write_text("\n".join(lines))
    argv = [command, path] + (["-o", tmp_path / "x.png"] if command == "replay" else [])
    code, err = _cli(*argv)
    assert code == 2 and len(err) == 1, err
    assert f"deep.jsonl:{line + 1}: malformed JSON: JSON nested too deeply" in err[0]


@pytest.mark.parametrize("make, needle", [
    (os.mkfifo, "FIFO"),
    (lambda p: p.symlink_to("/dev/zero"), "character device"),
])
def test_a_record_that_is_no_regular_file_is_refused_unread(tmp_path, make, needle):
    path = tmp_path / "walk.jsonl"
    make(path)
    code, err = _cli("score", path)
    assert code == 2 and len(err) == 1 and needle in err[0], err
