"""The micromouse route search against micromouse-maze-library's published times.

kerikun11's micromouse-maze-library cannot be built here (no network, so no
checkout of its source and no package that ships it), so its figures are
the ones issue 40 published from a build on another machine: 9.5 us of CPU
for a 16x16 maze without diagonals and 118 us for 32x32 with diagonals.

For every 16x16 and 32x32 contest maze shipped with robomaze and both modes
of the ``kerikun`` profile (diagonals: the slalom graph; none: the
library's runs model), this times, in thread CPU time (``time.thread_time``),
as medians of ``--repeat`` interleaved rounds, each round ``--inner`` calls
averaged:

* ``heap``: the round-5 numba kernel (binary heap, float costs, scratch
  allocated per call) on a prepared graph;
* ``base``: with ``--baseline REF``, the Dial kernels of ``_route_dial.py``
  at git revision ``REF`` (round 6: FIFO entry pool, every straight
  relaxed), compiled here, on a prepared graph;
* ``kernel``: this tree's compiled entry on a graph that already holds the
  walls (the header's fill flag off) -- the search alone;
* ``search``: the same entry writing the walls in first: one call per
  search, what a mouse runs after every cell (the figure held against the
  library, whose search reads its own wall store);
* ``unpruned``: ``search`` with the straight-run pruning switched off;
* ``cost``: :meth:`RouteSearch.cost` (argument checks, the entry);
* ``route``: :meth:`RouteSearch.route` (the same plus segments and cells);
* ``public``: :func:`fastest_route` (builds the search object per call);
* ``python``: :meth:`RouteSearch.route` with ``jit=False`` (the same search
  in plain Python; what ``robomaze mouse route`` runs).

Every variant must return the same cost. Writes
``benchmarks/results/mouse_route_native.json``.

Usage::

    python benchmarks/bench_mouse_route_native.py [--repeat 15] [--inner 50]
        [--baseline main]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from robomaze.io import read_maze
from robomaze.micromouse import _route_dial as rd
from robomaze.micromouse import get_profile, wall_array
from robomaze.micromouse._route_kernels import dial_entry, runs_search, slalom_search
from robomaze.micromouse.route import RouteSearch, _tables, fastest_route, passable_grid

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "robomaze" / "data" / "samples" / "micromouse"
MAZES = ["16MM2013CX", "16MM2016CX", "16MM2017CX", "16MM2018CX", "16MM2019CX", "32MM2019HX"]
#: issue 40's published CPU times of the library (us), by (size, diagonals)
LIBRARY_US = {(16, False): 9.5, (32, True): 118.0}
PAD = 2


def _baseline(ref: str):
    """The runs/slalom Dial kernels of ``_route_dial.py`` at git ``ref``, compiled."""
    from numba import njit
    src = subprocess.run(["git", "-C", str(ROOT), "show",
                          f"{ref}:robomaze/micromouse/_route_dial.py"],
                         capture_output=True, text=True, check=True).stdout
    path = Path(tempfile.mkdtemp()) / "_route_dial_base.py"
    path.write_text(src)
    spec = importlib.util.spec_from_file_location("_route_dial_base", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return njit(mod.runs_dial), njit(mod.slalom_dial)


def _cases(maze, diagonals, base):
    """Callables of each variant for one maze and mode."""
    prof = get_profile("kerikun")
    rows, cols = maze.shape
    walls = wall_array(maze)
    flat = walls.reshape(-1)
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
    unit = prof.unit_ms
    out = {}
    if runs_model:
        def heap():
            e, dist, _ = runs_search(passable, width, p0, goal, runs)
            return float(dist[e]) * unit
    else:
        def heap():
            e, dist, _, _ = slalom_search(passable, horiz, width, starts, goal, along, diag,
                                          turns, True, -1.0)
            return float(dist[e]) * unit
    out["heap"] = heap
    if base is not None:
        out["base"] = _base_case(base, runs_model, passable, horiz, goal, width, p0, starts,
                                 along, diag, turns, runs, unit)
    entry = dial_entry
    objs = {}
    for name, fill, prune in (("kernel", 0, 1), ("search", 1, 1), ("unpruned", 1, 0)):
        rs = RouteSearch(rows, cols, diagonals=diagonals, profile=prof)
        rs.cost(walls, maze.start, maze.goals)     # writes the walls, start and goals
        rs._wl[rd.H_FILL] = fill
        rs._wl[rd.H_PRUNE] = prune
        objs[name] = rs

        def run(rs=rs):
            e = entry(flat, rs._ws, rs._wl)
            return float(rs._dist[e]) * unit
        out[name] = run
    rs = RouteSearch(rows, cols, diagonals=diagonals, profile=prof)
    py = RouteSearch(rows, cols, diagonals=diagonals, profile=prof, jit=False)
    out["cost"] = lambda: rs.cost(walls, maze.start, maze.goals)
    out["route"] = lambda: rs.route(walls, maze.start, maze.goals).cost_ms
    out["public"] = lambda: fastest_route(maze, diagonals=diagonals, profile=prof).cost_ms
    out["python"] = lambda: py.route(walls, maze.start, maze.goals).cost_ms
    return out


def _base_case(base, runs_model, passable, horiz, goal, width, p0, starts, along, diag, turns,
               runs, unit):
    """The round-6 kernel with its own scratch, as round 6's RouteSearch kept it."""
    runs_dial, slalom_dial = base
    n_states = passable.shape[0] * (1 if runs_model else 8)
    top = max(runs[1:].max(), along.max(), diag.max(), turns.max())
    nb = max(64, 1 << int(top).bit_length())
    a = np.empty
    off = np.array([-width, 1, width, -1] if runs_model else
                   [-width, -width + 1, 1, width + 1, width, width - 1, -1, -width - 1],
                   np.int64)
    s = {"dist": a(n_states, np.int32), "stamp": np.zeros(n_states, np.int32),
         "parent": a(n_states, np.int32), "move": a(n_states, np.int8),
         "head": np.full(nb, -1, np.int32), "tail": np.full(nb, -1, np.int32),
         "occ": np.zeros(nb >> 5, np.int64), "enode": a(1 << 14, np.int32),
         "enext": a(1 << 14, np.int32)}
    ncand = len(along) + len(diag) + 16
    cand = (a(ncand, np.int64), a(ncand, np.int64), a(ncand, np.int64))
    ints = [np.asarray(t, np.int64) for t in (along, diag, turns, runs)]
    gen = [0]

    def run():
        gen[0] += 1
        if runs_model:
            e = runs_dial(passable, goal, off, p0, ints[3], s["dist"], s["stamp"], gen[0],
                          s["parent"], s["head"], s["tail"], s["occ"], s["enode"], s["enext"])
        else:
            e = slalom_dial(passable, horiz, goal, off, starts, ints[0], ints[1], ints[2], True,
                            -1, s["dist"], s["stamp"], gen[0], s["parent"], s["move"],
                            s["head"], s["tail"], s["occ"], s["enode"], s["enext"], *cand)
        return float(s["dist"][e]) * unit
    return run


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--inner", type=int, default=50)
    ap.add_argument("--baseline", default=None,
                    help="git revision whose Dial kernels to time too (e.g. main)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" /
                                         "mouse_route_native.json"))
    args = ap.parse_args(argv)
    base = _baseline(args.baseline) if args.baseline else None
    load0 = os.getloadavg()
    cases = {}
    for name in MAZES:
        maze = read_maze(SAMPLES / f"{name}.maze")
        for d in (False, True):
            fns = _cases(maze, d, base)
            costs = {k: f() for k, f in fns.items()}     # warm-up, and the costs agree
            if len(set(costs.values())) != 1:
                raise SystemExit(f"{name} diagonals={d}: costs differ {costs}")
            cases[(name, d)] = (fns, costs["search"])
    times = {(c, k): [] for c in cases for k in cases[c][0]}
    for _ in range(args.repeat):
        for c, (fns, _) in cases.items():
            for k, f in fns.items():
                n = args.inner if k != "python" else max(1, args.inner // 25)
                t0 = time.thread_time()
                for _ in range(n):
                    f()
                times[(c, k)].append((time.thread_time() - t0) / n)
    load1 = os.getloadavg()
    rows = []
    cols = list(next(iter(cases.values()))[0])
    print(f"load {load0[0]:.2f} -> {load1[0]:.2f} (1-min averages); python "
          f"{sys.version.split()[0]}")
    print("| maze | diagonals | cost (ms) | " + " | ".join(f"{k} us" for k in cols) +
          " | library us | library / search |")
    print("|---|---|---:|" + "---:|" * len(cols) + "---:|---:|")
    for (name, d), (fns, cost) in cases.items():
        med = {k: 1e6 * statistics.median(times[((name, d), k)]) for k in fns}
        size = 32 if name.startswith("32") else 16
        lib = LIBRARY_US.get((size, d))
        ratio = f"{lib / med['search']:.2f}x" if lib else "-"
        cells = " | ".join(f"{med[k]:.0f}" if med[k] >= 100 else f"{med[k]:.1f}"
                           for k in cols)
        print(f"| {name} | {'yes' if d else 'no'} | {cost:g} | {cells} | {lib or '-'} | "
              f"{ratio} |")
        rows.append({"maze": name, "diagonals": d, "cost_ms": cost, "library_us": lib,
                     **{f"{k}_us": v for k, v in med.items()}})
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({"load": [load0, load1], "repeat": args.repeat,
                                          "inner": args.inner, "baseline": args.baseline,
                                          "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
