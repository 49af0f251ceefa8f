"""Cold compile CPU of the default sweep's geometry, grid, metrics and plan kernels.

Each run is a fresh process with an empty ``NUMBA_CACHE_DIR`` and no
shipped kernels, which calls the kernels directly, with the argument types
the default sweep's warm-up gives them (``bench_compile_events.py
--specialisations``), in the warm-up's order: the grid's clearance
(``common``), a path's key-pose figures (``figures``: ``_centre_points``,
``cell_clearance``, ``shapes_clearance``, ``poses_touch``), the
footprint dilation of ``plan:collision_free`` (``dilate_bits``), the disc
clearance of ``metrics`` (``points_clearance``), a disc's collision test
of ``simulate`` (``disc_motion_hits``) and the wavefront's backtrace
(``descend``). A ``numba:compile`` listener sums the thread CPU of the
outermost compile events (the kernel, its ``@inner`` helpers and numba's
overloads it compiles first) per kernel call, and their total.

Checkouts are interleaved run by run; the report gives medians and the
load at each run::

    python benchmarks/bench_compile_geom.py --checkout AFTER --compare BEFORE --repeat 3
        [--only shapes_clearance,poses_touch]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_CHILD = r"""
import json, sys, time
import numpy as np
from numba.core import event as ev
only = set(sys.argv[1].split(",")) if sys.argv[1] else None
depth = [0]
acc = {"cpu": 0.0}

class L(ev.Listener):
    def on_start(self, event):
        if depth[0] == 0:
            acc["t"] = time.thread_time()
        depth[0] += 1
    def on_end(self, event):
        depth[0] -= 1
        if depth[0] == 0:
            acc["cpu"] += time.thread_time() - acc["t"]

ev.register("numba:compile", L())

import robomaze  # noqa: F401  (numba's pipeline trims, as in the warm-up)
from robomaze import _grid_kernels as G
from robomaze.geometry import _kernels as K, _collide_kernels as C
from robomaze.metrics import keyposes as KP
from robomaze.plan import _kernels as P

rng = np.random.default_rng(1)
occ_w = np.ascontiguousarray(rng.random((13, 17)) < 0.3)
occ = occ_w.copy()
occ.setflags(write=False)
rows, cols = occ.shape

def ro(a):
    a = np.ascontiguousarray(a)
    a.setflags(write=False)
    return a

scratch_row = ((np.zeros(6, np.uint64),)
               if K.dilate_bits.py_func.__code__.co_argcount == 8 else ())
# before round 11 these two kernels made their outputs
centre_out = ((np.empty((2, 2)), np.empty(1))
              if KP._centre_points.py_func.__code__.co_argcount == 8 else ())
cell_out = (np.empty(2),) if K.cell_clearance.py_func.__code__.co_argcount == 4 else ()
# round 12: shapes_clearance and descend write the caller's array
shapes_out = (np.empty(3),) if K.shapes_clearance.py_func.__code__.co_argcount == 6 else ()
descend_out = ((np.empty(6, np.int64),)
               if P.descend.py_func.__code__.co_argcount == 7 else ())
touch_scratch = ((np.empty(4), np.empty(4))
                 if K.poses_touch.py_func.__code__.co_argcount == 11 else ())
calls = [
    ("square_clearance", lambda: G.square_clearance(occ_w, np.empty(occ.shape, np.int64),
                                                    np.empty(occ.shape))),
    ("_centre_points", lambda: KP._centre_points(ro(np.array([[1, 2], [2, 2]], np.int64)),
                                                 rows, cols, 0.5, 0.0, 0.0, *centre_out)),
    ("cell_clearance", lambda: K.cell_clearance(occ, np.array([1, 2], np.int64),
                                                np.array([3, 4], np.int64), *cell_out)),
    ("shapes_clearance", lambda: K.shapes_clearance(occ, rng.random((3, 4)) * 10,
                                                    rng.random((3, 4)) * 10, True, 0.0,
                                                    *shapes_out)),
    ("poses_touch", lambda: K.poses_touch(occ, np.array([0.2, -0.2, -0.2, 0.2]),
                                          np.array([0.1, 0.1, -0.1, -0.1]),
                                          np.array([[3.0, 3.0, 0.5]]), 0.5, 0.0, 0.0, 0.0,
                                          1e-9, *touch_scratch)),
    # before round 11 the kernel took a scratch row too
    ("dilate_bits", lambda: K.dilate_bits(np.zeros((19, 4), np.uint64), 3, rows, cols,
                                          np.array([[1, 0, 0], [0, -1, 1]], np.int64),
                                          np.zeros((rows, 1), np.uint64),
                                          np.zeros((19, 6), np.uint64),
                                          *scratch_row)),
    ("points_clearance", lambda: K.points_clearance(occ, np.array([3.5]), np.array([2.5]), 0.3,
                                                    np.empty(1))),
    ("disc_motion_hits", lambda: C.disc_motion_hits(
        ro(occ.astype(np.uint8).ravel()), ro(np.ones(rows * cols)), rows, cols,
        *([0.5] * 5), 1.0, 1.0, 0.0, 2.0, 2.0, 0.0, 0.3, 0.3, 0.3, 0.1)),
    ("descend", lambda: P.descend(np.ones(rows * cols, np.uint8),
                                  np.arange(rows * cols, dtype=np.int32), rows, cols, 5, True,
                                  *descend_out)),
]
out = {}
for name, fn in calls:
    if only and name not in only:
        continue
    before = acc["cpu"]
    fn()
    out[name] = acc["cpu"] - before
out["total"] = acc["cpu"]
print(json.dumps(out))
"""


def run_once(checkout: str, only: str) -> dict:
    folder = tempfile.mkdtemp(prefix="rm-geomc-")
    env = dict(os.environ, PYTHONPATH=checkout, NUMBA_CACHE_DIR=folder,
               ROBOMAZE_SHIPPED_KERNELS="0")
    try:
        res = subprocess.run([sys.executable, "-c", _CHILD, only], env=env, cwd=folder,
                             capture_output=True, text=True, check=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return json.loads(res.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--checkout", default=str(ROOT))
    ap.add_argument("--compare", help="a second checkout, run interleaved")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", default="", help="comma-separated kernel names")
    args = ap.parse_args(argv)
    sides = [("after", args.checkout)] + ([("before", args.compare)] if args.compare else [])
    runs: dict = {name: [] for name, _ in sides}
    for i in range(args.repeat):
        for name, path in sides:
            load = os.getloadavg()[0]
            r = run_once(path, args.only)
            r["load"] = load
            runs[name].append(r)
            print(f"run {i + 1} {name}: total {r['total']:.2f} s (load {load:.1f})", flush=True)
    keys = [k for k in runs[sides[0][0]][0] if k not in ("load",)]
    print(f"\nmedians of {args.repeat} (compile CPU, s):")
    print(f"{'kernel':20s}" + "".join(f"{name:>10s}" for name, _ in sides))
    for k in keys:
        print(f"{k:20s}" + "".join(f"{statistics.median(r[k] for r in runs[n]):10.3f}"
                                   for n, _ in sides))
    return 0


if __name__ == "__main__":
    sys.exit(main())
