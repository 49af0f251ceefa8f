"""Readers and writers for mazes and grids, dispatched through one registry.

:func:`read_maze` recognises a cell-maze file by its content (micromouse
text, mms ``.num`` or robomaze JSON) and :func:`read_grid` a grid file
(MovingAI ``.map``, ROS map_server YAML, PNG/PGM image, ``.npy``, 0/1
text); :func:`read` takes either. The writers pick the format from the
``format`` name or the file extension. Every format is one
:class:`~robomaze.io.formats.FormatSpec` in
:data:`~robomaze.io.formats.FORMATS` (add one with
:func:`~robomaze.io.formats.register_format`).

==============  ==========================  ===========================
format          maze / grid                 extensions written
==============  ==========================  ===========================
micromouse      Maze                        ``.maze``, ``.txt``
num (mms)       Maze                        ``.num``
json            Maze                        ``.json``
movingai        OccupancyGrid               ``.map``
rosmap          OccupancyGrid (+ unknown)   ``.yaml``, ``.yml``
image           OccupancyGrid               ``.png``, ``.pgm``
npy             OccupancyGrid               ``.npy``
matrix          OccupancyGrid               ``.txt`` (0/1 lines)
==============  ==========================  ===========================

Hostile files: every reader accepts only regular files, checks sizes
announced by headers against the cell limit in force before allocating
(:func:`robomaze.limit_cells`, ``robomaze --max-cells N``) and reports any
problem as :class:`robomaze.errors.MazeFormatError` naming the file and
line, never quoting the file's bytes. A missing file stays
``FileNotFoundError``. Readers and writers also estimate their peak memory
before allocating and refuse past a budget (a quarter of physical memory
unless :func:`limit_memory`, ``ROBOMAZE_MAX_MEMORY`` or ``robomaze
--max-memory`` says otherwise).

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

from ..grid import OccupancyGrid
from ..maze import Maze
from ._reading import PathLike, decode_text, describe, read_bytes
from ._limits import check_memory, limit_memory, memory_budget, parse_bytes
from .formats import (FORMATS, FormatSpec, _check_kind, extensions, formats, get_format,
                      register_format, sniff, spec_for_extension, unregister_format)
from .image import read_image, read_raster, write_image
from .maze_json import maze_from_dict, maze_to_dict, read_maze_json, write_maze_json
from .matrix import read_matrix, write_matrix
from .micromouse import (cell_to_mm, centre_goals, format_micromouse, mm_to_cell,
                         parse_micromouse, read_micromouse, write_micromouse)
from .mms_num import parse_num, read_num, write_num
from .movingai import (ScenProblem, parse_movingai, read_movingai, read_scen, write_movingai,
                       write_scen)
from .npy import read_npy, read_npz, write_npy, write_npz
from .rosdata import from_ros_data, to_ros_data
from .rosmap import read_rosmap, read_rosmap_grid, write_rosmap

__all__ = [
    "read", "read_maze", "write_maze", "read_grid", "write_grid",
    "FORMATS", "FormatSpec", "register_format", "unregister_format", "formats", "extensions",
    "get_format", "sniff", "spec_for_extension",
    "read_micromouse", "parse_micromouse", "format_micromouse", "write_micromouse",
    "read_num", "parse_num", "write_num", "read_maze_json", "write_maze_json",
    "maze_to_dict", "maze_from_dict",
    "read_movingai", "parse_movingai", "write_movingai", "read_scen", "write_scen",
    "ScenProblem", "read_rosmap", "read_rosmap_grid", "write_rosmap",
    "from_ros_data", "to_ros_data",
    "read_image", "read_raster", "write_image", "read_npy", "write_npy", "read_npz",
    "write_npz", "read_matrix", "write_matrix",
    "mm_to_cell", "cell_to_mm", "centre_goals", "read_bytes", "decode_text", "describe",
    "limit_memory", "memory_budget", "check_memory", "parse_bytes",
]


def read(path: PathLike, *, kind: str | None = None, **options) -> Maze | OccupancyGrid:
    """Read a maze or a grid (``kind`` None), recognised by content.

    ``options`` (``strict``, ``unknown``, ``resolution``) go to the formats
    that take them.
    """
    from .rosbag2 import is_bag_folder

    if kind in (None, "grid") and is_bag_folder(path):   # a ROS 2 bag folder: its first /map
        from dataclasses import replace
        from pathlib import Path

        spec = get_format("rosbag2", "grid")
        # a folder, so the per-file budget check is made here, on its .mcap files
        size = sum(p.stat().st_size for p in Path(path).glob("*.mcap") if p.is_file())
        check_memory(f"a ROS 2 bag of {size} bytes", 4 * size, path)
        return replace(spec, read=getattr(spec.read, "__wrapped__", spec.read)).read_file(
            path, **options)
    return sniff(path, kind).read_file(path, **options)


def maze_format(path: PathLike) -> str:
    """Which maze format a file holds, from its content."""
    return sniff(path, "maze").name


def grid_format(path: PathLike) -> str:
    """Which grid format a file holds, from its content."""
    return sniff(path, "grid").name


def read_maze(path: PathLike, *, unknown: str = "wall", strict: bool = False) -> Maze:
    """Read a cell maze from any maze format, recognised by content.

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
    return read(path, kind="maze", unknown=unknown, strict=strict)


def write_maze(maze: Maze, path: PathLike, *, format: str | None = None) -> None:
    """Write a maze; format from ``format`` or the extension (.maze/.txt, .num, .json)."""
    _check_kind(maze, "maze")
    spec = get_format(format, "maze") if format else spec_for_extension("maze", path)
    spec.write(maze, path)


def read_grid(path: PathLike, *, strict: bool = False, unknown: str = "occupied",
              resolution: float = 1.0, rules: str = "nav2") -> OccupancyGrid:
    """Read an occupancy grid from any grid format, recognised by content.

    ROS maps keep their resolution and origin; their unknown cells are read
    as ``unknown`` ("occupied" by default, or "free") -- use
    :func:`read_rosmap` for the unknown mask itself -- by Nav2's ``map_io``
    pixel rules, or ROS 1 map_server's with ``rules="ros1"``. Other formats
    get ``resolution`` and origin (0, 0, 0).
    """
    return read(path, kind="grid", strict=strict, unknown=unknown, resolution=resolution,
                rules=rules)


def write_grid(grid: OccupancyGrid, path: PathLike, *, format: str | None = None) -> None:
    """Write a grid; format from ``format`` or the extension
    (.map, .yaml/.yml, .png/.pgm, .npy, .txt)."""
    _check_kind(grid, "grid")
    spec = get_format(format, "grid") if format else spec_for_extension("grid", path)
    spec.write(grid, path)
