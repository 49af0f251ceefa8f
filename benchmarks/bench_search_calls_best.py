"""Best-of-many run time of the sweep's small ``_search`` calls, in two checkouts (issue 40, round 11).

On the widened 5x5 mazes of corridor 1 and 9 (the default sweep's grids):
Theta*, 4-connected A*, unit Dijkstra, octile A*, ``bfs_path``, the
octile distance field and ``plan(..., "collision_free")`` for a rectangle.
Each checkout runs in its own fresh process (one untimed call of each
first, so compiling is not timed), ``--reps`` processes per checkout,
interleaved with the order alternating; per process the best of 200 calls
(15 for ``collision_free``) of process CPU, then medians over processes.
The best of many calls is what a loaded machine leaves comparable, where
medians of batches moved 20-30% between runs. The load average before
each process is printed.

Usage::

    python benchmarks/bench_search_calls_best.py --compare DIR [--checkout DIR] [--reps 6]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r'''
import json, sys, time
import numpy as np
from robomaze import widen
from robomaze.generate import generate
from robomaze.geometry import Footprint
from robomaze.plan import plan
from robomaze import _search as core
out = {}
def best(fn, n):
    fn()
    b = 1e9
    for _ in range(n):
        t0 = time.process_time(); fn(); b = min(b, time.process_time() - t0)
    return b
for k in (1, 9):
    g = widen(generate("backtracker", 5, 5, rng=1), corridor=k, wall=1, resolution=0.1)
    s, t = g.start_goal()
    free = g.free
    fl = np.flatnonzero(free.ravel()); a, b = int(fl[0]), int(fl[-1])
    m = free.view(np.uint8).ravel()
    rows, cols = free.shape
    rect = Footprint.rectangle(0.1, 0.06) if k > 1 else None
    cases = {
        f"theta c{k}": (lambda: core.any_angle_path(free, a, b, conn8=True), 200),
        f"astar4 c{k}": (lambda: core.shortest_path(free, a, b, conn8=False, hmode=1), 200),
        f"dijkstra c{k}": (lambda: core.shortest_path(free, a, b, conn8=True, hmode=0), 200),
        f"octile A* c{k}": (lambda: core.shortest_path(free, a, b, conn8=True, hmode=2), 200),
        f"bfs_path c{k}": (lambda: core.bfs_path(m, rows, cols, a, b), 200),
        f"field8 c{k}": (lambda: core.distance_field(free, [a]), 200),
    }
    if rect is not None:
        cases[f"collision_free rect c{k}"] = (lambda: plan(g, s, t, method="collision_free", footprint=rect), 15)
    for name, (fn, n) in cases.items():
        out[name] = best(fn, n)
print(json.dumps(out))
'''


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--compare", required=True, help="the other checkout (e.g. main)")
    ap.add_argument("--checkout", default=str(ROOT))
    ap.add_argument("--reps", type=int, default=6)
    a = ap.parse_args(argv)
    dirs = {"compare": a.compare, "checkout": a.checkout}
    res = {"compare": [], "checkout": []}
    loads = []
    for i in range(a.reps):
        for who in (("compare", "checkout") if i % 2 == 0 else ("checkout", "compare")):
            loads.append(open("/proc/loadavg").read().split()[0])
            # cwd = the tree: ``python -c`` puts the working directory first on sys.path
            r = subprocess.run([sys.executable, "-c", CHILD], cwd=dirs[who],
                               env=dict(os.environ, PYTHONPATH=dirs[who]), capture_output=True,
                               text=True)
            if r.returncode:
                raise SystemExit(r.stderr[-2000:])
            res[who].append(json.loads(r.stdout.strip().splitlines()[-1]))
    print("loads", " ".join(loads))
    for k in res["compare"][0]:
        b = statistics.median(x[k] for x in res["compare"])
        m = statistics.median(x[k] for x in res["checkout"])
        print(f"{k:28s} compare {1e6 * b:9.1f} us  checkout {1e6 * m:9.1f} us  ratio {m / b:.3f}"
              f"   fastest {1e6 * min(x[k] for x in res['compare']):.1f} / "
              f"{1e6 * min(x[k] for x in res['checkout']):.1f} us")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
