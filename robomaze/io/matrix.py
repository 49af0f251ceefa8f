"""Occupancy grids as plain 0/1 text: one line per grid row, ``1`` occupied.

With ``--corridor 1 --wall 1`` widening this is the ``2r+1 x 2c+1`` wall
matrix of a maze (:meth:`Maze.to_matrix`), which the command line reads
back as a maze.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..grid import OccupancyGrid
from ._reading import PathLike, decode_text, fail, read_bytes
from ._limits import check_size

__all__ = ["read_matrix", "write_matrix", "format_matrix", "parse_matrix", "looks_like_matrix"]


def looks_like_matrix(text: str) -> bool:
    """Whether every non-blank line holds only ``0`` and ``1``.

    >>> looks_like_matrix("010\\n111\\n"), looks_like_matrix("0 1\\n")
    (True, False)
    """
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return bool(lines) and all(set(ln) <= {"0", "1"} for ln in lines)


def parse_matrix(text: str, *, path=None, resolution: float = 1.0) -> OccupancyGrid:
    """Parse 0/1 lines of equal length (blank lines and surrounding spaces ignored).

    >>> parse_matrix("01\\n10\\n").occupied.astype(int).tolist()
    [[0, 1], [1, 0]]
    """
    rows: list[str] = []
    width = None
    for i, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        bad = next((j for j, ch in enumerate(line) if ch not in "01"), None)
        if bad is not None:
            raise fail("a character other than 0 or 1; expected 0 or 1", path, i, bad + 1)
        if width is not None and len(line) != width:
            raise fail(f"line has {len(line)} characters; expected {width} (ragged line)",
                       path, i)
        width = len(line)
        rows.append(line)
    if not rows:
        raise fail("empty file; expected lines of 0/1", path, 1, 1)
    check_size(f"a {len(rows)}x{width} matrix", len(rows) * width, path, 1, 1)
    occ = np.frombuffer("".join(rows).encode("ascii"), dtype=np.uint8).reshape(len(rows), -1)
    return OccupancyGrid(occ == ord("1"), resolution=resolution)


def read_matrix(path: PathLike, *, resolution: float = 1.0) -> OccupancyGrid:
    """Read a 0/1 text grid (see :func:`parse_matrix`)."""
    return parse_matrix(decode_text(read_bytes(path), path, "lines of 0/1"), path=path,
                        resolution=resolution)


def format_matrix(occupied) -> str:
    """The 0/1 text of a boolean array (LF line ends, final newline).

    >>> format_matrix(np.array([[True, False]]))
    '10\\n'
    """
    occ = np.asarray(occupied, dtype=bool)
    return "\n".join("".join("1" if v else "0" for v in row) for row in occ) + "\n"


def write_matrix(grid: OccupancyGrid, path: PathLike) -> None:
    """Write ``grid.occupied`` as 0/1 text."""
    Path(path).write_text(format_matrix(grid.occupied), encoding="ascii")
