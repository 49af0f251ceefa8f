"""Three trims of numba's compile pipeline that leave the compiled code as it was.

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

from .typing_memo import release

__all__ = ["install", "ENV", "stats", "verified", "VERIFIED"]

#: Set to ``0`` to leave numba's pipeline as it ships.
ENV = "ROBOMAZE_PIPELINE_TRIMS"

#: ``(numba (major, minor), llvmlite (major, minor))`` the trims were checked
#: against (tests/test_compile_pipeline_trims.py); others compile as they ship
VERIFIED = ((0, 68), (0, 50))

_INSTALLED: bool | None = None
#: ABI sizes answered from the memo / asked of llvmlite (a test reads it)
_STATS = {"abi_hits": 0, "abi_misses": 0}


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
    """Put the three trims in place (idempotent); imports numba.

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
