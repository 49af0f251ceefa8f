"""A session of walks for the browser: the server-side game, records and scores.

The game logic stays on the server: the page sends actions (``N E S W F L R``),
:class:`PlaySession` feeds them to a :class:`robomaze.traverse.game.Game`,
and answers with what the page may draw. Every record is written by the
server in the ``robomaze-traversal`` JSON Lines format, so ``robomaze
replay`` and ``robomaze score`` read it unchanged.

Picture lattice
---------------
The page draws one boolean matrix of blocked squares, the *picture*: at
cell level the maze's ``(2r+1) x (2c+1)`` wall matrix (cell ``(r, c)`` is
square ``(2r+1, 2c+1)``), at grid level the occupancy grid itself. The
JSON sends ``pos = {"scale", "offset"}`` (a position ``p`` is square
``p * scale + offset``) and ``cell = {"scale", "offset", "size"}`` (maze
cell ``m`` covers squares ``m * scale + offset`` to ``+ size``), which is
all the page needs to place the player, goals and the heat map.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Callable, Iterable

import numpy as np

from .._validate import check_choice, check_int
from ..errors import ParameterError
from ..grid import OccupancyGrid
from ..maze import Maze
from ..traverse.game import MODES, Game
from ..traverse.record import MOVES, TraversalRecord, read_record
from ..traverse.score import score

__all__ = ["PlaySession", "RecordShelf", "picture_of", "record_payload", "score_payload",
           "MAX_RADIUS"]

#: Largest torch radius a page may ask for.
MAX_RADIUS = 20

WorldFactory = Callable[[int], "tuple[Maze | OccupancyGrid, dict | None]"]


def _rows(mask: np.ndarray, on: str = "#", off: str = ".") -> list[str]:
    return ["".join(on if v else off for v in row) for row in mask]


def picture_of(world: Maze | OccupancyGrid) -> dict:
    """The static part of a page's drawing of ``world`` (see the module docstring).

    >>> p = picture_of(Maze.empty(1, 2, start=(0, 0), goals=[(0, 1)]))
    >>> p["walls"], p["pos"], p["cell"], p["goals"]
    (['#####', '#...#', '#####'], {'scale': 2, 'offset': 1}, {'scale': 2, 'offset': 1, 'size': 1}, [[0, 1]])
    """
    if isinstance(world, Maze):
        walls = world.to_matrix().astype(bool)
        pos = {"scale": 2, "offset": 1}
        cell = {"scale": 2, "offset": 1, "size": 1}
        maze = world
    else:
        walls = world.occupied
        pos = {"scale": 1, "offset": 0}
        w = world.widening
        cell = ({"scale": w.pitch, "offset": w.wall, "size": w.corridor} if w is not None
                else {"scale": 1, "offset": 0, "size": 1})
        maze = world.maze
    return {"rows": int(walls.shape[0]), "cols": int(walls.shape[1]), "walls": _rows(walls),
            "pos": pos, "cell": cell, "level": "cell" if isinstance(world, Maze) else "grid",
            "goals": [list(g) for g in maze.goals] if maze is not None else []}


def _to_picture(cells: Iterable, pos: dict) -> list[list[int]]:
    s, o = pos["scale"], pos["offset"]
    return [[int(r) * s + o, int(c) * s + o] for r, c in cells]


def score_payload(record: TraversalRecord) -> dict:
    """What the finish screen shows: the summary, the sections with error and
    the per-maze-cell error heat map (section error, NaN -> null)."""
    rep = score(record)
    heat = rep.section_map("error")
    return {"summary": rep.summary,
            "sections": [r for r in rep.table_rows if r["moves"] or r["on_route"]],
            "heat": [[None if np.isnan(v) else float(v) for v in row] for row in heat],
            "heat_max": float(np.nanmax(heat)) if np.isfinite(heat).any() else 0.0,
            "route": rep.route.tolist()}


def record_payload(record: TraversalRecord) -> dict:
    """Everything the replay page animates: the picture, every step in picture
    coordinates, and the best route (maze cells mapped to block centres)."""
    world = record.maze if record.level == "cell" else record.grid
    pic = picture_of(world)
    rep = score(record)
    if record.level == "cell":
        route = _to_picture(rep.route, pic["pos"])
    elif record.grid.widening is not None:
        route = [list(record.grid.maze_centre(c)) for c in rep.route]
    else:
        route = rep.route.tolist()
    steps = [{"t": s.t, "move": s.move, "pos": _to_picture([(s.row, s.col)], pic["pos"])[0],
              "heading": s.heading, "bump": bool(s.bump)} for s in record.steps]
    return {"picture": pic, "start": _to_picture([record.start], pic["pos"])[0],
            "heading": record.heading, "steps": steps, "route": route,
            "walker": record.walker, "reached_goal": record.reached_goal,
            "duration": record.duration, "summary": rep.summary}


class RecordShelf:
    """The records a server may hand out, by index: those it wrote, or was given.

    No request ever names a file: a page asks for record ``i`` and the shelf
    answers from its own list.
    """

    def __init__(self, paths: Iterable[str | Path] = ()) -> None:
        self.paths: list[Path] = []
        self._cache: dict[int, TraversalRecord] = {}
        for p in paths:
            self.add(Path(p), read_record(p))

    def add(self, path: Path, record: TraversalRecord) -> int:
        self.paths.append(Path(path))
        self._cache[len(self.paths) - 1] = record
        return len(self.paths) - 1

    def __len__(self) -> int:
        return len(self.paths)

    def record(self, i: int) -> TraversalRecord:
        if not 0 <= i < len(self.paths):
            raise KeyError(i)
        return self._cache[i]

    def listing(self) -> list[dict]:
        return [{"index": i, "name": p.name, "moves": self._cache[i].n_moves,
                 "reached_goal": self._cache[i].reached_goal, "mode":
                 self._cache[i].walker.get("settings", {}).get("mode")}
                for i, p in enumerate(self.paths)]


class PlaySession:
    """Walks in a row through the mazes a factory hands out, one Game at a time.

    Parameters
    ----------
    worlds : callable
        ``worlds(i)`` returns ``(world, source)`` for walk ``i`` (0-based):
        the Maze or grid to walk and its generator reference for the record.
    record_dir : path
        Where the records go (``walk-001.jsonl``...; existing files are never
        overwritten). Created when the first record is written.
    mode, radius, controls, name, start, goals :
        As :class:`robomaze.traverse.game.Game`; the page may change mode and
        radius for the next walk.
    clock : callable, optional
        Seconds; injected in tests.

    Examples
    --------
    >>> import tempfile
    >>> maze = Maze.from_edges(1, 3, [0, 1], [1, 2])
    >>> s = PlaySession(lambda i: (maze, None), tempfile.mkdtemp(), clock=lambda: 0.0)
    >>> [s.act(a)["outcome"] for a in "EE"]
    ['moved', 'goal']
    >>> s.shelf.paths[0].name, s.state()["score"]["summary"]["extra_moves"]
    ('walk-001.jsonl', 0)
    """

    def __init__(self, worlds: WorldFactory, record_dir: str | Path, *, mode: str = "full",
                 radius: int = 1, controls: str = "arrows", name: str = "",
                 start=None, goals=None, clock: Callable[[], float] | None = None) -> None:
        self.worlds = worlds
        self.record_dir = Path(record_dir)
        self.name = str(name)
        self.controls = controls
        self.start, self.goals = start, goals
        self.clock = clock or time.monotonic
        self.shelf = RecordShelf()
        self.lock = threading.Lock()
        self.walk = -1
        self.game: Game | None = None
        self.source: dict | None = None
        self.saved: int | None = None
        self._score: dict | None = None
        self._clock_started = False
        self.mode, self.radius = "full", 1
        self.new_walk(mode=mode, radius=radius, advance=True)

    # ------------------------------------------------------------ walks
    def new_walk(self, *, mode: str | None = None, radius: int | None = None,
                 advance: bool = True) -> dict:
        """Begin the next maze (``advance``) or the same one again, in ``mode``.

        A walk left unfinished with at least one move is saved first (with
        ``reached_goal`` false): it is data too.
        """
        if mode is not None:
            self.mode = check_choice("mode", mode, MODES)
        if radius is not None:
            self.radius = check_int("radius", radius, min_value=0, max_value=MAX_RADIUS)
        if self.game is not None and self.saved is None and self.game.steps:
            self._save()
        if advance or self.game is None:
            self.walk += 1
            self.world, self.source = self.worlds(self.walk)
        walker = {"kind": "person", "name": self.name, "settings": {}}
        self.game = Game(self.world, mode=self.mode, controls=self.controls, walker=walker,
                         start=self.start, goals=self.goals, clock=self.clock,
                         radius=self.radius)
        self.saved, self._score, self._clock_started = None, None, False
        self.picture = picture_of(self.world)
        return self.state(full=True)

    def act(self, action: str) -> dict:
        """Apply one action (``N E S W F L R``); save and score at the goal."""
        check_choice("action", action, MOVES)
        if not self._clock_started:
            self.game.start_clock()
            self._clock_started = True
        outcome = self.game.act(action)
        if outcome == "goal":
            self._save()
        return {**self.state(), "outcome": outcome}

    def _save(self) -> int:
        rec = self.game.record(source=self.source)
        self.record_dir.mkdir(parents=True, exist_ok=True)
        n = len(self.shelf) + 1
        while (path := self.record_dir / f"walk-{n:03d}.jsonl").exists():
            n += 1
        rec.save(path)
        # the shelf keeps what was read back: the page's score is the file's score
        self.saved = self.shelf.add(path, read_record(path))
        if rec.reached_goal:
            self._score = score_payload(self.shelf.record(self.saved))
        return self.saved

    # ------------------------------------------------------------ output
    def state(self, *, full: bool = False) -> dict:
        """The page's view of the current walk (``full`` adds the static picture)."""
        g = self.game
        pos = self.picture["pos"]
        if g.mode == "theseus":
            trail = g.thread
        else:
            trail = [g.start] + [(s.row, s.col) for s in g.steps if not s.bump]
            trail = [p for i, p in enumerate(trail) if i == 0 or p != trail[i - 1]]
        out = {"walk": self.walk + 1, "mode": g.mode, "radius": g.radius,
               "controls": g.controls, "modes": list(MODES),
               "position": _to_picture([g.position], pos)[0], "heading": g.heading,
               "trail": _to_picture(trail, pos),
               "visible": None if g.mode == "full" else _rows(g.picture_visible(), "1", "0"),
               "moves": g.moves, "bumps": g.bumps,
               # the clock starts with the first action, not when the maze is built
               "elapsed": round(g.elapsed, 3) if self._clock_started else 0.0,
               "finished": g.finished, "score": self._score,
               "record": None if self.saved is None else self.shelf.listing()[self.saved]}
        if full:
            out["picture"] = self.picture
        return out
