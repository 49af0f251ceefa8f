"""One ``robomaze`` command run on a warm cache, two checkouts interleaved.

Each checkout gets its own numba cache folder, filled by one run that is
not counted; then the command runs ``--repeat`` times per checkout, one
checkout right after the other, each in a fresh ``python -m robomaze``
process started in the checkout's scratch folder (so that neither the
working directory nor another checkout shadows it). Printed: the medians of wall seconds and of the process's CPU
seconds (user + system), the load average before and after, and the
command's first output line (the same in both, or the comparison means
nothing).

Usage::

    python benchmarks/bench_warm_command.py [--repeat 10] [--compare DIR] -- plan prim 15x15 --seed 1
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(root: Path, cache: str, argv: list[str]) -> tuple[float, float, str]:
    """(wall, CPU, first output line) of one run of ``robomaze argv`` from ``root``."""
    env = dict(os.environ, PYTHONPATH=str(root), NUMBA_CACHE_DIR=cache)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    # cwd: a scratch folder, not a checkout: ``python -m`` puts the working
    # directory before PYTHONPATH, so run from a checkout it measured that
    # checkout for every root (round 16: --compare had compared a tree with
    # itself); relative output paths of the command land there too
    proc = subprocess.run([sys.executable, "-m", "robomaze", *argv], env=env, cwd=cache,
                          capture_output=True, text=True, timeout=600)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{root}: exit {proc.returncode}\n{proc.stderr[-2000:]}")
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return wall, cpu, (proc.stdout.strip().splitlines() or [""])[0]


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--" not in argv:
        raise SystemExit("usage: bench_warm_command.py [--repeat N] [--compare DIR] -- COMMAND...")
    cut = argv.index("--")
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=10, help="counted runs per checkout")
    ap.add_argument("--checkout", default=str(ROOT), help="the checkout to measure")
    ap.add_argument("--compare", help="also this checkout, each run right before this one's")
    args = ap.parse_args(argv[:cut])
    command = argv[cut + 1:]
    roots = [Path(args.compare).resolve()] if args.compare else []
    roots.append(Path(args.checkout).resolve())
    caches = {r: tempfile.mkdtemp(prefix="rm-warmcmd-") for r in roots}
    runs: dict[Path, list] = {r: [] for r in roots}
    load0 = os.getloadavg()[0]
    try:
        for r in roots:
            run(r, caches[r], command)  # fills the cache, not counted
        for _ in range(args.repeat):
            for r in roots:
                runs[r].append(run(r, caches[r], command))
    finally:
        for c in caches.values():
            shutil.rmtree(c, ignore_errors=True)
    print(f"robomaze {' '.join(command)}: {args.repeat} runs each, interleaved, "
          f"load {load0:.1f} -> {os.getloadavg()[0]:.1f}")
    for r in roots:
        walls, cpus, lines = zip(*runs[r])
        print(f"{str(r):30s} wall median {statistics.median(walls):.3f} s, "
              f"CPU median {statistics.median(cpus):.3f} s  | {lines[-1][:60]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
