"""MovingAI grid benchmark maps (``.map``) and scenario files (``.scen``).

A map file is a four-line header -- ``type octile``, ``height H``,
``width W``, ``map`` -- and then ``H`` rows of ``W`` characters. ``.`` and
``G`` are passable; ``@``, ``O``, ``T``, ``S`` and ``W`` are blocked (trees,
swamp and water count as blocked for a ground robot). ``(x, y) = (0, 0)`` is
the upper-left character, so ``x`` is the grid column and ``y`` the grid row,
which is exactly robomaze's ``(row, col)`` with row 0 north.

A scenario file starts with ``version 1`` (or ``version 1.0``) and lists one
problem per line: bucket, map name, map width, map height, start x, start y,
goal x, goal y, optimal length (8-connected, diagonal sqrt(2), no corner
cutting), separated by tabs or spaces.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path

import numpy as np

from ..grid import OccupancyGrid
from ._reading import PathLike, fail, read_text, text_lines
from ._limits import check_memory, check_size

__all__ = ["read_movingai", "parse_movingai", "format_movingai", "write_movingai",
           "read_scen", "parse_scen", "write_scen", "ScenProblem", "looks_like_movingai"]

PASSABLE = ".G"
#: A header size: ASCII digits only, at most 9 of them (Unicode digits such as
#: '²' pass ``str.isdigit`` but not ``int``).
_SIZE = re.compile(r"[0-9]{1,9}")
BLOCKED = "@OTSW"


def looks_like_movingai(text: str) -> bool:
    """Whether the text starts with a MovingAI ``type`` header line."""
    return text.lstrip().startswith("type ")


def parse_movingai(text: str, *, path=None, strict: bool = False,
                   resolution: float = 1.0) -> OccupancyGrid:
    """Parse map text into an :class:`OccupancyGrid` (one grid cell per character).

    With ``strict=False`` characters outside ``.G@OTSW`` are read as blocked;
    with ``strict=True`` they are an error.

    >>> g = parse_movingai("type octile\\nheight 2\\nwidth 3\\nmap\\n.@.\\n..T\\n")
    >>> g.occupied.astype(int)
    array([[0, 1, 0],
           [0, 0, 1]])
    """
    lines = text_lines(text)
    header: dict[str, tuple[str, int]] = {}
    i = 0
    while i < len(lines):
        words = lines[i].split()
        if not words:
            raise fail("blank line in the header; expected 'type', 'height', 'width', 'map'",
                       path, i + 1, 1)
        key = words[0].lower()
        if key == "map":
            if len(words) != 1:
                raise fail("text after 'map'; expected the word 'map' alone", path, i + 1, 5)
            break
        if key not in ("type", "height", "width") or len(words) != 2:
            raise fail("not a header line; expected 'type octile', 'height H', 'width W' or "
                       "'map' (is this a MovingAI .map file?)", path, i + 1, 1)
        if key in header:
            raise fail(f"duplicate header key {key!r}; expected each once", path, i + 1, 1)
        header[key] = (words[1], i + 1)
        i += 1
    else:
        raise fail("no 'map' line; expected the header to end with 'map' (truncated file?)",
                   path, max(len(lines), 1), 1)
    for key in ("type", "height", "width"):
        if key not in header:
            raise fail(f"missing header key {key!r}; expected 'type', 'height', 'width' "
                       "before 'map'", path, i + 1, 1)
    dims = {}
    for key in ("height", "width"):
        val, ln = header[key]
        if not _SIZE.fullmatch(val) or int(val) < 1:
            raise fail(f"{key} is not a positive integer of at most 9 digits; expected a "
                       "positive integer", path, ln, len(key) + 2)
        dims[key] = int(val)
    h, w = dims["height"], dims["width"]
    check_size(f"a {w}x{h} map", w * h, path, header["height"][1], 1)
    # the rows are already held as text: the boolean grid and its checks
    check_memory(f"a {w}x{h} map", w * h * 4, path, header["height"][1], 1)
    body = lines[i + 1:]
    if len(body) < h:
        raise fail(f"map has {len(body)} rows; expected height {h} (truncated file?)",
                   path, len(lines) + 1, 1)
    if len(body) > h:
        raise fail(f"map has {len(body)} rows; expected height {h} (size mismatch)",
                   path, i + 2 + h, 1)
    occ = np.zeros((h, w), bool)
    ok = set(PASSABLE + BLOCKED)
    for r, row in enumerate(body):
        ln = i + 2 + r
        row = row.rstrip("\r")
        if len(row) != w:
            raise fail(f"row has {len(row)} characters; expected width {w} (ragged line)",
                       path, ln, min(len(row), w) + 1)
        chars = np.frombuffer(row.encode("latin-1", "replace"), dtype="S1")
        if strict:
            bad = [k for k, ch in enumerate(row) if ch not in ok]
            if bad:
                raise fail(f"unknown terrain character; expected one of "
                           f"{PASSABLE + BLOCKED!r}", path, ln, bad[0] + 1)
        occ[r] = ~((chars == b".") | (chars == b"G"))
    return OccupancyGrid(occ, resolution=resolution)


def read_movingai(path: PathLike, *, strict: bool = False,
                  resolution: float = 1.0) -> OccupancyGrid:
    """Read a MovingAI ``.map`` file (see :func:`parse_movingai`)."""
    return parse_movingai(read_text(path), path=path, strict=strict, resolution=resolution)


def format_movingai(grid: OccupancyGrid) -> str:
    """The ``.map`` text of a grid: ``.`` free, ``@`` occupied.

    >>> print(format_movingai(OccupancyGrid([[0, 1]])), end="")
    type octile
    height 1
    width 2
    map
    .@
    """
    occ = np.asarray(grid.occupied)
    rows = ["".join("@" if v else "." for v in row) for row in occ]
    return f"type octile\nheight {occ.shape[0]}\nwidth {occ.shape[1]}\nmap\n" + \
        "\n".join(rows) + "\n"


def write_movingai(grid: OccupancyGrid, path: PathLike) -> None:
    """Write a grid as a MovingAI ``.map`` file."""
    Path(path).write_text(format_movingai(grid), encoding="ascii")


@dataclass(frozen=True)
class ScenProblem:
    """One scenario line. ``start`` / ``goal`` are robomaze ``(row, col)``.

    ``optimal_unit`` is one unit in the last digit the file printed the
    optimal length with (``1e-8`` for ``2.00000000``, ``0.01`` for
    ``1234.57``): the precision the stored number can be judged at.
    """

    bucket: int
    map: str
    width: int
    height: int
    start: tuple[int, int]
    goal: tuple[int, int]
    optimal: float
    optimal_unit: float = field(default=1e-8, compare=False)


def printed_unit(text: str) -> float:
    """One unit in the last printed digit of a decimal number.

    >>> printed_unit("2.00000000"), printed_unit("1234.57"), printed_unit("1.5e+03")
    (1e-08, 0.01, 100.0)
    """
    try:
        exp = Decimal(text).as_tuple().exponent
    except InvalidOperation:
        raise ValueError(text) from None
    if not isinstance(exp, int) or not -330 < exp < 300:   # NaN/inf, or no double's digit
        raise ValueError(text)
    return float(10.0 ** exp)


def parse_scen(text: str, *, path=None) -> list[ScenProblem]:
    """Parse scenario text into :class:`ScenProblem` records.

    >>> p = parse_scen("version 1\\n0\\tm.map\\t4\\t3\\t0\\t1\\t3\\t2\\t3.41421356\\n")[0]
    >>> p.start, p.goal, p.optimal, p.optimal_unit
    ((1, 0), (2, 3), 3.41421356, 1e-08)
    """
    lines = text.splitlines()
    if not lines or lines[0].split()[:1] != ["version"]:
        raise fail("first line must be 'version 1'; expected a MovingAI .scen file",
                   path, 1, 1)
    ver = lines[0].split()
    if len(ver) != 2 or ver[1] not in ("1", "1.0"):
        raise fail("unsupported version; expected 'version 1'", path, 1, 9)
    out = []
    for i, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        parts = line.rstrip("\r\n").split("\t")
        if len(parts) != 9:
            parts = line.split()
        if len(parts) != 9:
            raise fail(f"found {len(parts)} fields; expected 9 (bucket, map, width, height, "
                       "start x, start y, goal x, goal y, optimal length)", path, i, 1)
        if not all(_SIZE.fullmatch(parts[k].strip()) for k in (0, 2, 3, 4, 5, 6, 7)):
            raise fail("bucket, sizes and coordinates must be non-negative integers of at "
                       "most 9 digits", path, i, 1)
        bucket, w, h, sx, sy, gx, gy = (int(parts[k]) for k in (0, 2, 3, 4, 5, 6, 7))
        opt_text = parts[8].strip()
        col = line.rfind(parts[8]) + 1
        try:
            if len(opt_text) > 40:
                raise ValueError(opt_text)
            opt = float(opt_text)
            unit = printed_unit(opt_text)
        except ValueError:
            raise fail("optimal length is not a decimal number; expected a number",
                       path, i, col) from None
        if not (math.isfinite(opt) and opt >= 0):
            raise fail("optimal length is not a finite number >= 0; expected a length",
                       path, i, col)
        for name, x, y in (("start", sx, sy), ("goal", gx, gy)):
            if not (0 <= x < w and 0 <= y < h):
                raise fail(f"{name} ({x}, {y}) outside the {w}x{h} map", path, i, 1)
        out.append(ScenProblem(bucket, parts[1], w, h, (sy, sx), (gy, gx), opt, unit))
    return out


def read_scen(path: PathLike) -> list[ScenProblem]:
    """Read a MovingAI ``.scen`` file."""
    return parse_scen(read_text(path), path=path)


def write_scen(problems, path: PathLike) -> None:
    """Write problems in the ``.scen`` layout (8 decimals, tab separated)."""
    rows = ["version 1"]
    for p in problems:
        rows.append(f"{p.bucket}\t{p.map}\t{p.width}\t{p.height}\t{p.start[1]}\t"
                    f"{p.start[0]}\t{p.goal[1]}\t{p.goal[0]}\t{p.optimal:.8f}")
    Path(path).write_text("\n".join(rows) + "\n", encoding="ascii")
