"""`robomaze bench rerun` on sampled rows of the default sweep, under load.

Draws N scenarios of the default sweep with ``random.Random(SEED)``, runs
them into a results folder (``robomaze bench``), then runs ``robomaze bench
rerun DIR ID`` on each, optionally beside H CPU-bound hog processes (ended
by pid at the end), and counts the exit codes (0 identical, 1 differs, 3
inconclusive). Prints ``/proc/loadavg`` before and after.

    nice -n 10 python benchmarks/bench_rerun_load.py --runs 30 --hogs 14 --out /tmp/rerun-load

``--parallel K`` keeps K re-runs going at once (each its own process): the
hogs still outnumber them, and a starved machine gets through 30 rows in
a third of the time.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import os
import random
import subprocess
import sys
import time


def _load() -> str:
    with open("/proc/loadavg") as fh:
        return " ".join(fh.read().split()[:3])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--hogs", type=int, default=0)
    ap.add_argument("--seed", type=int, default=33)
    ap.add_argument("--out", default="rerun-load")
    ap.add_argument("--parallel", type=int, default=1, help="re-runs at once (default 1)")
    a = ap.parse_args()

    from robomaze.bench import default_sweep_path, load_sweep, run_sweep

    scenarios = load_sweep(default_sweep_path()).scenarios
    picked = random.Random(a.seed).sample(scenarios, a.runs)
    run_sweep(picked, a.out, workers=2, progress=False)
    # `yes > /dev/null`: CPU-bound, no memory; they inherit this script's
    # niceness (run it under `nice -n 10` on a shared machine), so they
    # compete with the re-runs on equal terms
    hogs = [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(a.hogs)]
    codes = collections.Counter()
    try:
        time.sleep(2.0 if hogs else 0.0)
        print(f"load before: {_load()} ({a.hogs} hogs)", flush=True)
        t0 = time.monotonic()
        def rerun(sc):
            return sc, subprocess.run([sys.executable, "-m", "robomaze", "bench", "rerun", a.out, sc.id],
                                      capture_output=True, text=True, env=dict(os.environ))

        with concurrent.futures.ThreadPoolExecutor(max(1, a.parallel)) as pool:
            for sc, out in pool.map(rerun, picked):
                codes[out.returncode] += 1
                line = (out.stdout or out.stderr).strip().splitlines()[:1]
                print(f"{sc.id} exit {out.returncode}: {line[0] if line else ''}"[:160], flush=True)
        print(f"load after: {_load()}; {time.monotonic() - t0:.0f} s")
    finally:
        for h in hogs:
            h.kill()
            h.wait()
    print("exit codes:", dict(sorted(codes.items())))
    return 0 if set(codes) == {0} else 1


if __name__ == "__main__":
    sys.exit(main())
