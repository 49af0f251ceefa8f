"""Classic maze solvers: they use only local knowledge, as a robot in a maze.

Each is a planner ``(grid, start, goal, *, footprint=None, connectivity=4,
**options) -> Path`` returning both the **walk** (``Path.walk``: every cell
the robot stepped on, backtracking included; ``Path.walk_length``) and the
loop-free route extracted from it (``Path.cells``: the walk with its loops
erased in order — whenever a cell repeats, the walk is cut back to its
earlier visit; Trémaux returns its thread instead, see :func:`tremaux`).

Free space
    The solvers move on grid cells, 4-connected, in the free space of the
    robot's footprint: the grid's free cells for no footprint, the
    configuration space of a disc (clearance > radius), and for any other
    shape the configuration space of its circumscribed disc
    (:func:`robomaze.geometry.free_space`): a maze solver turns in place
    wherever its walk turns, so it must fit at every heading on every cell of
    its walk, and the circumscribed disc is the shape it sweeps turning on the
    spot. So they work on any occupancy grid, and on a
    widened maze with wide corridors the wall followers keep their hand on
    the C-space boundary while the explorers treat every free cell as a node.

Goal recognition
    A robot in the middle of a wide corridor cannot touch a goal placed at a
    block centre with its hand, so by default (``sight=True``) a walker that
    has the goal in line of sight along one of the eight compass directions
    walks straight to it; ``sight=False`` makes it step on the goal cell.

On a widened perfect maze with one-cell corridors (any wall thickness) the
free space is a tree, so every solver's route is the unique solution. With
wider corridors the free space holds many routes: the loop-erased walk is
loop-free and passes the solution's maze cells in order, but keeps the dead
ends a walker entered and left along different cells (a wall follower goes
in along one wall and out along the other). The default,
``route="shortest_known"``, therefore takes the shortest route through the
cells the walk stepped on or touched -- the second run on the explored map,
as a micromouse does -- which for corridors up to 4 cells wide passes exactly
the solution's maze cells and on one-cell corridors equals the loop-erased
walk. ``route="loop_erased"`` (and ``route="thread"`` for Tremaux) returns
the walk's own loop-free route instead.
"""

from .filling import REMOVABLE, dead_end_filling, fill_dead_ends
from .exploration import dfs_backtracking, tremaux
from .random_walk import random_mouse
from .wall_following import pledge, wall_follower

__all__ = ["wall_follower", "pledge", "tremaux", "dfs_backtracking", "dead_end_filling",
           "random_mouse", "fill_dead_ends", "REMOVABLE", "CLASSIC_SOLVERS"]

#: The classic solvers by planner name.
CLASSIC_SOLVERS = {
    "wall_follower": wall_follower,
    "pledge": pledge,
    "tremaux": tremaux,
    "dfs_backtracking": dfs_backtracking,
    "dead_end_filling": dead_end_filling,
    "random_mouse": random_mouse,
}
