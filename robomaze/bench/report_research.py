"""Research sections of the benchmark report: safety vs noise, micromouse contests.

:func:`sections` is called by :func:`robomaze.bench.report.write_report`
and returns Markdown (empty when the results hold nothing for a section):

*Safety vs noise* (when agents ran with sensor or odometry noise): per
widening level, footprint, agent and noise level (``sensor / odometry``
spec strings), the success rate and the safety of *every* completed run,
successful or not -- a noisy robot that scrapes along a wall and never
arrives is exactly what this section is for: ``min clearance`` is the
smallest footprint clearance of any run, ``collisions`` the mean number of
collision events per run, ``time in danger`` the mean fraction of the run
closer than one grid cell to a wall, ``odometry error`` the mean distance
between the believed and the true final position. A figure
(``figures/safety_vs_noise.png``) draws the first three against the noise
level.

*Micromouse* (when the sweep has ``run.mouse`` runs): the table a
competitor reads -- per maze and mouse, explored cells, the search, the
fast run with and without diagonals against the best possible route (the
fastest route of the true maze) and the shortest one, the
contest and mms scores (definitions in :mod:`robomaze.bench.micromouse`)
-- then the same mazes widened and driven by the continuous robot, per
widening level.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import numpy as np

__all__ = ["sections", "noise_groups", "noise_level_key"]


def _fmt(v) -> str:
    from .report import fmt

    return fmt(v)


def noise_level_key(level: str) -> tuple:
    """Sort key of a noise spec: ``none`` first, then by kind and by its numbers.

    >>> sorted(["gaussian:0.1", "none", "gaussian:0.05", "dropout:0.5"], key=noise_level_key)
    ['none', 'dropout:0.5', 'gaussian:0.05', 'gaussian:0.1']
    """
    if level == "none":
        return (0, "", ())
    nums = tuple(float(x) for x in re.findall(r"[-+]?\d*\.?\d+(?:[eE][-+]?\d+)?", level))
    return (1, re.sub(r"[-+]?\d*\.?\d+(?:[eE][-+]?\d+)?", "#", level), nums)


def _level(row) -> str:
    # a localizer changes what the odometry noise does: its runs are their own level
    loc = f" [{row['localize']}]" if row.get("localize") else ""
    return f"{row.get('noise') or 'none'} / {row.get('odometry_noise') or 'none'}{loc}"


def _level_key(level: str) -> tuple:
    sensor, _, odo = level.partition(" / ")
    return (noise_level_key(sensor), noise_level_key(odo))


def _metric(rows, key):
    return [float(r["metrics"][key]) for r in rows if r.get("metrics", {}).get(key) is not None]


def _mean(xs):
    return float(np.mean(xs)) if xs else None


def noise_groups(rows) -> list[dict]:
    """One safety summary per (widening, footprint, agent, noise level), sorted."""
    groups: dict[tuple, list] = defaultdict(list)
    for r in rows:
        if r.get("kind") == "simulate":
            groups[(r["corridor"], r.get("wall"), r.get("resolution"), r["footprint"],
                    r["method"], _level(r))].append(r)
    out = []
    # odometry level before sensor level: rows with equal odometry noise together
    for key in sorted(groups, key=lambda k: (k[:5], _level_key(k[5])[::-1])):
        g = groups[key]
        done = [r for r in g if r.get("status") == "ok"]
        mins = _metric(done, "min_clearance")
        out.append({
            "corridor": key[0], "wall": key[1], "resolution": key[2], "footprint": key[3],
            "method": key[4], "level": key[5], "sensor": key[5].partition(" / ")[0],
            "odometry": key[5].partition(" / ")[2], "runs": len(g),
            "success_rate": sum(bool(r.get("success")) for r in g) / len(g),
            "min_clearance": min(mins) if mins else None,
            "collisions": _mean(_metric(done, "collisions")),
            "danger_fraction": _mean(_metric(done, "danger_fraction")),
            "odometry_error": _mean(_metric(done, "odometry_error")),
        })
    return out


def _noise_section(rows, d: Path, figures: bool) -> str:
    groups = noise_groups(rows)
    levels = sorted({g["level"] for g in groups}, key=_level_key)
    if not groups or levels == ["none / none"]:
        return ""
    widenings = {(g["wall"], g["resolution"]) for g in groups}

    def widening(g):
        return (str(g["corridor"]) if len(widenings) == 1
                else f"{g['corridor']} (wall {g['wall']}, {g['resolution']} m)")

    lines = ["## Safety vs noise\n",
             "Simulated agents with sensor noise (`robot.noise`) and odometry noise "
             "(`robot.odometry_noise`); level = `sensor / odometry` spec. Safety over every "
             "completed run, successful or not: `min clearance` is the smallest of any run, "
             "`collisions`, `time in danger` and `odometry error` (believed vs true final "
             "position) are means per run.\n"]
    if figures:
        from ..viz.research import plot_safety_vs_noise

        from .files import target  # checked: inside DIR, never through a link

        sensor = sorted({g["sensor"] for g in groups}, key=noise_level_key)
        odometry = sorted({g["odometry"] for g in groups}, key=noise_level_key)
        p = plot_safety_vs_noise(groups, sensor, odometry,
                                 target(d, "figures/safety_vs_noise.png"))
        lines.append(f"![safety vs noise]({p.relative_to(d).as_posix()})\n")
    lines += ["| corridor | footprint | agent | noise (sensor / odometry) | runs | success rate "
              "| min clearance (m) | collisions | time in danger | odometry error (m) |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    for g in groups:
        lines.append(f"| {widening(g)} | {g['footprint']} | {g['method']} | {g['level']} | "
                     f"{g['runs']} | {_fmt(g['success_rate'])} | {_fmt(g['min_clearance'])} | "
                     f"{_fmt(g['collisions'])} | {_fmt(g['danger_fraction'])} | "
                     f"{_fmt(g['odometry_error'])} |")
    return "\n".join(lines) + "\n\n"


_MOUSE_COLUMNS = (("cells_explored", "explored cells"), ("search_moves", "search moves"),
                  ("search_time", "search time (s)"), ("fast_run_time", "fast run (s)"),
                  ("fast_run_time_diagonal", "fast run, diagonals (s)"),
                  ("fastest_route_time", "best possible (s)"),
                  ("shortest_route_time", "shortest route (s)"),
                  ("shortest_route_time_diagonal", "shortest route, diagonals (s)"),
                  ("fast_run_ratio", "fast run / best"), ("contest_score", "contest score"),
                  ("mms_score", "mms score"))


def _maze_label(r) -> str:
    spec = r.get("scenario", {}).get("maze", {})
    if spec.get("generator"):
        return f"{r['generator']} seed {r.get('seed')}"
    return str(r["generator"])


def _mouse_section(rows) -> str:
    mice = [r for r in rows if r.get("kind") == "mouse"]
    if not mice:
        return ""
    lines = ["## Micromouse\n",
             "Cell-level mice on the contest mazes (classic rules: search from the start, "
             "fast run on the walls learned). Times are run-time estimates of "
             "`robomaze.micromouse.run_time` (18 cm cells, 3 m/s, 6 m/s², 0.7 m/s turns), "
             "not wall-clock. `best possible` is the fastest route of the true maze under that "
             "model (90-degree turns; every wall known), `fast run / best` the mouse's fast "
             "run against it; `shortest route` is the shortest route of the true maze with "
             "fewest turns (what a flood-fill mouse knowing every wall drives), with and "
             "without diagonals. Contest score = fast run + search / 30 + 10 × crashes (s); mms score as "
             "the mms simulator's panel; both lower is better. Definitions: "
             "`robomaze.bench.micromouse`.\n",
             "| maze | mouse | result | " + " | ".join(h for _, h in _MOUSE_COLUMNS) + " |",
             "|---|---|---|" + "---|" * len(_MOUSE_COLUMNS)]
    for r in sorted(mice, key=lambda r: (_maze_label(r), r["method"], r["id"])):
        m = r.get("metrics", {})
        result = ("ok" if r.get("success") else
                  r.get("status") if r.get("status") != "ok" else "failed")
        why = "" if r.get("success") else \
            f" ({str(r.get('reason') or '').replace('|', '/')[:60]})"
        lines.append(f"| {_maze_label(r)} | {r['method']} | {result}{why} | "
                     + " | ".join(_fmt(m.get(k)) for k, _ in _MOUSE_COLUMNS) + " |")
    mazes = {_maze_label(r) for r in mice}
    robots = [r for r in rows if r.get("kind") in ("plan", "simulate") and _maze_label(r) in mazes]
    if robots:
        lines += ["", "### The same mazes, widened: the continuous robot\n",
                  "Per maze and widening level (corridor width in grid cells), planners and "
                  "simulated agents; success rate over the group, length / optimal and "
                  "minimum clearance over its successful runs, time to goal for agents.\n",
                  "| maze | corridor | footprint | method | runs | success rate | "
                  "length / optimal | min clearance (m) | time to goal (s) |",
                  "|---|---|---|---|---|---|---|---|---|"]
        groups: dict[tuple, list] = defaultdict(list)
        for r in robots:
            groups[(_maze_label(r), r["corridor"], r["footprint"], r["kind"],
                    r["method"])].append(r)
        for key in sorted(groups):
            g = groups[key]
            ok = [r for r in g if r.get("success")]
            mins = _metric(ok, "min_clearance")
            name = key[4] + ("" if key[3] == "plan" else " (agent)")
            lines.append(f"| {key[0]} | {key[1]} | {key[2]} | {name} | {len(g)} | "
                         f"{_fmt(len(ok) / len(g))} | {_fmt(_mean(_metric(ok, 'length_ratio')))} | "
                         f"{_fmt(min(mins) if mins else None)} | "
                         f"{_fmt(_mean(_metric(ok, 'time_to_goal')))} |")
    return "\n".join(lines) + "\n\n"


def sections(rows, d, *, figures: bool = True) -> str:
    """The research sections' Markdown for the rows of result directory ``d``."""
    rows = list(rows)
    from .report_localize import localize_section

    return (_noise_section(rows, Path(d), figures) + localize_section(rows)
            + _mouse_section(rows))
