"""A walk's trail with corridors walked both ways drawn in both colours.

A passage walked in one direction only is one full-width stroke in that
direction's colour. A passage walked both ways gets two half-width strokes
side by side, each on the right-hand side of its direction of travel (as
traffic keeps right), so both colours show whatever the order of the
walks; the browser pages show the same two colours side by side.
"""

from __future__ import annotations

import numpy as np
from matplotlib.legend_handler import HandlerBase
from matplotlib.lines import Line2D

from ..traverse.palette import DEFAULT_PALETTE, direction_colors

__all__ = ["two_way_trail", "TwoWayTrail", "TRAIL_WIDTH", "TwoWayHandle", "trail_legend", "legend_rows"]

#: Trail width in map cells (the window's and the exports' stroke).
TRAIL_WIDTH = 0.3
_TURN_COLOR = "#888888"


def two_way_trail(positions, palette: str = DEFAULT_PALETTE):
    """Segments, colours and relative widths of a walk's trail.

    Parameters
    ----------
    positions : (n, 2) array
        Consecutive positions (row, col); repeats are skipped.
    palette : str

    Returns
    -------
    segments : (m, 2, 2) float array
        Plot coordinates ``(x, y) = (col, row)``, one per passage and way
        walked (in the order first walked); a stroke of a passage walked
        both ways is shifted a quarter of :data:`TRAIL_WIDTH` to the right
        of its way.
    colors : list of str
    widths : (m,) float array
        1 for a full stroke, 0.5 for each of the two strokes of a passage
        walked both ways (multiply by the full width in points).

    Examples
    --------
    East then back west along one passage: two half strokes, the eastward
    one below (its right), the westward one above.

    >>> segs, colors, widths = two_way_trail([(0, 0), (0, 1), (0, 0)], "paper")
    >>> segs.tolist(), colors, widths.tolist()
    ([[[0.0, 0.075], [1.0, 0.075]], [[1.0, -0.075], [0.0, -0.075]]], ['#1f4fff', '#00b8d4'], [0.5, 0.5])
    """
    return TwoWayTrail(positions, palette).upto(None)


class TwoWayTrail:
    """:func:`two_way_trail` of every prefix of one walk (an animation's frames).

    Prepared once in one pass over the walk; :meth:`upto` is then a few
    array operations per frame, so a long replay stays linear.
    """

    def __init__(self, positions, palette: str = DEFAULT_PALETTE) -> None:
        pos = np.asarray(positions, dtype=np.int64).reshape(-1, 2)
        colors_of = direction_colors(palette)
        first: dict[tuple, int] = {}        # (a, b) -> index of its first move
        both_at: dict[frozenset, int] = {}  # passage -> move index when both ways are walked
        ways: dict[frozenset, set] = {}
        order = []
        for i, (a, b) in enumerate(zip(map(tuple, pos[:-1].tolist()),
                                       map(tuple, pos[1:].tolist()))):
            if a == b:
                continue
            key = frozenset((a, b))
            ways.setdefault(key, set()).add((a, b))
            if len(ways[key]) == 2 and key not in both_at:
                both_at[key] = i
            if (a, b) not in first:
                first[(a, b)] = i
                order.append((a, b))
        n = len(order)
        self.first = np.array([first[m] for m in order], np.int64)
        never = np.iinfo(np.int64).max
        self.both_at = np.array([both_at.get(frozenset(m), never) for m in order], np.int64)
        plain = np.zeros((n, 2, 2))
        shift = np.zeros((n, 2, 2))
        self.colors = []
        for j, (a, b) in enumerate(order):
            d = (b[0] - a[0], b[1] - a[1])
            # right-hand side of the way in plot coordinates (y grows downwards):
            # east -> +y, west -> -y, south -> -x, north -> +x
            off = TRAIL_WIDTH / 4
            dx, dy = -d[0] * off, d[1] * off
            plain[j] = [[a[1], a[0]], [b[1], b[0]]]
            shift[j] = plain[j] + [[dx, dy], [dx, dy]]
            self.colors.append(colors_of.get(d, _TURN_COLOR))
        self.plain, self.shift = plain, shift

    def upto(self, k: int | None):
        """The trail of the first ``k`` moves (``positions[:k + 1]``; None: all)."""
        k = np.iinfo(np.int64).max if k is None else int(k)
        shown = self.first < k
        both = (self.both_at < k)[shown]
        segs = np.where(both[:, None, None], self.shift[shown], self.plain[shown])
        colors = [c for c, s in zip(self.colors, shown) if s]
        return segs.reshape(-1, 2, 2), colors, np.where(both, 0.5, 1.0)


class TwoWayHandle:
    """Legend entry of a passage walked both ways (two colours side by side)."""

    def __init__(self, first: str, second: str, width: float) -> None:
        self.first, self.second, self.width = first, second, width


class _TwoWayHandler(HandlerBase):
    def create_artists(self, legend, orig_handle, xdescent, ydescent, width, height,
                       fontsize, trans):
        y = height / 2 - ydescent
        gap = orig_handle.width / 4 * legend.figure.dpi / 72.0   # points -> pixels
        out = []
        for dy, color in ((-gap, orig_handle.first), (gap, orig_handle.second)):
            line = Line2D([-xdescent, width - xdescent], [y + dy, y + dy], color=color,
                          linewidth=orig_handle.width / 2, solid_capstyle="butt",
                          transform=trans)
            out.append(line)
        return out


def legend_rows(fig_width_px: float) -> int:
    """Rows the legend takes in a figure this wide (its six entries fit one row from 600 px)."""
    return 1 if fig_width_px >= 600 else 2


def trail_legend(fig, palette: str, width: float, *, hint_color: str | None = None):
    """A legend at the bottom of ``fig`` matching :func:`two_way_trail`'s drawing."""
    pal = direction_colors(palette)
    names = {(0, 1): "right", (1, 0): "down", (0, -1): "left", (-1, 0): "up"}
    handles = [Line2D([], [], color=pal[d], linewidth=width, solid_capstyle="butt")
               for d in names]
    labels = list(names.values())
    handles.append(TwoWayHandle(pal[(0, 1)], pal[(0, -1)], width))
    labels.append("walked both ways")
    if hint_color is not None:
        handles.append(Line2D([], [], color=hint_color, linewidth=2, linestyle="--",
                              marker="o", markersize=4))
        labels.append("hint (h)")
    rows = legend_rows(fig.get_figwidth() * fig.dpi)
    return fig.legend(handles, labels, loc="lower center", ncol=-(-len(labels) // rows),
                      fontsize=7, frameon=False, handlelength=2.2, columnspacing=1.0,
                      borderaxespad=0.2, labelspacing=0.3,
                      handler_map={TwoWayHandle: _TwoWayHandler()})
