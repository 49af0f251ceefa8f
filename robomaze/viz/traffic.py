"""Pictures of traffic runs: the maze, every robot's route and body, the obstacles; GIFs.

:func:`draw_traffic` draws a recorded :class:`robomaze.traffic.TrafficResult`
(routes as lines, bodies at the end, starts as rings, goals as crosses),
:func:`animate_traffic` writes the run as a GIF (Pillow), :func:`frame_rgb`
renders one world state as an RGB array (the PettingZoo env's ``render``).
"""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib import patches  # noqa: E402
from shapely import affinity  # noqa: E402

from ..errors import ParameterError  # noqa: E402

__all__ = ["draw_traffic", "animate_traffic", "frame_rgb"]

#: Okabe-Ito colours, cycled over robots (colour-blind safe).
COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442",
           "#000000"]
OBSTACLE = "#7f7f7f"


def _grid_image(ax, grid) -> None:
    res, rows, cols, ox, oy, _ = grid.frame.kernel_args
    ax.imshow(grid.occupied, cmap="Greys", vmin=0, vmax=1.6, origin="upper",
              extent=(ox, ox + cols * res, oy, oy + rows * res), interpolation="nearest")
    ax.set_aspect("equal")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")


def _body_patch(fp, pose, **kw):
    x, y, th = pose
    if fp.kind == "disc":
        return patches.Circle((x, y), fp.radius, **kw)
    g = affinity.translate(affinity.rotate(fp.geometry, th, origin=(0, 0), use_radians=True),
                           x, y)
    return patches.Polygon(np.asarray(g.exterior.coords), closed=True, **kw)


def _draw_bodies(ax, world, poses, artists=None):
    nr = world.n_robots
    out = []
    for j, fp in enumerate(world.bodies.footprints):
        c = COLOURS[j % len(COLOURS)] if j < nr else OBSTACLE
        p = _body_patch(fp, poses[j], facecolor=c, edgecolor="black", linewidth=0.6,
                        alpha=0.85 if j < nr else 0.6, zorder=4)
        ax.add_patch(p)
        out.append(p)
        if j < nr:
            x, y, th = poses[j]
            r = world.bodies.rc[j]
            out.append(ax.plot([x, x + r * math.cos(th)], [y, y + r * math.sin(th)], "-",
                               color="white", lw=1.2, zorder=5)[0])
    return out


def draw_traffic(result, path=None, *, title: str | None = None, dpi: int = 120):
    """Draw a recorded traffic run (``run_traffic(..., record=True)``); save to ``path`` if given.

    Returns the matplotlib figure.
    """
    if result.poses is None:
        raise ParameterError("draw_traffic needs a run recorded with record=True")
    w = result.world
    fig, ax = plt.subplots(figsize=(6.4, 6.4 * w.grid.height / max(w.grid.width, 1e-9) + 0.6))
    _grid_image(ax, w.grid)
    P = result.poses
    for i in range(w.n_robots):
        c = COLOURS[i % len(COLOURS)]
        ax.plot(P[:, i, 0], P[:, i, 1], "-", color=c, lw=1.2, zorder=3)
        ax.plot(*w.start[i], "o", mfc="none", mec=c, ms=7, zorder=3)
        ax.plot(*w.goal[i], "x", color=c, ms=7, mew=2, zorder=3)
    for j in range(w.n_robots, len(w.bodies.footprints)):
        ax.plot(P[:, j, 0], P[:, j, 1], ":", color=OBSTACLE, lw=1.0, zorder=2)
    _draw_bodies(ax, w, P[-1])
    m = result.metrics
    ax.set_title(title or (f"{result.outcome}: {m['arrived']}/{m['robots']} arrived, "
                           f"{m['collisions']} collisions, min gap "
                           f"{m['clearance_robot']:.3f} m"), fontsize=10)
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=dpi)
        plt.close(fig)
    return fig


def animate_traffic(result, path, *, fps: int = 10, every: int = 1, dpi: int = 80) -> Path:
    """Write a recorded run as a GIF (every ``every``-th step, ``fps`` frames per second)."""
    from matplotlib.animation import FuncAnimation, PillowWriter

    if result.poses is None:
        raise ParameterError("animate_traffic needs a run recorded with record=True")
    path = Path(path)
    if path.suffix.lower() != ".gif":
        raise ParameterError(f"animation path must end in .gif, got {str(path)!r}")
    w = result.world
    P = result.poses
    frames = list(range(0, len(P), max(1, int(every))))
    if frames[-1] != len(P) - 1:
        frames.append(len(P) - 1)
    fig, ax = plt.subplots(figsize=(5, 5 * w.grid.height / max(w.grid.width, 1e-9) + 0.4))
    _grid_image(ax, w.grid)
    for i in range(w.n_robots):
        ax.plot(*w.goal[i], "x", color=COLOURS[i % len(COLOURS)], ms=6, mew=2)
    state = {"artists": []}
    label = ax.set_title("")

    def update(k):
        for a in state["artists"]:
            a.remove()
        state["artists"] = _draw_bodies(ax, w, P[k])
        label.set_text(f"t = {k * w.spec.dt:.1f} s")
        return state["artists"]

    anim = FuncAnimation(fig, update, frames=frames, blit=False)
    anim.save(path, writer=PillowWriter(fps=fps), dpi=dpi)
    plt.close(fig)
    return path


def frame_rgb(world, *, dpi: int = 60) -> np.ndarray:
    """One state of a :class:`robomaze.traffic.TrafficWorld` as an ``(h, w, 3)`` uint8 image."""
    fig, ax = plt.subplots(figsize=(4, 4 * world.grid.height / max(world.grid.width, 1e-9)))
    _grid_image(ax, world.grid)
    _draw_bodies(ax, world, world.pose)
    ax.set_axis_off()
    fig.tight_layout(pad=0)
    fig.canvas.draw()
    img = np.asarray(fig.canvas.buffer_rgba())[..., :3].copy()
    plt.close(fig)
    return img
