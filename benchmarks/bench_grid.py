"""Widening and clearance-field timings (robomaze.grid).

Prints a table and writes ``benchmarks/results/grid.json``. ``widen`` of a
1000x1000 maze at corridor 3 must stay under 0.5 s; the exact clearance field
(distance from each cell centre to the nearest occupied *square*) is shown
side by side with scipy's ``distance_transform_edt`` (distance between cell
centres), the peer a user would reach for.

Run: ``python benchmarks/bench_grid.py``
"""

from __future__ import annotations

import json
import platform
import time
from pathlib import Path

import numpy as np
from scipy import ndimage

import robomaze
from robomaze.generate import generate
from robomaze.grid import clearance_field, widen


def best_of(fn, repeat=3):
    best = np.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    maze = generate("backtracker", 1000, 1000, rng=1)
    rows = []
    for k, t in [(1, 1), (3, 1), (5, 2)]:
        sec = best_of(lambda: widen(maze, corridor=k, wall=t))
        g = widen(maze, corridor=k, wall=t)
        rows.append({"what": f"widen 1000x1000 k={k} t={t}", "grid": list(g.shape),
                     "robomaze_s": sec})
    clearance_field(np.ones((3, 3), bool))  # JIT warm-up
    for k in (1, 3):
        occ = widen(maze, corridor=k, wall=1).occupied
        ours = best_of(lambda: clearance_field(occ), 2)
        peer = best_of(lambda: ndimage.distance_transform_edt(
            np.pad(~occ, 1, constant_values=False)), 2)
        rows.append({"what": f"clearance field {occ.shape[0]}x{occ.shape[1]}",
                     "grid": list(occ.shape), "robomaze_s": ours,
                     "scipy_edt_s": peer, "ratio_scipy_over_ours": peer / ours})
    print(f"{'what':38s} {'robomaze (s)':>13s} {'scipy edt (s)':>14s} {'ratio':>7s}")
    for r in rows:
        peer = r.get("scipy_edt_s")
        tail = "" if peer is None else f"{peer:14.3f} {r['ratio_scipy_over_ours']:7.2f}"
        print(f"{r['what']:38s} {r['robomaze_s']:13.3f} {tail}")
    out = Path(__file__).resolve().parent / "results" / "grid.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps({"robomaze": robomaze.__version__, "numpy": np.__version__,
                               "python": platform.python_version(), "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
