"""Start/goal parsing and validation shared by every planner.

A start or goal is a grid cell ``(row, col)`` given as two integers, or a
world point ``(x, y)`` in metres given as two floats (it maps to the cell
holding it). ``None`` means the maze's start / first goal for grids made
by ``widen``. Errors:

* not a pair, outside the grid, on an occupied cell -> ``ParameterError``;
* a free cell where the footprint does not fit -> ``NoPathError`` with
  ``reason`` ``"start blocked for footprint"`` / ``"goal blocked for
  footprint"`` (or ``"corridor narrower than robot"`` when the robot fits
  nowhere on the map): the input is well-formed, the robot just cannot be
  there.
"""

from __future__ import annotations

import numbers

import numpy as np

from ..errors import NoPathError, ParameterError
from ..geometry import Footprint
from ..grid import OccupancyGrid

__all__ = ["as_cell", "endpoints", "check_placeable", "check_connectivity", "check_grid",
           "flat_u8"]


def flat_u8(mask: np.ndarray) -> np.ndarray:
    """A bool mask as the flat uint8 array the kernels take (a view when possible)."""
    m = np.ascontiguousarray(mask, dtype=bool)
    return m.view(np.uint8).ravel()


def check_grid(grid) -> OccupancyGrid:
    if not isinstance(grid, OccupancyGrid):
        raise ParameterError(f"grid must be an OccupancyGrid, got {type(grid).__name__}")
    return grid


def check_connectivity(connectivity) -> int:
    if isinstance(connectivity, bool) or connectivity not in (4, 8):
        raise ParameterError(f"connectivity must be 4 or 8, got {connectivity!r}")
    return int(connectivity)


def as_cell(grid: OccupancyGrid, name: str, value) -> tuple[int, int]:
    """A start/goal value as an in-bounds grid cell (not yet checked for obstacles).

    >>> from robomaze import OccupancyGrid
    >>> g = OccupancyGrid(np.zeros((4, 5), bool), resolution=0.5)
    >>> as_cell(g, "start", (1, 2)), as_cell(g, "goal", (1.1, 0.2))
    ((1, 2), (3, 2))
    """
    try:
        a, b = value
    except (TypeError, ValueError):
        raise ParameterError(
            f"{name} must be a (row, col) grid cell or an (x, y) world point, got {value!r}") from None
    ok = all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in (a, b))
    if not ok or not (np.isfinite(float(a)) and np.isfinite(float(b))):
        raise ParameterError(
            f"{name} must hold two finite numbers (row, col) or (x, y), got {value!r}")
    if isinstance(a, numbers.Integral) and isinstance(b, numbers.Integral):
        cell = (int(a), int(b))
        where = f"cell {cell}"
    else:
        cell = grid.world_to_cell((float(a), float(b)))
        where = f"world point ({float(a)}, {float(b)}) (cell {cell})"
    if not grid.in_bounds(cell):
        raise ParameterError(
            f"{name} {where} is outside the {grid.rows}x{grid.cols} grid "
            f"(rows 0..{grid.rows - 1}, cols 0..{grid.cols - 1})")
    if grid.occupied[cell]:
        raise ParameterError(f"{name} {where} is on an occupied cell")
    return cell


def check_placeable(grid: OccupancyGrid, name: str, cell: tuple[int, int],
                    free: np.ndarray, footprint: Footprint | None) -> None:
    """Raise NoPathError when the robot cannot stand on ``cell`` (``free`` is its C-space)."""
    if free[cell]:
        return
    if not free.any():
        raise NoPathError(
            f"the robot fits nowhere on this grid (widest clearance "
            f"{float(grid.clearance().max()):.3f} m, footprint {_describe(footprint)})",
            reason="corridor narrower than robot")
    raise NoPathError(
        f"{name} cell {cell} is free but blocked for the footprint {_describe(footprint)} "
        f"(clearance there {float(grid.clearance()[cell]):.3f} m)",
        reason=f"{name} blocked for footprint")


def _describe(fp: Footprint | None) -> str:
    if fp is None:
        return "point"
    if fp.kind == "disc":
        return f"disc r={fp.radius:g} m"
    return (f"{fp.kind} (inscribed {fp.inscribed_radius:.3g} m, "
            f"circumscribed {fp.circumscribed_radius:.3g} m)")


def endpoints(grid: OccupancyGrid, start, goal, *, free: np.ndarray | None = None,
              footprint: Footprint | None = None) -> tuple[tuple[int, int], tuple[int, int]]:
    """Parse and validate start and goal; ``free`` (C-space) checks the footprint fits."""
    check_grid(grid)
    if start is None or goal is None:
        if grid.maze is None:
            raise ParameterError("start and goal are required for grids not made by widen()")
        s0, g0 = grid.start_goal()
        start = s0 if start is None else start
        goal = g0 if goal is None else goal
    s = as_cell(grid, "start", start)
    g = as_cell(grid, "goal", goal)
    if free is not None:
        check_placeable(grid, "start", s, free, footprint)
        check_placeable(grid, "goal", g, free, footprint)
    return s, g
