"""CPU per engine search in two checkouts: the searches round 9 (r9-engine) changed.

Issue 40, round 9: line of sight became a run-time flag of the engine's one
``_expand`` specialisation (Theta*, weighted A*, the 4-connected fields share
it), and the unit Dijkstra's and the 4-connected A*'s loops moved to Python.
Per search: a 601x601 widened backtracker maze (corridor 1) corner to
corner, a 400x400 random grid (30% blocked), and 100 calls on a 21x21 maze
(the sweep's size). Each checkout runs in its own fresh process (one untimed
call of each search first, so compiling is not timed), best of 7 calls of
process CPU, checkouts interleaved ``--repeat`` times (the order alternating),
medians; results are checked equal between the checkouts; the load average
is recorded.

Usage::

    python benchmarks/bench_engine_searches.py --compare DIR [--checkout DIR]
        [--repeat 5] [--only theta,small]
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

_CHILD = r'''
import json, sys, time
import numpy as np
from robomaze import widen
from robomaze.generate import generate
from robomaze import _search as core
grid = widen(generate("backtracker", 300, 300, rng=1), corridor=1, wall=1)
free = grid.free
cells = np.flatnonzero(free.ravel()); s, t = int(cells[0]), int(cells[-1])
cost = 1.0 + (np.arange(free.size) % 7).reshape(free.shape) / 7.0
rnd = np.random.default_rng(3).random((400, 400)) >= 0.3
rc = np.flatnonzero(rnd.ravel()); rs, rt_ = int(rc[0]), int(rc[-1])
sm = widen(generate("backtracker", 5, 5, rng=1), corridor=3, wall=1, resolution=0.1).free
sc = np.flatnonzero(sm.ravel()); ss, st = int(sc[0]), int(sc[-1])
scost = 1.0 + (np.arange(sm.size) % 7).reshape(sm.shape) / 7.0
cases = {
  "weighted 601 maze": lambda: core.shortest_path(free, s, t, conn8=True, cost=cost, hmode=0)[1],
  "weighted A* 400 rand": lambda: core.shortest_path(rnd, rs, rt_, conn8=True, cost=cost[:400,:400], hmode=2)[1],
  "theta 601 maze": lambda: core.any_angle_path(free, s, t, conn8=True)[1],
  "theta 400 rand": lambda: core.any_angle_path(rnd, rs, rt_, conn8=True)[1],
  "field4 601 maze": lambda: float(core.distance_field(free, [s], conn8=False)[-2, -2]),
  "dijkstra8 601 maze": lambda: core.shortest_path(free, s, t, conn8=True, hmode=0)[1],
  "astar4 601 maze": lambda: core.shortest_path(free, s, t, conn8=False, hmode=1)[1],
  "astar4 400 rand": lambda: core.shortest_path(rnd, rs, rt_, conn8=False, hmode=1)[1],
  "100 small theta": lambda: [core.any_angle_path(sm, ss, st, conn8=True)[1] for _ in range(100)][-1],
  "100 small weighted": lambda: [core.shortest_path(sm, ss, st, conn8=True, cost=scost, hmode=2)[1] for _ in range(100)][-1],
  "100 small dijkstra": lambda: [core.shortest_path(sm, ss, st, conn8=True, hmode=0)[1] for _ in range(100)][-1],
  "100 small astar4": lambda: [core.shortest_path(sm, ss, st, conn8=False, hmode=1)[1] for _ in range(100)][-1],
}
only = sys.argv[2].split(",") if len(sys.argv) > 2 and sys.argv[2] else None
out = {}
for name, fn in cases.items():
    if only and not any(o in name for o in only):
        continue
    res = fn()
    best = 1e9
    for _ in range(int(sys.argv[1])):
        t0 = time.process_time(); fn(); best = min(best, time.process_time() - t0)
    out[name] = [best, res]
print(json.dumps(out))
'''


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--compare", required=True, help="the other checkout (e.g. main)")
    ap.add_argument("--checkout", default=str(ROOT))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--only", default="", help="comma-separated parts of case names")
    args = ap.parse_args(argv)
    a, b = str(Path(args.compare).resolve()), str(Path(args.checkout).resolve())
    runs: dict = {a: [], b: []}
    loads = [os.getloadavg()[0]]
    for r in range(args.repeat):
        for d in (a, b) if r % 2 == 0 else (b, a):
            p = subprocess.run([sys.executable, "-c", _CHILD, "7", args.only], cwd="/",
                               env=dict(os.environ, PYTHONPATH=d), capture_output=True,
                               text=True, check=True)
            runs[d].append(json.loads(p.stdout.strip().splitlines()[-1]))
            loads.append(os.getloadavg()[0])
    print(f"load {min(loads):.1f}-{max(loads):.1f}; ms of CPU, medians of {args.repeat} "
          "processes (best of 7 calls inside); this / compare")
    for name in runs[a][0]:
        ma = statistics.median(x[name][0] for x in runs[a]) * 1e3
        mb = statistics.median(x[name][0] for x in runs[b]) * 1e3
        same = all(x[name][1] == runs[a][0][name][1] for x in runs[a] + runs[b])
        print(f"{name:22s} compare {ma:8.3f}  this {mb:8.3f}  {mb / ma:.3f}  "
              f"{'results equal' if same else 'RESULTS DIFFER'}  "
              f"this runs {[round(x[name][0] * 1e3, 2) for x in runs[b]]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
