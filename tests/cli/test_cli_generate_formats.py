"""`robomaze generate -o` writes every registered maze and grid format, and
what it writes reads back through robomaze.io and `robomaze mouse`
(issue 10 §4), run as a subprocess of this checkout."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from robomaze.cli.generate import GRID_OUTPUTS, MAZE_OUTPUTS
from robomaze.generate import generate
from robomaze.grid import widen
from robomaze.io import extensions, read_grid, read_maze

ROOT = Path(__file__).resolve().parents[2]


def robomaze(*args, cwd):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "robomaze", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_outputs_come_from_the_format_registry():
    assert set(MAZE_OUTPUTS) == set(extensions("maze")) == {".maze", ".txt", ".num", ".json"}
    assert set(GRID_OUTPUTS) == set(extensions("grid")) - {".png", ".txt"}


@pytest.mark.parametrize("ext", [".txt", ".maze", ".num", ".json"])
def test_maze_files_round_trip_through_read_maze_and_mouse(tmp_path, ext):
    out = tmp_path / f"maze{ext}"
    r = robomaze("generate", "backtracker", "8x8", "--seed", "4", "-o", out.name, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    expected = generate("backtracker", 8, 8, rng=4)
    back = read_maze(out)
    assert np.array_equal(back.east, expected.east)
    assert np.array_equal(back.south, expected.south)
    assert set(back.openings) == set(expected.openings)
    if ext != ".num":              # .num stores walls only (start (0,0), centre goals)
        assert back == expected
    r = robomaze("mouse", "solve", out.name, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "success                          True" in r.stdout


@pytest.mark.parametrize("ext", [".map", ".yaml", ".pgm", ".npy"])
def test_grid_files_are_the_widened_maze(tmp_path, ext):
    out = tmp_path / f"grid{ext}"
    r = robomaze("generate", "kruskal", "5x6", "--seed", "2", "--corridor", "2", "--wall", "1",
                 "--resolution", "0.25", "-o", out.name, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    expected = widen(generate("kruskal", 5, 6, rng=2), corridor=2, wall=1)
    assert np.array_equal(read_grid(out).occupied, expected.occupied)
    if ext == ".yaml":
        assert read_grid(out).resolution == 0.25


def test_unknown_output_extension_lists_the_registry(tmp_path):
    r = robomaze("generate", "prim", "3x3", "-o", "m.xyz", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert ".maze" in r.stderr and ".num" in r.stderr and ".yaml" in r.stderr


@pytest.mark.parametrize("ext, magic", [(".pdf", b"%PDF"), (".svg", b"<?xml"), (".png", b"\x89PNG")])
def test_pictures_in_every_vector_and_raster_format(tmp_path, ext, magic):
    out = tmp_path / f"maze{ext}"
    proc = robomaze("generate", "backtracker", "4x4", "--seed", "1", "-o", str(out), "--solution",
                    cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes().startswith(magic)
