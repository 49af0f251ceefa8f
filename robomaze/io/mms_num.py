"""The mms simulator's ``.num`` maze format.

One line per cell: ``x y N E S W``, where ``(x, y)`` are micromouse
coordinates (``(0, 0)`` south-west) and each of ``N E S W`` is ``1`` for a
wall on that side of the cell and ``0`` for none. Every cell of the
``W x H`` maze appears exactly once (in any order); the size is the largest
``x`` and ``y`` plus one. Walls are stated twice (once from each side); a
disagreement is an error in strict mode and a wall otherwise. The format
stores neither start nor goals: the start is micromouse ``(0, 0)`` and the
goals are the centre cells.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..maze import Maze
from ._reading import PathLike, fail, read_text, text_lines
from ._limits import check_memory, check_size
from .micromouse import cell_to_mm, centre_goals

__all__ = ["read_num", "parse_num", "format_num", "write_num", "looks_like_num"]

#: Peak bytes per character of text while parsing: the line strings and the
#: per-line records (a list of six ints, ~250 bytes per 12-character line).
_BYTES_PER_CHAR = 24
#: Peak bytes per maze cell: the line index (8), the four wall flags, the
#: transposed copies and the Maze's own arrays.
_BYTES_PER_CELL = 32


def looks_like_num(text: str) -> bool:
    """Whether the first non-blank line reads as six integers."""
    for line in text.splitlines():
        if line.strip():
            parts = line.split()
            return len(parts) == 6 and all(p.lstrip("-").isdigit() for p in parts)
    return False


def parse_num(text: str, *, path=None, strict: bool = False) -> Maze:
    """Parse ``.num`` text into a :class:`Maze`.

    Examples
    --------
    >>> m = parse_num("0 0 0 0 1 1\\n0 1 1 0 0 1\\n1 0 0 1 1 0\\n1 1 1 1 0 0\\n")
    >>> m.shape, bool(m.wall((0, 0), "S")), bool(m.wall((1, 0), "E"))
    ((2, 2), False, False)
    """
    # the per-line records cost far more than the text: refuse a file whose
    # parse would not fit before splitting it
    check_memory(f"an mms .num text of {len(text)} characters", len(text) * _BYTES_PER_CHAR,
                 path)
    lines = text_lines(text)
    if not lines:
        raise fail("empty file; expected lines 'x y N E S W'", path, 1, 1)
    recs = []
    for i, line in enumerate(lines, start=1):
        if not line.strip():
            raise fail("blank line inside the data; expected 'x y N E S W'", path, i, 1)
        parts = line.split()
        if len(parts) != 6:
            raise fail(f"found {len(parts)} fields; expected 6 ('x y N E S W')",
                       path, i, 1)
        vals = []
        col = 1
        for k, p in enumerate(parts):
            col = line.index(p, col - 1) + 1
            # ASCII digits only, at most 9 (int() would take '²'-free Unicode
            # digits and numbers beyond int64)
            if not (p.isascii() and p.lstrip("-").isdigit() and len(p.lstrip("-")) <= 9):
                raise fail("not an integer of at most 9 digits; expected an integer",
                           path, i, col)
            v = int(p)
            if k < 2 and v < 0:
                raise fail(f"coordinate {v} is negative; expected >= 0", path, i, col)
            if k >= 2 and v not in (0, 1):
                raise fail(f"wall flag {v}; expected 0 or 1", path, i, col)
            vals.append(v)
            col += len(p)
        recs.append(vals)
    arr = np.array(recs, dtype=np.int64)
    width, height = int(arr[:, 0].max()) + 1, int(arr[:, 1].max()) + 1
    far = int(np.argmax(np.maximum(arr[:, 0], arr[:, 1])))   # the line naming the size
    check_size(f"a {width}x{height} maze", width * height, path, far + 1, 1)
    if len(recs) < width * height:
        # every cell has its own line: a short file is refused before the
        # width x height arrays are allocated
        raise fail(f"{width * height - len(recs)} cells of the {width}x{height} maze are "
                   f"missing ({len(recs)} of {width * height} lines); expected every cell "
                   "once (truncated file?)", path, len(lines), 1)
    check_memory(f"a {width}x{height} maze", width * height * _BYTES_PER_CELL, path,
                 far + 1, 1)
    seen = np.zeros((width, height), np.int64)
    walls = np.zeros((width, height, 4), bool)
    for i, (x, y, *w) in enumerate(recs, start=1):
        if seen[x, y]:
            raise fail(f"cell ({x}, {y}) listed twice (first on line {seen[x, y]}); "
                       "expected each cell once", path, i, 1)
        seen[x, y] = i
        walls[x, y] = w
    if (seen == 0).any():
        x, y = (int(v) for v in np.argwhere(seen == 0)[0])
        raise fail(f"cell ({x}, {y}) of the {width}x{height} maze is missing "
                   f"({len(recs)} of {width * height} lines); expected every cell once "
                   "(truncated file?)", path, len(lines), 1)
    # Convert to robomaze (row, col) with row 0 north: row = H-1-y, col = x.
    cell = walls.transpose(1, 0, 2)[::-1]          # (rows, cols, NESW)
    east = cell[:, :, 1].copy()
    south = cell[:, :, 2].copy()
    west_of_next = cell[:, 1:, 3]
    north_of_below = cell[1:, :, 0]
    if strict:
        bad_e = east[:, :-1] != west_of_next
        bad_s = south[:-1, :] != north_of_below
        for bad, what in ((bad_e, "east/west"), (bad_s, "south/north")):
            if bad.any():
                r, c = (int(v) for v in np.argwhere(bad)[0])
                x, y = cell_to_mm((r, c), height)
                line = int(seen[x, y])
                raise fail(f"cell ({x}, {y}) disagrees with its neighbour about the "
                           f"{what} wall; expected both sides to match", path, line, 1)
    east[:, :-1] |= west_of_next
    south[:-1, :] |= north_of_below
    openings = []
    rows, cols = height, width
    for c in range(cols):
        if not cell[0, c, 0]:
            openings.append((0, c, "N"))
        if not cell[rows - 1, c, 2]:
            openings.append((rows - 1, c, "S"))
    for r in range(rows):
        if not cell[r, 0, 3]:
            openings.append((r, 0, "W"))
        if not cell[r, cols - 1, 1]:
            openings.append((r, cols - 1, "E"))
    return Maze(east, south, start=(rows - 1, 0), goals=centre_goals(rows, cols),
                openings=tuple(openings))


def read_num(path: PathLike, *, strict: bool = False) -> Maze:
    """Read an mms ``.num`` file (see the module notes)."""
    return parse_num(read_text(path), path=path, strict=strict)


def format_num(maze: Maze) -> str:
    """The ``.num`` text of a maze, cells ordered by ``x`` then ``y`` as mms does.

    >>> format_num(Maze.empty(1, 2)).splitlines()
    ['0 0 1 0 1 1', '1 0 1 1 1 0']
    """
    rows, cols = maze.shape
    out = []
    for x in range(cols):
        for y in range(rows):
            cell = (rows - 1 - y, x)
            flags = [int(maze.wall(cell, s)) for s in "NESW"]
            out.append(f"{x} {y} " + " ".join(map(str, flags)))
    return "\n".join(out) + "\n"


def write_num(maze: Maze, path: PathLike) -> None:
    """Write ``maze`` as ``.num`` (start and goals are not stored by the format)."""
    rows, cols = maze.shape
    # the text (about 14 characters per cell) and the list of lines behind it
    check_memory(f"the .num text of a {rows}x{cols} maze", rows * cols * 80, path,
                 verb="writing")
    Path(path).write_text(format_num(maze), encoding="ascii")
