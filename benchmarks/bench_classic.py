"""Benchmark robomaze's classic maze solvers, side by side with mazelib 0.9.16.

For every classic solver (``robomaze.plan.classic.CLASSIC_SOLVERS``) this
times, after JIT warm-up,

* a ``BIG x BIG`` perfect maze widened with one-cell corridors (default
  1000x1000, a 2001x2001 grid) and a ``WIDE x WIDE`` maze with corridors of
  3 cells (default 300x300, a 1201x1201 grid), corner to corner; reported:
  the public call (validation, walk, route extraction and the ``Path`` with
  its clearance/collision check) and ``Path.time`` (everything but the
  ``Path``'s safety measurement); walk and route lengths in grid moves, for
  the default route and for ``route="shortest_known"``, and the solution's
  length in grid moves between block centres (``solution_length * (k+1)``);
* mazelib's ``Tremaux``, ``BacktrackingSolver`` and ``RandomMouse`` against
  our ``tremaux``, ``dfs_backtracking`` and ``random_mouse`` on the same
  ``SMALL x SMALL`` maze matrix (``MOUSE x MOUSE`` for the random mice, whose
  walks grow fast), same start and goal cells, in the same run.

Times are the best (minimum) over repeats, wall clock, for both libraries
alike (a shared machine: the minimum is the least disturbed run). The mazes
come from ``robomaze.generate`` ("backtracker", seeded). Prints a table and
writes ``benchmarks/results/classic.json``.

Usage::

    python benchmarks/bench_classic.py [--big 1000] [--wide 300] [--small 100]
        [--mouse 20] [--repeat 3] [--no-mazelib] [--out PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from pathlib import Path

import numpy as np

from robomaze.generate import generate
from robomaze.grid import widen
from robomaze.plan import plan
from robomaze.plan.classic import CLASSIC_SOLVERS

SEEDED = ("dfs_backtracking", "random_mouse")
#: Our solver -> mazelib solver class (mazelib.solve.<name>.<name>).
MAZELIB = {"tremaux": "Tremaux", "dfs_backtracking": "BacktrackingSolver",
           "random_mouse": "RandomMouse"}


def _best(fn, repeat: int):
    """Minimum wall time over ``repeat`` calls, and the result of that call."""
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        res = fn()
        dt = time.perf_counter() - t0
        if dt < best:
            best, out = dt, res
    return best, out


def _ours(name: str, grid, start, goal, **kw):
    if name in SEEDED:
        kw["rng"] = 1
    if name == "random_mouse":
        kw["max_steps"] = 50_000_000
    return lambda: plan(grid, start, goal, method=name, **kw)


def _scale_rows(label: str, maze, corridor: int, repeat: int) -> list[dict]:
    g = widen(maze, corridor=corridor, wall=1)
    s, t = g.start_goal()
    rows = []
    for name in CLASSIC_SOLVERS:
        if name == "random_mouse":
            continue  # a random walk over millions of cells is not a benchmark
        dt, p = _best(_ours(name, g, s, t), repeat)
        known = p if name == "dead_end_filling" else \
            _ours(name, g, s, t, route="shortest_known")()
        row = {"case": label, "grid": list(g.shape), "solver": name, "t_call_s": dt,
               "t_solve_s": p.time, "walk_moves": int(len(p.walk)) - 1,
               "route_moves": int(len(p.cells)) - 1,
               "known_route_moves": int(len(known.cells)) - 1,
               "solution_grid_moves": maze.solution_length() * (corridor + 1)}
        rows.append(row)
        print(f"{label:10s} {g.shape[0]:5d}^2 {name:17s} {dt:8.3f} {p.time:8.3f} "
              f"{row['walk_moves']:10d} {row['route_moves']:9d} {row['known_route_moves']:9d} "
              f"{row['solution_grid_moves']:9d}")
        sys.stdout.flush()
    return rows


def _mazelib_solver(cls_name: str):
    import importlib

    mod = importlib.import_module(f"mazelib.solve.{cls_name}")
    return getattr(mod, cls_name)()


def _peer_rows(size: int, names, repeat: int) -> list[dict]:
    maze = generate("backtracker", size, size, rng=2)
    g = widen(maze)
    s, t = (1, 1), (2 * size - 1, 2 * size - 1)
    matrix = maze.to_matrix().astype(np.int8)
    rows = []
    for name in names:
        dt, p = _best(_ours(name, g, s, t, sight=False), repeat)
        solver = _mazelib_solver(MAZELIB[name])
        random.seed(1)
        np.random.seed(1)  # mazelib draws from the global generators
        t_ml, sol = _best(lambda: solver.solve(matrix, s, t), repeat)
        last = tuple(sol[0][-1])
        row = {"size": size, "solver": name, "t_ours_s": dt, "mazelib": MAZELIB[name],
               "t_mazelib_s": t_ml, "ratio": t_ml / dt, "walk_ours": int(len(p.walk)),
               "mazelib_reached_goal": abs(last[0] - t[0]) + abs(last[1] - t[1]) <= 1}
        rows.append(row)
        print(f"{size:4d}x{size:<4d} {name:17s} {1e3 * dt:9.2f} {MAZELIB[name]:>19s} "
              f"{1e3 * t_ml:10.1f} {row['ratio']:8.0f}")
        sys.stdout.flush()
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--big", type=int, default=1000)
    ap.add_argument("--wide", type=int, default=300)
    ap.add_argument("--small", type=int, default=100)
    ap.add_argument("--mouse", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-mazelib", action="store_true")
    ap.add_argument("--out", type=Path,
                    default=Path(__file__).resolve().parent / "results" / "classic.json")
    args = ap.parse_args(argv)

    warm = widen(generate("backtracker", 4, 4, rng=0), corridor=2)
    for name in CLASSIC_SOLVERS:  # JIT warm-up (and numba cache load)
        _ours(name, warm, *warm.start_goal())()

    print(f"{'case':10s} {'grid':>7s} {'solver':17s} {'call s':>8s} {'solve s':>8s} "
          f"{'walk':>10s} {'route':>9s} {'known':>9s} {'solution':>9s}")
    scale = _scale_rows("thin k=1", generate("backtracker", args.big, args.big, rng=1), 1,
                        args.repeat)
    scale += _scale_rows("wide k=3", generate("backtracker", args.wide, args.wide, rng=1), 3,
                         args.repeat)

    peers, mazelib_version = [], None
    if not args.no_mazelib:
        try:
            from importlib.metadata import version

            mazelib_version = version("mazelib")
        except ImportError:
            print("mazelib not installed: pip install mazelib==0.9.16 (comparison skipped)")
    if mazelib_version:
        print(f"\n{'maze':9s} {'solver':17s} {'ours ms':>9s} {'mazelib':>19s} {'ml ms':>10s} "
              f"{'ratio':>8s}")
        peers = _peer_rows(args.small, ["tremaux", "dfs_backtracking"], args.repeat)
        peers += _peer_rows(args.mouse, ["random_mouse"], args.repeat)

    meta = {"python": platform.python_version(), "machine": platform.machine(),
            "cpus": os.cpu_count(), "numpy": np.__version__, "mazelib": mazelib_version,
            "load_average": os.getloadavg()[0],
            "note": "best-of-repeats wall times; shared machine, other processes running"}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"meta": meta, "scale": scale, "peers": peers}, indent=2))
    print(f"\nwrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
