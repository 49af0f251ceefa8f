"""Start / goal placement and the entrance and exit openings."""

from __future__ import annotations

import numpy as np

from .._seed import as_rng

from .._validate import check_choice
from ..errors import NoPathError, ParameterError
from ..maze import DIRECTIONS, SIDES, Maze

__all__ = ["place", "PLACEMENTS", "contest_exit", "delphi_walk"]

#: Placement names accepted by :func:`place` (``"center"`` is an alias).
PLACEMENTS = ("corners", "sides", "centre", "contest", "delphi")


def contest_exit(maze: Maze, start) -> tuple[int, int] | None:
    """The contest program's exit: the first cell of the east (right) border
    that a depth-first search from ``start`` reaches, or None if none is reachable.

    The search is the classic recursive one: from each cell it tries the
    neighbours in the order north, east, south, west and goes as deep as it
    can before backing up; a cell counts as reached when the search enters it.

    >>> m = Maze.empty(3, 3)
    >>> contest_exit(m, (1, 0))   # north first: up to (0,0), then east along row 0
    (0, 2)
    >>> contest_exit(Maze.full(2, 2), (0, 0)) is None
    True
    """
    rows, cols = maze.shape
    seen = {tuple(start)}
    stack = [(tuple(start), iter(DIRECTIONS.items()))]
    if start[1] == cols - 1:
        return tuple(start)
    while stack:
        cell, it = stack[-1]
        for side, (dr, dc) in it:
            nxt = (cell[0] + dr, cell[1] + dc)
            if (0 <= nxt[0] < rows and 0 <= nxt[1] < cols and nxt not in seen
                    and not maze.wall(cell, side)):
                if nxt[1] == cols - 1:
                    return nxt
                seen.add(nxt)
                stack.append((nxt, iter(DIRECTIONS.items())))
                break
        else:
            stack.pop()
    return None


def delphi_walk(maze: Maze, start, *, rng=None) -> list[tuple[int, int]] | None:
    """The Delphi program's exit search: its ``DFS`` walk and ``Regresa``.

    The walk keeps a stack of cells from ``start``. While the cell on top
    has open neighbours not yet visited, it steps to one of them drawn
    uniformly at random (the candidates listed N, E, S, W). Only when it is
    stuck does it ask whether the stuck cell is in the last column: if so,
    that cell is the exit and the stack is the route to it; if not,
    ``Regresa`` pops the stack back to a cell that still has an unvisited
    open neighbour (the popped cells are not asked) and the walk goes on.
    So every exit is a last-column cell where the walk got stuck: in a
    perfect maze, a dead end of the last column.

    The walk draws one float per forward step, all drawn up front
    (``rows * cols`` of them, one per cell it can enter).

    Parameters
    ----------
    maze : Maze
        The maze; its openings are ignored (the walk stays inside).
    start : (int, int)
        Where the walk starts (the entrance cell).
    rng : numpy.random.Generator, int or None
        Source of the walk's choices.

    Returns
    -------
    list of (int, int) or None
        The stack when the walk stopped, from ``start`` to the exit; None
        when the walk backs up past the start without ever getting stuck in
        the last column (Delphi's program has no exit then).

    Examples
    --------
    A dead end at (1, 1) and a corridor round by the north: (0, 2) is in
    the last column but not where the walk gets stuck, whatever it draws.

    >>> m = Maze.from_edges(2, 3, [3, 0, 0, 1, 2], [4, 3, 1, 2, 5])
    >>> [delphi_walk(m, (1, 0), rng=seed) for seed in (0, 1)]
    [[(1, 0), (0, 0), (0, 1), (0, 2), (1, 2)], [(1, 0), (0, 0), (0, 1), (0, 2), (1, 2)]]
    """
    rows, cols = maze.shape
    start = (int(start[0]), int(start[1]))
    u = as_rng(rng).random(rows * cols)
    seen = np.zeros((rows, cols), bool)
    seen[start] = True
    stack = [start]
    draws = 0

    def fresh(cell):
        return [nxt for nxt in ((cell[0] + DIRECTIONS[s][0], cell[1] + DIRECTIONS[s][1])
                                for s in SIDES if not maze.wall(cell, s))
                if 0 <= nxt[0] < rows and 0 <= nxt[1] < cols and not seen[nxt]]

    while stack:
        options = fresh(stack[-1])
        if options:
            nxt = options[min(int(u[draws] * len(options)), len(options) - 1)]
            draws += 1
            seen[nxt] = True
            stack.append(nxt)
            continue
        if stack[-1][1] == cols - 1:
            return stack
        while stack and not fresh(stack[-1]):  # Regresa
            stack.pop()
    return None


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
    ``"contest"``
        the contest program's rule: start a uniformly random cell of the
        west (left) column (entrance west); the exit is the first cell of the
        east (right) column the depth-first solver reaches from it
        (:func:`contest_exit`), opened east. A maze whose right border cannot
        be reached from the start raises ParameterError. This is a reading of
        the contest program's prose; its code is ``"delphi"``.
    ``"delphi"``
        the Delphi program's code: start a uniformly random cell of the west
        column (entrance west); the exit is where its random depth-first
        walk first gets stuck in the east column (:func:`delphi_walk`),
        opened east. On a perfect maze :meth:`Maze.solution` is then the
        walk's stack. Where the program finds no exit (about 1 maze in 300
        of 10x10; in a perfect maze exactly when the east column holds no
        dead end, which no other draw of the entrance or the walk can
        change) NoPathError is raised rather than drawing again, so a seed
        always means the same entrance and walk.

    Any openings the maze had are replaced.

    Parameters
    ----------
    maze : Maze
        The maze to place into.
    placement : {"corners", "sides", "centre", "contest", "delphi"}
        Placement style.
    rng : numpy.random.Generator, int or None
        Used by ``"sides"``, ``"contest"`` and ``"delphi"`` only.

    Returns
    -------
    Maze
        The same walls with the new start, goals and openings.

    Raises
    ------
    ParameterError
        If ``maze`` is not a Maze or ``placement`` is unknown.
    NoPathError
        If the ``"delphi"`` walk finds no exit.

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
    if placement == "contest":
        r0 = int(as_rng(rng).integers(0, rows))
        goal = contest_exit(maze, (r0, 0))
        if goal is None:
            raise ParameterError(f"placement 'contest': no cell of the right border is "
                                 f"reachable from the start ({r0}, 0)")
        return maze.replace(start=(r0, 0), goals=(goal,),
                            openings=((r0, 0, "W"), (goal[0], goal[1], "E")))
    if placement == "delphi":
        gen = as_rng(rng)
        r0 = int(gen.integers(0, rows))
        route = delphi_walk(maze, (r0, 0), rng=gen)
        if route is None:
            raise NoPathError(f"placement 'delphi': the Delphi walk from the start ({r0}, 0) "
                              f"never got stuck in the east column (no exit); try another "
                              f"seed", reason="no exit")
        goal = route[-1]
        return maze.replace(start=(r0, 0), goals=(goal,),
                            openings=((r0, 0, "W"), (goal[0], goal[1], "E")))
    return maze.replace(start=(rows - 1, 0), goals=centre_cells(rows, cols), openings=())
