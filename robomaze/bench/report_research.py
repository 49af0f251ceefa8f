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
                  ("search_distance_m", "search distance (m)"),
                  ("search_time_profile", "search time (s)"),
                  ("fast_run_time", "fast run (s)"),
                  ("fastest_route_time", "best possible (s)"),
                  ("gap", "gap to best"),
                  ("fast_run_time_diagonal", "fast run with diagonals (s)"),
                  ("fastest_route_time_diagonal", "best possible with diagonals (s)"),
                  ("gap_diagonal", "gap to best with diagonals"),
                  ("contest_score", "contest score"), ("mms_score", "mms score"))

#: Solver names in words.
_MOUSE_NAMES = {"floodfill": "flood fill, shortest route proven",
                "floodfill_time": "flood fill, fastest route proven",
                "left_wall": "left-hand wall follower", "right_wall": "right-hand wall follower",
                "tremaux": "Trémaux"}


def _mouse_label(r) -> str:
    """The mouse in words (solver, proof option) and its profile."""
    run = r.get("scenario", {}).get("run", {})
    name = _MOUSE_NAMES.get(r["method"], r["method"])
    prove = (run.get("options") or {}).get("prove")
    if r["method"] == "floodfill" and prove == "time":
        name = _MOUSE_NAMES["floodfill_time"]
    elif r["method"] == "floodfill" and prove is False:
        name = "flood fill, stops at the goal"
    return f"{name} ({run.get('profile') or 'kerikun'} profile)"


def _gap(m, suffix: str = "") -> str:
    ratio = m.get("fast_run_ratio" + suffix)
    return "" if ratio is None else f"{100 * (ratio - 1):.1f}%"


def _proof_table(mice) -> list[str]:
    """Flood fill proving the fastest route against proving the shortest one."""
    pairs: dict = defaultdict(dict)
    for r in mice:
        label = _mouse_label(r)
        kind = ("time" if label.startswith(_MOUSE_NAMES["floodfill_time"]) else
                "short" if label.startswith(_MOUSE_NAMES["floodfill"]) else None)
        if kind and r.get("success"):
            profile = r.get("scenario", {}).get("run", {}).get("profile") or "kerikun"
            pairs[(_maze_label(r), profile)][kind] = r.get("metrics", {})
    rows = [(k, v) for k, v in sorted(pairs.items()) if len(v) == 2]
    if not rows:
        return []
    out = ["", "### Proving the fastest route instead of the shortest\n",
           "Flood fill stopping when the shortest route is proven against stopping when "
           "the fastest (time-optimal, no diagonals) route is proven, same maze and "
           "profile: the search each pays and the fast run each earns.\n",
           "| maze | profile | search time, shortest proven (s) | search time, fastest "
           "proven (s) | fast run, shortest proven (s) | fast run, fastest proven (s) | "
           "best possible (s) |", "|---|---|---|---|---|---|---|"]
    for (maze, profile), v in rows:
        out.append(f"| {maze} | {profile} | {_fmt(v['short'].get('search_time_profile'))} | "
                   f"{_fmt(v['time'].get('search_time_profile'))} | "
                   f"{_fmt(v['short'].get('fast_run_time'))} | "
                   f"{_fmt(v['time'].get('fast_run_time'))} | "
                   f"{_fmt(v['time'].get('fastest_route_time'))} |")
    return out


def _followers_note(mice) -> str:
    """Why left_wall and right_wall tie, when they do on every maze of the sweep."""
    by = defaultdict(dict)
    for r in mice:
        if r["method"] in ("left_wall", "right_wall"):
            key = (_maze_label(r), r.get("scenario", {}).get("run", {}).get("profile"))
            by[key][r["method"]] = r.get("metrics", {})
    shown = [k for k, _ in _MOUSE_COLUMNS if not k.startswith("gap")] + ["search_turns"]

    def same(p):
        return all(_fmt(p["left_wall"].get(k)) == _fmt(p["right_wall"].get(k)) for k in shown)

    pairs = [v for v in by.values() if len(v) == 2]
    if not pairs or not all(same(p) for p in pairs):
        return ""
    return ("\nThe left- and right-hand wall followers give identical figures on every maze "
            "here, and that is a property of these mazes, not a bug: the goal of a contest "
            "maze is an island (no wall that touches the goal is connected to the outer "
            "wall, the rule that defeats wall followers), so both followers walk the one "
            "closed tour around the outer wall's wall component -- the same cells, in "
            "opposite directions -- and stop when they are back at the start facing the way "
            "they left it. On a maze whose walls all connect to the outer wall (any perfect "
            "maze) they reach the goal by different walks "
            "(`tests/micromouse/test_mouse_fastrun.py` checks both).\n")


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
             "fast run on the walls learned). Every fast-run time is the time-optimal route "
             "on the walls the mouse learned, under the row's mouse profile (slalom turns; "
             "`kerikun`: micromouse-maze-library's model, its runs model without diagonals; "
             "`simple`: the earlier one-turn-speed model as slaloms); `best possible` is the "
             "time-optimal route of the true maze under the same profile, and `gap to best` "
             "how much slower the fast run is. The search time is the search walk under the "
             "profile, stopping for every turn. `flood fill, shortest route proven` explores "
             "until the shortest route is proven, `flood fill, fastest route proven` until "
             "the fastest one is (the fastest route with unknown walls open is as fast as "
             "with them closed): its gap to best is zero in the mode it proves (without "
             "diagonals here). Times are model estimates, not wall-clock. Contest score = "
             "fast run + search / 30 + 10 × crashes (s); mms score as the mms simulator's "
             "panel (distances in half cells); both lower is better. Definitions: "
             "`robomaze.bench.micromouse`.\n",
             "| maze | mouse | result | " + " | ".join(h for _, h in _MOUSE_COLUMNS) + " |",
             "|---|---|---|" + "---|" * len(_MOUSE_COLUMNS)]
    for r in sorted(mice, key=lambda r: (_maze_label(r), _mouse_label(r), r["id"])):
        m = dict(r.get("metrics", {}))
        m["gap"], m["gap_diagonal"] = _gap(m), _gap(m, "_diagonal")
        result = ("ok" if r.get("success") else
                  r.get("status") if r.get("status") != "ok" else "failed")
        why = "" if r.get("success") else \
            f" ({str(r.get('reason') or '').replace('|', '/')})"
        lines.append(f"| {_maze_label(r)} | {_mouse_label(r)} | {result}{why} | "
                     + " | ".join(m[k] if k.startswith("gap") else _fmt(m.get(k))
                                  for k, _ in _MOUSE_COLUMNS) + " |")
    note = _followers_note(mice)
    if note:
        lines.append(note)
    lines += _proof_table(mice)
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
