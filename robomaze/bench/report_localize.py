"""The *Localisation* section of the benchmark report.

When agents ran with a localizer (sweep key ``robot.localize``), one row
per widening level, footprint, agent, noise level (``sensor / odometry``)
and localizer -- dead reckoning (``none``) included, so the rows compare
side by side: success rate, the smallest footprint clearance of any
completed run, mean collision events, and the mean localisation errors of
:mod:`robomaze.metrics.localisation` (``ate_rmse`` m, ``rpe_per_m``,
``lost_time`` s, map IoU of occupied and free cells for ``slam``).
Dead-reckoning rows carry no estimate, so their error columns read ``-``.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

__all__ = ["localize_groups", "localize_section"]

_ORDER = {"none": 0, "mcl": 1, "slam": 2}


def _mean(rows, key):
    xs = [float(r["metrics"][key]) for r in rows
          if r.get("metrics", {}).get(key) is not None]
    xs = [x for x in xs if np.isfinite(x)]
    return float(np.mean(xs)) if xs else None


def localize_groups(rows) -> list[dict]:
    """One summary per (widening, footprint, agent, noise level, localizer), sorted."""
    rows = [r for r in rows if r.get("kind") == "simulate"]
    if not any(r.get("localize") for r in rows):
        return []
    groups: dict[tuple, list] = defaultdict(list)
    for r in rows:
        level = f"{r.get('noise') or 'none'} / {r.get('odometry_noise') or 'none'}"
        groups[(r["corridor"], r["footprint"], r["method"], level,
                r.get("localize") or "none")].append(r)
    out = []
    for key in sorted(groups, key=lambda k: (k[:4], _ORDER.get(k[4], 9), k[4])):
        g = groups[key]
        done = [r for r in g if r.get("status") == "ok"]
        mins = [float(r["metrics"]["min_clearance"]) for r in done
                if r.get("metrics", {}).get("min_clearance") is not None]
        out.append({"corridor": key[0], "footprint": key[1], "method": key[2],
                    "level": key[3], "localize": key[4], "runs": len(g),
                    "success_rate": sum(bool(r.get("success")) for r in g) / len(g),
                    "min_clearance": min(mins) if mins else None,
                    **{k: _mean(done, k) for k in ("collisions", "ate_rmse", "rpe_per_m",
                                                   "lost_time", "map_iou_occupied",
                                                   "map_iou_free")}})
    return out


def _fmt(v) -> str:
    return "-" if v is None else f"{v:.3f}"


def localize_section(rows) -> str:
    """Markdown of the section ('' when no run had a localizer).

    >>> r = {"kind": "simulate", "corridor": 5, "footprint": "disc:0.1", "method": "explore",
    ...      "status": "ok", "success": True, "localize": "slam",
    ...      "metrics": {"min_clearance": 0.05, "collisions": 0, "ate_rmse": 0.02}}
    >>> print(localize_section([r]).strip().splitlines()[-1])
    | 5 | disc:0.1 | explore | none / none | slam | 1 | 1.000 | 0.050 | 0.000 | 0.020 | - | - | - | - |
    """
    groups = localize_groups(rows)
    if not groups:
        return ""
    lines = ["## Localisation\n",
             "Agents that localise (`robot.localize`: `mcl` on the known map, `slam` on the "
             "map they build) beside dead reckoning (`none`). Errors of the estimate against "
             "the true trajectory, no alignment: `ATE` the RMSE of positions (m), `RPE` the "
             "translation error per metre travelled, `lost` the seconds with more than "
             "0.15 m error, `IoU` of the built map's occupied / free cells with the true "
             "grid (slam). Means over completed runs.\n",
             "| corridor | footprint | agent | noise (sensor / odometry) | localize | runs "
             "| success rate | min clearance (m) | collisions | ATE (m) | RPE per m | lost (s) "
             "| IoU occupied | IoU free |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for g in groups:
        lines.append(f"| {g['corridor']} | {g['footprint']} | {g['method']} | {g['level']} | "
                     f"{g['localize']} | {g['runs']} | {_fmt(g['success_rate'])} | "
                     f"{_fmt(g['min_clearance'])} | {_fmt(g['collisions'])} | "
                     f"{_fmt(g['ate_rmse'])} | {_fmt(g['rpe_per_m'])} | "
                     f"{_fmt(g['lost_time'])} | {_fmt(g['map_iou_occupied'])} | "
                     f"{_fmt(g['map_iou_free'])} |")
    return "\n".join(lines) + "\n\n"
