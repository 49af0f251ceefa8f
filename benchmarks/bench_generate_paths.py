"""A generator's two paths side by side: where should the small path stop?

``robomaze.generate.trees.prim`` builds grids of at most
``PRIM_SMALL_CELLS`` cells with :mod:`robomaze.generate._prim_small` (one
kernel, a plain binary heap: cheap to compile) and larger ones with the
bucketed, prefetching kernel of :mod:`robomaze.generate._prim_kernels`.
Both return the same walls (checked here on every size timed). For each
side this times both paths on the same seeds, interleaved (small path,
large path, small, ...), in process CPU time, and prints the median ns per
cell of each and their ratio; the load average is recorded.
``--generator wilson`` times :mod:`robomaze.generate._wilson_small`
against the jumping kernel of :mod:`robomaze.generate._walk_kernels` on
grids too narrow for it to jump (``SMALL_SIDE``), where both take the same
steps; ``--generator aldous_broder`` likewise for
:mod:`robomaze.generate._aldous_broder_small`.
``benchmarks/bench_kruskal_paths.py`` does the same for kruskal.

Usage::

    python benchmarks/bench_generate_paths.py [--generator prim] [--sides 32,64,100]
        [--repeat 5] [--cells 2000000]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

import numpy as np

from robomaze.generate import (_aldous_broder_small, _prim_kernels, _prim_small, _walk_kernels,
                               _wilson_small, trees)

#: generator -> (threshold name in ``trees``, small path, large path); each
#: path is ``f(rows, cols, seed) -> (east, south)``.
PATHS = {
    "prim": ("PRIM_SMALL_CELLS", _prim_small.prim, lambda r, c, s: _prim_kernels.prim(r, c, s)),
    # below 96 cells either way the large kernel never jumps (SMALL_SIDE); at
    # larger sides its jumps make the two differ, and the check below fails
    "wilson": ("SMALL_SIDE", lambda r, c, s: _wilson_small.wilson(r, c, s)[:2],
               lambda r, c, s: _walk_kernels.wilson(r, c, s)[:2]),
    # likewise below 48 cells either way for Aldous-Broder
    "aldous_broder": ("SMALL_SIDE",
                      lambda r, c, s: _aldous_broder_small.aldous_broder(r, c, s)[:2],
                      lambda r, c, s: _walk_kernels.aldous_broder(r, c, s)[:2]),
}
THRESHOLDS = {"prim": trees, "wilson": _wilson_small, "aldous_broder": _aldous_broder_small}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--generator", default="prim", choices=sorted(PATHS))
    ap.add_argument("--sides", default=None,
                    help="square sides (default: 32,...,512 for prim, 16,...,95 for wilson)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--cells", type=int, default=2_000_000, help="cells per timed batch")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    limit, small, large = PATHS[args.generator]
    paths = {"small": small, "large": large}
    for fn in paths.values():  # compile or load both
        fn(8, 8, 1)
    load = os.getloadavg()
    rows = []
    value = getattr(THRESHOLDS[args.generator], limit)
    print(f"{args.generator}: threshold {limit} = {value}; load {load[0]:.2f}")
    print(f"{'side':>5s} {'cells':>8s} {'small ns/cell':>14s} {'large ns/cell':>14s} "
          f"{'small/large':>11s}")
    sides = args.sides or {"prim": "32,64,100,128,181,200,250,362,512",
                           "wilson": "16,32,48,64,80,95",
                           "aldous_broder": "8,16,24,32,40,47"}[args.generator]
    for side in [int(x) for x in sides.split(",")]:
        n = side * side
        inner = max(1, args.cells // n)
        a, b = small(side, side, 7), large(side, side, 7)
        assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
        times: dict = {k: [] for k in paths}
        for rep in range(args.repeat):
            for name, fn in paths.items():
                t = time.process_time()
                for i in range(inner):
                    fn(side, side, 1000 * rep + i)
                times[name].append((time.process_time() - t) / inner / n * 1e9)
        med = {k: statistics.median(v) for k, v in times.items()}
        rows.append({"side": side, "cells": n, **{f"{k}_ns_per_cell": v for k, v in med.items()}})
        print(f"{side:5d} {n:8d} {med['small']:14.1f} {med['large']:14.1f} "
              f"{med['small'] / med['large']:11.2f}")
    after = os.getloadavg()
    print(f"load average before {load[0]:.2f}, after {after[0]:.2f}")
    out = args.out or (Path(__file__).resolve().parent / "results"
                       / f"{args.generator}_paths.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"generator": args.generator, "rows": rows,
                               "load": [load[0], after[0]],
                               limit: value}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
