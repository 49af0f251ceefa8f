"""The micromouse route search against micromouse-maze-library's published times.

kerikun11's micromouse-maze-library cannot be built here (no network, no
copy of its source, no package ships it), so its figures are the ones
issue 40 published from a build on another machine: 9.5 us of CPU for a
16x16 maze without diagonals up to 118 us for 32x32 with diagonals.

For every contest maze shipped with robomaze and both modes of the
``kerikun`` profile (diagonals: the slalom graph; none: the library's runs
model), this times, in process CPU time (``time.thread_time``), as medians
of ``--repeat`` interleaved rounds, each round ``--inner`` calls averaged:

* ``heap``: the round-5 numba kernel (binary heap, float costs, scratch
  allocated per call) on prepared inputs;
* ``dial``: the new numba kernel (Dial's bucket queue, integer costs,
  scratch reused) on prepared inputs -- the search itself;
* ``cost``: :meth:`RouteSearch.cost` (walls -> half-cell graph, goal
  marks, the search) on a search object built once per maze;
* ``route``: :meth:`RouteSearch.route` (the same plus segments and cells);
* ``public``: :func:`fastest_route` (builds the search object per call);
* ``python``: :meth:`RouteSearch.route` with ``jit=False`` (the same search
  in plain Python; what ``robomaze mouse route`` runs).

Every variant must return the same cost. Writes
``benchmarks/results/mouse_route_native.json``.

Usage::

    python benchmarks/bench_mouse_route_native.py [--repeat 15] [--inner 50]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

import numpy as np

from robomaze.io import read_maze
from robomaze.micromouse import get_profile, wall_array
from robomaze.micromouse._route_kernels import runs_dial, runs_search, slalom_dial, \
    slalom_search
from robomaze.micromouse.route import RouteSearch, _tables, fastest_route, passable_grid

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "robomaze" / "data" / "samples" / "micromouse"
MAZES = ["16MM2013CX", "16MM2016CX", "16MM2017CX", "16MM2018CX", "16MM2019CX", "32MM2019HX"]
#: issue 40's published CPU times of the library (us), by (size, diagonals)
LIBRARY_US = {(16, False): 9.5, (32, True): 118.0}
PAD = 2


def _cases(maze, diagonals):
    """Callables of each variant for one maze and mode, and their costs (ms)."""
    prof = get_profile("kerikun")
    rows, cols = maze.shape
    walls = wall_array(maze)
    passable, horiz, width = passable_grid(walls)
    goal = np.zeros(passable.shape[0], np.uint8)
    pos = lambda r, c: (2 * r + 1 + PAD) * width + 2 * c + 1 + PAD  # noqa: E731
    for r, c in maze.goals:
        goal[pos(r, c)] = 1
    p0 = pos(*maze.start)
    n_max = 2 * max(rows, cols) + 2
    along, diag, turns, runs = _tables(prof, n_max)
    runs_model = not diagonals
    heads = [0] if not walls[maze.start[0], maze.start[1], 0] else \
        [2 * s for s in range(4) if not walls[maze.start[0], maze.start[1], s]]
    starts = np.array([p0 * 8 + h for h in heads], np.int64)
    rs = RouteSearch(rows, cols, diagonals=diagonals, profile=prof)
    py = RouteSearch(rows, cols, diagonals=diagonals, profile=prof, jit=False)
    out = {}
    if runs_model:
        def heap():
            e, dist, _ = runs_search(passable, width, p0, goal, runs)
            return float(dist[e]) * 2
    else:
        def heap():
            e, dist, _, _ = slalom_search(passable, horiz, width, starts, goal, along, diag,
                                          turns, True, -1.0)
            return float(dist[e]) * 2
    out["heap"] = heap
    rs.cost(walls, maze.start, maze.goals)         # sizes the pool

    def dial():
        rs._gen += 1
        if runs_model:
            e = runs_dial(passable, goal, rs._off, p0, rs._runs, rs._dist, rs._stamp,
                          rs._gen, rs._parent, rs._head, rs._tail, rs._occ, rs._enode, rs._enext)
        else:
            cv, cc, cm = rs._cand
            e = slalom_dial(passable, rs._horiz, goal, rs._off, starts, rs._along, rs._diag,
                            rs._turns, True, -1, rs._dist, rs._stamp, rs._gen, rs._parent,
                            rs._move, rs._head, rs._tail, rs._occ, rs._enode, rs._enext, cv, cc, cm)
        return float(rs._dist[e]) * 2
    out["dial"] = dial
    out["cost"] = lambda: rs.cost(walls, maze.start, maze.goals)
    out["route"] = lambda: rs.route(walls, maze.start, maze.goals).cost_ms
    out["public"] = lambda: fastest_route(maze, diagonals=diagonals, profile=prof).cost_ms
    out["python"] = lambda: py.route(walls, maze.start, maze.goals).cost_ms
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--inner", type=int, default=50)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" /
                                         "mouse_route_native.json"))
    args = ap.parse_args(argv)
    load0 = os.getloadavg()[0]
    cases = {}
    for name in MAZES:
        maze = read_maze(SAMPLES / f"{name}.maze")
        for d in (False, True):
            fns = _cases(maze, d)
            costs = {k: f() for k, f in fns.items()}     # warm-up, and the costs agree
            if len(set(costs.values())) != 1:
                raise SystemExit(f"{name} diagonals={d}: costs differ {costs}")
            cases[(name, d)] = (fns, costs["dial"])
    times = {(c, k): [] for c in cases for k in cases[c][0]}
    for _ in range(args.repeat):
        for c, (fns, _) in cases.items():
            for k, f in fns.items():
                n = args.inner if k != "python" else max(1, args.inner // 25)
                t0 = time.thread_time()
                for _ in range(n):
                    f()
                times[(c, k)].append((time.thread_time() - t0) / n)
    load1 = os.getloadavg()[0]
    rows = []
    print(f"load {load0:.2f} -> {load1:.2f}")
    print("| maze | diagonals | cost (ms) | heap us | dial us | cost() us | route() us | "
          "public us | python us | library us | dial vs library |")
    for (name, d), (fns, cost) in cases.items():
        med = {k: 1e6 * statistics.median(times[((name, d), k)]) for k in fns}
        size = 32 if name.startswith("32") else 16
        lib = LIBRARY_US.get((size, d))
        ratio = f"{lib / med['dial']:.1f}x" if lib else "-"
        print(f"| {name} | {'yes' if d else 'no'} | {cost:g} | {med['heap']:.1f} | "
              f"{med['dial']:.1f} | {med['cost']:.1f} | {med['route']:.1f} | "
              f"{med['public']:.1f} | {med['python']:.0f} | {lib or '-'} | {ratio} |")
        rows.append({"maze": name, "diagonals": d, "cost_ms": cost, "library_us": lib,
                     **{f"{k}_us": v for k, v in med.items()}})
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({"load": [load0, load1], "repeat": args.repeat,
                                          "inner": args.inner, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
