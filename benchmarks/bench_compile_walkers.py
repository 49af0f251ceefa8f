"""Cold compile CPU of the warm-up tasks that compile the walkers', sensors',
agents' and generators' kernels (issue 40, round 11: r11-walkers).

Each run is a fresh process with an empty ``NUMBA_CACHE_DIR`` and
``ROBOMAZE_SHIPPED_KERNELS=0``: it runs the default sweep's warm-up tasks
``--pre`` first (not measured: the kernels other tasks share, as the
warm-up's helper compiles them before), then each task of ``--tasks``,
recording the thread CPU of the outermost ``numba:compile`` events inside
each task and every kernel's exclusive compile CPU. Checkouts are run
interleaved, repetition by repetition; medians are printed with the load
average before each run.

Usage::

    python benchmarks/bench_compile_walkers.py --variant base=/tmp/base --variant new=. \\
        [--repeat 3] [--tasks classic,simulate,generate:backtracker,generate:wilson,generate:kruskal]
        [--pre figures] [--kernels 25] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_CHILD = r"""
import json, sys, time
from numba.core import event as ev
pre, tasks = sys.argv[1].split(","), sys.argv[2].split(",")
stack, kern = [], {}
outer = [0.0]

class L(ev.Listener):
    def on_start(self, event):
        f = getattr((event.data or {}).get("dispatcher"), "py_func", None)
        name = f"{getattr(f, '__module__', '?')}.{getattr(f, '__qualname__', '?')}"
        stack.append([name, time.thread_time(), 0.0])
    def on_end(self, event):
        name, c0, child = stack.pop()
        tot = time.thread_time() - c0
        if stack:
            stack[-1][2] += tot
        else:
            outer[0] += tot
        kern[name] = kern.get(name, 0.0) + tot - child

ev.register("numba:compile", L())
from robomaze.bench import _warmup as w
ctx = w._Context(None)
for t in [p for p in pre if p]:
    w._run(t, ctx, False)
kern.clear()
out = {"tasks": {}}
for t in tasks:
    o0, c0 = outer[0], time.thread_time()
    w._run(t, ctx, False)
    out["tasks"][t] = {"compile": outer[0] - o0, "cpu": time.thread_time() - c0}
out["kernels"] = kern
print(json.dumps(out))
"""


def run_one(root: str, pre: str, tasks: str) -> dict:
    with tempfile.TemporaryDirectory(prefix="cw_") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, ROBOMAZE_SHIPPED_KERNELS="0",
                   PYTHONPATH=str(Path(root).resolve()))
        load = os.getloadavg()[0]
        res = subprocess.run([sys.executable, "-c", _CHILD, pre, tasks], env=env,
                             capture_output=True, text=True, cwd=cache, check=True)
        out = json.loads(res.stdout.strip().splitlines()[-1])
        out["load"] = load
        return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", action="append", required=True, help="NAME=DIR")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--tasks", default="classic,simulate,generate:backtracker,generate:wilson,"
                                        "generate:kruskal")
    ap.add_argument("--pre", default="figures")
    ap.add_argument("--kernels", type=int, default=25, help="kernels listed per variant")
    ap.add_argument("--json")
    a = ap.parse_args(argv)
    variants = [v.split("=", 1) for v in a.variant]
    runs: dict[str, list] = {n: [] for n, _ in variants}
    for i in range(a.repeat):
        for name, root in variants:
            r = run_one(root, a.pre, a.tasks)
            runs[name].append(r)
            total = sum(t["compile"] for t in r["tasks"].values())
            per = " ".join(f"{k}={t['compile']:.2f}" for k, t in r["tasks"].items())
            print(f"rep {i} {name:8s} load {r['load']:.1f}  compile {total:.2f} s  {per}",
                  flush=True)
    print()
    for name, _ in variants:
        rs = runs[name]
        tot = statistics.median(sum(t["compile"] for t in r["tasks"].values()) for r in rs)
        per = {k: statistics.median(r["tasks"][k]["compile"] for r in rs) for k in rs[0]["tasks"]}
        print(f"{name}: median compile CPU {tot:.2f} s; "
              + " ".join(f"{k} {v:.2f}" for k, v in per.items()))
        names = set().union(*(r["kernels"] for r in rs))
        med = {k: statistics.median(r["kernels"].get(k, 0.0) for r in rs) for k in names}
        for k, v in sorted(med.items(), key=lambda kv: -kv[1])[:a.kernels]:
            print(f"    {v:6.3f}  {k}")
    if a.json:
        Path(a.json).write_text(json.dumps(runs, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
