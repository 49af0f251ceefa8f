"""Start / goal placement and the entrance and exit openings."""

from __future__ import annotations

from .._validate import as_rng, check_choice
from ..errors import ParameterError
from ..maze import Maze

__all__ = ["place", "PLACEMENTS"]

#: Placement names accepted by :func:`place` (``"center"`` is an alias).
PLACEMENTS = ("corners", "sides", "centre")


def centre_cells(rows: int, cols: int) -> tuple[tuple[int, int], ...]:
    """The 2x2 centre of an even-sized maze; one centre row/column when odd.

    >>> centre_cells(4, 4)
    ((1, 1), (1, 2), (2, 1), (2, 2))
    >>> centre_cells(5, 4)
    ((2, 1), (2, 2))
    """
    rr = (rows // 2 - 1, rows // 2) if rows % 2 == 0 else (rows // 2,)
    cc = (cols // 2 - 1, cols // 2) if cols % 2 == 0 else (cols // 2,)
    return tuple((r, c) for r in rr for c in cc)


def place(maze: Maze, placement: str = "corners", *, rng=None) -> Maze:
    """Put the start and goal(s) in the maze and open the outer wall for them.

    ``"corners"``
        start ``(0, 0)`` with an entrance in its west wall, goal
        ``(rows-1, cols-1)`` with an exit in its east wall.
    ``"sides"``
        start a uniformly random cell of the west column (entrance west),
        goal a uniformly random cell of the east column (exit east).
    ``"centre"`` (alias ``"center"``)
        micromouse style: start the south-west corner ``(rows-1, 0)``, goals
        the 2x2 centre block (the middle row and/or column when a size is
        odd, so a 5x5 maze has the single goal ``(2, 2)``); no openings,
        as in a micromouse maze.

    Any openings the maze had are replaced.

    Parameters
    ----------
    maze : Maze
        The maze to place into.
    placement : {"corners", "sides", "centre"}
        Placement style.
    rng : numpy.random.Generator, int or None
        Used by ``"sides"`` only.

    Returns
    -------
    Maze
        The same walls with the new start, goals and openings.

    Raises
    ------
    ParameterError
        If ``maze`` is not a Maze or ``placement`` is unknown.

    Examples
    --------
    >>> m = place(Maze.full(3, 4), "corners")
    >>> m.start, m.goals, m.openings
    ((0, 0), ((2, 3),), ((0, 0, 'W'), (2, 3, 'E')))
    >>> m = place(Maze.full(6, 6), "centre")
    >>> m.start, m.goals, m.openings
    ((5, 0), ((2, 2), (2, 3), (3, 2), (3, 3)), ())
    """
    if not isinstance(maze, Maze):
        raise ParameterError(f"maze must be a robomaze.maze.Maze, got {type(maze).__name__}")
    if placement == "center":
        placement = "centre"
    check_choice("placement", placement, PLACEMENTS)
    rows, cols = maze.shape
    if placement == "corners":
        start, goal = (0, 0), (rows - 1, cols - 1)
        return maze.replace(start=start, goals=(goal,),
                            openings=((0, 0, "W"), (rows - 1, cols - 1, "E")))
    if placement == "sides":
        gen = as_rng(rng)
        r0, r1 = (int(v) for v in gen.integers(0, rows, size=2))
        return maze.replace(start=(r0, 0), goals=((r1, cols - 1),),
                            openings=((r0, 0, "W"), (r1, cols - 1, "E")))
    return maze.replace(start=(rows - 1, 0), goals=centre_cells(rows, cols), openings=())
