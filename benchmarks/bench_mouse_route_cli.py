"""CPU time of a whole ``robomaze mouse route`` process, warm (issue 40 item 3).

Runs ``python -m robomaze mouse route MAZE [--diagonals]`` as child
processes for every checkout given (``--tree NAME=PATH``, its code first on
``PYTHONPATH``), interleaved, ``--repeat`` times each after one warm-up
run, and reports the median user + system CPU of the child
(``resource.getrusage(RUSAGE_CHILDREN)`` deltas) and the baseline of
``python -c pass`` and ``python -c "import numpy"`` (with the default BLAS
pool, and with the one thread the command gives it) in the same rounds.
The 1-minute load average before and after.

Usage::

    python benchmarks/bench_mouse_route_cli.py --tree after=. [--tree before=/path] \\
        [--repeat 11]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAZES = ["16MM2013CX", "32MM2019HX"]


def _cpu(cmd, env) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    # cwd = the tree: ``-m`` puts the working directory first on sys.path
    subprocess.run(cmd, env=env, cwd=env.get("PYTHONPATH", "/"), stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", action="append", default=[], metavar="NAME=PATH")
    ap.add_argument("--repeat", type=int, default=11)
    args = ap.parse_args(argv)
    trees = dict(t.split("=", 1) for t in (args.tree or ["after=."]))
    cases = {}
    for name, path in trees.items():
        env = dict(os.environ, PYTHONPATH=str(Path(path).resolve()))
        for maze in MAZES:
            for diag in (False, True):
                cmd = [sys.executable, "-m", "robomaze", "mouse", "route",
                       str(ROOT / "robomaze/data/samples/micromouse" / f"{maze}.maze")]
                cases[(name, maze, diag)] = (cmd + (["--diagonals"] if diag else []), env)
    base = dict(os.environ)
    cases[("python -c pass", "", False)] = ([sys.executable, "-c", "pass"], base)
    cases[("import numpy", "", False)] = ([sys.executable, "-c", "import numpy"], base)
    # what the command itself pays for numpy: it sizes OpenBLAS's pool to one
    # thread before numpy loads (robomaze._threads)
    cases[("import numpy, 1 BLAS thread", "", False)] = (
        [sys.executable, "-c", "import numpy"], dict(base, OPENBLAS_NUM_THREADS="1"))
    load0 = os.getloadavg()[0]
    for cmd, env in cases.values():               # warm: numba cache, page cache
        _cpu(cmd, env)
    times = {k: [] for k in cases}
    for _ in range(args.repeat):
        for k, (cmd, env) in cases.items():
            times[k].append(_cpu(cmd, env))
    load1 = os.getloadavg()[0]
    print(f"load {load0:.2f} -> {load1:.2f}, {args.repeat} interleaved rounds")
    print("| tree | maze | diagonals | CPU median (s) | min | max |")
    print("|---|---|---|---:|---:|---:|")
    for (name, maze, diag), t in times.items():
        print(f"| {name} | {maze or '-'} | {'yes' if diag else 'no'} | "
              f"{statistics.median(t):.3f} | {min(t):.3f} | {max(t):.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
