"""Wavefront field and 8-connected A* (JPS) at 4001x4001, for a compile change that must not cost run time.

Two grids: a backtracker maze widened to corridor 3 (seed 1, start and goal
its own) and a random 30% grid (seed 1, goal the centre, start the reached
cell farthest from it). After one untimed call each, 5 calls of
``wavefront_field`` and of ``astar(..., connectivity=8)``; prints one JSON
line: medians of process CPU seconds, a SHA-1 prefix of the field and the
path's length and cells (to check two checkouts give the same), the load.

Run it in each checkout's environment, interleaved::

    for i in 1 2 3; do for d in BEFORE AFTER; do
        PYTHONPATH=$d python benchmarks/bench_runtime_4001.py; done; done
"""

from __future__ import annotations

import hashlib
import json
import os
import time

import numpy as np

from robomaze import OccupancyGrid, widen
from robomaze.generate import generate
from robomaze.plan.search import astar
from robomaze.plan.wavefront import wavefront_field


def _cpu(fn):
    c = time.process_time()
    r = fn()
    return time.process_time() - c, r


def _grid(kind: str, n: int):
    if kind == "maze-c3":
        g = widen(generate("backtracker", (n - 1) // 4, (n - 1) // 4, rng=1, braid=0.0),
                  corridor=3, wall=1)
        return (g, *g.start_goal())
    occ = np.random.default_rng(1).random((n, n)) < 0.3
    occ[n // 2, n // 2] = False
    g = OccupancyGrid(occ)
    goal = (n // 2, n // 2)
    f0 = np.asarray(wavefront_field(g, goal))
    start = tuple(int(v) for v in np.unravel_index(int(np.argmax(f0)), f0.shape))
    return g, start, goal


def main(n: int = 4001, calls: int = 5) -> dict:
    out: dict = {}
    for kind in ("maze-c3", "random30"):
        g, s, goal = _grid(kind, n)
        wavefront_field(g, goal)
        astar(g, s, goal, connectivity=8)
        tw, tj = [], []
        for _ in range(calls):
            t, f = _cpu(lambda: wavefront_field(g, goal))
            tw.append(t)
            t, p = _cpu(lambda: astar(g, s, goal, connectivity=8))
            tj.append(t)
        out[kind] = {"wavefront_s": float(np.median(tw)), "jps_s": float(np.median(tj)),
                     "field_sha": hashlib.sha1(np.ascontiguousarray(f).tobytes()).hexdigest()[:12],
                     "path": [float(p.length), len(p.cells)]}
    out["load"] = os.getloadavg()[0]
    return out


if __name__ == "__main__":
    print(json.dumps(main()))
