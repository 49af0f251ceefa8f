"""Compile CPU of one kernel module's source in two checkouts, interleaved in one process.

Issue 40, round 12 (r12-walkers): the cold warm-up's kernels of
``plan/classic``, ``sense``, ``sim/agents`` and the default sweep's
generators. Each repetition executes the module's source of each checkout
afresh (``cache=False``; relative imports made absolute, so the rest of the
package is this checkout's) and compiles its entry kernels for the
signatures the warm-up's task gives them, nested inner kernels included;
the thread CPU per checkout, order alternating, medians. Same process, so
the load moves both sides alike. Each load of a module's source gets an
empty numba cache folder of its own: kernels whose decorator caches them
anyway (``@noalloc``, ``NOALLOC``) would otherwise load from the first
repetition's cache entries in every later one and time nothing (issue 40,
round 13's finding, fixed in round 14).

Usage::

    python benchmarks/bench_compile_sources.py REPS AREA [BASE]

``AREA``: classic, sense, agents, backtrack, wilson, kruskal; ``BASE``: the
other checkout (e.g. ``git archive main | tar -x -C /tmp/base``; default
``$AB_BASE`` or /tmp/base_r12w). Run with ``PYTHONPATH`` at this checkout.
"""
import os, sys, time, statistics, types, tempfile, shutil
from numba.core import config
from robomaze.bench import _warmup as W
import numpy as np
NEW = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASE = sys.argv[3] if len(sys.argv) > 3 else os.environ.get("AB_BASE", "/tmp/base_r12w")
AREAS = {
 "sense": ("robomaze/sense/_kernels.py", "robomaze.sense._kernels", ["scan_rows", "mark_scan"]),
 "classic": ("robomaze/plan/classic/_kernels.py", "robomaze.plan.classic._kernels", ["walker", "fill_dead_ends"]),
 "agents": ("robomaze/sim/agents/_kernels.py", "robomaze.sim.agents._kernels", ["descend"]),
 "backtrack": ("robomaze/generate/_kernels.py", "robomaze.generate._kernels", ["_backtrack"]),
 "wilson": ("robomaze/generate/_wilson_small.py", "robomaze.generate._wilson_small", ["_wilson_steps"]),
 "kruskal": ("robomaze/generate/_mst_small.py", "robomaze.generate._mst_small", ["_kruskal_picks"]),
}
reps, area = int(sys.argv[1]), sys.argv[2]
path, modname, names = AREAS[area]
import importlib
real = importlib.import_module(modname)
W._run({"sense": "simulate", "agents": "simulate", "classic": "classic"}.get(area, "generate:" + {"backtrack": "backtracker"}.get(area, area)), W._Context(None), False)
sigs = {n: getattr(real, n).signatures[0] for n in names}
pkg = modname.rsplit(".", 1)[0]
def load(root):
    src = open(os.path.join(root, path)).read().replace("cache=True", "cache=False")
    src = src.replace("@inner\n", "@inner(cache=False)\n").replace("@inner(_nrt=False)", "@inner(cache=False, _nrt=False)")
    lines = []
    for ln in src.split("\n"):
        if ln.startswith("from ..."):
            ln = "from " + pkg.rsplit(".", 2)[0] + "." + ln[8:]
        elif ln.startswith("from .."):
            ln = "from " + pkg.rsplit(".", 1)[0] + "." + ln[7:]
        elif ln.startswith("from ."):
            ln = "from " + pkg + "." + ln[6:]
        lines.append(ln)
    m = types.ModuleType(modname)
    m.__dict__["__name__"] = modname
    exec(compile("\n".join(lines), os.path.join(root, path), "exec"), m.__dict__)
    return m
res = {"base": [], "new": []}
folders = []
for r in range(reps):
    for k, root in (("base", BASE), ("new", NEW)) if r % 2 == 0 else (("new", NEW), ("base", BASE)):
        # robomaze's locator names a kernel's cache folder when it is decorated
        config.CACHE_DIR = tempfile.mkdtemp(prefix="rm-sources-")
        folders.append(config.CACHE_DIR)
        m = load(root)
        t = time.thread_time()
        for n in names:
            sig = sigs[n]
            if n == "walker" and "perms.reshape" not in open(os.path.join(root, path)).read():
                from numba import types as T
                a = list(sig.args if hasattr(sig, "args") else sig)
                a[15] = T.Array(T.int64, 2, "C")
                sig = tuple(a)
            getattr(m, n).compile(sig)
        res[k].append(time.thread_time() - t)
for folder in folders:
    shutil.rmtree(folder, ignore_errors=True)
b, n = statistics.median(res["base"]), statistics.median(res["new"])
runs = "; ".join(f"{k} " + " ".join(f"{x:.2f}" for x in v) for k, v in res.items())
load = " ".join(open("/proc/loadavg").read().split()[:3])
print(f"{area}: base {b:.3f} new {n:.3f} (-{b - n:.3f} s, {n / b:.2f}x); {runs}; load {load}")
