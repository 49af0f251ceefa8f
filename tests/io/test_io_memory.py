"""The memory budget: readers and writers estimate their peak before
allocating and refuse past it, naming the file and the size."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from robomaze import Maze, OccupancyGrid, limit_cells
from robomaze.cli import main
from robomaze.errors import MazeFormatError, ParameterError
from robomaze.io import (limit_memory, memory_budget, read_grid, read_maze, read_num,
                         read_rosmap, write_grid, write_maze)
from robomaze.io._limits import MEMORY_ENV, check_memory, parse_bytes, physical_memory

ROOT = Path(__file__).resolve().parents[2]


def test_default_budget_is_a_quarter_of_physical_memory(monkeypatch):
    monkeypatch.delenv(MEMORY_ENV, raising=False)
    phys = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    assert physical_memory() == phys
    assert memory_budget() == int(phys * 0.25)


def test_environment_and_context_set_the_budget(monkeypatch):
    monkeypatch.setenv(MEMORY_ENV, "3G")
    assert memory_budget() == 3 << 30
    with limit_memory("100M"):
        assert memory_budget() == 100 << 20
        with limit_memory(5000):
            assert memory_budget() == 5000
        assert memory_budget() == 100 << 20
    monkeypatch.setenv(MEMORY_ENV, "lots")
    with pytest.raises(ParameterError, match=MEMORY_ENV):
        memory_budget()


@pytest.mark.parametrize("text, n", [("1", 1), ("2k", 2048), ("2KB", 2000), ("1.5G", 3 << 29),
                                     ("7 MiB", 7 << 20), ("1T", 1 << 40)])
def test_parse_bytes(text, n):
    assert parse_bytes(text) == n


@pytest.mark.parametrize("text", ["", "0", "-1", "G", "12X", "1e9", "nan"])
def test_parse_bytes_rejects(text):
    with pytest.raises(ParameterError, match="memory size"):
        parse_bytes(text)


def test_check_memory_names_file_size_and_budget():
    with limit_memory("1M"):
        assert check_memory("x", 1 << 20) == 1 << 20
        with pytest.raises(MazeFormatError) as info:
            check_memory("a 3000x3000 image", 9_000_000, "a.png")
    msg = str(info.value)
    assert msg.startswith("a.png: reading a 3000x3000 image needs about 8.58 MiB")
    assert "budget of 1.00 MiB" in msg and "--max-memory" in msg
    with limit_memory("1M"), pytest.raises(ParameterError, match="^b.map: writing"):
        check_memory("a grid", 2 << 20, "b.map", verb="writing")


def _short_num(tmp_path, side):
    p = tmp_path / "big.num"
    p.write_text(f"0 0 1 1 1 1\n{side} {side} 1 1 1 1\n")
    return p


def test_short_num_file_is_refused_before_allocating(tmp_path):
    p = _short_num(tmp_path, 8000)
    assert p.stat().st_size == 30
    with pytest.raises(MazeFormatError, match=r"missing \(2 of 64016001 lines\)") as info:
        read_num(p)
    assert info.value.line == 2


PEAK_SCRIPT = """
import sys
def hwm():  # VmHWM: ru_maxrss survives execve and would report the parent's peak
    return int([l for l in open('/proc/self/status') if l.startswith('VmHWM:')][0].split()[1])
from robomaze import limit_cells
from robomaze.errors import RobomazeError
from robomaze.io import read_maze
before = hwm()
try:
    with limit_cells(10 ** 11):
        read_maze(sys.argv[1])
except RobomazeError as exc:
    print(type(exc).__name__)
after = hwm()
print((after - before) * 1024)
"""


@pytest.mark.parametrize("side", [8000, 99999])
def test_short_num_file_peak_memory(tmp_path, side):
    # a 30-byte file claiming 8001x8001 (or 10^10 cells with the cell limit
    # raised): refused without growing the process by more than 20 MB
    p = _short_num(tmp_path, side)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", PEAK_SCRIPT, str(p)], capture_output=True,
                         text=True, env=env, check=True).stdout.split()
    assert out[0] == "MazeFormatError"
    assert int(out[1]) < 20 << 20


def test_cli_huge_num_with_raised_cell_limit_exits_2(tmp_path, capsys):
    p = _short_num(tmp_path, 99999)
    assert main(["--max-cells", "100000000000", "plan", str(p)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "missing" in err and str(p) in err


def test_png_past_the_budget_is_refused_from_its_header(tmp_path):
    p = tmp_path / "g.png"
    Image.fromarray(np.zeros((1000, 1000), np.uint8)).save(p)
    with limit_memory("8M"), pytest.raises(MazeFormatError) as info:
        read_grid(p)
    assert "1000x1000 pixel PNG needs about" in str(info.value) and str(p) in str(info.value)
    with limit_memory("200M"):
        assert read_grid(p).shape == (1000, 1000)


def test_rosmap_image_past_the_budget_names_the_image(tmp_path):
    (tmp_path / "m.pgm").write_bytes(b"P5\n2000 1000\n255\n" + bytes(2_000_000))
    (tmp_path / "m.yaml").write_text("image: m.pgm\nresolution: 0.05\norigin: [0, 0, 0]\n"
                                     "negate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.25\n")
    with limit_memory("10M"), pytest.raises(MazeFormatError, match="2000x1000 pixel") as info:
        read_rosmap(tmp_path / "m.yaml")
    assert Path(info.value.path).name == "m.pgm"


def test_text_readers_check_the_file_size(tmp_path):
    p = tmp_path / "m.map"
    p.write_text("type octile\nheight 300\nwidth 300\nmap\n" + ("." * 300 + "\n") * 300)
    with limit_memory("100K"), pytest.raises(MazeFormatError, match="movingai file of"):
        read_grid(p)
    assert read_grid(p).shape == (300, 300)


@pytest.mark.parametrize("ext", [".map", ".png", ".pgm", ".npy", ".txt", ".yaml"])
def test_grid_writers_refuse_past_the_budget(tmp_path, ext):
    g = OccupancyGrid(np.zeros((1000, 1000), bool))
    with limit_memory("1M"), pytest.raises(ParameterError, match="writing a 1000x1000"):
        write_grid(g, tmp_path / f"g{ext}")
    assert not (tmp_path / f"g{ext}").exists()


@pytest.mark.parametrize("ext", [".maze", ".num", ".json"])
def test_maze_writers_refuse_past_the_budget(tmp_path, ext):
    m = Maze.empty(300, 300)
    with limit_memory("1M"), pytest.raises(ParameterError, match="writing a 300x300"):
        write_maze(m, tmp_path / f"m{ext}")
    write_maze(m, tmp_path / f"m{ext}")
    assert read_maze(tmp_path / f"m{ext}").shape == (300, 300)


def test_cli_max_memory_option(tmp_path, capsys):
    p = tmp_path / "g.png"
    Image.fromarray(np.zeros((1000, 1000), np.uint8)).save(p)
    assert main(["--max-memory", "4M", "stats", str(p)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "budget of 4.00 MiB" in err
    with pytest.raises(SystemExit) as info:
        main(["--max-memory", "4X", "stats", str(p)])
    assert info.value.code == 2
    assert "memory size" in capsys.readouterr().err


def test_direct_parsers_check_the_announced_size():
    from robomaze.io.micromouse import format_micromouse, parse_micromouse
    from robomaze.io.movingai import parse_movingai

    text = "type octile\nheight 200\nwidth 300\nmap\n" + ("." * 300 + "\n") * 200
    with limit_memory("100K"), pytest.raises(MazeFormatError, match="300x200 map needs"):
        parse_movingai(text, path="m.map")
    assert parse_movingai(text).shape == (200, 300)
    maze_text = format_micromouse(Maze.empty(100, 100))
    with limit_memory("100K"), pytest.raises(MazeFormatError, match="100x100 maze needs"):
        parse_micromouse(maze_text, path="m.maze")
    assert parse_micromouse(maze_text).maze.shape == (100, 100)
