"""The pipeline trims (robomaze._compile.pipeline_trims) leave numba's output as it was.

Kernels compiled in a process with the trims and in one without
(``ROBOMAZE_PIPELINE_TRIMS=0``) must give the same optimised LLVM IR and the
same results; each trim is also checked against numba's own code path run
again in this process (ABI sizes against llvmlite's, variable lists against
numba's recursive walk, the LLVM lock's timing against numba's listener).
"""

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from numba import njit
from numba.core import compiler, event, ir

from robomaze._compile import pipeline_trims

# robomaze kernels (an engine search, the classic walkers' BFS, a distance
# field) and a numba kernel with arrays, tuples and an inlined overload: the
# optimised IR of every library finalised, and the results
_KERNELS = textwrap.dedent('''
    import hashlib, json, re, sys
    import numpy as np
    import robomaze
    from numba import njit
    from numba.core import codegen

    irs = []
    finalize = codegen.CPUCodeLibrary._finalize_final_module

    def keep(self):
        text = re.sub(r"0x[0-9a-f]+|[0-9a-f]{8,}", "X", str(self._final_module))
        irs.append([self.name, hashlib.sha1(text.encode()).hexdigest()])
        return finalize(self)

    codegen.CPUCodeLibrary._finalize_final_module = keep

    @njit
    def mixed(a, n):
        out = np.empty((n, 2), np.int64)
        s = 0.0
        for i in range(n):
            s += a[i] * 1.5 - (i >> 1)
            out[i, 0], out[i, 1] = i, np.int64(s)
        return s, out, np.concatenate((a, a)).sum()

    from robomaze._search import bfs_path

    s, out, c = mixed(np.arange(7.0), 7)
    rng = np.random.default_rng(5)
    free = (rng.random((15, 15)) > 0.25).astype(np.uint8)
    free[0, 0] = free[-1, -1] = 1
    route = bfs_path(free.ravel(), 15, 15, 0, 15 * 15 - 1)
    res = {"mixed": [s, out.tolist(), float(c)], "bfs": np.asarray(route).tolist()}
    print(json.dumps({"irs": irs, "results": res}))
''')


def _compiled(trims: bool) -> dict:
    import tempfile

    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, ROBOMAZE_PIPELINE_TRIMS="1" if trims else "0",
                   NUMBA_CACHE_DIR=cache)
        out = subprocess.run([sys.executable, "-c", _KERNELS], env=env, capture_output=True,
                             text=True, check=True, cwd=cache, restore_signals=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _installed() -> bool:
    import llvmlite
    import numba

    got = pipeline_trims.install()
    assert got is pipeline_trims.verified(numba.__version__, llvmlite.__version__)
    return got


def test_kernels_compiled_with_and_without_the_trims_are_the_same_code():
    with_trims, without = _compiled(True), _compiled(False)
    assert with_trims["results"] == without["results"]
    # 15x15 corner to corner: no route is shorter than the Manhattan 29 cells
    assert len(with_trims["results"]["bfs"]) == 29
    # every library (kernels, numba's overloads, wrappers) optimised to the same IR
    assert with_trims["irs"] == without["irs"]
    assert len(with_trims["irs"]) >= 4


def test_the_trims_are_installed_once_and_can_be_switched_off():
    if not _installed():
        pytest.skip("numba/llvmlite release the trims were not checked against")
    import llvmlite.binding as llb
    from numba.core import base

    assert hasattr(base.BaseContext.get_abi_sizeof, "__wrapped__")
    assert hasattr(ir.Inst._rec_list_vars, "__wrapped__")
    assert any(hasattr(acq, "__wrapped__") for acq, _ in llb.ffi.lib._lock._cblist)
    code = ("import robomaze, numba; from numba.core import ir, base; "
            "print(hasattr(ir.Inst._rec_list_vars, '__wrapped__'), "
            "hasattr(base.BaseContext.get_abi_sizeof, '__wrapped__'))")
    env = dict(os.environ, ROBOMAZE_PIPELINE_TRIMS="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True, restore_signals=True)
    assert out.stdout.split() == ["False", "False"]


def test_version_gate():
    assert pipeline_trims.verified("0.68.1", "0.50.0")
    assert pipeline_trims.verified("0.68.0", "0.50.3")
    assert not pipeline_trims.verified("0.67.1", "0.50.0")
    assert not pipeline_trims.verified("0.68.1", "0.51.0")
    assert not pipeline_trims.verified("", "0.50.0")


def test_abi_sizes_are_llvmlites():
    if not _installed():
        pytest.skip("trims not installed")
    from llvmlite import ir as llir
    from numba.core import types
    from numba.core.registry import cpu_target

    ctx = cpu_target.target_context
    slow = type(ctx).get_abi_sizeof.__wrapped__
    tys = [ctx.get_value_type(t) for t in (types.int8, types.float64, types.intp[:, ::1],
                                           types.UniTuple(types.int32, 3),
                                           types.Tuple((types.int8, types.float64)))]
    tys += [llir.LiteralStructType([llir.IntType(8), llir.IntType(64), llir.IntType(16)]),
            llir.ArrayType(llir.IntType(32), 5)]
    for ty in tys + tys:                 # the second pass answers from the memo
        assert ctx.get_abi_sizeof(ty) == slow(ctx, ty)
    assert ctx.get_abi_sizeof(tys[5]) == 24      # i8 pad7, i64, i16 pad6
    assert pipeline_trims.stats()["abi_hits"] >= len(tys)
    # an identified struct's text does not carry its body: never memoised
    named = llir.global_context.get_identified_type("robomaze.test.abi")
    named.set_body(llir.IntType(64), llir.IntType(8))
    before = pipeline_trims.stats()
    assert ctx.get_abi_sizeof(named) == slow(ctx, named) == 16
    assert pipeline_trims.stats() == before


def test_variable_lists_are_numbas():
    if not _installed():
        pytest.skip("trims not installed")
    from robomaze._search import _engine

    slow = ir.Inst._rec_list_vars.__wrapped__
    funcs = [f.py_func for f in vars(_engine).values() if hasattr(f, "py_func")][:6]
    stmts = []
    for f in funcs:
        blocks = compiler.run_frontend(f).blocks.values()
        stmts += [s for b in blocks for s in b.body]
    assert len(stmts) > 200
    for s in stmts:
        if type(s).list_vars is ir.Stmt.list_vars:
            want = slow(s, s.__dict__)
        else:
            continue
        got = s.list_vars()
        assert len(got) == len(want) and all(a is b for a, b in zip(got, want))
    exprs = [s.value for s in stmts if isinstance(s, ir.Assign) and isinstance(s.value, ir.Expr)]
    assert len(exprs) > 100
    for e in exprs:
        want, got = slow(e, e._kws), e.list_vars()
        assert len(got) == len(want) and all(a is b for a, b in zip(got, want))


def test_llvm_lock_timing_and_other_listeners_see_the_events():
    if not _installed():
        pytest.skip("trims not installed")
    import llvmlite.binding as llb

    rec = event.RecordingListener()
    timing = event.TimingListener()
    with event.install_listener("numba:llvm_lock", rec), \
            event.install_listener("numba:llvm_lock", timing):
        llb.parse_assembly("define i32 @f() {\n ret i32 1\n}").verify()
    kinds = [e.status for _, e in rec.buffer]
    assert kinds and len(kinds) % 2 == 0
    assert kinds[0] == event.EventStatus.START and kinds[-1] == event.EventStatus.END
    assert timing.done and 0.0 <= timing.duration < 60.0
    assert timing._depth == 0

    # a compile's own timers still record the time under the lock
    @njit
    def k(n):
        return np.arange(n).sum() + 1

    assert k(4) == 7
    timers = next(iter(k.overloads.values())).metadata["timers"]
    assert timers["llvm_lock"] > 0.0
