"""``robomaze movingai SCEN``: run a MovingAI scenario file and check its optima."""

from __future__ import annotations

import json
import sys

from ..bench.movingai import run_scen_file


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "movingai", help="run a MovingAI .scen file with 8-connected A* and compare lengths",
        description="Plan every problem of a MovingAI scenario (8-connected A*, diagonal "
                    "sqrt(2), no corner cutting) and report agreement with the stored "
                    "optimal lengths, each judged at the precision it was printed with "
                    "(one unit in its last digit, or exact for the rounded sqrt(2) the "
                    "file's own lengths show, fitted from the file and reported). Exit "
                    "status 1 if any problem disagrees.")
    p.add_argument("scen", help="the .scen file")
    p.add_argument("--map", dest="map_path", default=None,
                   help="the .map file (default: the map named in the scenario, beside it)")
    p.add_argument("--limit", type=int, default=None, help="run only the first N problems")
    p.add_argument("--every", type=int, default=1, help="run every k-th problem")
    p.add_argument("--method", default="batch",
                   help="'batch' (default): the lengths-only A* kernel over the whole file; "
                        "or a planner name such as astar (slower, builds every path)")
    p.add_argument("--rtol", type=float, default=0.0,
                   help="relative slack added to the printed-precision rule (default 0)")
    p.add_argument("--json", dest="json_out", default=None, help="write the summary as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(func=run)


def run(args) -> int:
    def progress(done, total):
        if not args.quiet:
            print(f"  {done}/{total} problems", file=sys.stderr, flush=True)

    rep = run_scen_file(args.scen, map_path=args.map_path, limit=args.limit, every=args.every,
                        method=args.method, rtol=args.rtol, progress=progress)
    s = rep.summary()
    print(f"{s['problems']} problems, {s['agree']} agree with the stored optimal length, "
          f"{s['disagree']} disagree; {s['seconds']:.2f} s CPU "
          f"({s['per_problem_ms']:.2f} ms/problem, method {s['method']})")
    if s["compile_seconds"] > 0:
        print(f"compile: {s['compile_seconds']:.1f} s of numba compiling on first use "
              "(cached for later runs; not part of the time above)")
    print(f"rule: {s['rule']}")
    if rep.sqrt2 is not None:
        print(f"sqrt(2) of the file: {rep.sqrt2:.11f} (fitted from its lengths; "
              f"{rep.n_by_fit} of {s['agree']} agreeing lines needed it)")
    for i, length, opt in rep.worst():
        p = rep.problems[i]
        print(f"  problem {i}: start {p.start} goal {p.goal}: length {length:.8f}, "
              f"optimal {opt:.8f}")
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as fh:
            json.dump(s, fh, indent=2)
    return 0 if s["disagree"] == 0 else 1
