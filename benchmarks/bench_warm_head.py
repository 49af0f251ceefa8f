"""The head of the default sweep's cold warm-up: seconds until its first task starts.

Everything the fork server does before the first task (imports, the task
list, numba's target set-up, the helper's fork) runs on one core while the
other waits: both processes need all of it. Each run is a fresh process
with an empty numba cache and no shipped kernels; it stops as soon as the
first task is called (in the server or the helper, whichever is first) and
prints the wall seconds since the interpreter began ``import
robomaze.bench._warm``, the process CPU at that moment and whether
``scipy.linalg`` was imported by then. With ``--compare DIR`` the checkout
``DIR`` runs right before this one, pair after pair; medians are printed
with the load average.

Usage::

    python benchmarks/bench_warm_head.py [--repeat 12] [--compare DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from robomaze._threads import one_thread_pools

ROOT = Path(__file__).resolve().parents[1]

_CODE = (
    "import os, sys, time\n"
    "t0 = time.perf_counter()\n"
    "import robomaze.bench._warmup as W\n"
    "def first(*args, **kwargs):\n"
    "    print('FIRST', time.perf_counter() - t0, time.process_time(),\n"
    "          int('scipy.linalg' in sys.modules), flush=True)\n"
    "    os._exit(0)\n"
    "W._run = first\n"
    "import robomaze.bench._warm\n")


def _warm_list(root: Path) -> str:
    """The default sweep's ``ROBOMAZE_WARM`` list, as the runner makes it."""
    path = root / "robomaze" / "data" / "samples" / "scenarios" / "default.toml"
    code = ("from robomaze.bench.runner import _warm_list; "
            "from robomaze.bench.scenario import load_sweep; "
            f"print(_warm_list(load_sweep({str(path)!r}).scenarios))")
    return subprocess.run([sys.executable, "-c", code], env=dict(os.environ, PYTHONPATH=str(root)),
                          capture_output=True, text=True, check=True).stdout.strip()


def head(root: Path, warm: str) -> tuple[float, float, bool]:
    """(wall to the first task, process CPU then, scipy.linalg imported) of one cold start."""
    cache = tempfile.mkdtemp(prefix="rm-head-")
    try:
        env = dict(os.environ, PYTHONPATH=str(root), ROBOMAZE_SHIPPED_KERNELS="0",
                   NUMBA_CACHE_DIR=cache, ROBOMAZE_WARM=warm)
        env.pop("ROBOMAZE_WARM_PROCESSES", None)
        one_thread_pools(env)  # as the runner starts its fork server, where this runs
        out = subprocess.run([sys.executable, "-c", _CODE], env=env, capture_output=True,
                             text=True, cwd=cache, timeout=300)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    lines = [ln.split() for ln in out.stdout.splitlines() if ln.startswith("FIRST")]
    if not lines:
        raise SystemExit(f"{root}: no task started\n{out.stderr[-2000:]}")
    _, wall, cpu, linalg = lines[0]
    return float(wall), float(cpu), linalg == "1"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=12, help="runs of each checkout, interleaved")
    ap.add_argument("--checkout", default=str(ROOT), help="the checkout to measure")
    ap.add_argument("--compare", help="also this checkout, each run right before this one's")
    args = ap.parse_args(argv)
    roots = [Path(args.compare).resolve()] if args.compare else []
    roots.append(Path(args.checkout).resolve())
    warm = _warm_list(roots[-1])
    runs: dict[Path, list] = {r: [] for r in roots}
    loads = []
    for _ in range(args.repeat):
        for r in roots:
            loads.append(os.getloadavg()[0])
            runs[r].append(head(r, warm))
    print(f"load {min(loads):.1f}-{max(loads):.1f}, {args.repeat} runs each, interleaved")
    for r in roots:
        walls, cpus, linalg = zip(*runs[r])
        print(f"{str(r):30s} first task at {statistics.median(walls):.3f} s wall "
              f"(min {min(walls):.3f}), process CPU {statistics.median(cpus):.3f} s, "
              f"scipy.linalg imported in {sum(linalg)} of {len(linalg)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
