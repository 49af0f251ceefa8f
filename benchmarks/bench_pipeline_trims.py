"""What the pipeline trims save: the default sweep's warm-up, replayed call for call.

The one-process cold warm-up (``ROBOMAZE_WARM_PROCESSES=1``, the
``ROBOMAZE_WARM`` list of ``bench_coldstart._default_list()``, an empty
``NUMBA_CACHE_DIR``) runs with ``ROBOMAZE_PIPELINE_TRIMS=0`` while every
call a trim of :mod:`robomaze._compile.pipeline_trims` replaces is recorded:
each ``get_abi_sizeof`` (context, LLVM type), each outermost
``Inst._rec_list_vars`` (statement, value) and each LLVM-lock acquisition
(with how many numba timing listeners it had). Then, in the same process,
the trims are installed and the recorded calls are replayed with numba's
code and with the trim's, interleaved, ``--repeat`` times; the medians and
the load are printed (thread CPU seconds). A whole-warm-up comparison
(``bench_compile_events.py``) carries the other sessions' noise; this one
times only the replaced calls.

Usage::

    python benchmarks/bench_pipeline_trims.py [--checkout DIR] [--repeat 5]
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
# warm-up with the trims off, recording the calls the trims replace; then replay
# each call with numba's code and with the trim (same process, interleaved)
import os, sys, time, json, collections
os.environ["ROBOMAZE_PIPELINE_TRIMS"] = "0"
import numba, llvmlite.binding as llb
from numba.core import base, ir, event
ABI = []; LV = []; LOCKN = collections.Counter()
_abi = base.BaseContext.get_abi_sizeof
def rec_abi(self, ty):
    ABI.append((self, ty)); return _abi(self, ty)
base.BaseContext.get_abi_sizeof = rec_abi
_lv = ir.Inst._rec_list_vars
depth = [0]
def rec_lv(self, val):
    if depth[0] == 0:
        LV.append((self, val))
    depth[0] += 1
    try: return _lv(self, val)
    finally: depth[0] -= 1
ir.Inst._rec_list_vars = rec_lv
lock = llb.ffi.lib._lock
def count():
    LOCKN[len(event._registered["numba:llvm_lock"])] += 1
lock.register(count, lambda: None)
t = time.thread_time()
import robomaze.bench._warm  # noqa: F401  (runs the warm-up)
total = time.thread_time() - t
lock._cblist.pop()
ir.Inst._rec_list_vars = _lv; base.BaseContext.get_abi_sizeof = _abi
print("warm-up thread CPU", round(total, 2), "abi calls", len(ABI), "list_vars top calls", len(LV),
      "lock acquisitions by listeners", dict(LOCKN), flush=True)
# now the trims, in this process
os.environ["ROBOMAZE_PIPELINE_TRIMS"] = "1"
from robomaze._compile import pipeline_trims as pt
pt._INSTALLED = None
assert pt.install()
fast_abi = base.BaseContext.get_abi_sizeof; fast_lv = ir.Inst._rec_list_vars
slow_lv = fast_lv.__wrapped__
(fast_enter, fast_exit) = [p for p in lock._cblist if hasattr(p[0], "__wrapped__")][0]
slow_enter, slow_exit = fast_enter.__wrapped__, fast_exit.__wrapped__
def t_abi(fn):
    # a fresh memo per replay: the warm-up's first asks are misses again
    for ctx in {id(c): c for c, _ in ABI}.values():
        ctx.__dict__.pop("_robomaze_abi_sizes", None)
    t = time.thread_time()
    for ctx, ty in ABI: fn(ctx, ty)
    return time.thread_time() - t
def t_lv(fn):
    t = time.thread_time()
    for s, v in LV: fn(s, v)
    return time.thread_time() - t
def t_lock(enter, exit_):
    # the warm-up's acquisitions, each with as many numba timers listening as it had
    t0 = 0.0
    for n, k in LOCKN.items():
        ls = [event.TimingListener() for _ in range(n)]
        for l in ls: event.register("numba:llvm_lock", l)
        t = time.thread_time()
        for _ in range(k):
            enter(); exit_()
        t0 += time.thread_time() - t
        for l in ls: event.unregister("numba:llvm_lock", l)
    return t0
R = collections.defaultdict(list)
for rep in range(int(os.environ.get('REPLAY_REPEAT', '5'))):
    R["abi_numba"].append(t_abi(_abi)); R["abi_trim"].append(t_abi(fast_abi))
    R["lv_numba"].append(t_lv(slow_lv)); R["lv_trim"].append(t_lv(fast_lv))
    R["lock_numba"].append(t_lock(slow_enter, slow_exit)); R["lock_trim"].append(t_lock(fast_enter, fast_exit))
import statistics
med = {k: round(statistics.median(v), 3) for k, v in R.items()}
med["saved"] = round(sum(med[f"{k}_numba"] - med[f"{k}_trim"] for k in ("abi", "lv", "lock")), 3)
med["load"] = os.getloadavg()[0]
print(json.dumps(med))
'''


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkout", default=str(ROOT))
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_coldstart

    checkout = Path(args.checkout).resolve()
    bench_coldstart.ROOT = checkout
    cache = tempfile.mkdtemp(prefix="rm-trims-")
    env = dict(os.environ, PYTHONPATH=str(checkout), NUMBA_CACHE_DIR=cache,
               ROBOMAZE_WARM_PROCESSES="1", ROBOMAZE_WARM=bench_coldstart._default_list(),
               REPLAY_REPEAT=str(args.repeat))
    try:
        out = subprocess.run([sys.executable, "-c", _CHILD], env=env, cwd=cache, check=True,
                             capture_output=True, text=True)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    print(out.stdout, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
