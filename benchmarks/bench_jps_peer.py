"""Issue 40: robomaze's 8-connected jump point search (plain and JPS+) against native JPS-B and JPS+.

warthog-jps cannot be fetched here (no network beyond package registries;
no PyPI wheel packages it), so the peer is ``benchmarks/jps_peer.c``: the
same graph and pruning (no corner cutting), its straight scans 64 cells at
a time from bit rows and a transposed copy (JPS-B, as warthog), built with
``gcc -O3 -march=native``. Its packing (``jps_prepare``) is preprocessing,
timed apart; a query is ``jps8``.

robomaze's contenders are ``robomaze._search.jump_point_path(free, s, t)``
(the core call ``plan(..., "astar", connectivity=8)`` makes; the padded
mask is its own preprocessing, cached per grid by the public planner, so
here it is built once with ``Padded`` and timed apart too) with
``tables=False`` (plain JPS) and ``tables=True`` (JPS+, round 7: jump
distances per cell and direction, :mod:`robomaze._search._jps_plus`). The
C file carries a JPS+ too (``jpsp_prepare`` / ``jpsp8``: the same tables
and goal-bounded query), so the JPS+ ratio is like for like. Both sides'
table builds are preprocessing, timed apart (each repetition rebuilds
them); the break-even is robomaze's build time over the query time JPS+
saves per query against robomaze's plain JPS.

Round 8 adds the variants the policy (:mod:`robomaze._search._jps_tables`)
may keep per grid, each forced here: ``peel=True`` (dead ends peeled,
:mod:`robomaze._search._jps_peel`: tree ends walked, the search only
between core cells) and ``route=True`` (JPS+ confined to the stacks of
the query's route where the stacks form a tree,
:mod:`robomaze._search._jps_stacks`), with their builds timed apart. The
bold ratios are against what the policy keeps for the grid (the peeled
walk, route-confined JPS+ or JPS+), and ``met`` asks >= 1.0x against both
C peers; the break-even is what the policy builds over the CPU it saves
per query against plain JPS.

Grids (``--size``, default 4001): backtracker mazes widened with corridor
1, 3 and 9 (wall 1) and uniform random obstacles at 10% and 30%. Queries:
``--queries`` start/goal pairs from the goal's component (numpy seed 40).
Every length must agree (1e-9 relative) before anything is timed, and
JPS+ must return plain JPS's path cell for cell; then the whole query list
is timed for each contender, interleaved, process CPU time, the median of
``--repeat``; ``os.getloadavg()`` on every row. ``met``: robomaze's JPS+
queries >= 1.0x the C JPS-B (the issue's target peer).

Usage::

    python benchmarks/bench_jps_peer.py [--size 4001] [--queries 20] [--repeat 3] [--after 8]

The auto column is the public policy on a grid met for the first time
(``jump_point_path(free, s, t)``, tables built at the ``--after``-th query,
the build timed in); with fewer queries than ``--after`` it is plain JPS.
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
from robomaze._search import _jps_peel, _jps_plus, _jps_stacks, _jps_tables  # noqa: E402

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
    lib.jpsp_prepare.argtypes = lib.jps_prepare.argtypes
    lib.jpsp_prepare.restype = ctypes.c_void_p
    lib.jpsp_free.argtypes = [ctypes.c_void_p]
    lib.jpsp_bytes.argtypes = [ctypes.c_void_p]
    lib.jpsp_bytes.restype = L
    lib.jpsp8.argtypes = [ctypes.c_void_p, L, L,
                          np.ctypeslib.ndpointer(np.float64, flags="C_CONTIGUOUS"),
                          np.ctypeslib.ndpointer(np.int64, flags="C_CONTIGUOUS"),
                          ctypes.POINTER(L)]
    lib.jpsp8.restype = ctypes.c_double
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
    J = [lib.jpsp_prepare(occ.view(np.uint8), rows, cols)]

    def ours(tables, peel=None, route=None):
        return [jump_point_path(pad, int(a), int(b), tables=tables, peel=peel, route=route)[0]
                for a, b in zip(s, t)]

    def peer():
        return [lib.jps8(G, int(a), int(b), gv, par, mark, ctypes.byref(ex))
                for a, b in zip(s, t)]

    def peer_plus():
        return [lib.jpsp8(J[0], int(a), int(b), gv, par, ctypes.byref(ex))
                for a, b in zip(s, t)]

    def our_build():
        _jps_tables.free_tables()
        c0 = time.process_time()
        _jps_tables.tables_for(pad.mask, rows, cols, True)
        return time.process_time() - c0

    def peel_build():
        e = _jps_tables._ENTRIES.get(id(pad.mask))
        if e is not None:
            e.peel = None
        c0 = time.process_time()
        _jps_tables.prepared_for(pad.mask, rows, cols, None, True)
        return time.process_time() - c0

    def route_build():
        c0 = time.process_time()
        r = _jps_stacks.build_route(pad.mask, cols)
        took = time.process_time() - c0
        e = _jps_tables._ENTRIES.get(id(pad.mask))
        if e is not None:
            e.route = r
        return took

    def c_build():
        lib.jpsp_free(J[0])
        c0 = time.process_time()
        J[0] = lib.jpsp_prepare(occ.view(np.uint8), rows, cols)
        return time.process_time() - c0

    our_build()
    peel_build()
    route_build()
    _, pt, rt = _jps_tables.prepared_for(pad.mask, rows, cols, True, True)
    times = pt[1::2]
    core_share = float(np.count_nonzero(pad.mask.astype(bool) & (times == _jps_peel.CORE))
                       / np.count_nonzero(pad.mask))
    kept = core_share <= _jps_tables.PEEL_KEEP       # what the policy keeps
    has_route = (not kept and rt is not None and rt.nstacks >= _jps_tables.ROUTE_MIN_STACKS)
    plain, plus, peeled = ours(False), ours(True), ours(True, True)
    routed = ours(True, False, True) if has_route else plus
    for a, b in zip(plain, plus):
        if not np.array_equal(a, b):
            raise SystemExit(f"{kind}: JPS+ path differs from plain JPS")
    la = [length(p, cols) for p in plain]
    for p, a, b in zip(peeled, s, t):
        if p[0] != a or p[-1] != b or np.abs(np.diff(np.divmod(p, cols), axis=1)).max() > 1:
            raise SystemExit(f"{kind}: peeled path is not a path from {a} to {b}")
    if not np.allclose(la, [length(p, cols) for p in peeled], rtol=1e-9, atol=1e-9):
        raise SystemExit(f"{kind}: peeled lengths differ")
    for p, a, b in zip(routed, s, t):
        if p[0] != a or p[-1] != b or np.abs(np.diff(np.divmod(p, cols), axis=1)).max() > 1:
            raise SystemExit(f"{kind}: route-confined path is not a path from {a} to {b}")
    if not np.allclose(la, [length(p, cols) for p in routed], rtol=1e-9, atol=1e-9):
        raise SystemExit(f"{kind}: route-confined lengths differ")
    for name, lb in (("C JPS-B", peer()), ("C JPS+", peer_plus())):
        if not np.allclose(la, lb, rtol=1e-9, atol=1e-9):
            raise SystemExit(f"{kind}: lengths differ from {name}: {la[:4]} vs {lb[:4]}")
    tj, tpl, tb, tbp, bo, bc, ta, tpe, bpe, tro, bro = ([] for _ in range(11))
    for _ in range(repeat):
        c0 = time.process_time()
        peer()
        tb.append(time.process_time() - c0)
        c0 = time.process_time()
        ours(False)
        tj.append(time.process_time() - c0)
        c0 = time.process_time()
        peer_plus()
        tbp.append(time.process_time() - c0)
        c0 = time.process_time()
        ours(True)
        tpl.append(time.process_time() - c0)
        c0 = time.process_time()
        ours(True, True)
        tpe.append(time.process_time() - c0)
        if has_route:
            c0 = time.process_time()
            ours(True, False, True)
            tro.append(time.process_time() - c0)
        # the public policy on a grid met for the first time: plain JPS, then
        # the tables built at the ROBOMAZE_JPS_PLUS_AFTER-th query (timed in)
        fresh = Padded(_padded(~occ, rows, cols), rows, cols)
        c0 = time.process_time()
        for a, b in zip(s, t):
            jump_point_path(fresh, int(a), int(b))
        ta.append(time.process_time() - c0)
        del fresh
        bo.append(our_build())
        bpe.append(peel_build())
        bro.append(route_build())
        bc.append(c_build())
    table_mb = _jps_plus.table_nbytes(rows, cols) / 2**20
    peel_mb = _jps_peel.peel_nbytes(rows, cols) / 2**20
    c_mb = lib.jpsp_bytes(J[0]) / 2**20
    _jps_tables.free_tables()
    lib.jps_free(G)
    lib.jpsp_free(J[0])
    med = lambda v: float(np.median(v))  # noqa: E731
    o, op, p, pp = med(tj), med(tpl), med(tb), med(tbp)
    pe, prep_pe = med(tpe), med(bpe)
    ro, prep_ro = (med(tro) if has_route else float("nan")), med(bro)
    prep = med(bo)
    saved = (o - op) / queries
    # the policy's query: peeled where it keeps the peel, else route-confined
    # JPS+ where the stacks form a tree, else JPS+; its build is what the
    # policy builds (the peel always, the tables unless all is tree, the
    # stacks where the peel is not kept)
    best = pe if kept else (ro if has_route else op)
    tried = _jps_peel.thin_share(pad.mask, rows, cols) >= _jps_tables.PEEL_TRY
    kept = kept and tried
    best = pe if kept else (ro if has_route else op)
    best_prep = (prep_pe + (prep if core_share > 0 else 0.0)) if kept else (
        prep + (prep_pe if tried else 0.0) + prep_ro)
    best_saved = (o - best) / queries
    return {"kind": kind, "size": n, "queries": queries,
            "robomaze_jps_cpu_s": o, "robomaze_jps_plus_cpu_s": op,
            "robomaze_jps_plus_prepare_s": prep, "robomaze_auto_cpu_s": med(ta),
            "build_after": _jps_tables.build_after(), "robomaze_table_mb": table_mb,
            "c_jps_cpu_s": p, "c_jps_plus_cpu_s": pp, "c_jps_plus_prepare_s": med(bc),
            "c_jps_plus_mb": c_mb,
            "ratio_jpsb": p / op, "ratio_jps_plus": pp / op, "ratio_plain": p / o,
            "break_even_queries": (prep / saved) if saved > 0 else float("inf"),
            "c_prepare_s": c_prep, "robomaze_prepare_s": our_prep,
            "robomaze_routed_cpu_s": ro, "route_prepare_s": prep_ro, "route_kept": has_route,
            "robomaze_peeled_cpu_s": pe, "peel_prepare_s": prep_pe, "peel_mb": peel_mb, "core_share": core_share,
            "peel_kept": kept, "robomaze_policy_cpu_s": best, "policy_prepare_s": best_prep,
            "policy_break_even": (best_prep / best_saved) if best_saved > 0 else float("inf"),
            "ratio_policy_jpsb": p / best, "ratio_policy_jps_plus": pp / best,
            "agree": queries, "met": p / best >= 1.0 and pp / best >= 1.0, "load": round(os.getloadavg()[0], 2)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=4001)
    ap.add_argument("--queries", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--kinds", nargs="+", default=list(KINDS))
    ap.add_argument("--after", type=int, default=None,
                    help="ROBOMAZE_JPS_PLUS_AFTER for the auto column (the query that builds)")
    ap.add_argument("--out", default=str(HERE / "results" / "bench_jps_peer.json"))
    args = ap.parse_args(argv)
    if args.after is not None:
        os.environ["ROBOMAZE_JPS_PLUS_AFTER"] = str(args.after)
    rows = []
    print("| grid | size | queries | robomaze JPS (s) | robomaze JPS+ (s) | robomaze peeled (s) | "
          "core share | robomaze route-confined (s) | C JPS-B (s) | C JPS+ (s) | robomaze auto, build timed in (s) | "
          "**C JPS-B / robomaze** | **C JPS+ / robomaze** | C JPS-B / JPS+ | C JPS-B / JPS | "
          "JPS+ prepare (s), MB | peel prepare (s), MB | stacks prepare (s) | C JPS+ prepare (s), MB | "
          "break-even (queries) | lengths agree | load | met |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
          "---:|---:|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        lib = build(Path(tmp))
        for kind in args.kinds:
            r = row(lib, kind, args.size, args.queries, args.repeat)
            rows.append(r)
            print(f"| {kind} | {args.size}^2 | {args.queries} | {r['robomaze_jps_cpu_s']:.3f} | "
                  f"{r['robomaze_jps_plus_cpu_s']:.3f} | {r['robomaze_peeled_cpu_s']:.3f} | "
                  f"{r['core_share']:.3f}{' (kept)' if r['peel_kept'] else ''} | "
                  f"{r['robomaze_routed_cpu_s']:.3f}{' (kept)' if r['route_kept'] else ''} | "
                  f"{r['c_jps_cpu_s']:.3f} | "
                  f"{r['c_jps_plus_cpu_s']:.3f} | {r['robomaze_auto_cpu_s']:.3f} | "
                  f"**{r['ratio_policy_jpsb']:.2f}x** | **{r['ratio_policy_jps_plus']:.2f}x** | "
                  f"{r['ratio_jpsb']:.2f}x | {r['ratio_plain']:.2f}x | "
                  f"{r['robomaze_jps_plus_prepare_s']:.3f}, {r['robomaze_table_mb']:.0f} | "
                  f"{r['peel_prepare_s']:.3f}, {r['peel_mb']:.0f} | {r['route_prepare_s']:.3f} | "
                  f"{r['c_jps_plus_prepare_s']:.3f}, {r['c_jps_plus_mb']:.0f} | "
                  f"{r['policy_break_even']:.1f} | {r['agree']}/{args.queries} | {r['load']} | "
                  f"{'met' if r['met'] else 'not met'} |", flush=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
