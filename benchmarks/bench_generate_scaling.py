"""Is every generator linear? ns per cell at a small and a large size.

For each generator in ``robomaze.generate.GENERATORS`` this times a
``SMALL x SMALL`` maze (default 250x250) and a ``LARGE x LARGE`` one
(default 4000x4000) and reports the time per cell at both and their ratio
(large / small). A linear generator has a ratio near 1; the target is
<= 1.5 for every generator.

Repetitions are interleaved (small, large, small, large, ...) so both sizes
see the same machine load, and the median of each is reported; the small
maze is repeated ``(LARGE/SMALL)**2 // 16`` times per repetition so both
timings are long enough to read. Prints a table and the load average, and
writes ``benchmarks/results/generate_scaling.json``.

Usage::

    python benchmarks/bench_generate_scaling.py [--small 250] [--large 4000]
        [--repeat 3] [--only hunt_and_kill,backtracker]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from pathlib import Path

from robomaze.generate import GENERATORS


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--small", type=int, default=250)
    ap.add_argument("--large", type=int, default=4000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", default="", help="comma-separated generator names")
    ap.add_argument("--out", type=Path,
                    default=Path(__file__).resolve().parent / "results" / "generate_scaling.json")
    args = ap.parse_args(argv)
    names = [n for n in GENERATORS if not args.only or n in args.only.split(",")]
    for n in names:  # JIT warm-up / cache load
        GENERATORS[n](8, 8, rng=0)
    inner = max(1, (args.large // args.small) ** 2 // 16)
    load = os.getloadavg()
    rows = []
    print(f"{'generator':16s} {'ns/cell small':>14s} {'ns/cell large':>14s} {'ratio':>6s}")
    for n in names:
        fn = GENERATORS[n]
        small, large = [], []
        for rep in range(args.repeat):
            t0 = time.perf_counter()
            for i in range(inner):
                fn(args.small, args.small, rng=rep * inner + i)
            small.append((time.perf_counter() - t0) / inner / args.small ** 2 * 1e9)
            t0 = time.perf_counter()
            fn(args.large, args.large, rng=rep)
            large.append((time.perf_counter() - t0) / args.large ** 2 * 1e9)
        s, l = statistics.median(small), statistics.median(large)
        rows.append({"generator": n, "ns_per_cell_small": s, "ns_per_cell_large": l,
                     "ratio": l / s})
        print(f"{n:16s} {s:14.1f} {l:14.1f} {l / s:6.2f}", flush=True)
    meta = {"python": platform.python_version(), "cpus": os.cpu_count(),
            "loadavg_before": load, "loadavg_after": os.getloadavg(),
            "small": args.small, "large": args.large, "repeat": args.repeat,
            "note": "median of interleaved repetitions, public call incl. building the Maze"}
    print(f"load average before {load[0]:.2f}, after {os.getloadavg()[0]:.2f}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"meta": meta, "results": rows}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
