"""Issue 40: robomaze's generators against mazelib at 100x100, by process CPU time.

Every generator robomaze shares with mazelib (0.9.16, the ``benchmarks``
extra; see ``bench_generate.MAZELIB``): the public
``robomaze.generate.generate(name, n, n, rng=seed)`` (validation, the
kernel, the ``Maze``, braid 0 and the default corner placement included)
against mazelib's ``Class(n, n).generate()`` (its bare grid). Each
repetition times a batch of ``--batch`` robomaze calls and one mazelib call
by ``time.process_time``, interleaved, so both see the same load; the
figure is the median per call over ``--repeat`` repetitions, with
``os.getloadavg()`` before and after.

Usage::

    python benchmarks/bench_generate_cpu.py [--size 100] [--repeat 15] [--batch 20]
        [--only sidewinder,binary_tree,division]
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from bench_generate import MAZELIB  # noqa: E402
from robomaze.generate import generate  # noqa: E402


def row(name: str, size: int, repeat: int, batch: int) -> dict:
    mod = importlib.import_module(f"mazelib.generate.{MAZELIB[name]}")
    cls = getattr(mod, MAZELIB[name])
    generate(name, size, size, rng=0)                   # JIT warm-up
    cls(size, size).generate()
    load0 = os.getloadavg()[0]
    ours, theirs = [], []
    np.random.seed(1)                                    # mazelib draws from the global streams
    for k in range(repeat):
        c0 = time.process_time()
        for i in range(batch):
            generate(name, size, size, rng=k * batch + i)
        ours.append((time.process_time() - c0) / batch)
        c0 = time.process_time()
        cls(size, size).generate()
        theirs.append(time.process_time() - c0)
    o, t = float(np.median(ours)), float(np.median(theirs))
    return {"generator": name, "mazelib": MAZELIB[name], "size": size, "robomaze_cpu_s": o,
            "mazelib_cpu_s": t, "ratio": t / o,
            "load": f"{load0:.2f}-{os.getloadavg()[0]:.2f}"}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--batch", type=int, default=20)
    ap.add_argument("--only", default="", help="comma-separated generator names (default: all)")
    ap.add_argument("--out", default=str(HERE / "results" / "generate_cpu.json"))
    args = ap.parse_args(argv)
    names = [n for n in MAZELIB if not args.only or n in args.only.split(",")]
    rows = []
    print("| generator | mazelib class | size | robomaze CPU (us) | mazelib CPU (ms) | ratio | load |")
    print("|---|---|---|---:|---:|---:|---|")
    for name in names:
        r = row(name, args.size, args.repeat, args.batch)
        rows.append(r)
        print(f"| {name} | {r['mazelib']} | {args.size}x{args.size} | "
              f"{r['robomaze_cpu_s'] * 1e6:.0f} | {r['mazelib_cpu_s'] * 1e3:.2f} | "
              f"**{r['ratio']:.0f}x** | {r['load']} |", flush=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
