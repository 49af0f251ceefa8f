"""Trims of numba's compile pipeline that leave the compiled code as it was.

Profiling the default sweep's cold warm-up (benchmarks/README.md, "Issue 40,
round 9 (r9-llvm)") found Python work that every kernel pays again and that
has nothing to do with the code it produces:

* **ABI sizes.** numba asks llvmlite for the size of an LLVM type (an array
  struct, an NRT meminfo) ~1,800 times per warm-up, and llvmlite answers each
  by printing a one-variable module and parsing it back into LLVM.
  :func:`install` keeps the answer per context and type text (types whose text
  names an identified struct, ``%"..."``, are asked every time: their text does
  not say their body).
* **The LLVM lock's events.** numba broadcasts a ``numba:llvm_lock`` start and
  end event around every one of llvmlite's ~76,000 C calls of a warm-up (its
  compile timers listen to them): an event object, a broadcast and a dispatch
  each. :func:`install` updates numba's own timing listeners in
  place (the same arithmetic as their ``on_start``/``on_end``, so a compile's
  ``llvm_lock`` timer reads as before) and builds an event only for other
  listeners.
* **Variable lists.** ``ir.Inst.list_vars`` (use-def analysis, SSA, dead-code
  passes; ~300,000 calls) walks each statement recursively, building a list at
  every level; :func:`install` walks with one list and inlines numba's two
  plain ``list_vars`` (statements and expressions): the same variables in the
  same order.

Replayed call for call, the warm-up's calls cost 0.25 s (ABI sizes), 0.52 s
(lock events) and 1.25 s (variable lists) of CPU with numba's code, and
0.03, 0.08 and 0.90 s with the trims: ~1 s of its ~29 s of compile CPU.

Round 12 (benchmarks/README.md, "Issue 40, round 12 (r12-jit)") added two:

* **Liveness nobody reads.** numba's post-processor runs ~600 times in the
  warm-up (after most passes that touch the IR) and each run computes the
  live-variable map, the dead-variable maps and every block's entry
  variables, by fix-point iterations; in a nopython compile only the runs
  that insert ``ir.Del`` statements read them. :func:`install` computes
  what a run computes first (CFG, use/def maps) as numba does, freezes the
  other inputs (block labels, each terminator's variable names) and derives
  the rest on first read: the same sets whenever they are read
  (:func:`_defer_liveness`).
* **Each assignment walked once.** numba's use/def analysis (every
  post-processor run, lowering, dead-code passes) lists an assignment's
  right-hand variables, then lists the whole statement again -- the same
  variables and the target; :func:`_one_walk_use_defs` reuses the first
  list (same sets, filled in the same order).
* **Copies nobody reads.** numba's inliner deep-copies a callee's IR twice
  per inlined call: numba's callers discard the second copy, and for an
  ``inline="always"`` call the first copies IR built for that call alone
  (:func:`_skip_unused_inline_copy`).

Round 13 (benchmarks/README.md, "Issue 40, round 13 (r13-jit)") added two:

* **SSA rewrites of blocks a variable is not in.** numba's SSA
  reconstruction rewrites every block twice per SSA-violating variable;
  :func:`_skip_untouched_ssa_blocks` gives a block that never mentions the
  variable the new block numba's loop would build for it (the same
  statements) without running the handlers over it.
  ``ROBOMAZE_TRIM_SSA=0`` turns this one off alone.
* **No variable walk without a list.** numba's constant-array rewrite lists
  every statement's variables to see whether it uses a list it tracks, also
  while it tracks none (:func:`_no_list_no_walk`).

* **Context refreshes with nothing to load.** numba refreshes its target
  context (re-reading every registry of implementations and typing
  declarations for new entries) on every failed implementation look-up --
  once per array structure it lowers (``make_array`` asks for an
  ``__array__`` that plain arrays lack) -- ~900 times a warm-up;
  :func:`_refresh_only_when_registered` returns at once when no registry
  the two contexts read has an entry they have not loaded.

The LLVM pipeline itself (function passes, the module passes, machine code:
a third of the compile) is left as it ships: every change tried there changed
the optimised IR (the README's section says what was tried).

Installed when numba is imported (:func:`robomaze._compile.cache.install_locator`),
only on numba 0.68 with llvmlite 0.50 (:data:`VERIFIED`);
``ROBOMAZE_PIPELINE_TRIMS=0`` leaves numba as it ships.
tests/test_compile_pipeline_trims.py checks that kernels compiled with and
without the trims have the same optimised LLVM IR and the same results.

>>> from robomaze._compile import pipeline_trims
>>> pipeline_trims.install() in (True, False)
True
>>> pipeline_trims.install() == pipeline_trims.install()   # idempotent
True
"""

from __future__ import annotations

import os
import sys

from .typing_memo import release

__all__ = ["install", "ENV", "SSA_ENV", "stats", "verified", "VERIFIED"]

#: Set to ``0`` to leave numba's pipeline as it ships.
ENV = "ROBOMAZE_PIPELINE_TRIMS"
#: Set to ``0`` to leave numba's SSA reconstruction alone (the other trims stay)
SSA_ENV = "ROBOMAZE_TRIM_SSA"

#: ``(numba (major, minor), llvmlite (major, minor))`` the trims were checked
#: against (tests/test_compile_pipeline_trims.py); others compile as they ship
VERIFIED = ((0, 68), (0, 50))

_INSTALLED: bool | None = None
#: ABI sizes answered from the memo / asked of llvmlite (a test reads it)
_STATS = {"abi_hits": 0, "abi_misses": 0, "postproc_runs": 0, "entry_vars_computed": 0,
          "ssa_blocks_rewritten": 0, "ssa_blocks_copied": 0, "ssa_fallbacks": 0,
          "refresh_full": 0, "refresh_skipped": 0}


def verified(numba_version: str, llvmlite_version: str) -> bool:
    """Whether these numba and llvmlite releases are the ones the trims were checked against.

    >>> verified("0.68.1", "0.50.0"), verified("0.68.1", "0.49.0"), verified("0.69.0", "0.50.0")
    (True, False, False)
    >>> verified("0.68", "x")
    False
    """
    return (release(numba_version), release(llvmlite_version)) == VERIFIED


def stats() -> dict:
    """``{"abi_hits": ..., "abi_misses": ...}`` of the ABI-size memo in this process."""
    return dict(_STATS)


def install() -> bool:
    """Put the trims in place (idempotent); imports numba.

    Returns whether they are in place: False when ``ROBOMAZE_PIPELINE_TRIMS``
    is ``0``, numba's or llvmlite's release is not :data:`VERIFIED`, or
    numba lacks what they replace (numba then compiles as it ships).
    """
    global _INSTALLED
    if _INSTALLED is not None:
        return _INSTALLED
    _INSTALLED = False
    if os.environ.get(ENV, "1") == "0":
        return False
    try:
        import llvmlite
        import llvmlite.binding as llb
        import numba
        from numba.core import base, event, ir
    except ImportError:  # pragma: no cover - a numba that moved them
        return False
    if not verified(numba.__version__, llvmlite.__version__):  # pragma: no cover
        return False
    lock = getattr(getattr(getattr(llb, "ffi", None), "lib", None), "_lock", None)
    pair = _numba_lock_callbacks(lock)
    if (pair is None or not callable(getattr(base.BaseContext, "get_abi_sizeof", None))
            or not hasattr(ir.Inst, "_rec_list_vars")
            or not hasattr(event, "TimingListener")):  # pragma: no cover
        return False
    _memo_abi_sizes(base.BaseContext)
    _fast_lock_events(lock, pair, event)
    _fast_list_vars(ir)
    from numba.core import analysis, postproc, transforms

    if _postproc_is_numbas(postproc):
        _defer_liveness(postproc, analysis, transforms, ir)
    _skip_unused_inline_copy()
    _one_walk_use_defs(analysis, ir)
    if os.environ.get(SSA_ENV, "1") != "0":
        from numba.core import ssa

        _skip_untouched_ssa_blocks(ssa, ir)
    _no_list_no_walk()
    _refresh_only_when_registered(base)
    _INSTALLED = True
    return True


def _numba_lock_callbacks(lock):
    """The (enter, exit) pair numba registered on llvmlite's lock, or None."""
    for i, (acq, rel) in enumerate(getattr(lock, "_cblist", ())):
        if (getattr(acq, "__module__", "") == "numba.core.base"
                and getattr(acq, "__qualname__", "").endswith("_llvm_lock_event.<locals>.enter_fn")
                and getattr(rel, "__qualname__", "").endswith("_llvm_lock_event.<locals>.exit_fn")):
            return i, acq, rel
    return None


def _memo_abi_sizes(ctx_cls) -> None:
    asked = ctx_cls.get_abi_sizeof

    def get_abi_sizeof(self, ty):
        """Get the ABI size of LLVM type *ty*."""
        text = str(ty)
        if "%" in text:  # names an identified struct: its body is not in the text
            return asked(self, ty)
        # per context and its data layout (a subtarget's copy shares both)
        held = self.__dict__.get("_robomaze_abi_sizes")
        layout = self.target_data
        if held is None or held[0] is not layout:
            held = self.__dict__["_robomaze_abi_sizes"] = (layout, {})
        memo = held[1]
        size = memo.get(text)
        if size is None:
            size = memo[text] = asked(self, ty)
            _STATS["abi_misses"] += 1
        else:
            _STATS["abi_hits"] += 1
        return size

    get_abi_sizeof.__wrapped__ = asked
    ctx_cls.get_abi_sizeof = get_abi_sizeof


def _fast_lock_events(lock, pair, event) -> None:
    index, slow_enter, slow_exit = pair
    kind = "numba:llvm_lock"
    registered = event._registered
    timing = event.TimingListener
    timer = event.timer
    make, start, end = event.Event, event.EventStatus.START, event.EventStatus.END

    # numba's TimingListener.on_start / on_end, applied in place
    def enter_fn():
        evt = None
        for listener in registered[kind]:
            if type(listener) is timing:
                if listener._depth == 0:
                    listener._ts = timer()
                listener._depth += 1
            else:
                if evt is None:
                    evt = make(kind=kind, status=start)
                listener.notify(evt)

    def exit_fn():
        evt = None
        for listener in registered[kind]:
            if type(listener) is timing:
                listener._depth -= 1
                if listener._depth == 0:
                    last = getattr(listener, "_duration", 0)
                    listener._duration = (timer() - listener._ts) + last
            else:
                if evt is None:
                    evt = make(kind=kind, status=end)
                listener.notify(evt)

    enter_fn.__wrapped__, exit_fn.__wrapped__ = slow_enter, slow_exit
    lock._cblist[index] = (enter_fn, exit_fn)


def _fast_list_vars(ir) -> None:
    var, inst = ir.Var, ir.Inst
    slow = inst._rec_list_vars
    stmt_list_vars, expr_list_vars = ir.Stmt.list_vars, ir.Expr.list_vars

    def walk(val, out):
        # numba's order: a Var, an Inst (its own list_vars), a list or tuple,
        # a dict's values; exact types first (nearly every value)
        t = type(val)
        if t is var:
            out.append(val)
        elif t is dict:
            for v in val.values():
                walk(v, out)
        elif t is list or t is tuple:
            for v in val:
                walk(v, out)
        elif isinstance(val, var):
            out.append(val)
        elif isinstance(val, inst):
            own = t.list_vars
            if t._rec_list_vars is not _rec_list_vars:
                out.extend(val.list_vars())
            elif own is stmt_list_vars:
                walk(val.__dict__, out)
            elif own is expr_list_vars:
                walk(val._kws, out)
            else:
                out.extend(val.list_vars())
        elif isinstance(val, (list, tuple)):
            for v in val:
                walk(v, out)
        elif isinstance(val, dict):
            for v in val.values():
                walk(v, out)

    def _rec_list_vars(self, val):
        """A recursive helper used to implement list_vars() in subclasses."""
        out: list = []
        walk(val, out)
        return out

    _rec_list_vars.__wrapped__ = slow
    inst._rec_list_vars = _rec_list_vars


# numba 0.68's PostProcessor.run, which _defer_liveness replaces (its text is
# compared at install: another body compiles as numba ships)
_NUMBA_RUN = """
        self.func_ir.blocks = transforms.canonicalize_cfg(self.func_ir.blocks)
        vlt = VariableLifetime(self.func_ir.blocks)
        self.func_ir.variable_lifetime = vlt

        bev = analysis.compute_live_variables(vlt.cfg, self.func_ir.blocks,
                                              vlt.usedefs.defmap,
                                              vlt.deadmaps.combined)
        for offset, ir_block in self.func_ir.blocks.items():
            self.func_ir.block_entry_vars[ir_block] = bev[offset]

        if self.func_ir.is_generator:
            self.func_ir.generator_info = GeneratorInfo()
            self._compute_generator_info()
        else:
            self.func_ir.generator_info = None

        # Emit del nodes, do this last as the generator info parsing generates
        # and then strips dels as part of its analysis.
        if emit_dels:
            self._insert_var_dels(extend_lifetimes=extend_lifetimes)
"""


def _postproc_is_numbas(postproc) -> bool:
    """Whether ``PostProcessor.run`` (and the lifetime class) are the code
    :func:`_defer_liveness` was written against."""
    import inspect

    try:
        src = inspect.getsource(postproc.PostProcessor.run)
        lifetime = inspect.getsource(postproc.VariableLifetime)
    except (OSError, TypeError):  # pragma: no cover - no sources installed
        return False
    body = src.split('"""', 2)[-1]
    return (body.strip() == _NUMBA_RUN.strip()
            and "compute_dead_maps(self.cfg, self._blocks, self.livemap," in lifetime
            and "compute_live_map(self.cfg, self._blocks," in lifetime)


class _Terminator:
    """A block's terminator as liveness reads it: the variables it uses,
    named when the post-processor ran."""

    __slots__ = ("_vars",)

    def __init__(self, names):
        self._vars = names

    def list_vars(self):
        return self._vars


class _Named:
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name


class _FrozenBlock:
    __slots__ = ("terminator",)

    def __init__(self, block):
        self.terminator = _Terminator([_Named(v.name) for v in block.terminator.list_vars()])


def _defer_liveness(postproc, analysis, transforms, ir) -> None:
    """numba's ``PostProcessor.run`` with the liveness it computes and nobody
    reads left until somebody does.

    numba runs its post-processor after most passes that touch the IR
    (~600 times in the default sweep's warm-up); each run builds the CFG and
    the use/def maps, then the live-variable map, the dead-variable maps and
    every block's entry variables, by fix-point iterations. The last three
    are read only by ``ir.Del`` insertion (a run with ``emit_dels``), object
    mode lowering, generators and the loop/with lifting and literal-unroll
    transforms; in a nopython compile most runs' results are replaced by the
    next run's unread. Here a run computes what numba computes first (CFG,
    use/def maps: the IR as it is at that moment), freezes the rest of what
    the later analyses read (the block labels, each terminator's variable
    names), and computes the live map, dead maps and entry variables from
    those on first read: the same functions on the same inputs, so the same
    sets, whenever they are read. Generators run numba's own code. One
    difference: numba's consistency check inside the dead maps ("liveness
    info missing", an internal error) fires on read, not in every run.
    """
    numba_run = postproc.PostProcessor.run
    base = postproc.VariableLifetime
    cached = type(base.__dict__["livemap"])

    class DeferredLifetime(base):
        """numba's lifetime, with the CFG and use/def maps computed now and
        the rest from frozen inputs on first read."""

        def __init__(self, blocks):
            super().__init__(blocks)
            self.cfg, self.usedefs  # noqa: B018 - computed now, as numba's run does
            self._frozen = {k: _FrozenBlock(b) for k, b in blocks.items()}

        def livemap(self):
            return analysis.compute_live_map(self.cfg, self._frozen, self.usedefs.usemap,
                                             self.usedefs.defmap)

        def deadmaps(self):
            return analysis.compute_dead_maps(self.cfg, self._frozen, self.livemap,
                                              self.usedefs.defmap)

        livemap = cached(livemap)
        deadmaps = cached(deadmaps)

        def entry_vars(self):
            return analysis.compute_live_variables(self.cfg, self._frozen, self.usedefs.defmap,
                                                   self.deadmaps.combined)

    def run(self, emit_dels: bool = False, extend_lifetimes: bool = False):
        func_ir = self.func_ir
        if func_ir.is_generator:
            return numba_run(self, emit_dels, extend_lifetimes)
        func_ir.blocks = transforms.canonicalize_cfg(func_ir.blocks)
        vlt = DeferredLifetime(func_ir.blocks)
        func_ir.variable_lifetime = vlt
        entry = func_ir.block_entry_vars
        if type(entry) is not _EntryVars:
            entry = func_ir.block_entry_vars = _EntryVars(entry)
        entry.defer(vlt, func_ir.blocks)
        func_ir.generator_info = None
        _STATS["postproc_runs"] += 1
        if emit_dels:
            self._insert_var_dels(extend_lifetimes=extend_lifetimes)

    run.__wrapped__ = numba_run
    run.__doc__ = numba_run.__doc__
    postproc.PostProcessor.run = run
    _copy_keeps_deferral(ir)


class _EntryVars(dict):
    """``FunctionIR.block_entry_vars`` ({block: names alive at its entry})
    whose entries from deferred post-processor runs are computed on first
    read, in the order numba would have stored them."""

    __slots__ = ("_pending",)

    def __init__(self, *args):
        super().__init__(*args)
        self._pending = []       # [(lifetime, [(block, label), ...])], oldest first

    def defer(self, vlt, blocks) -> None:
        keyed = [(b, k) for k, b in blocks.items()]
        # an older run's entry for a block this run covers would be overwritten:
        # drop it (and the older run, when nothing of it is left)
        ids = {id(b) for b, _k in keyed}
        kept = []
        for old, old_keyed in self._pending:
            rest = [(b, k) for b, k in old_keyed if id(b) not in ids]
            if rest:
                kept.append((old, rest))
        kept.append((vlt, keyed))
        self._pending = kept

    def _resolve(self) -> None:
        pending, self._pending = self._pending, []
        for vlt, keyed in pending:
            bev = vlt.__dict__.get("_robomaze_bev")
            if bev is None:
                bev = vlt.__dict__["_robomaze_bev"] = vlt.entry_vars()
                _STATS["entry_vars_computed"] += 1
            for block, label in keyed:
                dict.__setitem__(self, block, bev[label])

    def remapped(self, new_of) -> "_EntryVars":
        """FunctionIR.copy's entries for the copied blocks (``{old: new}``), still deferred."""
        out = _EntryVars()
        for block, new in new_of.items():
            if dict.__contains__(self, block):
                dict.__setitem__(out, new, dict.__getitem__(self, block))
        for vlt, keyed in self._pending:
            out._pending.append((vlt, [(new_of[b], k) for b, k in keyed if b in new_of]))
        return out

    def __contains__(self, key):
        return dict.__contains__(self, key) or any(
            key is b for _, keyed in self._pending for b, _k in keyed)


def _reading(name):
    method = getattr(dict, name)

    def read(self, *args, **kwargs):
        if self._pending:
            self._resolve()
        return method(self, *args, **kwargs)

    read.__name__ = name
    return read


for _name in ("__getitem__", "__iter__", "__len__", "__repr__", "__eq__", "__ne__", "__or__",
              "__setitem__", "__delitem__", "__reversed__", "get", "keys", "values", "items",
              "copy", "pop", "popitem", "setdefault", "update", "clear", "__reduce__",
              "__reduce_ex__"):
    setattr(_EntryVars, _name, _reading(_name))
_EntryVars.__hash__ = None


def _copy_keeps_deferral(ir) -> None:
    numba_copy = ir.FunctionIR.copy

    def copy(self):
        entry = self.block_entry_vars
        if type(entry) is not _EntryVars or not entry._pending:
            return numba_copy(self)
        import copy as _copy

        new_ir = _copy.copy(self)
        blocks, new_of = {}, {}
        for label, block in self.blocks.items():
            new_block = block.copy()
            blocks[label] = new_block
            new_of[block] = new_block
        new_ir.blocks = blocks
        new_ir.block_entry_vars = entry.remapped(new_of)
        return new_ir

    copy.__wrapped__ = numba_copy
    ir.FunctionIR.copy = copy


_UNUSED_COPY = "    callee_ir_original = copy_ir(callee_ir)\n"
_FIRST_COPY = "    callee_ir = copy_ir(callee_ir)\n"
_FRESH = "_robomaze_fresh"
_RUN_UNTYPED = "    callee_ir = self.run_untyped_passes(function)\n"


def _numbas_with(fn, replacements):
    """numba's function ``fn`` compiled again from its own source with each
    ``old`` line of ``replacements`` (``{old: new}``) replaced, in numba's
    module, with numba's file name and line numbers; None if any ``old`` is
    not in the source exactly once (another numba: ``fn`` stays)."""
    import inspect
    import textwrap

    try:
        lines, first = inspect.getsourcelines(fn)
        path = inspect.getsourcefile(fn)
    except (OSError, TypeError):  # pragma: no cover - no sources installed
        return None
    src = textwrap.dedent("".join(lines))
    for old, new in replacements.items():
        if src.count(old) != 1:
            return None
        src = src.replace(old, new)
    space: dict = {}
    module = sys.modules[fn.__module__]
    exec(compile("\n" * (first - 1) + src, path, "exec"), module.__dict__, space)
    out = space[fn.__name__]
    out.__qualname__ = fn.__qualname__
    out.__wrapped__ = fn
    return out


def _skip_unused_inline_copy() -> bool:
    """numba's inliner without the deep copies of a callee's IR nobody reads.

    ``InlineWorker.inline_ir`` deep-copies the callee's IR twice per inlined
    call: once to splice into the caller ("it gets mutated"), once as "an
    unmutated copy to return" -- which both of numba's callers
    (``InlineInlinables`` via ``inline_function``, ``InlineOverloads``)
    discard (``_, _, _, new_blocks = ...``). And ``inline_function`` (every
    ``inline="always"`` call) hands it IR its own ``run_untyped_passes`` has
    just built for this one call, which nothing else holds: the first copy
    protects nothing there. Here ``inline_ir`` returns None for the unread
    copy, and skips the first copy of IR ``inline_function`` marked as
    fresh; ``InlineOverloads``' callee IR (kept in numba's overload
    templates) is copied as before. Both functions are numba's own source
    with those lines changed; any other text leaves numba's in place.
    Returns whether they were replaced.
    """
    from numba.core import inline_closurecall as icc

    worker = icc.InlineWorker
    inline_ir = _numbas_with(worker.inline_ir, {
        _FIRST_COPY: f"    callee_ir = (callee_ir if callee_ir.__dict__.pop({_FRESH!r}, False)\n"
                     "                 else copy_ir(callee_ir))\n",
        _UNUSED_COPY: "    callee_ir_original = None  # numba's callers discard it\n"})
    inline_function = _numbas_with(worker.inline_function, {
        _RUN_UNTYPED: _RUN_UNTYPED + f"    callee_ir.{_FRESH} = True  # built for this call only\n"})
    if inline_ir is None or inline_function is None:  # pragma: no cover - another numba
        return False
    worker.inline_ir, worker.inline_function = inline_ir, inline_function
    return True


def _one_walk_use_defs(analysis, ir) -> None:
    """numba's ``compute_use_defs`` walking each plain assignment once.

    numba lists ``stmt.value.list_vars()`` (to find whether the target is
    also read) and then ``stmt.list_vars()``, which for an ``ir.Assign``
    whose attributes are numba's own (``value``, ``target``, ``loc``, in that
    order) is the first list followed by the target. Any other statement,
    or an assignment carrying other attributes, is listed as numba does; the
    extension hook (``ir_extension_usedefs``) is consulted first, as numba
    does. Installed where numba's function is bound (``analysis`` and the
    modules that imported it by name).
    """
    numba_fn = analysis.compute_use_defs
    exts = analysis.ir_extension_usedefs
    result = analysis._use_defs_result
    assign, inst, var = ir.Assign, ir.Inst, ir.Var
    plain = (ir.Arg, ir.Const, ir.Global, ir.FreeVar)
    stmt_list_vars = ir.Stmt.list_vars
    own = ("value", "target", "loc")

    def compute_use_defs(blocks):
        """
        Find variable use/def per block.
        """
        var_use_map = {}   # { block offset -> set of vars }
        var_def_map = {}   # { block offset -> set of vars }
        for offset, ir_block in blocks.items():
            var_use_map[offset] = use_set = set()
            var_def_map[offset] = def_set = set()
            for stmt in ir_block.body:
                t = type(stmt)
                if t in exts:
                    exts[t](stmt, use_set, def_set)
                    continue
                if isinstance(stmt, assign):
                    value = stmt.value
                    if isinstance(value, inst):
                        rhs = value.list_vars()
                        rhs_set = set(v.name for v in rhs)
                    elif isinstance(value, var):
                        rhs = [value]
                        rhs_set = set([value.name])
                    elif isinstance(value, plain):
                        rhs = []
                        rhs_set = ()
                    else:
                        raise AssertionError('unreachable', type(value))
                    if stmt.target.name not in rhs_set:
                        def_set.add(stmt.target.name)
                    if t.list_vars is stmt_list_vars and tuple(stmt.__dict__) == own:
                        used = rhs + [stmt.target]
                    else:
                        used = stmt.list_vars()
                else:
                    used = stmt.list_vars()
                for v in used:
                    # do not include locally defined vars to use-map
                    if v.name not in def_set:
                        use_set.add(v.name)
        return result(usemap=var_use_map, defmap=var_def_map)

    compute_use_defs.__wrapped__ = numba_fn
    for name, module in list(sys.modules.items()):
        if (name == "numba" or name.startswith("numba.")) and \
                getattr(module, "compute_use_defs", None) is numba_fn:
            module.compute_use_defs = compute_use_defs


#: sha256 of numba 0.68.1's ``numba/core/ssa.py``: :func:`_skip_untouched_ssa_blocks`
#: is an argument about that module's handlers; any other text compiles as numba ships
_NUMBA_SSA_SHA256 = "d20accd92757fef663a43e78d0ee88fe01d9333379eda463c9e15f0e7785e490"


def _names_in(body) -> set:
    """Every variable name a block's statements mention (targets included)."""
    out = set()
    for stmt in body:
        for v in stmt.list_vars():
            out.add(v.name)
    return out


def _skip_untouched_ssa_blocks(ssa, ir) -> bool:
    """numba's SSA reconstruction without rewriting the blocks a variable is not in.

    ``ReconstructSSA`` (4-5% of a cold warm-up) fixes one SSA-violating
    variable at a time, and for each runs two rewrites (fresh names for its
    assignments, ``_FreshVarHandler``; its uses re-pointed at the reaching
    definition, ``_FixSSAVars``) over *every* statement of *every* block,
    building new blocks -- so the cost is violators x statements. Both
    handlers return a statement unchanged, with no side effect, unless the
    variable is its target (fresh names) or among its variables (uses);
    ``_FixSSAVars`` inserts phi nodes only when it finds such a use. So a
    block whose statements never mention the variable comes out as a new
    block holding the same statements, which is what this rewrite builds for
    it without calling the handler; every other block goes through numba's
    loop (its ``_run_ssa_block_pass`` written out without the debug logging,
    which is off whenever this runs). The variables processed, their order
    and the fresh names are numba's.

    What a block mentions is the union of its statements' ``list_vars()``
    names (a superset of what either handler reads), kept per body list
    during one ``_run_ssa`` call (numba builds a new list for every body it
    changes; nothing there mutates one in place); a rewritten body mentions
    at most the old names and those of the statements the handler replaced. Fresh names come from
    ``Scope.redefine``, which never reuses a name the scope knows: if a
    block mentions a name the scope does not know (numba then warns), a
    fresh name could equal a later violator, and that call runs numba's
    rewrite throughout. numba's debug logging of the module on, or another
    handler, also run numba's. Only on the ``ssa.py`` numba 0.68.1 ships
    (:data:`_NUMBA_SSA_SHA256`). Returns whether it was installed.
    """
    import hashlib
    import inspect
    import logging

    try:
        text = inspect.getsource(ssa)
    except (OSError, TypeError):  # pragma: no cover - no sources installed
        return False
    if hashlib.sha256(text.encode()).hexdigest() != _NUMBA_SSA_SHA256:  # pragma: no cover
        return False
    numba_rewrite, numba_run_ssa = ssa._run_block_rewrite, ssa._run_ssa
    handlers = (ssa._FreshVarHandler, ssa._FixSSAVars)
    logger, block_cls, assign = ssa._logger, ir.Block, ir.Assign
    new_block = object.__new__
    if list(vars(block_cls(ir.Scope(None, ir.unknown_loc), ir.unknown_loc))) != \
            ["scope", "body", "loc"]:  # pragma: no cover - another Block
        return False
    held: list = []     # per _run_ssa call: {id(body): (body, names)}, or False

    def _run_ssa(blocks):
        held.append(None)
        try:
            return numba_run_ssa(blocks)
        finally:
            held.pop()

    def _known(blocks, scope):
        index = {}
        localvars = scope.localvars
        for blk in blocks.values():
            names = _names_in(blk.body)
            if not all(n in localvars for n in names):
                _STATS["ssa_fallbacks"] += 1
                return False
            index[id(blk.body)] = (blk.body, names)
        return index

    def _run_block_rewrite(blocks, states, handler):
        if (not held or type(handler) not in handlers
                or logger.isEnabledFor(logging.DEBUG)):
            return numba_rewrite(blocks, states, handler)
        index = held[-1]
        if index is None:
            index = held[-1] = _known(blocks, states["scope"])
        if index is False:
            return numba_rewrite(blocks, states, handler)
        varname = states["varname"]
        newblocks = {}
        for label, blk in blocks.items():
            body = blk.body
            seen = index.get(id(body))
            if seen is None or seen[0] is not body:
                seen = index[id(body)] = (body, _names_in(body))
            if varname not in seen[1]:
                # what numba's loop builds for it: a new block (numba's
                # attributes in numba's order; its checks passed for ``blk``),
                # the same statements
                newblk = new_block(block_cls)
                newblk.scope = blk.scope
                newblk.body = newbody = list(body)
                newblk.loc = blk.loc
                index[id(newbody)] = (newbody, seen[1])
                newblocks[label] = newblk
                _STATS["ssa_blocks_copied"] += 1
                continue
            # numba's loop body, with numba's _run_ssa_block_pass written out
            # (its debug logging is off: checked above)
            newblk = block_cls(scope=blk.scope, loc=blk.loc)
            newbody = []
            states["label"] = label
            states["block"] = blk
            on_assign, on_other = handler.on_assign, handler.on_other
            for stmt in body:
                if isinstance(stmt, assign):
                    ret = on_assign(states, stmt)
                else:
                    ret = on_other(states, stmt)
                assert ret is not None
                newbody.append(ret)
            newblk.body = newbody
            newblocks[label] = newblk
            # what the new body mentions: the old names (a superset) and those
            # of the statements the handler replaced
            old = {id(st) for st in body}
            index[id(newbody)] = (newbody, seen[1] | _names_in(
                [st for st in newbody if id(st) not in old]))
            _STATS["ssa_blocks_rewritten"] += 1
        return newblocks

    _run_ssa.__wrapped__ = numba_run_ssa
    _run_ssa.__doc__ = numba_run_ssa.__doc__
    _run_block_rewrite.__wrapped__ = numba_rewrite
    ssa._run_ssa, ssa._run_block_rewrite = _run_ssa, _run_block_rewrite
    return True


_LIST_VAR_USED = "            return any([x.name in self.list_vars for x in inst.list_vars()])\n"


def _no_list_no_walk() -> bool:
    """numba's constant-array rewrite without listing statements while no list is tracked.

    ``RewriteArrayOfConsts`` (an after-inference rewrite, run on every block
    of every typed compile) walks a block's statements and, after each,
    asks whether the statement uses one of the variables holding the last
    ``build_list`` (``State.list_var_used``): ``any([x.name in
    self.list_vars for x in inst.list_vars()])`` -- a variable walk of every
    statement, though until a ``build_list`` is seen the list is empty and
    the answer is False. Here the walk is made only when the list is not
    empty (``list_vars()`` has no side effect): numba's
    ``_inline_const_arraycall`` compiled again from its source with that
    line changed (:func:`_numbas_with`). Returns whether it was replaced.
    """
    from numba.core import inline_closurecall as icc

    fast = _numbas_with(icc._inline_const_arraycall, {
        # one line, so numba's line numbers hold
        _LIST_VAR_USED: "            return bool(self.list_vars) and any("
                        "[x.name in self.list_vars for x in inst.list_vars()])\n"})
    if fast is None:  # pragma: no cover - another numba
        return False
    icc._inline_const_arraycall = fast
    return True


_STREAM_LIST = """    start = 0
    while True:
        stop = len(lst)
        yield sublist_iterator(start, stop)
        start = stop
"""


#: the code of numba's ``utils.stream_list`` (set by :func:`_refresh_only_when_registered`)
_STREAM_CODE: list = [None]


def _loaded_upto(ctx):
    """``[(registry list, entries loaded)]`` of every registry loader of a
    context (numba's ``utils.stream_list`` generators, suspended at their
    ``yield`` with the end of the slice they last gave); None if one has not
    started (then nothing is known)."""
    out = []
    for loader in ctx._registries.values():
        gens = getattr(loader, "_registrations", None)
        if type(gens) is not dict:  # pragma: no cover - another kind of loader
            return None
        for gen in gens.values():
            frame = getattr(gen, "gi_frame", None)
            if frame is None or getattr(gen, "gi_code", None) is not _STREAM_CODE[0]:
                return None     # not numba's stream_list (which never ends)
            loc = frame.f_locals
            if "stop" not in loc or "lst" not in loc:
                return None
            out.append((loc["lst"], loc["stop"]))
    return out


def _refresh_only_when_registered(base) -> bool:
    """numba's ``BaseContext.refresh`` returning at once when it would load nothing.

    A target context's refresh imports numba's implementation modules,
    installs a fixed list of registries (each through a loader that hands
    out the entries appended since it last read: numba's
    ``utils.stream_list``) and refreshes its typing context the same way.
    numba calls it on every failed implementation look-up
    (``BaseContext.get_function``'s retry) -- e.g. for each array structure
    lowered, as ``make_array`` asks for an ``__array__`` plain arrays have
    not -- ~900 times in the one-process warm-up, ~0.4 ms each, nearly all
    finding nothing new. Here, after a full refresh, the context keeps
    every loader's registry list and how far it has read it (both
    contexts'); a later refresh returns at once when no list has grown and
    no registry was added, i.e. when numba's would have installed nothing.
    Its imports and the NRT set-up are no-ops after the first full refresh
    (the modules are imported; numba's runtime initialises once). Anything
    new -- an extension registering an implementation or a type, a
    registry installed elsewhere -- makes the next refresh numba's.
    Returns whether it was installed.
    """
    import inspect

    from numba.core import utils

    try:
        stream = inspect.getsource(utils.stream_list)
    except (OSError, TypeError):  # pragma: no cover - no sources installed
        return False
    if _STREAM_LIST not in stream:  # pragma: no cover - another numba
        return False
    _STREAM_CODE[0] = utils.stream_list.__code__
    numba_refresh = base.BaseContext.refresh

    def refresh(self):
        held = self.__dict__.get("_robomaze_loaded")
        typing_ctx = self.typing_context
        if held is not None:
            mine, theirs, n_mine, n_theirs, ours = held
            if (ours is typing_ctx and len(self._registries) == n_mine
                    and len(typing_ctx._registries) == n_theirs
                    and all(len(lst) == end for lst, end in mine)
                    and all(len(lst) == end for lst, end in theirs)):
                _STATS["refresh_skipped"] += 1
                return
        numba_refresh(self)
        _STATS["refresh_full"] += 1
        mine, theirs = _loaded_upto(self), _loaded_upto(typing_ctx)
        self.__dict__["_robomaze_loaded"] = (
            None if mine is None or theirs is None else
            (mine, theirs, len(self._registries), len(typing_ctx._registries), typing_ctx))

    refresh.__wrapped__ = numba_refresh
    refresh.__doc__ = numba_refresh.__doc__
    base.BaseContext.refresh = refresh
    return True
