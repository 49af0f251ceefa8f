"""Any-angle paths: Theta* and line-of-sight smoothing of grid paths.

Both use the same line-of-sight test on the footprint's heading-agnostic
free space (clearance > radius for discs, > circumscribed radius for
other shapes): a straight segment between two cell centres is accepted
only if every point of it lies in a unit square whose four corner cells
are free. That makes the swept footprint clear along the whole segment,
not just at its ends (see :func:`robomaze._search.line_of_sight`),
so the results stay collision-free.
"""

from __future__ import annotations

import time as _time

import numpy as np

from ..errors import NoPathError, ParameterError
from ..geometry import Footprint, free_space
from ..grid import OccupancyGrid
from .. import _search as core
from ._endpoints import check_connectivity, check_grid, endpoints
from .path import Path, make_path

__all__ = ["theta_star", "smooth"]


def theta_star(grid: OccupancyGrid, start, goal, *, footprint: Footprint | None = None,
               connectivity: int = 8) -> Path:
    """Any-angle shortest path by Theta* (Nash et al. 2007, basic variant).

    A* over cells whose parent may be any earlier cell in line of sight,
    so the path is a polyline through cell centres. Expansion uses the 4
    or 8 grid neighbours (``connectivity``); the Euclidean distance is the
    heuristic.

    Examples
    --------
    >>> from robomaze import OccupancyGrid
    >>> g = OccupancyGrid(np.zeros((5, 9), bool))
    >>> p = theta_star(g, (0, 0), (4, 8))
    >>> len(p), round(p.length, 4)          # one straight segment
    (2, 8.9443)
    """
    t0 = _time.perf_counter()
    check_grid(grid)
    conn = check_connectivity(connectivity)
    free = free_space(grid, footprint)
    s, g = endpoints(grid, start, goal, free=free, footprint=footprint)
    cols = grid.cols
    gi = g[0] * cols + g[1]
    flat, expanded = core.any_angle_path(free, s[0] * cols + s[1], gi, conn8=conn == 8)
    if flat.size == 0:
        raise NoPathError(f"goal {g} is not reachable from start {s}", reason="goal unreachable")
    cells = np.column_stack(np.divmod(flat, cols))
    elapsed = _time.perf_counter() - t0
    return make_path(grid, cells, footprint=footprint, method="theta_star", expanded=expanded,
                     time=elapsed)


def smooth(path: Path, grid: OccupancyGrid, footprint: Footprint | None = None) -> Path:
    """Shortcut a grid path into an any-angle polyline by line of sight.

    From each kept vertex the path jumps to the farthest later vertex still
    in line of sight (greedy string pulling). Vertices are a subset of the
    original cells, so the result is never longer; headings, if the path
    has them, are kept at the retained vertices.

    Parameters
    ----------
    path : Path
    grid : OccupancyGrid
        The grid the path was planned on.
    footprint : Footprint, optional
        The robot (None: a point).

    Returns
    -------
    Path
        ``method`` is the original's plus ``"+smooth"``.

    Examples
    --------
    >>> from robomaze import OccupancyGrid
    >>> from robomaze.plan import astar
    >>> g = OccupancyGrid(np.zeros((4, 4), bool))
    >>> p = smooth(astar(g, (0, 0), (3, 3)), g)
    >>> p.cells.tolist(), round(p.length, 4), p.method
    ([[0, 0], [3, 3]], 4.2426, 'astar+smooth')
    """
    t0 = _time.perf_counter()
    if not isinstance(path, Path):
        raise ParameterError(f"path must be a robomaze Path, got {type(path).__name__}")
    check_grid(grid)
    cells = np.asarray(path.cells, dtype=np.int64)
    if ((cells < 0) | (cells >= np.array(grid.shape))).any():
        raise ParameterError("path cells lie outside this grid; pass the grid it was planned on")
    free = free_space(grid, footprint)
    flat = cells[:, 0] * grid.cols + cells[:, 1]
    keep = core.shortcut(free, flat)
    heads = None if path.headings is None else np.asarray(path.headings)[keep]
    elapsed = path.time + (_time.perf_counter() - t0)
    return make_path(grid, cells[keep], footprint=footprint, method=f"{path.method}+smooth",
                     expanded=path.expanded, time=elapsed, headings=heads)
