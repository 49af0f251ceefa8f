"""Micromouse mazes drawn the way the community draws them.

Posts at every lattice point, walls between them, the start cell and the
goal cells tinted, the cells the mouse explored shaded, and the best route
as a line through cell centres. With a run's wall knowledge, walls the mouse
saw are black and walls it never saw are drawn faint red (as in mms);
``unknown_walls`` (from a text file's ``.`` marks) are dotted. Axis ticks use
micromouse coordinates: ``x`` from the west, ``y`` from the south.

Drawing is in GRID coordinates like the rest of :mod:`robomaze.viz`
(cell ``(row, col)`` centred at ``x = col, y = row``, y axis inverted).
"""

from __future__ import annotations

import os
from typing import Any, Sequence

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from ..errors import ParameterError
from ..maze import Maze
from . import GOAL_COLOR, PATH_COLOR, START_COLOR, WALL_COLOR, draw_path, figure_size, \
    save_figure

__all__ = ["render_micromouse", "draw_micromouse", "EXPLORED_COLOR", "UNSEEN_WALL_COLOR"]

#: Shade of explored cells.
EXPLORED_COLOR = "#c8c8c8"
#: Walls the mouse never sensed (with a run's knowledge).
UNSEEN_WALL_COLOR = "#e07070"
_START_FILL = "#b8f0b8"
_GOAL_FILL = "#b8d0ff"
_DPI = 100


def _segments(maze: Maze, mask_e: np.ndarray, mask_s: np.ndarray) -> np.ndarray:
    """Wall segments for the masks of east / south walls (boundary included)."""
    segs = []
    for r, c in np.argwhere(mask_e):
        segs.append(((c + 0.5, r - 0.5), (c + 0.5, r + 0.5)))
    for r, c in np.argwhere(mask_s):
        segs.append(((c - 0.5, r + 0.5), (c + 0.5, r + 0.5)))
    return np.array(segs, float).reshape(-1, 2, 2)


def _wall_masks(maze: Maze) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """East/south walls plus the north row and west column boundary walls."""
    rows, cols = maze.shape
    east = np.array([[maze.wall((r, c), "E") for c in range(cols)] for r in range(rows)])
    south = np.array([[maze.wall((r, c), "S") for c in range(cols)] for r in range(rows)])
    north = np.array([maze.wall((0, c), "N") for c in range(cols)])
    west = np.array([maze.wall((r, 0), "W") for r in range(rows)])
    return east, south, north, west


def draw_micromouse(ax, maze: Maze, *, run: Any = None, explored: np.ndarray | None = None,
                    route: Sequence | None = None, known: np.ndarray | None = None,
                    unknown_walls: tuple[np.ndarray, np.ndarray] | None = None,
                    linewidth: float | None = None) -> None:
    """Draw a micromouse maze on ``ax`` (see the module notes).

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    maze : Maze
    run : MouseRun, optional
        Supplies ``explored``, ``route`` and ``known`` unless given; a run
        with a time-optimal fast run (``run.fast``) has it drawn along its
        centre line (:meth:`~robomaze.micromouse.FastRoute.polyline`).
    explored : array of bool (rows, cols), optional
    route : sequence of (row, col), optional
    known : int8 array (rows, cols, 4), optional
        Wall knowledge (2 = wall seen), sides N, E, S, W.
    unknown_walls : (east, south) bool arrays, optional
        Walls marked unknown in the source file; drawn dotted.
    linewidth : float, optional
        Wall width in points (default scales with the cell size).
    """
    if not isinstance(maze, Maze):
        raise ParameterError(f"maze must be a Maze, got {type(maze).__name__}")
    rows, cols = maze.shape
    if run is not None:
        explored = run.explored if explored is None else explored
        fast = getattr(run, "fast", None)
        if route is None and fast is not None and len(fast.points) > 1:
            # the fast run's centre line: slaloms and diagonals, not cell centres
            route = fast.polyline()
        route = run.route if route is None else route
        known = run.known if known is None else known
        # Show the start and goals the run used (a hosted run may use mms's centre).
        if getattr(run, "start", None) is not None and getattr(run, "goals", ()):
            maze = maze.replace(start=tuple(run.start), goals=list(run.goals))
    ax.set_xlim(-0.5 - 0.05, cols - 0.5 + 0.05)
    ax.set_ylim(rows - 0.5 + 0.05, -0.5 - 0.05)
    ax.set_aspect("equal")
    bbox = ax.get_window_extent()
    px = max(1.0, min(bbox.width / max(cols, 1), bbox.height / max(rows, 1)))
    if linewidth is None:
        linewidth = max(0.8, 0.08 * px) * 72 / _DPI
    _draw_cells(ax, maze, explored)
    _draw_walls(ax, maze, known, unknown_walls, linewidth)
    if route is not None and len(route) > 1:
        draw_path(ax, maze, np.asarray(route), color=PATH_COLOR, zorder=4,
                  linewidth=max(1.0, 0.2 * px) * 72 / _DPI)
    r0, c0 = maze.start
    ax.scatter([c0], [r0], s=(px * 0.35 * 72 / _DPI) ** 2, c=START_COLOR, marker="o",
               linewidths=0, zorder=5)
    gx = [c for _, c in maze.goals]
    gy = [r for r, _ in maze.goals]
    ax.scatter(gx, gy, s=(px * 0.3 * 72 / _DPI) ** 2, c=GOAL_COLOR, marker="*",
               linewidths=0, zorder=5)


def _draw_cells(ax, maze: Maze, explored) -> None:
    """Explored cells, then the goal and start fills."""
    if explored is not None:
        ex = np.asarray(explored, bool)
        if ex.shape != maze.shape:
            raise ParameterError(f"explored must have shape {maze.shape}, got {ex.shape}")
        for r, c in np.argwhere(ex):
            ax.add_patch(Rectangle((c - 0.5, r - 0.5), 1, 1, color=EXPLORED_COLOR,
                                   linewidth=0, zorder=0))
    for (r, c) in maze.goals:
        ax.add_patch(Rectangle((c - 0.5, r - 0.5), 1, 1, color=_GOAL_FILL, alpha=0.8,
                               linewidth=0, zorder=0.5))
    r0, c0 = maze.start
    ax.add_patch(Rectangle((c0 - 0.5, r0 - 0.5), 1, 1, color=_START_FILL, alpha=0.8,
                           linewidth=0, zorder=0.5))


def _draw_walls(ax, maze: Maze, known, unknown_walls, linewidth: float) -> None:
    """Walls (seen solid, unseen faint, unknown in the file dotted) and posts."""
    rows, cols = maze.shape
    east, south, north, west = _wall_masks(maze)
    seen_e = np.ones_like(east)
    seen_s = np.ones_like(south)
    if known is not None:
        k = np.asarray(known)
        if k.shape != (rows, cols, 4):
            raise ParameterError(f"known must have shape {(rows, cols, 4)}, got {k.shape}")
        seen_e = k[:, :, 1] == 2
        seen_s = k[:, :, 2] == 2
    dotted_e = np.zeros_like(east)
    dotted_s = np.zeros_like(south)
    if unknown_walls is not None:
        dotted_e, dotted_s = (np.asarray(a, bool) for a in unknown_walls)
    solid = _segments(maze, east & seen_e & ~dotted_e, south & seen_s & ~dotted_s)
    unseen = _segments(maze, east & ~seen_e & ~dotted_e, south & ~seen_s & ~dotted_s)
    dotted = _segments(maze, east & dotted_e, south & dotted_s)
    border = [((c - 0.5, -0.5), (c + 0.5, -0.5)) for c in range(cols) if north[c]]
    border += [((-0.5, r - 0.5), (-0.5, r + 0.5)) for r in range(rows) if west[r]]
    if border:
        solid = np.concatenate([solid, np.array(border, float)])
    ax.add_collection(LineCollection(solid, colors=WALL_COLOR, linewidths=linewidth,
                                     capstyle="projecting", zorder=3))
    if len(unseen):
        ax.add_collection(LineCollection(unseen, colors=UNSEEN_WALL_COLOR,
                                         linewidths=linewidth, capstyle="projecting",
                                         zorder=2.5))
    if len(dotted):
        ax.add_collection(LineCollection(dotted, colors=WALL_COLOR, linewidths=linewidth,
                                         linestyles=":", zorder=2.5))
    px_, py_ = np.meshgrid(np.arange(cols + 1) - 0.5, np.arange(rows + 1) - 0.5)
    post = (linewidth * 1.6) ** 2
    ax.scatter(px_.ravel(), py_.ravel(), s=post, c=WALL_COLOR, marker="s", linewidths=0,
               zorder=3.5)


def render_micromouse(maze: Maze, out: str | os.PathLike | None = None, *, run: Any = None,
                      explored: np.ndarray | None = None, route: Sequence | None = None,
                      known: np.ndarray | None = None,
                      unknown_walls: tuple[np.ndarray, np.ndarray] | None = None,
                      cell_px: float | None = None, size: Sequence[int] | None = None,
                      title: str | None = None, ticks: bool = True) -> Figure:
    """A whole picture of a micromouse maze (optionally written to PNG/SVG).

    Parameters are those of :func:`draw_micromouse`, plus ``out`` (file to
    write), ``cell_px`` / ``size`` (as for :func:`robomaze.viz.render`),
    ``title`` and ``ticks`` (micromouse ``x`` / ``y`` labels).

    Examples
    --------
    >>> from robomaze.maze import Maze
    >>> fig = render_micromouse(Maze.empty(4, 4, start=(3, 0), goals=[(1, 1)]), cell_px=30,
    ...                         route=[(3, 0), (2, 0), (1, 0), (1, 1)], ticks=False)
    >>> [int(v) for v in fig.get_size_inches() * fig.dpi]
    [120, 120]
    """
    if not isinstance(maze, Maze):
        raise ParameterError(f"maze must be a Maze, got {type(maze).__name__}")
    w, h = figure_size(maze.rows, maze.cols, cell_px=cell_px if cell_px or size else
                       max(8, 640 // max(maze.shape)), size=size)
    fig = Figure(figsize=(w / _DPI, h / _DPI), dpi=_DPI, facecolor="white")
    FigureCanvasAgg(fig)
    if ticks or title:
        ax = fig.add_axes((0.07, 0.07, 0.88, 0.86 if title else 0.9))
    else:
        ax = fig.add_axes((0, 0, 1, 1))
    draw_micromouse(ax, maze, run=run, explored=explored, route=route, known=known,
                    unknown_walls=unknown_walls)
    if ticks:
        step = max(1, max(maze.shape) // 16)
        ax.set_xticks(range(0, maze.cols, step))
        ax.set_xticklabels([str(x) for x in range(0, maze.cols, step)], fontsize=7)
        ys = list(range(0, maze.rows, step))
        ax.set_yticks([maze.rows - 1 - y for y in ys])
        ax.set_yticklabels([str(y) for y in ys], fontsize=7)
        ax.tick_params(length=0)
        for spine in ax.spines.values():
            spine.set_visible(False)
    else:
        ax.set_axis_off()
    if title:
        ax.set_title(title, fontsize=9)
    if out is not None:
        save_figure(fig, out)
    return fig
