"""The numbers behind the report's small-multiple figures, computed from rows.

One point per (method family, footprint, method, setting, corridor): the
free corridor width in metres (``corridor * resolution``) and in robot
widths (over :func:`robomaze.bench.report_sections.footprint_width`), the
median, interquartile range and 95% interval of the median (exact
percentile bootstrap, :func:`robomaze.bench.stats.bootstrap_median`) of
length / optimal and of the minimum clearance over the successful runs,
with their count ``n_<metric>``, and the success rate with its Wilson
95% interval (runs with an infrastructure status left out, as in
:mod:`robomaze.bench.stats`). :mod:`robomaze.viz.bench` draws them.
"""

from __future__ import annotations

import math
from collections import defaultdict

import numpy as np

from .stats import INFRA_STATUSES, bootstrap_median, wilson

__all__ = ["family", "figure_points", "FAMILIES"]

#: Panel rows, in order.
FAMILIES = ("grid planners", "sampling planners (OMPL)", "maze solvers", "robot agents")


def family(kind: str, method: str) -> str:
    """Which row of panels a method belongs to.

    >>> family("plan", "astar"), family("plan", "ompl:rrtstar"), family("simulate", "explore")
    ('grid planners', 'sampling planners (OMPL)', 'robot agents')
    """
    if kind != "plan":
        return "robot agents"
    if method.startswith("ompl:"):
        return "sampling planners (OMPL)"
    from ..plan.classic import CLASSIC_SOLVERS

    return "maze solvers" if method in CLASSIC_SOLVERS else "grid planners"


def _robot_width(r: dict) -> float | None:
    from .report_sections import footprint_width

    try:
        return footprint_width(r["scenario"]["robot"]["footprint"])
    except (KeyError, TypeError, ValueError):
        return None


def figure_points(rows, *, setting_of=None) -> list[dict]:
    """Per family, footprint, method, setting and corridor: medians, bands, success."""
    groups: dict[tuple, list] = defaultdict(list)
    for r in rows:
        if r.get("kind") not in ("plan", "simulate"):
            continue
        setting = setting_of(r) if setting_of else ""
        key = (family(r["kind"], r["method"]), r["footprint"], r["kind"], r["method"], setting,
               r["corridor"])
        groups[key].append(r)
    out = []
    for (fam, fp, kind, method, setting, corridor), g in sorted(groups.items(), key=lambda kv: (
            FAMILIES.index(kv[0][0]) if kv[0][0] in FAMILIES else 99, *map(str, kv[0][1:5]),
            kv[0][5])):
        counted = [r for r in g if str(r.get("status", "ok")) not in INFRA_STATUSES]
        succ = [r for r in counted if r.get("success")]
        res = next((float(r["resolution"]) for r in g if r.get("resolution")), None)
        width = next((w for w in map(_robot_width, g) if w), None)
        p = {"family": fam, "footprint": fp, "kind": kind, "method": method, "setting": setting,
             "corridor": corridor, "free_m": corridor * res if res else float(corridor),
             "robot_width_m": width, "runs": len(counted), "successes": len(succ),
             "success_rate": len(succ) / len(counted) if counted else None}
        p["success_low"], p["success_high"] = wilson(len(succ), len(counted))
        for key in ("length_ratio", "min_clearance"):
            xs = [float(r["metrics"][key]) for r in succ
                  if (r.get("metrics") or {}).get(key) is not None]
            p[f"n_{key}"] = len(xs)
            if xs:
                q1, med, q3 = np.percentile(xs, [25, 50, 75])
                p[key], p[f"{key}_low"], p[f"{key}_high"] = float(med), float(q1), float(q3)
                p[f"{key}_ci_low"], p[f"{key}_ci_high"] = bootstrap_median(xs)
            else:
                p[key] = p[f"{key}_low"] = p[f"{key}_high"] = None
                p[f"{key}_ci_low"] = p[f"{key}_ci_high"] = None
        if not (math.isfinite(p["free_m"]) and all(
                v is None or math.isfinite(v) for v in p.values() if isinstance(v, float))):
            continue  # a corrupt row's overflowing width or metric has no place on an axis
        out.append(p)
    return out
