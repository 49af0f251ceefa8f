"""OMPL planners: validity checks per second, robomaze's lookup vs a naive shapely check.

Run: ``python benchmarks/bench_ompl.py [--states N] [--reps R]``; prints a
table and writes ``benchmarks/results/ompl.json``.
``python benchmarks/bench_ompl.py --repro [--seeds S] [--budget B]``: the
reproducibility and anytime part instead (see :func:`repro`), writing
``benchmarks/results/ompl_repro.json`` and ``docs/img/ompl_convergence.png``.

Side by side on the same widened maze (an 8x8 kruskal maze, corridor 5,
wall 1, 0.1 m: 49x49 cells) and the same random states (uniform over the
map, headings uniform), for a disc (r = 0.15 m) and a 0.4 x 0.2 m
rectangle, each answering "is the footprint's clearance above the
planner's margin at this state":

* robomaze: :class:`robomaze.plan.sampling.ClearanceLookup.valid`, one
  Python call per state as OMPL makes them (table of exact clearances at
  cell centres and sample headings, Lipschitz bounds, exact fallback);
* exact per state: :func:`robomaze.geometry.footprint_clearance` called
  for each state (numba, no table);
* naive shapely: the footprint placed with ``Footprint.at`` and its
  distance to the occupied squares as one prepared shapely geometry.

All three give the same answers (checked). The table's build time is
reported (it is paid once per plan), and checks/s of whole RRT-Connect
plan calls (validity checks / plan time: table build, OMPL's own work and
simplification included; seeds 1-3). Median of interleaved repetitions.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import statistics
import time
from pathlib import Path

import numpy as np
import shapely
from shapely.ops import unary_union

from robomaze import widen
from robomaze.generate import generate
from robomaze.geometry import Footprint, footprint_clearance
from robomaze.plan.sampling import ClearanceLookup, ompl_plan


def walls(grid):
    res = grid.resolution
    rr, cc = np.nonzero(grid.occupied)
    x0, y0 = cc * res, (grid.rows - rr - 1) * res
    frame = shapely.box(-1, -1, grid.width + 1, grid.height + 1).difference(
        shapely.box(0, 0, grid.width, grid.height))
    w = unary_union(list(shapely.box(x0, y0, x0 + res, y0 + res)) + [frame])
    shapely.prepare(w)
    return w


def repro(seeds: int, budget: int) -> None:
    """Every OMPL planner on the README's maze, each seed run twice: same bytes? budget kept?

    kruskal 4x4 (seed 1), corridor 5, 0.1 m, the README's rect 0.3x0.16 and a
    disc r=0.13; ``max_checks=budget``, no wall-clock limit. Per planner and
    footprint: successes, whether the second run returned the identical
    poses (bytes), the validity checks against the budget (the overshoot),
    median planning time and length; the optimizing planners' progress
    feeds the convergence figure. The load average is recorded.
    """
    import hashlib
    import os
    import subprocess
    import sys

    from robomaze.errors import NoPathError
    from robomaze.plan.sampling import OMPL_PLANNERS, OPTIMIZING
    from robomaze.viz.convergence import plot_convergence

    g = widen(generate("kruskal", 4, 4, rng=1), corridor=5, wall=1, resolution=0.1)
    fps = {"rect:0.3x0.16": Footprint.rectangle(0.3, 0.16), "disc:0.13": Footprint.disc(0.13)}
    out = {"maze": "kruskal 4x4 seed 1, corridor 5, wall 1, 0.1 m", "budget": budget,
           "seeds": seeds, "load_before": os.getloadavg(), "machine": platform.platform(),
           "planners": {}}
    rows, digests = [], {}
    for fp_name, fp in fps.items():
        for name in OMPL_PLANNERS:
            res = {"ok": 0, "identical": 0, "checks": [], "time_s": [], "length_m": [],
                   "first_solution_checks": []}
            for seed in range(1, seeds + 1):
                runs = []
                for _ in range(2):
                    try:
                        p = ompl_plan(g, None, None, planner=name, footprint=fp, rng=seed,
                                      max_checks=budget)
                        runs.append(p)
                    except NoPathError as exc:
                        runs.append(str(exc).split(" (")[0])
                a, b = runs
                if isinstance(a, str):
                    res["identical"] += a == b
                    continue
                res["ok"] += 1
                res["identical"] += (not isinstance(b, str)
                                     and a.poses.tobytes() == b.poses.tobytes())
                res["checks"].append(a.stats["validity_checks"])
                res["time_s"].append(a.time)
                res["length_m"].append(a.length)
                res["first_solution_checks"].append(a.stats["first_solution_checks"])
                digests[f"{name} {fp_name} {seed}"] = hashlib.sha256(a.poses.tobytes()).hexdigest()
                if name in OPTIMIZING:
                    rows.append({"method": f"ompl:{name}", "footprint": fp_name, "seed": seed,
                                 "progress": a.stats["progress"]})
            over = [c - budget for c in res["checks"]]
            res["max_overshoot"] = max(over) if over else None
            out["planners"][f"{name} {fp_name}"] = res
            med = (lambda v: statistics.median(v) if v else float("nan"))
            print(f"{name:12s} {fp_name:14s} solved {res['ok']}/{seeds}  identical "
                  f"{res['identical']}/{seeds}  checks median {med(res['checks']):8.0f} "
                  f"(max over budget {res['max_overshoot']})  time {med(res['time_s']):6.2f} s  "
                  f"length {med(res['length_m']):.3f} m", flush=True)
    # the same runs in a fresh process give the same bytes
    code = ("import hashlib, sys\nsys.path.insert(0, %r)\nfrom bench_ompl import _digest\n"
            "print(_digest(%r, %d))" % (str(Path(__file__).parent), sorted(digests)[:6], budget))
    fresh = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True).stdout.split()
    out["fresh_process_identical"] = fresh == [digests[k] for k in sorted(digests)[:6]]
    print("fresh process, same bytes:", out["fresh_process_identical"])
    out["load_after"] = os.getloadavg()
    res_dir = Path(__file__).parent / "results"
    res_dir.mkdir(exist_ok=True)
    (res_dir / "ompl_repro.json").write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    (res_dir / "ompl_progress.json").write_text(json.dumps(rows) + "\n", encoding="utf-8")
    img = Path(__file__).parent.parent / "docs" / "img" / "ompl_convergence.png"
    plot_convergence(rows, img, x="checks")
    print("wrote", img)


def _digest(keys, budget: int) -> str:
    """Pose digests of ``"planner footprint seed"`` runs (the fresh-process half of repro)."""
    import hashlib

    g = widen(generate("kruskal", 4, 4, rng=1), corridor=5, wall=1, resolution=0.1)
    out = []
    for k in keys:
        name, fp, seed = k.split()
        p = ompl_plan(g, None, None, planner=name, footprint=Footprint.from_spec(fp),
                      rng=int(seed), max_checks=budget)
        out.append(hashlib.sha256(p.poses.tobytes()).hexdigest())
    return " ".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--states", type=int, default=4000)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--repro", action="store_true",
                    help="the reproducibility and anytime-convergence runs instead")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--budget", type=int, default=40000)
    args = ap.parse_args()
    if args.repro:
        repro(args.seeds, args.budget)
        return
    g = widen(generate("kruskal", 8, 8, rng=1), corridor=5, wall=1, resolution=0.1)
    w = walls(g)
    rng = np.random.default_rng(0)
    P = rng.uniform([0, 0, -math.pi], [g.width, g.height, math.pi], (args.states, 3))
    out = {"grid": list(g.shape), "states": args.states, "reps": args.reps,
           "machine": platform.platform(), "footprints": {}}
    for name, fp in (("disc r=0.15", Footprint.disc(0.15)),
                     ("rect 0.4x0.2", Footprint.rectangle(0.4, 0.2))):
        t = time.perf_counter()
        look = ClearanceLookup(g, fp)
        build = time.perf_counter() - t
        margin = look.margin

        def lookup():
            return [look.valid(*p) for p in P]

        def exact():
            return [bool(footprint_clearance(g, fp, p[None])[0] > margin) for p in P]

        def naive():
            return [w.distance(fp.at(*p)) > margin for p in P]

        ref = naive()
        assert lookup() == ref and exact() == ref, "the three checks disagree"
        times = {"lookup": [], "exact": [], "shapely": []}
        for _ in range(args.reps):   # interleaved
            for key, fn in (("lookup", lookup), ("exact", exact), ("shapely", naive)):
                t = time.perf_counter()
                fn()
                times[key].append(time.perf_counter() - t)
        rate = {k: args.states / statistics.median(v) for k, v in times.items()}
        look.checks = look.exact = 0
        lookup()
        in_ompl = []
        for seed in (1, 2, 3):
            p = ompl_plan(g, None, None, planner="rrt_connect", footprint=fp, time_limit=30.0,
                          max_checks=None, rng=seed)
            in_ompl.append(p.expanded / p.time)   # planning and simplifying checks
        out["footprints"][name] = {
            "table_build_s": build, "checks_per_s": rate,
            "lookup_vs_shapely": rate["lookup"] / rate["shapely"],
            "lookup_vs_exact": rate["lookup"] / rate["exact"],
            "exact_fallback_fraction": look.exact / look.checks,
            "rrt_connect_checks_per_s": statistics.median(in_ompl)}
        print(f"{name:14s} table {build:6.3f} s | checks/s: lookup {rate['lookup']:9.0f}  "
              f"exact {rate['exact']:9.0f}  shapely {rate['shapely']:9.0f}  | lookup/shapely "
              f"{rate['lookup'] / rate['shapely']:5.1f}x  lookup/exact "
              f"{rate['lookup'] / rate['exact']:4.1f}x | exact fallback "
              f"{100 * look.exact / look.checks:4.1f} % | in RRT-Connect "
              f"{statistics.median(in_ompl):8.0f}/s")
    res = Path(__file__).parent / "results"
    res.mkdir(exist_ok=True)
    (res / "ompl.json").write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
