"""Wall following: the hand-on-the-wall rule and the Pledge algorithm.

Both walk on grid cells of the footprint's free space (see
:mod:`robomaze.plan.classic`), so on a widened maze with wide corridors the
walker keeps its hand on the boundary of the free space rather than walking
down the middle of a corridor. Its state is a cell and one of four headings;
the right-hand rule tries, in order, turning right, going straight, turning
left and turning back (the left-hand rule mirrors it). The hand then always
touches the boundary, on its side or just behind it.
"""

from __future__ import annotations

import numpy as np

from ...grid import OccupancyGrid
from . import _kernels
from .problem import HEADINGS, Problem, check_hand, check_heading, refuse_options, \
    check_route, nearest_wall_heading

__all__ = ["wall_follower", "pledge"]


def wall_follower(grid: OccupancyGrid, start, goal, *, footprint=None, connectivity: int = 4,
                  hand: str = "right", heading: str | None = None, sight: bool = True,
                  route: str = "shortest_known", **options):
    """Solve by keeping one hand on the wall.

    If the start touches a wall (one of its four neighbours is blocked) the
    walker turns so that wall is at its hand and starts following it;
    otherwise it first runs straight (towards the nearest wall it can see, or
    along ``heading``) to a wall. It succeeds when it steps on the goal or
    sees it (``sight``) and fails when it comes back to a state (cell and
    heading) it has been in: then it would circle forever. The wall follower
    is complete when the free space is simply connected, as in a widened
    perfect maze, and when start and goal both lie on the outer boundary
    (with no island touching the start, since a wall next to the start is
    taken in the order N, E, S, W and the walker cannot tell an island
    from the outer wall).

    Parameters
    ----------
    grid : OccupancyGrid
    start, goal : (row, col) cell or (x, y) world point
    footprint : Footprint, optional
        The robot's shape; ``None`` is a point robot.
    connectivity : int
        Must be 4: the walker moves between the four neighbours of a cell.
    hand : {"right", "left"}
        Which hand stays on the wall.
    heading : {"N", "E", "S", "W"}, optional
        If given, always first run straight this way to a wall.
    sight : bool
        Walk straight to the goal once it is in line of sight along one of
        the 8 compass directions (how the robot recognises a goal in the
        middle of a wide room or corridor). ``False``: it must step on it.
    route : {"loop_erased", "shortest_known"}
        How ``cells`` is extracted from the walk: the walk with its loops
        erased, or (default) the shortest route through the cells the walk
        stepped on or touched (their free 8-neighbours) -- what a second run
        on the explored map would take. They agree on one-cell corridors;
        in wide corridors a wall follower enters and leaves a dead end along
        opposite walls, which loop erasure cannot cut out but the second
        run avoids when the corridor is at most 4 cells wide (the two
        tracks then touch a common cell or two neighbouring ones).

    Returns
    -------
    Path
        ``walk`` holds every cell visited in order; ``cells`` the route
        (see ``route``); ``expanded`` the number of distinct cells visited.

    Raises
    ------
    NoPathError
        When the walker returns to its start state (reason "wall follower
        returned to its start") or enters another cycle of states, or is
        walled in on a single cell.
    ParameterError
        Bad start, goal or option values.

    Examples
    --------
    >>> from robomaze.maze import Maze
    >>> from robomaze.grid import widen
    >>> g = widen(Maze.from_edges(1, 3, [0, 1], [1, 2]))
    >>> p = wall_follower(g, (1, 1), (1, 5))
    >>> p.cells.tolist()
    [[1, 1], [1, 2], [1, 3], [1, 4], [1, 5]]
    """
    refuse_options("wall_follower", options)
    side = check_hand(hand)
    route = check_route(route)
    run = check_heading("heading", heading)
    pb = Problem("wall_follower", grid, start, goal, footprint, connectivity, sight)
    r, c = divmod(pb.start, pb.cols)
    h0 = -1
    if run is None:
        # A wall next to the start goes at the hand; prefer a heading with a
        # free cell behind, as if the walker had arrived along that wall.
        open_ = [_kernels._step(pb.free, pb.rows, pb.cols, pb.start, d) >= 0
                 for d in range(4)]
        heads = [(d - side) % 4 for d in range(4) if not open_[d]]
        behind = [h for h in heads if open_[(h + 2) % 4]]
        h0 = (behind or heads or [-1])[0]
        run = nearest_wall_heading(pb.free2d, (r, c)) if h0 < 0 else 0
    walk, n, status = _kernels.until_room(
        lambda size: _kernels.wall_follow(pb.free, pb.rows, pb.cols, pb.start, pb.vis, side, h0,
                                          run, np.zeros(pb.free.size, np.uint8),
                                          _kernels.buffer(size)),
        _kernels.walk_room(pb.rows, pb.cols, 4))
    walk = walk[:n]
    if status in (_kernels.BACK_AT_START, _kernels.LOOPING):
        if status == _kernels.BACK_AT_START or pb.start in _cycle(walk):
            raise pb.fail(f"wall follower returned to its start after {walk.size - 1} moves "
                          f"without reaching the goal (it would circle forever)",
                          "wall follower returned to its start")
        raise pb.fail(f"wall follower is circling (a state repeated after {walk.size - 1} "
                      f"moves) without reaching the goal", "wall follower is circling")
    if status == _kernels.STUCK:
        raise pb.fail("the start cell has no free neighbour", "start is walled in")
    return pb.result(walk, route=route)


def _cycle(walk: np.ndarray) -> np.ndarray:
    """Cells of the repeating tail of a walk that ended on a repeated state."""
    steps = np.diff(walk)
    last = walk[-1]
    for j in range(walk.size - 2, 0, -1):
        if walk[j] == last and steps[j - 1] == steps[-1]:
            return walk[j:]
    return walk


def pledge(grid: OccupancyGrid, start, goal, *, footprint=None, connectivity: int = 4,
           hand: str = "right", direction: str | None = None, sight: bool = True,
           route: str = "shortest_known", **options):
    """Solve with the Pledge algorithm (escape to an exit on the outer boundary).

    The walker goes in its preferred ``direction`` until blocked, then follows
    the wall with its ``hand`` while summing its turns (quarter turns,
    clockwise positive; the U-turn at a dead end counts as two turns away
    from the hand), and leaves the wall as soon as the sum is back to zero,
    i.e. it faces the
    preferred direction again having unwound every turn. Unlike the plain
    wall follower it cannot be trapped circling an island, so it reaches an
    exit (the goal) on the outer boundary of the free space from any start.
    It fails when it would provably repeat itself forever: a straight run
    state seen twice, or a full lap of wall following whose turn sum drifts
    away from zero (it is circling the outer boundary, which does not pass the
    goal).

    Parameters
    ----------
    grid : OccupancyGrid
    start, goal : (row, col) cell or (x, y) world point
    footprint : Footprint, optional
    connectivity : int
        Must be 4.
    hand : {"right", "left"}
    direction : {"N", "E", "S", "W"}, optional
        The preferred direction; default: the axis direction pointing most
        towards the goal (vertical on a tie), as a compass would give it.
    sight : bool
        Walk straight to the goal once it is in line of sight (see
        :func:`wall_follower`).
    route : {"loop_erased", "shortest_known"}
        See :func:`wall_follower`.

    Returns
    -------
    Path
        With ``walk`` (every cell visited) and ``cells`` (loops erased).

    Raises
    ------
    NoPathError
        When the walker would circle forever without finding the goal.
    ParameterError
        Bad start, goal or option values.

    Examples
    --------
    >>> from robomaze.grid import OccupancyGrid
    >>> room = np.ones((7, 7), bool); room[1:6, 1:6] = False
    >>> room[3, 3] = True; room[3, 6] = False            # a pillar; an exit east
    >>> p = pledge(OccupancyGrid(room), (3, 2), (3, 6), sight=False, direction="E")
    >>> p.cells[-1].tolist(), p.walk_length >= p.length
    ([3, 6], True)
    """
    refuse_options("pledge", options)
    side = check_hand(hand)
    route = check_route(route)
    main = check_heading("direction", direction)
    pb = Problem("pledge", grid, start, goal, footprint, connectivity, sight)
    if main is None:
        (sr, sc), (gr, gc) = divmod(pb.start, pb.cols), divmod(pb.goal, pb.cols)
        dr, dc = gr - sr, gc - sc
        if abs(dr) >= abs(dc):
            main = 0 if dr < 0 else 2
        else:
            main = 1 if dc > 0 else 3
    def run(size):
        seen = np.zeros((2, pb.free.size), np.uint8)   # straight-run cells, follow marks
        return _kernels.pledge_walk(pb.free, pb.rows, pb.cols, pb.start, pb.vis, side, main,
                                    seen[0], seen[1], _kernels.buffer(size),
                                    _kernels.buffer(size))

    walk, n, status = _kernels.until_room(run, _kernels.walk_room(pb.rows, pb.cols, 4))
    walk = walk[:n]
    if status == _kernels.LOOPING:
        raise pb.fail(f"the Pledge walker (direction {HEADINGS[main]}) is circling after "
                      f"{walk.size - 1} moves without finding the exit; the goal is not on "
                      f"the outer boundary of its region", "pledge is circling")
    if status == _kernels.STUCK:
        raise pb.fail("the start cell has no free neighbour", "start is walled in")
    return pb.result(walk, route=route)

