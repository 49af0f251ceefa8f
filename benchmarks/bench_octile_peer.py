"""Issue 40, round 8: the octile distance field against the strongest native peer, by grid kind.

The peers are C, compiled here at run time (``gcc -O3 -march=native -shared
-fPIC``) and called through ctypes:

* ``ring``: ``dijkstra8_ring`` of ``benchmarks/octile_peer.c``, a padded
  octile Dijkstra with a ring of three unit-wide buckets instead of a heap
  (every move is at least 1 long, so a bucket is final when reached), int32
  nodes, no settled marks;
* ``heap``: ``dijkstra8`` of ``benchmarks/padded_bfs.c``, the padded
  binary-heap Dijkstra of rounds 4-5.

The ratio is against the *faster* peer of the row. robomaze's contender
is the public call ``robomaze._search.distance_field(free, [goal],
conn8=True)`` (8-connected, no corner cutting, float64 field, inf where
unreached); its *path* column names the strategy it took
(``probe``: the small-component probe of
``robomaze/_search/_octile_probe.py``; ``thin``: the 4-connected field of a
grid without a free 2x2 square, ``_octile_thin.py``; ``sweep``: row
sweeps (open grids, rooms), ``_octile_sweep.py``; ``sweep+repair``: the
same and a bucket queue from the cells they left too high (sparse random
obstacles), ``_octile_repair.py``; both where a window about the source
says they pay; ``signed ring``: the whole-grid bucket ring of big grids
with the mask in the field's sign, uint64 indices and prefetch,
``_octile_ring.py`` (round 10); ``ring``: the whole-grid bucket ring of
small grids, ``_octile.py``; the choice: ``_octile_field.py``).
Every field is checked against the C's before timing: the same reached set, values within 1e-9
relative.

Grid kinds are ``bench_peers.py``'s (widened mazes of corridor 1/3/9 with
and without metadata, braids, random 10/30/45%, open, spiral, rooms,
maze512-1-0). Timing: process CPU time around each call, the contenders
interleaved repetition by repetition, the median of ``--repeat``; the load
average on every row. Ratio = peer time / robomaze time (> 1: robomaze
faster).

Usage::

    python benchmarks/bench_octile_peer.py [--sizes 4001 8001] [--repeat 5]
        [--kinds maze-c1 random45 ...] [--peers ring heap] [--out FILE.json]
        [--same-as-ring]
    python benchmarks/bench_octile_peer.py --markdown FILE.json
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
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from bench_peers import FLAGS, make  # noqa: E402

from robomaze._search import distance_field  # noqa: E402
from robomaze._search._octile_field import octile_strategy  # noqa: E402
from robomaze._search import _padded  # noqa: E402
from robomaze._search._octile_probe import small_component_field  # noqa: E402
from robomaze._search._octile_sweep import PAYS, sweep_field, sweep_pays  # noqa: E402
from robomaze._search._octile_thin import thin_field  # noqa: E402

KINDS = ("maze-c1", "bare-c1", "maze-c3", "bare-c3", "maze-c9", "bare-c9", "braid-c3",
         "bare-braid-c3", "random10", "random30", "random45", "open", "spiral", "rooms",
         "movingai")


def build(tmp: Path) -> dict:
    """Compile both C peers and return ``{name: function}``."""
    f64p = np.ctypeslib.ndpointer(np.float64, flags="C_CONTIGUOUS")
    u8p = np.ctypeslib.ndpointer(np.uint8, flags="C_CONTIGUOUS")
    L = ctypes.c_long
    out = {}
    for src, fn, name in (("octile_peer.c", "dijkstra8_ring", "ring"),
                          ("padded_bfs.c", "dijkstra8", "heap")):
        so = tmp / (src[:-2] + ".so")
        if not so.exists():
            subprocess.run(["gcc", *FLAGS, "-o", str(so), str(HERE / src), "-lm"], check=True)
        f = getattr(ctypes.CDLL(str(so)), fn)
        f.argtypes, f.restype = [u8p, L, L, L, f64p], L
        out[name] = f
    return out


def c_field(fn, occ: np.ndarray, goal) -> np.ndarray:
    rows, cols = occ.shape
    out = np.empty((rows + 2) * (cols + 2), np.float64)
    fn(occ.view(np.uint8).ravel(), rows, cols, goal[0] * cols + goal[1], out)
    return out.reshape(rows + 2, cols + 2)[1:-1, 1:-1]


def _path(free: np.ndarray, src) -> str:
    """The strategy the field took: ``probe``, ``thin``, ``sweep``, ``sweep+repair``,
    ``signed ring`` (big grids) or ``ring``."""
    if octile_strategy(free, np.array(src)) != "big":
        return "ring"
    if small_component_field(free, np.array(src)) is not None:
        return "probe"
    if thin_field(free, src[0]) is not None:
        return "thin"
    rows, cols = free.shape
    if sweep_pays(free, np.array(src)):
        g, work = sweep_field(_padded(free, rows, cols), cols,
                              np.array([(src[0] // cols + 1) * (cols + 2) + src[0] % cols + 1]),
                              limit=int(PAYS * free.size))
        if g is not None:
            return "sweep" if work == 0 else "sweep+repair"
    return "signed ring"


def _cpu(fn) -> float:
    c0 = time.process_time()
    fn()
    return time.process_time() - c0


def same_as_ring(free: np.ndarray, src, ours: np.ndarray) -> bool:
    """Whether ``ours`` is the small grids' whole-grid ring's field (``_octile.py``) bit for bit."""
    from robomaze._search import _to_padded
    from robomaze._search._octile import octile_field, unpad_in_place

    rows, cols = free.shape
    fp = _padded(free, rows, cols)
    ring = octile_field(fp, cols, _to_padded(np.array(src), rows, cols).astype(np.int64))
    return bool(np.array_equal(ours, unpad_in_place(ring, rows, cols)[:rows * cols]
                               .reshape(rows, cols)))


def row(peers: dict, kind: str, n: int, repeat: int, ring_check: bool = False) -> dict:
    g, goal = make(kind, n)
    occ = np.ascontiguousarray(g.occupied)
    free = ~occ
    src = [goal[0] * occ.shape[1] + goal[1]]
    ours = distance_field(free, src, conn8=True)
    if ring_check and not same_as_ring(free, src, ours):
        raise SystemExit(f"{kind} {n}: octile field is not the ring's bit for bit")
    for name, fn in peers.items():
        ref = c_field(fn, occ, goal)
        fin = np.isfinite(ref)
        if not (np.array_equal(fin, np.isfinite(ours))
                and np.allclose(ours[fin], ref[fin], rtol=1e-9, atol=1e-9)):
            raise SystemExit(f"{kind} {n}: octile field differs from the C {name}")
        del ref, fin
    t = {"robomaze": [], **{name: [] for name in peers}}
    for _ in range(repeat):
        for name, fn in peers.items():
            t[name].append(_cpu(lambda: c_field(fn, occ, goal)))
        t["robomaze"].append(_cpu(lambda: distance_field(free, src, conn8=True)))
    med = {k: float(np.median(v)) for k, v in t.items()}
    best = min(med[name] for name in peers)
    return {"field": "octile8", "kind": kind, "shape": list(occ.shape),
            "path": _path(free, src), "reached": int(np.isfinite(ours).sum()),
            **{f"{k}_cpu_s": v for k, v in med.items()},
            "ratio_vs_best_c": best / med["robomaze"], "load": round(os.getloadavg()[0], 2),
            "identical": True, **({"same_as_ring": True} if ring_check else {})}


def markdown(rows: list[dict]) -> str:
    """The rows as a markdown table (what benchmarks/README.md carries)."""
    out = ["| grid kind | size | reached | robomaze path | robomaze CPU (ms) | C ring (ms) | "
           "C heap (ms) | best C / robomaze | load |",
           "|---|---|---:|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        heap = f"{r['heap_cpu_s'] * 1e3:.1f}" if "heap_cpu_s" in r else "-"
        out.append(f"| {r['kind']} | {r['shape'][0]}^2 | {r['reached']} | {r['path']} | "
                   f"{r['robomaze_cpu_s'] * 1e3:.1f} | {r['ring_cpu_s'] * 1e3:.1f} | {heap} | "
                   f"**{r['ratio_vs_best_c']:.2f}x** | {r['load']} |")
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[4001, 8001])
    ap.add_argument("--kinds", nargs="+", default=list(KINDS))
    ap.add_argument("--peers", nargs="+", default=["ring", "heap"], choices=["ring", "heap"])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--same-as-ring", action="store_true",
                    help="also check every field against the small grids' ring (_octile.py) "
                         "bit for bit (np.array_equal) before timing")
    ap.add_argument("--out", default=str(HERE / "results" / "bench_octile_peer.json"))
    ap.add_argument("--markdown", metavar="JSON",
                    help="print the table of an earlier run's JSON and exit")
    args = ap.parse_args(argv)
    if args.markdown:
        print(markdown(json.loads(Path(args.markdown).read_text())))
        return 0
    if "ring" not in args.peers:
        raise SystemExit("--peers: 'ring' is required (the table's reference column)")
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        allp = build(Path(tmp))
        peers = {k: allp[k] for k in args.peers}
        for n in args.sizes:
            for kind in args.kinds:
                if kind == "movingai" and n != args.sizes[0]:
                    continue
                r = row(peers, kind, n, args.repeat, args.same_as_ring)
                out.append(r)
                cs = "  ".join(f"{k} {r[k + '_cpu_s']:.4f}" for k in peers)
                print(f"oct8 {kind:14s} {r['shape'][0]:5d}^2 {r['path']:8s} ours "
                      f"{r['robomaze_cpu_s']:.4f} s  C {cs}  x{r['ratio_vs_best_c']:.2f}  "
                      f"load {r['load']}", flush=True)
                Path(args.out).parent.mkdir(parents=True, exist_ok=True)
                Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    print(markdown(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
