"""Benchmark the time-optimal micromouse route search (``robomaze mouse route``).

For every contest maze shipped with robomaze (16x16 and 32x32, in
``robomaze/data/samples/micromouse``) and each mode -- ``kerikun`` with
diagonals (the slalom graph), ``kerikun`` without (the library's runs
model) and ``simple`` without diagonals (the slalom graph's axis moves with
FS90) -- this times :func:`robomaze.micromouse.fastest_route` (the public call:
wall grid, cost tables, the numba Dijkstra and the route's segments and
cells) after a warm-up call, as the median of ``--repeat`` interleaved
repetitions (every maze/mode once per round), and, as the peer in the same
run, the independent plain-Python ``heapq`` Dijkstra of
``tests/micromouse/test_mouse_route.py`` on the same graph (cost only,
median of ``--peer-repeat`` rounds). Both must agree on the cost. The
1-minute load average is recorded before and after. Prints a table and
writes ``benchmarks/results/mouse_route.json``.

Usage::

    python benchmarks/bench_mouse_route.py [--repeat 31] [--peer-repeat 3] [--out PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "micromouse"))

from robomaze.io import read_maze  # noqa: E402
from robomaze.micromouse import fastest_route, get_profile  # noqa: E402
from test_mouse_route import (kerikun_tables, reference_runs,  # noqa: E402
                              reference_slalom)

SAMPLES = ROOT / "robomaze" / "data" / "samples" / "micromouse"
MAZES = ["16MM2013CX", "16MM2016CX", "16MM2017CX", "16MM2018CX", "16MM2019CX", "32MM2019HX"]
MODES = [("kerikun", True), ("kerikun", False), ("simple", False)]


def _peer(maze, profile: str, diagonals: bool) -> float:
    """The reference's cost in ms (the test's plain-Python Dijkstra)."""
    if profile == "kerikun":
        along, diag, turns, runs = kerikun_tables(2 * 32 + 4)
        units = (reference_slalom(maze, along, diag, turns, diagonals=True) if diagonals
                 else reference_runs(maze, runs))
        return 2.0 * units
    p = get_profile(profile)
    t = dict(zip(("F45", "F90", "F135", "F180", "V90"), p.turn_costs()))
    n = 2 * 32 + 4
    return reference_slalom(maze, p.along_table(n).tolist(), p.diag_table(2 * n).tolist(), t,
                            diagonals=diagonals, pivot=p.pivot_cost())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=31)
    ap.add_argument("--peer-repeat", type=int, default=3)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "mouse_route.json"))
    args = ap.parse_args(argv)
    mazes = {name: read_maze(SAMPLES / f"{name}.maze") for name in MAZES}
    cases = [(name, prof, diag) for name in MAZES for prof, diag in MODES]
    load0 = os.getloadavg()[0]
    cost = {}
    for name, prof, diag in cases:             # warm-up: compile / load the kernels
        cost[(name, prof, diag)] = fastest_route(mazes[name], diagonals=diag,
                                                 profile=prof).cost_ms
    ours: dict = {c: [] for c in cases}
    for _ in range(args.repeat):
        for c in cases:
            t0 = time.perf_counter()
            fastest_route(mazes[c[0]], diagonals=c[2], profile=c[1])
            ours[c].append(time.perf_counter() - t0)
    peer: dict = {c: [] for c in cases}
    peer_cost = {}
    for _ in range(args.peer_repeat):
        for c in cases:
            t0 = time.perf_counter()
            peer_cost[c] = _peer(mazes[c[0]], c[1], c[2])
            peer[c].append(time.perf_counter() - t0)
    load1 = os.getloadavg()[0]
    rows = []
    print(f"{'maze':<12} {'profile':<8} {'diag':<5} {'cost ms':>9} {'ours ms':>8} "
          f"{'python ms':>10} {'ratio':>7}")
    for c in cases:
        name, prof, diag = c
        if abs(peer_cost[c] - cost[c]) > 1e-6:
            raise SystemExit(f"{name} {prof} diagonals={diag}: cost {cost[c]} != reference "
                             f"{peer_cost[c]}")
        o, p = statistics.median(ours[c]) * 1e3, statistics.median(peer[c]) * 1e3
        rows.append({"maze": name, "size": mazes[name].shape[0], "profile": prof,
                     "diagonals": diag, "cost_ms": cost[c], "ours_ms": o, "python_ms": p,
                     "speedup": p / o})
        print(f"{name:<12} {prof:<8} {str(diag):<5} {cost[c]:>9.1f} {o:>8.2f} {p:>10.1f} "
              f"{p / o:>6.0f}x")
    out = {"rows": rows, "repeat": args.repeat, "peer_repeat": args.peer_repeat,
           "load_before": load0, "load_after": load1, "cpus": os.cpu_count(),
           "python": platform.python_version(), "machine": platform.machine()}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=2) + "\n")
    print(f"load {load0:.2f} -> {load1:.2f}; wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
