"""Collision-free planning for the robot's real footprint.

* Point robots and discs: shortest path (A*) on the inflated grid (cells
  whose clearance exceeds the radius). Moves between free cells keep the
  swept disc clear (see :func:`robomaze._search.line_of_sight`).
* Any other shape: search over states ``(row, col, heading bin)`` of the
  heading-binned configuration space (:func:`robomaze.geometry.cspace`,
  conservative over each bin's angular interval): translations to
  neighbouring cells keep the heading (a holonomic base) and are allowed
  only when the footprint's whole sweep along the move is clear -- for a
  one-cell move that is exactly the footprint clear at both ends (and,
  diagonally, at the two cells beside the move; see
  :func:`robomaze.geometry.motion_cspace`), rotations on the spot step to
  a neighbouring bin and are allowed only where both bins are free, so a
  long robot turns only where the corridor is wide enough and the returned
  motion is collision-free throughout, not only at the cells it visits.

When no path exists the planner raises :class:`~robomaze.errors.NoPathError`
with a ``reason``: ``"corridor narrower than robot"`` (the robot fits
nowhere, or start and goal are connected for a point but not for the
robot), ``"start blocked for footprint"`` / ``"goal blocked for
footprint"``, or ``"goal unreachable"`` (not connected even for a point).
"""

from __future__ import annotations

import time as _time

import numpy as np

from ..errors import NoPathError
from ..geometry import Footprint, cspace_bits, heading_bin, heading_bins
from ..grid import OccupancyGrid
from .._validate import check_float, check_int
from .. import _search as core
from ._endpoints import check_connectivity, check_grid, endpoints, flat_u8
from .path import Path, make_path
from .search import grid_search

__all__ = ["collision_free"]


def _why_not(grid: OccupancyGrid, s, g, conn: int) -> NoPathError:
    """A point robot connects s and g? Then the robot is simply too big somewhere."""
    rows, cols = grid.shape
    f8 = flat_u8(grid.free)
    dist, _ = core.bfs_field(f8, rows, cols, g[0] * cols + g[1], conn == 8)
    if dist[s[0], s[1]] >= 0:
        return NoPathError(
            f"no collision-free path from {s} to {g}: a passage between them is narrower "
            f"than the robot", reason="corridor narrower than robot")
    return NoPathError(f"goal {g} is not reachable from start {s}", reason="goal unreachable")


def _free_bins(blocked: np.ndarray, r: int, c: int) -> np.ndarray:
    """Per heading bin, whether cell ``(r, c)`` is free in packed blocked bits."""
    return ((blocked[:, r, c >> 6] >> np.uint64(c & 63)) & np.uint64(1)) == 0


def _fits_somewhere(blocked: np.ndarray, cols: int) -> bool:
    """Any free cell in any bin (bits past the last column do not count)."""
    valid = np.full(blocked.shape[2], ~np.uint64(0))
    if cols % 64:
        valid[-1] = (np.uint64(1) << np.uint64(cols % 64)) - np.uint64(1)
    return bool((~blocked & valid).any())


def collision_free(grid: OccupancyGrid, start, goal, *, footprint: Footprint | None = None,
                   connectivity: int = 4, headings: int = 16, rotation_cost: float | None = None,
                   start_heading: float | None = None,
                   goal_heading: float | None = None) -> Path:
    """Shortest collision-free path for a footprint (translations and turns on the spot).

    Parameters
    ----------
    grid : OccupancyGrid
    start, goal : (row, col) or (x, y)
    footprint : Footprint, optional
        None plans for a point robot.
    connectivity : {4, 8}
    headings : int
        Heading bins for non-disc footprints.
    rotation_cost : float, optional
        Cost (metres of travel) of one rotation between neighbouring heading
        bins; default ``0.1 * resolution``, enough to avoid needless turns.
    start_heading, goal_heading : float, optional
        Required world headings (radians) at start / goal (non-disc shapes);
        default any heading that fits.

    Returns
    -------
    Path
        With ``headings`` (bin sample headings) for non-disc shapes; their
        ``expanded`` counts the (cell, bin) states relaxed (the search
        relaxes a cell's bins together and may relax a state again when a
        cheaper way to it turns up).

    Raises
    ------
    NoPathError
        With ``reason`` as described in the module docstring.

    Examples
    --------
    >>> from robomaze import Maze, widen
    >>> from robomaze.geometry import Footprint
    >>> g = widen(Maze.from_edges(2, 2, [0, 1, 3], [1, 3, 2]), corridor=3, wall=1)
    >>> p = collision_free(g, (2, 2), (6, 2), footprint=Footprint.rectangle(2.6, 0.8), headings=8)
    >>> p.collision_free, p.length
    (True, 12.0)
    >>> bar = Footprint.rectangle(5.0, 0.4)     # fits the corridors, cannot turn a corner
    >>> try:
    ...     collision_free(g, (2, 4), (6, 4), footprint=bar)
    ... except NoPathError as exc:
    ...     print(exc.reason)
    corridor narrower than robot
    """
    t0 = _time.perf_counter()
    check_grid(grid)
    conn = check_connectivity(connectivity)
    if footprint is None or footprint.kind == "disc":
        try:
            p = grid_search(grid, start, goal, footprint=footprint, connectivity=conn,
                            heuristic=True, method="collision_free")
        except NoPathError as exc:
            if exc.reason != "goal unreachable":
                raise
            s, g = endpoints(grid, start, goal)
            raise _why_not(grid, s, g, conn) from None
        return p
    n = check_int("headings", headings, min_value=1)
    rot = 0.1 * grid.resolution if rotation_cost is None else \
        check_float("rotation_cost", rotation_cost, min_value=0.0)
    blocked = cspace_bits(grid, footprint, headings=n)   # packed: the search unpacks it
    s, g = endpoints(grid, start, goal)
    rows, cols = grid.shape
    N = rows * cols
    si, gi = s[0] * cols + s[1], g[0] * cols + g[1]
    if not _fits_somewhere(blocked, cols):
        raise NoPathError(
            f"the robot ({footprint.kind}, inscribed radius {footprint.inscribed_radius:.3g} m) "
            f"fits nowhere on this grid at any heading", reason="corridor narrower than robot")
    sbins = np.flatnonzero(_free_bins(blocked, *s))
    if start_heading is not None:
        b = int(heading_bin(check_float("start_heading", start_heading), n))
        sbins = sbins[sbins == b]
    if sbins.size == 0:
        raise NoPathError(f"start cell {s} is blocked for the footprint at every allowed heading",
                          reason="start blocked for footprint")
    gbin = -1
    if goal_heading is not None:
        gbin = int(heading_bin(check_float("goal_heading", goal_heading), n))
    gfree = _free_bins(blocked, *g)
    if not (gfree.any() if gbin < 0 else gfree[gbin]):
        raise NoPathError(f"goal cell {g} is blocked for the footprint at every allowed heading",
                          reason="goal blocked for footprint")
    states, expanded = core.heading_path_packed(blocked, cols, sbins * N + si, gi, gbin,
                                                conn8=conn == 8, rot_cost=rot / grid.resolution)
    if states.size == 0:
        raise _why_not(grid, s, g, conn)
    bins, cells_flat = np.divmod(states, N)
    cells = np.column_stack(np.divmod(cells_flat, cols))
    hd = heading_bins(n)[bins]
    elapsed = _time.perf_counter() - t0
    return make_path(grid, cells, footprint=footprint, method="collision_free",
                     expanded=expanded, time=elapsed, headings=hd)

