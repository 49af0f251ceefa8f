"""Frames of a simulated robot: what :class:`~robomaze.envs.gym_env.MazeEnv` renders.

Drawn in grid coordinates like the rest of :mod:`robomaze.viz` (cell
``(row, col)`` at ``x = col, y = row``; world points go through the grid's
:class:`~robomaze.grid.Frame`, so any map origin and yaw work): the walls,
the goal, the first sensor's beams and the footprint with a heading tick.
"""

from __future__ import annotations

import numpy as np

_SIZE_IN = 4.0
_DPI = 80


def _xy(frame, x, y):
    """World points to viz grid coordinates (cell centres at integers)."""
    a, b = frame.to_units(x, y)
    return a - 0.5, b - 0.5


def _draw(fig, env) -> None:
    from matplotlib.collections import LineCollection
    from matplotlib.patches import Polygon

    from .draw import GOAL_COLOR, PATH_COLOR, draw_grid

    grid = env.grid
    frame = grid.frame
    ax = fig.add_axes((0, 0, 1, 1))
    draw_grid(ax, grid)
    ax.set_axis_off()
    sim = env.sim
    goal = sim.goal
    if goal is not None:
        ga, gb = _xy(frame, *goal.centre)
        ax.plot([ga], [gb], marker="*", color=GOAL_COLOR, markersize=12)
    pose = sim.pose if sim.start is not None else None
    if pose is None:
        return
    x, y, th = pose
    scan = env._last_scan
    if scan is not None and env.robot.sensors:
        s = env.robot.sensors[0]
        sx, sy, sth = s.sensor_pose(pose)
        r = np.minimum(np.nan_to_num(scan.ranges, nan=s.range_max), s.range_max)
        phi = sth + s.angles
        ex, ey = sx + r * np.cos(phi), sy + r * np.sin(phi)
        a0, b0 = _xy(frame, sx, sy)
        ea, eb = _xy(frame, ex, ey)
        segs = np.stack([np.broadcast_to([a0, b0], (len(ea), 2)), np.stack([ea, eb], 1)], 1)
        ax.add_collection(LineCollection(segs, colors="tab:orange", linewidths=0.6, alpha=0.7))
    ring = np.asarray(env.robot.footprint.geometry.exterior.coords)
    c, s_ = np.cos(th), np.sin(th)
    wx = x + c * ring[:, 0] - s_ * ring[:, 1]
    wy = y + s_ * ring[:, 0] + c * ring[:, 1]
    ua, ub = _xy(frame, wx, wy)
    ax.add_patch(Polygon(np.stack([ua, ub], 1), closed=True, color=PATH_COLOR, alpha=0.8))
    ha, hb = _xy(frame, x + 0.8 * env.robot.footprint.circumscribed_radius * c,
                 y + 0.8 * env.robot.footprint.circumscribed_radius * s_)
    pa, pb = _xy(frame, x, y)
    ax.plot([pa, ha], [pb, hb], color="white", linewidth=1.5)


def rgb_array(env) -> np.ndarray:
    """The current frame as an ``(h, w, 3)`` uint8 array (matplotlib Agg, no window)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(_SIZE_IN, _SIZE_IN), dpi=_DPI)
    canvas = FigureCanvasAgg(fig)
    _draw(fig, env)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[..., :3].copy()


def human(env, fig):
    """Draw the current frame in a matplotlib window (reused between calls); returns the figure."""
    import matplotlib.pyplot as plt

    if fig is None or not plt.fignum_exists(fig.number):
        fig = plt.figure(figsize=(_SIZE_IN, _SIZE_IN), dpi=_DPI)
    fig.clear()
    _draw(fig, env)
    fig.canvas.draw_idle()
    # Only an interactive backend has a window to update; Agg (headless) just draws.
    if fig.canvas.required_interactive_framework is not None:
        plt.pause(1.0 / env.metadata["render_fps"])
    return fig
