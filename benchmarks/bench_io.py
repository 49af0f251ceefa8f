"""I/O and micromouse benchmarks.

1. MovingAI: every problem of the packaged maze512-1-0.scen (12,120; or
   every k-th with ``--every k``) with the lengths-only batch
   (``run_scenarios(method="batch")``, the core engine's landmark A*) and
   with the batch kernel as it was before the core engine
   (``benchmarks/ref_movingai_batch.py``), interleaved, ``--repeat`` times
   (median CPU seconds); all lengths checked against the stored optima. Then
   ``--sample`` problems spread over the buckets side by side with
   ``scipy.sparse.csgraph.dijkstra`` (one call per problem, ``limit`` = the
   optimum) on the same 8-connected graph. ``--per-problem`` adds the
   public ``plan()`` per problem (slow: minutes).
2. Micromouse: flood-fill search + proof + return + fast run on all 80
   sample mazes.
3. Readers/writers: the 512x512 map as MovingAI text, ROS YAML+PGM, PNG, npy.

Writes ``benchmarks/results/io.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph

from robomaze.io import read_grid, read_maze, read_movingai, read_scen, write_grid
from robomaze.bench.movingai import run_scenarios
from robomaze.micromouse import floodfill

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / ".." / "shared" / "data"
SAMPLES = ROOT / "robomaze" / "data" / "samples"
MAI = SAMPLES / "movingai"


def graph8(free: np.ndarray) -> sp.csr_matrix:
    """The MovingAI 8-connected graph (no corner cutting) as a sparse matrix."""
    rows, cols = free.shape
    idx = np.arange(rows * cols).reshape(rows, cols)
    a, b, w = [], [], []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        r0, r1 = 0, rows - dr
        c0, c1 = max(0, -dc), cols - max(0, dc)
        src = (slice(r0, r1), slice(c0, c1))
        dst = (slice(r0 + dr, r1 + dr), slice(c0 + dc, c1 + dc))
        ok = free[src] & free[dst]
        if dr and dc:
            ok &= free[r0:r1, c0 + dc:c1 + dc] & free[r0 + dr:r1 + dr, c0:c1]
        a.append(idx[src][ok])
        b.append(idx[dst][ok])
        w.append(np.full(int(ok.sum()), math.sqrt(2) if dr and dc else 1.0))
    a, b, w = np.concatenate(a), np.concatenate(b), np.concatenate(w)
    n = rows * cols
    return sp.csr_matrix((np.concatenate([w, w]), (np.concatenate([a, b]),
                                                   np.concatenate([b, a]))), shape=(n, n))


def bench_movingai(every: int, sample: int, repeat: int, per_problem: bool) -> dict:
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from ref_movingai_batch import astar8_lengths as before

    grid = read_movingai(MAI / "maze512-1-0.map")
    probs = read_scen(MAI / "maze512-1-0.map.scen")
    chosen = probs[::every]
    cols = grid.cols
    f8 = np.ascontiguousarray(grid.free, dtype=np.uint8).ravel()
    starts = np.array([p.start[0] * cols + p.start[1] for p in chosen], np.int64)
    goals = np.array([p.goal[0] * cols + p.goal[1] for p in chosen], np.int64)
    opt = np.array([p.optimal for p in chosen])
    run_scenarios(grid, probs[:40], method="batch")     # JIT warm-up (landmarks too)
    before(f8, grid.rows, cols, starts[:2], goals[:2])
    now_cpu, before_cpu = [], []
    for _ in range(repeat):
        c0 = time.process_time()
        rb = run_scenarios(grid, chosen, method="batch")
        now_cpu.append(time.process_time() - c0)
        c0 = time.process_time()
        old = before(f8, grid.rows, cols, starts, goals)
        before_cpu.append(time.process_time() - c0)
    agree_before = int(np.sum(np.abs(old - opt) <= 1e-6 * np.maximum(opt, 1)))
    out = {"problems": rb.n, "every": every, "repeat": repeat,
           "batch_agree": rb.n_agree, "batch_cpu_s": float(np.median(now_cpu)),
           "before_agree": agree_before, "before_cpu_s": float(np.median(before_cpu)),
           "batch_speedup": float(np.median(before_cpu) / np.median(now_cpu)),
           "batch_cpu_runs": now_cpu, "before_cpu_runs": before_cpu}
    if per_problem:
        run_scenarios(grid, probs[:3])                  # JIT warm-up
        rep = run_scenarios(grid, chosen)
        out.update({"plan_agree": rep.n_agree, "plan_seconds": rep.seconds})
    # Side by side with scipy on an evenly spread sample.
    pick = [probs[i] for i in np.linspace(0, len(probs) - 1, sample).astype(int)]
    g = graph8(grid.free)
    sc_cpu, rs_cpu = [], []
    for _ in range(repeat):
        c0 = time.process_time()
        sc = []
        for p in pick:
            d = csgraph.dijkstra(g, indices=p.start[0] * cols + p.start[1], directed=False,
                                 limit=p.optimal + 1e-6)
            sc.append(d[p.goal[0] * cols + p.goal[1]])
        sc_cpu.append(time.process_time() - c0)
        c0 = time.process_time()
        rs = run_scenarios(grid, pick, method="batch")
        rs_cpu.append(time.process_time() - c0)
    out.update({"sample": sample, "batch_sample_cpu_s": float(np.median(rs_cpu)),
                "scipy_sample_cpu_s": float(np.median(sc_cpu)),
                "batch_vs_scipy": float(np.median(sc_cpu) / np.median(rs_cpu)),
                "scipy_agree": int(np.sum(np.abs(np.array(sc) - rs.optimal)
                                          <= 1e-6 * np.maximum(rs.optimal, 1))),
                "batch_sample_agree": rs.n_agree})
    return out


def bench_micromouse() -> dict:
    folder = DATA / "micromouse" if (DATA / "micromouse").is_dir() else SAMPLES / "micromouse"
    files = sorted(folder.glob("*.maze"))
    mazes = [read_maze(f) for f in files]
    floodfill(mazes[0])                                 # JIT warm-up
    t0 = time.perf_counter()
    ok = proven = 0
    moves = []
    for m in mazes:
        r = floodfill(m)
        ok += r.success
        proven += r.proven and r.route_length == m.solution_length()
        if r.success:
            moves.append(r.moves / max(1, r.route_length))
    return {"mazes": len(mazes), "solved": ok, "proven_optimal": proven,
            "seconds": time.perf_counter() - t0,
            "median_search_moves_per_route_cell": float(np.median(moves))}


def bench_formats(tmp: Path) -> dict:
    grid = read_movingai(MAI / "maze512-1-0.map")
    out = {}
    for name in ("g.map", "g.yaml", "g.png", "g.npy"):
        t0 = time.perf_counter()
        write_grid(grid, tmp / name)
        tw = time.perf_counter() - t0
        t0 = time.perf_counter()
        back = read_grid(tmp / name)
        tr = time.perf_counter() - t0
        assert back.occupied.tobytes() == grid.occupied.tobytes()
        out[name.split(".")[1]] = {"write_ms": 1000 * tw, "read_ms": 1000 * tr}
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--every", type=int, default=1, help="run every k-th MovingAI problem")
    ap.add_argument("--sample", type=int, default=200, help="problems timed against scipy")
    ap.add_argument("--repeat", type=int, default=3, help="interleaved repetitions (median)")
    ap.add_argument("--per-problem", action="store_true", help="also time plan() per problem")
    ap.add_argument("--only-movingai", action="store_true")
    args = ap.parse_args()
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        res = {"movingai": bench_movingai(args.every, args.sample, args.repeat, args.per_problem)}
        if not args.only_movingai:
            res.update(micromouse=bench_micromouse(), formats_512x512=bench_formats(Path(d)))
    print(json.dumps(res, indent=2))
    out = ROOT / "benchmarks" / "results" / "io.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(res, indent=2) + "\n")


if __name__ == "__main__":
    main()
