"""Run time of the classic solvers' calls in two checkouts (issue 40, round 9: their kernels reshaped to compile less).

Every classic solver through ``plan()`` (validation, walk, route and the
Path), ``bfs_path`` and ``bfs_field`` (``_labelled_field`` below 4096
cells), on widened 5x5 mazes of corridor 1, 5 and 9 (the default sweep's
11x11 to 51x51 grids, start and goal as the sweep takes them) and on a
widened 150x150 maze of corridor 3 (601x601). Each checkout runs in its
own fresh process (the random mouse on the small mazes only) after one untimed call of each (compiling is not timed):
per call the best over ``--inner`` batches of 0.1 s of process CPU,
checkouts interleaved ``--repeat`` times, medians of the bests, and the
ratio after / before. Results (cells of every route, the fields) are
checked equal between the checkouts. The load average is recorded.

Usage::

    python benchmarks/bench_classic_calls.py --compare DIR [--repeat 3] [--inner 3]
        [--large 150]        # --large 0: the sweep's sizes only
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_CHILD = r"""
import hashlib, json, sys, time
import numpy as np
from robomaze import widen
from robomaze import _search as core
from robomaze.generate import generate
from robomaze.plan import plan
inner, large = int(sys.argv[1]), int(sys.argv[2])
out, digest = {}, hashlib.sha256()
SOLVERS = ("wall_follower", "pledge", "tremaux", "dfs_backtracking", "random_mouse",
           "dead_end_filling")
SIZES = ((5, 1), (5, 5), (5, 9)) + (((large, 3),) if large else ())
for n, cor in SIZES:
    grid = widen(generate("backtracker", n, n, rng=1), corridor=cor, wall=1, resolution=0.1)
    free = grid.free
    rows, cols = free.shape
    flat = free.ravel().astype(np.uint8)
    ends = grid.start_goal()
    s, g = ends[0][0] * cols + ends[0][1], ends[1][0] * cols + ends[1][1]
    cases = {}
    for name in SOLVERS:
        if name == "random_mouse" and n > 5:
            continue    # a random walk over a 601x601 maze runs out of steps
        opts = {"rng": 1} if name in ("dfs_backtracking", "random_mouse") else {}
        cases[name] = lambda name=name, opts=opts: plan(grid, *ends, method=name, **opts).cells
    cases["bfs_path"] = lambda: core.bfs_path(flat, rows, cols, s, g)
    if rows * cols <= 4096:
        cases["bfs_field"] = lambda: core.bfs_field(flat, rows, cols, g, False)[0]
    for name, f in cases.items():
        digest.update(np.ascontiguousarray(f()).tobytes())
        best = float("inf")
        for _ in range(inner):
            t0 = time.process_time()
            k = 0
            while time.process_time() - t0 < 0.1:
                f()
                k += 1
            best = min(best, (time.process_time() - t0) / k)
        out[f"{name}, {rows}x{cols}"] = best * 1e6
print(json.dumps({"us": out, "digest": digest.hexdigest()}))
"""


def _run(root: Path, inner: int, large: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(root))
    proc = subprocess.run([sys.executable, "-c", _CHILD, str(inner), str(large)], env=env,
                          check=True, capture_output=True, text=True, cwd=str(root))
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--compare", required=True, help="the other checkout (e.g. main)")
    ap.add_argument("--checkout", default=str(ROOT))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--inner", type=int, default=3)
    ap.add_argument("--large", type=int, default=150)
    args = ap.parse_args(argv)
    roots = {"before": Path(args.compare), "after": Path(args.checkout)}
    runs: dict = {k: [] for k in roots}
    loads = []
    for _ in range(args.repeat):
        for key, root in roots.items():
            loads.append(os.getloadavg()[0])
            runs[key].append(_run(root, args.inner, args.large))
    digests = {r["digest"] for rs in runs.values() for r in rs}
    print(f"load {min(loads):.1f}-{max(loads):.1f}; results equal between checkouts: "
          f"{len(digests) == 1}")
    print(f"{'call':40s} {'before us':>11s} {'after us':>10s} {'after/before':>12s}")
    for name in runs["before"][0]["us"]:
        b = statistics.median(r["us"][name] for r in runs["before"])
        a = statistics.median(r["us"][name] for r in runs["after"])
        print(f"{name:40s} {b:11.1f} {a:10.1f} {a / b:12.3f}")
    return 0 if len(digests) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
