"""The CPU time of a method, with numba's compilation taken out.

A reported time must describe the method, not the machine's load or the
first call's compiler: robomaze measures the *thread CPU time* spent inside
a method and subtracts the CPU time numba spent compiling during it (numba's
``numba:compile`` events fire only on a cache miss) or loading a kernel from
its disk cache on a signature's first call (numba holds its compiler lock for
both: ``numba:compiler_lock``), so a cold and a warm cache time a method alike. The compile time is
reported on its own, never inside a method's time, and no status or gated
metric is ever derived from either: times are measured, not verdicts.

Examples
--------
>>> from robomaze._clock import method_clock
>>> with method_clock() as clock:
...     total = sum(range(1000))
>>> clock.cpu_s >= 0.0 and clock.compile_s == 0.0
True
"""

from __future__ import annotations

import threading
import time

__all__ = ["method_clock", "MethodClock", "cpu_now"]

_local = threading.local()
_installed = False
_install_lock = threading.Lock()


def _state():
    st = getattr(_local, "st", None)
    if st is None:
        st = _local.st = {"depth": 0, "start": 0.0, "total": 0.0, "wall_start": 0.0,
                          "wall_total": 0.0, "once_depth": 0, "once_start": 0.0,
                          "once_total": 0.0}
    return st


def _once_start() -> None:
    st = _state()
    if st["once_depth"] == 0:
        st["once_start"] = time.thread_time()
    st["once_depth"] += 1


def _once_end() -> None:
    st = _state()
    st["once_depth"] = max(0, st["once_depth"] - 1)
    if st["once_depth"] == 0:
        st["once_total"] += time.thread_time() - st["once_start"]


def _install() -> None:
    """Register one numba compile listener for the process (idempotent)."""
    global _installed
    if _installed:
        return
    with _install_lock:
        if _installed:
            return
        try:
            from numba.core import event as ev
        except ImportError:  # pragma: no cover - numba without the event API
            _installed = True
            return

        class _CompileTime(ev.Listener):
            # compiles nest (a kernel's callees compile inside it): only the
            # outermost one is counted, in the thread that compiles
            def on_start(self, event):
                st = _state()
                if st["depth"] == 0:
                    st["start"] = time.thread_time()
                    st["wall_start"] = time.perf_counter()
                st["depth"] += 1
                _once_start()

            def on_end(self, event):
                st = _state()
                st["depth"] = max(0, st["depth"] - 1)
                if st["depth"] == 0:
                    st["total"] += time.thread_time() - st["start"]
                    st["wall_total"] += time.perf_counter() - st["wall_start"]
                _once_end()

        class _FirstUse(ev.Listener):
            # numba holds its compiler lock to compile *and* to load a kernel
            # from the disk cache on a signature's first call; a cache load
            # fires no "numba:compile", so without this a warm-cache process
            # timed the load that a cold-cache process (compiling) did not
            def on_start(self, event):
                _once_start()

            def on_end(self, event):
                _once_end()

        ev.register("numba:compile", _CompileTime())
        ev.register("numba:compiler_lock", _FirstUse())
        _installed = True


class MethodClock:
    """Context manager: ``cpu_s`` (compilation excluded), ``compile_s``, ``wall_s``.

    ``compile_s`` is the wall time numba spent compiling inside the block
    (what a user waits for); ``cpu_s`` is the thread CPU time of the block
    minus the CPU time of those compiles and of kernel loads from the cache.
    """

    cpu_s: float = 0.0
    compile_s: float = 0.0
    wall_s: float = 0.0

    def __enter__(self) -> "MethodClock":
        _install()
        st = _state()
        self._c0, self._k0, self._kw0 = time.thread_time(), st["once_total"], st["wall_total"]
        self._w0 = time.perf_counter()
        return self

    def __exit__(self, *exc) -> None:
        st = _state()
        cpu = time.thread_time() - self._c0
        once_cpu = st["once_total"] - self._k0
        self.compile_s = float(st["wall_total"] - self._kw0)
        self.cpu_s = float(max(0.0, cpu - once_cpu))
        self.wall_s = float(time.perf_counter() - self._w0)


def cpu_now() -> float:
    """This thread's CPU time with its numba compiles taken out (seconds, arbitrary origin).

    The clock every reported time inside a method reads, so that times
    measured part-way (an anytime planner's first solution, its progress
    samples) are on the same clock as the method's total (``cpu_s`` of
    :class:`MethodClock`) and can never exceed it. Differences of two
    readings in one thread are meaningful; a compile that is still
    running is not yet taken out.

    >>> a = cpu_now(); b = cpu_now()
    >>> b >= a
    True
    """
    _install()
    return time.thread_time() - _state()["once_total"]


def method_clock() -> MethodClock:
    """A fresh :class:`MethodClock` (use it as ``with method_clock() as c:``)."""
    return MethodClock()
