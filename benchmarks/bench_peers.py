"""Issue 40: robomaze's grid fields against the strongest native peers we can build, by grid kind.

The peers are C (``benchmarks/padded_bfs.c``), compiled here at run time
with ``gcc -O3 -march=native -shared -fPIC`` and called through ctypes:

* ``bfs4_padded``: a padded (sentinel border, no bounds checks),
  branch-light (every neighbour written back, the tail moved by the test's
  0/1) 4-connected FIFO BFS;
* ``bfs4_padded_branchy``: the same layout with the classic ``if`` test;
  the *peer* of a row is the faster of the two (per grid: each wins
  somewhere);
* ``dijkstra8``: an 8-connected octile Dijkstra field (no corner cutting,
  binary heap, padded).

robomaze's contenders are the public calls: ``wavefront_field(grid, goal)``
(its *path* column: ``maze`` / ``maze-loops`` the closed forms of a widened
maze, ``sweep`` the row sweeps of open grids and rooms, ``small`` the
small-component probe, ``tree`` the depth-first walk of a tree of free
cells, ``bits`` the level wave over a bit mask: robomaze/_search/_field4.py)
(4-connected) and, with ``--dijkstra``, ``robomaze._search.distance_field``
(8-connected octile). Every field is checked against the peer's cell for
cell (int32 equality for the BFS; the octile field within 1e-9 relative,
inf where the peer has inf) before anything is timed.

Grid kinds (``--kinds``): widened perfect backtracker mazes with corridor 1,
3 and 9 (wall 1) with their widening metadata (``maze-cK``) and without it
(``bare-cK``: ``grid.replace(widening=None, maze=None)``, what a map loaded
from a file looks like), braided mazes (``braid-c3``: braid 0.5), uniform
random obstacles (``random10/30/45``), an open grid, a square spiral
(``spiral``: concentric walls 2 cells apart, one gap each, alternating
sides), rooms (``rooms``: 40x40 rooms with one door per wall) and
MovingAI's maze512-1-0 (``movingai``, 512^2 whatever ``--sizes`` says). The
goal is the maze's goal block centre on mazes, otherwise the free cell
nearest the grid's centre.

Timing: process CPU time (``time.process_time``) around each call, the
contenders interleaved repetition by repetition, the median of
``--repeat``; ``os.getloadavg()`` recorded on every row. Ratios are peer
time / robomaze time (> 1: robomaze is faster); the JSON also carries each
repetition's own ratio (``ratio_per_repetition``: the faster C of that
repetition against robomaze's call between the two).

Memory, both sides (round 9): the C's output is a ``numpy.empty`` array
(numpy asks for 2 MiB pages, ``madvise(MADV_HUGEPAGE)``, on allocations of
4 MiB and more; THP is in "madvise" mode here) and its FIFO a ``malloc``
(glibc: an ``mmap`` of 4 KiB pages); robomaze's output is a
``numpy.empty`` array too, its scratch ``mmap`` on 4 KiB pages. Every call
of either side allocates afresh, and the page faults are in the CPU time
(system time).

Usage::

    python benchmarks/bench_peers.py [--sizes 1001 4001] [--repeat 5] [--dijkstra 1001]
        [--kinds maze-c3 bare-c3 ...] [--out benchmarks/results/bench_peers.json]
    python benchmarks/bench_peers.py --markdown benchmarks/results/bench_peers.json

In the BFS rows the C column is ``branch-free / branchy`` and the ratio is
against the faster of the two.
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

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from robomaze import OccupancyGrid, widen  # noqa: E402
from robomaze._search import distance_field  # noqa: E402
from robomaze._search._field4 import field4  # noqa: E402
from robomaze.generate import generate  # noqa: E402
from robomaze.io import read_grid  # noqa: E402
from robomaze.plan.wavefront import _point_field, wavefront_field  # noqa: E402

KINDS = ("maze-c1", "bare-c1", "maze-c3", "bare-c3", "maze-c9", "bare-c9", "braid-c3",
         "bare-braid-c3", "random10", "random30", "random45", "open", "spiral", "rooms",
         "movingai")
FLAGS = ["-O3", "-march=native", "-shared", "-fPIC"]


def build(tmp: Path) -> ctypes.CDLL:
    """Compile ``padded_bfs.c`` into a shared library and bind its three entry points."""
    so = tmp / "padded_bfs.so"
    subprocess.run(["gcc", *FLAGS, "-o", str(so), str(HERE / "padded_bfs.c"), "-lm"], check=True)
    lib = ctypes.CDLL(str(so))
    u8p = np.ctypeslib.ndpointer(np.uint8, flags="C_CONTIGUOUS")
    i32p = np.ctypeslib.ndpointer(np.int32, flags="C_CONTIGUOUS")
    f64p = np.ctypeslib.ndpointer(np.float64, flags="C_CONTIGUOUS")
    L = ctypes.c_long
    for name in ("bfs4_padded", "bfs4_padded_branchy"):
        fn = getattr(lib, name)
        fn.argtypes, fn.restype = [u8p, L, L, L, i32p], L
    lib.dijkstra8.argtypes, lib.dijkstra8.restype = [u8p, L, L, L, f64p], L
    return lib


def c_field(fn, occ: np.ndarray, goal) -> np.ndarray:
    rows, cols = occ.shape
    out = np.empty((rows + 2) * (cols + 2), np.int32)
    fn(occ.view(np.uint8).ravel(), rows, cols, goal[0] * cols + goal[1], out)
    return out.reshape(rows + 2, cols + 2)[1:-1, 1:-1]


def c_dijkstra(lib, occ: np.ndarray, goal) -> np.ndarray:
    rows, cols = occ.shape
    out = np.empty((rows + 2) * (cols + 2), np.float64)
    lib.dijkstra8(occ.view(np.uint8).ravel(), rows, cols, goal[0] * cols + goal[1], out)
    return out.reshape(rows + 2, cols + 2)[1:-1, 1:-1]


# ------------------------------------------------------------------ grids
def _maze_grid(n: int, k: int, braid: float) -> OccupancyGrid:
    cells = (n - 1) // (k + 1)
    return widen(generate("backtracker", cells, cells, rng=1, braid=braid), corridor=k, wall=1)


def _spiral(n: int) -> np.ndarray:
    occ = np.zeros((n, n), bool)
    for i, lo in enumerate(range(1, n // 2, 2)):
        hi = n - 1 - lo
        if hi - lo < 2:
            break
        occ[lo, lo:hi + 1] = occ[hi, lo:hi + 1] = True
        occ[lo:hi + 1, lo] = occ[lo:hi + 1, hi] = True
        gap = (lo + hi) // 2
        if i % 2:
            occ[lo, gap] = False
        else:
            occ[hi, gap] = False
    return occ


def _rooms(n: int) -> np.ndarray:
    occ = np.zeros((n, n), bool)
    occ[::40, :] = True
    occ[:, ::40] = True
    for i in range(0, n, 40):
        occ[i, 20::40] = False
        occ[20::40, i] = False
    return occ


def _centre_free(occ: np.ndarray):
    free = np.argwhere(~occ)
    c = np.array(occ.shape) // 2
    i = int(np.argmin(np.abs(free - c).sum(axis=1)))
    return tuple(int(v) for v in free[i])


def make(kind: str, n: int):
    """``(label, grid, goal)`` of one grid kind at about ``n x n``."""
    if kind.startswith(("maze-", "bare-")):
        braided = "braid" in kind
        k = int(kind.rsplit("c", 1)[1])
        g = _maze_grid(n, k, 0.5 if braided else 0.0)
        goal = g.start_goal()[1]
        if kind.startswith("bare-"):
            g = g.replace(widening=None, maze=None)
        return g, goal
    if kind == "braid-c3":
        g = _maze_grid(n, 3, 0.5)
        return g, g.start_goal()[1]
    if kind.startswith("random"):
        p = int(kind[6:]) / 100
        occ = np.random.default_rng(1).random((n, n)) < p
        occ[n // 2, n // 2] = False
        return OccupancyGrid(occ), (n // 2, n // 2)
    if kind == "open":
        return OccupancyGrid(np.zeros((n, n), bool)), (n // 2, n // 2)
    if kind == "spiral":
        occ = _spiral(n)
        return OccupancyGrid(occ), _centre_free(occ)
    if kind == "rooms":
        occ = _rooms(n)
        return OccupancyGrid(occ), _centre_free(occ)
    if kind == "movingai":
        g = read_grid(ROOT / "robomaze" / "data" / "samples" / "movingai" / "maze512-1-0.map")
        return g, _centre_free(g.occupied)
    raise SystemExit(f"--kinds: unknown kind {kind!r}; expected one of {', '.join(KINDS)}")


def _cpu(fn) -> float:
    c0 = time.process_time()
    fn()
    return time.process_time() - c0


def row_bfs(lib, kind: str, n: int, repeat: int) -> dict:
    g, goal = make(kind, n)
    occ = np.ascontiguousarray(g.occupied)
    ours = wavefront_field(g, goal)
    how = _point_field(g, goal, False)[2]
    if how == "bfs":                      # bfs_field's choice (robomaze/_search/_field4.py)
        how = field4(occ.view(np.uint8).ravel(), *occ.shape, goal[0] * occ.shape[1] + goal[1],
                     True)[2]
    ref = c_field(lib.bfs4_padded, occ, goal)
    if not np.array_equal(ours, ref):
        raise SystemExit(f"{kind} {n}: wavefront_field differs from the C BFS "
                         f"in {int((ours != ref).sum())} cells")
    if not np.array_equal(c_field(lib.bfs4_padded_branchy, occ, goal), ref):
        raise SystemExit(f"{kind} {n}: the two C BFS disagree")
    t = {"robomaze": [], "c_branchless": [], "c_branchy": []}
    for _ in range(repeat):
        t["c_branchless"].append(_cpu(lambda: c_field(lib.bfs4_padded, occ, goal)))
        t["robomaze"].append(_cpu(lambda: wavefront_field(g, goal)))
        t["c_branchy"].append(_cpu(lambda: c_field(lib.bfs4_padded_branchy, occ, goal)))
    med = {k: float(np.median(v)) for k, v in t.items()}
    peer = min(med["c_branchless"], med["c_branchy"])
    # each repetition's own ratio: the faster C of that repetition against
    # robomaze's call between the two (how often a single call wins by x)
    per_rep = [min(a, b) / r for a, b, r in zip(t["c_branchless"], t["c_branchy"], t["robomaze"])]
    return {"field": "bfs4", "kind": kind, "shape": list(occ.shape), "path": how,
            "free": int((~occ).sum()), "reached": int((ours >= 0).sum()),
            **{f"{k}_cpu_s": v for k, v in med.items()},
            "ratio_vs_best_c": peer / med["robomaze"], "load": round(os.getloadavg()[0], 2),
            "ratio_per_repetition": [round(x, 3) for x in per_rep],
            "identical": True}


def row_dijkstra(lib, kind: str, n: int, repeat: int) -> dict:
    g, goal = make(kind, n)
    occ = np.ascontiguousarray(g.occupied)
    free = ~occ
    src = [goal[0] * occ.shape[1] + goal[1]]
    ours = distance_field(free, src, conn8=True)
    ref = c_dijkstra(lib, occ, goal)
    fin = np.isfinite(ref)
    if not (np.array_equal(fin, np.isfinite(ours))
            and np.allclose(ours[fin], ref[fin], rtol=1e-9, atol=1e-9)):
        raise SystemExit(f"{kind} {n}: octile field differs from the C Dijkstra")
    t = {"robomaze": [], "c": []}
    for _ in range(repeat):
        t["c"].append(_cpu(lambda: c_dijkstra(lib, occ, goal)))
        t["robomaze"].append(_cpu(lambda: distance_field(free, src, conn8=True)))
    med = {k: float(np.median(v)) for k, v in t.items()}
    return {"field": "octile8", "kind": kind, "shape": list(occ.shape),
            **{f"{k}_cpu_s": v for k, v in med.items()},
            "ratio_vs_c": med["c"] / med["robomaze"], "load": round(os.getloadavg()[0], 2),
            "identical": True}


def markdown(rows: list[dict]) -> str:
    """The rows as a markdown table (what benchmarks/README.md carries)."""
    out = ["| field | grid kind | size | robomaze path | robomaze CPU (ms) | C CPU (ms) | "
           "peer / robomaze | load |", "|---|---|---|---|---:|---:|---:|---:|"]
    for r in rows:
        size = f"{r['shape'][0]}^2"
        if r["field"] == "bfs4":
            c = (f"{r['c_branchless_cpu_s'] * 1e3:.1f} / {r['c_branchy_cpu_s'] * 1e3:.1f}")
            out.append(f"| BFS 4 | {r['kind']} | {size} | {r['path']} | "
                       f"{r['robomaze_cpu_s'] * 1e3:.1f} | {c} | **{r['ratio_vs_best_c']:.2f}x** | "
                       f"{r['load']} |")
        else:
            out.append(f"| octile 8 | {r['kind']} | {size} | Dijkstra | "
                       f"{r['robomaze_cpu_s'] * 1e3:.1f} | {r['c_cpu_s'] * 1e3:.1f} | "
                       f"**{r['ratio_vs_c']:.2f}x** | {r['load']} |")
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1001, 4001])
    ap.add_argument("--kinds", nargs="+", default=list(KINDS))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--dijkstra", type=int, nargs="*", default=[],
                    help="sizes at which to compare the octile Dijkstra field too")
    ap.add_argument("--out", default=str(HERE / "results" / "bench_peers.json"))
    ap.add_argument("--markdown", metavar="JSON",
                    help="print the table of an earlier run's JSON and exit")
    args = ap.parse_args(argv)
    if args.markdown:
        print(markdown(json.loads(Path(args.markdown).read_text())))
        return 0
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        lib = build(Path(tmp))
        for n in args.sizes:
            for kind in args.kinds:
                if kind == "movingai" and n != args.sizes[0]:
                    continue
                row = row_bfs(lib, kind, n, args.repeat)
                out.append(row)
                reps = row["ratio_per_repetition"]
                print(f"bfs4 {kind:14s} {row['shape'][0]:5d}^2 {row['path']:10s} "
                      f"ours {row['robomaze_cpu_s']:.4f} s  C {row['c_branchless_cpu_s']:.4f} / "
                      f"{row['c_branchy_cpu_s']:.4f} s  x{row['ratio_vs_best_c']:.2f}  "
                      f"(repetitions x{min(reps):.2f}-{max(reps):.2f})  "
                      f"load {row['load']}", flush=True)
        for n in args.dijkstra:
            for kind in args.kinds:
                if kind == "movingai" and n != args.dijkstra[0]:
                    continue
                row = row_dijkstra(lib, kind, n, args.repeat)
                out.append(row)
                print(f"oct8 {kind:14s} {row['shape'][0]:5d}^2 ours {row['robomaze_cpu_s']:.4f} s"
                      f"  C {row['c_cpu_s']:.4f} s  x{row['ratio_vs_c']:.2f}  load {row['load']}",
                      flush=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    print(markdown(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
