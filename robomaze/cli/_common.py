"""Helpers shared by the ``robomaze`` sub-commands.

Parsing of the small textual forms users type (``20x30`` sizes, placements,
seeds), building a maze from generator options, and loading/saving mazes and
grids by file extension. Format readers and writers come from
:mod:`robomaze.io` when it provides them; the few formats the CLI itself
produces (``.json`` maze, ``.npy`` grid, ``.txt`` 0/1 matrix) are handled
here so the commands work on their own.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from .._validate import check_fraction, check_int
from ..errors import MazeFormatError, ParameterError
from ..grid import OccupancyGrid, widen
from ..maze import Maze, check_shape

__all__ = [
    "add_command", "parse_size", "parse_pixel_size", "parse_placement", "parse_seed",
    "build_maze", "parse_options", "load", "load_maze", "load_grid", "maze_to_dict", "maze_from_dict",
    "write_maze_json", "read_maze_json", "write_matrix_txt", "read_matrix_txt",
    "positive_int", "positive_float", "nonneg_int", "fraction", "out_extension",
    "PLACEMENTS", "MAZE_FORMAT",
]

PLACEMENTS = ("corners", "sides", "centre", "contest")
#: ``format`` tag of the JSON maze (shared with :mod:`robomaze.io.maze_json`).
MAZE_FORMAT = "robomaze.maze"
_SIZE_RE = re.compile(r"^\s*(\d+)\s*[xX\u00d7]\s*(\d+)\s*$")


# ------------------------------------------------------------------ parsers
def add_command(subparsers, name: str, *, help: str, description: str | None = None,
                epilog: str | None = None) -> argparse.ArgumentParser:
    """Add a sub-command parser whose usage errors are ONE line, like ours.

    argparse would print the whole usage block before its message; a user
    typing a bad option gets ``robomaze <name>: error: ...`` and exit 2
    instead, the same shape as every other robomaze error.
    """
    parser = subparsers.add_parser(
        name, help=help, description=description or help, epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter)

    def error(message: str):
        print(f"robomaze {name}: error: {message}", file=sys.stderr)
        raise SystemExit(2)

    parser.error = error  # type: ignore[method-assign]

    # Unknown options would otherwise travel back to the top-level parser,
    # which prints its whole usage block; report them here, in one line.
    parse_known = parser.parse_known_args

    def parse_known_args(args=None, namespace=None):
        namespace, extras = parse_known(args, namespace)
        if extras:
            error(f"unrecognized arguments: {' '.join(extras)}")
        return namespace, extras

    parser.parse_known_args = parse_known_args  # type: ignore[method-assign]
    return parser


def parse_size(text: str, name: str = "size") -> tuple[int, int]:
    """``"ROWSxCOLS"`` -> ``(rows, cols)``; a single ``"N"`` means ``N x N``.

    >>> parse_size("20x30"), parse_size("7")
    ((20, 30), (7, 7))
    >>> parse_size("20by30")
    Traceback (most recent call last):
    ...
    robomaze.errors.ParameterError: size must be ROWSxCOLS like 20x30, got '20by30'
    """
    text = str(text)
    m = _SIZE_RE.match(text)
    if m:
        rows, cols = int(m.group(1)), int(m.group(2))
    elif text.strip().isdigit():
        rows = cols = int(text)
    else:
        raise ParameterError(f"{name} must be ROWSxCOLS like 20x30, got {text!r}")
    try:
        return check_shape(rows, cols)
    except ParameterError as exc:
        raise ParameterError(f"{name} {text!r}: {exc}") from None


#: Largest picture the CLI draws: 16384 pixels a side, 64 megapixels in all
#: (an RGBA canvas of 256 MB).
MAX_PIXELS_SIDE = 16384
MAX_PIXELS = 64_000_000


def parse_pixel_size(text: str) -> tuple[int, int]:
    """``"800x600"`` -> ``(width, height)`` in pixels.

    >>> parse_pixel_size("800x600")
    (800, 600)
    """
    m = _SIZE_RE.match(str(text))
    if not m:
        raise ParameterError(f"--size must be WIDTHxHEIGHT in pixels like 800x600, got {text!r}")
    w, h = int(m.group(1)), int(m.group(2))
    if not (1 <= w <= MAX_PIXELS_SIDE and 1 <= h <= MAX_PIXELS_SIDE) or w * h > MAX_PIXELS:
        raise ParameterError(
            f"--size must be between 1x1 and {MAX_PIXELS_SIDE}x{MAX_PIXELS_SIDE} pixels with at "
            f"most {MAX_PIXELS:,d} pixels in all, got {text!r}")
    return w, h


def parse_placement(text: str) -> str:
    """One of corners, sides, centre, contest (``center`` accepted).

    >>> parse_placement("center")
    'centre'
    """
    value = str(text).strip().lower()
    value = {"center": "centre", "corner": "corners", "side": "sides"}.get(value, value)
    if value not in PLACEMENTS:
        raise ParameterError(
            f"--placement must be one of {', '.join(PLACEMENTS)}, got {text!r}")
    return value


def parse_seed(value) -> int:
    """A seed given on the command line, or a fresh one when None.

    A fresh seed is drawn from the OS entropy (never global random state) and
    returned so the command can print it and the run can be reproduced.
    """
    if value is None:
        return int(np.random.SeedSequence().entropy % (2 ** 32))
    return check_int("--seed", value, min_value=0)


def parse_options(items: Sequence[str]) -> dict:
    """``["selection=random", "mix=0.5"]`` -> ``{"selection": "random", "mix": 0.5}``.

    Values that read as int or float become numbers.

    >>> parse_options(["selection=random", "mix=0.5", "n=3"])
    {'selection': 'random', 'mix': 0.5, 'n': 3}
    """
    out: dict[str, Any] = {}
    for item in items or ():
        key, sep, value = str(item).partition("=")
        key = key.strip()
        if not sep or not key.isidentifier():
            raise ParameterError(f"--option must be KEY=VALUE, got {item!r}")
        for convert in (int, float):
            try:
                out[key] = convert(value)
                break
            except ValueError:
                continue
        else:
            out[key] = value
    return out


def build_maze(algorithm: str, rows: int, cols: int, *, seed: int, braid: float = 0.0,
               placement: str = "corners", **options) -> Maze:
    """Generate a maze through :func:`robomaze.generate.generate`."""
    braid = check_fraction("--braid", braid)
    placement = parse_placement(placement)
    try:
        from ..generate import generate
    except ImportError as exc:  # the generators package is optional at import time
        raise ParameterError(f"maze generators are not available: {exc}") from None
    try:
        return generate(algorithm, rows, cols, rng=seed, braid=braid, placement=placement,
                        **options)
    except TypeError as exc:  # an --option the generator does not take
        raise ParameterError(f"generator {algorithm!r} rejected the options "
                             f"{sorted(options)}: {exc}") from None


# ------------------------------------------------------------------ JSON maze
def maze_to_dict(maze: Maze, provenance: dict | None = None) -> dict:
    """The JSON object of a maze (``robomaze.maze`` format, version 1).

    >>> d = maze_to_dict(Maze.empty(1, 2))
    >>> d["east"], d["south"], d["goals"]
    (['01'], ['11'], [[0, 1]])
    """
    d: dict[str, Any] = {
        "format": MAZE_FORMAT, "version": 1, "rows": maze.rows, "cols": maze.cols,
        "east": ["".join("1" if v else "0" for v in row) for row in maze.east],
        "south": ["".join("1" if v else "0" for v in row) for row in maze.south],
        "start": list(maze.start), "goals": [list(g) for g in maze.goals],
        "openings": [list(o) for o in maze.openings],
    }
    if provenance:
        d["generator"] = provenance
    return d


def maze_from_dict(d: Any, *, path=None) -> Maze:
    """Inverse of :func:`maze_to_dict`; errors name the file."""
    if not isinstance(d, dict) or d.get("format") != MAZE_FORMAT:
        got = d.get("format") if isinstance(d, dict) else type(d).__name__
        raise MazeFormatError(f"not a robomaze maze (format {got!r}); expected "
                              f"format {MAZE_FORMAT!r}", path=path)
    try:
        rows, cols = check_shape(d["rows"], d["cols"])
        walls = {}
        for key in ("east", "south"):
            v = d[key]
            if not isinstance(v, list) or len(v) != rows or any(
                    not isinstance(s, str) or len(s) != cols or set(s) - {"0", "1"} for s in v):
                raise ParameterError(f"{key} must be {rows} strings of {cols} 0/1 characters")
            walls[key] = np.array([[ch == "1" for ch in s] for s in v], dtype=bool)
        return Maze(walls["east"], walls["south"], start=tuple(d.get("start", (0, 0))),
                    goals=tuple(tuple(g) for g in d.get("goals", ())),
                    openings=tuple(tuple(o) for o in d.get("openings", ())))
    except KeyError as exc:
        raise MazeFormatError(f"missing key {exc.args[0]!r}", path=path) from None
    except (ParameterError, TypeError, ValueError) as exc:
        raise MazeFormatError(str(exc), path=path) from None


def write_maze_json(maze: Maze, out, provenance: dict | None = None) -> None:
    """Write a maze as JSON, with optional generator provenance."""
    Path(out).write_text(json.dumps(maze_to_dict(maze, provenance)) + "\n", encoding="utf-8")


def read_maze_json(path) -> Maze:
    """Read a maze written by :func:`write_maze_json` (or robomaze.io)."""
    try:
        d = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise MazeFormatError(f"invalid JSON: {exc.msg}", path=path, line=exc.lineno,
                              column=exc.colno) from None
    except UnicodeDecodeError:
        raise MazeFormatError("not a UTF-8 text file", path=path) from None
    return maze_from_dict(d, path=path)


# ------------------------------------------------------------------ 0/1 text
def write_matrix_txt(occupied: np.ndarray, out) -> None:
    """One line per grid row of ``0`` (free) / ``1`` (occupied) characters."""
    occ = np.asarray(occupied, dtype=bool)
    table = np.array(["0", "1"])
    lines = ["".join(row) for row in table[occ.astype(np.uint8)]]
    Path(out).write_text("\n".join(lines) + "\n", encoding="ascii")


def _is_matrix_text(text: str) -> bool:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return bool(lines) and all(set(ln) <= {"0", "1"} for ln in lines)


def read_matrix_txt(path) -> np.ndarray:
    """Read a 0/1 text matrix; every line must have the same length."""
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    rows = []
    width = None
    for i, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        bad = next((j for j, ch in enumerate(line) if ch not in "01"), None)
        if bad is not None:
            raise MazeFormatError(f"unexpected character {line[bad]!r}; expected 0 or 1",
                                  path=path, line=i, column=bad + 1)
        if width is not None and len(line) != width:
            raise MazeFormatError(f"line has {len(line)} characters; expected {width}",
                                  path=path, line=i)
        width = len(line)
        rows.append([ch == "1" for ch in line])
    if not rows:
        raise MazeFormatError("empty file; expected lines of 0/1", path=path)
    return np.array(rows, dtype=bool)


# ------------------------------------------------------------------ loading
def _io_reader(name: str):
    """``robomaze.io.<name>`` if that package provides it, else None."""
    try:
        import robomaze.io as rio
    except ImportError:
        return None
    return getattr(rio, name, None)


_MAZE_EXTS = (".json", ".txt", ".maze", ".num")
_GRID_EXTS = (".npy", ".map", ".yaml", ".yml", ".png", ".pgm")


def _check_exists(path) -> Path:
    p = Path(os.fspath(path))
    if not p.is_file():
        raise ParameterError(f"input file {str(p)!r} does not exist or is not a file")
    return p


def _read_npy(p: Path) -> OccupancyGrid:
    try:
        arr = np.load(p, allow_pickle=False)
    except (ValueError, OSError) as exc:
        raise MazeFormatError(f"not a numpy .npy array: {exc}", path=p) from None
    if arr.ndim != 2 or not (arr.dtype == bool or np.isin(arr, (0, 1)).all()):
        raise MazeFormatError(
            f"expected a 2-D boolean or 0/1 array, got shape {arr.shape} dtype {arr.dtype}",
            path=p)
    return OccupancyGrid(arr.astype(bool))


def load(path) -> Maze | OccupancyGrid:
    """Load a maze or a grid, chosen by the file's extension.

    ``.txt`` holding only 0/1 lines is the matrix this CLI writes: a Maze
    when it is a valid 2r+1 matrix, else a grid. Otherwise maze extensions
    (``.json .maze .num .txt``) go to :func:`robomaze.io.read_maze` and grid
    extensions (``.npy .map .yaml .yml .png .pgm``) to
    :func:`robomaze.io.read_grid`; without :mod:`robomaze.io`, ``.json``
    and ``.npy`` are read here.
    """
    p = _check_exists(path)
    ext = p.suffix.lower()
    if ext == ".txt" and _is_matrix_text(p.read_text(encoding="utf-8", errors="replace")):
        occ = read_matrix_txt(p)
        try:
            maze = Maze.from_matrix(occ.astype(np.uint8))
        except ParameterError:
            return OccupancyGrid(occ)
        # a widened grid (k > 1) can pass as a matrix of a finer maze but its
        # free posts would turn into walls; only an exact 2r+1 matrix is a maze
        if np.array_equal(maze.to_matrix().astype(bool), occ):
            return maze
        return OccupancyGrid(occ)
    if ext in _MAZE_EXTS:
        reader = _io_reader("read_maze")
        if reader is not None:
            return reader(p)
        if ext == ".json":
            return read_maze_json(p)
    if ext in _GRID_EXTS:
        reader = _io_reader("read_grid")
        if reader is not None:
            return reader(p)
        if ext == ".npy":
            return _read_npy(p)
    raise ParameterError(
        f"cannot read {str(p)!r}: unknown extension {ext or '(none)'!r}; expected one of "
        f"{', '.join(_MAZE_EXTS)} (maze) or {', '.join(_GRID_EXTS)} (grid)")


def load_maze(path) -> Maze:
    """Like :func:`load` but the file must hold a maze (not a bare grid)."""
    obj = load(path)
    if isinstance(obj, OccupancyGrid):
        if obj.maze is not None:
            return obj.maze
        raise ParameterError(f"{os.fspath(path)!r} holds an occupancy grid, not a maze; "
                             "expected a maze file (.json, .txt 2r+1 matrix, ...)")
    return obj


def load_grid(path, *, corridor: int = 1, wall: int = 1) -> OccupancyGrid:
    """Like :func:`load`; a maze is widened with ``corridor``/``wall``."""
    obj = load(path)
    if isinstance(obj, Maze):
        return widen(obj, corridor=corridor, wall=wall)
    return obj


def positive_int(text: str) -> int:
    """An argparse ``type`` for widths and pixel counts (integer >= 1)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1, got {value}")
    return value


def fraction(text: str) -> float:
    """An argparse ``type`` for a number in [0, 1]."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number in [0, 1], got {text!r}") from None
    if not (0.0 <= value <= 1.0):
        raise argparse.ArgumentTypeError(f"must be a number in [0, 1], got {text!r}")
    return value


def nonneg_int(text: str) -> int:
    """An argparse ``type`` for a seed."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer >= 0, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be an integer >= 0, got {value}")
    return value


def positive_float(text: str) -> float:
    """An argparse ``type`` for a resolution in metres."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number > 0, got {text!r}") from None
    if not (value > 0 and np.isfinite(value)):
        raise argparse.ArgumentTypeError(f"must be a finite number > 0, got {text!r}")
    return value


def out_extension(out, allowed: Sequence[str], name: str = "-o/--output") -> str:
    """Lower-case extension of ``out``, which must be one of ``allowed``."""
    ext = Path(os.fspath(out)).suffix.lower()
    if ext not in allowed:
        raise ParameterError(
            f"{name} must end in one of {', '.join(allowed)}, got {os.fspath(out)!r}")
    return ext
