"""Issue 22: what a public planner call costs around its engine, and the MovingAI batch.

1. ``--only calls``: on the 2001x2001 grid of ``bench_plan.py`` (a 1000x1000
   backtracker maze, seed 1, corridor 1, wall 1; ``--pairs`` random free
   cells, seed 1) for A* and Dijkstra, 4- and 8-connected, interleaved run
   by run:

   * *engine*: the search the public call runs (``_search.shortest_path``,
     or ``jump_point_path`` for 8-connected A*) on the grid's cached mask;
   * *public*: ``astar`` / ``dijkstra(grid, s, g, connectivity=...)``;
   * *make_path*: building the ``Path`` of the engine's cells (cells,
     points, length; a copy of the cells the public call does not make);
   * *figures*: the first read of the measured-on-demand figures (turns,
     key-pose clearances, ``collision_free``) of freshly built paths;
   * 8-connected only: the C++ reference ``astar_ref.cpp`` (walks the path
     back) built with ``-O3 -march=native`` and with ``-O2``.

   Lengths are checked equal to the C++ ones.

2. ``--only movingai``: maze512-1-0 (12,120 problems): the batch
   (``run_scenarios(method="batch")``) against ``scipy.sparse.csgraph.dijkstra``
   per problem (``limit`` = the optimum; graph built outside the timing) on
   ``--sample`` problems spread over the buckets, and over all problems
   against the landmark A* the batch ran before (forced here through the
   private kernels). Every length checked against the ``.scen`` optima.
   Then the same batch-vs-scipy race on 512-ish stand-ins for the other
   MovingAI sets (wider corridors, a braided maze, random obstacles, rooms:
   none a forest, so the batch takes its landmark A*), lengths checked equal.

CPU seconds (process clock), medians of ``--repeat`` interleaved runs; the
load average is recorded before and after each part. Writes
``benchmarks/results/calls.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_io import MAI, graph8  # noqa: E402
from bench_plan import Best, cpp_astar, make_maze, timed  # noqa: E402
from scipy.sparse import csgraph  # noqa: E402

from robomaze import _search as core  # noqa: E402
from robomaze._search._tree import forest  # noqa: E402
from robomaze import widen  # noqa: E402
from robomaze.bench.movingai import run_scenarios  # noqa: E402
from robomaze.io import read_movingai, read_scen  # noqa: E402
from robomaze.plan import astar, dijkstra  # noqa: E402
from robomaze.plan.path import make_path  # noqa: E402

FLAGS = {"O3native": ["-O3", "-march=native"], "O2": ["-O2"]}


def load() -> float:
    return round(os.getloadavg()[0], 2)


def engine_call(grid, conn: int, heuristic: bool):
    if heuristic and conn == 8:
        return lambda a, b: core.jump_point_path(grid, a, b)
    return lambda a, b: core.shortest_path(grid, a, b, conn8=conn == 8,
                                           hmode=(1 if conn == 4 else 2) if heuristic else 0)


def bench_calls(npairs: int, repeat: int, tmp: Path, gxx: str) -> list[dict]:
    exes = {k: tmp / f"astar_{k}" for k in FLAGS}
    for k, f in FLAGS.items():
        subprocess.run([gxx, *f, "-o", str(exes[k]), str(HERE / "astar_ref.cpp")], check=True)
    grid = widen(make_maze(1000, 1), corridor=1, wall=1)
    free = grid.free
    rng = np.random.default_rng(1)
    pairs = rng.choice(np.flatnonzero(free), (npairs, 2))
    raw, ptxt = tmp / "g8.raw", tmp / "pairs.txt"
    np.ascontiguousarray(free, dtype=np.uint8).ravel().tofile(raw)
    np.savetxt(ptxt, pairs, fmt="%d")
    cols = grid.cols
    cells = [(tuple(divmod(int(a), cols)), tuple(divmod(int(b), cols))) for a, b in pairs]
    small = widen(make_maze(8, 0), corridor=1, wall=1)
    s0, g0 = small.start_goal()
    rows = []
    for name, fn, heuristic in (("astar", astar, True), ("dijkstra", dijkstra, False)):
        for conn in (4, 8):
            p0 = fn(small, s0, g0, connectivity=conn)          # JIT warm-up
            p0.collision_free
            eng = engine_call(grid, conn, heuristic)
            t = {k: Best() for k in ("engine", "public", "make_path", "figures")}
            if conn == 8:
                t.update({k: Best() for k in exes})
            row = {"search": name, "connectivity": conn, "grid": f"{grid.rows}x{grid.cols}",
                   "pairs": npairs, "load_before": load()}
            for _ in range(repeat):
                w, c, res = timed(lambda: [eng(int(a), int(b)) for a, b in pairs])
                t["engine"].add(w, c)
                w, c, paths = timed(lambda: [fn(grid, s, g, connectivity=conn)
                                             for s, g in cells])
                t["public"].add(w, c)
                pc = [p.cells for p in paths]
                w, c, fresh = timed(lambda: [make_path(grid, q) for q in pc])
                t["make_path"].add(w, c)
                w, c, _ = timed(lambda: [p.min_clearance_key_poses for p in fresh])
                t["figures"].add(w, c)
                if conn == 8:
                    for k, exe in exes.items():
                        w, c, lens, exps, ncells = cpp_astar(exe, raw, grid.shape, ptxt, name)
                        t[k].add(w, c)
            if conn == 8:
                assert np.allclose([p.length for p in paths], lens, rtol=1e-12), "lengths differ"
            assert all(len(p) == len(q) for p, (q, _) in zip(paths, res))
            assert all(p.collision_free for p in paths)
            row.update({f"{k}_cpu_s": v.cpu for k, v in t.items()})
            pub = t["public"].cpu
            row.update(load_after=load(), path_cells=int(sum(len(p) for p in paths)),
                       make_path_share=t["make_path"].cpu / pub,
                       around_engine_share=(pub - t["engine"].cpu) / pub,
                       figures_over_public=t["figures"].cpu / pub)
            if conn == 8:
                row.update(public_vs_cpp_O3native=t["O3native"].cpu / pub,
                           public_vs_cpp_O2=t["O2"].cpu / pub,
                           engine_vs_cpp_O3native=t["O3native"].cpu / t["engine"].cpu)
            rows.append(row)
            print(json.dumps(row), file=sys.stderr)
    raw.unlink()
    return rows


def landmark_lengths(free, starts, goals, k: int = 8):
    """The batch's route before issue 22's forest test: landmark A* on every map."""
    rows, cols = free.shape
    fp = core._padded(free, rows, cols)
    lm = core._landmarks(fp, cols, k)
    return core._lengths(core._readonly(fp), cols, core._to_padded(starts, rows, cols),
                         core._to_padded(goals, rows, cols), lm, core._new_heap(fp.shape[0]))


def bench_movingai(sample: int, repeat: int) -> dict:
    grid = read_movingai(MAI / "maze512-1-0.map")
    probs = read_scen(MAI / "maze512-1-0.map.scen")
    cols = grid.cols
    starts = np.array([p.start[0] * cols + p.start[1] for p in probs], np.int64)
    goals = np.array([p.goal[0] * cols + p.goal[1] for p in probs], np.int64)
    opt = np.array([p.optimal for p in probs])
    run_scenarios(grid, probs[:40], method="batch")               # JIT warm-up
    landmark_lengths(grid.free, starts[:40], goals[:40])
    out = {"problems": len(probs), "load_before": load()}
    pick = [probs[i] for i in np.linspace(0, len(probs) - 1, sample).astype(int)]
    g = graph8(grid.free)
    t = {k: Best() for k in ("batch_all", "landmark_all", "batch_sample", "scipy_sample")}
    for _ in range(repeat):
        w, c, rep = timed(lambda: run_scenarios(grid, probs, method="batch"))
        t["batch_all"].add(w, c)
        w, c, old = timed(lambda: landmark_lengths(grid.free, starts, goals))
        t["landmark_all"].add(w, c)
        w, c, sc = timed(lambda: [csgraph.dijkstra(
            g, indices=p.start[0] * cols + p.start[1], directed=False,
            limit=p.optimal + 1e-6)[p.goal[0] * cols + p.goal[1]] for p in pick])
        t["scipy_sample"].add(w, c)
        w, c, rs = timed(lambda: run_scenarios(grid, pick, method="batch"))
        t["batch_sample"].add(w, c)
    agree = np.abs(np.asarray(sc) - rs.optimal) <= 1e-6 * np.maximum(rs.optimal, 1)
    out.update({f"{k}_cpu_s": v.cpu for k, v in t.items()})
    out.update(
        load_after=load(), sample=sample, batch_all_agree=rep.n_agree,
        landmark_all_agree=int(np.sum(np.abs(old - opt) <= 1e-6 * np.maximum(opt, 1))),
        batch_equals_landmark=bool(np.array_equal(rep.lengths, old)),
        batch_sample_agree=rs.n_agree, scipy_sample_agree=int(agree.sum()),
        batch_vs_scipy_sample=t["scipy_sample"].cpu / t["batch_sample"].cpu,
        batch_vs_scipy_per_problem=(t["scipy_sample"].cpu / sample)
        / (t["batch_all"].cpu / len(probs)),
        batch_vs_landmark_all=t["landmark_all"].cpu / t["batch_all"].cpu)
    print(json.dumps(out), file=sys.stderr)
    return out


def other_maps() -> dict:
    """512-ish stand-ins for MovingAI's other sets, none of them a forest (the landmark route)."""
    from robomaze.generate import braid, generate

    rng = np.random.default_rng(1)
    rooms = np.ones((512, 512), bool)
    rooms[::32, :] = rooms[:, ::32] = False
    rooms[16::32, ::32] = rooms[::32, 16::32] = True          # a door in every wall
    return {
        "maze corridor 2 (511x511)": widen(generate("backtracker", 170, 170, rng=1),
                                           corridor=2, wall=1).free,
        "braided maze corridor 1, half the dead ends (511x511)": widen(
            braid(generate("backtracker", 255, 255, rng=1), 0.5, rng=1), corridor=1,
            wall=1).free,
        "random 25% blocked (512x512)": rng.random((512, 512)) >= 0.25,
        "rooms 31x31 with doors (512x512)": rooms,
    }


def bench_other_maps(npairs: int, repeat: int) -> list[dict]:
    rows = []
    for name, free in other_maps().items():
        big = csgraph.connected_components(graph8(free), directed=False)[1]
        big = np.where(free.ravel(), big, -1)
        main_part = np.flatnonzero(big == np.bincount(big[big >= 0]).argmax())
        rng = np.random.default_rng(2)
        s, t = rng.choice(main_part, npairs), rng.choice(main_part, npairs)
        g = graph8(free)
        core.path_lengths(free, s[:40], t[:40])                 # JIT warm-up
        tb, ts = Best(), Best()
        for _ in range(repeat):
            w, c, got = timed(lambda: core.path_lengths(free, s, t))
            tb.add(w, c)
            w, c, ref = timed(lambda: [csgraph.dijkstra(g, indices=int(a), directed=False,
                                                        limit=float(x) + 1e-6)[b]
                                       for a, b, x in zip(s, t, got)])
            ts.add(w, c)
        assert np.allclose(got, ref, rtol=1e-12), name
        fp = np.pad(free, 1).astype(np.uint8).ravel()
        row = {"map": name, "pairs": npairs, "forest": bool(forest(fp, free.shape[1], 32)[0]),
               "batch_cpu_s": tb.cpu, "scipy_cpu_s": ts.cpu, "batch_vs_scipy": ts.cpu / tb.cpu,
               "load": load()}
        rows.append(row)
        print(json.dumps(row), file=sys.stderr)
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--pairs", type=int, default=20)
    ap.add_argument("--sample", type=int, default=200)
    ap.add_argument("--only", choices=["calls", "movingai"])
    ap.add_argument("--out", default=str(HERE / "results" / "calls.json"))
    args = ap.parse_args(argv)
    gxx = shutil.which("g++") or "c++"
    out = {"platform": platform.platform(), "python": platform.python_version(),
           "numpy": np.__version__, "cpus": os.cpu_count(), "repeat": args.repeat,
           "gxx": subprocess.run([gxx, "--version"], capture_output=True,
                                 text=True).stdout.splitlines()[0],
           "started": time.strftime("%H:%M UTC", time.gmtime())}
    with tempfile.TemporaryDirectory() as td:
        if args.only in (None, "calls"):
            out["calls"] = bench_calls(args.pairs, args.repeat, Path(td), gxx)
        if args.only in (None, "movingai"):
            out["movingai"] = bench_movingai(args.sample, args.repeat)
            out["other_maps"] = bench_other_maps(args.sample, args.repeat)
    out["finished"] = time.strftime("%H:%M UTC", time.gmtime())
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
