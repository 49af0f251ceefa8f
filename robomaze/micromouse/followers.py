"""Comparison solvers for the mouse world: wall followers and Trémaux.

They drive the same :class:`~robomaze.micromouse.world.MouseWorld` with the
same sensing as flood fill and stop at the first goal cell they reach. The
fast-run route they report is the shortest route over the passages they saw
open (so it is the best they *know*, not necessarily the best there is).

* ``left_wall`` / ``right_wall``: keep a hand on the wall. A follower that
  returns to a cell with the same heading is circling an island: it fails
  (the goal of a micromouse maze is usually such an island on purpose).
* ``tremaux``: Trémaux's rule -- mark every passage on each traversal, never
  take a passage marked twice, go back at a visited cell reached by a fresh
  passage, prefer unmarked passages. Each passage is driven at most twice,
  so it reaches any reachable goal; if the goal is unreachable it ends back at
  the start with every passage marked twice and reports that.
"""

from __future__ import annotations

from ..maze import Maze
from .floodfill import WallMap, _sense, known_route
from .result import MouseRun
from .world import DC, DR, MouseWorld

__all__ = ["wall_follower", "left_wall", "right_wall", "tremaux"]


def _finish(method, world, wm, maze, reached, reason, moves_to_goal) -> MouseRun:
    route = known_route(wm, maze.start, sorted(maze.goals)) if reached else None
    return MouseRun(method=method, success=reached, reason=reason, reached_goal=reached,
                    proven=False, returned=False, moves=world.moves, turns=world.turns,
                    crashes=world.crashes, moves_to_goal=moves_to_goal,
                    explored=world.visited.copy(), trace=list(world.trace),
                    known=wm.array(), route=route, log=list(world.log), start=maze.start,
                    goals=tuple(maze.goals))


def wall_follower(maze: Maze, *, hand: str = "left") -> MouseRun:
    """Follow the left or right wall until a goal cell.

    >>> wall_follower(Maze.empty(2, 2, start=(1, 0), goals=[(0, 1)])).success
    True
    """
    if hand not in ("left", "right"):
        from ..errors import ParameterError
        raise ParameterError(f"hand must be 'left' or 'right', got {hand!r}")
    world = MouseWorld(maze)
    wm = WallMap(*maze.shape)
    goals = set(maze.goals)
    seen = set()
    first, last = (3, 1) if hand == "left" else (1, 3)
    while world.cell not in goals:
        state = (world.cell, world.heading)
        if state in seen:
            return _finish(f"{hand}_wall", world, wm, maze, False,
                           f"{hand}-hand wall follower circles forever (the goal is not "
                           f"on its wall) after {world.moves} moves", None)
        seen.add(state)
        _sense(world, wm)
        for rel in (first, 0, last, 2):
            side = (world.heading + rel) % 4
            if not world.is_wall(side):
                world.face(side)
                world.move_forward(1)
                break
        else:
            return _finish(f"{hand}_wall", world, wm, maze, False,
                           "start cell is closed on all sides", None)
    _sense(world, wm)
    return _finish(f"{hand}_wall", world, wm, maze, True, "", world.moves)


def left_wall(maze: Maze) -> MouseRun:
    """Left-hand wall follower."""
    return wall_follower(maze, hand="left")


def right_wall(maze: Maze) -> MouseRun:
    """Right-hand wall follower."""
    return wall_follower(maze, hand="right")


def tremaux(maze: Maze) -> MouseRun:
    """Trémaux's algorithm in the mouse world.

    >>> run = tremaux(Maze.empty(3, 3, start=(2, 0), goals=[(0, 2)]))
    >>> run.success, run.moves_to_goal >= 4
    (True, True)
    """
    world = MouseWorld(maze)
    wm = WallMap(*maze.shape)
    goals = set(maze.goals)
    marks: dict[frozenset, int] = {}
    arrivals = {world.cell: 1}
    came_from = None                    # side of the current cell we entered through

    def edge(cell, side):
        r, c = cell
        return frozenset((cell, (r + DR[side], c + DC[side])))

    limit = 4 * maze.rows * maze.cols + 4
    while world.cell not in goals:
        _sense(world, wm)
        cell = world.cell
        opens = [s for s in range(4) if not world.is_wall(s)]
        back = came_from
        fresh_arrival = back is not None and marks.get(edge(cell, back), 0) == 1
        choice = None
        if back is not None and fresh_arrival and arrivals.get(cell, 0) > 1:
            choice = back               # visited junction via a new passage: go back
        else:
            order = [(world.heading + rel) % 4 for rel in (0, 3, 1, 2)]
            cands = [s for s in order if s in opens and marks.get(edge(cell, s), 0) < 2]
            zero = [s for s in cands if marks.get(edge(cell, s), 0) == 0 and s != back]
            if zero:
                choice = zero[0]
            elif back is not None and marks.get(edge(cell, back), 0) < 2:
                choice = back
            elif cands:
                choice = cands[0]
        if choice is None or world.moves > limit:
            return _finish("tremaux", world, wm, maze, False,
                           f"goal unreachable: every passage reachable from the start was "
                           f"marked twice after {world.moves} moves", None)
        e = edge(cell, choice)
        marks[e] = marks.get(e, 0) + 1
        world.face(choice)
        world.move_forward(1)
        came_from = (choice + 2) % 4
        arrivals[world.cell] = arrivals.get(world.cell, 0) + 1
    _sense(world, wm)
    return _finish("tremaux", world, wm, maze, True, "", world.moves)
