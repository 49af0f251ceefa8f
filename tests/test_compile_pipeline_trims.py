"""The pipeline trims (robomaze._compile.pipeline_trims) leave numba's output as it was.

Kernels compiled in a process with the trims and in one without
(``ROBOMAZE_PIPELINE_TRIMS=0``) must give the same optimised LLVM IR and the
same results; each trim is also checked against numba's own code path run
again in this process (ABI sizes against llvmlite's, variable lists against
numba's recursive walk, the LLVM lock's timing against numba's listener,
the deferred liveness against numba's analyses of the IR at each
post-processor run, the inliner against numba's byte code but one call).
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

    @njit(inline="always")
    def _step(x, k):
        if x & 1:
            return 3 * x + k
        return x >> 1

    @njit
    def collatz(a):
        steps = np.zeros(a.size, np.int64)
        for i in range(a.size):
            x = a[i]
            while x != 1:
                x = _step(x, 1)
                steps[i] += 1
        return steps

    @njit
    def evens(n):
        for i in range(n):
            if i % 2 == 0:
                yield i * i

    @njit
    def gen_sum(n):
        t = 0
        for v in evens(n):
            t += v
        return t

    @njit
    def consts(x):
        # a constant list made an array: numba's RewriteArrayOfConsts
        a = np.array([1.0, 2.5, x])
        n = len(a)
        return a.sum() * n

    from robomaze._search import bfs_path

    s, out, c = mixed(np.arange(7.0), 7)
    steps = collatz(np.arange(1, 30))
    g = gen_sum(11)
    rng = np.random.default_rng(5)
    free = (rng.random((15, 15)) > 0.25).astype(np.uint8)
    free[0, 0] = free[-1, -1] = 1
    route = bfs_path(free.ravel(), 15, 15, 0, 15 * 15 - 1)
    res = {"mixed": [s, out.tolist(), float(c)], "bfs": np.asarray(route).tolist(),
           "collatz": steps.tolist(), "gen": int(g), "consts": consts(4.5)}
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
    # hand-checked: 27 takes 111 steps to reach 1; 0 + 4 + 16 + 36 + 64 + 100
    assert with_trims["results"]["collatz"][26] == 111 and with_trims["results"]["gen"] == 220
    assert with_trims["results"]["consts"] == 24.0    # (1 + 2.5 + 4.5) * 3
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
    from numba.core import inline_closurecall, postproc

    assert hasattr(postproc.PostProcessor.run, "__wrapped__")
    assert hasattr(ir.FunctionIR.copy, "__wrapped__")
    assert hasattr(inline_closurecall.InlineWorker.inline_ir, "__wrapped__")
    code = ("import robomaze, numba; from numba.core import ir, base, postproc, inline_closurecall; "
            "print(hasattr(ir.Inst._rec_list_vars, '__wrapped__'), "
            "hasattr(base.BaseContext.get_abi_sizeof, '__wrapped__'), "
            "hasattr(postproc.PostProcessor.run, '__wrapped__'), "
            "hasattr(ir.FunctionIR.copy, '__wrapped__'), "
            "hasattr(inline_closurecall.InlineWorker.inline_ir, '__wrapped__'))")
    env = dict(os.environ, ROBOMAZE_PIPELINE_TRIMS="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True, restore_signals=True)
    assert out.stdout.split() == ["False"] * 5


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


def test_deferred_liveness_is_numbas_at_each_run_whenever_read():
    """Each post-processor run's live map, dead maps and block entry
    variables, read after the compile went on changing the IR, equal numba's
    own analyses of the IR as it was at that run."""
    if not _installed():
        pytest.skip("trims not installed")
    from numba.core import analysis, postproc

    trimmed = postproc.PostProcessor.run
    assert hasattr(trimmed, "__wrapped__")
    seen = []

    def checking(self, emit_dels=False, extend_lifetimes=False):
        fir = self.func_ir
        trimmed(self, emit_dels, extend_lifetimes)
        if fir.is_generator:
            return
        # numba's analyses now, on the IR as it is (dels included when emitted)
        vlt = postproc.VariableLifetime(fir.blocks)
        want_live = {k: set(v) for k, v in vlt.livemap.items()}
        dead = vlt.deadmaps
        want_dead = [{k: set(v) for k, v in m.items()} for m in (dead.internal, dead.escaping,
                                                                  dead.combined)]
        bev = analysis.compute_live_variables(vlt.cfg, fir.blocks, vlt.usedefs.defmap,
                                              dead.combined)
        want_entry = {b: set(bev[k]) for k, b in fir.blocks.items()}
        seen.append((fir, fir.variable_lifetime, want_live, want_dead, want_entry))

    @njit(inline="always", cache=False)
    def _clip(v, lo, hi):
        return lo if v < lo else (hi if v > hi else v)

    @njit(cache=False)
    def smooth(a, out):
        n = a.size
        for i in range(n):
            t, c = 0.0, 0
            for j in range(i - 2, i + 3):
                if 0 <= j < n:
                    t += a[j]
                    c += 1
            out[i] = _clip(t / c, -1.0, 1.0)
        return out.sum()

    postproc.PostProcessor.run = checking
    try:
        a = np.sin(np.arange(40) * 0.7) * 1.4
        got = smooth(a, np.empty(40))
    finally:
        postproc.PostProcessor.run = trimmed
    ref = [min(1.0, max(-1.0, a[max(0, i - 2):i + 3].mean())) for i in range(40)]
    assert got == pytest.approx(sum(ref), abs=1e-12)
    assert len(seen) >= 8
    for fir, vlt, want_live, want_dead, want_entry in seen:
        assert vlt.livemap == want_live
        dead = vlt.deadmaps
        assert [dict(dead.internal), dict(dead.escaping), dead.combined] == want_dead
        entry = fir.block_entry_vars
        for block, names in want_entry.items():
            if fir.variable_lifetime is vlt:   # the last run's entries are the IR's
                assert entry[block] == names
    assert pipeline_trims.stats()["entry_vars_computed"] >= 1


def test_a_copied_ir_keeps_deferred_entries_as_numbas_copy_would():
    if not _installed():
        pytest.skip("trims not installed")
    from numba.core import postproc

    def f(a, n):
        s = 0
        for i in range(n):
            if a[i] > 0:
                s += a[i]
        return s

    fir = compiler.run_frontend(f)
    postproc.PostProcessor(fir).run()
    copied = fir.copy()                        # deferred: nothing computed yet
    assert type(copied.block_entry_vars).__name__ == "_EntryVars"
    plain = ir.FunctionIR.copy.__wrapped__(fir)  # numba's copy reads every entry
    assert set(copied.blocks) == set(plain.blocks)
    for label, block in copied.blocks.items():
        assert block in copied.block_entry_vars
        assert copied.block_entry_vars[block] == plain.block_entry_vars[plain.blocks[label]]
        assert copied.block_entry_vars[block] is fir.block_entry_vars[fir.blocks[label]]


def test_inliner_is_numbas_without_the_unread_copies():
    if not _installed():
        pytest.skip("trims not installed")
    import difflib
    import dis
    import inspect
    import re

    from numba.core import inline_closurecall, typed_passes, untyped_passes

    worker = inline_closurecall.InlineWorker
    jumps = set(dis.hasjrel) | set(dis.hasjabs)

    def ops(f):
        # jump targets move with the changed code (compared by kind only); a
        # method call may compile as LOAD_ATTR or LOAD_METHOD, with or without
        # a PUSH_NULL, by where the text was compiled
        return [(i.opname.replace("LOAD_METHOD", "LOAD_ATTR"), None if i.opcode in jumps else
                 "<code>" if hasattr(i.argval, "co_code") else i.argval)
                for i in dis.get_instructions(f)
                if i.opname not in ("CACHE", "PRECALL", "PUSH_NULL")]

    def changes(f):
        assert f.__code__.co_filename == f.__wrapped__.__code__.co_filename
        theirs, mine = ops(f.__wrapped__), ops(f)
        return [(theirs[i1:i2], mine[j1:j2]) for tag, i1, i2, j1, j2 in
                difflib.SequenceMatcher(a=theirs, b=mine, autojunk=False).get_opcodes()
                if tag != "equal"]

    # inline_ir: the first copy made conditional on the mark, the second gone
    ch = changes(worker.inline_ir)
    assert len(ch) == 2, ch
    (old1, new1), (old2, new2) = ch
    assert ("LOAD_ATTR", "__dict__") in new1 and ("LOAD_CONST", "_robomaze_fresh") in new1
    assert new2 == [("LOAD_CONST", None)]
    assert ("LOAD_FAST", "callee_ir") in old2 and len(old2) <= 5
    src = inspect.getsource(worker.inline_ir.__wrapped__)
    assert src.count("callee_ir_original = copy_ir(callee_ir)") == 1
    assert src.count("callee_ir = copy_ir(callee_ir)") == 1
    # inline_function: only the mark added after its own run_untyped_passes
    ch = changes(worker.inline_function)
    assert len(ch) == 1 and ch[0][1][-1] == ("STORE_ATTR", "_robomaze_fresh"), ch
    assert not any(op[0].startswith("CALL") for op in ch[0][1])

    # behaviour: fresh IR is spliced in as it is; IR kept elsewhere is copied
    from numba.core.registry import cpu_target

    def callee(x):
        return x + 1

    def caller(y):
        return callee(y) * 2

    tctx, cctx, flags = cpu_target.typing_context, cpu_target.target_context, compiler.Flags()
    pipeline = compiler.Compiler(tctx, cctx, None, (), None, flags, {})
    iw = worker(tctx, cctx, {}, pipeline, flags)
    for fresh in (True, False):
        caller_ir = compiler.run_frontend(caller)
        kept = iw.run_untyped_passes(callee)
        before = {id(st) for blk in kept.blocks.values() for st in blk.body}
        if fresh:
            kept._robomaze_fresh = True
        where = next((blk, i) for blk in caller_ir.blocks.values()
                     for i, st in enumerate(blk.body)
                     if isinstance(st, ir.Assign) and isinstance(st.value, ir.Expr)
                     and st.value.op == "call")
        orig, _b, _v, new_blocks = iw.inline_ir(caller_ir, where[0], where[1], kept, ())
        assert orig is None and "_robomaze_fresh" not in kept.__dict__
        spliced = {id(st) for _lbl, blk in new_blocks for st in blk.body}
        assert bool(before & spliced) is fresh

    # numba's every caller discards the first value returned
    for mod in (typed_passes, untyped_passes, inline_closurecall):
        src = inspect.getsource(mod)
        calls = [m.start() for m in re.finditer(r"\.inline_(?:ir|function)\(", src)]
        for at in calls:
            line_start = src.rfind("\n", 0, src.rfind("\n", 0, at)) + 1
            head = src[line_start:at]
            if mod is inline_closurecall and head.endswith("return self"):
                continue   # inline_function hands inline_ir's value to its caller
            assert "_, _, _, new_blocks =" in head, head


def test_use_defs_are_numbas_in_the_same_order():
    if not _installed():
        pytest.skip("trims not installed")
    import sys as _sys

    from numba.core import analysis, postproc

    from robomaze._search import _engine

    ours = analysis.compute_use_defs
    numbas = ours.__wrapped__
    assert ours is not numbas
    for name in ("numba.core.lowering", "numba.core.ir_utils", "numba.core.transforms",
                 "numba.core.inline_closurecall"):
        assert getattr(_sys.modules[name], "compute_use_defs") is ours
    funcs = [f.py_func for f in vars(_engine).values() if hasattr(f, "py_func")][:6]
    assert funcs
    checked = 0
    for f in funcs:
        fir = compiler.run_frontend(f)
        for dels in (False, True):      # with ir.Del statements too, as lowering sees them
            pp = postproc.PostProcessor(fir)
            pp.run(dels)
            want, got = numbas(fir.blocks), ours(fir.blocks)
            for a, b in ((want.usemap, got.usemap), (want.defmap, got.defmap)):
                assert list(a) == list(b)
                # same sets, filled in the same order (so iterated alike)
                assert all(list(a[k]) == list(b[k]) for k in a)
            checked += sum(len(v) for v in want.usemap.values())
            if dels:
                pp.remove_dels()
    assert checked > 200
    # an assignment carrying another attribute is listed as numba lists it
    fir = compiler.run_frontend(funcs[0])
    stmt = next(s for b in fir.blocks.values() for s in b.body if isinstance(s, ir.Assign)
                and isinstance(s.value, ir.Expr))
    extra = ir.Var(stmt.target.scope, "robomaze_extra_use", stmt.loc)
    stmt.extra = extra
    got = ours(fir.blocks)
    assert "robomaze_extra_use" in set().union(*got.usemap.values())
    assert numbas(fir.blocks) == got


def _ssa_dump(blocks) -> tuple:
    """A block-by-block dump of SSA-reconstructed blocks and their scope's names."""
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for label, block in blocks.items():
            print("label", label, type(block).__name__, list(vars(block)))
            block.dump()
    scope = next(iter(blocks.values())).scope
    return (out.getvalue(), sorted(scope.localvars._con), dict(scope.redefined),
            {k: sorted(v) for k, v in scope.var_redefinitions.items()})


def test_ssa_reconstruction_is_numbas_block_for_block():
    if not _installed():
        pytest.skip("trims not installed")
    import copy
    import warnings

    from numba.core import ssa

    from robomaze._search import _engine
    from robomaze.plan.classic import _kernels as classic

    ours = ssa._run_ssa
    numbas = ours.__wrapped__
    assert ours is not numbas and ssa._run_block_rewrite.__wrapped__ is not None
    funcs = [f.py_func for m in (_engine, classic) for f in vars(m).values()
             if hasattr(f, "py_func")]
    assert len(funcs) >= 8
    before = pipeline_trims.stats()
    checked = 0
    for f in funcs:
        fir = compiler.run_frontend(f)
        twin = copy.deepcopy(fir.blocks)
        want, got = numbas(twin), ours(fir.blocks)
        assert _ssa_dump(got) == _ssa_dump(want), f.__name__
        checked += sum(len(b.body) for b in got.values())
    after = pipeline_trims.stats()
    # blocks were left to numba's loop and blocks were copied past it
    assert after["ssa_blocks_rewritten"] > before["ssa_blocks_rewritten"]
    assert after["ssa_blocks_copied"] > before["ssa_blocks_copied"]
    assert checked > 1000
    # a name the scope does not know: numba warns, and its rewrite runs throughout
    fir = compiler.run_frontend(classic.walker.py_func)
    scope = next(iter(fir.blocks.values())).scope
    name = next(n for n in scope.localvars._con if not n.startswith("$"))
    del scope.localvars._con[name]
    twin = copy.deepcopy(fir.blocks)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want, got = numbas(twin), ours(fir.blocks)
    assert _ssa_dump(got) == _ssa_dump(want)
    assert pipeline_trims.stats()["ssa_fallbacks"] == after["ssa_fallbacks"] + 1


def test_ssa_trim_switches_off_alone():
    code = ("from robomaze._compile import pipeline_trims as p; p.install(); "
            "from numba.core import ssa; "
            "print(hasattr(ssa._run_ssa, '__wrapped__'), "
            "hasattr(__import__('numba.core.analysis').core.analysis.compute_use_defs, "
            "'__wrapped__'))")
    got = {}
    for value in ("1", "0"):
        env = dict(os.environ, ROBOMAZE_TRIM_SSA=value)
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                             text=True, check=True)
        got[value] = out.stdout.split()
    if got["1"][1] != "True":
        pytest.skip("trims not installed")
    assert got == {"1": ["True", "True"], "0": ["False", "True"]}


def test_const_array_rewrite_lists_variables_only_with_a_list():
    if not _installed():
        pytest.skip("trims not installed")
    import inspect

    from numba.core import inline_closurecall as icc

    fast = icc._inline_const_arraycall
    slow = fast.__wrapped__
    assert fast is not slow
    assert inspect.getsource(slow).count(pipeline_trims._LIST_VAR_USED) == 1

    def codes(co):
        yield co
        for c in co.co_consts:
            if hasattr(c, "co_code"):
                yield from codes(c)

    import dis

    jumps = set(dis.hasjrel) | set(dis.hasjabs)

    def ops(co):
        # as in the inliner's test: a method call compiles as LOAD_ATTR or
        # LOAD_METHOD, with or without a NULL, by where the text was compiled
        return [(i.opname.replace("LOAD_METHOD", "LOAD_ATTR"), None if i.opcode in jumps else
                 "<code>" if hasattr(i.argval, "co_code") else
                 i.argval.replace("NULL + ", "") if isinstance(i.argval, str) else i.argval)
                for i in dis.get_instructions(co)
                if i.opname not in ("CACHE", "PRECALL", "PUSH_NULL")]

    theirs = {c.co_qualname: c for c in codes(slow.__code__)}
    mine = {c.co_qualname: c for c in codes(fast.__code__)}
    assert theirs.keys() == mine.keys()
    changed = [k for k in theirs if ops(theirs[k]) != ops(mine[k])
               or theirs[k].co_firstlineno != mine[k].co_firstlineno]
    # numba's every nested function, at numba's lines, but the one answer
    assert [k.rsplit(".", 1)[-1] for k in changed] == ["list_var_used"], changed
    assert fast.__code__.co_filename == slow.__code__.co_filename

    class Var:
        def __init__(self, name):
            self.name = name

    class Inst:
        walked = 0

        def list_vars(self):
            Inst.walked += 1
            return [Var("a"), Var("b")]

    state_of = {}
    for f in (slow, fast):
        # State is built inside the function; its method read from the code object
        code = next(c for c in codes(f.__code__) if c.co_name == "list_var_used")
        fn = type(f)(code, {"any": any, "bool": bool})
        state_of[f] = fn
    for tracked in ([], ["b"], ["c"]):
        st = type("S", (), {"list_vars": tracked})()
        Inst.walked = 0
        want = state_of[slow](st, Inst())
        walked = Inst.walked
        got = state_of[fast](st, Inst())
        assert got is want
        assert Inst.walked - walked == (1 if tracked else 0)


def _context_state(ctx) -> tuple:
    """What a refresh fills: the target's implementations and the typing declarations."""
    tctx = ctx.typing_context
    return (sorted((repr(k), len(v.versions)) for k, v in ctx._defns.items()),
            sorted((repr(k), len(v.versions)) for k, v in ctx._getattrs.items()),
            len(ctx._casts.versions), len(ctx._registries),
            sorted((repr(k), len(v)) for k, v in tctx._functions.items()),
            sorted(repr(k) for k in tctx._globals), len(tctx._registries))


def test_a_refresh_is_skipped_only_when_numbas_would_load_nothing():
    if not _installed():
        pytest.skip("trims not installed")
    from numba.core import base, imputils, types
    from numba.core.registry import cpu_target
    from numba.core.typing import templates

    ours = base.BaseContext.refresh
    numbas = ours.__wrapped__
    assert ours is not numbas
    ctx = cpu_target.target_context

    @njit
    def warm(a):
        return a.sum() + a[0]

    warm(np.arange(3.0))
    ctx.refresh()
    before = dict(pipeline_trims.stats())
    state = _context_state(ctx)
    ctx.refresh()
    assert pipeline_trims.stats()["refresh_skipped"] == before["refresh_skipped"] + 1
    numbas(ctx)     # numba's own refresh finds nothing to load either
    assert _context_state(ctx) == state

    # a typing declaration and an implementation registered now: the next
    # refresh is numba's and loads both
    def robomaze_trim_probe(x):
        raise NotImplementedError

    globals()["robomaze_trim_probe"] = robomaze_trim_probe   # numba reads it as a global

    @templates.infer_global(robomaze_trim_probe)
    class _Probe(templates.AbstractTemplate):
        def generic(self, args, kws):
            return types.float64(types.float64)

    @imputils.lower_builtin(robomaze_trim_probe, types.float64)
    def _probe_impl(context, builder, sig, args):
        return builder.fadd(args[0], args[0])

    full = pipeline_trims.stats()["refresh_full"]
    ctx.refresh()
    assert pipeline_trims.stats()["refresh_full"] == full + 1
    assert _context_state(ctx) != state

    @njit
    def use(x):
        return robomaze_trim_probe(x) + 1.0

    assert use(2.0) == 5.0
