"""Drawing primitives onto a matplotlib ``Axes``, all in GRID coordinates.

A cell ``(row, col)`` is centred at ``x = col, y = row`` and covers
``[col - 0.5, col + 0.5] x [row - 0.5, row + 0.5]``; the y axis is inverted
so row 0 is at the top, exactly as the array prints. For a :class:`Maze`
the "grid" is the maze's own cell lattice; for an :class:`OccupancyGrid`
it is the occupancy array.

Sizes (line widths, marker sizes) scale with the number of screen pixels
per grid cell, which every function reads from the axes, so a picture looks
the same at 5 or 50 pixels per cell.
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np
from matplotlib.patches import PathPatch
from matplotlib.path import Path as MplPath

from ..errors import ParameterError
from ..grid import OccupancyGrid
from ..maze import Maze

__all__ = [
    "draw_grid", "draw_maze", "draw_path", "draw_points", "path_xy", "grid_rgba",
    "block_factors",
    "PATH_COLOR", "START_COLOR", "GOAL_COLOR", "WALL_COLOR", "PALETTE",
]

#: Colour of a single path overlay (pure so tests can find it in pixels).
PATH_COLOR = "#ff0000"
#: Start marker colour.
START_COLOR = "#00b000"
#: Goal marker colour.
GOAL_COLOR = "#0050ff"
#: Walls and occupied cells.
WALL_COLOR = "#000000"
#: Below this many screen pixels per cell a maze's walls are drawn as an image.
MIN_LINE_PX = 2.0
#: Colours for several overlays (``paths=`` / ``marks=``), in order.
PALETTE = ("#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4",
           "#42d4f4", "#f032e6", "#bfef45", "#9a6324", "#800000")

def is_colour(text: str) -> bool:
    """Whether matplotlib understands ``text`` as a colour (a name or ``#rrggbb``).

    >>> is_colour("red"), is_colour("#00b000"), is_colour("reddish")
    (True, True, False)
    """
    from matplotlib.colors import is_color_like

    return isinstance(text, str) and is_color_like(text)


def _lattice_shape(obj) -> tuple[int, int]:
    if isinstance(obj, (Maze, OccupancyGrid)):
        return obj.rows, obj.cols
    raise ParameterError(
        f"expected a robomaze Maze or OccupancyGrid, got {type(obj).__name__}")


def setup_axes(ax, rows: int, cols: int) -> None:
    """Grid-coordinate limits, y inverted, equal aspect and no ticks."""
    ax.set_xlim(-0.5, cols - 0.5)
    ax.set_ylim(rows - 0.5, -0.5)
    ax.set_aspect("equal", adjustable="box", anchor="C")
    ax.set_axis_off()


def px_per_cell(ax, rows: int, cols: int) -> float:
    """Screen pixels per grid cell of ``ax`` (from its position, no drawing)."""
    fig = ax.figure
    pos = ax.get_position()
    w = pos.width * fig.get_figwidth() * fig.dpi
    h = pos.height * fig.get_figheight() * fig.dpi
    x0, x1 = ax.get_xlim()
    y0, y1 = ax.get_ylim()
    return max(1e-9, min(w / max(abs(x1 - x0), 1e-9), h / max(abs(y1 - y0), 1e-9)))


def _pt(ax, px: float) -> float:
    """Pixels to points (line widths and marker sizes are in points)."""
    return px * 72.0 / ax.figure.dpi


def draw_grid(ax, grid: OccupancyGrid, *, color: str = WALL_COLOR,
              interpolation: str | None = None) -> Any:
    """Draw a grid's occupied cells as an image (white = free).

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    grid : OccupancyGrid
    color : str
        Colour of occupied cells.
    interpolation : str, optional
        Passed to ``imshow``; default ``"nearest"`` when each cell covers at
        least one pixel (crisp edges), ``"antialiased"`` when shrinking.

    Returns
    -------
    matplotlib.image.AxesImage
    """
    if not isinstance(grid, OccupancyGrid):
        raise ParameterError(f"grid must be an OccupancyGrid, got {type(grid).__name__}")
    if not ax.images and not ax.lines and not ax.collections:
        setup_axes(ax, grid.rows, grid.cols)
    rgba = grid_rgba(grid.occupied, color, _axes_pixels(ax))
    if interpolation is None:
        # after grid_rgba every image pixel covers at least one screen pixel
        interpolation = "nearest"
    return ax.imshow(rgba, interpolation=interpolation, origin="upper",
                     extent=(-0.5, grid.cols - 0.5, grid.rows - 0.5, -0.5), zorder=0)


def _axes_pixels(ax) -> tuple[int, int]:
    """Screen pixels (width, height) of ``ax``, at least 1 each."""
    fig = ax.figure
    pos = ax.get_position()
    return (max(1, int(np.ceil(pos.width * fig.get_figwidth() * fig.dpi))),
            max(1, int(np.ceil(pos.height * fig.get_figheight() * fig.dpi))))


def block_factors(rows: int, cols: int, pixels: tuple[int, int]) -> tuple[int, int]:
    """Cells per image pixel ``(fr, fc)`` so that a ``rows x cols`` lattice
    shown in ``pixels = (width, height)`` gets no more image pixels than
    screen pixels (1 when it already fits).

    >>> block_factors(8000, 8000, (4096, 4096)), block_factors(10, 10, (100, 100))
    ((2, 2), (1, 1))
    """
    w, h = pixels
    return max(1, -(-rows // max(1, h))), max(1, -(-cols // max(1, w)))


def grid_rgba(occupied: np.ndarray, color: str = WALL_COLOR,
              pixels: tuple[int, int] | None = None) -> np.ndarray:
    """A uint8 RGBA picture of ``occupied`` (white free, ``color`` occupied).

    When ``pixels`` (screen width, height) is smaller than the grid, blocks
    of cells are averaged into one image pixel first (a shade between white
    and ``color``), so matplotlib is never handed more pixels than it
    draws, and never a float image: 4 bytes per image pixel.

    >>> grid_rgba(np.array([[True, False]]))[..., 0].tolist()
    [[0, 255]]
    >>> grid_rgba(np.array([[True, False, False, False]]), pixels=(2, 1))[..., 0].tolist()
    [[127, 255]]
    """
    from matplotlib.colors import to_rgb

    occ = np.asarray(occupied, dtype=bool)
    rows, cols = occ.shape
    fr, fc = (1, 1) if pixels is None else block_factors(rows, cols, pixels)
    if fr > 1 or fc > 1:
        pr, pc = -(-rows // fr) * fr, -(-cols // fc) * fc
        counts = np.zeros((pr // fr, pc // fc), np.uint32)
        step = max(1, (1 << 22) // max(1, cols) // fr) * fr     # bounded temporaries
        for r0 in range(0, rows, step):
            block = occ[r0:r0 + step]
            n = block.shape[0]
            padded = np.zeros((-(-n // fr) * fr, pc), bool)
            padded[:n, :cols] = block
            counts[r0 // fr:r0 // fr + padded.shape[0] // fr] = padded.reshape(
                padded.shape[0] // fr, fr, pc // fc, fc).sum(axis=(1, 3), dtype=np.uint32)
        # share of occupied cells per block, 0..255 (edge blocks may hold fewer
        # cells); uint32 in place, no float copy
        area = np.full(counts.shape, fr * fc, np.uint32)
        area[-1, :] = (rows - (counts.shape[0] - 1) * fr) * fc
        area[:, -1] = fr * (cols - (counts.shape[1] - 1) * fc)
        area[-1, -1] = (rows - (counts.shape[0] - 1) * fr) * (cols - (counts.shape[1] - 1) * fc)
        counts *= 255
        counts += area // 2
        counts //= area
        del area
        frac = counts.astype(np.uint8)
    else:
        frac = occ.view(np.uint8) * np.uint8(255)
    out = np.empty(frac.shape + (4,), np.uint8)
    for i, c in enumerate(to_rgb(color)):
        ink = int(round(c * 255))
        # white (255) where frac is 0, the ink where it is 255
        lut = (255 - (np.arange(256) * (255 - ink) + 127) // 255).astype(np.uint8)
        out[..., i] = lut[frac]
    out[..., 3] = 255
    return out


def _runs(lines: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Maximal runs of True along axis 1: (line index, start, stop exclusive)."""
    padded = np.zeros((lines.shape[0], lines.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = lines
    d = np.diff(padded, axis=1)
    li, start = np.nonzero(d == 1)
    _, stop = np.nonzero(d == -1)
    return li, start, stop


def maze_wall_segments(maze: Maze) -> np.ndarray:
    """Wall segments ``(n, 2, 2)`` as ``[[x0, y0], [x1, y1]]`` in grid coordinates.

    Collinear walls are merged into one segment per straight run, so a maze
    of a million cells is drawn with far fewer segments (and no seams).

    >>> maze_wall_segments(Maze.full(1, 1)).shape
    (4, 2, 2)
    >>> maze_wall_segments(Maze.empty(1, 2, openings=[(0, 0, "W")])).tolist()
    [[[-0.5, -0.5], [1.5, -0.5]], [[-0.5, 0.5], [1.5, 0.5]], [[1.5, -0.5], [1.5, 0.5]]]
    """
    rows, cols = maze.shape
    # horizontal wall lines y = i - 0.5 for i = 0..rows; vertical x = j - 0.5, j = 0..cols
    horiz = np.ones((rows + 1, cols), dtype=bool)
    horiz[1:] = maze.south
    vert = np.ones((cols + 1, rows), dtype=bool)
    vert[1:] = maze.east.T
    for r, c, side in maze.openings:
        if side == "N":
            horiz[0, c] = False
        elif side == "S":
            horiz[rows, c] = False
        elif side == "W":
            vert[0, r] = False
        else:
            vert[cols, r] = False
    hi, hs, he = _runs(horiz)
    vj, vs, ve = _runs(vert)
    parts = [np.stack([hs - 0.5, hi - 0.5, he - 0.5, hi - 0.5], axis=1),
             np.stack([vj - 0.5, vs - 0.5, vj - 0.5, ve - 0.5], axis=1)]
    return np.concatenate(parts).astype(float).reshape(-1, 2, 2)


def draw_maze(ax, maze: Maze, *, color: str = WALL_COLOR, linewidth: float | None = None,
              markers: bool = True, start_color: str = START_COLOR) -> PathPatch:
    """Draw a maze's walls as thin lines, with start and goal marked.

    Openings in the outer wall are left as gaps.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    maze : Maze
    color : str
        Wall colour.
    linewidth : float, optional
        In points; default about 12% of a cell (at least one pixel).
    markers : bool
        Mark the start (green square) and goals (blue squares).
    start_color : str
        Colour of the start marker (the paper draws it red).

    Returns
    -------
    matplotlib.patches.PathPatch or matplotlib.image.AxesImage
        The walls: lines, or below :data:`MIN_LINE_PX` pixels per cell (and
        no ``linewidth`` given) an image of the ``2r+1`` wall matrix.
    """
    if not isinstance(maze, Maze):
        raise ParameterError(f"maze must be a robomaze Maze, got {type(maze).__name__}")
    if not ax.images and not ax.lines and not ax.collections:
        setup_axes(ax, maze.rows, maze.cols)
    px = px_per_cell(ax, maze.rows, maze.cols)
    if px < MIN_LINE_PX and linewidth is None:
        # walls and corridors cannot both show: draw the 2r+1 wall matrix as
        # a (block-averaged) image instead of millions of sub-pixel lines
        walls = ax.imshow(grid_rgba(maze.to_matrix().view(bool), color, _axes_pixels(ax)),
                          interpolation="nearest", origin="upper", zorder=2,
                          extent=(-0.75, maze.cols - 0.25, maze.rows - 0.25, -0.75))
        setup_axes(ax, maze.rows, maze.cols)
    else:
        walls = _wall_lines(ax, maze, color, linewidth, px)
    if markers:
        draw_points(ax, maze, [maze.start], color=start_color, marker="s", size=0.6,
                    zorder=3)
        draw_points(ax, maze, list(maze.goals), color=GOAL_COLOR, marker="s", size=0.6,
                    zorder=3)
    return walls


def _wall_lines(ax, maze: Maze, color: str, linewidth: float | None, px: float) -> PathPatch:
    if linewidth is None:
        linewidth = _pt(ax, max(1.0, 0.12 * px))
    segs = maze_wall_segments(maze)
    codes = np.tile(np.array([MplPath.MOVETO, MplPath.LINETO], dtype=MplPath.code_type),
                    len(segs))
    # one compound path: a collection of a million small paths is ~100x slower to build
    walls = PathPatch(MplPath(segs.reshape(-1, 2), codes), fill=False, edgecolor=color,
                      linewidth=linewidth, capstyle="projecting", joinstyle="miter", zorder=2)
    ax.add_artist(walls)  # limits are already set: skip autoscaling over every vertex
    return walls


def path_xy(obj, path, *, world: bool = False) -> np.ndarray:
    """Plot coordinates ``(n, 2)`` (x = col, y = row) of a path.

    Parameters
    ----------
    obj : Maze or OccupancyGrid
        What the path lives on.
    path : array_like (n, 2) or object with ``.cells``
        ``(row, col)`` cells, or a robomaze ``Path`` (its exact world
        ``.points`` are used on a grid when present, else its ``.cells``).
    world : bool
        ``path`` holds world ``(x, y)`` points (metres) of a grid.

    Examples
    --------
    >>> from robomaze.grid import OccupancyGrid
    >>> g = OccupancyGrid(np.zeros((4, 5), bool), resolution=0.5)
    >>> path_xy(g, [[0, 1], [3, 4]])
    array([[1., 0.],
           [4., 3.]])
    >>> path_xy(g, [[0.25, 1.75]], world=True)
    array([[0., 0.]])
    """
    rows, cols = _lattice_shape(obj)
    if hasattr(path, "cells"):
        points = getattr(path, "points", None)
        if isinstance(obj, OccupancyGrid) and points is not None and len(points):
            path, world = points, True
        else:
            path, world = path.cells, False
    a = np.asarray(path, dtype=float)
    if a.size == 0:
        return np.zeros((0, 2))
    if a.ndim != 2 or a.shape[1] != 2:
        raise ParameterError(f"path must be an (n, 2) array of (row, col) cells, got shape {a.shape}")
    if not np.isfinite(a).all():
        raise ParameterError("path coordinates must be finite")
    if world:
        if not isinstance(obj, OccupancyGrid):
            raise ParameterError("world points need an OccupancyGrid, not a Maze")
        u, v = obj.frame.to_units(a[:, 0], a[:, 1])
        return np.stack([u - 0.5, v - 0.5], axis=1)
    return a[:, ::-1].copy()


def draw_path(ax, grid, cells_or_points, *, world: bool = False, color: str = PATH_COLOR,
              linewidth: float | None = None, label: str | None = None,
              zorder: float = 4, **style) -> Any:
    """Draw a path as a polyline through cell centres.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    grid : Maze or OccupancyGrid
    cells_or_points : array_like (n, 2) or robomaze Path
        See :func:`path_xy`.
    world : bool
        Points are world ``(x, y)`` in metres (grids only).
    color, linewidth, label, zorder, **style
        Line style; ``linewidth`` in points, default about 35% of a cell.

    Returns
    -------
    matplotlib.lines.Line2D
    """
    rows, cols = _lattice_shape(grid)
    xy = path_xy(grid, cells_or_points, world=world)
    if linewidth is None:
        linewidth = _pt(ax, max(1.5, 0.35 * px_per_cell(ax, rows, cols)))
    style.setdefault("solid_capstyle", "round")
    style.setdefault("solid_joinstyle", "round")
    (line,) = ax.plot(xy[:, 0], xy[:, 1], color=color, linewidth=linewidth, label=label,
                      zorder=zorder, **style)
    return line


def draw_points(ax, grid, cells, *, color: str = PATH_COLOR, marker: str = "o",
                size: float = 0.5, label: str | None = None, zorder: float = 5,
                **style) -> Any:
    """Mark cells with markers.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    grid : Maze or OccupancyGrid
    cells : array_like (n, 2)
        ``(row, col)`` cells (or a robomaze Path).
    color, marker, label, zorder, **style
        Marker style.
    size : float
        Marker size as a fraction of a cell (at least 3 pixels).

    Returns
    -------
    matplotlib.collections.PathCollection
    """
    rows, cols = _lattice_shape(grid)
    xy = path_xy(grid, cells)
    side_pt = _pt(ax, max(3.0, size * px_per_cell(ax, rows, cols)))
    return ax.scatter(xy[:, 0], xy[:, 1], s=side_pt ** 2, c=color, marker=marker,
                      label=label, zorder=zorder, linewidths=0, **style)


def overlay(ax, obj, *, path=None, paths: Mapping[str, Any] | None = None,
            marks: Mapping[str, Any] | None = None) -> None:
    """Draw the optional path, labelled paths and labelled marks; add a legend."""
    labelled = False
    if path is not None:
        draw_path(ax, obj, path)
    rows, cols = _lattice_shape(obj)
    px = px_per_cell(ax, rows, cols)
    for i, (label, p) in enumerate((paths or {}).items()):
        # later overlays are drawn thinner so overlapping routes stay visible
        width = _pt(ax, max(1.0, 0.35 * px * 0.8 ** i))
        draw_path(ax, obj, p, color=PALETTE[i % len(PALETTE)], label=str(label),
                  linewidth=width, zorder=4 + 0.01 * i)
        labelled = True
    for i, (label, cells) in enumerate((marks or {}).items()):
        color = PALETTE[(i + len(paths or {})) % len(PALETTE)]
        draw_points(ax, obj, cells, color=color, marker="D", size=0.5, label=str(label))
        labelled = True
    if labelled:
        ax.legend(loc="upper right", fontsize="small", framealpha=0.8)
