"""Throughput of the benchmark harness: the default sweep with 1 vs 2 workers.

Runs every scenario of ``robomaze/data/default.toml`` (the sweep behind
``robomaze bench -o results``) into fresh temporary directories, once with
one worker process and once with two, and reports wall time, runs per second
and the speed-up. The report itself is not timed. The machine's load average
before and after is recorded, since other processes on a shared machine
steal from the two-worker run first.

    python benchmarks/bench_harness.py [--workers 1 2] [--sweep FILE]

Prints a table and writes ``benchmarks/results/bench_harness.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
import time
from pathlib import Path

from robomaze.bench import default_sweep_path, load_sweep, read_rows, run_sweep


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--sweep", default=str(default_sweep_path()))
    args = ap.parse_args()
    sweep = load_sweep(args.sweep)
    results = []
    for w in args.workers:
        with tempfile.TemporaryDirectory() as d:
            load_before = os.getloadavg()
            t = time.perf_counter()
            res = run_sweep(sweep.scenarios, d, workers=w, progress=False)
            wall = time.perf_counter() - t
            load_after = os.getloadavg()
            cpu = sum(r["timings"].get("total_s", 0.0) for r in read_rows(d))
        results.append({"workers": w, "runs": res.ran, "failed": res.failed, "wall_s": wall,
                        "runs_per_s": res.ran / wall, "sum_run_s": cpu,
                        "loadavg_before": load_before, "loadavg_after": load_after})
    base = results[0]["wall_s"]
    for r in results:
        r["speedup"] = base / r["wall_s"]
    print(f"default sweep: {len(sweep.scenarios)} runs ({args.sweep})")
    print(f"{'workers':>7}  {'wall (s)':>9}  {'runs/s':>7}  {'speed-up':>8}  {'sum of runs (s)':>15}  load before/after")
    for r in results:
        print(f"{r['workers']:>7}  {r['wall_s']:9.1f}  {r['runs_per_s']:7.1f}  {r['speedup']:7.2f}x  "
              f"{r['sum_run_s']:15.1f}  {r['loadavg_before'][0]:.2f} / {r['loadavg_after'][0]:.2f}")
    out = Path(__file__).resolve().parent / "results" / "bench_harness.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"sweep": Path(args.sweep).name, "scenarios": len(sweep.scenarios),
                               "cpus": os.cpu_count(), "python": platform.python_version(),
                               "date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
                               "results": results}, indent=2) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
