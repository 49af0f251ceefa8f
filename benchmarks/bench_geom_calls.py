"""Run time of the calls behind the geometry, grid, metrics and plan kernels round 11 lightened.

Each checkout runs in a fresh process, after one untimed call of each (so
compiling is not timed); per call the best of ``--inner`` batches of about
0.05 s of process CPU, in microseconds per call; checkouts interleaved
``--repeat`` times (who goes first alternating), medians and the ratio
of the minima, and the results compared between the
checkouts (bytes of every output). The load average is recorded.

The calls (a widened backtracker maze, corridor 3, 41x41 cells of 0.25 m,
and a random 30% grid of 120x160 for the field and the dilation):
``footprint_clearance`` of a rectangle and of a disc (``shapes_clearance``,
``points_clearance``), ``segment_clearance``, ``footprint_touches`` of a
rectangle (``poses_touch``), ``cell_clearance``, ``centre_points``
(``_centre_points``), ``clearance_field`` (``square_clearance``), the
footprint dilation (``dilate_bits``), a disc collider's motion test
(``disc_motion_hits``) and the wavefront's backtrace (``descend``)::

    python benchmarks/bench_geom_calls.py --compare BEFORE [--checkout AFTER] [--repeat 3]
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
import hashlib, json, pickle, sys, time
import numpy as np
from robomaze import OccupancyGrid, widen
from robomaze.generate import generate
from robomaze.grid import clearance_field
from robomaze.geometry import (Footprint, footprint_clearance, footprint_touches,
                               segment_clearance, cell_clearance)
from robomaze.geometry.cspace import _Dilator
from robomaze.geometry.validity import Collider
from robomaze.metrics.keyposes import centre_points
from robomaze.plan import _kernels as PK
from robomaze._search import bfs_field

inner = int(sys.argv[1])
g = widen(generate("backtracker", 10, 10, rng=np.random.default_rng(1)), corridor=3, wall=1,
          resolution=0.25)
rng = np.random.default_rng(2)
free = np.argwhere(~g.occupied)
cells = free[rng.choice(free.shape[0], 200)]
pts = g.cells_to_world(cells) + rng.uniform(-0.1, 0.1, (200, 2))
poses = np.column_stack([pts, rng.uniform(-3, 3, 200)])
rect = Footprint.rectangle(0.5, 0.3)
disc = Footprint.disc(0.2)
big = OccupancyGrid(np.random.default_rng(3).random((120, 160)) < 0.3, resolution=0.1)
dil = _Dilator(big)
ker = np.zeros((9, 9), bool)
ker[1:8, 2:7] = True
ker[4, :] = True
col = Collider(g, disc)
f8 = np.ascontiguousarray(~g.occupied, dtype=np.uint8).ravel()
goal = int(cells[0, 0] * g.cols + cells[0, 1])
dist, _ = bfs_field(f8, g.rows, g.cols, goal, True)
dist = np.ascontiguousarray(dist).ravel()
path = np.array([[1 + i // 39, 1 + i % 39] for i in range(100)], np.int64)
mo = [(poses[i], poses[i + 1]) for i in range(0, 40, 2)]
start = int(cells[7, 0] * g.cols + cells[7, 1])


def _descend(f8, dist, rows, cols, start, conn8):
    # the backtrace as the planner calls it (round 12: into the caller's array)
    if PK.descend.py_func.__code__.co_argcount == 6:
        return PK.descend(f8, dist, rows, cols, start, conn8)
    out = np.empty(int(dist[start]) + 1, np.int64)
    PK.descend(f8, dist, rows, cols, start, conn8, out)
    return out


calls = {
    "clearance rect x200": lambda: footprint_clearance(g, rect, poses),
    "clearance disc x200": lambda: footprint_clearance(g, disc, poses),
    "segment_clearance x100": lambda: segment_clearance(g, 0.1, pts[:100], pts[100:]),
    "touches rect x200": lambda: footprint_touches(g, rect, poses),
    "cell_clearance x200": lambda: cell_clearance(g, None, cells),
    "centre_points x100": lambda: centre_points(g, path),
    "clearance_field 120x160": lambda: clearance_field(big.occupied),
    "dilation 120x160": lambda: dil(ker),
    "disc motions x20": lambda: [col.motion_collides(a, b) for a, b in mo],
    "descend 8-conn": lambda: _descend(f8, dist, g.rows, g.cols, start, True),
}
out = {}
for name, fn in calls.items():
    res = fn()
    digest = hashlib.sha256(pickle.dumps(res)).hexdigest()[:12]
    best = float("inf")
    for _ in range(inner):
        n = 0
        t0 = time.process_time()
        while True:
            fn()
            n += 1
            t = time.process_time() - t0
            if t > 0.05:
                break
        best = min(best, t / n)
    out[name] = [best * 1e6, digest]
print(json.dumps(out))
"""


def run_once(checkout: str, inner: int) -> dict:
    env = dict(os.environ, PYTHONPATH=checkout)
    # cwd = the checkout: ``python -c`` puts the working directory first on sys.path
    res = subprocess.run([sys.executable, "-c", _CHILD, str(inner)], env=env, cwd=checkout,
                         capture_output=True, text=True, check=True)
    return json.loads(res.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--compare", required=True, help="the other checkout (e.g. main)")
    ap.add_argument("--checkout", default=str(ROOT))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--inner", type=int, default=5)
    args = ap.parse_args(argv)
    sides = [("after", args.checkout), ("before", args.compare)]
    for _, path in sides:                      # compile and cache, untimed
        run_once(path, 1)
    runs: dict = {n: [] for n, _ in sides}
    loads = []
    for i in range(args.repeat):
        for name, path in (sides if i % 2 == 0 else sides[::-1]):   # alternate who goes first
            loads.append(os.getloadavg()[0])
            runs[name].append(run_once(path, args.inner))
    names = list(runs["after"][0])
    print(f"load {min(loads):.1f}-{max(loads):.1f}; medians of {args.repeat} interleaved "
          f"processes, best of {args.inner} batches (us per call)")
    print(f"{'call':26s}{'after':>10s}{'before':>10s}{'ratio':>8s}{'min ratio':>10s}  same")
    for k in names:
        a = statistics.median(r[k][0] for r in runs["after"])
        b = statistics.median(r[k][0] for r in runs["before"])
        lo = min(r[k][0] for r in runs["after"]) / min(r[k][0] for r in runs["before"])
        same = {r[k][1] for r in runs["after"] + runs["before"]}
        verdict = "yes" if len(same) == 1 else "NO"
        print(f"{k:26s}{a:10.1f}{b:10.1f}{a / b:8.3f}{lo:10.3f}  {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
