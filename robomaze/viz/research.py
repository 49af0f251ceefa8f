"""Figures of the research report sections (:mod:`robomaze.bench.report_research`).

:func:`plot_safety_vs_noise`: safety of the simulated agents against the
sensor noise level, one column of panels per widening level and one row per
safety metric (minimum clearance, collision events, time in danger), one
colour per agent and footprint and one line style per odometry noise level.

>>> rows = [{"corridor": 5, "footprint": "disc:0.1", "method": "wall_follow",
...          "sensor": lv, "odometry": "none", "min_clearance": 0.1 - i / 100,
...          "collisions": i, "danger_fraction": i / 10}
...         for i, lv in enumerate(["none", "gaussian:0.01"])]
>>> import tempfile, pathlib
>>> p = plot_safety_vs_noise(rows, ["none", "gaussian:0.01"], ["none"],
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
_STYLES = ("-", "--", ":", "-.")
_COLORS = colormaps["tab10"]


def plot_safety_vs_noise(points: Sequence[dict], sensor_levels: Sequence[str],
                         odometry_levels: Sequence[str], out: str | os.PathLike) -> Path:
    """Safety vs sensor noise level per widening level, a line per odometry level.

    ``points`` hold ``corridor``, ``footprint``, ``method``, ``sensor`` (one
    of ``sensor_levels``, drawn left to right in that order), ``odometry``
    (one of ``odometry_levels``: solid, dashed, dotted...) and the keys of
    :data:`SAFETY_PANELS`; a missing or None value leaves a gap.
    """
    corridors = sorted({p["corridor"] for p in points})
    agents = sorted({(p["method"], p["footprint"]) for p in points})
    series = [(a, o) for a in agents for o in odometry_levels]
    xs = {lv: i for i, lv in enumerate(sensor_levels)}
    n = max(1, len(corridors))
    # room on the right for the legend: about 0.065 in per character at 8 pt
    legend_in = 0.8 + 0.065 * max((len(f"{m} {f}, odometry {o}") for (m, f), o in series),
                                  default=10)
    width = 3.6 * n + legend_in
    fig = Figure(figsize=(width, 2.4 * len(SAFETY_PANELS) + 1.2), dpi=100, facecolor="white")
    FigureCanvasAgg(fig)
    axes = fig.subplots(len(SAFETY_PANELS), n, sharex=True, squeeze=False)
    handles = {}
    for j, corridor in enumerate(corridors):
        for i, (key, label) in enumerate(SAFETY_PANELS):
            ax = axes[i][j]
            for (method, fp), odo in series:
                pts = sorted((xs[p["sensor"]], p[key]) for p in points
                             if p["corridor"] == corridor and p["method"] == method
                             and p["footprint"] == fp and p["odometry"] == odo
                             and p.get(key) is not None and p["sensor"] in xs)
                if not pts:
                    continue
                a = agents.index((method, fp))
                o = list(odometry_levels).index(odo)
                (line,) = ax.plot(*zip(*pts), _STYLES[o % len(_STYLES)], color=_COLORS(a % 10),
                                  marker=_MARKERS[a % len(_MARKERS)], markersize=4,
                                  label=f"{method} {fp}, odometry {odo}")
                handles[line.get_label()] = line
            if i == 0:
                ax.set_title(f"corridor {corridor}", fontsize=10)
            if j == 0:
                ax.set_ylabel(label, fontsize=9)
            ax.grid(True, alpha=0.3)
        axes[-1][j].set_xticks(range(len(sensor_levels)))
        axes[-1][j].set_xticklabels(sensor_levels, rotation=35, ha="right", fontsize=7)
        axes[-1][j].set_xlabel("sensor noise", fontsize=9)
    if handles:
        fig.legend(list(handles.values()), list(handles), loc="center right", fontsize=8,
                   frameon=False)
    fig.suptitle("Safety vs noise level (colour: agent; line style: odometry noise)",
                 fontsize=11)
    fig.subplots_adjust(left=0.9 / width, right=1 - legend_in / width, bottom=0.17, top=0.92,
                        hspace=0.12, wspace=0.25)
    out = Path(out)
    fig.savefig(out, format="png", dpi=100)
    return out
