"""A joint plan and the community's plan file (the format of mapf-visualizer / LaCAM).

A plan is ``cells[t, i] = (row, col)``: agent ``i``'s reference cell at time
step ``t`` for ``t = 0..T``; after ``T`` every agent waits where it is. An
agent's *cost* is the first time from which it stays on its goal for good
(0 if it starts there and never leaves); the *sum of costs* (SOC) adds them,
the *makespan* is the largest.

The plan file is text: ``key=value`` header lines (``agents``, ``map_file``,
``solver``, ``solved``, ``soc``, ``makespan``, ``starts``, ``goals``) then
``solution=`` and one line per time step, ``t:(x,y),(x,y),...`` with
``x`` the column and ``y`` the row of every agent in order (the layout
Okumura's LaCAM writes and mapf-visualizer reads).

>>> import numpy as np
>>> p = Plan(np.array([[[0, 0], [1, 1]], [[0, 1], [1, 1]], [[0, 2], [1, 1]]]))
>>> p.costs().tolist(), p.soc, p.makespan
([2, 0], 2, 2)
>>> text = format_plan(p, map_file="m.map", solver="x")
>>> print(text.splitlines()[-1])
2:(2,0),(1,1),
>>> parse_plan(text).plan.cells.tolist() == p.cells.tolist()
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import MazeFormatError, ParameterError

__all__ = ["Plan", "PlanFile", "format_plan", "parse_plan", "read_plan", "write_plan"]


@dataclass(frozen=True, eq=False)
class Plan:
    """``cells[t, i]``: agent ``i``'s (row, col) at step ``t``; int array (T+1, n, 2)."""

    cells: np.ndarray

    def __post_init__(self) -> None:
        a = np.asarray(self.cells, dtype=np.int64)
        if a.ndim != 3 or a.shape[2] != 2 or a.shape[0] < 1:
            raise ParameterError(f"plan cells must have shape (steps, agents, 2), got {a.shape}")
        a = np.ascontiguousarray(a)
        a.setflags(write=False)
        object.__setattr__(self, "cells", a)

    @classmethod
    def from_vertices(cls, configs: np.ndarray, cols: int) -> "Plan":
        """A plan from ``configs[t, i]`` vertex ids of a grid ``cols`` wide."""
        c = np.asarray(configs, dtype=np.int64)
        return cls(np.stack([c // cols, c % cols], axis=2))

    @property
    def n_agents(self) -> int:
        return self.cells.shape[1]

    @property
    def steps(self) -> int:
        """``T``: the last time step in the plan."""
        return self.cells.shape[0] - 1

    def costs(self, goals=None) -> np.ndarray:
        """Each agent's cost: the first step from which it stays on ``goals``
        (default: its last cell) for good."""
        a = self.cells
        g = a[-1] if goals is None else np.asarray(goals, np.int64)
        off = (a != g[None]).any(axis=2)              # (T+1, n): away from the goal
        t = a.shape[0]
        # last step away + 1, 0 for agents never away
        last = t - 1 - np.argmax(off[::-1], axis=0)
        return np.where(off.any(axis=0), last + 1, 0).astype(np.int64)

    @property
    def soc(self) -> int:
        return int(self.costs().sum())

    @property
    def makespan(self) -> int:
        c = self.costs()
        return int(c.max()) if len(c) else 0

    def trimmed(self) -> "Plan":
        """The plan cut after its makespan (the steps after it repeat the goals)."""
        return Plan(self.cells[: self.makespan + 1])


@dataclass(frozen=True)
class PlanFile:
    """A parsed plan file: the plan and the header's fields."""

    plan: Plan
    header: dict = field(default_factory=dict)

    def stated(self, key: str) -> int | None:
        """An integer header value (``soc``, ``makespan``), or None if absent."""
        v = self.header.get(key)
        return None if v is None else int(v)

    def stated_cells(self, key: str):
        """A header list of cells (``starts``, ``goals``) as an int array
        ``(n, 2)`` of (row, col), or None if absent or empty.

        >>> pf = parse_plan(chr(10).join(["goals=(2,0),(1,1),", "solution=", "0:(0,0),(1,1),"]))
        >>> pf.stated_cells("goals")
        array([[0, 2],
               [1, 1]])
        """
        v = self.header.get(key)
        if not v:
            return None
        return np.array(_parse_cells(v, None, 1, len(key) + 2), np.int64)


def _cells_text(cells) -> str:
    return "".join(f"({int(c)},{int(r)})," for r, c in cells)


def format_plan(plan: Plan, *, map_file: str = "", solver: str = "", starts=None,
                goals=None, solved: bool = True, extra: dict | None = None) -> str:
    """The plan file text (see the module docstring)."""
    p = plan.trimmed()
    lines = [f"agents={p.n_agents}", f"map_file={map_file}", f"solver={solver}",
             f"solved={int(bool(solved))}", f"soc={p.soc}", f"makespan={p.makespan}"]
    for k, v in (extra or {}).items():
        lines.append(f"{k}={v}")
    lines.append("starts=" + _cells_text(p.cells[0] if starts is None else starts))
    lines.append("goals=" + _cells_text(p.cells[-1] if goals is None else goals))
    lines.append("solution=")
    for t in range(p.cells.shape[0]):
        lines.append(f"{t}:" + _cells_text(p.cells[t]))
    return "\n".join(lines) + "\n"


def write_plan(plan: Plan, path, **kw) -> None:
    """Write :func:`format_plan`'s text to ``path``."""
    Path(path).write_text(format_plan(plan, **kw), encoding="ascii")


_PAIR = re.compile(r"\((-?\d{1,9}),(-?\d{1,9})\),?")


def _parse_cells(text: str, path, line: int, col: int) -> list[tuple[int, int]]:
    out = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _PAIR.match(text, pos)
        if not m:
            raise MazeFormatError("expected '(x,y),' pairs of integers", path=path, line=line,
                                  column=col + pos)
        out.append((int(m.group(2)), int(m.group(1))))   # (x, y) -> (row, col)
        pos = m.end()
    return out


def parse_plan(text: str, *, path=None) -> PlanFile:
    """Parse plan file text into a :class:`PlanFile`."""
    lines = text.splitlines()
    header: dict[str, str] = {}
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        if not line:
            continue
        if line == "solution=":
            break
        if "=" not in line:
            raise MazeFormatError("not a 'key=value' header line; expected a plan file "
                                  "(header, then 'solution=')", path=path, line=i, column=1)
        k, v = line.split("=", 1)
        header[k.strip()] = v.strip()
    else:
        raise MazeFormatError("no 'solution=' line; expected the header to end with it",
                              path=path, line=max(len(lines), 1), column=1)
    rows = []
    for j in range(i, len(lines)):
        line = lines[j]
        if not line.strip():
            continue
        head, sep, rest = line.partition(":")
        if not sep or not head.strip().isdigit():
            raise MazeFormatError("expected 't:(x,y),...' with the step number t",
                                  path=path, line=j + 1, column=1)
        t = int(head)
        if t != len(rows):
            raise MazeFormatError(f"step {t} out of order; expected step {len(rows)}",
                                  path=path, line=j + 1, column=1)
        cells = _parse_cells(rest, path, j + 1, len(head) + 2)
        if rows and len(cells) != len(rows[0]):
            raise MazeFormatError(f"{len(cells)} agents on this step; expected "
                                  f"{len(rows[0])} as on step 0", path=path, line=j + 1,
                                  column=len(head) + 2)
        rows.append(cells)
    if not rows or not rows[0]:
        raise MazeFormatError("no time steps after 'solution='; expected at least step 0",
                              path=path, line=len(lines), column=1)
    for key in ("soc", "makespan", "agents"):
        if key in header and not re.fullmatch(r"\d{1,9}", header[key]):
            raise MazeFormatError(f"header {key} is not a non-negative integer",
                                  path=path, line=1, column=1)
    return PlanFile(Plan(np.array(rows, np.int64)), header)


def read_plan(path) -> PlanFile:
    """Read a plan file (:func:`parse_plan`)."""
    return parse_plan(read_text(path), path=path)


def read_text(path) -> str:
    """A text file's content; an unreadable file is one clear error."""
    p = Path(path)
    try:
        if not p.is_file():
            raise MazeFormatError("not a regular file; expected a text file", path=path)
        return p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        why = getattr(exc, "strerror", None) or type(exc).__name__
        raise MazeFormatError(f"cannot read ({why}); expected a readable text file",
                              path=path) from None
