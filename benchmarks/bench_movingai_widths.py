"""Issue 40: the MovingAI lengths batch against scipy on maze512-like maps of every corridor width.

MovingAI's maze512-W sets are 512x512 perfect mazes with corridors (and
walls) W cells wide, W in 1, 2, 4, 8, 16, 32; only maze512-1-0 is packaged
here (and no other MovingAI map can be fetched), so the other widths are
stand-ins of the same shape: a backtracker maze of ``512 // (2 W)`` cells a
side widened with corridor W and wall W (``widen``), padded to 512x512 with
blocked cells. ``maze512-1-0`` is the packaged map itself. Random maps are
MovingAI's random512-P shape (uniform obstacles, P = 10, 20, 30, 40 %), plus
a rooms map (31x31 rooms, one door in every wall).

Each map: ``--problems`` start/goal pairs drawn (``numpy`` seed 40) from the
largest 8-connected component; the batch is
``robomaze._search.path_lengths`` (what ``run_scenarios(method="batch")``
calls, landmark fields included), scipy is ``csgraph.dijkstra`` per problem
with ``limit`` = the optimum (the graph built outside the timing), as in
``bench_io.py``. The component is 8-connected by scipy.ndimage (corner
cutting allowed), so a few pairs of a random map have no path under the
no-corner-cutting rule: the batch's NaN must then be scipy's inf. Every
length is checked equal to scipy's first; then both
are timed by process CPU time, interleaved, the median of ``--repeat``;
``os.getloadavg()`` on every row.

Usage::

    python benchmarks/bench_movingai_widths.py [--problems 200] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
from scipy.ndimage import label
from scipy.sparse import csgraph

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "plan"))

from robomaze import widen  # noqa: E402
from robomaze._search import path_lengths  # noqa: E402
from robomaze.generate import generate  # noqa: E402
from robomaze.io import read_grid  # noqa: E402
from test_core_batch import graph8  # noqa: E402

MAI = ROOT / "robomaze" / "data" / "samples" / "movingai"


def maze_map(w: int) -> np.ndarray:
    """Free mask of a 512x512 maze of corridor and wall ``w``."""
    if w == 1:
        return read_grid(MAI / "maze512-1-0.map").free.copy()
    cells = 512 // (2 * w)
    occ = widen(generate("backtracker", cells, cells, rng=w), corridor=w, wall=w).occupied
    out = np.zeros((512, 512), bool)
    h, c = min(512, occ.shape[0]), min(512, occ.shape[1])
    out[:h, :c] = ~occ[:h, :c]
    return out


def random_map(p: int) -> np.ndarray:
    return np.random.default_rng(p).random((512, 512)) >= p / 100


def rooms_map() -> np.ndarray:
    occ = np.zeros((512, 512), bool)
    occ[::32, :] = occ[:, ::32] = True
    occ[16::32, ::32] = occ[::32, 16::32] = False
    return ~occ


def pairs(free: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    lab, _ = label(free, structure=np.ones((3, 3)))
    big = np.argmax(np.bincount(lab.ravel())[1:]) + 1
    cells = np.flatnonzero(lab.ravel() == big)
    rng = np.random.default_rng(40)
    return rng.choice(cells, n), rng.choice(cells, n)


def row(name: str, free: np.ndarray, n: int, repeat: int) -> dict:
    s, t = pairs(free, n)
    g = graph8(free)
    ours = path_lengths(free, s, t)

    def scipy_run():
        out = np.empty(n)
        for k in range(n):
            lim = ours[k] + 1e-6 if np.isfinite(ours[k]) else np.inf
            out[k] = csgraph.dijkstra(g, indices=int(s[k]), limit=lim)[t[k]]
        return out

    ref = scipy_run()
    ours_inf = np.where(np.isnan(ours), np.inf, ours)        # the batch's NaN: unreachable
    if not (np.array_equal(np.isinf(ours_inf), np.isinf(ref))
            and np.allclose(ours_inf[np.isfinite(ref)], ref[np.isfinite(ref)], rtol=1e-9,
                            atol=1e-9)):
        raise SystemExit(f"{name}: {int((~np.isclose(ours, ref)).sum())} lengths differ from scipy")
    tb, ts = [], []
    for _ in range(repeat):
        c0 = time.process_time()
        path_lengths(free, s, t)
        tb.append(time.process_time() - c0)
        c0 = time.process_time()
        scipy_run()
        ts.append(time.process_time() - c0)
    b, sc = float(np.median(tb)), float(np.median(ts))
    return {"map": name, "problems": n, "batch_cpu_s": b, "scipy_cpu_s": sc,
            "batch_vs_scipy": sc / b, "agree": n, "load": round(os.getloadavg()[0], 2)}


def markdown(rows) -> str:
    out = ["| map | problems | batch CPU (s) | scipy CPU (s) | batch vs scipy | agree | load |",
           "|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        out.append(f"| {r['map']} | {r['problems']} | {r['batch_cpu_s']:.4f} | "
                   f"{r['scipy_cpu_s']:.3f} | **{r['batch_vs_scipy']:.1f}x** | "
                   f"{r['agree']}/{r['problems']} | {r['load']} |")
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--problems", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--maps", nargs="+", default=None,
                    help="subset of: maze1 maze2 maze4 maze8 maze16 maze32 random10 random20 "
                         "random30 random40 rooms")
    ap.add_argument("--out", default=str(HERE / "results" / "bench_movingai_widths.json"))
    args = ap.parse_args(argv)
    maps = {f"maze512-{w}" + ("-0 (packaged)" if w == 1 else " stand-in"): (lambda w=w: maze_map(w))
            for w in (1, 2, 4, 8, 16, 32)}
    maps.update({f"random512-{p}": (lambda p=p: random_map(p)) for p in (10, 20, 30, 40)})
    maps["rooms 31x31 (512^2)"] = rooms_map
    keys = {"maze1": 0, "maze2": 1, "maze4": 2, "maze8": 3, "maze16": 4, "maze32": 5,
            "random10": 6, "random20": 7, "random30": 8, "random40": 9, "rooms": 10}
    names = list(maps)
    if args.maps:
        names = [names[keys[m]] for m in args.maps]
    path_lengths(maps[names[0]](), *pairs(maps[names[0]](), 4))     # JIT warm-up
    rows = []
    for name in names:
        r = row(name, maps[name](), args.problems, args.repeat)
        rows.append(r)
        print(f"{name:26s} batch {r['batch_cpu_s']:.4f} s  scipy {r['scipy_cpu_s']:.3f} s  "
              f"x{r['batch_vs_scipy']:.1f}  load {r['load']}", flush=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(rows, indent=1) + "\n")
    print(markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
