"""A JSON form of :class:`~robomaze.maze.Maze`.

::

    {"format": "robomaze.maze", "version": 1, "rows": 2, "cols": 3,
     "east":  ["001", "011"],  "south": ["100", "111"],
     "start": [0, 0], "goals": [[1, 2]], "openings": [[0, 0, "W"]]}

``east`` / ``south`` hold one string of ``0``/``1`` per row (1 = wall), in
robomaze ``(row, col)`` coordinates with row 0 north.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ..errors import ParameterError
from ..maze import Maze
from ._common import PathLike, fail, read_text

__all__ = ["maze_to_json", "maze_from_json", "read_maze_json", "write_maze_json"]

FORMAT = "robomaze.maze"


def maze_to_json(maze: Maze) -> str:
    """Serialize a maze (stable key order, one line per wall row).

    >>> print(maze_to_json(Maze.empty(1, 2)))  # doctest: +NORMALIZE_WHITESPACE
    {"format": "robomaze.maze", "version": 1, "rows": 1, "cols": 2,
     "east": ["01"], "south": ["11"], "start": [0, 0], "goals": [[0, 1]],
     "openings": []}
    """
    d = {
        "format": FORMAT, "version": 1, "rows": maze.rows, "cols": maze.cols,
        "east": ["".join("1" if v else "0" for v in row) for row in maze.east],
        "south": ["".join("1" if v else "0" for v in row) for row in maze.south],
        "start": list(maze.start), "goals": [list(g) for g in maze.goals],
        "openings": [list(o) for o in maze.openings],
    }
    return json.dumps(d)


def _line_col(text: str, key: str) -> tuple[int, int]:
    i = text.find(f'"{key}"')
    if i < 0:
        return 1, 1
    return text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 1


def maze_from_json(text: str, *, path=None) -> Maze:
    """Parse the JSON form; errors name the line/column of the offending key.

    >>> maze_from_json(maze_to_json(Maze.empty(2, 2))) == Maze.empty(2, 2)
    True
    """
    try:
        d = json.loads(text)
    except json.JSONDecodeError as exc:
        raise fail(f"invalid JSON: {exc.msg}; expected a robomaze maze object",
                   path, exc.lineno, exc.colno) from None
    if not isinstance(d, dict):
        raise fail(f"top level is {type(d).__name__}; expected an object", path, 1, 1)
    if d.get("format") != FORMAT:
        ln, cl = _line_col(text, "format")
        raise fail(f"format is {d.get('format')!r}; expected {FORMAT!r}", path, ln, cl)
    for key in ("rows", "cols", "east", "south"):
        if key not in d:
            raise fail(f"missing key {key!r}; expected rows, cols, east, south", path, 1, 1)
    rows, cols = d["rows"], d["cols"]
    for key, v in (("rows", rows), ("cols", cols)):
        if not isinstance(v, int) or isinstance(v, bool) or v < 1:
            raise fail(f"{key} is {v!r}; expected an integer >= 1", path,
                       *_line_col(text, key))
    arrays = {}
    for key in ("east", "south"):
        v = d[key]
        ln, cl = _line_col(text, key)
        if not isinstance(v, list) or len(v) != rows:
            n = len(v) if isinstance(v, list) else type(v).__name__
            raise fail(f"{key} has {n} rows; expected a list of {rows} strings "
                       "(size mismatch)", path, ln, cl)
        for i, row in enumerate(v):
            if not isinstance(row, str) or len(row) != cols or set(row) - {"0", "1"}:
                raise fail(f"{key}[{i}] is {row!r}; expected {cols} characters of 0/1",
                           path, ln, cl)
        arrays[key] = np.array([[ch == "1" for ch in row] for row in v], bool)
    try:
        return Maze(arrays["east"], arrays["south"],
                    start=tuple(d.get("start", (0, 0))),
                    goals=tuple(tuple(g) for g in d.get("goals", ())),
                    openings=tuple(tuple(o) for o in d.get("openings", ())))
    except (ParameterError, TypeError) as exc:
        raise fail(f"{exc}", path, 1, 1) from None


def read_maze_json(path: PathLike) -> Maze:
    """Read the JSON form of a maze."""
    return maze_from_json(read_text(path), path=path)


def write_maze_json(maze: Maze, path: PathLike) -> None:
    """Write the JSON form of a maze."""
    Path(path).write_text(maze_to_json(maze) + "\n", encoding="utf-8")
