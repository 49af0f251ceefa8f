"""One format registry (issue 12): every format is registered once and the
front-ends dispatch through it."""

import numpy as np
import pytest

from robomaze.errors import MazeFormatError, ParameterError, UnknownNameError
from robomaze.grid import OccupancyGrid
from robomaze.io import (FORMATS, FormatSpec, extensions, get_format, read, read_grid,
                         read_maze, register_format, sniff, unregister_format, write_grid,
                         write_maze)
from robomaze.maze import Maze


def test_builtin_formats_and_extensions():
    assert {n: (s.kind, s.extensions) for n, s in FORMATS.items()} == {
        "micromouse": ("maze", (".maze", ".txt")), "num": ("maze", (".num",)),
        "json": ("maze", (".json",)), "movingai": ("grid", (".map",)),
        "rosmap": ("grid", (".yaml", ".yml")), "image": ("grid", (".png", ".pgm")),
        "npy": ("grid", (".npy",)), "matrix": ("grid", (".txt",)),
        "rosbag2": ("grid", (".mcap",)),
    }
    assert all(callable(s.read) and callable(s.write) and callable(s.sniff)
               for s in FORMATS.values())


def _rows_read(path, resolution=1.0):
    text = open(path, encoding="ascii").read().split("\n", 1)[1]
    return OccupancyGrid([[ch == "X" for ch in ln] for ln in text.split()], resolution=resolution)


def _rows_write(grid, path):
    rows = ["".join("X" if v else "_" for v in r) for r in grid.occupied]
    open(path, "w", encoding="ascii").write("ROWS\n" + "\n".join(rows) + "\n")


@pytest.fixture()
def rows_format():
    spec = register_format(FormatSpec("rows", "grid", (".rows",),
                                      lambda head: head.startswith(b"ROWS\n"),
                                      _rows_read, _rows_write, ("resolution",), "toy rows"))
    yield spec
    unregister_format("rows")


def test_a_registered_format_is_used_by_every_front_end(tmp_path, rows_format):
    g = OccupancyGrid(np.array([[1, 0, 0], [0, 0, 1]], bool))
    write_grid(g, tmp_path / "g.rows")
    assert (tmp_path / "g.rows").read_text().startswith("ROWS\n")
    assert read_grid(tmp_path / "g.rows") == g
    assert read(tmp_path / "g.rows") == g
    assert sniff(tmp_path / "g.rows") is rows_format
    assert ".rows" in extensions("grid")
    assert read_grid(tmp_path / "g.rows", resolution=0.5).resolution == 0.5
    from robomaze.cli._world import load
    assert load(tmp_path / "g.rows") == g


def test_unregistered_format_is_gone(tmp_path, rows_format):
    unregister_format("rows")
    try:
        assert "rows" not in FORMATS and ".rows" not in extensions("grid")
        (tmp_path / "g.rows").write_text("ROWS\nX_\n")
        with pytest.raises(MazeFormatError, match="unrecognised content"):
            read_grid(tmp_path / "g.rows")
    finally:
        register_format(rows_format)


def test_registration_refuses_clashes(rows_format):
    with pytest.raises(ParameterError, match="already registered"):
        register_format(rows_format)
    clash = FormatSpec("rows2", "grid", (".rows",), bool, _rows_read, _rows_write)
    with pytest.raises(ParameterError, match="already belongs"):
        register_format(clash)
    with pytest.raises(ParameterError, match="kind"):
        register_format(FormatSpec("x", "tree", (".x",), bool, _rows_read, None))
    with pytest.raises(UnknownNameError, match="micromouse"):
        get_format("nope", "maze")
    with pytest.raises(UnknownNameError):
        unregister_format("nope")


def test_writers_choose_by_name_or_extension(tmp_path):
    m = Maze.empty(2, 3, goals=[(0, 2)])
    write_maze(m, tmp_path / "a.bin", format="num")
    assert sniff(tmp_path / "a.bin").name == "num"
    with pytest.raises(ParameterError) as info:
        write_maze(m, tmp_path / "a.xyz")
    assert all(e in str(info.value) for e in (".maze", ".txt", ".num", ".json"))
    with pytest.raises(UnknownNameError):
        write_grid(OccupancyGrid([[0]]), tmp_path / "g.map", format="micromouse")
    with pytest.raises(ParameterError, match="must be a Maze"):
        write_maze(OccupancyGrid([[0]]), tmp_path / "m.maze")


def test_content_not_extension_decides(tmp_path):
    m = Maze.empty(3, 3, goals=[(1, 1)])
    for name in ("json", "num", "micromouse"):
        p = tmp_path / f"maze-as-{name}.dat"
        write_maze(m, p, format=name)
        back = read_maze(p)
        assert np.array_equal(back.east, m.east) and np.array_equal(back.south, m.south)
