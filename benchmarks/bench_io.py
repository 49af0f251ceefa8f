"""I/O and micromouse benchmarks.

1. MovingAI: every problem of maze512-1-0.scen (or every k-th with
   ``--every k``) planned with robomaze's 8-connected A* (no corner cutting)
   and with the lengths-only batch kernel, against the stored optimal
   lengths, and a sample side by side with scipy.sparse.csgraph.dijkstra on
   the same 8-connected graph.
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
from robomaze.io.movingai_run import run_scenarios
from robomaze.micromouse import floodfill

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / ".." / "shared" / "data"


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


def bench_movingai(every: int, sample: int) -> dict:
    grid = read_movingai(DATA / "movingai" / "maze512-1-0.map")
    probs = read_scen(DATA / "movingai" / "maze512-1-0.map.scen")
    run_scenarios(grid, probs[:3])                      # JIT warm-up
    chosen = probs[::every]
    rep = run_scenarios(grid, chosen)
    out = {"problems": rep.n, "agree": rep.n_agree, "seconds": rep.seconds,
           "ms_per_problem": 1000 * rep.seconds / rep.n, "every": every}
    run_scenarios(grid, probs[:3], method="batch")      # JIT warm-up
    rb = run_scenarios(grid, chosen, method="batch")
    out.update({"batch_agree": rb.n_agree, "batch_seconds": rb.seconds,
                "batch_ms_per_problem": 1000 * rb.seconds / rb.n})
    # Side by side on an evenly spread sample.
    pick = [probs[i] for i in np.linspace(0, len(probs) - 1, sample).astype(int)]
    g = graph8(grid.free)
    cols = grid.cols
    t0 = time.perf_counter()
    sc = []
    for p in pick:
        d = csgraph.dijkstra(g, indices=p.start[0] * cols + p.start[1], directed=False,
                             limit=p.optimal + 1e-6)
        sc.append(d[p.goal[0] * cols + p.goal[1]])
    t_scipy = time.perf_counter() - t0
    rs = run_scenarios(grid, pick)
    out.update({"sample": sample, "robomaze_sample_s": rs.seconds, "scipy_sample_s": t_scipy,
                "scipy_agree": int(np.sum(np.abs(np.array(sc) - rs.optimal)
                                          <= 1e-6 * np.maximum(rs.optimal, 1))),
                "robomaze_sample_agree": rs.n_agree})
    return out


def bench_micromouse() -> dict:
    files = sorted((DATA / "micromouse").glob("*.maze"))
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
    grid = read_movingai(DATA / "movingai" / "maze512-1-0.map")
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
    args = ap.parse_args()
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        res = {"movingai": bench_movingai(args.every, args.sample),
               "micromouse": bench_micromouse(), "formats_512x512": bench_formats(Path(d))}
    print(json.dumps(res, indent=2))
    out = ROOT / "benchmarks" / "results" / "io.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(res, indent=2) + "\n")


if __name__ == "__main__":
    main()
