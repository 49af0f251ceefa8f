"""Run time of the small calls a default sweep makes, in two checkouts (a compile cut must not cost run time).

The default sweep plans on widened 5x5 mazes (corridor 1 to 9: 11x11 to
51x51 grids). For the calls whose code issue 40's round 8 changed to
compile less -- Theta* (``any_angle_path``) and the weighted octile A*
(``shortest_path`` with costs, as ``max_clearance``), which push their start
from Python now, and ``bfs_path`` (the classic solvers' route), and the
public ``dead_end_filling`` planner that calls it; round 9's unit Dijkstra
and 4-connected A* (their loops in Python now) and ``collision_free`` for a
rectangle (the heading search's unpacking) -- each checkout runs in
its own fresh process, after one untimed call of each (so compiling is not
timed): per call the best over ``--inner`` batches of 0.1 s of CPU of the
microseconds per call (process clock), checkouts interleaved ``--repeat``
times, medians. Results are checked equal between the checkouts. The load
average is recorded.

Usage::

    python benchmarks/bench_sweep_calls.py --compare DIR [--repeat 3] [--inner 5]
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
from robomaze.geometry import Footprint
from robomaze.plan import plan
inner = int(sys.argv[1])
out, digest = {}, hashlib.sha256()
for cor in (1, 5, 9):
    grid = widen(generate("backtracker", 5, 5, rng=1), corridor=cor, wall=1, resolution=0.1)
    free = grid.free
    rows, cols = free.shape
    flat = free.ravel().astype(np.uint8)
    cells = np.flatnonzero(flat)
    s, g = int(cells[0]), int(cells[-1])
    cost = 1.0 + (np.arange(free.size) % 7).reshape(free.shape) / 7.0
    ends = grid.start_goal()
    fp = Footprint.disc(0.04)
    rect = Footprint.rectangle(0.06, 0.04)      # fits corridor 1 at 0.1 m cells
    cases = {
        "theta_star (any_angle_path)": lambda: core.any_angle_path(free, s, g, conn8=True)[0],
        "weighted A* (shortest_path, costs)": lambda: core.shortest_path(
            free, s, g, conn8=True, cost=cost, hmode=2)[0],
        "bfs_path": lambda: core.bfs_path(flat, rows, cols, s, g),
        "plan dead_end_filling": lambda: plan(grid, *ends, method="dead_end_filling",
                                              footprint=fp).cells,
        # round 9 (r9-engine): the unit Dijkstra's and the 4-connected A*'s loops
        # moved to Python, the heading search's unpacking
        "unit dijkstra (shortest_path)": lambda: core.shortest_path(
            free, s, g, conn8=True, hmode=0)[0],
        "4-conn. A* (shortest_path)": lambda: core.shortest_path(
            free, s, g, conn8=False, hmode=1)[0],
        "plan collision_free rect": lambda: plan(grid, *ends, method="collision_free",
                                                 footprint=rect).cells,
    }
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


def _load() -> float:
    return os.getloadavg()[0]


def _run(root: Path, inner: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(root))
    proc = subprocess.run([sys.executable, "-c", _CHILD, str(inner)], env=env, check=True,
                          capture_output=True, text=True, cwd=str(root))
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--compare", required=True, help="the other checkout (e.g. main)")
    ap.add_argument("--checkout", default=str(ROOT))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--inner", type=int, default=5)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "sweep_calls.json"))
    args = ap.parse_args(argv)
    roots = {"compare": Path(args.compare).resolve(), "this": Path(args.checkout).resolve()}
    runs: dict = {k: [] for k in roots}
    loads = [_load()]
    digests = set()
    for _ in range(args.repeat):
        for tag, root in roots.items():
            got = _run(root, args.inner)
            runs[tag].append(got["us"])
            digests.add(got["digest"])
            loads.append(_load())
    if len(digests) != 1:
        raise SystemExit("the checkouts' results differ")
    rows = []
    print(f"{'call':50s} {'compare us':>11s} {'this us':>9s} {'this/compare':>12s}")
    for name in runs["this"][0]:
        a = statistics.median(r[name] for r in runs["compare"])
        b = statistics.median(r[name] for r in runs["this"])
        rows.append({"call": name, "compare_us": a, "this_us": b, "ratio": b / a})
        print(f"{name:50s} {a:11.1f} {b:9.1f} {b / a:12.3f}")
    print(f"load {min(loads):.1f}-{max(loads):.1f}; results equal")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({"rows": rows, "runs": runs, "load": loads}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
