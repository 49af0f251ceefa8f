"""Kruskal's two paths side by side: where should the small path stop?

``robomaze.generate.trees.kruskal`` builds grids of at most ``SMALL_CELLS``
cells with :mod:`robomaze.generate._mst_small` (numpy keys and sort, one
small union-find kernel: cheap to compile) and larger ones with the tiled
reduction of :mod:`robomaze.generate._mst_kernels`. Both return the same
walls (the MST of distinct keys is unique; checked here on every maze
timed). For each side this times both paths on the same seeds, interleaved
(small path, tiled path, small, ...), in process CPU time, and prints the
median ns per cell of each and their ratio; the load average is recorded.

Usage::

    python benchmarks/bench_kruskal_paths.py [--sides 64,100,128,181,200,215,230,250,362,512]
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

from robomaze.generate import _mst_kernels, _mst_small, trees


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sides", default="64,100,128,181,200,215,230,250,362,512")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--cells", type=int, default=2_000_000, help="cells per timed batch")
    ap.add_argument("--out", type=Path,
                    default=Path(__file__).resolve().parent / "results" / "kruskal_paths.json")
    args = ap.parse_args(argv)
    paths = {"small": lambda r, c, s: _mst_small.kruskal(r, c, s),
             "tiled": lambda r, c, s: _mst_kernels.kruskal(r, c, s, trees.TILE)}
    for fn in paths.values():  # compile or load both
        fn(8, 8, 1)
    load = os.getloadavg()
    rows = []
    print(f"threshold SMALL_CELLS = {trees.SMALL_CELLS}; load {load[0]:.2f}")
    print(f"{'side':>5s} {'cells':>8s} {'small ns/cell':>14s} {'tiled ns/cell':>14s} "
          f"{'small/tiled':>11s}")
    for side in [int(x) for x in args.sides.split(",")]:
        n = side * side
        inner = max(1, args.cells // n)
        a, b = paths["small"](side, side, 7), paths["tiled"](side, side, 7)
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
        print(f"{side:5d} {n:8d} {med['small']:14.1f} {med['tiled']:14.1f} "
              f"{med['small'] / med['tiled']:11.2f}")
    after = os.getloadavg()
    print(f"load average before {load[0]:.2f}, after {after[0]:.2f}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"rows": rows, "load": [load[0], after[0]],
                                    "small_cells": trees.SMALL_CELLS}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
