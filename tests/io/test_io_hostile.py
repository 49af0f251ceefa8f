"""Hostile files (issue 11): every reader error is a robomaze error naming the
file and line, sizes are checked before allocating, only regular files are
read, and messages never quote the file's bytes."""

import json
import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

from robomaze import limit_cells
from robomaze.errors import MazeFormatError, RecordFormatError
from robomaze.io import (read_grid, read_maze, read_maze_json, read_movingai, read_npy,
                         read_num, read_rosmap, read_scen)
from robomaze.io.image import read_image

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).resolve().parent / "corpus"


def _err(reader, path, **kw) -> MazeFormatError:
    with pytest.raises(MazeFormatError) as info:
        reader(path, **kw)
    err = info.value
    assert Path(err.path).name == Path(path).name
    assert str(err).startswith(str(err.path))
    return err


def _png(width: int, height: int, idat: bytes, *, bit_depth=8, colour=0) -> bytes:
    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, colour, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat)
            + chunk(b"IEND", b""))


# ---------------------------------------------------------------- MovingAI
def test_movingai_unicode_digit_height(tmp_path):
    p = tmp_path / "m.map"
    p.write_text("type octile\nheight \u00b2\nwidth 2\nmap\n..\n..\n", encoding="utf-8")
    err = _err(read_movingai, p)
    assert (err.line, err.column) == (2, 8) and "positive integer" in str(err)


def test_movingai_width_10_to_28_is_refused_before_allocating(tmp_path):
    p = tmp_path / "m.map"
    p.write_text("type octile\nheight 2\nwidth " + "1" + "0" * 28 + "\nmap\n..\n..\n")
    err = _err(read_movingai, p)
    assert err.line == 3
    p.write_text("type octile\nheight 99999\nwidth 99999\nmap\n..\n..\n")
    err = _err(read_grid, p)
    assert err.line == 2 and "more than the limit" in str(err) and "--max-cells" in str(err)


def test_scen_numbers_beyond_limits(tmp_path):
    p = tmp_path / "s.scen"
    p.write_text("version 1\n0\tm.map\t4\t3\t0\t1\t3\t2\t" + "9" * 400 + "\n")
    assert _err(read_scen, p).line == 2
    p.write_text("version 1\n0\tm.map\t" + "9" * 5000 + "\t3\t0\t1\t3\t2\t1.5\n")
    assert _err(read_scen, p).line == 2
    p.write_text("version 1\n0\tm.map\t4\t3\t0\t1\t3\t2\tinf\n")
    assert "expected a number" in str(_err(read_scen, p))


# ---------------------------------------------------------------- .num / JSON
def test_num_coordinates_beyond_int64(tmp_path):
    p = tmp_path / "m.num"
    p.write_text("0 0 1 1 1 1\n" + "9" * 30 + " 0 1 1 1 1\n")
    err = _err(read_num, p)
    assert (err.line, err.column) == (2, 1) and "integer" in str(err)
    p.write_text("0 0 1 1 1 1\n999999999 999999999 1 1 1 1\n")
    err = _err(read_maze, p)
    assert err.line == 2 and "more than the limit" in str(err)


def test_json_infinity_and_deep_nesting(tmp_path):
    p = tmp_path / "m.json"
    p.write_text('{"format": "robomaze.maze", "version": 1, "rows": Infinity, "cols": 2}')
    assert "Infinity" in str(_err(read_maze_json, p))
    p.write_text('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}")
    err = _err(read_maze, p)
    assert "nested too deeply" in str(err) or "invalid JSON" in str(err)
    p.write_text(json.dumps({"format": "robomaze.maze", "rows": 10**9, "cols": 10**9,
                             "east": [], "south": []}))
    assert "more than the limit" in str(_err(read_maze, p))


def test_json_huge_start_is_a_format_error(tmp_path):
    p = tmp_path / "m.json"
    p.write_text(json.dumps({"format": "robomaze.maze", "version": 1, "rows": 1, "cols": 2,
                             "east": ["01"], "south": ["11"], "start": [10**30, 0]}))
    _err(read_maze, p)


# ---------------------------------------------------------------- images
def test_pgm_5000_digit_header(tmp_path):
    p = tmp_path / "m.pgm"
    p.write_bytes(b"P5\n" + b"9" * 5000 + b" 1\n255\n\x00")
    assert "header" in str(_err(read_grid, p))


def test_p2_pixel_beyond_int64(tmp_path):
    p = tmp_path / "m.pgm"
    p.write_bytes(b"P2\n2 1\n255\n0 " + b"9" * 40 + b"\n")
    _err(read_image, p)


def test_truncated_png_chunks(tmp_path):
    rows = np.random.default_rng(0).integers(0, 256, (16, 17), dtype=np.uint8)
    rows[:, 0] = 0                                    # filter byte "none" per row
    good = _png(16, 16, zlib.compress(rows.tobytes()))
    # cuts in the signature, IHDR, IDAT header and IDAT data (pixels lost)
    for cut in (5, 12, 20, 33, 45, 100, 200, 290):
        p = tmp_path / f"cut{cut}.png"
        p.write_bytes(good[:cut])
        _err(read_grid, p)


def test_png_decompression_bomb_is_refused_from_the_header(tmp_path):
    # 64000 x 64000 pixels (4 GB) announced by a few hundred bytes
    p = tmp_path / "bomb.png"
    p.write_bytes(_png(64000, 64000, zlib.compress(b"\x00" * 64001 * 4, 9)))
    assert p.stat().st_size < 1000
    err = _err(read_grid, p)
    assert "MAX_IMAGE_PIXELS" in str(err) or "more than the limit" in str(err)
    # under Pillow's own guard, robomaze's cell limit refuses it before decoding
    p.write_bytes(_png(300, 300, zlib.compress(b"\x00" * 301 * 300)))
    with limit_cells(10_000):
        err = _err(read_grid, p)
    assert "a 300x300 pixel image has 90000 cells, more than the limit of 10000" in str(err)
    with limit_cells(100_000):
        assert read_grid(p).shape == (300, 300)     # the explicit option raises the limit


def test_bomb_png_stays_within_a_small_memory_budget(tmp_path):
    p = tmp_path / "bomb.png"
    p.write_bytes(_png(12000, 12000, zlib.compress(b"\x00" * 12001 * 12000, 9)))
    code = ("import resource, sys\n"
            "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
            "from robomaze import limit_cells\n"
            "from robomaze.errors import MazeFormatError\n"
            "from robomaze.io import read_grid\n"
            "try:\n"
            "    with limit_cells(2 ** 26):\n"
            f"        read_grid({str(p)!r})\n"
            "except MazeFormatError as e:\n"
            "    print('refused:', e)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert r.returncode == 0, r.stderr
    assert "refused:" in r.stdout and "144000000 cells" in r.stdout


# ---------------------------------------------------------------- .npy
def _npy(header: str) -> bytes:
    h = header.encode("latin-1")
    h += b" " * ((-(10 + len(h) + 1)) % 64) + b"\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h


@pytest.mark.parametrize("header", [
    "{'descr': '''",                                                     # tokenize error
    "{'descr': '|b1', 'fortran_order': False, 'shape': (3,",             # syntax error
    "{'descr': 'O', 'fortran_order': False, 'shape': (2, 2), }",         # objects
    "{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (2, 2), }",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (" + "9" * 50 + ", 2), }",
    "x" * 20000,
])
def test_npy_header_tokens(tmp_path, header):
    p = tmp_path / "g.npy"
    p.write_bytes(_npy(header))
    _err(read_npy, p)


def test_npy_huge_shape_is_refused_before_reading(tmp_path):
    p = tmp_path / "g.npy"
    p.write_bytes(_npy("{'descr': '|b1', 'fortran_order': False, 'shape': (100000, 100000), }"))
    assert "more than the limit" in str(_err(read_grid, p))
    with limit_cells(10**10):    # allowed in size: then the data is simply missing
        assert "truncated" in str(_err(read_grid, p))


# ---------------------------------------------------------------- not regular files
def test_yaml_image_naming_a_device_is_refused(tmp_path):
    p = tmp_path / "m.yaml"
    p.write_text("image: /dev/zero\nresolution: 0.05\norigin: [0, 0, 0]\nnegate: 0\n"
                 "occupied_thresh: 0.65\nfree_thresh: 0.25\n")
    err = _err(read_rosmap, p)
    assert (err.line, err.column) == (1, 8) and "character device" in str(err)


def test_yaml_image_naming_a_fifo_does_not_hang(tmp_path):
    fifo = tmp_path / "pipe.pgm"
    os.mkfifo(fifo)
    p = tmp_path / "m.yaml"
    p.write_text("image: pipe.pgm\nresolution: 0.05\norigin: [0, 0, 0]\nnegate: 0\n"
                 "occupied_thresh: 0.65\nfree_thresh: 0.25\n")
    code = ("from robomaze.io import read_rosmap\n"
            "from robomaze.errors import MazeFormatError\n"
            f"try:\n    read_rosmap({str(p)!r})\n"
            "except MazeFormatError as e:\n    print(e)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=60, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert "FIFO" in r.stdout and f"{p}:1:8" in r.stdout, r.stderr


@pytest.mark.parametrize("reader", [read_maze, read_grid, read_npy])
def test_readers_refuse_devices_and_directories(tmp_path, reader):
    assert "character device" in str(_err(reader, Path("/dev/zero")))
    d = tmp_path / "dir.maze"
    d.mkdir()
    assert "directory" in str(_err(reader, d))


def test_file_size_limit_follows_the_cell_limit(tmp_path):
    p = tmp_path / "big.map"
    p.write_text("type octile\nheight 1\nwidth 1\nmap\n.\n" + "#" * (2 << 20))
    with limit_cells(1000):
        assert "larger than the limit" in str(_err(read_grid, p))


# ---------------------------------------------------------------- no bytes quoted
SECRET = b"root:*:19000:0:99999:7:::\ndaemon:SECRETTOKEN:19000:0:99999:7:::\n"


@pytest.mark.parametrize("name, reader", [
    ("shadow", read_maze), ("shadow", read_grid), ("shadow.maze", read_maze),
    ("shadow.map", read_movingai), ("shadow.num", read_num), ("shadow.json", read_maze_json),
    ("shadow.npy", read_npy), ("shadow.pgm", read_image), ("shadow.yaml", read_rosmap),
    ("shadow.scen", read_scen),
])
def test_errors_do_not_quote_the_file(tmp_path, name, reader):
    p = tmp_path / name
    p.write_bytes(SECRET)
    err = _err(reader, p)
    msg = str(err)[len(str(p)):]
    for piece in (b"root", b"SECRETTOKEN", b"daemon", b"19000"):
        assert piece.decode() not in msg, msg


def test_records_and_trajectories_do_not_quote_the_file(tmp_path):
    from robomaze.sim.trajectory import Trajectory
    from robomaze.traverse.record import read_record
    p = tmp_path / "shadow.npz"
    p.write_bytes(SECRET)
    with pytest.raises(RecordFormatError) as info:
        Trajectory.load(p)
    msg = str(info.value).replace(str(p), "")
    assert "SECRETTOKEN" not in msg and "root" not in msg and str(p) in str(info.value)
    with pytest.raises(RecordFormatError) as info:
        read_record(Path("/dev/zero"))
    assert "character device" in str(info.value)


def test_render_size_limits(tmp_path, capsys):
    from robomaze.cli import main
    maze = tmp_path / "m.json"
    from robomaze.io import write_maze
    from robomaze.maze import Maze
    write_maze(Maze.empty(2, 2), maze)
    for size in ("30000x30000", "100000x100000"):
        assert main(["render", str(maze), "-o", str(tmp_path / "x.png"), "--size", size]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "16384x16384" in err and size in err
    assert not (tmp_path / "x.png").exists()


def test_maze_size_times_widening_is_refused_before_allocating(tmp_path, capsys):
    from robomaze.cli import main
    from robomaze.io import write_maze
    from robomaze.maze import Maze
    maze = tmp_path / "m.maze"
    write_maze(Maze.empty(20, 20, goals=[(19, 19)]), maze)
    assert main(["render", str(maze), "-o", str(tmp_path / "x.png"), "--corridor", "5000"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "more than the limit" in err and "--max-cells" in err
    assert main(["--max-cells", "100", "render", str(maze), "-o", str(tmp_path / "x.png")]) == 2
    assert "more than the limit of 100 cells" in capsys.readouterr().err
