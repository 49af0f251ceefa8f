"""Benchmark robomaze's planners side by side with the peers a user would pick.

On widened mazes (an ``N x N`` maze, corridor 3, wall 1, so a
``4N+1``-square grid; by default N = 1000 and 2000, i.e. 4001 x 4001 and
8001 x 8001 grids) this times, in one run:

* the full wavefront field from the goal (``wavefront_field``, 4-connected,
  the public call including validation and C-space) against

  - a plain C BFS (``benchmarks/bfs_ref.c``, compiled here with
    ``gcc -O3 -march=native`` into a temporary directory; it reads the same
    free mask from a raw file and times itself, excluding I/O) -- target:
    robomaze >= 0.6x the C speed;
  - ``scipy.sparse.csgraph.shortest_path(unweighted=True)`` including the
    construction of the CSR grid graph -- target: robomaze >= 10x faster;
  - ``skimage.graph.MCP`` (``find_costs`` from the goal, unit costs,
    4-connected) -- target: robomaze >= 10x faster;

  scipy and MCP run only on grids up to ``--peer-max`` cells a side (default
  4001): on the 8001 grid the scipy graph alone needs several GB, which
  this shared machine cannot spare. All fields are checked equal.

* single-pair A* (4-connected) from the maze start to the goal: robomaze's
  public ``astar`` (validation, search, path and its footprint-clearance
  measures included) against ``pyastar2d.astar_path`` on the same grid
  (obstacles as ``inf`` weights, prepared outside the timing) -- target:
  at least as fast. Path lengths are checked equal.

Times are the best (minimum) of ``--repeat`` wall-clock runs
(``time.perf_counter``), the same for every contender, after JIT warm-up.
Prints a table and writes ``benchmarks/results/plan.json``.

Usage::

    python benchmarks/bench_plan.py [--sizes 1000 2000] [--repeat 3]
        [--peer-max 4001] [--seed 1] [--out PATH]
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

from robomaze import widen
from robomaze.plan import astar, wavefront_field
from robomaze.plan import _kernels as K

HERE = Path(__file__).resolve().parent


def best_time(fn, repeat: int):
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def make_maze(n: int, seed: int):
    from robomaze.generate import generate

    return generate("backtracker", n, n, rng=seed)


def grid_graph(free: np.ndarray):
    import scipy.sparse as sp

    R, C = free.shape
    idx = np.arange(R * C, dtype=np.int64).reshape(R, C)
    e = free[:, :-1] & free[:, 1:]
    s = free[:-1, :] & free[1:, :]
    a = np.concatenate([idx[:, :-1][e], idx[:-1, :][s]])
    b = np.concatenate([idx[:, 1:][e], idx[1:, :][s]])
    w = np.ones(a.size, np.int8)
    return sp.csr_matrix((w, (a, b)), shape=(R * C, R * C))


def scipy_field(free, goal):
    from scipy.sparse import csgraph

    d = csgraph.shortest_path(grid_graph(free), unweighted=True, directed=False,
                              indices=goal[0] * free.shape[1] + goal[1])
    return d


def mcp_field(free, goal):
    from skimage.graph import MCP

    costs = np.where(free, 1.0, -1.0)       # negative = impassable
    m = MCP(costs, fully_connected=False)
    cum, _ = m.find_costs([goal])
    return cum


def c_bfs(exe: Path, tmp: Path, free: np.ndarray, goal, repeat: int):
    raw = tmp / "grid.raw"
    np.ascontiguousarray(free, dtype=np.uint8).tofile(raw)
    out = subprocess.run([str(exe), str(raw), str(free.shape[0]), str(free.shape[1]),
                          str(goal[0] * free.shape[1] + goal[1]), str(repeat)],
                         check=True, capture_output=True, text=True).stdout.split()
    raw.unlink()
    return float(out[0]), int(out[1]), int(out[2]), int(out[3])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--peer-max", type=int, default=4001)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=str(HERE / "results" / "plan.json"))
    args = ap.parse_args(argv)

    gcc = shutil.which("gcc")
    if gcc is None:
        print("gcc not found: the C reference cannot be built", file=sys.stderr)
        return 1
    try:
        import pyastar2d
    except ImportError:
        pyastar2d = None
        print("pyastar2d not installed (pip install pyastar2d): A* comparison skipped",
              file=sys.stderr)

    # JIT warm-up on a small grid so no timing includes compilation
    small = widen(make_maze(8, 0), corridor=3, wall=1)
    s0, g0 = small.start_goal()
    wavefront_field(small, g0)
    astar(small, s0, g0)

    rows_out = []
    with tempfile.TemporaryDirectory() as td:
        tmp = Path(td)
        exe = tmp / "bfs_ref"
        subprocess.run([gcc, "-O3", "-march=native", "-o", str(exe), str(HERE / "bfs_ref.c")],
                       check=True)
        for n in args.sizes:
            t0 = time.perf_counter()
            maze = make_maze(n, args.seed)
            grid = widen(maze, corridor=3, wall=1)
            t_build = time.perf_counter() - t0
            start, goal = grid.start_goal()
            free = grid.free
            side = grid.rows
            row = {"maze": n, "grid": f"{grid.rows}x{grid.cols}", "free_cells": int(free.sum()),
                   "t_build_s": t_build}

            t_ours, field = best_time(lambda: wavefront_field(grid, goal), args.repeat)
            f8 = np.ascontiguousarray(free, dtype=np.uint8).ravel()
            gi = goal[0] * grid.cols + goal[1]
            t_kernel, _ = best_time(lambda: K.bfs_field(f8, grid.rows, grid.cols, gi, False),
                                    args.repeat)
            row.update(t_wavefront_s=t_ours, t_wavefront_kernel_s=t_kernel)

            t_c, reached, total, maxd = c_bfs(exe, tmp, free, goal, args.repeat)
            reach = field >= 0
            assert reached == int(reach.sum()) and total == int(field[reach].sum(dtype=np.int64)) \
                and maxd == int(field.max()), "C BFS and robomaze fields differ"
            row.update(t_c_bfs_s=t_c, speed_vs_c=t_c / t_ours)

            if side <= args.peer_max:
                t_sp, d = best_time(lambda: scipy_field(free, goal), 1)
                ref = np.where(np.isinf(d), -1, d).reshape(grid.shape)
                assert np.array_equal(ref[free], field[free]), "scipy field differs"
                row.update(t_scipy_s=t_sp, ratio_scipy=t_sp / t_ours)
                del d, ref
                t_mcp, cum = best_time(lambda: mcp_field(free, goal), 1)
                ok = np.isfinite(cum) & free
                # MCP counts the cost of the start cell too
                assert np.array_equal(cum[ok].astype(np.int64) - 1, field[ok]), "MCP field differs"
                row.update(t_mcp_s=t_mcp, ratio_mcp=t_mcp / t_ours)
                del cum
            del field

            t_astar, p = best_time(lambda: astar(grid, start, goal), args.repeat)
            row.update(t_astar_s=t_astar, astar_length=p.length, astar_expanded=p.expanded)
            if pyastar2d is not None:
                w = np.where(free, np.float32(1.0), np.float32(np.inf)).astype(np.float32)
                t_py, q = best_time(lambda: pyastar2d.astar_path(w, start, goal,
                                                                 allow_diagonal=False),
                                    args.repeat)
                assert q is not None and len(q) - 1 == int(round(p.length)), \
                    "pyastar2d and robomaze A* lengths differ"
                row.update(t_pyastar2d_s=t_py, ratio_pyastar2d=t_py / t_astar)
                del w, q
            del p
            rows_out.append(row)
            print(json.dumps({k: (round(v, 4) if isinstance(v, float) else v)
                              for k, v in row.items()}), file=sys.stderr)

    hdr = (f"{'grid':>11} {'ours s':>8} {'kernel s':>8} {'C s':>8} {'vs C':>6} {'scipy s':>8} "
           f"{'x':>6} {'MCP s':>8} {'x':>6} | {'A* s':>7} {'pyastar s':>9} {'x':>6}")
    print(hdr)
    for r in rows_out:
        def f(k, fmt="8.3f"):
            return format(r[k], fmt) if k in r else format("-", ">" + fmt.split(".")[0])
        print(f"{r['grid']:>11} {f('t_wavefront_s')} {f('t_wavefront_kernel_s')} {f('t_c_bfs_s')} "
              f"{f('speed_vs_c', '6.2f')} {f('t_scipy_s')} {f('ratio_scipy', '6.1f')} "
              f"{f('t_mcp_s')} {f('ratio_mcp', '6.1f')} | {f('t_astar_s', '7.3f')} "
              f"{f('t_pyastar2d_s', '9.3f')} {f('ratio_pyastar2d', '6.2f')}")

    meta = {"python": sys.version.split()[0], "platform": platform.platform(),
            "cpu_count": os.cpu_count(), "numpy": np.__version__,
            "gcc": subprocess.run([gcc, "--version"], capture_output=True,
                                  text=True).stdout.splitlines()[0],
            "repeat": args.repeat, "seed": args.seed, "generator": "backtracker",
            "corridor": 3, "wall": 1, "peer_max": args.peer_max,
            "pyastar2d": getattr(pyastar2d, "__version__", "installed") if pyastar2d else None}
    try:
        import scipy
        import skimage
        meta.update(scipy=scipy.__version__, skimage=skimage.__version__)
    except ImportError:
        pass
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"meta": meta, "results": rows_out}, indent=2) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
