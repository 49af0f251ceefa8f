"""Rendering with matplotlib (the only robomaze package that imports it).

Everything is drawn in GRID coordinates: cell ``(row, col)`` sits at
``x = col, y = row`` with the y axis inverted, so a picture looks like the
array. :func:`render` makes a whole picture (PNG/SVG), :func:`export_bitmap`
a 1:1 bitmap; the ``draw_*`` functions add to an existing ``Axes``.

>>> from robomaze import Maze
>>> from robomaze.viz import render
>>> fig = render(Maze.empty(2, 2), cell_px=20, path=[(0, 0), (0, 1), (1, 1)])
>>> [int(v) for v in fig.get_size_inches() * fig.dpi]
[40, 40]
"""

from .draw import (GOAL_COLOR, PALETTE, PATH_COLOR, START_COLOR, WALL_COLOR, draw_grid,
                   draw_maze, draw_path, draw_points, path_xy)
from .render import FORMATS, bitmap, export_bitmap, figure_size, render, save_figure

__all__ = [
    "render", "export_bitmap", "save_figure", "bitmap", "figure_size", "FORMATS",
    "draw_grid", "draw_maze", "draw_path", "draw_points", "path_xy",
    "PATH_COLOR", "START_COLOR", "GOAL_COLOR", "WALL_COLOR", "PALETTE",
]
