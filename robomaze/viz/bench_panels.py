"""Small-multiple figures of a benchmark report (from :mod:`robomaze.bench.report_figures`).

One panel per method family (rows: grid planners, sampling planners, maze
solvers, robot agents) and footprint (columns). The x axis is the free
corridor width in metres (bottom) and in robot widths (top); each line is
a method's median with its interquartile range as a light band and the
95% interval of the median as error bars (length, clearance), or its
success rate with the Wilson 95% interval as a band; the number of runs
behind each point is printed beside it (``n``). Methods whose numbers are the same
at every point of a row are drawn once and named together ("astar =
dijkstra"), so no line hides another. Legends sit to the right of each row,
outside the data; titles and labels are words. Each figure is written as
PNG, SVG and PDF side by side.

>>> pts = [{"family": "grid planners", "footprint": "disc:0.1", "kind": "plan",
...         "method": m, "setting": "", "corridor": c, "free_m": 0.1 * c,
...         "robot_width_m": 0.2, "success_rate": 1.0, "success_low": 0.8,
...         "success_high": 1.0, "length_ratio": 1.0 + c / 10, "length_ratio_low": 1.0,
...         "length_ratio_high": 1.5, "min_clearance": 0.01, "min_clearance_low": 0.0,
...         "min_clearance_high": 0.02} for m in ("astar", "dijkstra") for c in (3, 5)]
>>> import tempfile, pathlib
>>> out = plot_report_figures(pts, pathlib.Path(tempfile.mkdtemp()))
>>> sorted(out), sorted(p.suffix for p in out["length_vs_widening"].parent.glob("length_vs_widening.*"))
(['clearance_vs_widening', 'length_vs_widening', 'success_vs_widening'], ['.pdf', '.png', '.svg'])
>>> identical_groups(pts, "length_ratio")[("grid planners", ("plan", "astar", ""))]
'astar = dijkstra'
"""

from __future__ import annotations

import os
import textwrap
from collections import defaultdict
from pathlib import Path
from typing import Sequence

from matplotlib import colormaps
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

__all__ = ["plot_panels", "plot_report_figures", "identical_groups", "PANEL_FIGURES"]

#: name -> (point key, y label, title)
PANEL_FIGURES = {
    "length_vs_widening": ("length_ratio", "path length / shortest\ncollision-free length",
                        "Path length as the corridors widen (median, IQR band, 95% CI of the "
                        "median as bars; n runs beside each point)"),
    "clearance_vs_widening": ("min_clearance", "minimum clearance\nto the walls (m)",
                           "Minimum clearance as the corridors widen (median, IQR band, 95% "
                           "CI of the median as bars; n runs beside each point)"),
    "success_vs_widening": ("success_rate", "share of runs that\nreached the goal",
                         "Success rate as the corridors widen (Wilson 95% interval; n runs "
                         "beside each point)"),
}
_BAND = {"success_rate": ("success_low", "success_high")}
#: point key holding the n of a figure's values
_N_KEY = {"success_rate": "runs"}
_MARKERS = "osD^v<>pPX*h"
_STYLES = ("-", "--", "-.", ":")
_COLORS = colormaps["tab10"]


def _label(kind: str, method: str, setting: str) -> str:
    return (method + {"plan": "", "mouse": " (mouse)"}.get(kind, " (agent)")
            + (f", {setting}" if setting else "")).replace("$", r"\$")


def identical_groups(points: Sequence[dict], key: str) -> dict:
    """``(family, series) -> legend label`` with identical series of a family merged.

    A series is ``(kind, method, setting)``; two are identical when they have
    the same points (footprint, corridor) and equal values of ``key`` (within
    1e-9). Only the first series of a merged group gets a label; the others
    map to ``None`` (not drawn).
    """
    series: dict[tuple, dict] = defaultdict(dict)
    for p in points:
        series[(p["family"], (p["kind"], p["method"], p["setting"]))][(p["footprint"], p["corridor"])] = p.get(key)
    out: dict = {}
    by_family: dict[str, list] = defaultdict(list)
    for fam, s in sorted(series):
        by_family[fam].append(s)
    for fam, names in by_family.items():
        done: set = set()
        for i, a in enumerate(names):
            if a in done:
                continue
            same = [a]
            for b in names[i + 1:]:
                if b in done:
                    continue
                va, vb = series[(fam, a)], series[(fam, b)]
                if va.keys() == vb.keys() and all(
                        (x is None and y is None) or (x is not None and y is not None
                                                      and abs(x - y) <= 1e-9)
                        for x, y in ((va[k], vb[k]) for k in va)):
                    same.append(b)
            done.update(same)
            out[(fam, a)] = textwrap.fill(" = ".join(_label(*s) for s in same), 34,
                                          subsequent_indent="  ", break_long_words=False)
            for b in same[1:]:
                out[(fam, b)] = None
    return out


def plot_panels(points: Sequence[dict], key: str, ylabel: str, out: str | os.PathLike, *,
                title: str = "") -> Path:
    """Draw ``key`` for every family (rows) and footprint (columns); write PNG, SVG, PDF."""
    fams = list(dict.fromkeys(p["family"] for p in points))
    fps = sorted({p["footprint"] for p in points})
    labels = identical_groups(points, key)
    nrows, ncols = max(1, len(fams)), max(1, len(fps))
    longest = max((len(line) for v in labels.values() if v for line in v.splitlines()),
                  default=10)
    legend_in = min(0.9 + 0.062 * longest, 5.5)
    fig = Figure(figsize=(3.1 * ncols + legend_in + 0.9, 2.35 * nrows + 1.1), dpi=100,
                 facecolor="white", layout="constrained")
    FigureCanvasAgg(fig)
    fig.get_layout_engine().set(w_pad=6 / 72, h_pad=6 / 72)   # room around the outer labels
    axes = fig.subplots(nrows, ncols, sharex="col", sharey="row", squeeze=False)
    lo_key, hi_key = _BAND.get(key, (f"{key}_low", f"{key}_high"))
    width = {fp: next((p["robot_width_m"] for p in points if p["footprint"] == fp
                       and p.get("robot_width_m")), None) for fp in fps}
    for i, fam in enumerate(fams):
        names = sorted({(p["kind"], p["method"], p["setting"]) for p in points if p["family"] == fam})
        handles = []
        for j, fp in enumerate(fps):
            ax = axes[i][j]
            for n, s in enumerate(names):
                lab = labels.get((fam, s))
                if lab is None:
                    continue
                pts = sorted((p for p in points if p["family"] == fam and p["footprint"] == fp
                              and (p["kind"], p["method"], p["setting"]) == s
                              and p.get(key) is not None), key=lambda p: p["free_m"])
                colour, style = _COLORS(n % 10), _STYLES[(n // 10) % len(_STYLES)]
                if not pts:
                    continue
                xs = [p["free_m"] for p in pts]
                (line,) = ax.plot(xs, [p[key] for p in pts], style, color=colour,
                                  marker=_MARKERS[n % len(_MARKERS)], markersize=3.5,
                                  linewidth=1.3, label=lab)
                lo = [p.get(lo_key) for p in pts]
                hi = [p.get(hi_key) for p in pts]
                if all(v is not None for v in lo + hi):
                    ax.fill_between(xs, lo, hi, color=colour, alpha=0.10, linewidth=0)
                ci_lo = [p.get(f"{key}_ci_low") for p in pts]
                ci_hi = [p.get(f"{key}_ci_high") for p in pts]
                if all(v is not None for v in ci_lo + ci_hi):
                    ys = [p[key] for p in pts]
                    ax.errorbar(xs, ys, yerr=[[y - a for y, a in zip(ys, ci_lo)],
                                              [b - y for y, b in zip(ys, ci_hi)]],
                                fmt="none", ecolor=colour, elinewidth=0.9, capsize=2.0)
                for p in pts:   # how many runs stand behind the point
                    cnt = p.get(_N_KEY.get(key, f"n_{key}"))
                    if cnt is not None:
                        ax.annotate(f"{cnt}", (p["free_m"], p[key]), xytext=(3, 2),
                                    textcoords="offset points", fontsize=5.5, color=colour)
                if j == 0 or lab not in {h.get_label() for h in handles}:
                    if lab not in {h.get_label() for h in handles}:
                        handles.append(line)
            ax.grid(True, alpha=0.3)
            if i == 0:
                ax.set_title(f"footprint {fp}", fontsize=10)
                if width.get(fp):
                    w = width[fp]
                    top = ax.secondary_xaxis("top", functions=(lambda x, w=w: x / w,
                                                               lambda r, w=w: r * w))
                    top.set_xlabel("in robot widths", fontsize=8)
                    top.tick_params(labelsize=7)
            if i == nrows - 1:
                ax.set_xlabel("corridor width, wall to wall (m)")
            if j == 0:
                ax.set_ylabel(f"{fam}\n{ylabel}", fontsize=9)
        if handles:
            axes[i][-1].legend(handles=handles, loc="upper left", bbox_to_anchor=(1.03, 1.0),
                               fontsize=7.5, frameon=False, borderaxespad=0.0)
    if key == "success_rate":
        for ax in axes.ravel():
            ax.set_ylim(-0.05, 1.05)
    if title:
        fig.suptitle(title, fontsize=11)
    out = Path(out)
    for suffix in (".png", ".svg", ".pdf"):
        fig.savefig(out.with_suffix(suffix), format=suffix[1:], dpi=100)
    return out.with_suffix(".png")


def plot_report_figures(points: Sequence[dict], out_dir: str | os.PathLike) -> dict[str, Path]:
    """Write the three small-multiple figures into ``out_dir``; return the PNG paths."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    return {name: plot_panels(points, key, label, out_dir / f"{name}.png", title=title)
            for name, (key, label, title) in PANEL_FIGURES.items()}
