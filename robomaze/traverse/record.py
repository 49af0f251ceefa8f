"""The traversal record: one walk through one maze, by a person or a robot.

File format (``robomaze-traversal``, version 1 or 2) -- JSON Lines, UTF-8:

Line 1, the header (one JSON object)::

    {"format": "robomaze-traversal", "version": 1,
     "level": "cell" | "grid",
     "maze": {"rows": R, "cols": C, "matrix": ["#####", "#...#", ...],
              "start": [r, c], "goals": [[r, c], ...]}  or null,
     "source": {"generator": "kruskal", "size": [R, C], "seed": 3,
                "braid": 0.0, "placement": "corners",
                "corridor": 3, "wall": 1}  or null,
     "grid": {"corridor": k, "wall": t, "resolution": 1.0,
              "origin": [x, y, yaw]}            (widened maze, grid level)
          or {"occupied": ["#..#", ...], "resolution": .., "origin": [..]}
                                                 (plain grid, no maze)
          or null                                (cell level),
     "walker": {"kind": "person" | "agent", "name": "...", "settings": {...}},
     "start": [r, c], "heading": 0.0, "goals": [[r, c], ...]}

``maze.matrix`` is :meth:`robomaze.maze.Maze.to_matrix` with ``#`` for 1 and
``.`` for 0. Either ``maze`` (inline walls) or ``source`` (a reference
resolved with :func:`robomaze.generate.generate`) must describe the maze;
when both are present the inline walls win and ``source`` is provenance.
``start`` is the position before the first move, at the record's level
(a maze cell for ``"cell"``, a grid cell for ``"grid"``); ``goals`` are maze
cells whenever the record has a maze (a grid-level walker reaches the goal
by entering the goal cell's block), else grid cells. ``heading`` is in
degrees counter-clockwise from east (east 0, north 90, west 180, south 270),
the world convention of :mod:`robomaze.grid`.

Lines 2 .. n+1, one per move::

    {"t": 1.25, "move": "E", "row": 0, "col": 1, "heading": 0.0}

``t`` is seconds since the walk began (non-decreasing), ``move`` the action
(``N E S W`` an absolute step, ``F`` a forward step, ``L R`` a turn in
place), ``row, col, heading`` the state *after* the move. A bump into a wall
is recorded with ``"bump": true`` and the unchanged state; it is counted but
was not executed. An undo in play (:meth:`robomaze.traverse.game.Game.undo`)
is recorded as the move that takes the last one back (the reverse step,
or the opposite turn), so it counts like any other move. Each executed move changes the position by at most one
4-neighbour step.

Version 2 adds event lines between the move lines, at the moment they
happened (only ``hint`` so far: the player asked for a hint at ``row, col``,
the position then, which is the same as after the previous move)::

    {"t": 3.5, "event": "hint", "row": 0, "col": 1}

An event is not a move: it changes no position and is not counted in
``moves``. A record without events is written as version 1, byte for byte
as before events existed; one with events says version 2 and its end line
counts them (``"hints": h``). Readers accept both versions.

Last line, the end marker::

    {"end": true, "moves": n, "bumps": b, "reached_goal": true,
     "duration": 12.5, "row": r, "col": c, "heading": 0.0}

``moves`` counts executed moves (lines without ``bump``), ``bumps`` the bump
lines. A file without the end line is truncated; :func:`read_record` raises
:class:`robomaze.errors.RecordFormatError` naming the file and line for any
malformed, inconsistent or truncated record.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, Sequence

import numpy as np

from ..errors import MazeFormatError, ParameterError, RecordFormatError
from ..grid import OccupancyGrid
from ..world import widen_maze
from ..io import decode_text, describe, read_bytes
from ..io.maze_json import loads_strict, maze_from_dict, maze_to_matrix_dict
from ..maze import Maze

__all__ = ["FORMAT_NAME", "FORMAT_VERSION", "MOVES", "HEADINGS", "Step",
           "TraversalRecord", "read_record", "read_record_bytes", "write_record",
           "RecordWriter", "loads", "dumps", "Event", "EVENTS"]

FORMAT_NAME = "robomaze-traversal"
FORMAT_VERSION = 2
#: Event kinds a (version 2) record may hold between its moves.
EVENTS = ("hint",)
#: Every action a record may hold.
MOVES = ("N", "E", "S", "W", "F", "L", "R")
#: Heading in degrees (counter-clockwise from east) of each compass step.
HEADINGS = {"E": 0.0, "N": 90.0, "W": 180.0, "S": 270.0}
LEVELS = ("cell", "grid")
WALKER_KINDS = ("person", "agent")


class Step(NamedTuple):
    """One line of a record: the state after a move."""

    t: float
    move: str
    row: int
    col: int
    heading: float
    bump: bool = False


class Event(NamedTuple):
    """One event line: something the walker did that is not a move (a hint).

    ``index`` is the number of step lines before it in the record (where it
    goes when written); ``row, col`` the position at that time.
    """

    t: float
    event: str
    row: int
    col: int
    index: int


def source_spec(src: dict, grid: OccupancyGrid | None = None):
    """The :class:`robomaze.world.WorldSpec` a record's ``source`` names (widening,
    and the resolution of its widened ``grid``, included): the world of the
    ``robomaze play`` words and of the page URL that made the walk."""
    try:
        from ..world import WorldSpec
    except ImportError as exc:  # the generator package is optional at read time
        raise ValueError(f"cannot resolve the maze reference: {exc}") from None
    size = src.get("size")
    if not (isinstance(size, list) and len(size) == 2):
        raise ValueError(f"'source.size' must be [rows, cols], got {describe(size)}")
    res = grid.resolution if grid is not None and grid.widening is not None else 1.0
    # the one seed rule (robomaze.world): a record's seed names the CLI's maze
    return WorldSpec(generator=src["generator"], rows=int(size[0]), cols=int(size[1]),
                     seed=src.get("seed"), braid=float(src.get("braid", 0.0)),
                     placement=src.get("placement", "corners"),
                     corridor=int(src.get("corridor") or 1), wall=int(src.get("wall") or 1),
                     resolution=float(res))


def _resolve_source(src: dict) -> Maze:
    return source_spec(src).build_maze()


@dataclass(frozen=True, eq=False)
class TraversalRecord:
    """A walk through a maze (cell level) or an occupancy grid (grid level).

    Parameters
    ----------
    level : {"cell", "grid"}
        Whether positions are maze cells or grid cells.
    maze : Maze or None
        The maze walked (None only for a plain grid without a maze).
    grid : OccupancyGrid or None
        The grid walked at grid level (None at cell level).
    walker : dict
        ``{"kind": "person"|"agent", "name": str, "settings": dict}``.
    start : (int, int)
        Position before the first move, at ``level``.
    goals : tuple of (int, int)
        Goal maze cells (grid cells for a plain grid).
    steps : tuple of Step
        One per move, bumps included.
    heading : float
        Heading before the first move (degrees, counter-clockwise from east).
    reached_goal : bool
    duration : float
        Seconds from the beginning to the end of the walk.
    source : dict or None
        Generator reference of the maze (provenance).
    events : tuple of Event
        Hints asked for (version 2 records), in order; empty by default.

    Examples
    --------
    >>> m = Maze.from_edges(1, 3, [0, 1], [1, 2])
    >>> rec = TraversalRecord.from_cells(m, [(0, 0), (0, 1), (0, 2)], times=[0, 1, 2])
    >>> rec.n_moves, rec.reached_goal, rec.positions.tolist()
    (2, True, [[0, 0], [0, 1], [0, 2]])
    >>> loads(dumps(rec)).positions.tolist() == rec.positions.tolist()
    True
    """

    level: str
    maze: Maze | None
    grid: OccupancyGrid | None
    walker: dict
    start: tuple[int, int]
    goals: tuple[tuple[int, int], ...]
    steps: tuple[Step, ...]
    heading: float = 0.0
    reached_goal: bool = False
    duration: float = 0.0
    source: dict | None = None
    events: tuple = ()
    _cache: dict = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ParameterError(f"level must be 'cell' or 'grid', got {self.level!r}")
        if self.level == "cell" and self.maze is None:
            raise ParameterError("a cell-level record needs a maze")
        if self.level == "grid" and self.grid is None:
            raise ParameterError("a grid-level record needs a grid")
        if not isinstance(self.walker, dict):
            raise ParameterError(f"walker must be a dict with a 'kind', got {self.walker!r}")
        kind = self.walker.get("kind")
        if kind not in WALKER_KINDS:
            raise ParameterError(f"walker kind must be 'person' or 'agent', got {kind!r}")
        object.__setattr__(self, "start", (int(self.start[0]), int(self.start[1])))
        object.__setattr__(self, "goals", tuple((int(r), int(c)) for r, c in self.goals))
        object.__setattr__(self, "steps", tuple(Step(*s) for s in self.steps))
        object.__setattr__(self, "events", tuple(Event(*e) for e in self.events))

    # ------------------------------------------------------------ building
    @classmethod
    def from_cells(cls, world: Maze | OccupancyGrid, cells: Sequence[Sequence[int]], *,
                   times: Sequence[float] | None = None, walker: dict | None = None,
                   source: dict | None = None) -> "TraversalRecord":
        """A record of a walk given as its visited cells (start first).

        Consecutive cells must be equal or 4-neighbours; moves are named by
        compass direction and the heading follows the last step. ``times``
        (one per cell, default 0, 1, 2...) are seconds; ``times[0]`` is the
        start.
        """
        cells = np.asarray(cells, dtype=np.int64).reshape(-1, 2)
        if len(cells) == 0:
            raise ParameterError("cells must hold at least the start cell")
        t = np.arange(len(cells), dtype=float) if times is None else np.asarray(times, float)
        if t.shape != (len(cells),):
            raise ParameterError(f"times must have one entry per cell ({len(cells)}), "
                                 f"got {t.shape}")
        t = t - t[0]
        level, maze, grid = _level_of(world)
        steps, heading = [], 0.0
        for i in range(1, len(cells)):
            d = tuple(int(v) for v in cells[i] - cells[i - 1])
            if d == (0, 0):
                continue
            move = _STEP_NAMES.get(d)
            if move is None:
                raise ParameterError(f"cells {cells[i - 1].tolist()} -> {cells[i].tolist()} "
                                     f"(index {i}) are not 4-neighbours")
            heading = HEADINGS[move]
            steps.append(Step(float(t[i]), move, int(cells[i][0]), int(cells[i][1]), heading))
        goals = maze.goals if maze is not None else (tuple(int(v) for v in cells[-1]),)
        rec = cls(level=level, maze=maze, grid=grid,
                  walker=walker or {"kind": "person", "name": "", "settings": {}},
                  start=tuple(int(v) for v in cells[0]), goals=goals, steps=tuple(steps),
                  duration=float(t[-1]), source=source)
        object.__setattr__(rec, "reached_goal", rec.is_goal(rec.final))
        return rec

    # ------------------------------------------------------------ views
    @property
    def world_spec(self):
        """The :class:`robomaze.world.WorldSpec` of a walk on a generated maze
        (None for inline walls without a generator reference): equal to the
        spec of the play URL and of a bench row of the same world."""
        if not (isinstance(self.source, dict) and self.source.get("generator")):
            return None
        return source_spec(self.source, self.grid)

    @property
    def world(self) -> Maze | OccupancyGrid:
        """What was walked: the Maze (cell level) or the OccupancyGrid (grid level)."""
        return self.maze if self.level == "cell" else self.grid

    @property
    def executed(self) -> tuple[Step, ...]:
        """The steps that were executed (bumps left out)."""
        return tuple(s for s in self.steps if not s.bump)

    @property
    def n_moves(self) -> int:
        """Executed moves (turns in place included, bumps not)."""
        return len(self.executed)

    @property
    def n_bumps(self) -> int:
        """Moves refused by a wall."""
        return sum(1 for s in self.steps if s.bump)

    @property
    def n_hints(self) -> int:
        """Hints the walker asked for (0 in a version 1 record)."""
        return sum(1 for e in self.events if e.event == "hint")

    def _arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if "arrays" not in self._cache:
            ex = self.executed
            pos = np.array([self.start] + [(s.row, s.col) for s in ex], dtype=np.int64)
            t = np.array([0.0] + [s.t for s in ex])
            h = np.array([self.heading] + [s.heading for s in ex])
            for a in (pos, t, h):
                a.setflags(write=False)
            self._cache["arrays"] = (pos, t, h)
        return self._cache["arrays"]

    @property
    def positions(self) -> np.ndarray:
        """``(n_moves + 1, 2)`` int positions: the start, then after each executed move."""
        return self._arrays()[0]

    @property
    def times(self) -> np.ndarray:
        """``(n_moves + 1,)`` seconds matching :attr:`positions` (0 at the start)."""
        return self._arrays()[1]

    @property
    def headings(self) -> np.ndarray:
        """``(n_moves + 1,)`` headings in degrees matching :attr:`positions`."""
        return self._arrays()[2]

    @property
    def final(self) -> tuple[int, int]:
        """Position after the last move."""
        p = self.positions[-1]
        return int(p[0]), int(p[1])

    def maze_cell(self, pos: Sequence[int]) -> tuple[int, int]:
        """Maze cell of a position at this record's level (grid cells map back)."""
        if self.level == "cell" or self.grid is None or self.grid.widening is None:
            return int(pos[0]), int(pos[1])
        return self.grid.widening.maze_cell(pos)

    def is_goal(self, pos: Sequence[int]) -> bool:
        """Whether a position (at this record's level) lies in a goal."""
        return self.maze_cell(pos) in set(self.goals)

    def maze_walk(self) -> tuple[np.ndarray, np.ndarray]:
        """The walk in maze cells: ``(cells (m, 2), arrival times (m,))``.

        Grid positions map to maze cells (for widened grids) and consecutive
        repeats collapse, so walks at any widening level compare directly.
        """
        pos = self.positions
        t = self.times
        if self.level == "grid" and self.grid is not None and self.grid.widening is not None:
            pos = self.grid.widening.maze_cells(pos)
        keep = np.ones(len(pos), bool)
        keep[1:] = np.any(pos[1:] != pos[:-1], axis=1)
        return pos[keep], t[keep]

    # ------------------------------------------------------------ io
    def header(self) -> dict:
        """The header line as a JSON-ready dict."""
        grid_json = None
        if self.level == "grid":
            g = self.grid
            base = {"resolution": g.resolution, "origin": list(g.origin)}
            if g.widening is not None and self.maze is not None:
                grid_json = {"corridor": g.widening.corridor, "wall": g.widening.wall, **base}
            else:
                grid_json = {"occupied": ["".join("#" if v else "." for v in row)
                                          for row in g.occupied], **base}
        # without events the record is version 1, the same bytes as before events existed
        version = FORMAT_VERSION if self.events else 1
        return {"format": FORMAT_NAME, "version": version, "level": self.level,
                "maze": None if self.maze is None else maze_to_matrix_dict(self.maze),
                "source": self.source, "grid": grid_json, "walker": self.walker,
                "start": list(self.start), "heading": self.heading,
                "goals": [list(g) for g in self.goals]}

    def save(self, path: str | Path) -> Path:
        """Write the record as JSON Lines; returns the path."""
        return write_record(self, path)

    @classmethod
    def load(cls, path: str | Path) -> "TraversalRecord":
        """Read a record file (see :func:`read_record`)."""
        return read_record(path)


_STEP_NAMES = {(-1, 0): "N", (0, 1): "E", (1, 0): "S", (0, -1): "W"}


def _level_of(world) -> tuple[str, Maze | None, OccupancyGrid | None]:
    if isinstance(world, Maze):
        return "cell", world, None
    if isinstance(world, OccupancyGrid):
        return "grid", world.maze, world
    raise ParameterError(f"world must be a Maze or an OccupancyGrid, got {type(world).__name__}")


def _line(obj: dict) -> str:
    return json.dumps(obj, separators=(",", ":"))


def _step_line(s: Step) -> str:
    d = {"t": round(float(s.t), 6), "move": s.move, "row": s.row, "col": s.col,
         "heading": round(float(s.heading), 6)}
    if s.bump:
        d["bump"] = True
    return _line(d)


def _event_line(e: Event) -> str:
    return _line({"t": round(float(e.t), 6), "event": e.event, "row": int(e.row),
                  "col": int(e.col)})


def _end_line(moves: int, bumps: int, reached_goal: bool, duration: float,
              final: Sequence[int], heading: float, hints: int = 0) -> str:
    end = {"end": True, "moves": moves, "bumps": bumps,
           "reached_goal": bool(reached_goal), "duration": round(float(duration), 6),
           "row": int(final[0]), "col": int(final[1]), "heading": round(float(heading), 6)}
    if hints:
        end["hints"] = int(hints)
    return _line(end)


def dumps(record: TraversalRecord) -> str:
    """The record as JSON Lines text."""
    out = [_line(record.header())]
    events = sorted(record.events, key=lambda e: e.index)
    k = 0
    for i, s in enumerate(record.steps):
        while k < len(events) and events[k].index <= i:
            out.append(_event_line(events[k]))
            k += 1
        out.append(_step_line(s))
    out.extend(_event_line(e) for e in events[k:])
    out.append(_end_line(record.n_moves, record.n_bumps, record.reached_goal,
                         record.duration, record.final, record.headings[-1], record.n_hints))
    return "\n".join(out) + "\n"


def write_record(record: TraversalRecord, path: str | Path) -> Path:
    """Write ``record`` to ``path`` (JSON Lines); returns the path."""
    path = Path(path)
    path.write_text(dumps(record), encoding="utf-8")
    return path


class RecordWriter:
    """A record written move by move, valid after every move.

    The file is created (never overwritten) with the header and an end line;
    each :meth:`append` replaces the end line by the move's line and a new
    end line in one write, flushed, so a process stopped at any point
    leaves the walk so far as a complete record marked
    ``"reached_goal": false``. :meth:`finish` writes the final end line.

    Examples
    --------
    >>> import tempfile, os
    >>> m = Maze.from_edges(1, 3, [0, 1], [1, 2])
    >>> rec = TraversalRecord.from_cells(m, [(0, 0)])
    >>> path = os.path.join(tempfile.mkdtemp(), "w.jsonl")
    >>> w = RecordWriter(path, rec.header())
    >>> w.append(Step(0.5, "E", 0, 1, 0.0))
    >>> read_record(path).positions.tolist(), read_record(path).reached_goal
    ([[0, 0], [0, 1]], False)
    >>> w.append(Step(0.9, "E", 0, 2, 0.0)); w.finish(True, 0.9).name
    'w.jsonl'
    >>> read_record(path).reached_goal, read_record(path).duration
    (True, 0.9)
    """

    def __init__(self, path: str | Path, header: dict) -> None:
        self.path = Path(path)
        self.header = dict(header)
        self.moves = self.bumps = self.hints = 0
        self.final = tuple(int(v) for v in header["start"])
        self.heading = float(header.get("heading", 0.0))
        self.t = 0.0
        self._fh = open(self.path, "xb")
        head = (_line(header) + "\n").encode("utf-8")
        self._end_at = len(head)
        self._fh.write(head)
        self._write_end(False, 0.0)

    def _write_end(self, reached_goal: bool, duration: float, before: bytes = b"") -> None:
        end = (_end_line(self.moves, self.bumps, reached_goal, duration, self.final,
                         self.heading, self.hints) + "\n").encode("utf-8")
        self._fh.seek(self._end_at)
        # one write of the move and the new end line: a kill between two
        # writes could otherwise leave a file without its end line
        self._fh.write(before + end)
        self._fh.truncate()
        self._fh.flush()
        self._end_at += len(before)

    def append(self, step: Step) -> None:
        """Add one move (or bump) line, keeping the file a complete record."""
        if self._fh.closed:
            raise ParameterError(f"the record {self.path} is finished; no more moves")
        step = Step(*step)
        if step.bump:
            self.bumps += 1
        else:
            self.moves += 1
            self.final, self.heading = (step.row, step.col), float(step.heading)
        self.t = float(step.t)
        self._write_end(False, self.t, (_step_line(step) + "\n").encode("utf-8"))

    def append_event(self, event: Event) -> None:
        """Add one event line (a hint), keeping the file a complete record.

        The first event turns the header's version 1 into 2 in place (the
        same number of bytes), before the event line is written.
        """
        if self._fh.closed:
            raise ParameterError(f"the record {self.path} is finished; no more events")
        event = Event(*event)
        if self.header.get("version") != FORMAT_VERSION:
            self.header["version"] = FORMAT_VERSION
            head = (_line(self.header) + "\n").encode("utf-8")
            self._fh.seek(0)
            self._fh.write(head)
        if event.event == "hint":
            self.hints += 1
        self.t = max(self.t, float(event.t))
        self._write_end(False, self.t, (_event_line(event) + "\n").encode("utf-8"))

    @classmethod
    def reopen(cls, path: str | Path) -> "RecordWriter":
        """Go on writing an unfinished record (a walk a stopped server left).

        The file must be a complete record not marked ``reached_goal``, whose
        lines are exactly as this writer writes them; the next :meth:`append`
        replaces its end line. Returns the writer and the record read.

        >>> import tempfile, os
        >>> m = Maze.from_edges(1, 3, [0, 1], [1, 2])
        >>> path = os.path.join(tempfile.mkdtemp(), "w.jsonl")
        >>> w = RecordWriter(path, TraversalRecord.from_cells(m, [(0, 0)]).header())
        >>> w.append(Step(0.5, "E", 0, 1, 0.0)); w.close()
        >>> w2 = RecordWriter.reopen(path)
        >>> w2.append(Step(0.9, "E", 0, 2, 0.0)); w2.finish(True, 0.9).name
        'w.jsonl'
        >>> read_record(path).positions.tolist(), read_record(path).reached_goal
        ([[0, 0], [0, 1], [0, 2]], True)
        """
        rec, data = read_record_bytes(path)
        if rec.reached_goal:
            raise ParameterError(f"{path}: the walk reached the goal; nothing to go on with")
        lines = data.split(b"\n")
        if lines[-1] != b"" or len(lines) < 3:
            raise ParameterError(f"{path}: not a record this server wrote (no final newline)")
        head, end = lines[0], lines[-2]
        header = json.loads(head)
        # the header may be rewritten in place (version 1 -> 2) only if it
        # serialises back to the very same bytes
        if _line(header).encode("utf-8") != head:
            raise ParameterError(f"{path}: its header is not as this server writes it")
        self = cls.__new__(cls)
        self.path = Path(path)
        self.header = header
        self.moves, self.bumps, self.hints = rec.n_moves, rec.n_bumps, rec.n_hints
        moved = [s for s in rec.steps if not s.bump]
        self.final = (moved[-1].row, moved[-1].col) if moved else tuple(rec.start)
        self.heading = float(moved[-1].heading) if moved else float(rec.heading)
        self.t = max([0.0] + [float(s.t) for s in rec.steps] + [float(e.t) for e in rec.events])
        self._fh = open(self.path, "r+b")
        self._end_at = len(data) - len(end) - 1
        return self

    def finish(self, reached_goal: bool, duration: float) -> Path:
        """Write the final end line and close the file; returns its path."""
        if not self._fh.closed:
            self._write_end(reached_goal, max(float(duration), self.t))
            self._fh.close()
        return self.path

    def close(self) -> None:
        """Close the file, leaving the last end line (the walk unfinished)."""
        self._fh.close()


def read_record(path: str | Path) -> TraversalRecord:
    """Read and validate a record file.

    Raises
    ------
    RecordFormatError
        Naming ``path:line`` for malformed JSON, a wrong header, a bad or
        impossible move line, or a missing end line (truncated file).
    """
    return read_record_bytes(path)[0]


def read_record_bytes(path: str | Path) -> tuple[TraversalRecord, bytes]:
    """Read a record file once: the validated record and the exact bytes read
    (a server hands out those bytes, never the file as it is later)."""
    path = Path(path)
    try:
        data = read_bytes(path)
        text = decode_text(data, path, "UTF-8 JSON Lines")
    except MazeFormatError as exc:   # not a regular file, too large, not UTF-8
        raise RecordFormatError(str(exc)) from None
    return loads(text, name=str(path)), data


def _fail(name: str, line: int, msg: str) -> RecordFormatError:
    return RecordFormatError(f"{name}:{line}: {msg}")


def _cell(v, what: str) -> tuple[int, int]:
    if not (isinstance(v, list) and len(v) == 2 and all(_is_int(x) for x in v)):
        raise ValueError(f"{what} must be [row, col] integers, got {describe(v)}")
    return int(v[0]), int(v[1])


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_num(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _parse_header(h: dict) -> dict:
    if h.get("format") != FORMAT_NAME:
        raise ValueError(f"'format' must be {FORMAT_NAME!r}, "
                         f"got {describe(h.get('format'))}")
    if not _is_int(h.get("version")) or not 1 <= h["version"] <= FORMAT_VERSION:
        raise ValueError(f"'version' must be an integer 1..{FORMAT_VERSION}, "
                         f"got {describe(h.get('version'))}")
    level = h.get("level")
    if level not in LEVELS:
        raise ValueError(f"'level' must be 'cell' or 'grid', got {describe(level)}")
    walker = h.get("walker")
    if not isinstance(walker, dict) or walker.get("kind") not in WALKER_KINDS:
        raise ValueError(f"'walker' must be an object with kind 'person' or 'agent', "
                         f"got {describe(walker)}")
    walker = {"name": "", "settings": {}, **walker}
    source = h.get("source")
    maze = None
    if h.get("maze") is not None:
        maze = maze_from_dict(h["maze"])
    elif isinstance(source, dict):
        maze = _resolve_source(source)
    grid = None
    gj = h.get("grid")
    if level == "grid":
        if not isinstance(gj, dict):
            raise ValueError("a grid-level record needs a 'grid' object")
        res = gj.get("resolution", 1.0)
        origin = tuple(gj.get("origin", (0.0, 0.0, 0.0)))
        if "occupied" in gj:
            occ = gj["occupied"]
            if not (isinstance(occ, list) and occ and all(isinstance(s, str) for s in occ)
                    and len({len(s) for s in occ}) == 1):
                raise ValueError("'grid.occupied' must be equal-length strings of '#' and '.'")
            grid = OccupancyGrid(np.array([[ch == "#" for ch in s] for s in occ]),
                                 resolution=res, origin=origin)
        else:
            if maze is None:
                raise ValueError("a widened grid needs 'maze' or 'source'")
            src = source or {}
            k = gj.get("corridor", src.get("corridor"))
            t = gj.get("wall", src.get("wall"))
            if not (_is_int(k) and _is_int(t)):
                raise ValueError(f"'grid.corridor' and 'grid.wall' must be integers, "
                                 f"got {describe(k)}, {describe(t)}")
            grid = widen_maze(maze, corridor=k, wall=t, resolution=res, origin=origin)
    elif maze is None:
        raise ValueError("a cell-level record needs 'maze' (inline walls) or 'source'")
    goals = h.get("goals")
    if not isinstance(goals, list):
        raise ValueError(f"'goals' must be a list of [row, col], got {describe(goals)}")
    heading = h.get("heading", 0.0)
    if not _is_num(heading):
        raise ValueError(f"'heading' must be a number, got {describe(heading)}")
    return dict(level=level, maze=maze, grid=grid, walker=walker,
                start=_cell(h.get("start"), "'start'"),
                goals=tuple(_cell(g, "each goal") for g in goals),
                heading=float(heading), source=source if isinstance(source, dict) else None)


def loads(text: str, *, name: str = "<record>") -> TraversalRecord:
    """Parse record text (see the module docstring for the format)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or not lines[0].strip():
        raise _fail(name, 1, "empty record: expected a header line")
    objs = []
    for i, raw in enumerate(lines, 1):
        if not raw.strip():
            raise _fail(name, i, "blank line inside the record")
        try:
            obj = loads_strict(raw)
        except MazeFormatError as exc:   # syntax, NaN/Infinity, nesting too deep
            cut = " (the file looks truncated)" if i == len(lines) else ""
            raise _fail(name, i, f"malformed JSON: {exc} at column {exc.column}{cut}") from None
        if not isinstance(obj, dict):
            raise _fail(name, i, f"expected a JSON object, got {type(obj).__name__}")
        objs.append(obj)
    try:
        fields = _parse_header(objs[0])
    except (ValueError, TypeError, KeyError) as exc:
        raise _fail(name, 1, f"bad header: {exc}") from None
    shape = fields["grid"].shape if fields["level"] == "grid" else fields["maze"].shape
    r, c = fields["start"]
    if not (0 <= r < shape[0] and 0 <= c < shape[1]):
        raise _fail(name, 1, f"start {[r, c]} is outside the {shape[0]}x{shape[1]} "
                             f"{fields['level']} map")
    steps: list[Step] = []
    events: list[Event] = []
    version = objs[0]["version"]
    t_prev = 0.0
    end = None
    for i, obj in enumerate(objs[1:], 2):
        if obj.get("end") is True:
            if i != len(objs):
                raise _fail(name, i, f"end line is followed by {len(objs) - i} more line(s)")
            end = obj
            break
        if "event" in obj:
            if version < 2:
                raise _fail(name, i, "event lines need a version 2 header, got version "
                                     f"{version}")
            events.append(_parse_event(obj, name, i, (r, c), t_prev, len(steps)))
            t_prev = events[-1].t
            continue
        steps.append(_parse_step(obj, name, i, (r, c), t_prev, shape))
        r, c, t_prev = steps[-1].row, steps[-1].col, steps[-1].t
    if end is None:
        raise _fail(name, len(objs), "truncated record: the last line is not the end line "
                                     '{"end": true, ...}')
    n_moves = sum(1 for s in steps if not s.bump)
    n_bumps = len(steps) - n_moves
    last = len(objs)
    if end.get("moves") != n_moves or end.get("bumps", 0) != n_bumps:
        raise _fail(name, last, f"end line says {end.get('moves')} moves and "
                                f"{end.get('bumps', 0)} bumps but the record holds "
                                f"{n_moves} and {n_bumps} (truncated or edited?)")
    n_hints = sum(1 for e in events if e.event == "hint")
    hints = end.get("hints", 0)
    if not _is_int(hints) or hints != n_hints:
        raise _fail(name, last, f"end line says {describe(hints)} hints but "
                                f"the record holds {n_hints} (truncated or edited?)")
    if ("row" in end or "col" in end) and (end.get("row"), end.get("col")) != (r, c):
        raise _fail(name, last, f"end position {[end.get('row'), end.get('col')]} differs "
                                f"from the last move's position {[r, c]}")
    duration = end.get("duration", t_prev)
    if not _is_num(duration) or duration < t_prev - 1e-9:
        raise _fail(name, last, f"'duration' must be a number >= the last move time "
                                f"{t_prev}, got {describe(duration)}")
    reached = end.get("reached_goal", False)
    if not isinstance(reached, bool):
        raise _fail(name, last,
                    f"'reached_goal' must be true or false, got {describe(reached)}")
    return TraversalRecord(steps=tuple(steps), reached_goal=reached, duration=float(duration),
                           events=tuple(events), **fields)


def _parse_event(obj: dict, name: str, i: int, prev: tuple[int, int], t_prev: float,
                 index: int) -> Event:
    missing = [k for k in ("t", "event", "row", "col") if k not in obj]
    if missing:
        raise _fail(name, i, f"event line lacks {', '.join(missing)} "
                             f"(expected t, event, row, col)")
    t, kind, row, col = (obj[k] for k in ("t", "event", "row", "col"))
    if kind not in EVENTS:
        raise _fail(name, i, f"'event' must be one of {', '.join(EVENTS)}, got {describe(kind)}")
    if not _is_num(t) or t < t_prev - 1e-9:
        raise _fail(name, i,
                    f"'t' must be a number >= the previous time {t_prev}, got {describe(t)}")
    if (row, col) != tuple(prev) or not (_is_int(row) and _is_int(col)):
        raise _fail(name, i, f"an event happens where the walker is, {list(prev)}, "
                             f"got {[describe(row), describe(col)]}")
    return Event(float(t), kind, int(row), int(col), index)


def _parse_step(obj: dict, name: str, i: int, prev: tuple[int, int], t_prev: float,
                shape: tuple[int, int]) -> Step:
    missing = [k for k in ("t", "move", "row", "col", "heading") if k not in obj]
    if missing:
        raise _fail(name, i, f"move line lacks {', '.join(missing)} "
                             f"(expected t, move, row, col, heading)")
    t, move, row, col, heading = (obj[k] for k in ("t", "move", "row", "col", "heading"))
    bump = obj.get("bump", False)
    if not _is_num(t) or t < t_prev - 1e-9:
        raise _fail(name, i,
                    f"'t' must be a number >= the previous time {t_prev}, got {describe(t)}")
    if move not in MOVES:
        raise _fail(name, i,
                    f"'move' must be one of {', '.join(MOVES)}, got {describe(move)}")
    if not (_is_int(row) and _is_int(col)):
        raise _fail(name, i, f"'row' and 'col' must be integers, got {describe(row)}, "
                             f"{describe(col)}")
    if not (0 <= row < shape[0] and 0 <= col < shape[1]):
        raise _fail(name, i, f"position {[row, col]} is outside the {shape[0]}x{shape[1]} map")
    if not _is_num(heading):
        raise _fail(name, i, f"'heading' must be a number, got {describe(heading)}")
    if not isinstance(bump, bool):
        raise _fail(name, i, f"'bump' must be true or false, got {describe(bump)}")
    jump = abs(row - prev[0]) + abs(col - prev[1])
    if bump and jump:
        raise _fail(name, i, f"a bump leaves the position unchanged, but it moves from "
                             f"{list(prev)} to {[row, col]}")
    if jump > 1:
        raise _fail(name, i, f"position jumps from {list(prev)} to {[row, col]}; each move "
                             f"changes it by at most one 4-neighbour step")
    return Step(float(t), move, row, col, float(heading), bump)


