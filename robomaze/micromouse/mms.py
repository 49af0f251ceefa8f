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

Statistics (:class:`~robomaze.metrics.micromouse.MmsStats`)
-----------------------------------------------------------
As mms's source computes them (``src/Stats.cpp`` and ``Window.cpp``; the
README's cell units are out of date): every distance is in **half cells**
-- ``moveForward n`` adds ``2n``, ``moveForwardHalf n`` adds ``n``, the
distance *asked for*, even when the move crashes part way (a move that
cannot start adds nothing). A move of ``d`` half cells has an effective
distance of ``d`` if ``d <= 2`` else ``d / 2 + 1``. Every turn command (45
or 90 degrees) is one turn. A *run* starts when a move starts in cell
``(0, 0)``; every movement (move or turn) that ends in a goal cell
finishes the run (``solved``), one that ends back in ``(0, 0)`` abandons
it; the best run has the least ``turns + effective distance``.
``ackReset`` adds a 15-point penalty to the next run's (and the total)
effective distance. ``score = best run turns + best run effective distance
+ 0.1 * (total turns + total effective distance)``, 2000 until a run has
finished. mms keeps the figures in 32-bit floats and prints them with
``QString::number`` (``%.6g``); ``getStat`` answers the integer figures as
integers and ``-1`` while a best run is not yet recorded. Wall queries
with a distance below 1 (``wallFront 0``) look at the wall right ahead, as
``wallFront 1`` does: mms checks the first half cell before counting.
"""

from __future__ import annotations

from ..maze import Maze
# the statistics panel's rules are a metric: robomaze.metrics.micromouse
from ..metrics.micromouse import STAT_NAMES, MmsStats, effective_half_steps
from .world import wall_array

__all__ = ["MmsMouse", "MmsStats", "STAT_NAMES", "mms_centre", "effective_half_steps"]

#: (dx, dy) per heading in half cells, N NE E SE S SW W NW.
DX = (0, 1, 1, 1, 0, -1, -1, -1)
DY = (1, 1, 0, -1, -1, -1, 0, 1)

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
