"""The JSON forms of :class:`~robomaze.maze.Maze` (one codec for the whole package).

The maze file (``.json``)::

    {"format": "robomaze.maze", "version": 1, "rows": 2, "cols": 3,
     "east":  ["001", "011"],  "south": ["100", "111"],
     "start": [0, 0], "goals": [[1, 2]], "openings": [[0, 0, "W"]],
     "generator": {...}}

``east`` / ``south`` hold one string of ``0``/``1`` per row (1 = wall), in
robomaze ``(row, col)`` coordinates with row 0 north. ``generator`` is
optional provenance (``robomaze generate`` writes it) and is ignored on
reading.

The matrix form, embedded in traversal records (:mod:`robomaze.traverse.record`)::

    {"rows": 2, "cols": 3, "matrix": ["#######", "#..#..#", ...],
     "start": [0, 0], "goals": [[1, 2]]}

is the ``2r+1 x 2c+1`` wall matrix (``#`` wall, ``.`` free) of
:meth:`Maze.to_matrix`. :func:`maze_from_dict` reads either form.

JSON is parsed strictly: ``NaN`` / ``Infinity`` are refused, nesting
deeper than Python's recursion limit is an error (not a ``RecursionError``),
and the announced size is checked against the cell limit in force before
any array is built.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ParameterError
from ..maze import Maze
from ._reading import PathLike, decode_text, fail, read_bytes
from ._limits import check_size

__all__ = ["maze_to_dict", "maze_to_matrix_dict", "maze_from_dict", "maze_to_json",
           "maze_from_json", "read_maze_json", "write_maze_json", "loads_strict", "FORMAT"]

FORMAT = "robomaze.maze"


def maze_to_dict(maze: Maze, provenance: dict | None = None) -> dict:
    """The JSON object of a maze (``robomaze.maze`` format, version 1).

    >>> d = maze_to_dict(Maze.empty(1, 2))
    >>> d["east"], d["south"], d["goals"]
    (['01'], ['11'], [[0, 1]])
    """
    d: dict[str, Any] = {
        "format": FORMAT, "version": 1, "rows": maze.rows, "cols": maze.cols,
        "east": ["".join("1" if v else "0" for v in row) for row in maze.east],
        "south": ["".join("1" if v else "0" for v in row) for row in maze.south],
        "start": list(maze.start), "goals": [list(g) for g in maze.goals],
        "openings": [list(o) for o in maze.openings],
    }
    if provenance:
        d["generator"] = provenance
    return d


def maze_to_matrix_dict(maze: Maze) -> dict:
    """The matrix form (``#`` wall, ``.`` free) used inside traversal records.

    >>> maze_to_matrix_dict(Maze.empty(1, 1))["matrix"]
    ['###', '#.#', '###']
    """
    rows = ["".join("#" if v else "." for v in line) for line in maze.to_matrix()]
    return {"rows": maze.rows, "cols": maze.cols, "matrix": rows,
            "start": list(maze.start), "goals": [list(g) for g in maze.goals]}


def maze_to_json(maze: Maze, provenance: dict | None = None) -> str:
    """Serialize a maze (stable key order).

    >>> print(maze_to_json(Maze.empty(1, 2)))  # doctest: +NORMALIZE_WHITESPACE
    {"format": "robomaze.maze", "version": 1, "rows": 1, "cols": 2,
     "east": ["01"], "south": ["11"], "start": [0, 0], "goals": [[0, 1]],
     "openings": []}
    """
    return json.dumps(maze_to_dict(maze, provenance))


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def loads_strict(text: str, *, path=None, expected: str = "a JSON object") -> Any:
    """``json.loads`` without NaN/Infinity and with every failure a
    :class:`MazeFormatError` naming the line and column.

    >>> loads_strict('{"a": [1, 2]}')
    {'a': [1, 2]}
    >>> loads_strict('{"a": Infinity}', path="f.json")
    Traceback (most recent call last):
    ...
    robomaze.errors.MazeFormatError: f.json:1:1: NaN or Infinity is not valid JSON; expected a JSON object
    """
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise fail(f"invalid JSON ({exc.msg}); expected {expected}", path, exc.lineno,
                   exc.colno) from None
    except ValueError:
        raise fail(f"NaN or Infinity is not valid JSON; expected {expected}", path, 1, 1) \
            from None
    except RecursionError:
        raise fail(f"JSON nested too deeply; expected {expected}", path, 1, 1) from None


def _line_col(text: str | None, key: str) -> tuple[int, int]:
    i = -1 if text is None else text.find(f'"{key}"')
    if i < 0:
        return 1, 1
    return text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 1


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _cells(v, what: str, width: int) -> tuple:
    # indices of at most 9 digits: Maze's own message would repeat a huge one
    if not isinstance(v, list) or len(v) != width or not all(
            (_is_int(x) and abs(x) < 10 ** 9) or (isinstance(x, str) and width == 3
                                                  and len(x) == 1) for x in v):
        raise ParameterError(f"{what} must be a list of {width} values (integers of at most "
                             "9 digits)")
    return tuple(v)


def _from_matrix(d: dict, path, text) -> Maze:
    lines = d["matrix"]
    ln, cl = _line_col(text, "matrix")
    if not isinstance(lines, list) or not lines or not all(isinstance(s, str) for s in lines) \
            or len({len(s) for s in lines}) != 1 or not set("".join(lines)) <= {"#", "."}:
        raise fail("matrix is not a list of equal-length strings of '#' and '.'; expected the "
                   "2r+1 wall matrix", path, ln, cl)
    check_size(f"a {len(lines)}x{len(lines[0])} wall matrix", len(lines) * len(lines[0]),
               path, ln, cl)
    m = np.array([[ch == "#" for ch in s] for s in lines], dtype=np.uint8)
    try:
        maze = Maze.from_matrix(m, start=_cells(d.get("start", [0, 0]), "start", 2),
                                goals=[_cells(g, "goal", 2) for g in d.get("goals", [])])
    except (ParameterError, TypeError, ValueError, OverflowError, IndexError) as exc:
        raise fail(f"{exc}", path, ln, cl) from None
    if (maze.rows, maze.cols) != (d.get("rows", maze.rows), d.get("cols", maze.cols)):
        raise fail(f"rows/cols do not match the {maze.rows}x{maze.cols} maze of the matrix; "
                   "expected equal sizes", path, *_line_col(text, "rows"))
    return maze


def maze_from_dict(d: Any, *, path=None, text: str | None = None) -> Maze:
    """A maze from either JSON form; errors name the file and, when ``text``
    is given, the line of the offending key.

    >>> maze_from_dict(maze_to_dict(Maze.empty(2, 2))) == Maze.empty(2, 2)
    True
    >>> maze_from_dict(maze_to_matrix_dict(Maze.empty(2, 2))) == Maze.empty(2, 2)
    True
    """
    if not isinstance(d, dict):
        raise fail(f"top level is a JSON {type(d).__name__}; expected an object", path, 1, 1)
    if "format" not in d and "matrix" in d:
        return _from_matrix(d, path, text)
    if d.get("format") != FORMAT:
        raise fail(f"format is not {FORMAT!r}; expected {FORMAT!r}", path,
                   *_line_col(text, "format"))
    for key in ("rows", "cols", "east", "south"):
        if key not in d:
            raise fail(f"missing key {key!r}; expected rows, cols, east, south", path, 1, 1)
    rows, cols = d["rows"], d["cols"]
    for key, v in (("rows", rows), ("cols", cols)):
        if not _is_int(v) or v < 1:
            raise fail(f"{key} is not an integer >= 1; expected an integer >= 1", path,
                       *_line_col(text, key))
    check_size(f"a {rows}x{cols} maze", rows * cols, path, *_line_col(text, "rows"))
    arrays = {}
    for key in ("east", "south"):
        v = d[key]
        ln, cl = _line_col(text, key)
        if not isinstance(v, list) or len(v) != rows:
            n = len(v) if isinstance(v, list) else "no list of"
            raise fail(f"{key} has {n} rows; expected a list of {rows} strings "
                       "(size mismatch)", path, ln, cl)
        for i, row in enumerate(v):
            if not isinstance(row, str) or len(row) != cols or set(row) - {"0", "1"}:
                raise fail(f"{key}[{i}] is not {cols} characters of 0/1; expected "
                           f"{cols} characters of 0/1", path, ln, cl)
        arrays[key] = np.array([[ch == "1" for ch in row] for row in v], bool)
    try:
        openings = d.get("openings", [])
        if not isinstance(openings, list) or not isinstance(d.get("goals", []), list):
            raise ParameterError("goals and openings must be lists")
        return Maze(arrays["east"], arrays["south"],
                    start=_cells(d.get("start", [0, 0]), "start", 2),
                    goals=tuple(_cells(g, "goal", 2) for g in d.get("goals", [])),
                    openings=tuple(_cells(o, "opening", 3) for o in openings))
    except (ParameterError, TypeError, ValueError, OverflowError, IndexError) as exc:
        raise fail(f"{exc}", path, 1, 1) from None


def maze_from_json(text: str, *, path=None) -> Maze:
    """Parse the JSON form; errors name the line/column of the offending key.

    >>> maze_from_json(maze_to_json(Maze.empty(2, 2))) == Maze.empty(2, 2)
    True
    """
    d = loads_strict(text, path=path, expected="a robomaze maze object")
    return maze_from_dict(d, path=path, text=text)


def read_maze_json(path: PathLike) -> Maze:
    """Read the JSON form of a maze."""
    return maze_from_json(decode_text(read_bytes(path), path, "a JSON maze"), path=path)


def write_maze_json(maze: Maze, path: PathLike, provenance: dict | None = None) -> None:
    """Write the JSON form of a maze, with optional generator provenance."""
    Path(path).write_text(maze_to_json(maze, provenance) + "\n", encoding="utf-8")
