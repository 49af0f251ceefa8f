"""Cold compile CPU of the ``robomaze._search`` kernels a sweep's warm-up tasks compile, in two checkouts.

Issue 40, round 11 (r11-search). Each repetition runs, for each checkout
(interleaved, the order alternating), a fresh process with an empty
``NUMBA_CACHE_DIR`` and no shipped kernels that runs the given warm-up
tasks one after the other (``robomaze.bench._warmup._run``, as the default
sweep's warm-up does) with a ``numba:compile`` listener: every compile
event's thread CPU, exclusive of the compiles nested in it. Printed: the
medians per ``_search`` kernel (exclusive), the compile CPU of all
outermost events (every kernel the tasks compiled, numba's overloads
included: the figure that shows a cost moved to another kernel) and the
tasks' thread CPU, with the load average before each process.

Usage::

    python benchmarks/bench_compile_search.py --compare DIR [--checkout DIR] [--reps 3]
        [--tasks heap,field,classic,plan:theta_star,plan:collision_free,plan:dijkstra,plan:astar]
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: the default sweep's warm-up tasks that compile ``_search`` kernels
TASKS = "heap,field,classic,plan:theta_star,plan:collision_free,plan:dijkstra,plan:astar"

_CHILD = r'''
import json, sys, time
from numba.core import event as ev
stack = []; out = []
class L(ev.Listener):
    def on_start(self, event):
        data = event.data or {}
        f = getattr(data.get("dispatcher"), "py_func", None)
        stack.append([f"{getattr(f, '__module__', '?')}.{getattr(f, '__qualname__', '?')}",
                      time.thread_time(), 0.0])
    def on_end(self, event):
        name, c0, child = stack.pop()
        tot = time.thread_time() - c0
        if stack:
            stack[-1][2] += tot
        out.append((name, tot, tot - child, len(stack)))
ev.register("numba:compile", L())
from robomaze.bench import _warmup as w
ctx = w._Context(None)
t0 = time.thread_time()
for task in sys.argv[1].split(","):
    w._run(task, ctx, False)
json.dump({"ev": out, "cpu": time.thread_time() - t0}, sys.stdout)
'''


def _one(checkout: str, tasks: str) -> dict:
    cache = tempfile.mkdtemp(prefix="r11s_")
    try:
        env = dict(os.environ, PYTHONPATH=checkout, NUMBA_CACHE_DIR=cache,
                   ROBOMAZE_SHIPPED_KERNELS="0")
        r = subprocess.run([sys.executable, "-c", _CHILD, tasks], env=env, capture_output=True,
                           text=True, cwd=checkout)
        if r.returncode:
            raise SystemExit(r.stderr[-3000:])
        return json.loads(r.stdout.strip().splitlines()[-1])
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def _agg(runs):
    ex = collections.defaultdict(list)
    tot, cpu = [], []
    for r in runs:
        e = collections.defaultdict(float)
        for name, _t, s, _d in r["ev"]:
            e[name] += s
        for k, v in e.items():
            ex[k].append(v)
        tot.append(sum(t for _, t, _, d in r["ev"] if d == 0))
        cpu.append(r["cpu"])
    return ex, tot, cpu


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--compare", required=True, help="the other checkout (e.g. main)")
    ap.add_argument("--checkout", default=str(ROOT))
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--tasks", default=TASKS)
    a = ap.parse_args(argv)
    who = {"compare": a.compare, "checkout": a.checkout}
    res = {"compare": [], "checkout": []}
    loads = []
    for i in range(a.reps):
        for k in (("compare", "checkout") if i % 2 == 0 else ("checkout", "compare")):
            loads.append(open("/proc/loadavg").read().split()[0])
            res[k].append(_one(who[k], a.tasks))
    eb, tb, cb = _agg(res["compare"])
    em, tm, cm = _agg(res["checkout"])
    med = statistics.median
    print(f"tasks {a.tasks}; {a.reps} reps; loads {' '.join(loads)}")
    print(f"{'kernel (exclusive compile CPU, s)':58s} {'compare':>8s} {'checkout':>8s}")
    for k in sorted(set(eb) | set(em), key=lambda k: -med(eb.get(k, [0.0]))):
        if k.startswith("robomaze._search"):
            print(f"{k:58s} {med(eb.get(k, [0.0])):8.3f} {med(em.get(k, [0.0])):8.3f}")
    print(f"{'all compiles (outermost events)':58s} {med(tb):8.3f} {med(tm):8.3f}"
          f"   {[round(x, 2) for x in tb]} {[round(x, 2) for x in tm]}")
    print(f"{'the tasks thread CPU':58s} {med(cb):8.3f} {med(cm):8.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
