"""A cell-level mouse world, like the competition simulators.

The mouse lives in a :class:`~robomaze.maze.Maze`. It starts in the maze's
start cell (micromouse ``(0, 0)``, the south-west corner, for micromouse
text and ``.num`` files; a JSON maze names its own) facing north (the hosted
mms world of :mod:`robomaze.micromouse.host` always starts in ``(0, 0)``); it senses the walls in front, to the left and
to the right of its cell; it moves forward one or ``n`` cells or turns 90
degrees. A move that would run into a wall is a *crash*: it is reported and
counted, and the mouse does not move. Boundary openings count as walls (a
micromouse maze is enclosed). ``log`` records the commands in the form
:func:`robomaze.metrics.micromouse.mms_stats` scores.

Headings are ``0 = N, 1 = E, 2 = S, 3 = W`` (clockwise).
"""

from __future__ import annotations

import numpy as np

from .._validate import check_int
from ..errors import ParameterError
from ..maze import Maze

__all__ = ["MouseWorld", "HEADINGS", "DR", "DC", "wall_array"]

HEADINGS = "NESW"
DR = (-1, 0, 1, 0)
DC = (0, 1, 0, -1)


def wall_array(maze: Maze) -> np.ndarray:
    """``(rows, cols, 4)`` bool: wall on side N, E, S, W of each cell (boundary closed).

    >>> wall_array(Maze.empty(1, 2))[0, 0].tolist()
    [True, False, True, True]
    """
    rows, cols = maze.shape
    w = np.ones((rows, cols, 4), bool)
    w[:, :, 1] = maze.east
    w[:, :, 2] = maze.south
    w[:, 1:, 3] = maze.east[:, :-1]
    w[1:, :, 0] = maze.south[:-1, :]
    w[:, -1, 1] = True
    w[-1, :, 2] = True
    return w


class MouseWorld:
    """The true maze plus the mouse's pose and counters.

    Parameters
    ----------
    maze : Maze
    heading : {"N", "E", "S", "W"}
        Initial heading (default north).

    Examples
    --------
    >>> w = MouseWorld(Maze.empty(2, 2, start=(1, 0)))
    >>> w.wall_front(), w.wall_left(), w.wall_right()
    (False, True, False)
    >>> w.move_forward(), w.cell, w.move_forward(), w.crashes
    (True, (0, 0), False, 1)
    """

    def __init__(self, maze: Maze, *, heading: str = "N") -> None:
        if not isinstance(maze, Maze):
            raise ParameterError(f"maze must be a Maze, got {type(maze).__name__}")
        if heading not in HEADINGS:
            raise ParameterError(f"heading must be one of N, E, S, W, got {heading!r}")
        self.maze = maze
        self.walls = wall_array(maze)
        self.start = maze.start
        self.start_heading = HEADINGS.index(heading)
        self.visited = np.zeros(maze.shape, bool)
        self.reset(counters=True)

    @property
    def rows(self) -> int:
        return self.maze.rows

    @property
    def cols(self) -> int:
        return self.maze.cols

    def reset(self, *, counters: bool = False) -> None:
        """Put the mouse back on the start (as after a crash-and-reset)."""
        self.cell = self.start
        self.heading = self.start_heading
        self.visited[self.start] = True
        if counters:
            self.moves = 0
            self.turns = 0
            self.crashes = 0
            self.trace = [self.start]
            self.log = []
            self.visited[:] = False
            self.visited[self.start] = True
        else:
            self.trace.append(self.start)
            self.log.append(("R",))

    def is_wall(self, side: int) -> bool:
        """Wall on absolute side ``side`` (0..3) of the mouse's cell."""
        r, c = self.cell
        return bool(self.walls[r, c, side % 4])

    def wall_front(self) -> bool:
        return self.is_wall(self.heading)

    def wall_right(self) -> bool:
        return self.is_wall(self.heading + 1)

    def wall_left(self) -> bool:
        return self.is_wall(self.heading + 3)

    def wall_back(self) -> bool:
        return self.is_wall(self.heading + 2)

    def turn_left(self, n: int = 1) -> None:
        """Turn 90 degrees left ``n`` times."""
        n = check_int("n", n, min_value=1)
        self.heading = (self.heading - n) % 4
        self.turns += n
        self.log.extend([("T",)] * n)

    def turn_right(self, n: int = 1) -> None:
        """Turn 90 degrees right ``n`` times."""
        n = check_int("n", n, min_value=1)
        self.heading = (self.heading + n) % 4
        self.turns += n
        self.log.extend([("T",)] * n)

    def face(self, side: int) -> int:
        """Turn (by the shorter way) to face absolute side ``side``; returns turns made."""
        d = (side - self.heading) % 4
        if d == 1:
            self.turn_right()
        elif d == 3:
            self.turn_left()
        elif d == 2:
            self.turn_right(2)
        return (0, 1, 2, 1)[d]

    def move_forward(self, n: int = 1) -> bool:
        """Drive ``n`` cells straight on; False (and no motion) on a crash."""
        n = check_int("n", n, min_value=1)
        r, c = self.cell
        h = self.heading
        for _ in range(n):
            if self.walls[r, c, h]:
                self.crashes += 1
                return False
            r, c = r + DR[h], c + DC[h]
        r, c = self.cell
        entered = []
        for _ in range(n):
            r, c = r + DR[h], c + DC[h]
            self.visited[r, c] = True
            entered.append((r, c))
        self.trace.extend(entered)
        self.log.append(("F", entered))
        self.cell = (r, c)
        self.moves += n
        return True
