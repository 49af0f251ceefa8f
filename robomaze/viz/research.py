"""Figures of the research report sections (:mod:`robomaze.bench.report_research`).

:func:`plot_safety_vs_noise`: safety of the simulated agents against the
noise level, one column of panels per widening level and one row per safety
metric (minimum clearance, collision events, time in danger), one line per
agent and footprint.

>>> rows = [{"corridor": 5, "footprint": "disc:0.1", "method": "wall_follow",
...          "level": lv, "min_clearance": 0.1 - i / 100, "collisions": i,
...          "danger_fraction": i / 10} for i, lv in enumerate(["none", "gaussian:0.01"])]
>>> import tempfile, pathlib
>>> p = plot_safety_vs_noise(rows, ["none", "gaussian:0.01"],
...                          pathlib.Path(tempfile.mkdtemp()) / "s.png")
>>> p.read_bytes()[:4] == b"\\x89PNG"
True
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Sequence

from matplotlib import colormaps
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

__all__ = ["plot_safety_vs_noise", "SAFETY_PANELS"]

#: (key, y label) of each row of panels.
SAFETY_PANELS = (("min_clearance", "min clearance (m)"),
                 ("collisions", "collision events / run"),
                 ("danger_fraction", "time in danger"))
_MARKERS = "osD^v<>pPX*h"
_COLORS = colormaps["tab10"]


def plot_safety_vs_noise(points: Sequence[dict], levels: Sequence[str],
                         out: str | os.PathLike) -> Path:
    """Safety vs noise level per widening level.

    ``points`` hold ``corridor``, ``footprint``, ``method``, ``level`` (one
    of ``levels``, drawn left to right in that order) and the keys of
    :data:`SAFETY_PANELS`; a missing or None value leaves a gap.
    """
    corridors = sorted({p["corridor"] for p in points})
    series = sorted({(p["method"], p["footprint"]) for p in points})
    xs = {lv: i for i, lv in enumerate(levels)}
    n = max(1, len(corridors))
    fig = Figure(figsize=(3.6 * n + 2.8, 2.4 * len(SAFETY_PANELS) + 1.2), dpi=100,
                 facecolor="white")
    FigureCanvasAgg(fig)
    axes = fig.subplots(len(SAFETY_PANELS), n, sharex=True, squeeze=False)
    handles = {}
    for j, corridor in enumerate(corridors):
        for i, (key, label) in enumerate(SAFETY_PANELS):
            ax = axes[i][j]
            for s, (method, fp) in enumerate(series):
                pts = sorted((xs[p["level"]], p[key]) for p in points
                             if p["corridor"] == corridor and p["method"] == method
                             and p["footprint"] == fp and p.get(key) is not None
                             and p["level"] in xs)
                if not pts:
                    continue
                (line,) = ax.plot(*zip(*pts), "-", color=_COLORS(s % 10),
                                  marker=_MARKERS[s % len(_MARKERS)], markersize=4,
                                  label=f"{method} {fp}")
                handles[line.get_label()] = line
            if i == 0:
                ax.set_title(f"corridor {corridor}", fontsize=10)
            if j == 0:
                ax.set_ylabel(label, fontsize=9)
            ax.grid(True, alpha=0.3)
        axes[-1][j].set_xticks(range(len(levels)))
        axes[-1][j].set_xticklabels(levels, rotation=35, ha="right", fontsize=7)
    if handles:
        fig.legend(list(handles.values()), list(handles), loc="center right", fontsize=8,
                   frameon=False)
    fig.suptitle("Safety vs noise level (sensor / odometry)", fontsize=11)
    fig.subplots_adjust(left=0.1, right=1 - 2.6 / (3.6 * n + 2.8), bottom=0.2, top=0.92,
                        hspace=0.12, wspace=0.25)
    out = Path(out)
    fig.savefig(out, format="png", dpi=100)
    return out
