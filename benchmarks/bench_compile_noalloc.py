"""Which of the warm-up's kernels can compile without NRT (``NOALLOC``), and what it saves.

The default sweep's warm-up is run once in a child process (fresh
``NUMBA_CACHE_DIR``, no shipped kernels, one process) so that every
robomaze kernel it uses has its signatures. Then, for each robomaze kernel
(``--only`` names some), each signature is compiled again from the
kernel's Python function in a fresh dispatcher with the kernel's own
options, as it is and with ``_nrt=False`` (what
:data:`robomaze._compile.kernels.NOALLOC` adds), interleaved, ``--repeat``
times: the medians of thread CPU are printed per kernel, with
``allocates`` for a kernel numba refuses to compile without NRT (an array,
list or string made or returned in it: its callers would have to
allocate first). The kernels it calls are compiled already, so a figure is
the kernel's own compile (as ``bench_compile_events.py``'s exclusive CPU).

Usage::

    python benchmarks/bench_compile_noalloc.py [--repeat 3] [--only walker,fill_dead_ends]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_CHILD = r'''
import json, os, statistics, sys, time
import robomaze.bench._warm  # noqa: F401  (the warm-up: every kernel gets its signatures)
from numba import njit
from numba.core import errors
from numba.core.registry import CPUDispatcher

only = set(filter(None, os.environ.get("NOALLOC_ONLY", "").split(",")))
repeat = int(os.environ.get("NOALLOC_REPEAT", "3"))
kernels = {}
for name, mod in sorted(sys.modules.items()):
    if not name.startswith("robomaze"):
        continue
    for attr, obj in sorted(vars(mod).items()):
        if isinstance(obj, CPUDispatcher) and obj.py_func.__module__ == name and obj.signatures:
            if only and attr not in only:
                continue
            kernels[f"{name.replace('robomaze.', '')}.{attr}"] = obj


def compile_cpu(disp, nrt):
    opts = {k: v for k, v in disp.targetoptions.items() if k != "cache"}
    if not nrt:
        opts["_nrt"] = False
    t = time.thread_time()
    try:
        fresh = njit(**opts)(disp.py_func)
        for sig in disp.signatures:
            fresh.compile(sig)
    except errors.NumbaError:
        return None
    return time.thread_time() - t


rows = []
for key, disp in kernels.items():
    runs = {True: [], False: []}
    for _ in range(repeat):
        for nrt in (True, False):
            runs[nrt].append(compile_cpu(disp, nrt))
    with_nrt = statistics.median(runs[True])
    without = None if None in runs[False] else statistics.median(runs[False])
    already = disp.targetoptions.get("_nrt") is False
    rows.append((key, len(disp.signatures), with_nrt, without, already))
    print(json.dumps(rows[-1]), flush=True)
'''


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkout", default=str(ROOT))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", default="", help="kernel names (comma-separated)")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import json

    import bench_coldstart

    checkout = Path(args.checkout).resolve()
    bench_coldstart.ROOT = checkout
    cache = tempfile.mkdtemp(prefix="rm-noalloc-")
    env = dict(os.environ, PYTHONPATH=str(checkout), NUMBA_CACHE_DIR=cache,
               ROBOMAZE_WARM_PROCESSES="1", ROBOMAZE_WARM=bench_coldstart._default_list(),
               ROBOMAZE_SHIPPED_KERNELS="0", NOALLOC_ONLY=args.only,
               NOALLOC_REPEAT=str(args.repeat))
    print(f"load {os.getloadavg()[0]:.1f}")
    try:
        out = subprocess.run([sys.executable, "-c", _CHILD], env=env, cwd=cache, check=True,
                             capture_output=True, text=True)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    rows = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("[")]
    rows.sort(key=lambda r: -(r[2] or 0.0))
    print(f"{'kernel':58s} sigs  NRT (s)  no NRT (s)  saved")
    saved = 0.0
    for key, n, with_nrt, without, already in rows:
        if without is None:
            tail = "allocates"
        else:
            saved += with_nrt - without
            tail = f"{without:9.3f}  {with_nrt - without:+6.3f}" + ("  (already NOALLOC)" if already
                                                                      else "")
        print(f"{key:58s} {n:3d}  {with_nrt:7.3f}  {tail}")
    fit = [r for r in rows if r[3] is not None]
    print(f"{len(fit)} of {len(rows)} kernels compile without NRT; "
          f"their compile CPU {sum(r[2] for r in fit):.2f} -> {sum(r[3] for r in fit):.2f} s "
          f"({-saved:+.2f} s); load {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
