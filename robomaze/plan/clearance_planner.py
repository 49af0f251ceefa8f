"""The safest route: shortest path under a Nav2-like inflation cost.

Each free configuration-space cell costs (per unit of length)::

    cost = 1 + weight * exp(-decay * (clearance - inscribed_radius))   if clearance <= inflation_radius
    cost = 1                                                            otherwise

where ``clearance`` is the exact distance (metres) from the cell centre to
the nearest occupied square and ``inscribed_radius`` that of the footprint
(the radius for a disc, 0 for a point robot) -- the shape of the
``nav2_costmap_2d`` inflation layer with ``cost_scaling_factor = decay``.
A move costs its length times the mean cost of its two cells, so paths
keep to the middle of wide corridors. ``weight = 0`` gives exactly the
shortest path. The search is A* with the Manhattan / octile heuristic,
admissible because every cost is at least 1.
"""

from __future__ import annotations

import math

import numpy as np

from .._validate import check_float
from ..geometry import Footprint
from ..grid import OccupancyGrid
from ._endpoints import check_grid
from .path import Path
from .search import grid_search

__all__ = ["max_clearance", "inflation_cost", "MAX_WEIGHT"]

#: Largest ``weight``: a cell then costs at most 1e12 + 1 per unit length, and
#: a path over the largest grid (4e8 cells) sums to about 4e20, far inside float64.
MAX_WEIGHT = 1e12


def inflation_cost(grid: OccupancyGrid, *, footprint: Footprint | None = None,
                   weight: float = 50.0, decay: float | None = None,
                   inflation_radius: float | None = None) -> np.ndarray:
    """Per-cell traversal cost (>= 1) of :func:`max_clearance`.

    Parameters
    ----------
    grid : OccupancyGrid
    footprint : Footprint, optional
    weight : float
        Extra cost at the inscribed radius (Nav2's 253-level, rescaled),
        between 0 and :data:`MAX_WEIGHT` (1e12).
        The default, 50, keeps a 4-connected path on the centre line of
        corridors up to about ten cells wide -- its minimum clearance is the
        largest possible on the default-sweep mazes at corridor widths 3 to 9
        -- for about 5% more length than the shortest path; 10 already cuts
        the inner corners of 9-cell corridors by a cell.
    decay : float, optional
        Exponential decay per metre of extra clearance; default
        ``1 / resolution`` (the cost falls by ``e`` per grid cell).
    inflation_radius : float, optional
        Clearance (metres) beyond which cells cost 1; default unlimited.

    Examples
    --------
    >>> from robomaze import OccupancyGrid
    >>> g = OccupancyGrid(np.pad(np.zeros((1, 3), bool), 1, constant_values=True))
    >>> np.round(inflation_cost(g, weight=1.0)[1], 3)
    array([1.   , 1.607, 1.607, 1.607, 1.   ])
    """
    check_grid(grid)
    # bounded so that every path cost stays a finite float (1e308 overflowed to
    # inf and the search wrongly reported the goal unreachable)
    w = check_float("weight", weight, min_value=0.0, max_value=MAX_WEIGHT)
    k = 1.0 / grid.resolution if decay is None else check_float("decay", decay, min_value=0.0)
    rmax = math.inf if inflation_radius is None else \
        check_float("inflation_radius", inflation_radius, min_value=0.0)
    r_in = 0.0 if footprint is None else footprint.inscribed_radius
    c = grid.clearance()
    cost = 1.0 + w * np.exp(-k * np.maximum(c - r_in, 0.0))
    cost[c > rmax] = 1.0
    cost[grid.occupied] = 1.0  # never entered; keeps the array finite
    return cost


def max_clearance(grid: OccupancyGrid, start, goal, *, footprint: Footprint | None = None,
                  connectivity: int = 4, weight: float = 50.0, decay: float | None = None,
                  inflation_radius: float | None = None) -> Path:
    """Path minimising length weighted by proximity to obstacles.

    Parameters
    ----------
    grid : OccupancyGrid
    start, goal : (row, col) or (x, y)
    footprint : Footprint, optional
        Discs plan on their inflated grid, other shapes on their
        circumscribed disc's.
    connectivity : {4, 8}
    weight, decay, inflation_radius
        See :func:`inflation_cost`.

    Returns
    -------
    Path

    Raises
    ------
    NoPathError
        The goal is unreachable or the robot does not fit at start/goal.

    Examples
    --------
    >>> from robomaze import OccupancyGrid
    >>> g = OccupancyGrid(np.pad(np.zeros((5, 7), bool), 1, constant_values=True))
    >>> p = max_clearance(g, (1, 1), (1, 7))     # swings into the middle of the room
    >>> p.length, int(p.cells[:, 0].max())
    (8.0, 2)
    >>> max_clearance(g, (1, 1), (1, 7), weight=0.0).length
    6.0
    """
    cost = inflation_cost(grid, footprint=footprint, weight=weight, decay=decay,
                          inflation_radius=inflation_radius)
    return grid_search(grid, start, goal, footprint=footprint, connectivity=connectivity,
                       heuristic=True, cost=cost, method="max_clearance")
