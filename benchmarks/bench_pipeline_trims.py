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

Round 12's trims are replayed the same way: each ``PostProcessor.run`` of
the warm-up (a deep copy of the IR it ran on, and its arguments), run
again with numba's code and with the deferred liveness and one-walk
use/defs on that state (``usedefs`` is the use/def part alone, included
in ``postproc``); each ``InlineWorker.inline_ir`` call's callee IR, copied the
way numba's inliner does twice (numba), and not at all for
``inline_function``'s fresh IR and once for other callers' (the trim). The collector
is off while replaying, as it is in a compile (``robomaze._compile.events``).

``--check-ir`` instead runs the warm-up twice, with the trims and without
(``ROBOMAZE_PIPELINE_TRIMS=0``), each in a fresh process and cache, and
compares the optimised LLVM IR of every library it finalises (addresses
masked): the trims must leave every one the same.

Round 13's: each ``ssa._run_ssa`` call of the warm-up (a deep copy of the
blocks it was given, copied again before each replay: the reconstruction
renames in the scope) run with numba's block rewrites and with the trim's
(``ssa``); each ``_inline_const_arraycall`` call (a copy of its block) run
with numba's function and with the trim's (``constarr``).

Usage::

    python benchmarks/bench_pipeline_trims.py [--checkout DIR] [--repeat 5]
    python benchmarks/bench_pipeline_trims.py --check-ir
"""

from __future__ import annotations

import argparse
import json
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
# round 12: the post-processor's runs (the IR at each) and the inliner's callees
import copy as _copymod, gc
from numba.core import postproc, inline_closurecall as icc
PP = []; INL = []
def _snapshot(fir):
    kc = fir.copy()
    kc.blocks = {k: _copymod.deepcopy(b) for k, b in fir.blocks.items()}
    kc.block_entry_vars = {}; kc.variable_lifetime = None
    return kc
_pp_run = postproc.PostProcessor.run
def rec_pp(self, emit_dels=False, extend_lifetimes=False):
    if not self.func_ir.is_generator:
        PP.append((_snapshot(self.func_ir), emit_dels, extend_lifetimes))
    return _pp_run(self, emit_dels, extend_lifetimes)
postproc.PostProcessor.run = rec_pp
_inl, _inf = icc.InlineWorker.inline_ir, icc.InlineWorker.inline_function
FRESH = [False]
def rec_inf(self, *a, **k):
    FRESH[0] = True      # inline_function's IR: built by it for this call
    try: return _inf(self, *a, **k)
    finally: FRESH[0] = False
def rec_inl(self, caller_ir, block, i, callee_ir, *a, **k):
    INL.append((_snapshot(callee_ir), FRESH[0]))
    FRESH[0] = False
    return _inl(self, caller_ir, block, i, callee_ir, *a, **k)
icc.InlineWorker.inline_ir = rec_inl; icc.InlineWorker.inline_function = rec_inf
# round 13: each SSA reconstruction's blocks, each constant-array rewrite's block
from numba.core import ssa
SSA = []; ARR = []
_ssa_run = ssa._run_ssa
def rec_ssa(blocks):
    SSA.append(_copymod.deepcopy(blocks))
    return _ssa_run(blocks)
ssa._run_ssa = rec_ssa
_arr = icc._inline_const_arraycall
def rec_arr(block, func_ir, context, typemap, calltypes):
    ARR.append((_copymod.deepcopy(block), func_ir, context, typemap, calltypes))
    return _arr(block, func_ir, context, typemap, calltypes)
icc._inline_const_arraycall = rec_arr
import robomaze.bench._warm  # noqa: F401  (runs the warm-up)
total = time.thread_time() - t
ssa._run_ssa = _ssa_run; icc._inline_const_arraycall = _arr
print("SSA reconstructions", len(SSA), "constant-array rewrites", len(ARR), flush=True)
lock._cblist.pop()
ir.Inst._rec_list_vars = _lv; base.BaseContext.get_abi_sizeof = _abi
postproc.PostProcessor.run = _pp_run
icc.InlineWorker.inline_ir = _inl; icc.InlineWorker.inline_function = _inf
print("post-processor runs", len(PP), "of which with dels", sum(1 for _, d, _e in PP if d),
      "inlined calls", len(INL), "of which inline_function's", sum(1 for _, f in INL if f),
      flush=True)
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
fast_pp = postproc.PostProcessor.run; slow_pp = fast_pp.__wrapped__
fast_inl = icc.InlineWorker.inline_ir
assert hasattr(fast_inl, "__wrapped__")
from numba.core import analysis
fast_ud = analysis.compute_use_defs; slow_ud = fast_ud.__wrapped__
def t_pp(run):
    # numba's run with numba's use/def analysis; the trim's with the trim's
    analysis.compute_use_defs = slow_ud if run is slow_pp else fast_ud
    t0 = 0.0
    for fir, dels, ext in PP:
        fir.block_entry_vars = {}; fir.variable_lifetime = None
        pp = postproc.PostProcessor(fir)
        t = time.thread_time()
        run(pp, dels, ext)
        t0 += time.thread_time() - t
        if dels:
            pp.remove_dels()
    analysis.compute_use_defs = fast_ud
    return t0
def t_ud(fn):   # the use/def analysis alone, on the IR of each post-processor run
    t = time.thread_time()
    for fir, _d, _e in PP:
        fn(fir.blocks)
    return time.thread_time() - t
def copy_ir(the_ir):      # numba's inliner's copy (inline_closurecall.InlineWorker.inline_ir)
    kernel_copy = the_ir.copy()
    kernel_copy.blocks = {}
    for block_label, block in the_ir.blocks.items():
        kernel_copy.blocks[block_label] = _copymod.deepcopy(the_ir.blocks[block_label])
    return kernel_copy
def t_inl(trim):
    # numba: two copies per call; the trim: none of inline_function's fresh IR,
    # one of other callers' (InlineOverloads')
    t = time.thread_time()
    for callee, fresh in INL:
        if not (trim and fresh):
            c = copy_ir(callee)
            if not trim:
                copy_ir(c)
    return time.thread_time() - t
fast_ssa = ssa._run_ssa; slow_ssa = fast_ssa.__wrapped__
assert fast_ssa is not slow_ssa
fast_arr = icc._inline_const_arraycall; slow_arr = fast_arr.__wrapped__
import warnings
def t_ssa(run):
    # each call on a fresh copy of the blocks it had (numba's redefinitions mutate the scope)
    t0 = 0.0
    for blocks in SSA:
        b = _copymod.deepcopy(blocks)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t = time.thread_time()
            run(b)
            t0 += time.thread_time() - t
    return t0
def t_arr(fn):
    t = time.thread_time()
    for block, fir, ctx, tm, ct in ARR:
        try:
            fn(block, fir, ctx, tm, ct)
        except Exception:
            pass   # numba's guard() catches these too
    return time.thread_time() - t
gc.disable()
R = collections.defaultdict(list)
for rep in range(int(os.environ.get('REPLAY_REPEAT', '5'))):
    R["abi_numba"].append(t_abi(_abi)); R["abi_trim"].append(t_abi(fast_abi))
    R["lv_numba"].append(t_lv(slow_lv)); R["lv_trim"].append(t_lv(fast_lv))
    R["lock_numba"].append(t_lock(slow_enter, slow_exit)); R["lock_trim"].append(t_lock(fast_enter, fast_exit))
    R["postproc_numba"].append(t_pp(slow_pp)); R["postproc_trim"].append(t_pp(fast_pp))
    R["inline_numba"].append(t_inl(False)); R["inline_trim"].append(t_inl(True))
    R["usedefs_numba"].append(t_ud(slow_ud)); R["usedefs_trim"].append(t_ud(fast_ud))
    R["ssa_numba"].append(t_ssa(slow_ssa)); R["ssa_trim"].append(t_ssa(fast_ssa))
    R["constarr_numba"].append(t_arr(slow_arr)); R["constarr_trim"].append(t_arr(fast_arr))
    gc.collect()
import statistics
med = {k: round(statistics.median(v), 3) for k, v in R.items()}
med["saved"] = round(sum(med[f"{k}_numba"] - med[f"{k}_trim"] for k in ("abi", "lv", "lock")), 3)
med["saved_round12"] = round(sum(med[f"{k}_numba"] - med[f"{k}_trim"]
                                 for k in ("postproc", "inline")), 3)   # usedefs is inside postproc
med["saved_round13"] = round(sum(med[f"{k}_numba"] - med[f"{k}_trim"]
                                 for k in ("ssa", "constarr")), 3)
med["load"] = os.getloadavg()[0]
print(json.dumps(med))
'''


# the optimised IR of every library the warm-up finalises, addresses masked
_IR_CHILD = r'''
import hashlib, json, re, time
from numba.core import codegen
irs = []
finalize = codegen.CPUCodeLibrary._finalize_final_module
def keep(self):
    text = re.sub(r"0x[0-9a-f]+|[0-9a-f]{8,}", "X", str(self._final_module))
    irs.append([self.name, hashlib.sha1(text.encode()).hexdigest(), len(text)])
    return finalize(self)
codegen.CPUCodeLibrary._finalize_final_module = keep
t = time.thread_time()
import robomaze.bench._warm  # noqa: F401  (runs the warm-up)
print(json.dumps({"irs": irs, "cpu": time.thread_time() - t}))
'''


def check_ir(checkout: Path, wanted: str) -> int:
    got = {}
    for trims in ("1", "0"):
        cache = tempfile.mkdtemp(prefix="rm-trims-ir-")
        env = dict(os.environ, PYTHONPATH=str(checkout), NUMBA_CACHE_DIR=cache,
                   ROBOMAZE_WARM_PROCESSES="1", ROBOMAZE_WARM=wanted,
                   ROBOMAZE_SHIPPED_KERNELS="0", ROBOMAZE_PIPELINE_TRIMS=trims)
        try:
            out = subprocess.run([sys.executable, "-c", _IR_CHILD], env=env, cwd=cache,
                                 check=True, capture_output=True, text=True)
        finally:
            shutil.rmtree(cache, ignore_errors=True)
        got[trims] = json.loads(out.stdout.strip().splitlines()[-1])
    on, off = got["1"]["irs"], got["0"]["irs"]
    same = on == off
    print(f"libraries finalised: {len(on)} with the trims, {len(off)} without; "
          f"IR {'identical' if same else 'DIFFERENT'} ({sum(r[2] for r in on):,} characters); "
          f"warm-up thread CPU {got['1']['cpu']:.2f} / {got['0']['cpu']:.2f} s; "
          f"load {os.getloadavg()[0]:.1f}")
    if not same:
        for a, b in zip(on, off):
            if a != b:
                print("  differs:", a, b)
    return 0 if same else 1


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkout", default=str(ROOT))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--check-ir", action="store_true",
                    help="compare the warm-up's optimised IR with and without the trims")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_coldstart

    checkout = Path(args.checkout).resolve()
    bench_coldstart.ROOT = checkout
    if args.check_ir:
        return check_ir(checkout, bench_coldstart._default_list())
    cache = tempfile.mkdtemp(prefix="rm-trims-")
    env = dict(os.environ, PYTHONPATH=str(checkout), NUMBA_CACHE_DIR=cache,
               ROBOMAZE_WARM_PROCESSES="1", ROBOMAZE_WARM=bench_coldstart._default_list(),
               ROBOMAZE_SHIPPED_KERNELS="0", REPLAY_REPEAT=str(args.repeat))
    try:
        out = subprocess.run([sys.executable, "-c", _CHILD], env=env, cwd=cache, check=True,
                             capture_output=True, text=True)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    print(out.stdout, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
