"""Conversion of simulator trajectories into traversal records.

A :class:`robomaze.sim.Trajectory` holds timed world poses; a
:class:`~robomaze.traverse.record.TraversalRecord` holds unit moves on grid
cells. :func:`from_trajectory` maps one to the other so robot runs are
replayed and scored exactly like people's walks.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..errors import ParameterError
from ..grid import OccupancyGrid
from .record import _STEP_NAMES, Step, TraversalRecord

__all__ = ["from_trajectory"]


def _heading_deg(theta: float) -> float:
    return float(np.degrees(theta) % 360.0)


def _four_connected(a: tuple[int, int], b: tuple[int, int], free: np.ndarray) -> list:
    """Unit steps from ``a`` to ``b`` hugging the straight line, preferring free cells."""
    out = []
    r, c = a
    dr_tot, dc_tot = b[0] - a[0], b[1] - a[1]
    while (r, c) != tuple(b):
        cands = []
        if r != b[0]:
            cands.append((r + (1 if b[0] > r else -1), c))
        if c != b[1]:
            cands.append((r, c + (1 if b[1] > c else -1)))

        def score(cell):
            inside = 0 <= cell[0] < free.shape[0] and 0 <= cell[1] < free.shape[1]
            blocked = not (inside and free[cell])
            # distance of the candidate to the segment a-b (cross product)
            off = abs((cell[0] - a[0]) * dc_tot - (cell[1] - a[1]) * dr_tot)
            return blocked, off

        r, c = min(cands, key=score)
        out.append((r, c))
    return out


def from_trajectory(trajectory, grid: OccupancyGrid, *, walker: dict | None = None,
                    goals: Sequence[Sequence[int]] | None = None,
                    source: dict | None = None) -> TraversalRecord:
    """Convert a simulator trajectory into a grid-level traversal record.

    Each pose ``(x, y, theta)`` maps to the grid cell under it
    (:meth:`OccupancyGrid.world_to_cells`); a record line is written each
    time the cell changes, with the pose's time and heading. Jumps of more
    than one cell between samples are filled with 4-neighbour steps along
    the straight line (through free cells where there is a choice), so the
    record obeys the one-step rule and maps back to maze cells.

    Parameters
    ----------
    trajectory : robomaze.sim.Trajectory
        Anything with ``.t`` (n,) seconds and ``.poses`` (n, 3) world poses.
    grid : OccupancyGrid
        The grid it was simulated on (widened from a maze for maze-cell
        reports).
    walker : dict, optional
        Default ``{"kind": "agent", "name": "", "settings": {}}``.
    goals : sequence of (row, col), optional
        Goal cells; default the maze's goals (maze cells), else the final cell.

    Returns
    -------
    TraversalRecord

    Raises
    ------
    ParameterError
        If the trajectory is empty or its arrays disagree in length.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> from robomaze import Maze, widen
    >>> g = widen(Maze.from_edges(1, 2, [0], [1]), corridor=1, wall=1)
    >>> traj = SimpleNamespace(t=[0.0, 1.0], poses=[[1.5, 1.5, 0.0], [3.5, 1.5, 0.0]])
    >>> rec = from_trajectory(traj, g)
    >>> rec.positions.tolist(), [s.move for s in rec.steps], rec.reached_goal
    ([[1, 1], [1, 2], [1, 3]], ['E', 'E'], True)
    """
    if not isinstance(grid, OccupancyGrid):
        raise ParameterError(f"grid must be an OccupancyGrid, got {type(grid).__name__}")
    t = np.asarray(getattr(trajectory, "t", None), dtype=float).ravel()
    poses = np.asarray(getattr(trajectory, "poses", None), dtype=float)
    if poses.ndim != 2 or poses.shape[1] != 3 or len(poses) == 0:
        raise ParameterError(f"trajectory.poses must be a non-empty (n, 3) array, "
                             f"got shape {poses.shape}")
    if t.shape != (len(poses),):
        raise ParameterError(f"trajectory.t must have one time per pose ({len(poses)}), "
                             f"got shape {t.shape}")
    cells = grid.world_to_cells(poses[:, :2])
    cells[:, 0] = np.clip(cells[:, 0], 0, grid.rows - 1)
    cells[:, 1] = np.clip(cells[:, 1], 0, grid.cols - 1)
    t = t - t[0]
    free = grid.free
    steps: list[Step] = []
    cur = (int(cells[0, 0]), int(cells[0, 1]))
    for i in range(1, len(cells)):
        nxt = (int(cells[i, 0]), int(cells[i, 1]))
        if nxt == cur:
            continue
        for cell in _four_connected(cur, nxt, free):
            move = _STEP_NAMES[(cell[0] - cur[0], cell[1] - cur[1])]
            steps.append(Step(float(t[i]), move, cell[0], cell[1], _heading_deg(poses[i, 2])))
            cur = cell
    if goals is None:
        goals = grid.maze.goals if grid.maze is not None else (cur,)
    rec = TraversalRecord(level="grid", maze=grid.maze, grid=grid,
                          walker=walker or {"kind": "agent", "name": "", "settings": {}},
                          start=tuple(int(v) for v in cells[0]), goals=tuple(goals),
                          steps=tuple(steps), heading=_heading_deg(poses[0, 2]),
                          duration=float(t[-1]), source=source)
    object.__setattr__(rec, "reached_goal", rec.is_goal(rec.final))
    return rec
