"""Whole pictures: a maze or grid to a Figure, PNG or SVG, and 1:1 bitmaps.

Figures are built with :class:`matplotlib.figure.Figure` on an Agg canvas,
never through pyplot, so nothing opens a window and no global figure list
keeps them alive. Pixel sizes are exact: the figure is ``pixels / dpi``
inches and the axes fill it.
"""

from __future__ import annotations

import os
from pathlib import Path as _FsPath
from typing import Any, Mapping, Sequence

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from .._validate import check_float, check_int
from ..errors import ParameterError
from ..grid import OccupancyGrid
from ..world import widen_maze
from ..io import check_memory
from ..maze import Maze
from .draw import (GOAL_COLOR, START_COLOR, draw_grid, draw_maze, draw_points, overlay,
                   setup_axes)

__all__ = ["render", "export_bitmap", "save_figure", "figure_size", "check_visible", "FORMATS",
           "IMAGE_EXTENSIONS", "METRE_MARGINS"]

#: Output formats :func:`save_figure` writes, by file extension.
FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}
#: The picture extensions every command that draws accepts.
IMAGE_EXTENSIONS = tuple(FORMATS)
#: Pixels added left and below for metre axes (tick labels and axis titles).
METRE_MARGINS = (64, 44)
# no creation dates in vector output: same input, same bytes
_METADATA = {"png": None, "svg": {"Date": None}, "pdf": {"CreationDate": None}}
#: Automatic fitting aims for this many pixels on the longer side.
TARGET_PX = 1000
#: Automatic fitting (1 pixel per cell or more) stops here: larger lattices
#: are shrunk to this many pixels on their longer side (matplotlib resamples
#: an RGBA image in float32, 16 bytes per pixel, several times over).
MAX_AUTO_SIDE_PX = 2048
#: Largest picture asked for (``size`` or ``cell_px``): sides and total.
MAX_SIDE_PX = 16384
MAX_PIXELS = 64_000_000
#: Peak bytes per picture pixel while drawing and saving (RGBA canvas and
#: its copies, the uint8 image of the grid, PNG encoding).
PEAK_BYTES_PER_PIXEL = 48
#: Height in pixels of the band reserved for a title.
TITLE_PX = 28
_DPI = 100


def _format_of(out, *, allowed: Mapping[str, str] = FORMATS) -> str:
    suffix = _FsPath(os.fspath(out)).suffix.lower()
    if suffix not in allowed:
        raise ParameterError(
            f"out must end in {' or '.join(allowed)}, got {os.fspath(out)!r}")
    return allowed[suffix]


def figure_size(rows: int, cols: int, *, cell_px: float | None = None,
                size: Sequence[int] | None = None) -> tuple[int, int]:
    """Image size ``(width, height)`` in pixels for a ``rows x cols`` lattice.

    ``cell_px`` gives pixels per cell; ``size`` a fixed ``(w, h)``; neither
    fits the longer side to about 1000 pixels with at least 1 pixel per cell,
    up to :data:`MAX_AUTO_SIDE_PX` (a larger lattice is shrunk to it).
    Pictures are at most :data:`MAX_SIDE_PX` on a side and
    :data:`MAX_PIXELS` in all, and a lattice whose shorter side would get
    less than one pixel is refused.

    >>> figure_size(10, 20)
    (1000, 500)
    >>> figure_size(2000, 10)
    (10, 2000)
    >>> figure_size(3000, 10)
    (7, 2048)
    >>> figure_size(8000, 8000)
    (2048, 2048)
    >>> figure_size(10, 20, cell_px=4)
    (80, 40)
    >>> figure_size(10, 20, size=(300, 200))
    (300, 200)
    """
    if cell_px is not None and size is not None:
        raise ParameterError("give either cell_px or size, not both")
    if size is not None:
        try:
            w, h = size
        except (TypeError, ValueError):
            raise ParameterError(f"size must be (width_px, height_px), got {size!r}") from None
        w = check_int("size width", w, min_value=1, max_value=MAX_SIDE_PX)
        h = check_int("size height", h, min_value=1, max_value=MAX_SIDE_PX)
        if w * h > MAX_PIXELS:
            raise ParameterError(f"size {w}x{h} makes {w * h} pixels; expected at most "
                                 f"{MAX_PIXELS:,d} pixels in all")
        check_visible(rows, cols, w, h)
        return w, h
    if cell_px is None:
        cell_px = max(1, TARGET_PX // max(rows, cols))
        if max(rows, cols) * cell_px > MAX_AUTO_SIDE_PX:
            cell_px = MAX_AUTO_SIDE_PX / max(rows, cols)
    cell_px = check_float("cell_px", cell_px, min_value=0.0, strict_min=True)
    w, h = max(1, round(cols * cell_px)), max(1, round(rows * cell_px))
    if w * h > MAX_PIXELS or max(w, h) > MAX_SIDE_PX:
        raise ParameterError(
            f"cell_px={cell_px} makes a {w}x{h} pixel image; expected at most "
            f"{MAX_SIDE_PX} pixels on a side and {MAX_PIXELS:,d} in all")
    check_visible(rows, cols, w, h)
    return w, h


def check_visible(rows: int, cols: int, width: int, height: int) -> None:
    """Refuse to fit a ``rows x cols`` lattice into ``width x height`` pixels
    when its shorter side would get less than one pixel (nothing would show).

    >>> check_visible(1, 9_000_000, 2048, 1)
    Traceback (most recent call last):
    ...
    robomaze.errors.ParameterError: a 1x9000000 lattice fitted into 2048x1 pixels gets 0.000228 pixels across its 1 rows; expected at least 1 pixel (draw part of it, or write a 1:1 bitmap: robomaze render --bitmap)
    """
    scale = min(width / cols, height / rows)
    short, what = (rows, "rows") if rows * scale <= cols * scale else (cols, "columns")
    if short * scale < 1:
        raise ParameterError(
            f"a {rows}x{cols} lattice fitted into {width}x{height} pixels gets "
            f"{short * scale:.3g} pixels across its {short} {what}; expected at least 1 "
            "pixel (draw part of it, or write a 1:1 bitmap: robomaze render --bitmap)")


def _new_figure(width_px: int, height_px: int) -> Figure:
    fig = Figure(figsize=(width_px / _DPI, height_px / _DPI), dpi=_DPI, facecolor="white")
    FigureCanvasAgg(fig)
    return fig


def save_figure(fig: Figure, out: str | os.PathLike) -> None:
    """Write a figure to PNG, SVG or PDF (chosen by the extension of ``out``).

    The pixel size of a PNG is exactly the figure's size times its dpi; SVG
    and PDF carry no creation date, so the same figure gives the same bytes.

    Raises
    ------
    ParameterError
        If ``out`` does not end in ``.png``, ``.svg`` or ``.pdf``.
    """
    import matplotlib

    fmt = _format_of(out)
    # a fixed salt for the SVG element ids, which are random by default
    with matplotlib.rc_context({"svg.hashsalt": "robomaze"}):
        fig.savefig(os.fspath(out), format=fmt, dpi=fig.dpi, facecolor=fig.get_facecolor(),
                    metadata=_METADATA[fmt])


def render(obj: Maze | OccupancyGrid, out: str | os.PathLike | None = None, *,
           path: Any = None, paths: Mapping[str, Any] | None = None,
           cell_px: float | None = None, size: Sequence[int] | None = None,
           title: str | None = None, marks: Mapping[str, Any] | None = None,
           ax: Any = None, graph: bool = False, start_color: str = START_COLOR,
           metres: bool = False) -> Figure:
    """Draw a maze or an occupancy grid, optionally with paths, to a Figure.

    Parameters
    ----------
    obj : Maze or OccupancyGrid
        A Maze is drawn as thin wall lines with the start (green) and goals
        (blue) marked and boundary openings left as gaps. A grid is drawn as
        an image (black = occupied); if it was made by ``widen`` the block
        centres of the maze's start and goals are marked.
    out : str or path-like, optional
        Write the picture here; ``.png``, ``.svg`` or ``.pdf``.
    path : array_like (n, 2) or robomaze Path, optional
        ``(row, col)`` cells (maze cells for a Maze, grid cells for a grid),
        drawn as a red polyline through cell centres.
    paths : dict label -> path, optional
        Several overlays, in distinct colours, with a legend.
    cell_px : float, optional
        Pixels per cell. Default: fit the longer side to ~1000 pixels, at
        least 1 pixel per cell.
    size : (width_px, height_px), optional
        Fixed image size; the drawing is fitted inside it, centred.
    title : str, optional
        Drawn in a band of 28 pixels added above the picture (taken out
        of ``size`` when a size is given).
    marks : dict label -> cells, optional
        Extra labelled markers.
    ax : matplotlib Axes, optional
        Draw into these axes instead of a new figure (sizes then ignored).
    graph : bool
        Draw the maze's cell graph over it (cells as nodes, passages as
        edges; see :func:`robomaze.viz.graph.draw_cell_graph`).
    start_color : str
        Colour of the start marker (default green; the paper uses red).
    metres : bool
        Axes in metres in the ROS map frame (grids only): ticks and labels
        ``x [m]``, ``y [m]`` from the grid's resolution and origin, and the
        frame's axes drawn at the world origin (x red, y green, as in RViz).
        The picture grows by :data:`METRE_MARGINS` for the labels.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    ParameterError
        Bad ``obj``, sizes, paths, or an ``out`` that is not .png/.svg.

    Examples
    --------
    >>> from robomaze import Maze, widen
    >>> fig = render(widen(Maze.empty(2, 3)), cell_px=10)
    >>> [int(v) for v in fig.get_size_inches() * fig.dpi]
    [70, 50]
    """
    if isinstance(obj, Maze):
        rows, cols = obj.shape
    elif isinstance(obj, OccupancyGrid):
        rows, cols = obj.shape
    else:
        raise ParameterError(
            f"obj must be a robomaze Maze or OccupancyGrid, got {type(obj).__name__}")
    if out is not None:
        _format_of(out)  # fail before drawing anything
    if cell_px is not None and size is not None:
        raise ParameterError("give either cell_px or size, not both")
    if metres and not isinstance(obj, OccupancyGrid):
        raise ParameterError("metres=True needs an OccupancyGrid (a maze has no resolution); "
                             "widen the maze first")
    if ax is None:
        band = TITLE_PX * (str(title).count("\n") + 1) if title else 0   # a band per line
        mx, my = METRE_MARGINS if metres else (0, 0)
        if size is not None:
            w, h = figure_size(rows, cols, size=size)
            if h <= band + my or w <= mx:
                raise ParameterError(f"size must exceed {mx}x{band + my} pixels with these "
                                     f"labels, got {w}x{h}")
            fig_w, fig_h = w, h
        else:
            w, h = figure_size(rows, cols, cell_px=cell_px)
            fig_w, fig_h = w + mx, h + band + my
        # the canvas, its copy while saving and the picture of the grid or
        # walls (at most one image pixel per screen pixel)
        check_memory(f"a {fig_w}x{fig_h} pixel picture", fig_w * fig_h * PEAK_BYTES_PER_PIXEL,
                     out, verb="drawing")
        fig = _new_figure(fig_w, fig_h)
        ax = fig.add_axes((mx / fig_w, my / fig_h, 1.0 - mx / fig_w,
                           (fig_h - band - my) / fig_h))
        if title:
            fig.text(0.5, 1.0 - 0.5 * band / fig_h, str(title), ha="center", va="center",
                     fontsize=12)
    else:
        fig = ax.figure
        if title:
            ax.set_title(str(title))
    setup_axes(ax, rows, cols)
    if isinstance(obj, Maze):
        draw_maze(ax, obj, start_color=start_color)
    else:
        draw_grid(ax, obj)
        if obj.maze is not None and obj.widening is not None:
            start = obj.maze_centre(obj.maze.start)
            goals = [obj.maze_centre(g) for g in obj.maze.goals]
            k = obj.widening.corridor
            draw_points(ax, obj, [start], color=start_color, marker="s", size=0.6 * k)
            draw_points(ax, obj, goals, color=GOAL_COLOR, marker="s", size=0.6 * k)
    if graph:
        from .graph import draw_cell_graph

        draw_cell_graph(ax, obj)
    overlay(ax, obj, path=path, paths=paths, marks=marks)
    if metres:
        from .frame import metre_axes

        metre_axes(ax, obj)
    if out is not None:
        save_figure(fig, out)
    return fig


def bitmap(obj: Maze | OccupancyGrid) -> np.ndarray:
    """The uint8 image of :func:`export_bitmap`: 0 (black) occupied, 255 free.

    >>> bitmap(Maze.empty(1, 1))
    array([[  0,   0,   0],
           [  0, 255,   0],
           [  0,   0,   0]], dtype=uint8)
    """
    if isinstance(obj, Maze):
        obj = widen_maze(obj, corridor=1, wall=1)
    if not isinstance(obj, OccupancyGrid):
        raise ParameterError(
            f"grid must be a robomaze OccupancyGrid or Maze, got {type(obj).__name__}")
    return np.where(obj.occupied, 0, 255).astype(np.uint8)


def export_bitmap(grid: Maze | OccupancyGrid, out: str | os.PathLike) -> None:
    """Write a 1:1 PNG: one pixel per grid cell, black occupied, white free.

    A Maze is widened with ``corridor = wall = 1`` first (its 2r+1 matrix).

    Raises
    ------
    ParameterError
        If ``out`` does not end in ``.png`` or ``grid`` is neither type.
    """
    _format_of(out, allowed={".png": "png"})
    from ..io.image import write_pixels  # the one PNG/PGM pixel writer

    write_pixels(bitmap(grid), out)
