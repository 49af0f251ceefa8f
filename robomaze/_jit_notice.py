"""Say so while numba compiles, instead of tens of seconds of silence.

robomaze's kernels are numba functions compiled on first use and cached on
disk (``cache=True``). On a machine with an empty cache the first command
spends most of its time in the compiler; without a word the user cannot tell
a compile from a hang. :func:`install` hooks numba's ``numba:compile`` event
(it fires only on a cache miss, never when a kernel loads from the cache), so
the notice appears exactly when something is being compiled, once per
process, and :func:`summary` reports how long it took.

Set ``ROBOMAZE_COMPILE_NOTICE=0`` to silence it (the test suite does, so its
checks of one-line error output hold on a cold cache); compiles are still
counted, and :func:`on_next_compile` still fires (the bench warm-up starts
its helper processes at the first cache miss).

Examples
--------
>>> from robomaze import _jit_notice
>>> import io
>>> buf = io.StringIO()
>>> notice = _jit_notice.CompileNotice(buf)
>>> notice.started("plan.wavefront_field")
>>> notice.started("plan.astar")     # a second compile says nothing more
>>> buf.getvalue().splitlines()[0].startswith("robomaze: compiling")
True
>>> notice.count
2
"""

from __future__ import annotations

import os
import sys
import time
from typing import Callable, TextIO

__all__ = ["CompileNotice", "install", "summary", "current", "on_next_compile", "add_others"]

_ENV = "ROBOMAZE_COMPILE_NOTICE"


class CompileNotice:
    """Counts compiles and prints one line at the first."""

    def __init__(self, stream: TextIO | None = None, *, silent: bool = False):
        self.stream = stream
        self.silent = silent
        self.count = 0
        self.first: float | None = None
        self.last_end: float | None = None

    def started(self, what: str) -> None:
        self.count += 1
        if self.first is None:
            self.first = time.perf_counter()
            if self.silent:
                return
            stream = self.stream if self.stream is not None else sys.stderr
            try:
                print(f"robomaze: compiling numba kernels on first use ({what}); they are "
                      "cached, so later runs start in about a second ...", file=stream, flush=True)
            except (OSError, ValueError):  # a closed stderr must not fail the compile
                pass

    def ended(self) -> None:
        self.last_end = time.perf_counter()

    def elapsed(self) -> float:
        if self.first is None or self.last_end is None:
            return 0.0
        return self.last_end - self.first


_NOTICE: CompileNotice | None = None
_NEXT: Callable[[], None] | None = None
#: Kernels helper processes compiled for this one (:func:`add_others`).
_OTHERS = {"count": 0, "processes": 1, "until": None}


def _enabled() -> bool:
    return os.environ.get(_ENV, "1").strip().lower() not in ("0", "false", "no", "off")


def install(stream: TextIO | None = None, *, silent: bool | None = None
            ) -> CompileNotice | None:
    """Start counting numba compiles in this process (idempotent).

    The notice prints unless ``silent`` (default: when switched off by
    ``ROBOMAZE_COMPILE_NOTICE=0``). Returns the notice, or None when numba's
    event API is unavailable.
    """
    global _NOTICE
    if _NOTICE is not None:
        return _NOTICE
    try:
        from numba.core import event as ev
    except ImportError:  # pragma: no cover - numba without the event API (< 0.55)
        return None
    notice = CompileNotice(stream, silent=not _enabled() if silent is None else silent)

    class _Listener(ev.Listener):
        def on_start(self, event):
            global _NEXT
            if _NEXT is not None:
                fn, _NEXT = _NEXT, None
                try:
                    fn()
                except Exception:
                    pass  # a hook must never fail a compile
            disp = (event.data or {}).get("dispatcher")
            name = getattr(getattr(disp, "py_func", None), "__qualname__", "kernel")
            module = getattr(getattr(disp, "py_func", None), "__module__", "") or ""
            short = module.replace("robomaze.", "").replace("._kernels", "")
            notice.started(f"{short}.{name}" if short else name)

        def on_end(self, event):
            notice.ended()

    ev.register("numba:compile", _Listener())
    _NOTICE = notice
    return notice


def current() -> CompileNotice | None:
    """The notice :func:`install` put in place in this process, if any."""
    return _NOTICE


def on_next_compile(fn: Callable[[], None] | None) -> None:
    """Call ``fn`` once, at the start of the next compile (a cache miss) in
    this process; None cancels. Needs :func:`install`."""
    global _NEXT
    _NEXT = fn


def add_others(count: int, processes: int, until: float) -> None:
    """Count ``count`` kernels that ``processes - 1`` helpers compiled for this
    process, which waited for them until ``until`` (``time.perf_counter()``):
    :func:`summary` reports them with its own."""
    _OTHERS["count"] += count
    _OTHERS["processes"] = max(_OTHERS["processes"], processes)
    _OTHERS["until"] = until if _OTHERS["until"] is None else max(_OTHERS["until"], until)


def summary(stream: TextIO | None = None, *, others: int = 0, processes: int = 1,
            elapsed: float | None = None) -> None:
    """One line on what was compiled, if anything was.

    ``others`` kernels compiled by ``processes - 1`` helper processes are
    added to this process's count (and those of :func:`add_others`);
    ``elapsed`` replaces the time from this process's first compile to its
    last (or to the end of its wait for helpers).
    """
    others += _OTHERS["count"]
    processes = max(processes, _OTHERS["processes"])
    if _NOTICE is None or _NOTICE.silent or _NOTICE.count + others == 0:
        return
    stream = stream if stream is not None else sys.stderr
    took = _NOTICE.elapsed() if elapsed is None else elapsed
    if elapsed is None and _OTHERS["until"] is not None and _NOTICE.first is not None:
        took = max(took, _OTHERS["until"] - _NOTICE.first)
    where = f" on {processes} processes" if processes > 1 else ""
    try:
        print(f"robomaze: compiled {_NOTICE.count + others} kernel(s) in {took:.1f} s{where} "
              "(cached for later runs)", file=stream, flush=True)
    except (OSError, ValueError):  # a closed stderr must not fail the run
        pass
