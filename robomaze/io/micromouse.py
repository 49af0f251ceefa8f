"""Micromouse text mazes, the format of the community maze collections.

A ``W x H`` maze is ``2H + 1`` lines of ``4W + 1`` characters. Post lines
(even lines, counted from 0) hold a post (``o`` or ``+``) every four columns
and between posts a three-character gap: ``---`` is a wall, three spaces are
open. On cell lines (odd lines) the character at column ``4x`` is ``|`` (wall)
or a space; the cell's centre (column ``4x + 2``) may hold ``S`` (start) or
``G`` (a goal cell). The top line is the north boundary.

Coordinates
-----------
Micromouse names cells ``(x, y)`` with ``(0, 0)`` the **south-west** cell and
``y`` growing north. robomaze names cells ``(row, col)`` with row 0 north, so
``(x, y)`` is robomaze ``(H - 1 - y, x)``; :func:`mm_to_cell` and
:func:`cell_to_mm` convert. The text's top cell line is robomaze row 0, so
the walls need no flipping, only the names.

Reading rules
-------------
* CRLF line ends and trailing blank lines are accepted.
* ``.`` at a wall position (alone in a gap, or at column ``4x``) marks an
  *unknown* wall, as in real files recorded by a mouse. ``unknown="wall"``
  (the default: a mouse must not assume it can pass) reads it as a wall,
  ``"open"`` as no wall, ``"error"`` rejects the file.
* Any other non-space character at a wall position is a wall; with
  ``strict=True`` only ``-``, ``|``, space and ``.`` are accepted there and
  only ``S``, ``G`` or space at a cell centre.
* The start is the ``S`` cell, else micromouse ``(0, 0)``. Goals are all
  ``G`` cells, else the centre: the 2 x 2 centre cells for even sizes, the
  single (or 1 x 2) centre for odd ones (minus the start cell in tiny mazes
  where they overlap).
* A cell holds one mark, so the writer refuses a maze whose start is also a
  goal.
* An open gap on the outer boundary becomes a :class:`~robomaze.maze.Maze`
  opening.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..maze import Maze
from ._reading import PathLike, fail, read_text, text_lines
from ._limits import check_memory, check_size

__all__ = ["read_micromouse", "parse_micromouse", "format_micromouse",
           "write_micromouse", "mm_to_cell", "cell_to_mm", "centre_goals",
           "MicromouseText", "looks_like_micromouse"]

_POSTS = "o+"
_UNKNOWN_CHOICES = ("wall", "open", "error")


def mm_to_cell(x: int, y: int, rows: int) -> tuple[int, int]:
    """Micromouse ``(x, y)`` (south-west origin) to robomaze ``(row, col)``.

    >>> mm_to_cell(0, 0, 4), mm_to_cell(1, 2, 4)
    ((3, 0), (1, 1))
    """
    return rows - 1 - int(y), int(x)


def cell_to_mm(cell, rows: int) -> tuple[int, int]:
    """robomaze ``(row, col)`` to micromouse ``(x, y)``.

    >>> cell_to_mm((3, 0), 4)
    (0, 0)
    """
    r, c = cell
    return int(c), rows - 1 - int(r)


def centre_goals(rows: int, cols: int) -> tuple[tuple[int, int], ...]:
    """The centre cells: 2 x 2 for even sizes, fewer along odd dimensions.

    >>> centre_goals(16, 16)
    ((7, 7), (7, 8), (8, 7), (8, 8))
    >>> centre_goals(9, 9)
    ((4, 4),)
    """
    rr = (rows // 2 - 1, rows // 2) if rows % 2 == 0 else (rows // 2,)
    cc = (cols // 2 - 1, cols // 2) if cols % 2 == 0 else (cols // 2,)
    return tuple((r, c) for r in rr for c in cc)


@dataclass(frozen=True)
class MicromouseText:
    """A parsed text maze with the unknown-wall marks kept apart.

    ``maze`` is the :class:`Maze` built with the chosen ``unknown`` policy;
    ``unknown_east`` / ``unknown_south`` flag the walls marked ``.``.
    """

    maze: Maze
    unknown_east: np.ndarray
    unknown_south: np.ndarray
    post: str


def looks_like_micromouse(text: str) -> bool:
    """Whether the first non-blank line looks like a micromouse post line."""
    for line in text.splitlines():
        if line.strip():
            s = line.rstrip("\r\n ")
            return len(s) >= 5 and s[0] in _POSTS and s[4] in _POSTS
    return False


def parse_micromouse(text: str, *, path=None, unknown: str = "wall",
                     strict: bool = False) -> MicromouseText:
    """Parse micromouse text; see the module notes for the rules.

    Raises
    ------
    MazeFormatError
        Naming the line and column of the first problem.

    Examples
    --------
    >>> t = "o---o---o\\n| G     |\\no   o---o\\n| S     |\\no---o---o\\n"
    >>> m = parse_micromouse(t).maze
    >>> m.shape, m.start, m.goals, bool(m.south[0, 1]), bool(m.south[0, 0])
    ((2, 2), (1, 0), ((0, 0),), True, False)
    """
    if unknown not in _UNKNOWN_CHOICES:
        from ..errors import ParameterError
        raise ParameterError(f"unknown must be one of {', '.join(_UNKNOWN_CHOICES)}, "
                             f"got {unknown!r}")
    lines = text_lines(text)
    if not lines:
        raise fail("empty file; expected a micromouse text maze", path, 1, 1)
    first = lines[0].rstrip()
    if not first or first[0] not in _POSTS:
        raise fail("the first line does not start with a post; expected a post "
                   "('o' or '+') of a micromouse text maze", path, 1, 1)
    width_chars = len(first)
    if width_chars < 5 or (width_chars - 1) % 4:
        raise fail(f"first line has {width_chars} characters; expected 4*W+1 "
                   "(a post every 4 columns)", path, 1, width_chars)
    cols = (width_chars - 1) // 4
    if len(lines) < 3 or len(lines) % 2 == 0:
        raise fail(f"file has {len(lines)} non-blank lines; expected 2*H+1 (odd, >= 3) "
                   "- truncated or extra lines?", path, len(lines), 1)
    rows = (len(lines) - 1) // 2
    check_size(f"a {cols}x{rows} maze", rows * cols, path, 1, 1)
    # the text's lines are already held; the wall lattices and the Maze
    check_memory(f"a {cols}x{rows} maze", rows * cols * 16, path, 1, 1)
    post = first[0]
    # Walls between/around cells in the text's own (2H+1, 2W+1) lattice.
    horiz = np.zeros((rows + 1, cols), np.int8)   # 0 open, 1 wall, 2 unknown
    vert = np.zeros((rows, cols + 1), np.int8)
    start = None
    goals: list[tuple[int, int]] = []
    for i, raw in enumerate(lines):
        lineno = i + 1
        line = raw.rstrip("\r\n")
        if len(line) > width_chars and not line[width_chars:].strip():
            line = line[:width_chars]
        if len(line) != width_chars:
            raise fail(f"line has {len(line)} characters; expected {width_chars} like the "
                       "first line (ragged line)", path, lineno, min(len(line), width_chars) + 1)
        if i % 2 == 0:
            for x in range(cols + 1):
                ch = line[4 * x]
                if ch not in _POSTS or (strict and ch != post):
                    raise fail(f"not a post where one belongs; expected {post!r}",
                               path, lineno, 4 * x + 1)
            for x in range(cols):
                gap = line[4 * x + 1:4 * x + 4]
                horiz[i // 2, x] = _gap_state(gap, strict, path, lineno, 4 * x + 2)
        else:
            r = i // 2
            for x in range(cols + 1):
                ch = line[4 * x]
                vert[r, x] = _char_state(ch, "|", strict, path, lineno, 4 * x + 1)
            for x in range(cols):
                mark = line[4 * x + 2]
                if mark == "S":
                    if start is not None and strict:
                        raise fail("second start cell 'S'; expected exactly one",
                                   path, lineno, 4 * x + 3)
                    if start is None:
                        start = (r, x)
                elif mark == "G":
                    goals.append((r, x))
                elif strict and mark != " ":
                    raise fail("a character the format does not define at a cell centre; "
                               "expected 'S', 'G' or space", path, lineno, 4 * x + 3)
                if strict:
                    for off in (1, 3):
                        if line[4 * x + off] != " ":
                            raise fail("a character inside a cell; expected a space",
                                       path, lineno, 4 * x + off + 1)
    if unknown == "error" and ((horiz == 2).any() or (vert == 2).any()):
        i, j, kind = _first_unknown(horiz, vert)
        raise fail("unknown wall mark '.'; expected a known wall (unknown='error')",
                   path, i, j)
    as_wall = unknown == "wall"
    hw = (horiz == 1) | ((horiz == 2) & as_wall)
    vw = (vert == 1) | ((vert == 2) & as_wall)
    east = vw[:, 1:].copy()
    south = hw[1:, :].copy()
    openings = []
    for x in range(cols):
        if not hw[0, x]:
            openings.append((0, x, "N"))
        if not hw[rows, x]:
            openings.append((rows - 1, x, "S"))
    for r in range(rows):
        if not vw[r, 0]:
            openings.append((r, 0, "W"))
        if not vw[r, cols]:
            openings.append((r, cols - 1, "E"))
    if start is None:
        start = (rows - 1, 0)
    if not goals:
        goals = [g for g in centre_goals(rows, cols) if g != start] or \
            list(centre_goals(rows, cols))
    maze = Maze(east, south, start=start, goals=tuple(goals), openings=tuple(openings))
    ue = vert[:, 1:] == 2
    us = horiz[1:, :] == 2
    return MicromouseText(maze, ue, us, post)


def _gap_state(gap: str, strict: bool, path, lineno: int, col: int) -> int:
    if gap == "   ":
        return 0
    if gap.strip() == ".":
        return 2
    if strict and gap != "---":
        raise fail("an undefined wall mark between posts; expected '---', '   ' or ' . '",
                   path, lineno, col)
    return 1


def _char_state(ch: str, wall: str, strict: bool, path, lineno: int, col: int) -> int:
    if ch == " ":
        return 0
    if ch == ".":
        return 2
    if strict and ch != wall:
        raise fail(f"an undefined wall mark; expected {wall!r}, ' ' or '.'",
                   path, lineno, col)
    return 1


def _first_unknown(horiz, vert):
    cands = []
    for r, x in np.argwhere(horiz == 2):
        cands.append((2 * int(r) + 1, 4 * int(x) + 3, "h"))
    for r, x in np.argwhere(vert == 2):
        cands.append((2 * int(r) + 2, 4 * int(x) + 1, "v"))
    return min(cands)


def read_micromouse(path: PathLike, *, unknown: str = "wall", strict: bool = False) -> Maze:
    """Read a micromouse text maze file into a :class:`Maze`.

    Parameters
    ----------
    path : path-like
        The ``.maze`` / ``.txt`` file.
    unknown : {"wall", "open", "error"}
        How to read ``.`` (unknown) walls; default ``"wall"``.
    strict : bool
        Reject any character the format does not define.

    Returns
    -------
    Maze
        Start and goals from ``S`` / ``G`` (defaults in the module notes).
    """
    return parse_micromouse(read_text(path), path=path, unknown=unknown, strict=strict).maze


def format_micromouse(maze: Maze, *, post: str = "o", unknown_east=None,
                      unknown_south=None) -> str:
    """The text form of a maze (LF line ends, final newline).

    Optional ``unknown_east`` / ``unknown_south`` masks write ``.`` marks.

    >>> print(format_micromouse(Maze.empty(1, 2, goals=[(0, 1)])), end="")
    o---o---o
    | S   G |
    o---o---o
    """
    if post not in _POSTS:
        from ..errors import ParameterError
        raise ParameterError(f"post must be 'o' or '+', got {post!r}")
    if maze.start in maze.goals:
        from ..errors import ParameterError
        raise ParameterError(
            f"the start {maze.start} is also a goal; the micromouse text format holds one "
            "mark per cell (expected a start that is not a goal)")
    rows, cols = maze.shape
    ue = np.zeros((rows, cols), bool) if unknown_east is None else np.asarray(unknown_east, bool)
    us = np.zeros((rows, cols), bool) if unknown_south is None else np.asarray(unknown_south, bool)
    goals = set(maze.goals)
    out = []
    top = [post]
    for c in range(cols):
        top.append("   " if (0, c, "N") in maze.openings else "---")
        top.append(post)
    out.append("".join(top))
    for r in range(rows):
        cell = ["|" if maze.wall((r, 0), "W") else " "]
        for c in range(cols):
            mark = "S" if (r, c) == maze.start else ("G" if (r, c) in goals else " ")
            cell.append(f" {mark} ")
            if ue[r, c] and c < cols - 1:
                cell.append(".")
            else:
                cell.append("|" if maze.wall((r, c), "E") else " ")
        out.append("".join(cell))
        low = [post]
        for c in range(cols):
            if us[r, c] and r < rows - 1:
                low.append(" . ")
            else:
                low.append("---" if maze.wall((r, c), "S") else "   ")
            low.append(post)
        out.append("".join(low))
    return "\n".join(out) + "\n"


def write_micromouse(maze: Maze, path: PathLike, *, post: str = "o") -> None:
    """Write ``maze`` as micromouse text (see :func:`format_micromouse`)."""
    from pathlib import Path
    Path(path).write_text(format_micromouse(maze, post=post), encoding="ascii")
