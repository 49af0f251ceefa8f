"""Animate a multi-agent plan: one colour per agent, its goal marked in the same colour.

Frames are drawn straight with Pillow (a plan of 200 agents over 200 steps
is 40,000 discs; a matplotlib artist per disc per frame would take
minutes). Each time step is shown in ``substeps`` frames with the agents
moved part-way, so a swap or a chain of followers reads as motion.
"""

from __future__ import annotations

import colorsys
import os

import numpy as np

from ..errors import ParameterError

__all__ = ["agent_colors", "plan_frames", "save_plan_gif", "plan_on_grid"]


def agent_colors(n: int) -> list[tuple[int, int, int]]:
    """``n`` distinct RGB colours (hues spread by the golden ratio, two lightness levels).

    >>> c = agent_colors(3)
    >>> len(set(c)), all(0 <= v <= 255 for rgb in c for v in rgb)
    (3, True)
    """
    out = []
    for i in range(n):
        h = (i * 0.618033988749895) % 1.0
        light = 0.45 if (i // 7) % 2 == 0 else 0.62
        r, g, b = colorsys.hls_to_rgb(h, light, 0.85)
        out.append((int(r * 255), int(g * 255), int(b * 255)))
    return out


def plan_frames(occupied: np.ndarray, cells: np.ndarray, *, size: int = 1, cell_px: int = 0,
                substeps: int = 2, goals=None):
    """Yield the frames (PIL images) of a plan ``cells[t, i] = (row, col)``."""
    from PIL import Image, ImageDraw

    occ = np.asarray(occupied, bool)
    h, w = occ.shape
    if cell_px <= 0:
        cell_px = max(4, min(24, 640 // max(h, w)))
    n = cells.shape[1]
    colors = agent_colors(n)
    base = np.where(occ, 40, 245).astype(np.uint8)
    bg = Image.fromarray(np.kron(base, np.ones((cell_px, cell_px), np.uint8))).convert("RGB")
    bd = ImageDraw.Draw(bg)
    goal_cells = cells[-1] if goals is None else np.asarray(goals)
    s = size * cell_px
    for i, (r, c) in enumerate(goal_cells):
        x0, y0 = c * cell_px, r * cell_px
        bd.rectangle([x0 + 1, y0 + 1, x0 + s - 2, y0 + s - 2], outline=colors[i],
                     width=max(1, cell_px // 6))
    steps = cells.shape[0]
    pad = max(1, cell_px // 8)
    for t in range(steps):
        subs = 1 if t == steps - 1 else substeps
        for k in range(subs):
            a = k / subs
            nxt = cells[min(t + 1, steps - 1)]
            pos = cells[t] * (1 - a) + nxt * a
            img = bg.copy()
            d = ImageDraw.Draw(img)
            for i in range(n):
                y0 = pos[i, 0] * cell_px
                x0 = pos[i, 1] * cell_px
                d.ellipse([x0 + pad, y0 + pad, x0 + s - pad - 1, y0 + s - pad - 1],
                          fill=colors[i])
            yield img


def save_plan_gif(occupied: np.ndarray, cells: np.ndarray, out, *, size: int = 1,
                  cell_px: int = 0, substeps: int = 2, fps: int = 8, goals=None) -> int:
    """Write the animation as a GIF; returns the number of frames."""
    if os.path.splitext(os.fspath(out))[1].lower() != ".gif":
        raise ParameterError(f"--gif must name a .gif file, got {os.fspath(out)!r}")
    frames = list(plan_frames(occupied, np.asarray(cells), size=size, cell_px=cell_px,
                              substeps=substeps, goals=goals))
    frames[0].save(os.fspath(out), save_all=True, append_images=frames[1:],
                   duration=int(1000 / max(1, fps)), loop=0, optimize=False)
    return len(frames)


def plan_on_grid(occupied: np.ndarray, plan_file, out, *, size: int | None = None,
                 cell_px: int = 0, fps: int = 8, path=None):
    """Animate a read plan file (:class:`robomaze.mapf.PlanFile`) on a grid.

    ``size`` defaults to the file's ``size=`` header (else 1), the goals
    to its ``goals=`` header (else the last step). A cell outside the grid
    is an error naming ``path``; breaches of the MAPF rules are returned
    (:func:`robomaze.mapf.find_problems`) and drawn anyway, so a broken
    plan can be looked at. Returns ``(frames, problems)``.
    """
    from ..errors import MazeFormatError
    from ..mapf import Instance, Problem, find_problems

    occ = np.asarray(occupied, bool)
    cells = plan_file.plan.cells
    h, w = occ.shape
    if size is None:
        text = plan_file.header.get("size", "1")
        if not text.isdigit() or int(text) < 1:
            raise MazeFormatError(f"header size={text!r} is not an integer >= 1", path=path)
        size = int(text)
    bad = (cells[..., 0] < 0) | (cells[..., 1] < 0) | (cells[..., 0] > h - size) \
        | (cells[..., 1] > w - size)
    if bad.any():
        t, i = (int(x) for x in np.argwhere(bad)[0])
        r, c = cells[t, i]
        raise MazeFormatError(f"agent {i} at (x={c}, y={r}) at step {t} lies outside the "
                              f"{w}x{h} map (bodies of {size}x{size} cells); expected a "
                              "plan made on this map", path=path)
    goals = plan_file.stated_cells("goals")
    if goals is None or goals.shape != cells[-1].shape:
        goals = cells[-1]
    try:
        inst = Instance(occ, cells[0], goals, size=size)
        problems = find_problems(inst, plan_file.plan, soc=plan_file.stated("soc"),
                                 makespan=plan_file.stated("makespan"))
    except ParameterError as exc:           # a start or goal on a blocked cell
        problems = [Problem("blocked", 0, (), str(exc))]
    n = save_plan_gif(occ, cells, out, size=size, cell_px=cell_px, fps=fps, goals=goals)
    return n, problems


def plot_success(table: dict, xlabel: str, out):
    """Success rate against ``xlabel`` per solver (the MAPF community's standard
    plot); ``table[(solver, x)] = (runs, successes)``. Returns the PNG path."""
    from pathlib import Path

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    table = {k: v for k, v in table.items() if k[1] is not None}
    solvers = sorted({s for s, _ in table})
    fig, ax = plt.subplots(figsize=(6.0, 3.8), dpi=110)
    markers = "osD^vP*X"
    for k, s in enumerate(solvers):
        xs = sorted(x for (s2, x) in table if s2 == s)
        ys = [table[(s, x)][1] / table[(s, x)][0] for x in xs]
        # overlapping curves stay visible: dashes and hollow markers differ per solver
        ax.plot(xs, ys, marker=markers[k % len(markers)], label=s, alpha=0.85,
                linestyle=("-", "--", "-.", ":")[k % 4], markerfacecolor="none",
                markersize=8 - k % 3)
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(xlabel)
    ax.set_ylabel("success rate")
    ax.set_ylim(-0.03, 1.03)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title(f"MAPF: success rate vs {xlabel}")
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)
    return out
