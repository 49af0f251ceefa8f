"""A file format in one module plus its spec: ASCII-art grids.

A ``.grid.txt`` file starts with the line ``# ascii-grid``; then one line per
grid row, ``#`` for an occupied cell and ``.`` for a free one (row 0 first).
"""

from __future__ import annotations

import numpy as np

from robomaze.errors import MazeFormatError
from robomaze.grid import OccupancyGrid
from robomaze.io import FormatSpec, register_format
from robomaze.registry import FORMATS, Option

MAGIC = "# ascii-grid"


def looks_like_ascii_grid(head: bytes) -> bool:
    return head.lstrip(b"\xef\xbb\xbf").startswith(MAGIC.encode())


def read_ascii_grid(path, *, resolution: float = 1.0, wall: str = "#") -> OccupancyGrid:
    """Read an ASCII-art grid (``wall`` marks an occupied cell)."""
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    if not lines or lines[0].strip() != MAGIC:
        raise MazeFormatError(f"{path}:1:1: expected the line {MAGIC!r}")
    rows = [ln for ln in lines[1:] if ln]
    if not rows or len({len(r) for r in rows}) != 1:
        raise MazeFormatError(f"{path}:2:1: expected rows of equal length")
    for i, r in enumerate(rows):
        bad = set(r) - {wall, "."}
        if bad:
            raise MazeFormatError(f"{path}:{i + 2}:{r.index(bad.pop()) + 1}: expected "
                                  f"{wall!r} or '.'")
    occ = np.array([[ch == wall for ch in r] for r in rows], bool)
    return OccupancyGrid(occ, resolution=resolution)


def write_ascii_grid(grid: OccupancyGrid, path) -> None:
    """Write ``grid`` as ASCII art."""
    text = "\n".join("".join("#" if v else "." for v in row) for row in grid.occupied)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(f"{MAGIC}\n{text}\n")


SPEC = FormatSpec(
    "ascii_grid", "grid", (".agrid",), looks_like_ascii_grid, read_ascii_grid,
    write_ascii_grid,
    options=("resolution",
             Option("wall", str, "#", "the character of an occupied cell",
                    choices=("#", "X", "@"))),
    description="ASCII-art grid ('#' walls, '.' free)")
if "ascii_grid" in FORMATS:
    FORMATS.unregister("ascii_grid")
register_format(SPEC)
