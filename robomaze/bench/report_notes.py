"""Notes that explain results a reader would otherwise find surprising.

:func:`wall_follower_note` explains the jump of the hand-on-the-wall
planners' (and Tremaux's) length ratio as corridors widen (issue: ``wall_follower``'s
length / optimal goes from about 1.2 at corridor 3 to 3.5-3.9 at corridor
5 on some mazes and not on others). The reported length is not the walk:
it is the *route* a second run would take through the cells the walk
touched (``route="shortest_known"``, :func:`robomaze.plan.wall_follower`).
Where the walk enters a dead end and comes back out along the opposite
wall, the route can skip the excursion only if the two tracks touch, i.e.
where the free corridor (the cells the footprint's centre may occupy) is at
most 4 grid cells wide. From 5 free cells on the route keeps every
excursion and its length jumps to the walk's (``walk_length_m``). Mazes on
which the walk enters no dead end (its walk ratio stays near 1) show no
jump. The note prints both ratios side by side from the rows.
"""

from __future__ import annotations

import math
from collections import defaultdict

import numpy as np

__all__ = ["wall_follower_note", "free_cells_across"]

_METHODS = ("wall_follower", "pledge", "tremaux")


def free_cells_across(corridor: int, radius: float, resolution: float) -> int:
    """Grid cells across a straight corridor whose centre a disc may occupy.

    A cell is free when its centre is farther than ``radius`` from both
    walls (the disc does not touch them).

    >>> free_cells_across(5, 0.04, 0.1), free_cells_across(7, 0.16, 0.1), free_cells_across(9, 0.16, 0.1)
    (5, 3, 5)
    """
    centres = (np.arange(corridor) + 0.5) * resolution
    return int(np.count_nonzero(np.minimum(centres, corridor * resolution - centres) > radius + 1e-12))


def _disc_radius(fp: str) -> float | None:
    if isinstance(fp, str) and fp.startswith("disc:"):
        try:
            return float(fp[5:])
        except ValueError:
            return None
    return None


def wall_follower_note(rows: list[dict]) -> str:
    """The Markdown note, or "" when the rows hold no wall-following planner run."""
    groups: dict[tuple, list] = defaultdict(list)
    for r in rows:
        m = r.get("metrics") or {}
        if (r.get("kind") == "plan" and r.get("method") in _METHODS and r.get("success")
                and m.get("length_ratio") is not None and m.get("walk_length_m")
                and m.get("optimal_length_m")):
            groups[(r["method"], r.get("footprint"), r.get("corridor"), r.get("resolution"))].append(
                (float(m["length_ratio"]), float(m["walk_length_m"]) / float(m["optimal_length_m"])))
    if not groups:
        return ""
    out = ["## Why the wall followers' length jumps as corridors widen\n",
           "`wall_follower`, `pledge` and the planner `tremaux` report the route a second run "
           "would take through the "
           "cells their walk touched, not the walk itself (`walk_length_m`). When the walk goes "
           "into a dead end and back out along the opposite wall, that route can skip the "
           "excursion only if the two tracks touch: where the free corridor (the grid cells "
           "the footprint's centre may occupy) is at most 4 cells wide. From 5 free cells on "
           "it keeps the excursions and its length / optimal jumps towards the walk's. Mazes whose "
           "walk enters no dead end show no jump. Medians over mazes and seeds:\n",
           "| method | footprint | corridor (cells) | free cells across | reported route / "
           "optimal | walk / optimal | runs |", "|---|---|---|---|---|---|---|"]
    for (method, fp, k, res), vals in sorted(groups.items(), key=lambda kv: tuple(map(str, kv[0][:2])) + (kv[0][2],)):
        radius = _disc_radius(fp)
        free = (str(free_cells_across(int(k), radius, float(res))) if radius is not None and res
                else "")
        route, walk = np.median([v[0] for v in vals]), np.median([v[1] for v in vals])
        out.append(f"| {method} | {fp} | {k} | {free} | {route:.2f} | {walk:.2f} | {len(vals)} |")
    return "\n".join(out) + "\n\n"
