"""What the research metrics cost: the default sweep with and without them.

Runs every scenario of the default sweep (``robomaze bench -o results``)
through :func:`robomaze.bench.run_scenario`, one after the other in a fresh
Python process per repetition (kernels compiled and cached beforehand by a
warm-up repetition that is not counted), in three variants, interleaved
(A B C A B C ...):

- ``peer``: the checkout given by ``--peer`` (e.g. ``/work/main``, the code
  before this change: theta_star references, no shape metrics);
- ``no-shape``: this checkout with :func:`robomaze.metrics.shape_metrics`
  replaced by an empty dict (the visibility-graph reference only);
- ``full``: this checkout as it is.

Reports the median wall and CPU time of each and the ratios to ``peer``,
with the load average before and after (on a busy machine the CPU time is
the steadier figure). Writes ``benchmarks/results/bench_metrics.json``.

    python benchmarks/bench_metrics.py --peer /work/main [--reps 3] [--every N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

CHILD = r"""
import sys, time
mode, every = sys.argv[1], int(sys.argv[2])
import robomaze.metrics as M
if mode == "no-shape":
    M.shape_metrics = lambda *a, **k: {}
from robomaze.bench import default_sweep_path, load_sweep, run_scenario
sc = load_sweep(default_sweep_path()).scenarios
sc = [s for s in sc if s.kind != "mouse"][::every]
t, c = time.perf_counter(), time.process_time()
for s in sc:
    run_scenario(s)
print(time.perf_counter() - t, time.process_time() - c, len(sc))
"""


def run(mode: str, root: Path, every: int) -> tuple[float, float, int]:
    env = dict(os.environ, PYTHONPATH=str(root))
    out = subprocess.run([sys.executable, "-c", CHILD, mode, str(every)], env=env, check=True,
                         capture_output=True, text=True, cwd=root)
    wall, cpu, n = out.stdout.split()
    return float(wall), float(cpu), int(n)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--peer", required=True, help="checkout of the code to compare with")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--every", type=int, default=1,
                    help="every N-th scenario only (a sample spread over the whole sweep)")
    args = ap.parse_args()
    variants = {"peer": Path(args.peer), "no-shape": HERE, "full": HERE}
    for mode, root in variants.items():   # warm-up: compile and cache every kernel
        run(mode, root, args.every)
    load_before = os.getloadavg()
    times: dict[str, list] = {m: [] for m in variants}
    cpus: dict[str, list] = {m: [] for m in variants}
    n = 0
    for _ in range(args.reps):
        for mode, root in variants.items():
            wall, cpu, n = run(mode, root, args.every)
            times[mode].append(wall)
            cpus[mode].append(cpu)
    load_after = os.getloadavg()
    med = {m: statistics.median(v) for m, v in times.items()}
    cmed = {m: statistics.median(v) for m, v in cpus.items()}
    print(f"{n} runs of the default sweep, median of {args.reps} interleaved repetitions; "
          f"load {load_before[0]:.1f} -> {load_after[0]:.1f}")
    print(f"{'variant':10} {'wall s':>8} {'/ peer':>7} {'CPU s':>8} {'/ peer':>7}   all wall")
    for m in variants:
        print(f"{m:10} {med[m]:8.2f} {med[m] / med['peer']:7.3f} {cmed[m]:8.2f} "
              f"{cmed[m] / cmed['peer']:7.3f}   " + " ".join(f"{v:.2f}" for v in times[m]))
    out = HERE / "benchmarks" / "results" / "bench_metrics.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"runs": n, "times": times, "cpu": cpus, "median": med,
                               "load": [load_before, load_after], "when": time.time()}, indent=1))


if __name__ == "__main__":
    main()
