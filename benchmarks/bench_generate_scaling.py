"""Is every generator linear? ns per cell at a small and a large size.

For each generator in ``robomaze.generate.GENERATORS`` this times a
``SMALL x SMALL`` maze (default 250x250) and a ``LARGE x LARGE`` one
(default 4000x4000) and reports the time per cell at both and their ratio
(large / small). A linear generator has a ratio near 1; the target is
<= 1.5 for every generator.

Repetitions are interleaved (small, large, small, large, ...) so both sizes
see the same machine load, and the median of each is reported; the small
maze is repeated ``(LARGE/SMALL)**2 // 16`` times per repetition so both
timings are long enough to read. Prints a table and the load average, and
writes ``benchmarks/results/generate_scaling.json``.

Aldous-Broder and Wilson are random walks whose number of moves per cell
grows with the size (cover time ~ n log(n)**2, mean hitting time ~ n log n
on the 2-D grid): for them the benchmark times the same work as the public
call (kernel + building the ``Maze``) through the kernel, which also returns
its move count, and adds moves per cell and ns per move. Both walks take
many moves at once where no move can change the tree (Aldous-Broder 16 or
128 through visited territory, Wilson 32 far from the tree), so their ns
per move falls as the size grows and their ns per cell can be constant.

Usage::

    python benchmarks/bench_generate_scaling.py [--small 250] [--large 4000]
        [--repeat 3] [--only hunt_and_kill,backtracker]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from pathlib import Path

from robomaze.generate import GENERATORS, _walk_kernels
from robomaze.generate._common import kernel_seed, walls_to_maze
from robomaze.maze import check_shape

#: Generators that are random walks: name -> kernel returning (east, south, moves).
WALKS = {"aldous_broder": _walk_kernels.aldous_broder, "wilson": _walk_kernels.wilson}


def _walk_call(kernel, size: int, rng) -> int:
    """The public call's work (validate, kernel, Maze) returning the move count."""
    rows, cols = check_shape(size, size)
    east, south, moves = kernel(rows, cols, kernel_seed(rng))
    walls_to_maze(east, south, rows, cols)
    return int(moves)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--small", type=int, default=250)
    ap.add_argument("--large", type=int, default=4000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", default="", help="comma-separated generator names")
    ap.add_argument("--out", type=Path,
                    default=Path(__file__).resolve().parent / "results" / "generate_scaling.json")
    args = ap.parse_args(argv)
    names = [n for n in GENERATORS if not args.only or n in args.only.split(",")]
    for n in names:  # JIT warm-up / cache load
        GENERATORS[n](8, 8, rng=0)
        GENERATORS[n](256, 256, rng=0)  # kruskal and mst: other kernels above 40,000 cells
    inner = max(1, (args.large // args.small) ** 2 // 16)
    load = os.getloadavg()
    rows = []
    print(f"{'generator':16s} {'ns/cell small':>14s} {'ns/cell large':>14s} {'ratio':>6s}"
          f"  {'moves/cell':>21s} {'ns/move':>15s} {'ratio':>6s}")
    for n in names:
        fn = GENERATORS[n]
        walk = WALKS.get(n)
        small, large, moves_s, moves_l = [], [], [], []
        for rep in range(args.repeat):
            t0 = time.perf_counter()
            for i in range(inner):
                if walk is None:
                    fn(args.small, args.small, rng=rep * inner + i)
                else:
                    moves_s.append(_walk_call(walk, args.small, rep * inner + i))
            small.append((time.perf_counter() - t0) / inner / args.small ** 2 * 1e9)
            t0 = time.perf_counter()
            if walk is None:
                fn(args.large, args.large, rng=rep)
            else:
                moves_l.append(_walk_call(walk, args.large, rep))
            large.append((time.perf_counter() - t0) / args.large ** 2 * 1e9)
        s, l = statistics.median(small), statistics.median(large)
        row = {"generator": n, "ns_per_cell_small": s, "ns_per_cell_large": l, "ratio": l / s}
        line = f"{n:16s} {s:14.1f} {l:14.1f} {l / s:6.2f}"
        if walk is not None:
            ms = statistics.mean(moves_s) / args.small ** 2
            ml = statistics.mean(moves_l) / args.large ** 2
            row.update(moves_per_cell_small=ms, moves_per_cell_large=ml,
                       ns_per_move_small=s / ms, ns_per_move_large=l / ml,
                       ns_per_move_ratio=(l / ml) / (s / ms))
            line += (f"  {ms:10.1f} {ml:10.1f} {s / ms:7.2f} {l / ml:7.2f}"
                     f" {(l / ml) / (s / ms):6.2f}")
        rows.append(row)
        print(line, flush=True)
    meta = {"python": platform.python_version(), "cpus": os.cpu_count(),
            "loadavg_before": load, "loadavg_after": os.getloadavg(),
            "small": args.small, "large": args.large, "repeat": args.repeat,
            "note": "median of interleaved repetitions, public call incl. building the Maze"}
    print(f"load average before {load[0]:.2f}, after {os.getloadavg()[0]:.2f}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"meta": meta, "results": rows}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
