"""The mms simulator's world, on its half-cell grid, and its statistics panel.

This is our reading of the public mms documentation (github.com/mackorone/mms,
"Mouse API" and "Scorekeeping"), written for robomaze.

Half-cell grid
--------------
Positions are *semi positions* ``(sx, sy)`` in half cells, micromouse frame
(``x`` east, ``y`` north, ``(0, 0)`` the south-west corner): the centre of
cell ``(x, y)`` is ``(2x + 1, 2y + 1)``; a point with one even coordinate is
the middle of a cell edge. The mouse starts at the centre of cell ``(0, 0)``
facing north, whatever the maze file says. Headings are eighths of a turn,
clockwise from north: ``0 N, 1 NE, 2 E, 3 SE, 4 S, 5 SW, 6 W, 7 NW``. The
cell of a semi position is ``(sx // 2, sy // 2)`` (as mms rounds it).

A wall query ``wallFront k`` asks whether a wall lies within ``k`` half
cells ahead (``k = 1``, the default, is the wall of the mouse's own cell);
``wallFrontLeft`` / ``wallFrontRight`` look 45 degrees off the heading and
``wallBackLeft`` / ``wallBackRight`` 135 degrees. From a cell centre a
diagonal look or move meets the corner post at once; from the middle of an
edge it crosses the neighbouring cells' walls.

``moveForward n`` drives ``2n`` half cells and ``moveForwardHalf n`` drives
``n``. A move with a wall right ahead, or ``n < 1``, is a ``crash`` that goes
nowhere; a move with a wall further on drives up to that wall, then answers
``crash``.

Statistics (:class:`MmsStats`)
------------------------------
As documented: ``moveForward n`` adds ``n`` cells of distance and an
effective distance of ``n`` if ``n <= 2`` else ``n / 2 + 1``; every turn
command (45 or 90 degrees) is one turn. A *run* starts when a move starts
in cell ``(0, 0)`` and finishes when a movement ends in a goal cell (or is
abandoned when one ends back in ``(0, 0)``); the best run has the least
``turns + effective distance``. ``ackReset`` adds a 15-point penalty to the
next run's (and the total) effective distance. ``score = best run turns +
best run effective distance + 0.1 * (total turns + total effective
distance)``, 2000 until a run has finished. A half step is half a cell of
distance (the documentation says nothing of it; mms's own source, at the
time of writing, counts every distance in half cells, a known to-do there --
we follow the documented cell units).
"""

from __future__ import annotations

from ..maze import Maze
from .world import wall_array

__all__ = ["MmsMouse", "MmsStats", "STAT_NAMES", "mms_centre", "effective_half_steps"]

#: (dx, dy) per heading in half cells, N NE E SE S SW W NW.
DX = (0, 1, 1, 1, 0, -1, -1, -1)
DY = (1, 1, 0, -1, -1, -1, 0, 1)

#: getStat names and whether mms reports them as integers.
STAT_NAMES = {
    "total-distance": True, "total-turns": True, "best-run-distance": True,
    "best-run-turns": True, "current-run-distance": True, "current-run-turns": True,
    "total-effective-distance": False, "best-run-effective-distance": False,
    "current-run-effective-distance": False, "score": False,
}

RESET_PENALTY = 15.0


def mms_centre(rows: int, cols: int) -> tuple[tuple[int, int], ...]:
    """mms's goal: the centre cells ``(row, col)`` (4, 2 or 1 by the sizes' parity).

    >>> mms_centre(4, 4)
    ((1, 1), (1, 2), (2, 1), (2, 2))
    >>> mms_centre(5, 4)
    ((2, 1), (2, 2))
    """
    rr = (rows // 2 - 1, rows // 2) if rows % 2 == 0 else (rows // 2,)
    cc = (cols // 2 - 1, cols // 2) if cols % 2 == 0 else (cols // 2,)
    return tuple((r, c) for r in rr for c in cc)


def effective_half_steps(half: int) -> float:
    """Effective distance (cells) of one move of ``half`` half cells.

    >>> effective_half_steps(2), effective_half_steps(4), effective_half_steps(10)
    (1.0, 2.0, 3.5)
    """
    cells = half / 2.0
    return cells if cells <= 2 else cells / 2.0 + 1.0


class MmsStats:
    """mms's statistics panel (see the module notes); distances in half cells inside.

    >>> s = MmsStats()
    >>> s.start_run(); s.add_distance(10); s.finish_run()
    >>> s.get("best-run-effective-distance"), s.get("total-distance"), s.get("score")
    ('3.5', '5', '3.85')
    """

    def __init__(self) -> None:
        self.total_half = 0
        self.total_eff = 0.0
        self.total_turns = 0
        self.run_half = 0
        self.run_eff = 0.0
        self.run_turns = 0
        self.best = None                 # (turns, effective, half steps)
        self.started = False
        self.penalty = 0.0
        self.runs_finished = 0

    def start_run(self) -> None:
        self.run_half, self.run_turns = 0, 0
        self.run_eff = self.penalty
        self.total_eff += self.penalty
        self.penalty = 0.0
        self.started = True

    def add_distance(self, half: int) -> None:
        eff = effective_half_steps(half)
        self.total_half += half
        self.total_eff += eff
        if self.started:
            self.run_half += half
            self.run_eff += eff

    def add_turn(self) -> None:
        self.total_turns += 1
        if self.started:
            self.run_turns += 1

    def finish_run(self) -> None:
        # mms calls this at the end of every movement in the goal; a run
        # already finished adds nothing, so the best stays as it was.
        if self.started:
            self.runs_finished += 1
        self.started = False
        if self.best is None or self.run_turns + self.run_eff < self.best[0] + self.best[1]:
            self.best = (self.run_turns, self.run_eff, self.run_half)

    def end_unfinished_run(self) -> None:
        self.started = False

    def penalize_for_reset(self) -> None:
        self.penalty = RESET_PENALTY

    @property
    def score(self) -> float:
        if self.best is None:
            return 2000.0
        return self.best[0] + self.best[1] + 0.1 * (self.total_turns + self.total_eff)

    def values(self) -> dict:
        """Every stat as a number (None where mms shows no value yet)."""
        b = self.best
        return {
            "total-distance": self.total_half / 2, "total-turns": self.total_turns,
            "best-run-distance": None if b is None else b[2] / 2,
            "best-run-turns": None if b is None else b[0],
            "current-run-distance": self.run_half / 2, "current-run-turns": self.run_turns,
            "total-effective-distance": self.total_eff,
            "best-run-effective-distance": None if b is None else b[1],
            "current-run-effective-distance": self.run_eff, "score": self.score,
        }

    def get(self, name: str) -> str:
        """The answer to ``getStat name``: ``-1`` while there is no value."""
        v = self.values()[name]
        if v is None:
            return "-1"
        if STAT_NAMES[name] and float(v).is_integer():
            return str(int(v))
        return f"{round(float(v), 6):.6g}"


class MmsMouse:
    """The mouse in a maze, moved and queried like the mms simulator.

    Parameters
    ----------
    maze : Maze
        The true walls (boundary closed).
    goals : iterable of (row, col)
        Goal cells, robomaze ``(row, col)``.

    Examples
    --------
    >>> m = MmsMouse(Maze.empty(2, 2), goals=[(0, 1)])
    >>> m.wall(0), m.wall(0, 2), m.wall(0, 3), m.wall(-2), m.wall(2)
    (False, False, True, True, False)
    >>> m.move(2), m.cell, m.move(2), m.cell
    ((True, 2), (0, 1), (False, 0), (0, 1))
    """

    def __init__(self, maze: Maze, goals) -> None:
        self.rows, self.cols = maze.shape
        self.walls = wall_array(maze)
        self.goal_cells = {(int(c), self.rows - 1 - int(r)) for r, c in goals}
        self.stats = MmsStats()
        self.sx, self.sy, self.heading = 1, 1, 0

    # -- geometry ---------------------------------------------------------
    @property
    def cell(self) -> tuple[int, int]:
        """Micromouse ``(x, y)`` of the mouse's cell."""
        return self.sx // 2, self.sy // 2

    def cell_rc(self) -> tuple[int, int]:
        """robomaze ``(row, col)`` of the mouse's cell."""
        x, y = self.cell
        return self.rows - 1 - y, x

    def _tile_wall(self, x: int, y: int, side: int) -> bool:
        # side 0..3 = N E S W; robomaze rows run south, so north is row - 1.
        return bool(self.walls[self.rows - 1 - y, x, side])

    def _wall_at(self, sx: int, sy: int, h: int) -> bool:
        """Whether the mouse at ``(sx, sy)`` heading ``h`` meets a wall within half a cell."""
        if not (0 <= sx <= 2 * self.cols and 0 <= sy <= 2 * self.rows):
            return True
        x, y = sx // 2, sy // 2
        odd_x, odd_y = sx % 2, sy % 2
        if odd_x and odd_y:                          # a cell centre
            return h % 2 == 1 or self._tile_wall(x, y, h // 2)
        if not odd_x and not odd_y:                  # a post (never stood on)
            return True
        if not odd_x:                                # middle of a west/east edge
            if h in (0, 4):
                return True                          # along the edge: a post
            if h in (2, 6):
                return False                         # into a cell
            east = h in (1, 3)
            if sx == (2 * self.cols if east else 0):
                return False                         # no walls outside the maze
            return self._tile_wall(x if east else x - 1, y, 0 if h in (1, 7) else 2)
        if h in (2, 6):                              # middle of a south/north edge
            return True
        if h in (0, 4):
            return False
        north = h in (1, 7)
        if sy == (2 * self.rows if north else 0):
            return False
        return self._tile_wall(x, y if north else y - 1, 1 if h in (1, 3) else 3)

    def wall(self, rel: int, half_steps_away: int = 1) -> bool:
        """mms's wall query ``rel`` eighths clockwise of the heading, ``k`` half cells out."""
        h = (self.heading + rel) % 8
        sx, sy = self.sx, self.sy
        if self._wall_at(sx, sy, h):
            return True
        for _ in range(half_steps_away - 1):
            sx, sy = sx + DX[h], sy + DY[h]
            if self._wall_at(sx, sy, h):
                return True
        return False

    # -- motion -----------------------------------------------------------
    def move(self, half: int) -> tuple[bool, int]:
        """Drive ``half`` half cells; ``(completed, half cells driven)`` (mms's rules)."""
        if half < 1 or self.wall(0):
            return False, 0
        allowed = 1
        while allowed < half and not self.wall(0, allowed + 1):
            allowed += 1
        if self.cell == (0, 0):
            self.stats.start_run()
        self.stats.add_distance(half)      # mms counts what was asked for
        self.sx += DX[self.heading] * allowed
        self.sy += DY[self.heading] * allowed
        self._movement_done()
        return allowed == half, allowed

    def turn(self, eighths: int) -> None:
        """Turn ``eighths`` (+1 = 45 degrees right, -2 = 90 degrees left)."""
        self.heading = (self.heading + eighths) % 8
        self.stats.add_turn()
        self._movement_done()

    def reset(self) -> None:
        """``ackReset``: back to the start facing north, with the reset penalty."""
        self.sx, self.sy, self.heading = 1, 1, 0
        self.stats.penalize_for_reset()
        self.stats.end_unfinished_run()

    def _movement_done(self) -> None:
        if self.cell in self.goal_cells:
            self.stats.finish_run()
        elif self.cell == (0, 0):
            self.stats.end_unfinished_run()
