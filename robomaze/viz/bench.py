"""Figures of a benchmark report (used by :mod:`robomaze.bench.report`).

Three line charts over the widening level, one panel per footprint and one
line per planner/agent — path length (normalised to the optimal collision-
free length), minimum clearance, success rate — and one example picture of
a run's path on its widened maze.

>>> summary = [{"corridor": c, "footprint": "disc:0.1", "kind": "plan",
...             "method": "astar", "success_rate": 1.0, "length_ratio": 1.0,
...             "min_clearance": 0.05 * c} for c in (1, 3)]
>>> import tempfile, pathlib
>>> out = plot_summary(summary, pathlib.Path(tempfile.mkdtemp()))
>>> sorted(out)
['clearance_vs_widening', 'length_vs_widening', 'success_vs_widening']
"""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path
from typing import Sequence

from matplotlib import colormaps
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

__all__ = ["plot_summary", "plot_metric", "plot_example", "FIGURES"]

#: name -> (summary key, y label)
FIGURES = {
    "length_vs_widening": ("length_ratio", "path length / optimal collision-free length"),
    "clearance_vs_widening": ("min_clearance", "minimum footprint clearance (m)"),
    "success_vs_widening": ("success_rate", "success rate"),
}
_MARKERS = "osD^v<>pPX*h"
_COLORS = colormaps["tab20"]


def plot_metric(summary: Sequence[dict], key: str, ylabel: str, out: str | os.PathLike,
                *, title: str | None = None) -> Path:
    """One panel per footprint; ``key`` against the corridor width per method."""
    footprints = sorted({s["footprint"] for s in summary})
    methods = sorted({(s["kind"], s["method"]) for s in summary})
    n = max(1, len(footprints))
    fig = Figure(figsize=(4.2 * n + 2.6, 3.8), dpi=100, facecolor="white")
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, n, sharey=True, sharex=True, squeeze=False)[0]
    corridors = sorted({s["corridor"] for s in summary})
    series: dict[tuple, list] = defaultdict(list)
    for s in summary:
        series[(s["footprint"], s["kind"], s["method"])].append((s["corridor"], s.get(key)))
    handles = {}
    for ax, fp in zip(axes, footprints):
        for i, (kind, method) in enumerate(methods):
            pts = sorted((c, v) for c, v in series.get((fp, kind, method), []) if v is not None)
            if not pts:
                continue
            xs, ys = zip(*pts)
            style = "-" if kind == "plan" else "--"
            # fixed colour and marker per method, identical in every panel
            (line,) = ax.plot(xs, ys, style, color=_COLORS(i % 20), marker=_MARKERS[i % len(_MARKERS)],
                              markersize=4,
                              label=method + {"plan": "", "mouse": " (mouse)"}.get(kind, " (agent)"))
            handles[line.get_label()] = line
        ax.set_title(f"footprint {fp}", fontsize=10)
        ax.set_xticks(corridors)
        if corridors:
            ax.set_xlim(corridors[0] - 0.5, corridors[-1] + 0.5)
        ax.set_xlabel("corridor width (grid cells)")
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel(ylabel)
    if handles:
        fig.legend(list(handles.values()), list(handles), loc="center right", fontsize=8,
                   frameon=False)
    fig.subplots_adjust(left=0.07, right=1 - 2.4 / (4.2 * n + 2.6), bottom=0.14, top=0.86,
                        wspace=0.08)
    if title:
        fig.suptitle(title, fontsize=11)
    out = Path(out)
    fig.savefig(out, format=out.suffix.lstrip(".") or "png", dpi=100)
    return out


def plot_summary(summary: Sequence[dict], out_dir: str | os.PathLike) -> dict[str, Path]:
    """Write the three report figures as PNG into ``out_dir``; return their paths."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    titles = {"length_vs_widening": "Path length vs widening",
              "clearance_vs_widening": "Minimum clearance vs widening",
              "success_vs_widening": "Success rate vs widening"}
    return {name: plot_metric(summary, key, label, out_dir / f"{name}.png", title=titles[name])
            for name, (key, label) in FIGURES.items()}


def plot_example(grid, cells, out: str | os.PathLike, *, title: str = "") -> Path:
    """The path (grid cells, may be None) drawn on its grid, about 400 px wide."""
    from .render import render

    cell_px = max(0.5, 400.0 / max(grid.shape))   # about 400 px wide: room for the title
    path = cells if cells is not None and len(cells) > 1 else None
    fig = render(grid, out, path=path, cell_px=cell_px, title=title or None)
    fig.clear()
    return Path(out)
