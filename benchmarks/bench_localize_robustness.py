"""Localisation on seeds nobody tuned: the figures of issue 34's "Done when", measured.

Run: ``python benchmarks/bench_localize_robustness.py CASE [--seeds A-B] [--set KEY=VALUE]``
with CASE one of

- ``mcl6``: ``robomaze simulate kruskal 6x6 --seed S --corridor 5 --footprint
  disc:0.15 --agent follow_plan --odometry-noise gaussian:0.02+drift:0.02
  --localize mcl`` (default seeds 1-30);
- ``slam6``: the same maze and noise, ``--agent explore --localize slam``;
- ``mcl10``: ``kruskal 10x10 --corridor 3 --footprint disc:0.1
  --odometry-noise gaussian:0.05+drift:0.05 --sensor lidar --agent follow_plan
  --localize mcl`` (default seeds 1-20);
- ``kidnap``: ``mcl6`` carried 2 m unseen at 15 s (``--kidnap 15,2,0``,
  turned by quarter turns where that lands outside the maze), relocalised
  when ``kidnap_recovery_s <= 30`` (default seeds 1-10); a run that ends
  less than 2 s after the carry (carried next to the goal) is listed, as
  its recovery cannot be measured;
- ``symmetric``: a square 4 m room (no inner walls), MCL started globally
  (``global_start``, 1,000 particles) while ``wall_follow`` drives: whether
  the estimate ends on the true pose or on a rotated copy, and the
  ``loc_ambiguity`` it reports (default seeds 1-10).

Each run goes through :func:`robomaze.sim.simulate` exactly as the CLI does
(the maze of ``--seed S`` through :class:`robomaze.world.WorldSpec`, the
method stage's generator ``stage_rng(S, "method")``). ``--set`` passes a
localizer option (e.g. ``--set relocalize=0`` for the filter without global
relocalisation). One JSON line per run is printed, then a summary line; the
load average is recorded before and after. Nothing here is timed.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys

import numpy as np

from robomaze import OccupancyGrid, widen
from robomaze.geometry import Footprint
from robomaze.sim import simulate
from robomaze.world import WorldSpec, stage_rng

CASES = {
    "mcl6": dict(maze=(6, 6), corridor=5, fp=0.15, odo="gaussian:0.02+drift:0.02",
                 agent="follow_plan", localize="mcl", seeds=(1, 30)),
    "slam6": dict(maze=(6, 6), corridor=5, fp=0.15, odo="gaussian:0.02+drift:0.02",
                  agent="explore", localize="slam", seeds=(1, 30)),
    "mcl10": dict(maze=(10, 10), corridor=3, fp=0.1, odo="gaussian:0.05+drift:0.05",
                  agent="follow_plan", localize="mcl", seeds=(1, 20)),
    "kidnap": dict(maze=(6, 6), corridor=5, fp=0.15, odo="gaussian:0.02+drift:0.02",
                   agent="follow_plan", localize="mcl", seeds=(1, 10), kidnap=(15.0, 2.0, 0.0)),
    "symmetric": dict(room=4.0, fp=0.15, odo="gaussian:0.02+drift:0.02", agent="wall_follow",
                      localize="mcl", seeds=(1, 10)),
}


def _value(v: str):
    for conv in (int, float):
        try:
            return conv(v)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(v.lower(), v)


def _room(size: float) -> OccupancyGrid:
    n = int(round(size / 0.1))
    occ = np.zeros((n, n), bool)
    occ[0, :] = occ[-1, :] = occ[:, 0] = occ[:, -1] = True
    return OccupancyGrid(occ, resolution=0.1)


def run(case: str, seed: int, options: dict) -> dict:
    c = CASES[case]
    fp = Footprint.disc(c["fp"])
    loc_opts = dict(options)
    kw = {}
    if "room" in c:
        grid = _room(c["room"])
        # the room's four rotated copies look alike: start the filter anywhere
        loc_opts.setdefault("global_start", True)
        loc_opts.setdefault("global_particles", 1000)
        rng = np.random.default_rng(seed)
        kw["start"] = (float(rng.uniform(0.8, 3.2)), float(rng.uniform(0.8, 3.2)),
                       float(rng.uniform(-math.pi, math.pi)))
        kw["goal"] = (0.5, 0.5)
        kw["max_steps"] = 2000
    else:
        maze = WorldSpec(generator="kruskal", rows=c["maze"][0], cols=c["maze"][1], seed=seed,
                         placement="corners").build_maze()
        grid = widen(maze, corridor=c["corridor"], wall=1, resolution=0.1)
    if "kidnap" in c:
        kw["kidnap"] = c["kidnap"]
    r = simulate(grid, footprint=fp, agent=c["agent"], rng=stage_rng(seed, "method"),
                 odometry_noise=c["odo"], localize=c["localize"], localize_options=loc_opts,
                 **kw)
    m = r.metrics
    out = {"case": case, "seed": seed, "success": bool(r.success), "reason": r.reason,
           "collisions": int(m["collisions"]), "steps": int(m["steps"]),
           "ate_rmse": m.get("ate_rmse"), "lost_time": m.get("lost_time")}
    for k in ("kidnap_recovery_s", "kidnap_distance", "loc_ambiguity", "loc_ambiguity_max",
              "relocalizations"):
        if k in m:
            out[k] = m[k]
    if "kidnap_time" in m:
        # a carry that lands next to the goal ends the run before any recovery can show
        out["after_kidnap_s"] = float(r.trajectory.t[-1]) - float(m["kidnap_time"])
    if "room" in c and r.estimate is not None:
        truth, est = r.trajectory.poses[-1], r.estimate[-1]
        out["final_error_m"] = float(math.hypot(truth[0] - est[0], truth[1] - est[1]))
        out["on_copy"] = out["final_error_m"] > 0.5
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("case", choices=sorted(CASES))
    ap.add_argument("--seeds", default=None, help="A-B (default: the case's)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="a localizer option")
    args = ap.parse_args(argv)
    lo, hi = CASES[args.case]["seeds"]
    if args.seeds:
        lo, hi = (int(v) for v in args.seeds.split("-"))
    options = {k: _value(v) for k, v in (s.split("=", 1) for s in args.set)}
    print(json.dumps({"load_before": os.getloadavg(), "case": args.case, "options": options}),
          flush=True)
    rows = []
    for seed in range(lo, hi + 1):
        row = run(args.case, seed, options)
        rows.append(row)
        print(json.dumps(row), flush=True)
    ok = sum(r["success"] and r["collisions"] == 0 for r in rows)
    summary = {"case": args.case, "seeds": f"{lo}-{hi}", "options": options,
               "goal_without_collision": f"{ok}/{len(rows)}",
               "load_after": os.getloadavg()}
    if args.case == "kidnap":
        rec = [r.get("kidnap_recovery_s") for r in rows]
        summary["relocalised_within_30s"] = \
            f"{sum(v is not None and v == v and v <= 30 for v in rec)}/{len(rows)}"
        summary["ended_within_2s_of_the_carry"] = \
            [r["seed"] for r in rows if r.get("after_kidnap_s", 99.0) < 2.0]
    if args.case == "symmetric":
        copies = [r for r in rows if r.get("on_copy")]
        summary["on_a_copy"] = f"{len(copies)}/{len(rows)}"
        summary["copies_reporting_ambiguity"] = \
            f"{sum((r.get('loc_ambiguity') or 0) > 0.2 for r in copies)}/{len(copies)}"
    print(json.dumps({"summary": summary}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
