"""Readers and writers for mazes and grids.

:func:`read_maze` recognises a cell-maze file by its content (micromouse
text, mms ``.num`` or robomaze JSON) and :func:`read_grid` a grid file
(MovingAI ``.map``, ROS map_server YAML, PNG/PGM image, ``.npy``). The
writers pick the format from the file extension.

==============  ==========================  ===========================
format          maze / grid                 extensions written
==============  ==========================  ===========================
micromouse      Maze                        ``.maze``, ``.txt``
mms num         Maze                        ``.num``
JSON            Maze                        ``.json``
MovingAI        OccupancyGrid               ``.map``
ROS map_server  OccupancyGrid (+ unknown)   ``.yaml``, ``.yml``
image           OccupancyGrid               ``.png``, ``.pgm``
NumPy           OccupancyGrid               ``.npy``
==============  ==========================  ===========================

Examples
--------
>>> import tempfile, os
>>> from robomaze.maze import Maze
>>> d = tempfile.mkdtemp()
>>> m = Maze.empty(2, 3, goals=[(0, 2)])
>>> write_maze(m, os.path.join(d, "m.maze"))
>>> read_maze(os.path.join(d, "m.maze")) == m
True
"""

from __future__ import annotations

from pathlib import Path

from ..errors import ParameterError
from ..grid import OccupancyGrid
from ..maze import Maze
from ._common import PathLike, fail, read_bytes
from .image import is_pgm, is_png, read_image, write_image
from .maze_json import read_maze_json, write_maze_json
from .micromouse import (cell_to_mm, centre_goals, format_micromouse, looks_like_micromouse,
                         mm_to_cell, parse_micromouse, read_micromouse, write_micromouse)
from .mms_num import looks_like_num, parse_num, read_num, write_num
from .movingai import (ScenProblem, looks_like_movingai, parse_movingai, read_movingai,
                       read_scen, write_movingai, write_scen)
from .npy import is_npy, read_npy, write_npy
from .rosmap import looks_like_rosmap, read_rosmap, read_rosmap_grid, write_rosmap

__all__ = [
    "read_maze", "write_maze", "read_grid", "write_grid",
    "read_micromouse", "parse_micromouse", "format_micromouse", "write_micromouse",
    "read_num", "parse_num", "write_num", "read_maze_json", "write_maze_json",
    "read_movingai", "parse_movingai", "write_movingai", "read_scen", "write_scen",
    "ScenProblem", "read_rosmap", "read_rosmap_grid", "write_rosmap",
    "read_image", "write_image", "read_npy", "write_npy",
    "mm_to_cell", "cell_to_mm", "centre_goals",
]

MAZE_FORMATS = ("micromouse", "num", "json")
GRID_FORMATS = ("movingai", "rosmap", "image", "npy")


def _decode(data: bytes, path) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise fail("not a text file; expected a maze in micromouse text, mms .num or "
                   "robomaze JSON format", path, 1, 1) from None


def maze_format(path: PathLike) -> str:
    """Which maze format a file holds, from its content."""
    data = read_bytes(path)
    text = _decode(data, path)
    stripped = text.lstrip()
    if stripped.startswith("{"):
        return "json"
    if looks_like_micromouse(text):
        return "micromouse"
    if looks_like_num(text):
        return "num"
    raise fail("unrecognised content; expected a maze in micromouse text ('o' or '+' posts), "
               "mms .num ('x y N E S W') or robomaze JSON format", path, 1, 1)


def read_maze(path: PathLike, *, unknown: str = "wall", strict: bool = False) -> Maze:
    """Read a cell maze from any supported format, recognised by content.

    Parameters
    ----------
    path : path-like
    unknown : {"wall", "open", "error"}
        For micromouse text: how ``.`` (unknown) walls are read.
    strict : bool
        Reject characters or disagreements the format does not define.

    Raises
    ------
    MazeFormatError
        Malformed file or unrecognised format (names file, line, column).
    """
    fmt = maze_format(path)
    if fmt == "json":
        return read_maze_json(path)
    if fmt == "micromouse":
        return read_micromouse(path, unknown=unknown, strict=strict)
    return read_num(path, strict=strict)


def write_maze(maze: Maze, path: PathLike, *, format: str | None = None) -> None:
    """Write a maze; format from ``format`` or the extension (.maze/.txt, .num, .json)."""
    if not isinstance(maze, Maze):
        raise ParameterError(f"maze must be a Maze, got {type(maze).__name__}")
    fmt = format or {".json": "json", ".num": "num", ".maze": "micromouse",
                     ".txt": "micromouse"}.get(Path(path).suffix.lower())
    if fmt == "json":
        write_maze_json(maze, path)
    elif fmt == "num":
        write_num(maze, path)
    elif fmt == "micromouse":
        write_micromouse(maze, path)
    else:
        raise ParameterError(
            f"cannot tell the maze format of {str(path)!r} (format={format!r}); expected "
            f"format one of {', '.join(MAZE_FORMATS)} or an extension .maze, .txt, .num, .json")


def grid_format(path: PathLike) -> str:
    """Which grid format a file holds, from its content."""
    data = read_bytes(path)
    if is_png(data) or is_pgm(data):
        return "image"
    if is_npy(data):
        return "npy"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = ""
    if looks_like_movingai(text):
        return "movingai"
    if looks_like_rosmap(text):
        return "rosmap"
    raise fail("unrecognised content; expected a MovingAI .map, a ROS map YAML, a PNG/PGM "
               "image or a .npy array", path, 1, 1)


def read_grid(path: PathLike, *, strict: bool = False, unknown: str = "occupied",
              resolution: float = 1.0) -> OccupancyGrid:
    """Read an occupancy grid from any supported format, recognised by content.

    ROS maps keep their resolution and origin; their unknown cells are read
    as ``unknown`` ("occupied" by default, or "free") -- use
    :func:`read_rosmap` for the unknown mask itself. Other formats get
    ``resolution`` and origin (0, 0, 0).
    """
    fmt = grid_format(path)
    if fmt == "movingai":
        return read_movingai(path, strict=strict, resolution=resolution)
    if fmt == "rosmap":
        return read_rosmap_grid(path, unknown=unknown)
    if fmt == "npy":
        return read_npy(path, resolution=resolution)
    return read_image(path, resolution=resolution)


def write_grid(grid: OccupancyGrid, path: PathLike, *, format: str | None = None) -> None:
    """Write a grid; format from ``format`` or the extension
    (.map, .yaml/.yml, .png/.pgm, .npy)."""
    if not isinstance(grid, OccupancyGrid):
        raise ParameterError(f"grid must be an OccupancyGrid, got {type(grid).__name__}")
    fmt = format or {".map": "movingai", ".yaml": "rosmap", ".yml": "rosmap",
                     ".png": "image", ".pgm": "image", ".npy": "npy"}.get(
        Path(path).suffix.lower())
    if fmt == "movingai":
        write_movingai(grid, path)
    elif fmt == "rosmap":
        write_rosmap(grid, path)
    elif fmt == "image":
        write_image(grid, path)
    elif fmt == "npy":
        write_npy(grid, path)
    else:
        raise ParameterError(
            f"cannot tell the grid format of {str(path)!r} (format={format!r}); expected "
            f"format one of {', '.join(GRID_FORMATS)} or an extension .map, .yaml, .png, "
            ".pgm, .npy")
