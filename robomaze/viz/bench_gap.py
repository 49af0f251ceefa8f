"""Figure of the narrow-passage and car reports: success rate vs corridor gap.

One panel per footprint, one line per planner: success rate against the
gap ``corridor width - footprint width`` (metres), the room the robot has
across a corridor.

>>> import tempfile, pathlib
>>> table = [{"footprint": "disc:0.1", "method": m, "gap": g, "success_rate": s}
...          for m in ("astar", "ompl:rrt_connect") for g, s in ((0.0, 0.5), (0.2, 1.0))]
>>> p = plot_success_vs_gap(table, pathlib.Path(tempfile.mkdtemp()) / "gap.png")
>>> p.name
'gap.png'
"""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path
from typing import Sequence

from matplotlib import colormaps
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

__all__ = ["plot_success_vs_gap"]


def plot_success_vs_gap(table: Sequence[dict], out: str | os.PathLike, *,
                        title: str = "Success rate vs corridor gap") -> Path:
    """Write the figure as PNG; ``table`` rows hold footprint, method, gap, success_rate."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fps = sorted({r["footprint"] for r in table})
    methods = sorted({r["method"] for r in table})
    colors = colormaps["tab10"]
    fig = Figure(figsize=(5.0 * len(fps), 3.8), constrained_layout=True)
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, len(fps), squeeze=False)[0]
    for ax, fp in zip(axes, fps):
        lines = defaultdict(list)
        for r in table:
            if r["footprint"] == fp:
                lines[r["method"]].append((r["gap"], r["success_rate"]))
        for i, m in enumerate(methods):
            if m not in lines:
                continue
            pts = sorted(lines[m])
            style = "--" if m.startswith("ompl:") else "-"
            ax.plot([p[0] for p in pts], [p[1] for p in pts], style, marker="osD^v<>"[i % 7],
                    color=colors(i % 10), label=m)
        ax.set_title(fp, fontsize=9)
        ax.set_xlabel("corridor width - footprint width (m)")
        ax.set_ylim(-0.05, 1.05)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("success rate")
    axes[-1].legend(fontsize=7, loc="lower right")
    fig.suptitle(title)
    fig.savefig(out, dpi=110)
    return out
