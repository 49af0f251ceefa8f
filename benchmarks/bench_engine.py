"""Runtime of the engine's GRID searches in two checkouts (issue 22: a compile cut must not cost runtime).

The searches that run :func:`robomaze._search.best_first` with the GRID
rule: a distance field (no parents, what the agents and the heading
heuristic use), a weighted 8-connected Dijkstra (per-cell costs, as
``max_clearance``), theta* (line of sight) and the landmark A* of the
MovingAI batch on a grid with loops (100 random pairs); also the
heading-bin search (``collision_free`` for ``rect:0.3x0.2``, 16 bins, on a
505x505 widened backtracker maze) and 200 small calls of it and of the
distance field (a 33x33 grid: the Python side of a call). One 2001x2001
grid (a ``--size`` 1000 backtracker maze, seed 1, corridor 1, wall 1;
for the batch the same maze with 2% of its walls knocked through, seed 2,
so it is not a forest); the single searches go corner to corner.

Each checkout runs in its own fresh process (after one untimed call of
each search, so compiling is not timed), ``--repeat`` times, the two
checkouts interleaved; per search the median of the processes' CPU
seconds (process clock, best of ``--inner`` calls inside a process) and
the ratio this checkout / ``--compare``. Results (lengths, expansions) are
checked equal between the checkouts. The load average is recorded.

Usage::

    python benchmarks/bench_engine.py --compare DIR [--repeat 5] [--inner 3] [--size 1000]
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
import json, sys, time
import numpy as np
from robomaze import widen
from robomaze.generate import generate
from robomaze import _search as core
inner, size = int(sys.argv[1]), int(sys.argv[2])
grid = widen(generate("backtracker", size, size, rng=1), corridor=1, wall=1)
free = grid.free
rows, cols = free.shape
cells = np.flatnonzero(free.ravel())
s, t = int(cells[0]), int(cells[-1])
cost = 1.0 + (np.arange(free.size) % 7).reshape(free.shape) / 7.0
loops = free.copy()
rng = np.random.default_rng(2)
walls = np.argwhere(~loops[1:-1, 1:-1]) + 1
pick = walls[rng.random(len(walls)) < 0.02]
loops[pick[:, 0], pick[:, 1]] = True
lc = np.flatnonzero(loops.ravel())
pairs = rng.integers(0, lc.size, (100, 2))
cases = {
    "distance_field": lambda: float(np.nansum(np.where(np.isfinite(
        d := core.distance_field(free, [s])), d, 0.0))),
    "weighted dijkstra": lambda: [int(v) for v in core.shortest_path(
        free, s, t, conn8=True, cost=cost, hmode=0)[0][-3:]] + [core.shortest_path(
        free, s, t, conn8=True, cost=cost, hmode=0)[1]],
    "theta_star": lambda: [int(v) for v in core.any_angle_path(free, s, t, conn8=True)[0]]
        + [core.any_angle_path(free, s, t, conn8=True)[1]],
    "landmark batch": lambda: float(np.nansum(core.path_lengths(
        loops, lc[pairs[:, 0]], lc[pairs[:, 1]]))),
}
# the heading-bin search (collision_free rect:0.3x0.2, 16 bins) on a 505x505
# grid, and many small calls (what the Python loops around the kernels cost)
from robomaze.geometry import Footprint
from robomaze.plan import plan
fgrid = widen(generate("backtracker", 63, 63, rng=1), corridor=7, wall=1, resolution=0.1)
fs, fg = fgrid.start_goal()
small = widen(generate("backtracker", 4, 4, rng=1), corridor=7, wall=1, resolution=0.1)
ss, sg = small.start_goal()
sfree = small.free
rect = Footprint.from_spec("rect:0.3x0.2")
def _rect(grid, a, b):
    q = plan(grid, a, b, method="collision_free", footprint=rect)
    return [q.length, q.expanded]
cases.update({
    "collision_free 505": lambda: _rect(fgrid, fs, fg),
    "200 small rect": lambda: [_rect(small, ss, sg) for _ in range(200)][-1],
    "200 small fields": lambda: [float(core.distance_field(sfree, [0]).max())
                                 for _ in range(200)][-1],
})
out = {}
for name, fn in cases.items():
    res = fn()
    best = float("inf")
    for _ in range(inner):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    out[name] = {"cpu": best, "result": res}
print(json.dumps(out))
"""


def _run(checkout: Path, inner: int, size: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    proc = subprocess.run([sys.executable, "-c", _CHILD, str(inner), str(size)], env=env, check=True,
                          capture_output=True, text=True, cwd="/")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--compare", required=True, help="the other checkout (e.g. main)")
    ap.add_argument("--checkout", default=str(ROOT))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--inner", type=int, default=3)
    ap.add_argument("--size", type=int, default=1000, help="maze cells a side (grid 2 size + 1)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "engine.json"))
    args = ap.parse_args()
    sides = {"compare": Path(args.compare).resolve(), "this": Path(args.checkout).resolve()}
    runs: dict = {k: [] for k in sides}
    loads = [os.getloadavg()[0]]
    for _ in range(args.repeat):
        for k, path in sides.items():
            runs[k].append(_run(path, args.inner, args.size))
            loads.append(os.getloadavg()[0])
    report = {"load": [min(loads), max(loads)], "cases": {}}
    print(f"load {min(loads):.1f}-{max(loads):.1f}; CPU s, median of {args.repeat} processes")
    for name in runs["this"][0]:
        a = statistics.median(r[name]["cpu"] for r in runs["compare"])
        b = statistics.median(r[name]["cpu"] for r in runs["this"])
        same = all(r[name]["result"] == runs["compare"][0][name]["result"]
                   for k in runs for r in runs[k])
        report["cases"][name] = {"compare": a, "this": b, "ratio": b / a, "same": same}
        print(f"{name:18s} compare {a:7.4f}  this {b:7.4f}  this/compare {b / a:5.3f}  "
              f"results {'equal' if same else 'DIFFER'}")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
