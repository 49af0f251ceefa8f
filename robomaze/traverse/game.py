"""The interactive walk as a plain class driven by key events.

:class:`Game` holds the whole state of a person (or a scripted player)
walking a maze: position, heading, moves, bumps, time, what is visible.
It knows nothing about windows -- :mod:`robomaze.viz.traverse` feeds it
matplotlib key names and draws what it exposes -- so tests drive it
headlessly with :meth:`Game.key` and an injected clock.

Controls
--------
``"arrows"``: the arrow keys move one cell north/east/south/west (absolute,
the heading follows the move). ``"robot"``: ``a`` turns left, ``w`` steps
forward, ``d`` turns right (the left/up/right arrows do the same), as a
differential-drive robot does. Any key map can be passed as ``keys``.

Visibility modes
----------------
``"full"`` -- everything is visible. ``"torch"`` -- only the
neighbourhood of the current cell (``radius`` 1 = the 3x3 cells around).
``"trail"`` -- the neighbourhoods of every cell visited so far.
``"explorer"`` -- blind, as in the classic game: only the cells visited and
the walls sensed from them (a cell's own four walls, so every wall touched
is known); nothing further. ``"theseus"`` -- Ariadne's thread: the
:attr:`Game.thread` runs from the start to the current cell and winds back
up when the player steps back along it (walking a loop back onto the thread
cuts the loop off, so the thread is always a simple path); the player sees
the thread's cells and the neighbourhood of the current cell.

Two presets are the Sage notebook's minigame modes exactly:
``"sage-torch"`` shows the 3x3 block of the wall matrix around the player
(the current cell with its walls and posts: ``torch`` with radius 0, whatever
``radius`` says); ``"sage-explorer"`` shows nothing but the player's own
cell -- no walls, and nothing is remembered. (The notebook's Theseus mode is
only half written; ``"theseus"`` above is robomaze's reading of it.)

On a grid widened from a maze the neighbourhood is measured in maze cells
(the blocks of the maze cells around, with the wall bands between them), so
what a player sees does not depend on the widening; on a plain grid it is
measured in grid cells (and explorer senses the 3x3 grid cells around).
:meth:`Game.picture_visible` turns the mask into one over the maze's
``(2r+1) x (2c+1)`` wall matrix, where the walls of a visible cell are
visible too.
"""

from __future__ import annotations

import time
from typing import Callable, Mapping, Sequence

import numpy as np

from .._validate import check_choice, check_int
from ..errors import ParameterError
from ..grid import OccupancyGrid
from ..maze import DIRECTIONS, Maze
from .hint import HINT_CELLS, goal_distance, hint_cells
from .record import HEADINGS, Event, Step, TraversalRecord

__all__ = ["Game", "MODES", "CONTROLS", "ARROW_KEYS", "ROBOT_KEYS"]

MODES = ("full", "trail", "torch", "explorer", "theseus", "sage-torch", "sage-explorer")
CONTROLS = ("arrows", "robot")
#: matplotlib key names -> actions for ``controls="arrows"``.
ARROW_KEYS = {"up": "N", "right": "E", "down": "S", "left": "W"}
#: matplotlib key names -> actions for ``controls="robot"``.
ROBOT_KEYS = {"a": "L", "w": "F", "d": "R", "left": "L", "up": "F", "right": "R"}
_SIDE_OF_HEADING = {0: "E", 90: "N", 180: "W", 270: "S"}


class Game:
    """A walk through a maze or a grid, one key event at a time.

    Parameters
    ----------
    world : Maze or OccupancyGrid
        A Maze is walked cell by cell; an OccupancyGrid grid cell by grid
        cell (a grid made by :func:`robomaze.grid.widen` keeps its maze, so
        goals and visibility are in maze cells).
    mode : {"full", "trail", "torch", "explorer", "theseus", "sage-torch", "sage-explorer"}
    controls : {"arrows", "robot"}
    keys : mapping, optional
        Extra or replacement key -> action bindings (actions ``N E S W``
        absolute steps, ``F`` forward, ``L R`` turns).
    clock : callable, optional
        Returns seconds; default :func:`time.monotonic`. Injected in tests.
    walker : dict, optional
        Who walks: default ``{"kind": "person", "name": "", "settings": {}}``.
        The mode and controls are added to its settings.
    start : (int, int), optional
        Start at the game's level; default the maze start (its block centre
        on a widened grid). Required for a plain grid.
    goals : sequence of (int, int), optional
        Goal maze cells (grid cells for a plain grid); default the maze goals.
    heading : float
        Initial heading in degrees counter-clockwise from east (a multiple of 90).
    radius : int
        Neighbourhood radius of ``torch``, ``trail`` and ``theseus`` (1 = 3x3).

    Examples
    --------
    >>> ticks = iter(range(100))
    >>> g = Game(Maze.from_edges(1, 3, [0, 1], [1, 2]), mode="torch",
    ...          clock=lambda: float(next(ticks)))
    >>> g.visible.astype(int).tolist()
    [[1, 1, 0]]
    >>> g.key("left"), g.key("right"), g.key("right")
    ('bump', 'moved', 'goal')
    >>> g.moves, g.bumps, g.reached_goal, g.position
    (2, 1, True, (0, 2))
    >>> g.record().positions.tolist()
    [[0, 0], [0, 1], [0, 2]]
    """

    def __init__(self, world: Maze | OccupancyGrid, *, mode: str = "full",
                 controls: str = "arrows", keys: Mapping[str, str] | None = None,
                 clock: Callable[[], float] | None = None, walker: dict | None = None,
                 start: Sequence[int] | None = None,
                 goals: Sequence[Sequence[int]] | None = None,
                 heading: float = 0.0, radius: int = 1) -> None:
        self.mode = check_choice("mode", mode, MODES)
        self.controls = check_choice("controls", controls, CONTROLS)
        self.radius = check_int("radius", radius, min_value=0)
        self.keys = dict(ARROW_KEYS if controls == "arrows" else ROBOT_KEYS)
        for k, action in (keys or {}).items():
            check_choice(f"action of key {k!r}", action, tuple("NESWFLR"))
            self.keys[k] = action
        if isinstance(world, Maze):
            self.level, self.maze, self.grid = "cell", world, None
            self.shape = world.shape
        elif isinstance(world, OccupancyGrid):
            self.level, self.maze, self.grid = "grid", world.maze, world
            self.shape = world.shape
        else:
            raise ParameterError(f"world must be a Maze or an OccupancyGrid, "
                                 f"got {type(world).__name__}")
        self.world = world
        if self.maze is None and (start is None or goals is None):
            raise ParameterError("a plain grid (not widened from a maze) needs start= and goals=")
        if start is None:
            start = self.maze.start if self.level == "cell" else self.grid.maze_centre(
                self.maze.start)
        self.start = self._check_pos("start", start)
        if goals is None:
            goals = self.maze.goals
        self.goals = tuple((int(r), int(c)) for r, c in goals)
        if not self.goals:
            raise ParameterError("goals must hold at least one cell")
        if float(heading) % 90:
            raise ParameterError(f"heading must be a multiple of 90 degrees, got {heading!r}")
        self.heading0 = float(heading) % 360.0
        self.heading = self.heading0
        self.position = self.start
        self.clock = clock or time.monotonic
        self.walker = dict(walker or {"kind": "person", "name": "", "settings": {}})
        self.walker["settings"] = {**self.walker.get("settings", {}), "mode": self.mode,
                                   "controls": self.controls}
        if self.mode in ("torch", "trail", "theseus") and self.radius != 1:
            self.walker["settings"]["radius"] = self.radius
        self.steps: list[Step] = []
        self.events: list[Event] = []
        self._hint_field: tuple | None = None
        # (action, position, heading before it) of each move that undo may take back
        self._undo: list[tuple[str, tuple[int, int], float]] = []
        self.moves = 0
        self.bumps = 0
        self._t0 = float(self.clock())
        self._t_end: float | None = None
        self.seen = np.zeros(self.shape, bool)
        self.seen |= self._sensed(self.position)
        self.thread: list[tuple[int, int]] = [self.start]
        self.reached_goal = self._at_goal(self.position)
        if self.reached_goal:
            self._t_end = 0.0

    # ------------------------------------------------------------ state
    def _check_pos(self, name: str, pos) -> tuple[int, int]:
        r, c = (int(v) for v in pos)
        if not (0 <= r < self.shape[0] and 0 <= c < self.shape[1]):
            raise ParameterError(f"{name} {tuple(pos)!r} is outside the "
                                 f"{self.shape[0]}x{self.shape[1]} {self.level} map")
        if self.level == "grid" and self.grid.occupied[r, c]:
            raise ParameterError(f"{name} {tuple(pos)!r} is an occupied grid cell")
        return r, c

    def maze_cell(self, pos: Sequence[int] | None = None) -> tuple[int, int]:
        """Maze cell of a position (default the current one)."""
        pos = self.position if pos is None else pos
        if self.level == "grid" and self.grid.widening is not None:
            return self.grid.widening.maze_cell(pos)
        return int(pos[0]), int(pos[1])

    def _at_goal(self, pos) -> bool:
        return self.maze_cell(pos) in self.goals

    @property
    def elapsed(self) -> float:
        """Seconds since the game began (frozen once the goal is reached)."""
        if self._t_end is not None:
            return self._t_end
        return float(self.clock()) - self._t0

    def start_clock(self) -> None:
        """Restart the clock at 0 (only before the first key: a window calls this
        when it opens, so setting up does not count as walking time)."""
        if not self.steps and not self.reached_goal:
            self._t0 = float(self.clock())

    def set_elapsed(self, seconds: float) -> None:
        """Set the clock so that :attr:`elapsed` reads ``seconds`` now (a walk
        continued after a restart goes on from its record's duration).

        >>> g = Game(Maze.from_edges(1, 2, [0], [1]), clock=lambda: 100.0)
        >>> g.set_elapsed(7.5); g.elapsed
        7.5
        """
        if self._t_end is None:
            self._t0 = float(self.clock()) - float(seconds)

    @property
    def finished(self) -> bool:
        """True once the goal is reached; further keys are ignored."""
        return self.reached_goal

    def _sensed(self, pos) -> np.ndarray:
        """What stays known after visiting ``pos`` (``trail`` and ``explorer``)."""
        if self.mode != "explorer":
            return self._around(pos)
        # a maze cell (or its block with the wall bands) alone shows its walls;
        # a plain grid cell does not, so there the 8 grid neighbours are sensed
        return self._around(pos, 0 if self.maze is not None else 1)

    def _around(self, pos, k: int | None = None) -> np.ndarray:
        """Mask of the neighbourhood of ``pos`` at the game's level."""
        mask = np.zeros(self.shape, bool)
        k = self.radius if k is None else k
        if self.level == "grid" and self.grid.widening is not None:
            w = self.grid.widening
            mr, mc = w.maze_cell(pos)
            r0, r1 = max(mr - k, 0), min(mr + k, w.rows - 1)
            c0, c1 = max(mc - k, 0), min(mc + k, w.cols - 1)
            # the blocks of those maze cells plus the wall bands around them
            mask[r0 * w.pitch:(r1 + 1) * w.pitch + w.wall,
                 c0 * w.pitch:(c1 + 1) * w.pitch + w.wall] = True
        else:
            r, c = pos
            mask[max(r - k, 0):r + k + 1, max(c - k, 0):c + k + 1] = True
        return mask

    @property
    def visible(self) -> np.ndarray:
        """Boolean mask (shape of the map at the game's level) of what the player sees."""
        if self.mode == "full":
            return np.ones(self.shape, bool)
        if self.mode == "torch":
            return self._around(self.position)
        if self.mode == "sage-torch":
            return self._around(self.position, 0)
        if self.mode == "sage-explorer":
            return self._own_cell()
        if self.mode == "theseus":
            mask = self._around(self.position)
            rows, cols = zip(*self.thread)
            mask[list(rows), list(cols)] = True
            return mask
        return self.seen.copy()

    def _own_cell(self) -> np.ndarray:
        """Mask of the player's cell alone (on a widened grid its maze cell's
        free block, no wall bands)."""
        mask = np.zeros(self.shape, bool)
        mask[self.position] = True
        if self.level == "grid" and self.grid.widening is not None:
            w = self.grid.widening
            mask[w.block(w.maze_cell(self.position))] = True
        return mask

    def picture_visible(self) -> np.ndarray:
        """:attr:`visible` on the picture lattice a page or window draws.

        At cell level that is the ``(2r+1) x (2c+1)`` matrix of
        :meth:`robomaze.maze.Maze.to_matrix`: a visible cell shows its own
        square and the walls and posts around it (its 3x3 block of the
        matrix), except in ``sage-explorer``, which shows the cell's own
        square only. At grid level it is :attr:`visible` itself.

        >>> g = Game(Maze.from_edges(1, 3, [0, 1], [1, 2]), mode="explorer")
        >>> g.picture_visible().astype(int).tolist()
        [[1, 1, 1, 0, 0, 0, 0], [1, 1, 1, 0, 0, 0, 0], [1, 1, 1, 0, 0, 0, 0]]
        """
        vis = self.visible
        if self.level != "cell":
            return vis
        rows, cols = self.shape
        out = np.zeros((2 * rows + 1, 2 * cols + 1), bool)
        if self.mode == "sage-explorer":
            out[1::2, 1::2] = vis
            return out
        for dr in range(3):
            for dc in range(3):
                out[dr:dr + 2 * rows:2, dc:dc + 2 * cols:2] |= vis
        return out

    def can_move(self, pos: Sequence[int], side: str) -> bool:
        """Whether one step from ``pos`` towards ``side`` is open."""
        r, c = pos
        dr, dc = DIRECTIONS[side]
        rr, cc = r + dr, c + dc
        if not (0 <= rr < self.shape[0] and 0 <= cc < self.shape[1]):
            return False
        if self.level == "cell":
            return not self.maze.wall((r, c), side)
        return not self.grid.occupied[rr, cc]

    # ------------------------------------------------------------ events
    def key(self, name: str) -> str:
        """Handle one key event (a matplotlib key name such as ``"up"`` or ``"w"``).

        Returns
        -------
        str
            ``"moved"``, ``"turned"``, ``"bump"`` (refused by a wall, counted
            not executed), ``"goal"`` (this move reached the goal) or
            ``"ignored"`` (unbound key, or the game is over).
        """
        action = self.keys.get(name)
        if action is None or self.finished:
            return "ignored"
        return self.act(action)

    def act(self, action: str, t: float | None = None) -> str:
        """Perform one action (``N E S W F L R``); see :meth:`key`.

        ``t`` is the time of the action in seconds since the walk began, when
        the player's own clock knows it better than :attr:`elapsed` (a browser
        sends its key times); it is kept non-decreasing.
        """
        check_choice("action", action, tuple("NESWFLR"))
        if self.finished:
            return "ignored"
        t = self._time(t)
        before = (action, self.position, self.heading)
        if action in "LR":
            self.heading = (self.heading + (90.0 if action == "L" else -90.0)) % 360.0
            self._log(t, action)
            self._undo.append(before)
            return "turned"
        side = _SIDE_OF_HEADING[int(self.heading)] if action == "F" else action
        if not self.can_move(self.position, side):
            self.bumps += 1
            self.steps.append(Step(t, action, *self.position, self.heading, True))
            return "bump"
        dr, dc = DIRECTIONS[side]
        self.position = (self.position[0] + dr, self.position[1] + dc)
        self.heading = HEADINGS[side]
        self.seen |= self._sensed(self.position)
        self._wind(self.position)
        self._log(t, action)
        self._undo.append(before)
        if self._at_goal(self.position):
            self.reached_goal = True
            self._t_end = t
            return "goal"
        return "moved"

    def _time(self, t: float | None) -> float:
        last = max(self.steps[-1].t if self.steps else 0.0,
                   self.events[-1].t if self.events else 0.0)
        if t is None:
            return max(self.elapsed, last)
        t = float(t)
        if not np.isfinite(t) or t < 0:
            raise ParameterError(f"t must be a finite number of seconds >= 0, got {t!r}")
        return max(t, last)

    def undo(self, t: float | None = None) -> str:
        """Take back the last executed move that was not itself taken back.

        The undo is a real move -- the reverse step (or turn) -- so the record
        and the score count it like any other; a robot's heading returns to
        what it was. Returns ``"undone"``, or ``"ignored"`` when there is
        nothing to take back or the game is over.

        >>> g = Game(Maze.from_edges(1, 3, [0, 1], [1, 2]), clock=lambda: 0.0)
        >>> g.act("E"), g.undo(), g.undo(), g.position, g.moves
        ('moved', 'undone', 'ignored', (0, 0), 2)
        >>> [s.move for s in g.steps]
        ['E', 'W']
        """
        if self.finished or not self._undo:
            return "ignored"
        t = self._time(t)
        action, pos, heading = self._undo.pop()
        if action in "LR":
            self.heading = heading
            self._log(t, "R" if action == "L" else "L")
            return "undone"
        d = (pos[0] - self.position[0], pos[1] - self.position[1])
        side = next(k for k, v in DIRECTIONS.items() if tuple(v) == d)
        self.position, self.heading = pos, heading
        self.seen |= self._sensed(pos)
        self._wind(pos)
        self._log(t, side)
        return "undone"

    @property
    def hints(self) -> int:
        """Hints asked for so far."""
        return len(self.events)

    def hint(self, t: float | None = None, *, n: int = HINT_CELLS) -> list[tuple[int, int]]:
        """Ask for a hint: the next ``n`` cells of the shortest route to the goal.

        The cells are maze cells (grid cells on a plain grid), from the
        walker's current one, on the route the score measures against
        (:func:`robomaze.traverse.hint.hint_cells`). The hint is recorded as an
        event at time ``t`` (not a move). At the goal nothing is recorded and
        the list is empty.

        >>> g = Game(Maze.from_edges(1, 4, [0, 1, 2], [1, 2, 3]), clock=lambda: 0.0)
        >>> g.hint(0.5), g.hints, g.moves
        ([(0, 1), (0, 2), (0, 3)], 1, 0)
        """
        if self.finished:
            return []
        t = self._time(t)
        world = self.maze if self.maze is not None else self.grid
        if self._hint_field is None:
            self._hint_field = goal_distance(world, self.goals)
        cells = hint_cells(world, self.goals, self.maze_cell(), n=n, field=self._hint_field)
        self.events.append(Event(t, "hint", *self.position, len(self.steps)))
        return cells

    def _wind(self, pos: tuple[int, int]) -> None:
        """Extend Ariadne's thread to ``pos``, or wind it back if ``pos`` is on it."""
        try:
            i = self.thread.index(pos)
        except ValueError:
            self.thread.append(pos)
        else:
            del self.thread[i + 1:]

    def _log(self, t: float, action: str) -> None:
        self.moves += 1
        self.steps.append(Step(t, action, *self.position, self.heading))

    # ------------------------------------------------------------ output
    def status(self) -> str:
        """One line for a window title: moves, bumps, time and the goal."""
        s = f"moves {self.moves}  bumps {self.bumps}  time {self.elapsed:.1f} s"
        s += f"  hints {self.hints}" if self.events else ""
        return s + ("  -- goal reached!" if self.reached_goal else "")

    def record(self, *, source: dict | None = None) -> TraversalRecord:
        """The walk so far as a :class:`TraversalRecord`."""
        return TraversalRecord(level=self.level, maze=self.maze, grid=self.grid,
                               walker=self.walker, start=self.start, goals=self.goals,
                               steps=tuple(self.steps), heading=self.heading0,
                               reached_goal=self.reached_goal,
                               # page times may run ahead of this clock: the duration
                               # covers every line, or the record would not read back
                               duration=max(self.elapsed, self._time(None)) if self.events
                               else self.elapsed,
                               source=source, events=tuple(self.events))
