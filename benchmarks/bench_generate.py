"""Benchmark robomaze's maze generators, side by side with mazelib 0.9.16.

For every generator in ``robomaze.generate.GENERATORS`` this times

* a ``BIG x BIG`` maze (default 1000x1000) after JIT warm-up -- the targets
  are < 1 s per maze (< 5 s for Aldous-Broder);
* a ``SMALL x SMALL`` maze (default 100x100), and the matching mazelib
  generator in the same run; the ratio mazelib / robomaze should be >= 20
  (>= 100 for the walk- and tree-based ones);

and records the dead-end fraction of both libraries' mazes, which exposes
mazelib's biased "AldousBroder" (a uniform spanning tree has ~29.4%).

Times are medians of interleaved repetitions, wall clock with
``time.perf_counter``, for both libraries alike: at the small size each
repetition times one robomaze call and then one mazelib call, so both see
the same background load; the load average before and after is recorded.
Each robomaze time is the public call, including validation and building the
``Maze``.
Prints a table and writes ``benchmarks/results/generate.json``.

Usage::

    python benchmarks/bench_generate.py [--big 1000] [--small 100]
        [--repeat 5] [--mazelib-budget 20] [--no-mazelib] [--only prim,wilson] [--out PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from pathlib import Path

import numpy as np

from robomaze.generate import GENERATORS
from robomaze.maze import Maze

#: robomaze generator -> mazelib class name (mazelib 0.9.16). mazelib's
#: ``Prims`` picks a random frontier cell, i.e. our ``prim_frontier``; its
#: ``GrowingTree`` defaults to backtrack_chance=1.0, i.e. selection="newest".
MAZELIB = {
    "backtracker": "BacktrackingGenerator",
    "prim": "Prims",
    "prim_frontier": "Prims",
    "kruskal": "Kruskal",
    "aldous_broder": "AldousBroder",
    "wilson": "Wilsons",
    "hunt_and_kill": "HuntAndKill",
    "growing_tree": "GrowingTree",
    "eller": "Ellers",
    "sidewinder": "Sidewinder",
    "binary_tree": "BinaryTree",
    "division": "Division",
}


def _median_time(fns, repeat: int, budgets=None) -> tuple[list[float], list[list]]:
    """Median wall time of each ``fns[i]()`` over ``repeat`` interleaved rounds.

    Round by round every function is called once, in turn, so all of them
    see the same background load. ``budgets[i]`` (seconds) stops calling
    function ``i`` once it has spent that much (after at least one call).
    """
    budgets = budgets or [float("inf")] * len(fns)
    times = [[] for _ in fns]
    outs = [[] for _ in fns]
    spent = [0.0] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            if spent[i] > budgets[i]:
                continue
            t0 = time.perf_counter()
            outs[i].append(fn())
            dt = time.perf_counter() - t0
            times[i].append(dt)
            spent[i] += dt
    return [float(np.median(t)) for t in times], outs


def _mazelib_factory(cls_name: str, size: int):
    import importlib

    mod = importlib.import_module(f"mazelib.generate.{cls_name}")
    cls = getattr(mod, cls_name)

    def run():
        # mazelib's generators return the (2h+1)x(2w+1) 0/1 grid directly
        return cls(size, size).generate()

    return run


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--big", type=int, default=1000)
    ap.add_argument("--small", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--mazelib-budget", type=float, default=20.0,
                    help="seconds per mazelib generator at most (after one call)")
    ap.add_argument("--no-mazelib", action="store_true")
    ap.add_argument("--only", default="", help="comma-separated generator names (default: all)")
    ap.add_argument("--out", type=Path,
                    default=Path(__file__).resolve().parent / "results" / "generate.json")
    args = ap.parse_args(argv)

    mazelib_version = None
    if not args.no_mazelib:
        try:
            import importlib
            from importlib.metadata import version

            mazelib_version = version("mazelib")
            # a Cython-built mazelib ships extension modules, a pure wheel .py
            probe = importlib.import_module("mazelib.generate.Prims")
            mazelib_compiled = not probe.__file__.endswith(".py")
        except ImportError:
            print("mazelib not installed: pip install mazelib==0.9.16 (comparison skipped)")

    for fn in GENERATORS.values():  # JIT warm-up (and numba cache load)
        fn(8, 8, rng=0)
        fn(256, 256, rng=0)  # kruskal and mst take other kernels above 40,000 cells

    load_before = os.getloadavg()
    rows = []
    only = set(filter(None, args.only.split(",")))
    for name, fn in GENERATORS.items():
        if only and name not in only:
            continue
        rep_big = 3
        (t_big,), (big,) = _median_time([lambda: fn(args.big, args.big, rng=1)], rep_big)
        assert big[0].is_perfect()
        seeds = iter(range(10**6))
        fns = [lambda: fn(args.small, args.small, rng=next(seeds))]
        budgets = [float("inf")]
        cls_name = MAZELIB.get(name) if mazelib_version else None
        ml_error = None
        if cls_name:
            random.seed(1)
            np.random.seed(1)  # mazelib draws from the global generators
            fns.append(_mazelib_factory(cls_name, args.small))
            budgets.append(args.mazelib_budget)
        try:
            times, outs = _median_time(fns, max(args.repeat, 20), budgets)
        except Exception as exc:  # a peer's bug is a result, not a crash
            ml_error = f"{type(exc).__name__}: {exc}"
            times, outs = _median_time(fns[:1], max(args.repeat, 20))
        t_small, small = times[0], outs[0]
        de_ours = float(np.mean([m.dead_ends().mean() for m in small[:args.repeat]]))
        row = {"generator": name, "big": args.big, "t_big_s": t_big,
               "small": args.small, "t_small_s": t_small,
               "dead_ends_ours": de_ours, "dead_ends_big": float(big[0].dead_ends().mean())}
        if ml_error:
            row.update({"mazelib": cls_name, "mazelib_error": ml_error})
        elif cls_name:
            t_ml, grids = times[1], outs[1]
            mz = [Maze.from_matrix(g) for g in grids]
            row.update({"mazelib": cls_name, "t_mazelib_s": t_ml,
                        "mazelib_runs": len(grids), "ratio": t_ml / t_small,
                        "mazelib_perfect": all(m.is_perfect() for m in mz),
                        "dead_ends_mazelib": float(np.mean([m.dead_ends().mean()
                                                            for m in mz]))})
        rows.append(row)
        _print_row(row)
        sys.stdout.flush()

    meta = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "numpy": np.__version__,
        "mazelib": mazelib_version,
        "mazelib_cython_compiled": mazelib_compiled if mazelib_version else None,
        "load_average_before": load_before,
        "load_average_after": os.getloadavg(),
        "note": "medians of interleaved repetitions, wall times of the public call",
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"meta": meta, "results": rows}, indent=2))
    print(f"\nwrote {args.out}")
    return 0


_HEADER_DONE = False


def _print_row(r: dict) -> None:
    global _HEADER_DONE
    if not _HEADER_DONE:
        print(f"{'generator':14s} {'NxN':>5s} {'t(N) s':>8s} {'t(n) ms':>8s} "
              f"{'mazelib':>22s} {'ml ms':>9s} {'ratio':>7s} {'dead ends ours/ml':>18s}")
        _HEADER_DONE = True
    ml = r.get("mazelib")
    if ml and "t_mazelib_s" in r:
        ml_part = (f"{ml:>22s} {1e3 * r['t_mazelib_s']:9.1f} {r['ratio']:7.0f} "
                   f"{r['dead_ends_ours']:8.3f}/{r['dead_ends_mazelib']:.3f}")
    else:
        ml_part = (f"{(ml or '-'):>22s} {'error' if ml else '-':>9s} {'-':>7s} "
                   f"{r['dead_ends_ours']:8.3f}/  -  ")
        if ml:
            ml_part += f"  ({r['mazelib_error'][:60]})"
    print(f"{r['generator']:14s} {r['big']:5d} {r['t_big_s']:8.3f} "
          f"{1e3 * r['t_small_s']:8.2f} {ml_part}")


if __name__ == "__main__":
    raise SystemExit(main())
