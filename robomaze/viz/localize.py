"""The localizer's view beside the truth: a particle cloud (mcl) or a built map (slam).

:func:`localization_figure` draws a :class:`robomaze.sim.SimResult` of a
run with a localizer, in map-frame metres:

* left -- the true grid, the true trajectory and the estimated one;
* right -- for ``slam`` the map the robot built (occupied dark, free
  white, unknown grey) with the estimated trajectory and the map IoUs;
  for ``mcl`` a close-up of the particle cloud at the end of the run
  (particles, their estimate and the true pose, with the walls).
"""

from __future__ import annotations

import os

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ..errors import ParameterError
from .render import save_figure

__all__ = ["localization_figure"]

TRUE_COLOR = "#1f77b4"
EST_COLOR = "#ff7f0e"
PARTICLE_COLOR = "#d62728"


def _image(ax, values, grid, cmap, vmin=0.0, vmax=1.0) -> None:
    ax.imshow(values, cmap=cmap, vmin=vmin, vmax=vmax, interpolation="nearest",
              extent=(0, grid.cols * grid.resolution, 0, grid.rows * grid.resolution))
    ax.set_aspect("equal")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")


def _local(grid, xy):
    lx, ly = grid.frame.local(xy[:, 0], xy[:, 1])
    return np.asarray(lx), np.asarray(ly)


def localization_figure(grid, result, out: str | os.PathLike | None = None) -> Figure:
    """The two-panel figure of the module docstring; written to ``out`` if given.

    Raises
    ------
    ParameterError
        For a result without a localizer (``localize="none"``).
    """
    loc = getattr(result, "localizer", None)
    if loc is None or result.estimate is None:
        raise ParameterError("the figure needs a run with a localizer (localize='mcl' or 'slam')")
    fig = Figure(figsize=(11.0, 5.4), dpi=100, facecolor="white")
    FigureCanvasAgg(fig)
    left, right = fig.subplots(1, 2)
    truth, est = result.trajectory.poses, result.estimate
    m = result.metrics
    _image(left, grid.occupied.astype(float), grid, "Greys")
    tx, ty = _local(grid, truth)
    ex, ey = _local(grid, est)
    left.plot(tx, ty, color=TRUE_COLOR, lw=1.6, label="true trajectory")
    left.plot(ex, ey, color=EST_COLOR, lw=1.0, ls="--", label="estimate")
    left.set_title(f"truth: {result.trajectory.meta.get('agent', '')}, {result.reason}; "
                   f"ATE {m['ate_rmse']:.3f} m")
    left.legend(loc="lower right", fontsize=8)
    kind = result.trajectory.meta.get("localize", "")
    if hasattr(loc, "log_odds"):
        lo = loc.log_odds
        shade = np.where(lo > 0, 1.0, np.where(lo < 0, 0.0, 0.35))
        _image(right, shade, grid, "Greys")
        right.plot(ex, ey, color=EST_COLOR, lw=1.0, label="estimate")
        right.set_title(f"built map ({kind}): IoU occupied {m['map_iou_occupied']:.2f}, "
                        f"free {m['map_iou_free']:.2f}")
        right.legend(loc="lower right", fontsize=8)
    else:
        _image(right, grid.occupied.astype(float), grid, "Greys", vmax=1.6)
        px, py = _local(grid, loc.particles)
        right.scatter(px, py, s=3, color=PARTICLE_COLOR, alpha=0.5,
                      label=f"{loc.n_particles} particles")
        right.plot(tx, ty, color=TRUE_COLOR, lw=1.0)
        right.plot(ex, ey, color=EST_COLOR, lw=1.0, ls="--")
        right.plot(tx[-1:], ty[-1:], "o", color=TRUE_COLOR, ms=7, label="true pose")
        right.plot(ex[-1:], ey[-1:], "x", color="black", ms=8, label="estimate")
        half = max(0.3, 2.5 * float(np.max(np.hypot(px - ex[-1], py - ey[-1]))))
        right.set_xlim(ex[-1] - half, ex[-1] + half)
        right.set_ylim(ey[-1] - half, ey[-1] + half)
        right.set_title(f"particle cloud ({kind}) at the end, {2 * half:.2f} m across")
        right.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    if out is not None:
        save_figure(fig, out)
    return fig
