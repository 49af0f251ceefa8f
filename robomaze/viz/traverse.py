"""Windows and pictures for traversals: play, replay, still image, heat map.

* :class:`PlayWindow` connects a figure's ``key_press_event`` to a
  :class:`robomaze.traverse.game.Game` and redraws the walk, the fog of the
  visibility mode, the goal and a status line. ``q``/``escape`` ends the game.
* :class:`Replay` animates a :class:`~robomaze.traverse.record.TraversalRecord`
  with :class:`matplotlib.animation.FuncAnimation`: frame ``i`` shows the
  first ``i`` executed moves (so there are ``moves + 1`` frames, the first
  being the start), each move coloured by its direction in a palette of
  :mod:`robomaze.traverse.palette` (default Okabe-Ito: right blue, down
  vermilion, left sky blue, up bluish green; ``"paper"``: right blue, down
  red, left cyan, up green) -- and the current position highlighted.
  In a window, space pauses/resumes and
  ``+``/``-`` change the speed. :meth:`Replay.save` writes GIF (Pillow) or
  MP4 (only when ffmpeg is installed).
* :func:`still` draws the whole walk in one picture; :func:`section_heatmap`
  paints each maze section with its error from :mod:`robomaze.traverse.score`.

The start and end of a walk are marked in one of :data:`MARKS`:
``"robomaze"`` (default: a green start square and an orange dot where the
walker is) or ``"paper"`` (the paper's Fig. 13: a red square at the start
and a blue square at the end, or where the walker is during an animation).

Everything is drawn in grid coordinates (cell ``(row, col)`` at
``x = col, y = row``, y axis inverted), on the backgrounds of
:func:`robomaze.viz.draw_maze` and :func:`robomaze.viz.draw_grid`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib import animation
from matplotlib.collections import LineCollection
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure

from .._validate import check_choice, check_int
from ..errors import ParameterError
from ..grid import OccupancyGrid
from ..maze import Maze
from ..traverse.palette import DEFAULT_PALETTE, direction_colors
from ._trail import TwoWayTrail, legend_rows, trail_legend, two_way_trail
from .draw import GOAL_COLOR, START_COLOR, draw_grid, draw_maze, setup_axes
from .render import _new_figure, figure_size, save_figure

__all__ = ["DIRECTION_COLORS", "PlayWindow", "Replay", "still", "section_heatmap",
           "move_colors", "ffmpeg_available", "MARKS", "PAPER_START_COLOR", "PAPER_END_COLOR"]

#: Colour of a move by its direction ``(drow, dcol)`` (the default palette).
DIRECTION_COLORS = direction_colors(DEFAULT_PALETTE)
_TURN_COLOR = "#888888"
_FOG = to_rgba("#505050")
_HERE = "#ff8c00"
#: A hint: a piece of the best route, in the pages' route colour.
HINT_COLOR = "#ff00ff"
#: Seconds a hint stays on the map (the browser page's too).
HINT_SECONDS = 4.0
_LEGEND_ROW_PX = 15
#: Start / end marks of a walk: robomaze's own, or the paper's (Fig. 13).
MARKS = ("robomaze", "paper")
PAPER_START_COLOR = "#ff0000"
PAPER_END_COLOR = "#0000ff"


def _check_marks(marks: str) -> str:
    return check_choice("marks", marks, MARKS)


def _paper_square(ax, x: float, y: float, color: str):
    """One of the paper's marks: a filled square with a black rim, over the walk."""
    (line,) = ax.plot([x], [y], "s", color=color, markersize=10, zorder=8,
                      markeredgecolor="black")
    return line


def move_colors(positions: np.ndarray, palette: str = DEFAULT_PALETTE) -> list:
    """Colour of each move between consecutive positions (grey for turns in place).

    >>> move_colors([(0, 0), (0, 1), (1, 1), (1, 1), (1, 0), (0, 0)], "paper")
    ['#1f4fff', '#c00000', '#888888', '#00b8d4', '#5ad75a']
    """
    colors = direction_colors(palette)
    d = np.diff(np.asarray(positions), axis=0)
    return [colors.get((int(a), int(b)), _TURN_COLOR) for a, b in d]


def ffmpeg_available() -> bool:
    """Whether matplotlib can write MP4 (an ffmpeg binary is installed)."""
    return animation.writers.is_available("ffmpeg")


def _new_fig(rows: int, cols: int, cell_px: float | None, interactive: bool,
             extra_px: int = 0) -> Figure:
    if cell_px is None:
        cell_px = max(4, min(40, 600 // max(rows, cols)))
    w, h = figure_size(rows, cols, cell_px=cell_px)
    h += 28 + extra_px  # room for the status line (and a legend)
    if interactive:
        import matplotlib.pyplot as plt  # only a real window needs pyplot

        return plt.figure(figsize=(w / 100, h / 100), dpi=100)
    return _new_figure(w, h)


def _background(ax, world: Maze | OccupancyGrid, goals, *, level_maze: bool) -> None:
    """Walls (or occupancy) with the goal cells shaded."""
    if isinstance(world, Maze):
        setup_axes(ax, world.rows, world.cols)
        for r, c in goals:
            ax.add_patch(_square(c, r, 1, 1, GOAL_COLOR, 0.35))
        draw_maze(ax, world, markers=False)
    else:
        draw_grid(ax, world)
        w = world.widening
        for r, c in goals:
            if level_maze and w is not None:
                rs, cs = w.block((r, c))
                ax.add_patch(_square(cs.start, rs.start, w.corridor, w.corridor,
                                     GOAL_COLOR, 0.35))
            else:
                ax.add_patch(_square(c, r, 1, 1, GOAL_COLOR, 0.35))


def _square(x0: float, y0: float, w: float, h: float, color: str, alpha: float):
    from matplotlib.patches import Rectangle

    return Rectangle((x0 - 0.5, y0 - 0.5), w, h, facecolor=color, alpha=alpha,
                     edgecolor="none", zorder=1)


def _goal_xy(game, cell) -> tuple[float, float]:
    """Plot position of a goal cell (its block centre on a widened grid)."""
    if game.level == "grid" and game.grid.widening is not None:
        rs, cs = game.grid.widening.block(cell)
        return (cs.start + cs.stop - 1) / 2, (rs.start + rs.stop - 1) / 2
    return float(cell[1]), float(cell[0])


def _own_keys(fig: Figure) -> None:
    """Detach matplotlib's default key bindings (arrows = back/forward, s = save...)
    from a window, so every key reaches the game."""
    manager = getattr(fig.canvas, "manager", None)
    hid = getattr(manager, "key_press_handler_id", None)
    if hid is not None:
        fig.canvas.mpl_disconnect(hid)


def _close(fig: Figure) -> None:
    if getattr(fig.canvas, "manager", None) is not None:
        import matplotlib.pyplot as plt

        plt.close(fig)


def _line_width(ax, rows: int, cols: int) -> float:
    from .draw import px_per_cell

    return max(1.0, 0.3 * px_per_cell(ax, rows, cols)) * 72.0 / ax.figure.dpi


def known_wall_segments(maze: Maze, picture: np.ndarray) -> np.ndarray:
    """Wall segments (grid coordinates) of the walls visible in a picture mask.

    ``picture`` is a boolean mask over :meth:`Maze.to_matrix` (see
    :meth:`robomaze.traverse.game.Game.picture_visible`).

    >>> m = Maze.from_edges(1, 2, [0], [1])
    >>> pic = np.zeros((3, 5), bool); pic[:, :3] = True
    >>> known_wall_segments(m, pic).tolist()
    [[[-0.5, -0.5], [0.5, -0.5]], [[-0.5, 0.5], [0.5, 0.5]], [[-0.5, -0.5], [-0.5, 0.5]]]
    """
    mat = maze.to_matrix().astype(bool) & picture
    segs = []
    for i, j in np.argwhere(mat[0::2, 1::2]):  # horizontal walls: even row, odd col
        y, x = i - 0.5, float(j)
        segs.append([[x - 0.5, y], [x + 0.5, y]])
    for i, j in np.argwhere(mat[1::2, 0::2]):  # vertical walls: odd row, even col
        y, x = float(i), j - 0.5
        segs.append([[x, y - 0.5], [x, y + 0.5]])
    return np.array(segs, float).reshape(-1, 2, 2)


# ---------------------------------------------------------------- play
class PlayWindow:
    """A matplotlib window (or any figure) driving a :class:`Game` by keys.

    Parameters
    ----------
    game : robomaze.traverse.game.Game
    out : path, optional
        Where the record is saved when the goal is reached or the game ends.
    fig : Figure, optional
        Draw into this figure (tests pass an Agg figure); default a new
        pyplot window.
    cell_px : float, optional
        Pixels per map cell of a new figure.
    palette : str
        Direction colours (:data:`robomaze.traverse.palette.PALETTES`).

    The clock starts with the first move, not when the window opens; at the
    goal the fog lifts and the score is shown, as on the browser page. ``h``
    shows a hint (the next cells of the shortest route, for
    :data:`HINT_SECONDS` or until the next key; recorded, counted). A
    passage walked both ways is drawn in both direction colours side by
    side (:func:`robomaze.viz._trail.two_way_trail`); the legend under the
    map says so.
    """

    def __init__(self, game, *, out: str | os.PathLike | None = None, fig: Figure | None = None,
                 cell_px: float | None = None, source: dict | None = None,
                 palette: str = DEFAULT_PALETTE) -> None:
        self.game = game
        self.palette = palette
        self.out = None if out is None else Path(out)
        self.source = source
        self.saved: Path | None = None
        rows, cols = game.shape
        if fig is None:
            w = figure_size(rows, cols, cell_px=cell_px or max(4, min(40, 600 // max(rows, cols))))[0]
            fig = _new_fig(rows, cols, cell_px, True, 6 + _LEGEND_ROW_PX * legend_rows(w))
        self.fig = fig
        legend_px = 6 + _LEGEND_ROW_PX * legend_rows(fig.get_figwidth() * fig.dpi)
        low = legend_px / (self.fig.get_figheight() * self.fig.dpi)
        top = 28 / (self.fig.get_figheight() * self.fig.dpi)
        self.ax = self.fig.add_axes((0, low, 1, 1 - low - top))
        _background(self.ax, game.world, game.goals, level_maze=game.maze is not None)
        self._fog = self.ax.imshow(np.zeros((rows, cols, 4)), origin="upper", zorder=6,
                                   extent=(-0.5, cols - 0.5, rows - 0.5, -0.5),
                                   interpolation="nearest")
        # the goal stays marked above the fog: the player always knows where to go
        gxy = np.array([_goal_xy(game, cell) for cell in game.goals])
        self.ax.plot(gxy[:, 0], gxy[:, 1], "*", color=GOAL_COLOR, markersize=12, zorder=9,
                     markeredgecolor="white")
        self._width = _line_width(self.ax, rows, cols)
        self._trail = LineCollection([], linewidths=self._width, zorder=4, capstyle="round")
        self.ax.add_collection(self._trail)
        self._legend = trail_legend(self.fig, palette, self._width, hint_color=HINT_COLOR)
        (self._hint,) = self.ax.plot([], [], "--o", color=HINT_COLOR, zorder=8, markersize=5,
                                     linewidth=max(1.5, self._width * 0.6),
                                     markeredgecolor="black")
        self.hint_cells: list = []
        self._hint_timer = None
        # at cell level the walls are lines on cell edges, half under the fog of
        # a hidden neighbour: the walls the player knows are drawn again above it
        self._walls = LineCollection([], colors="black", zorder=7, capstyle="projecting",
                                     linewidths=_line_width(self.ax, rows, cols) * 0.5)
        self.ax.add_collection(self._walls)
        (self._here,) = self.ax.plot([], [], "o", color=_HERE, markersize=8, zorder=7,
                                     markeredgecolor="black")
        self._arrow = None
        self._score = None
        self._title = self.fig.text(0.5, 0.995, "", ha="center", va="top", fontsize=8)
        _own_keys(self.fig)
        # a lambda, not a bound method: matplotlib keeps bound methods only weakly,
        # and the window must live as long as its figure
        self.cid = self.fig.canvas.mpl_connect("key_press_event", lambda e: self.handle(e.key))
        self._timer = None
        self.redraw()

    def handle(self, key: str | None) -> str:
        """Process one key name (what ``key_press_event`` delivers); returns the outcome."""
        if key in ("q", "escape"):
            self.finish()
            _close(self.fig)
            return "quit"
        if not self.game.steps and not self.game.events:
            self.game.start_clock()  # the time before the first move is not walking time
        if key == "h":
            return self.hint()
        self.hint_cells = []
        result = self.game.key(key) if key else "ignored"
        if result != "ignored":
            self.redraw()
        if result == "goal":
            self.finish()
        return result

    def hint(self) -> str:
        """Show the next cells of the shortest route (recorded as a hint);
        returns ``"hint"``, or ``"ignored"`` at the goal."""
        if self.game.finished:
            return "ignored"
        self.hint_cells = self.game.hint()
        if self._hint_timer is not None:
            self._hint_timer.stop()
        self._hint_timer = self.fig.canvas.new_timer(interval=int(HINT_SECONDS * 1000))
        self._hint_timer.single_shot = True
        self._hint_timer.add_callback(self._clear_hint)
        self._hint_timer.start()
        self.redraw()
        return "hint"

    def _clear_hint(self) -> None:
        self.hint_cells = []
        self.redraw()

    def finish(self) -> Path | None:
        """Save the record (if ``out`` was given) once; stop the clock display."""
        if self._timer is not None:
            self._timer.stop()
        if self.out is not None and self.saved is None:
            self.saved = self.game.record(source=self.source).save(self.out)
        self.redraw()
        return self.saved

    def redraw(self) -> None:
        """Update fog, trail, position and status line from the game."""
        g = self.game
        fog = np.zeros(g.shape + (4,))
        if not g.finished:  # at the goal the whole maze is shown
            fog[~g.visible] = _FOG
        self._fog.set_data(fog)
        if g.mode == "theseus":
            pos = np.array(g.thread)  # only the thread is drawn, not the whole walk
        else:
            pos = np.array([g.start] + [(s.row, s.col) for s in g.steps if not s.bump])
            keep = np.r_[True, np.any(pos[1:] != pos[:-1], axis=1)]
            pos = pos[keep]
        if g.level == "cell" and g.mode != "full":
            self._walls.set_segments(known_wall_segments(g.maze, g.picture_visible()))
        segs, colors, widths = two_way_trail(pos, self.palette)
        self._trail.set_segments(segs)
        self._trail.set_color(colors)
        self._trail.set_linewidths(widths * self._width)
        r, c = g.position
        hint = [(float(c), float(r))] + [_goal_xy(g, cell) for cell in self.hint_cells]
        self._hint.set_data(*zip(*hint) if self.hint_cells and not g.finished else ([], []))
        self._here.set_data([c], [r])
        if self._arrow is not None:
            self._arrow.remove()
        th = np.radians(g.heading)
        self._arrow = self.ax.annotate(
            "", xy=(c + 0.45 * np.cos(th), r - 0.45 * np.sin(th)), xytext=(c, r),
            arrowprops=dict(arrowstyle="-|>", color="black", lw=1.5), zorder=8)
        self._title.set_text(g.status() + ("" if self.saved is None else f" (saved {self.saved.name})"))
        if g.finished and self._score is None:
            self._score = self.fig.text(0.01, 0.93, score_lines(g.record(source=self.source)),
                                        ha="left", va="top", fontsize=8, zorder=10, wrap=True,
                                        bbox=dict(facecolor="white", alpha=0.9,
                                                  edgecolor="#0050ff"))
        self.fig.canvas.draw_idle()

    def show(self) -> None:
        """Open the window and block until it is closed (needs a GUI backend)."""
        import matplotlib.pyplot as plt

        self._timer = self.fig.canvas.new_timer(interval=500)
        self._timer.add_callback(self._tick)
        self._timer.start()
        self.fig.canvas.mpl_connect("close_event", lambda _e: self.finish())
        plt.show()

    def _tick(self) -> None:
        if not self.game.steps:
            self.game.start_clock()
        self._title.set_text(self.game.status())
        self.fig.canvas.draw_idle()


def score_lines(record) -> str:
    """The finish screen's summary of a walk, as text lines (window version).

    >>> from robomaze.traverse.record import TraversalRecord
    >>> rec = TraversalRecord.from_cells(Maze.from_edges(1, 3, [0, 1], [1, 2]),
    ...                                  [(0, 0), (0, 1), (0, 2)], times=[0, 1, 2])
    >>> print(score_lines(rec).splitlines()[0])
    Goal reached! 2 moves (optimal 2, extra 0, efficiency 1.00)
    """
    from ..traverse.score import score

    m = score(record).summary
    head = "Goal reached!" if record.reached_goal else "Walk ended."
    route = (f"extra {m['extra_moves']}, efficiency {m['efficiency']:.2f}" if m["reached_goal"]
             else f"{m['remaining']} cells from the goal")
    return (f"{head} {m['moves']} moves (optimal {m['optimal']}, {route})\n"
            f"bumps {m['bumps']}, hints {m['hints']}, time {m['duration']:.1f} s, "
            f"wrong turns {m['wrong_turns']}, "
            f"revisits {m['revisits']}\n"
            f"dead ends entered {m['dead_ends_entered']}; {m['sections_with_error']} of "
            f"{m['sections']} sections with error")


# ---------------------------------------------------------------- replay
class Replay:
    """Animated replay of a traversal record.

    Frame ``i`` (``0 <= i <= moves``) shows the walk up to position ``i``
    of :attr:`TraversalRecord.positions`, so :attr:`n_frames` is
    ``record.n_moves + 1`` and the highlighted cell of frame ``i`` is
    exactly ``record.positions[i]``. With ``every=k`` (long robot runs) only
    positions ``0, k, 2k, ...`` and the last one get a frame:
    ``ceil(moves / k) + 1`` frames.

    Parameters
    ----------
    record : TraversalRecord
    fig : Figure, optional
        Default a new Agg figure (``interactive=False``) or pyplot window.
    interval : float
        Milliseconds per frame.
    cell_px : float, optional
    interactive : bool
        Open a pyplot window with space = play/pause, ``+``/``-`` = speed.
    every : int
        Show every ``every``-th position (the last one always).
    palette : str
        Direction colours (:data:`robomaze.traverse.palette.PALETTES`).
    """

    def __init__(self, record, *, fig: Figure | None = None, interval: float = 200,
                 palette: str = DEFAULT_PALETTE,
                 cell_px: float | None = None, interactive: bool = False,
                 every: int = 1, marks: str = "robomaze") -> None:
        every = check_int("every", every, min_value=1)
        self.marks = _check_marks(marks)
        self.record = record
        world = record.world
        rows, cols = world.shape
        self.positions = record.positions
        n = len(self.positions)
        self.frame_index = np.unique(np.r_[np.arange(0, n, every), n - 1])
        self.n_frames = len(self.frame_index)
        self.fig = fig if fig is not None else _new_fig(rows, cols, cell_px, interactive)
        self.ax = self.fig.add_axes((0, 0, 1, 0.94))
        _background(self.ax, world, record.goals, level_maze=record.maze is not None)
        self._trail = TwoWayTrail(self.positions, palette)
        self._width = _line_width(self.ax, rows, cols)
        self._lines = LineCollection([], linewidths=self._width, zorder=4, capstyle="round")
        self.ax.add_collection(self._lines)
        if self.marks == "paper":
            _paper_square(self.ax, self.positions[0, 1], self.positions[0, 0], PAPER_START_COLOR)
            self._here = _paper_square(self.ax, np.nan, np.nan, PAPER_END_COLOR)
        else:
            (self._here,) = self.ax.plot([], [], "o", color=_HERE, markersize=9, zorder=7,
                                         markeredgecolor="black")
        self._text = self.fig.text(0.5, 0.995, "", ha="center", va="top", fontsize=8)
        self.shown: list[tuple[int, int]] = []
        self.paused = False
        self.interval = interval
        self.interactive = interactive
        self._anim: animation.FuncAnimation | None = None
        if interactive:
            _own_keys(self.fig)
            self.fig.canvas.mpl_connect("key_press_event", lambda e: self.handle(e.key))

    @property
    def anim(self) -> animation.FuncAnimation:
        """The FuncAnimation (made on first use: matplotlib warns about unused ones)."""
        if self._anim is None:
            self._anim = animation.FuncAnimation(
                self.fig, self.draw_frame, frames=self.n_frames, init_func=lambda: (),
                interval=self.interval, blit=False, repeat=self.interactive,
                cache_frame_data=False)
        return self._anim

    def draw_frame(self, i: int):
        """Draw frame ``i`` (position ``frame_index[i]``); the cell is appended to :attr:`shown`."""
        k = int(self.frame_index[i])
        segs, colors, widths = self._trail.upto(k)
        self._lines.set_segments(segs)
        self._lines.set_color(colors)
        self._lines.set_linewidths(widths * self._width)
        r, c = (int(v) for v in self.positions[k])
        self._here.set_data([c], [r])
        t = self.record.times[k]
        self._text.set_text(f"move {k}/{len(self.positions) - 1}  t = {t:.1f} s")
        self.shown.append((r, c))
        return self._lines, self._here, self._text

    def handle(self, key: str | None) -> None:
        """Space toggles play/pause; ``+``/``-`` double/halve the speed; ``q`` closes."""
        if key in ("q", "escape"):
            _close(self.fig)
        elif key == " ":
            if self.paused:
                self.anim.resume()
            else:
                self.anim.pause()
            self.paused = not self.paused
        elif key in ("+", "=", "-"):
            src = self.anim.event_source
            factor = 0.5 if key != "-" else 2.0
            src.interval = int(min(5000, max(10, src.interval * factor)))

    def save(self, out: str | os.PathLike, *, fps: float = 5) -> Path:
        """Write the animation: ``.gif`` (Pillow) or ``.mp4`` (ffmpeg).

        Raises
        ------
        ParameterError
            For another extension, or ``.mp4`` without ffmpeg installed.
        """
        out = Path(out)
        ext = out.suffix.lower()
        if ext == ".gif":
            writer = animation.PillowWriter(fps=fps)
        elif ext == ".mp4":
            if not ffmpeg_available():
                raise ParameterError(f"cannot write {out}: MP4 export needs ffmpeg, which "
                                     f"is not installed; write a .gif instead")
            writer = animation.FFMpegWriter(fps=fps)
        else:
            raise ParameterError(f"animation out must end in .gif or .mp4, got {str(out)!r}")
        self.anim.save(os.fspath(out), writer=writer, dpi=self.fig.dpi)
        return out

    def show(self) -> None:
        """Open the window and block until it is closed (needs a GUI backend)."""
        import matplotlib.pyplot as plt

        self.anim  # noqa: B018 -- start the animation before the window opens
        plt.show()


# ---------------------------------------------------------------- pictures
def still(record, out: str | os.PathLike | None = None, *, cell_px: float | None = None,
          ax: Any = None, marks: str = "robomaze",
          palette: str = DEFAULT_PALETTE) -> Figure:
    """The whole walk in one picture, moves coloured by direction.

    Start and final position are marked: green square and orange dot, or
    with ``marks="paper"`` red and blue squares. Writes PNG/SVG when
    ``out`` is given.
    """
    marks = _check_marks(marks)
    world = record.world
    rows, cols = world.shape
    if ax is None:
        fig = _new_fig(rows, cols, cell_px, False)
        ax = fig.add_axes((0, 0, 1, 1))
    fig = ax.figure
    _background(ax, world, record.goals, level_maze=record.maze is not None)
    pos = record.positions
    segs, colors, widths = two_way_trail(pos, palette)
    ax.add_collection(LineCollection(segs, colors=colors, zorder=4, capstyle="round",
                                     linewidths=widths * _line_width(ax, rows, cols)))
    if marks == "paper":
        _paper_square(ax, pos[0, 1], pos[0, 0], PAPER_START_COLOR)
        _paper_square(ax, pos[-1, 1], pos[-1, 0], PAPER_END_COLOR)
    else:
        ax.plot([pos[0, 1]], [pos[0, 0]], "s", color=START_COLOR, markersize=8, zorder=6)
        ax.plot([pos[-1, 1]], [pos[-1, 0]], "o", color=_HERE, markersize=8, zorder=7,
                markeredgecolor="black")
    if out is not None:
        save_figure(fig, out)
    return fig


def section_heatmap(report, world: Maze | OccupancyGrid, out: str | os.PathLike | None = None,
                    *, key: str = "error", cell_px: float | None = None,
                    ax: Any = None, marks: str = "robomaze",
                    ends: tuple | None = None) -> Figure:
    """Paint every section of the maze with its ``key`` (default the error).

    ``report`` is a :class:`robomaze.traverse.score.TraversalScore`;
    ``world`` the Maze it was scored on (for a widened record, its maze), or
    the plain grid. Cells never in a section stay white. With
    ``marks="paper"`` the walk's first and last cells, ``ends`` (two
    ``(row, col)`` cells of ``world``), get the paper's red and blue
    squares; by default the walk is not marked.
    """
    marks = _check_marks(marks)
    if marks == "paper" and (ends is None or len(ends) != 2):
        raise ParameterError(f"marks='paper' needs ends=(start cell, end cell), got {ends!r}")
    values = report.section_map(key)
    rows, cols = values.shape
    if world.shape != (rows, cols):
        raise ParameterError(f"world has shape {world.shape} but the report is "
                             f"{rows}x{cols}; pass the maze the record was scored on")
    cax = None
    if ax is None:
        if cell_px is None:
            cell_px = max(4, min(40, 600 // max(rows, cols)))
        w, h = figure_size(rows, cols, cell_px=cell_px)
        fig = _new_figure(w + 90, h + 20)
        ax = fig.add_axes((0, 0, w / (w + 90), h / (h + 20)))
        cax = fig.add_axes((w / (w + 90) + 12 / (w + 90), 0.05, 14 / (w + 90), 0.85))
    fig = ax.figure
    setup_axes(ax, rows, cols)
    vmax = max(1.0, float(np.nanmax(values)) if np.isfinite(values).any() else 1.0)
    im = ax.imshow(np.ma.masked_invalid(values), cmap="YlOrRd", vmin=0, vmax=vmax,
                   origin="upper", extent=(-0.5, cols - 0.5, rows - 0.5, -0.5),
                   interpolation="nearest", zorder=0)
    if isinstance(world, Maze):
        draw_maze(ax, world, markers=False)
    else:
        occ = np.zeros((rows, cols, 4))
        occ[world.occupied] = to_rgba("black")
        ax.imshow(occ, origin="upper", extent=(-0.5, cols - 0.5, rows - 0.5, -0.5),
                  interpolation="nearest", zorder=1)
    if marks == "paper":
        (r0, c0), (r1, c1) = ends
        _paper_square(ax, c0, r0, PAPER_START_COLOR)
        _paper_square(ax, c1, r1, PAPER_END_COLOR)
    if cax is not None:
        fig.colorbar(im, cax=cax, label=f"section {key}")
    else:
        fig.colorbar(im, ax=ax, fraction=0.08, pad=0.02, label=f"section {key}")
    if out is not None:
        save_figure(fig, out)
    return fig
