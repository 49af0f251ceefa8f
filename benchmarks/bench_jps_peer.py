"""Issue 40: robomaze's 8-connected jump point search against a native block-based JPS.

warthog-jps cannot be fetched here (no network beyond package registries;
no PyPI wheel packages it), so the peer is ``benchmarks/jps_peer.c``: the
same graph and pruning (no corner cutting), its straight scans 64 cells at
a time from bit rows and a transposed copy (JPS-B, as warthog), built with
``gcc -O3 -march=native``. Its packing (``jps_prepare``) is preprocessing,
timed apart; a query is ``jps8``.

robomaze's contender is ``robomaze._search.jump_point_path(free, s, t)``
(the core call ``plan(..., "jps")`` makes; the padded mask is its own
preprocessing, cached per grid by the public planner, so here it is built
once with ``Padded`` and timed apart too).

Grids (``--size``, default 4001): backtracker mazes widened with corridor
1, 3 and 9 (wall 1) and uniform random obstacles at 10% and 30%. Queries:
``--queries`` start/goal pairs from the goal's component (numpy seed 40).
Every length must agree (1e-9 relative) before anything is timed; then the
whole query list is timed for each side, interleaved, process CPU time,
the median of ``--repeat``; ``os.getloadavg()`` on every row.

Usage::

    python benchmarks/bench_jps_peer.py [--size 4001] [--queries 20] [--repeat 3]
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from scipy.ndimage import label

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from bench_peers import _maze_grid  # noqa: E402
from robomaze._search import Padded, _padded, jump_point_path  # noqa: E402

KINDS = ("maze-c1", "maze-c3", "maze-c9", "random10", "random30")


def build(tmp: Path):
    so = tmp / "jps_peer.so"
    subprocess.run(["gcc", "-O3", "-march=native", "-shared", "-fPIC", "-o", str(so),
                    str(HERE / "jps_peer.c"), "-lm"], check=True)
    lib = ctypes.CDLL(str(so))
    L = ctypes.c_long
    lib.jps_prepare.argtypes = [np.ctypeslib.ndpointer(np.uint8, flags="C_CONTIGUOUS"), L, L]
    lib.jps_prepare.restype = ctypes.c_void_p
    lib.jps_free.argtypes = [ctypes.c_void_p]
    lib.jps8.argtypes = [ctypes.c_void_p, L, L,
                         np.ctypeslib.ndpointer(np.float64, flags="C_CONTIGUOUS"),
                         np.ctypeslib.ndpointer(np.int64, flags="C_CONTIGUOUS"),
                         np.ctypeslib.ndpointer(np.uint8, flags="C_CONTIGUOUS"),
                         ctypes.POINTER(L)]
    lib.jps8.restype = ctypes.c_double
    return lib


def grid(kind: str, n: int) -> np.ndarray:
    if kind.startswith("maze"):
        return _maze_grid(n, int(kind[6:]), 0.0).occupied
    return np.random.default_rng(1).random((n, n)) < int(kind[6:]) / 100


def pairs(occ: np.ndarray, k: int):
    lab, _ = label(~occ)                     # 4-connected parts: reachable without corners
    big = np.argmax(np.bincount(lab.ravel())[1:]) + 1
    cells = np.flatnonzero(lab.ravel() == big)
    rng = np.random.default_rng(40)
    return rng.choice(cells, k), rng.choice(cells, k)


def length(cells: np.ndarray, cols: int) -> float:
    r, c = np.divmod(cells, cols)
    d = np.abs(np.diff(r)) + np.abs(np.diff(c))
    return float(np.sum(np.where(d == 2, 2 ** 0.5, 1.0)))


def row(lib, kind: str, n: int, queries: int, repeat: int) -> dict:
    occ = np.ascontiguousarray(grid(kind, n))
    rows, cols = occ.shape
    s, t = pairs(occ, queries)
    c0 = time.process_time()
    G = lib.jps_prepare(occ.view(np.uint8), rows, cols)
    c_prep = time.process_time() - c0
    c0 = time.process_time()
    pad = Padded(_padded(~occ, rows, cols), rows, cols)
    our_prep = time.process_time() - c0
    N = (rows + 2) * (cols + 2)
    gv, par, mark = np.empty(N), np.empty(N, np.int64), np.empty(N, np.uint8)
    ex = ctypes.c_long()

    def ours():
        return [jump_point_path(pad, int(a), int(b))[0] for a, b in zip(s, t)]

    def peer():
        return [lib.jps8(G, int(a), int(b), gv, par, mark, ctypes.byref(ex))
                for a, b in zip(s, t)]

    la = [length(p, cols) for p in ours()]
    lb = peer()
    if not np.allclose(la, lb, rtol=1e-9, atol=1e-9):
        raise SystemExit(f"{kind}: lengths differ: {la[:4]} vs {lb[:4]}")
    to, tp = [], []
    for _ in range(repeat):
        c0 = time.process_time()
        peer()
        tp.append(time.process_time() - c0)
        c0 = time.process_time()
        ours()
        to.append(time.process_time() - c0)
    lib.jps_free(G)
    o, p = float(np.median(to)), float(np.median(tp))
    return {"kind": kind, "size": n, "queries": queries, "robomaze_cpu_s": o, "c_jps_cpu_s": p,
            "ratio": p / o, "c_prepare_s": c_prep, "robomaze_prepare_s": our_prep,
            "agree": queries, "load": round(os.getloadavg()[0], 2)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=4001)
    ap.add_argument("--queries", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--kinds", nargs="+", default=list(KINDS))
    ap.add_argument("--out", default=str(HERE / "results" / "bench_jps_peer.json"))
    args = ap.parse_args(argv)
    rows = []
    print("| grid | size | queries | robomaze JPS CPU (s) | C JPS-B CPU (s) | C / robomaze | "
          "C prepare (s) | lengths agree | load |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        lib = build(Path(tmp))
        for kind in args.kinds:
            r = row(lib, kind, args.size, args.queries, args.repeat)
            rows.append(r)
            print(f"| {kind} | {args.size}^2 | {args.queries} | {r['robomaze_cpu_s']:.3f} | "
                  f"{r['c_jps_cpu_s']:.3f} | **{r['ratio']:.2f}x** | {r['c_prepare_s']:.3f} | "
                  f"{r['agree']}/{args.queries} | {r['load']} |", flush=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
