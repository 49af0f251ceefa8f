"""Per-kernel compile CPU of the ``robomaze._search`` kernels the default sweep's warm-up compiles.

Issue 40, round 12 (r12-search). For each checkout, a first process with an
empty ``NUMBA_CACHE_DIR`` and no shipped kernels runs the warm-up tasks
that compile ``_search`` kernels (``robomaze.bench._warmup._run``, as the
sweep's warm-up does) and records every ``_search`` dispatcher's
signatures (numba types pickle). Then each repetition runs, per checkout
(interleaved, the order alternating), a fresh process that compiles those
dispatchers at those signatures once (their callees, numba's overloads:
not timed), then compiles each kernel again with a fresh dispatcher of the
same function and options (no cache), under ``time.thread_time()``: the
kernel's own compile CPU, its inlined helpers included, its called kernels
and numba's overloads excluded. Printed: per kernel the median over
repetitions in each checkout, their sums, and the load before each process;
``--passes`` adds numba's per-pass times (``pipeline_times``) of the
heaviest passes.

Usage::

    python benchmarks/bench_search_kernel_compile.py --compare DIR [--checkout DIR] [--reps 5]
        [--tasks heap,field,classic,plan:theta_star,plan:collision_free,plan:dijkstra,plan:astar]
"""

from __future__ import annotations

import argparse
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

_GATHER = r'''
import importlib, pickle, pkgutil, sys
from numba.core.registry import CPUDispatcher
from robomaze.bench import _warmup as w
import robomaze._search as pkg
ctx = w._Context(None)
for task in sys.argv[1].split(","):
    w._run(task, ctx, False)
mods = [pkg] + [importlib.import_module("robomaze._search." + m.name)
                for m in pkgutil.iter_modules(pkg.__path__)]
out = []
for m in mods:
    for name, d in sorted(vars(m).items()):
        if isinstance(d, CPUDispatcher) and d.__module__ == m.__name__ and d.signatures:
            out.append((m.__name__, name, list(d.signatures)))
pickle.dump(out, open(sys.argv[2], "wb"))
'''

_TIME = r'''
import importlib, json, pickle, sys, time
from numba import njit
sigs = pickle.load(open(sys.argv[1], "rb"))
disp = [(f"{m}.{n}", getattr(importlib.import_module(m), n), ss) for m, n, ss in sigs]
for _, d, ss in disp:
    for s in ss:
        d.compile(s)
out = {}
for name, d, ss in disp:
    opts = {k: v for k, v in d.targetoptions.items() if k != "cache"}
    tot = 0.0
    passes = {}
    for s in ss:
        f = njit(**opts)(d.py_func)
        t0 = time.thread_time()
        f.compile(s)
        tot += time.thread_time() - t0
        cres = f.overloads[tuple(s)]
        for p, v in cres.metadata["pipeline_times"]["nopython"].items():
            key = p.split("_", 1)[1] if p[0].isdigit() else p
            passes[key] = passes.get(key, 0.0) + v.init + v.run + v.finalize
    out[name] = {"cpu": tot, "passes": passes}
json.dump(out, sys.stdout)
'''


def _env(checkout: str, cache: str) -> dict:
    return dict(os.environ, PYTHONPATH=checkout, NUMBA_CACHE_DIR=cache,
                ROBOMAZE_SHIPPED_KERNELS="0")


def _gather(checkout: str, tasks: str, out: str) -> None:
    cache = tempfile.mkdtemp(prefix="r12s_")
    try:
        r = subprocess.run([sys.executable, "-c", _GATHER, tasks, out], env=_env(checkout, cache),
                           capture_output=True, text=True, cwd=checkout)
        if r.returncode:
            raise SystemExit(r.stderr[-3000:])
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def _time(checkout: str, sigs: str) -> dict:
    cache = tempfile.mkdtemp(prefix="r12s_")
    try:
        r = subprocess.run([sys.executable, "-c", _TIME, sigs], env=_env(checkout, cache),
                           capture_output=True, text=True, cwd=checkout)
        if r.returncode:
            raise SystemExit(r.stderr[-3000:])
        return json.loads(r.stdout.strip().splitlines()[-1])
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--compare", required=True, help="the other checkout (e.g. main)")
    ap.add_argument("--checkout", default=str(ROOT))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--tasks", default=TASKS)
    ap.add_argument("--passes", action="store_true", help="numba's heaviest passes per kernel")
    a = ap.parse_args(argv)
    who = {"compare": a.compare, "checkout": a.checkout}
    tmp = tempfile.mkdtemp(prefix="r12s_sigs_")
    sig = {k: os.path.join(tmp, k + ".pkl") for k in who}
    for k in who:
        _gather(who[k], a.tasks, sig[k])
    res = {"compare": [], "checkout": []}
    loads = []
    for i in range(a.reps):
        for k in (("compare", "checkout") if i % 2 == 0 else ("checkout", "compare")):
            loads.append(open("/proc/loadavg").read().split()[0])
            res[k].append(_time(who[k], sig[k]))
    shutil.rmtree(tmp, ignore_errors=True)
    med = statistics.median
    names = sorted(set().union(*(r.keys() for rs in res.values() for r in rs)))

    def m(k, n, field="cpu"):
        xs = [r[n][field] for r in res[k] if n in r]
        return med(xs) if xs else None

    rows = sorted(names, key=lambda n: -(m("compare", n) or m("checkout", n) or 0.0))
    print(f"tasks {a.tasks}; {a.reps} reps; loads {' '.join(loads)}")
    print(f"{'kernel (own compile CPU, s, median)':50s} {'compare':>8s} {'checkout':>8s}")
    tot = {"compare": 0.0, "checkout": 0.0}
    for n in rows:
        cells = []
        for k in ("compare", "checkout"):
            v = m(k, n)
            tot[k] += v or 0.0
            cells.append(f"{v:8.3f}" if v is not None else f"{'-':>8s}")
        print(f"{n.replace('robomaze._search.', ''):50s} {cells[0]} {cells[1]}")
        if a.passes:
            for k in ("compare", "checkout"):
                runs = [r[n]["passes"] for r in res[k] if n in r]
                if runs:
                    keys = sorted(runs[0], key=lambda p: -runs[0][p])[:6]
                    print(f"    {k:9s} " + ", ".join(
                        f"{p} {med(r.get(p, 0.0) for r in runs):.3f}" for p in keys))
    sums = {k: [sum(r[n]["cpu"] for n in r) for r in res[k]] for k in res}
    print(f"{'sum of medians':50s} {tot['compare']:8.3f} {tot['checkout']:8.3f}")
    print(f"{'per process sums':50s} {[round(x, 2) for x in sums['compare']]} "
          f"{[round(x, 2) for x in sums['checkout']]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
