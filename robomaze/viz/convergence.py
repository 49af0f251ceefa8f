"""Anytime convergence of the optimizing OMPL planners: best cost against time or work.

:func:`plot_convergence` draws, per planner, the median over runs of the
best solution cost found so far, with the interquartile range as a band,
against time (seconds, measured) or validity checks (work, reproducible).
Each run's progress (``Path.stats["progress"]`` of the OMPL planners, the
``progress`` of a result row) is a step function: the cost of the best
solution at or before each x. Before a run's first solution its cost is
infinite, so a median exists only where at least half the runs have a
solution (and a band edge only where that quartile has one). After a run
stops its last cost holds. When every run knows its ``optimal_length_m``
(benchmark rows do), costs are divided by it: runs on different mazes then
share one scale. One panel per value of ``panel`` (e.g. the footprint),
each with its own cost scale: the cost is OMPL's path-length objective in
the planner's state space (metres in R²; in SE(2) position metres plus
0.5 per radian turned), measured before the path is simplified.

>>> rows = [{"method": m, "footprint": "disc:0.1", "metrics": {"optimal_length_m": 2.0},
...          "progress": {"samples": [[0.01 * k, 3.0 - 0.2 * k - 0.1 * i, 100 * k]
...                                   for k in range(1, 5)]}}
...         for m in ("ompl:rrtstar", "ompl:bitstar") for i in range(3)]
>>> import tempfile, pathlib
>>> p = plot_convergence(rows, pathlib.Path(tempfile.mkdtemp()) / "c.png")
>>> p.read_bytes()[:4] == b"\\x89PNG"
True
>>> convergence_curve([[[1.0, 3.0, 10], [2.0, 2.0, 20]]], [0.5, 1.0, 1.5, 3.0])[1].tolist()
[inf, 3.0, 3.0, 2.0]
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Sequence

import numpy as np
from matplotlib import colormaps
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from ..errors import ParameterError

__all__ = ["plot_convergence", "convergence_curve"]

_X = {"time": (0, "time since the search started (s)"),
      "checks": (2, "validity checks (work)")}
_COLORS = colormaps["tab10"]


def _samples(row: dict) -> list:
    prog = row.get("progress")
    return prog.get("samples", []) if isinstance(prog, dict) else list(prog or [])


def convergence_curve(runs: Sequence[Sequence], grid, *, column: int = 0):
    """Quartiles of the best cost at each x of ``grid`` over ``runs``.

    ``runs`` holds each run's samples ``[time, cost, checks]``; ``column``
    picks the x (0 time, 2 checks). Returns ``(q25, median, q75)`` arrays,
    ``inf`` where that quantile of runs has no solution yet. Quantiles are
    sample values (the inverted CDF), so no solution is averaged with one.
    """
    grid = np.asarray(grid, float)
    values = np.full((len(runs), grid.size), math.inf)
    for i, run in enumerate(runs):
        if not len(run):
            continue
        s = np.asarray(run, float)
        idx = np.searchsorted(s[:, column], grid, side="right") - 1
        values[i, idx >= 0] = s[idx[idx >= 0], 1]
    if not len(runs):
        empty = np.full(grid.size, math.inf)
        return empty, empty, empty
    q = np.quantile(values, [0.25, 0.5, 0.75], axis=0, method="inverted_cdf")
    return q[0], q[1], q[2]


def plot_convergence(rows: Sequence[dict], out: str | os.PathLike, *, x: str = "time",
                     panel: str | None = "footprint", points: int = 200) -> Path:
    """Median best cost vs ``x`` (``"time"`` or ``"checks"``) with IQR bands, per planner.

    Parameters
    ----------
    rows : sequence of dict
        Runs with ``method``, ``progress`` (samples ``[time, cost, checks]``),
        optionally ``metrics["optimal_length_m"]`` and the ``panel`` key.
        Runs without progress samples count as runs that never solved.
    out : path
        The image (``.png``, ``.svg`` or ``.pdf``).
    x : {"time", "checks"}
        The horizontal axis (log scale).
    panel : str or None
        The row key with one panel per value; None: one panel.
    points : int
        Grid points along x.
    """
    if x not in _X:
        raise ParameterError(f"x must be one of {', '.join(_X)}, got {x!r}")
    col, xlabel = _X[x]
    rows = [r for r in rows if "method" in r]
    if not rows:
        raise ParameterError("plot_convergence needs at least one row with a method")
    opt = [((r.get("metrics") or {}).get("optimal_length_m")) for r in rows]
    scaled = all(o is not None and o > 0 for o in opt)
    keys = sorted({str(r.get(panel, "")) for r in rows}) if panel else [""]
    methods = sorted({r["method"] for r in rows})
    xs = [s[col] for r in rows for s in _samples(r) if s[col] is not None and s[col] > 0]
    lo, hi = (min(xs), max(xs)) if xs else (1e-3, 1.0)
    grid = np.geomspace(lo, hi * 1.0001 if hi > lo else lo * 10, points)
    label_in = 0.8 + 0.065 * max(len(m) for m in methods)
    width = 4.2 * len(keys) + label_in
    fig = Figure(figsize=(width, 3.8), dpi=100, facecolor="white")
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, len(keys), squeeze=False)[0]
    handles = {}
    for ax, key in zip(axes, keys):
        for k, m in enumerate(methods):
            sel = [(r, o) for r, o in zip(rows, opt) if r["method"] == m
                   and (not panel or str(r.get(panel, "")) == key)]
            if not sel:
                continue
            runs = [[[s[0], s[1] / (o if scaled else 1.0), s[2]] for s in _samples(r)]
                    for r, o in sel]
            q25, med, q75 = convergence_curve(runs, grid, column=col)
            c = _COLORS(k % 10)
            ok = np.isfinite(med)
            (line,) = ax.plot(grid[ok], med[ok], color=c, lw=1.6, label=m)
            band = np.isfinite(q25) & np.isfinite(q75)
            ax.fill_between(grid, np.where(band, q25, np.nan), np.where(band, q75, np.nan),
                            color=c, alpha=0.2, lw=0)
            handles[line.get_label()] = line
        ax.set_xscale("log")
        ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel(xlabel, fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
        n = max((sum(1 for r in rows if r["method"] == m
                     and (not panel or str(r.get(panel, "")) == key)) for m in methods))
        ax.set_title((f"{panel} {key}, " if panel else "") + f"{n} runs per planner",
                     fontsize=10)
    # OMPL's path-length objective: metres in R², metres + 0.5 per radian turned in SE(2)
    axes[0].set_ylabel("best cost / optimal length" if scaled else "best cost (OMPL path length)",
                       fontsize=9)
    if handles:
        fig.legend(list(handles.values()), list(handles), loc="center right", fontsize=8,
                   frameon=False)
    fig.suptitle("Anytime convergence: median best cost, interquartile band", fontsize=11)
    fig.subplots_adjust(left=0.75 / width, right=1 - label_in / width, bottom=0.14, top=0.84,
                        wspace=0.15)
    out = Path(out)
    fig.savefig(out, dpi=100)
    return out
