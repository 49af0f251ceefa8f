"""Axes in metres in the ROS map frame (REP 103/105: x east, y north, metres).

Pictures are drawn in grid coordinates (cell ``(row, col)`` at ``x = col,
y = row``, y down). :func:`metre_axes` leaves the drawing alone and labels
it in world metres from the grid's ``resolution`` and ``origin`` (the world
pose of the lower-left corner of the lower-left cell, as in a map_server
YAML), and draws the map frame's x (red) and y (green) axes at the world
origin when it lies in the picture. With a rotated origin (yaw != 0) the
ticks are in the grid's own axes, shifted by the origin, and say so.

>>> import numpy as np
>>> from robomaze.grid import OccupancyGrid
>>> g = OccupancyGrid(np.zeros((20, 40), bool), resolution=0.05, origin=(-1.0, -0.5, 0.0))
>>> to_world_x(g, np.array([-0.5, 39.5])), to_world_y(g, np.array([19.5, -0.5]))
(array([-1.,  1.]), array([-0.5,  0.5]))
"""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import MaxNLocator

from ..errors import ParameterError
from ..grid import OccupancyGrid
from .draw import path_xy

__all__ = ["metre_axes", "to_world_x", "to_world_y", "X_AXIS_COLOR", "Y_AXIS_COLOR"]

#: RViz colours of a frame's x and y axes.
X_AXIS_COLOR = "#ff0000"
Y_AXIS_COLOR = "#00c000"


def to_world_x(grid: OccupancyGrid, x: np.ndarray) -> np.ndarray:
    """Plot x (column coordinate) -> metres along the map frame's x (yaw 0)."""
    return grid.origin[0] + (np.asarray(x, float) + 0.5) * grid.resolution


def to_world_y(grid: OccupancyGrid, y: np.ndarray) -> np.ndarray:
    """Plot y (row coordinate, down) -> metres along the map frame's y (yaw 0)."""
    return grid.origin[1] + (grid.rows - np.asarray(y, float) - 0.5) * grid.resolution


def metre_axes(ax, grid: OccupancyGrid, *, nbins: int = 8) -> None:
    """Ticks and labels in metres, and the map frame's axes at the world origin."""
    if not isinstance(grid, OccupancyGrid):
        raise ParameterError(f"metre axes need an OccupancyGrid, got {type(grid).__name__}")
    rows, cols, res = grid.rows, grid.cols, grid.resolution
    ox, oy, yaw = grid.origin
    ax.set_axis_on()
    x_ticks = MaxNLocator(nbins=nbins).tick_values(ox, ox + cols * res)
    x_ticks = x_ticks[(x_ticks >= ox - 1e-9) & (x_ticks <= ox + cols * res + 1e-9)]
    y_ticks = MaxNLocator(nbins=nbins).tick_values(oy, oy + rows * res)
    y_ticks = y_ticks[(y_ticks >= oy - 1e-9) & (y_ticks <= oy + rows * res + 1e-9)]
    ax.set_xticks((x_ticks - ox) / res - 0.5, [f"{v:g}" for v in np.round(x_ticks, 9)])
    ax.set_yticks(rows - (y_ticks - oy) / res - 0.5, [f"{v:g}" for v in np.round(y_ticks, 9)])
    ax.tick_params(labelsize=8, length=3)
    rotated = "" if yaw == 0.0 else f" (map axes, origin yaw {yaw:g} rad)"
    ax.set_xlabel("x [m]" + rotated, fontsize=9)
    ax.set_ylabel("y [m]", fontsize=9)
    # the map frame's own axes at the world origin, if it is in the picture
    length = 0.12 * min(rows, cols) * res
    pts = path_xy(grid, np.array([[0.0, 0.0], [length, 0.0], [0.0, length]]), world=True)
    inside = (-0.5 <= pts[0, 0] <= cols - 0.5) and (-0.5 <= pts[0, 1] <= rows - 0.5)
    if inside:
        for tip, colour, name in ((pts[1], X_AXIS_COLOR, "x"), (pts[2], Y_AXIS_COLOR, "y")):
            ax.annotate("", xy=tuple(tip), xytext=tuple(pts[0]), zorder=8,
                        arrowprops=dict(arrowstyle="-|>", color=colour, lw=2))
            ax.text(tip[0], tip[1], f" {name}", color=colour, fontsize=8, zorder=8)
