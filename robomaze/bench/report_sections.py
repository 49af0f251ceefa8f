"""Report sections for sweeps with sampling-based (OMPL) planners or cars.

:func:`gap_section` answers the narrow-passage and car questions of a
sweep: per footprint and planner, the success rate, mean length / optimal
and the median time to the first solution at each corridor gap
(``corridor width - footprint width``, metres: how much room the robot
has across a corridor), the narrowest gap at which every run succeeded,
and a plot of success vs gap. It appears in ``report.md`` when the sweep
ran an ``ompl:`` planner.

The footprint width is the narrowest width of its shape (the rectangle's
``width``, the disc's diameter): the least a corridor must have to let
the robot through sideways-on, before turning is considered.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from pathlib import Path

__all__ = ["gap_section", "gap_table", "footprint_width"]


def footprint_width(spec: dict) -> float:
    """Narrowest width (metres) of a canonical footprint table.

    >>> footprint_width({"shape": "rectangle", "length": 0.4, "width": 0.2})
    0.2
    >>> footprint_width({"shape": "disc", "radius": 0.1})
    0.2
    """
    if spec["shape"] == "disc":
        return 2.0 * float(spec["radius"])
    if spec["shape"] == "rectangle":
        return float(min(spec["length"], spec["width"]))
    from .run import build_footprint

    rect = build_footprint(spec).geometry.minimum_rotated_rectangle
    xy = list(rect.exterior.coords)
    return float(min(math.dist(xy[0], xy[1]), math.dist(xy[1], xy[2])))


def gap_table(rows: list[dict]) -> list[dict]:
    """Per (footprint, method, corridor): gap, runs, success, length ratio, first-solution time."""
    groups: dict[tuple, list] = defaultdict(list)
    for r in rows:
        if r.get("kind") == "plan":
            groups[(r["footprint"], r["method"], r["corridor"])].append(r)
    table = []
    for (fp, method, corridor), g in sorted(groups.items()):
        spec = g[0]["scenario"]["robot"]["footprint"]
        width = corridor * float(g[0]["resolution"])
        ok = [r for r in g if r.get("success")]
        ratios = [r["metrics"]["length_ratio"] for r in ok
                  if r["metrics"].get("length_ratio") is not None]
        lbr = [r["metrics"]["lower_bound_ratio"] for r in ok
               if r["metrics"].get("lower_bound_ratio") is not None]
        first = [r["metrics"]["first_solution_s"] for r in ok
                 if r["metrics"].get("first_solution_s") is not None]
        table.append({"footprint": fp, "method": method, "corridor": corridor,
                      "gap": round(width - footprint_width(spec), 9), "runs": len(g),
                      "success_rate": len(ok) / len(g),
                      "length_ratio": statistics.fmean(ratios) if ratios else None,
                      "lower_bound_ratio": statistics.fmean(lbr) if lbr else None,
                      "reference": "/".join(sorted({str(r["metrics"].get("optimal_reference"))
                                                    for r in ok})) or "",
                      "first_solution_s": statistics.median(first) if first else None})
    return table


def _f(v, spec=".3f") -> str:
    return "" if v is None else format(v, spec)


def gap_section(rows: list[dict], directory: str | Path, *, figures: bool = True) -> str:
    """The Markdown section (its figure written under ``DIR/figures``); "" without OMPL runs."""
    if not any(str(r.get("method", "")).startswith("ompl:") for r in rows):
        return ""
    d = Path(directory)
    table = gap_table(rows)
    out = ["\n## Success vs corridor gap (sampling-based vs grid planners)\n",
           "Gap = corridor width - footprint width (m). Two length ratios, mean over the "
           "successful runs: *vs best-known* divides by the row's reference "
           "(`optimal_reference`: for discs the exact visibility-graph length, a true "
           "optimum; for rectangles the any-angle `theta_star` path on the rasterised free "
           "space, only the best length known, which a continuous SE(2) planner can beat, "
           "so this ratio can fall below 1); *vs lower bound* divides by a provable lower "
           "bound (`lower_bound_reference`: for rectangles the visibility-graph length of "
           "the footprint's inscribed disc), which no collision-free path can go below. "
           "First solution: median thread CPU seconds to the first exact solution (the "
           "clock of the run's own time).\n"]
    if figures and table:
        from ..viz.bench_gap import plot_success_vs_gap

        from .files import target  # checked: inside DIR, never through a link

        p = plot_success_vs_gap(table, target(d, "figures/success_vs_gap.png"))
        out.append(f"\n![success vs gap]({p.relative_to(d).as_posix()})\n")
    by_fp: dict[str, list] = defaultdict(list)
    for t in table:
        by_fp[t["footprint"]].append(t)
    for fp, ts in sorted(by_fp.items()):
        out.append(f"\n### {fp}\n\n| method | corridor | gap (m) | runs | success | "
                   f"length / best-known | length / lower bound | first solution (s CPU) |\n"
                   f"|---|---|---|---|---|---|---|---|\n")
        for t in sorted(ts, key=lambda t: (t["method"], t["corridor"])):
            out.append(f"| {t['method']} | {t['corridor']} | {t['gap']:.3f} | {t['runs']} | "
                       f"{t['success_rate']:.2f} | {_f(t['length_ratio'])} | "
                       f"{_f(t['lower_bound_ratio'])} | "
                       f"{_f(t['first_solution_s'], '.4f')} |\n")
        out.append("\nNarrowest gap where every run succeeded (and every wider one too): ")
        parts = []
        for m in sorted({t["method"] for t in ts}):
            mt = sorted((t for t in ts if t["method"] == m), key=lambda t: t["gap"])
            ok = None
            for t in reversed(mt):
                if t["success_rate"] < 1.0:
                    break
                ok = t["gap"]
            parts.append(f"{m} {'never' if ok is None else f'{ok:.3f} m'}")
        out.append("; ".join(parts) + ".\n")
    return "".join(out)
