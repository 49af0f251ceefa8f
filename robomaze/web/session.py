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
from ..traverse.game import CONTROLS, MODES, Game
from ..traverse.palette import DEFAULT_PALETTE, PALETTES, check_palette
from ..errors import RobomazeError
from ..traverse.record import (MOVES, RecordWriter, TraversalRecord, dumps,
                               read_record_bytes)
from ..traverse.score import score
from .worlds import MAX_SIDE, build_page_world, check_page_spec, next_seed, world_spec

__all__ = ["PlaySession", "RecordShelf", "ElsewhereError", "picture_of", "record_payload",
           "score_payload", "MAX_RADIUS", "MAX_SIDE", "MAX_RECORDS"]

#: Largest torch radius a page may ask for.
MAX_RADIUS = 20
#: Most records a server lists from its folder at start (newest kept).
MAX_RECORDS = 2000

WorldFactory = Callable[[int], "tuple[Maze | OccupancyGrid, dict | None]"]


def _rows(mask: np.ndarray, on: str = "#", off: str = ".") -> list[str]:
    return _text_rows(np.where(mask, ord(on), ord(off)))


def _text_rows(codes: np.ndarray) -> list[str]:
    """Rows of ASCII codes as strings (a 400x400 picture is sent on every move)."""
    codes = np.ascontiguousarray(codes, dtype=np.uint8)
    return [row.tobytes().decode("ascii") for row in codes]


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
    """What the finish screen shows: the summary, the sections walked or on the
    route (those with error first, most error first), the per-maze-cell error
    heat map (section error, NaN -> null) and the best route.

    Each section carries ``at``, up to 7 cells of its chain (middle first)
    where the page may print its number: it takes the first that does not
    overlap a number already placed.
    """
    rep = score(record)
    heat = rep.section_map("error")
    cols = rep.sections.shape[1]
    shown = []
    for r in rep.table_rows:
        if r["moves"] or r["on_route"]:
            chain = rep.sections.cells[r["section"]]
            n = len(chain)
            # interior cells first: the end cells are junctions other sections share
            lo, hi = (1, n - 2) if n > 2 else (0, n - 1)
            spread = {int(round(v)) for v in np.linspace(lo, hi, min(hi - lo + 1, 7))}
            picks = sorted(spread, key=lambda k: (abs(k - n // 2), k))
            shown.append({**r, "at": [list(divmod(int(chain[k]), cols)) for k in picks]})
    shown.sort(key=lambda r: (-r["error"], r["section"]))
    return {"summary": rep.summary, "sections": shown,
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


def _label(record: TraversalRecord, mtime: float | None) -> str:
    """A record's name for a list: mode, maze and date (several walk-001.jsonl look alike)."""
    settings = record.walker.get("settings", {})
    src = record.source or {}
    if src.get("generator") and isinstance(src.get("size"), list):
        maze = f"{src['generator']} {src['size'][0]}x{src['size'][1]}"
        maze += f" seed {src['seed']}" if "seed" in src else ""
    else:
        rows, cols = record.world.shape
        maze = f"{rows}x{cols} {record.level}"
    when = "" if mtime is None else time.strftime(" %Y-%m-%d %H:%M", time.localtime(mtime))
    return f"{settings.get('mode') or record.walker.get('kind', '')}, {maze}{when}"


def _generator_names() -> list[str]:
    try:
        from ..generate import GENERATORS
    except ImportError:  # the generators package is optional
        return []
    return sorted(GENERATORS)


class RecordShelf:
    """The records a server may hand out, by index: those it wrote, or was given.

    No request ever names a file: a page asks for record ``i`` and the shelf
    answers from its own list. Each file is read once, when it is added; the
    shelf then serves those bytes and their parsed record, so replacing a
    file (by a link, a FIFO, another walk) after the start changes nothing.
    """

    def __init__(self, paths: Iterable[str | Path] = ()) -> None:
        self.paths: list[Path] = []
        self._cache: dict[int, TraversalRecord] = {}
        self._bytes: dict[int, bytes] = {}
        self._labels: dict[int, str] = {}
        for p in paths:
            self.read(Path(p))

    def read(self, path: Path) -> int:
        """Read ``path`` once and add it; returns its index."""
        rec, data = read_record_bytes(path)
        try:
            mtime = Path(path).stat().st_mtime
        except OSError:
            mtime = None
        return self.add(path, rec, data, mtime=mtime)

    def add(self, path: Path, record: TraversalRecord, data: bytes | None = None, *,
            mtime: float | None = None) -> int:
        """Add a record; returns its index."""
        i = len(self.paths)
        self.paths.append(Path(path))
        self._cache[i] = record
        self._bytes[i] = dumps(record).encode("utf-8") if data is None else bytes(data)
        self._labels[i] = _label(record, mtime)
        return i

    def reread(self, i: int) -> int:
        """Read record ``i``'s file again in place (a walk continued after a
        restart is one record, read again at its end); returns ``i``."""
        path = self.paths[i]
        rec, data = read_record_bytes(path)
        self._cache[i], self._bytes[i] = rec, bytes(data)
        try:
            self._labels[i] = _label(rec, Path(path).stat().st_mtime)
        except OSError:
            self._labels[i] = _label(rec, None)
        return i

    def __len__(self) -> int:
        return len(self.paths)

    def record(self, i: int) -> TraversalRecord:
        if not 0 <= i < len(self.paths):
            raise KeyError(i)
        return self._cache[i]

    def data(self, i: int) -> bytes:
        """The bytes of record ``i`` as read when it was added."""
        if not 0 <= i < len(self.paths):
            raise KeyError(i)
        return self._bytes[i]

    def listing(self) -> list[dict]:
        return [{"index": i, "name": p.name, "moves": self._cache[i].n_moves,
                 "bumps": self._cache[i].n_bumps, "hints": self._cache[i].n_hints,
                 "label": self._labels[i],
                 "reached_goal": self._cache[i].reached_goal, "mode":
                 self._cache[i].walker.get("settings", {}).get("mode")}
                for i, p in enumerate(self.paths)]


class ElsewhereError(ParameterError):
    """A page acted on a game that another tab has taken over."""



class PlaySession:
    """Walks in a row through the mazes a factory hands out, one Game at a time.

    Parameters
    ----------
    worlds : callable
        ``worlds(i)`` returns ``(world, source)`` for walk ``i`` (0-based):
        the Maze or grid to walk and its generator reference for the record.
    record_dir : path
        Where the records go (``walk-001.jsonl``...; existing files are never
        overwritten). Created when the first record is written. A record is
        written move by move from the first move on (see
        :class:`robomaze.traverse.record.RecordWriter`), so a stopped server
        leaves the walk so far, marked unfinished. The records already in
        the folder are listed for the replay page at start, and the newest
        unfinished one of the first maze is offered to go on with
        (:meth:`resume`).
    mode, radius, controls, name, start, goals :
        As :class:`robomaze.traverse.game.Game`; the page may change mode and
        radius for the next walk.
    clock : callable, optional
        Seconds; injected in tests.
    spec : dict, optional
        The first maze as a page spec (:mod:`robomaze.web.worlds`: ``gen``,
        ``size``, ``seed``, ``braid``, ``placement``, ``corridor``, ``wall``);
        then ``worlds`` is not called, the page may name any maze of
        ``generators`` (its URL) and "next maze" is the same maze at the next
        seed (:func:`robomaze.web.worlds.next_seed`).
    maker : callable, optional
        ``maker(spec)`` returns ``(world, source)`` for a checked page spec
        (default :func:`robomaze.web.worlds.build_page_world`).
    generators : iterable of str, optional
        The generator names a page may use (default: the registered ones and
        ``spec``'s).
    palette : str
        The page's first direction palette (it may switch).

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

    def __init__(self, worlds: WorldFactory | None, record_dir: str | Path, *,
                 mode: str = "full", radius: int = 1, controls: str = "arrows", name: str = "",
                 start=None, goals=None, clock: Callable[[], float] | None = None,
                 maker: Callable[[dict], tuple] | None = None,
                 spec: dict | None = None, generators: Iterable[str] | None = None,
                 palette: str = DEFAULT_PALETTE) -> None:
        self.worlds = worlds
        self.palette = check_palette(palette)
        self.spec = None
        self.generators: list[str] = []
        self.maker = None
        if spec is not None:
            names = set(_generator_names() if generators is None else generators)
            names.add(spec["gen"])
            self.generators = sorted(names)
            self.maker = maker or build_page_world
            # the command line's maze (trusted: it may exceed what a page may ask for)
            self.spec = {"gen": spec["gen"], "size": [int(v) for v in spec["size"]],
                         "seed": int(spec["seed"]), "braid": float(spec.get("braid", 0.0)),
                         "placement": spec.get("placement", "corners"),
                         "corridor": spec.get("corridor"), "wall": spec.get("wall")}
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
        self.owner: str | None = None
        self._writer: RecordWriter | None = None
        self._written = 0
        self._score: dict | None = None
        self._clock_started = False
        self._seq = 0
        self._shown: tuple | None = None
        self.mode, self.radius = "full", 1
        self._stopped: set[int] = set()
        self._list_folder()
        self.new_walk(mode=mode, radius=radius, advance=True)

    # ------------------------------------------------------------ folder
    def _list_folder(self) -> None:
        """Put the records already in the folder on the shelf (a restarted
        server's replay page lists them); unreadable files are skipped."""
        if not self.record_dir.is_dir():
            return
        paths = sorted(self.record_dir.glob("walk-*.jsonl"))[-MAX_RECORDS:]
        for path in paths:
            try:
                i = self.shelf.read(path)
            except (RobomazeError, OSError, ValueError):
                continue
            if not self.shelf.record(i).reached_goal:
                # left unfinished by a server that stopped: it may be continued
                self._stopped.add(i)

    def resumable(self) -> dict | None:
        """The newest record of the current maze (start, goals and level the
        same) that a stopped server left unfinished in the folder, if the
        current walk has not begun: what a restarted server offers to go on
        with. Walks this server closed itself (a restart, the next maze) are
        not offered: the player left them."""
        g = self.game
        if g is None or g.steps or g.events or self.saved is not None or self._writer:
            return None
        for i in sorted(self._stopped, reverse=True):
            rec = self.shelf.record(i)
            if rec.reached_goal or not (rec.steps or rec.events):
                continue
            if self._same_world(rec):
                return {"index": i, "name": self.shelf.paths[i].name, "moves": rec.n_moves,
                        "mode": rec.walker.get("settings", {}).get("mode")}
        return None

    def _same_world(self, rec: TraversalRecord) -> bool:
        g = self.game
        if rec.level != g.level or tuple(rec.start) != g.start or \
                tuple(map(tuple, rec.goals)) != g.goals:
            return False
        if rec.level == "cell":
            return rec.maze is not None and np.array_equal(rec.maze.to_matrix(),
                                                           g.maze.to_matrix())
        return rec.grid.shape == g.grid.shape and np.array_equal(rec.grid.occupied,
                                                                 g.grid.occupied)

    def resume(self, index: int) -> dict:
        """Go on with the unfinished record ``index`` of the current maze: its
        moves and hints are played again (same times), and the next moves are
        appended to the same file."""
        offer = self.resumable()
        if offer is None or offer["index"] != index:
            raise ParameterError(f"record {index} is not an unfinished walk of this maze "
                                 f"that can be continued")
        rec = self.shelf.record(index)
        path = self.shelf.paths[index]
        settings = rec.walker.get("settings", {})
        mode = settings.get("mode") if settings.get("mode") in MODES else self.mode
        controls = settings.get("controls") if settings.get("controls") in CONTROLS \
            else self.controls
        radius = settings.get("radius", 1)
        walker = {"kind": "person", "name": rec.walker.get("name", self.name), "settings": {}}
        g = Game(self.world, mode=mode, controls=controls, walker=walker, start=rec.start,
                 goals=rec.goals, clock=self.clock, radius=radius, heading=rec.heading)
        events = sorted(rec.events, key=lambda e: e.index)
        k = 0
        for i, step in enumerate(rec.steps):
            while k < len(events) and events[k].index <= i:
                g.hint(events[k].t)
                k += 1
            g.act(step.move, step.t)
        while k < len(events):
            g.hint(events[k].t)
            k += 1
        if [tuple(s) for s in g.steps] != [tuple(s) for s in rec.steps]:
            raise ParameterError(f"{path.name} does not replay on this maze; it cannot be "
                                 f"continued")
        writer = RecordWriter.reopen(path)
        self._stopped.discard(index)
        duration = max(rec.duration, max([0.0] + [s.t for s in rec.steps]))
        g.set_elapsed(duration)
        self.game, self.mode, self.radius, self.controls = g, mode, radius, controls
        self._writer, self._written = writer, len(g.steps)
        self._clock_started, self.saved, self._score = True, None, None
        self.resumed = path.name
        return self.state(full=True)

    # ------------------------------------------------------------ tabs
    def claim(self, tab: str | None) -> None:
        """The page in tab ``tab`` (re)loaded: it now owns the game."""
        if tab is not None:
            self.owner = tab

    def check_tab(self, tab: str | None) -> None:
        """Refuse a move or new walk from a tab that another tab has taken over."""
        if tab is not None and self.owner is not None and tab != self.owner:
            raise ElsewhereError("this game is open in another tab; reload to play here")

    # ------------------------------------------------------------ walks
    def new_walk(self, *, mode: str | None = None, radius: int | None = None,
                 advance: bool = True, controls: str | None = None, **world) -> dict:
        """Begin the next maze (``advance``) or the same one again, in ``mode``;
        or, with page spec keys (``gen``, ``size``, ``seed``, ``braid``,
        ``placement``, ``corridor``, ``wall``: a page's URL), that maze.

        A walk left unfinished with at least one move is closed first (its
        record says ``reached_goal`` false): it is data too.
        """
        # everything is checked and the maze built before anything changes:
        # a refused request leaves the walk in progress as it was
        mode = self.mode if mode is None else check_choice("mode", mode, MODES)
        radius = self.radius if radius is None else check_int("radius", radius, min_value=0,
                                                              max_value=MAX_RADIUS)
        controls = (self.controls if controls is None
                    else check_choice("controls", controls, CONTROLS))
        spec, built = self.spec, None
        if any(v is not None for v in world.values()):
            if self.maker is None:
                raise ParameterError("this server walks one maze file: gen, size and seed "
                                     "cannot be chosen")
            spec = check_page_spec(world, self.spec, self.generators)
            built = self.maker(spec)
        elif advance or self.game is None:
            if self.spec is not None:
                if self.game is not None:
                    spec = {**self.spec, "seed": next_seed(self.spec["seed"])}
                built = self.maker(spec)
            else:
                built = self.worlds(self.walk + 1)
        if self.game is not None and self.saved is None and (self.game.steps
                                                              or self.game.events):
            self._close(reached=False)
        elif self._writer is not None and self.saved is None:
            self._writer.close()
        self.mode, self.radius, self.controls, self.spec = mode, radius, controls, spec
        if built is not None:
            self.walk += 1
            self.world, self.source = built
        walker = {"kind": "person", "name": self.name, "settings": {}}
        self.game = Game(self.world, mode=self.mode, controls=self.controls, walker=walker,
                         start=self.start, goals=self.goals, clock=self.clock,
                         radius=self.radius)
        self.saved, self._score, self._clock_started = None, None, False
        self._writer, self._written = None, 0
        self.resumed = None
        self.picture = picture_of(self.world)
        # hidden modes mask this on every answer: split the rows into characters once
        self._wall_codes = np.array([list(r.encode("ascii")) for r in self.picture["walls"]],
                                    dtype=np.uint8).reshape(len(self.picture["walls"]), -1)
        return self.state(full=True)

    def act(self, action: str, t: float | None = None) -> dict:
        """Apply one action (``N E S W F L R``, or ``U`` to undo the last move)
        at time ``t`` (the page's clock; default the server's); each move is
        written to the record at once; save and score at the goal."""
        outcome = self._act(action, t)
        return {**self.delta(), "outcome": outcome}

    def act_many(self, moves: list) -> dict:
        """Apply ``[[action, t], ...]`` in order (a page's queued keys in one request)."""
        outcomes = [self._act(a, t) for a, t in moves]
        return {**self.delta(), "outcome": outcomes[-1] if outcomes else "ignored",
                "outcomes": outcomes}

    def hint(self, t: float | None = None) -> dict:
        """Ask for a hint at time ``t`` (the page's clock): the state plus
        ``hint``, the next cells of the shortest route to the goal
        (:func:`robomaze.traverse.hint.hint_cells`) in picture coordinates.

        The hint is written to the record as an event (not a move). In a
        mode that hides the maze the answer adds nothing but those cells:
        their walls stay hidden until the player walks there.
        """
        g = self.game
        if g.finished:
            return {**self.delta(), "hint": []}
        self._start_writing()
        cells = g.hint(t)
        self._writer.append_event(g.events[-1])
        if self.world is g.grid and g.grid.widening is not None:
            hint = [[int(v) for v in g.grid.maze_centre(c)] for c in cells]
        else:
            hint = _to_picture(cells, self.picture["pos"])
        return {**self.delta(), "hint": hint}

    def _start_writing(self) -> None:
        g = self.game
        if self._writer is None:
            # the file exists before the first move is applied: a folder that
            # cannot be written refuses the move instead of losing it later
            self.record_dir.mkdir(parents=True, exist_ok=True)
            self._writer = RecordWriter(self._next_path(), g.record(source=self.source).header())
        if not self._clock_started:
            g.start_clock()
            self._clock_started = True

    def _act(self, action: str, t: float | None) -> str:
        check_choice("action", action, MOVES + ("U",))
        g = self.game
        if g.finished:
            return "ignored"
        self._start_writing()
        outcome = g.undo(t) if action == "U" else g.act(action, t)
        for step in g.steps[self._written:]:
            self._writer.append(step)
        self._written = len(g.steps)
        if outcome == "goal":
            self._close(reached=True)
        return outcome

    def _next_path(self) -> Path:
        n = len(self.shelf) + 1
        while (path := self.record_dir / f"walk-{n:03d}.jsonl").exists():
            n += 1
        return path

    def _close(self, *, reached: bool) -> int:
        g = self.game
        duration = g.elapsed if reached or not g.steps else max(g.steps[-1].t, 0.0)
        path = self._writer.finish(reached, duration)
        # the shelf keeps what was read back: the page's score is the file's score
        if self.resumed is not None and path in self.shelf.paths:
            self.saved = self.shelf.reread(self.shelf.paths.index(path))
        else:
            self.saved = self.shelf.read(path)
        if reached:
            self._score = score_payload(self.shelf.record(self.saved))
        return self.saved

    # ------------------------------------------------------------ output
    def _trail(self) -> list:
        g = self.game
        if g.mode == "theseus":
            trail = g.thread
        else:
            trail = [g.start] + [(s.row, s.col) for s in g.steps if not s.bump]
            trail = [p for i, p in enumerate(trail) if i == 0 or p != trail[i - 1]]
        return _to_picture(trail, self.picture["pos"])

    def _hidden(self) -> bool:
        return self.game.mode != "full" and not self.game.finished

    def _codes(self) -> np.ndarray | None:
        """The squares the page may know: wall codes, ``?`` where hidden (None in full mode)."""
        if not self._hidden():
            return None
        return np.where(self.game.picture_visible(), self._wall_codes, ord("?")).astype(np.uint8)

    def _scalars(self) -> dict:
        g = self.game
        return {"walk": self.walk + 1, "mode": g.mode, "radius": g.radius,
                "controls": g.controls,
                "position": _to_picture([g.position], self.picture["pos"])[0],
                "heading": g.heading, "moves": g.moves, "bumps": g.bumps, "hints": g.hints,
                # the clock starts with the first action, not when the maze is built
                "elapsed": round(g.elapsed, 3) if self._clock_started else 0.0,
                "finished": g.finished, "resumed": self.resumed}

    def delta(self) -> dict:
        """What changed since the last answer (a move's reply): the scalars,
        the trail's new steps (``trail_keep`` first points kept, ``trail_add``
        appended) and, in a hidden mode, the squares whose view changed
        (``squares``: ``[row, col, "#" | "." | "?"]``). ``base`` is the
        ``seq`` of the answer it applies to: a page holding another one asks
        for the full state. At the finish the answer is the full state.

        >>> import tempfile
        >>> m = Maze.from_edges(1, 3, [0, 1], [1, 2])
        >>> s = PlaySession(lambda i: (m, None), tempfile.mkdtemp(), mode="explorer")
        >>> d = s.act("E")
        >>> d["trail_keep"], d["trail_add"], d["base"] + 1 == d["seq"], len(d["squares"])
        (1, [[1, 3]], True, 6)
        """
        if self.game.finished or self._shown is None:
            return self.state(full=True)
        seq0, trail0, codes0 = self._shown
        trail, codes = self._trail(), self._codes()
        n = min(len(trail0), len(trail))
        keep = n
        if trail0[:n] != trail[:n]:
            keep = next(i for i in range(n) if trail0[i] != trail[i])
        out = {**self._scalars(), "delta": True, "base": seq0,
               "trail_keep": keep, "trail_add": trail[keep:]}
        if codes is not None:
            if codes0 is None or codes0.shape != codes.shape:
                return self.state(full=True)
            changed = np.argwhere(codes != codes0)
            out["squares"] = [[int(i), int(j), chr(codes[i, j])] for i, j in changed]
        self._seq += 1
        out["seq"] = self._seq
        self._shown = (self._seq, trail, codes)
        return out

    def state(self, *, full: bool = False) -> dict:
        """The page's view of the current walk (``full`` adds the static picture).

        Until the goal, a mode that hides part of the maze sends only the
        squares the player sees (``walls``: ``#`` wall, ``.`` open, ``?``
        hidden), and the picture it sends has no walls: a page holds nothing
        the player may not see. At the goal the whole picture is sent.
        Every state is a new base for :meth:`delta` (``seq``).
        """
        g = self.game
        hidden = self._hidden()
        trail, codes = self._trail(), self._codes()
        out = {**self._scalars(), "modes": list(MODES), "spec": self.spec,
               "world": None if self.spec is None else world_spec(self.spec).to_dict(),
               "choose": self.maker is not None, "trail": trail,
               "visible": None if not hidden else _rows(g.picture_visible(), "1", "0"),
               "score": self._score,
               "record": None if self.saved is None else self.shelf.listing()[self.saved],
               "resume": self.resumable() if full else None}
        if hidden:
            out["walls"] = _text_rows(codes)
        if full:
            out["palette"], out["palettes"] = self.palette, PALETTES
            out["generators"] = list(self.generators) if self.maker is not None else []
        if full or g.finished:
            pic = dict(self.picture)
            if hidden:
                pic["walls"] = None
            out["picture"] = pic
        self._seq += 1
        out["seq"] = self._seq
        self._shown = (self._seq, trail, codes)
        return out
