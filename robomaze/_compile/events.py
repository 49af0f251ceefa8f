"""One listener on numba's compile events: the notice, the counts, the clock, the GC hold.

numba fires ``numba:compile`` only on a cache miss (never when a kernel
loads from the disk cache), nested for a kernel's callees. One listener
(:func:`listen`, idempotent) uses it four ways:

* **the notice** (commands only): a first compile prints one line, so a
  user waiting tens of seconds on an empty cache can tell a compile from a
  hang, and :func:`summary` says at the end how many kernels compiled and
  for how long (``ROBOMAZE_COMPILE_NOTICE=0`` silences both; the test
  suite does);
* **the count** of kernels compiled in this process (:func:`compiled`);
* **the clock**: the thread CPU and wall time of the outermost compiles and
  of first-call kernel loads from the cache (``numba:compiler_lock``), which
  :class:`MethodClock` and :func:`cpu_now` take out of a method's time (a
  reported time describes the method, not the first call's compiler);
* **the GC hold**: Python's cyclic collector is off from the start of the
  outermost compile to its end. A compile allocates millions of small
  objects and the collector's full passes over them were 10% of a cold
  ``plan``'s compile CPU and 13-21% of the bench warm-up's
  (benchmarks/README.md); a collector the program switched off stays off.

Examples
--------
>>> from robomaze._compile.events import method_clock
>>> with method_clock() as clock:
...     total = sum(range(1000))
>>> clock.cpu_s >= 0.0 and clock.compile_s == 0.0
True
"""

from __future__ import annotations

import gc
import os
import sys
import threading
import time
from typing import TextIO

__all__ = ["listen", "compiled", "helped", "summary", "method_clock", "MethodClock", "cpu_now"]

_ENV = "ROBOMAZE_COMPILE_NOTICE"
_local = threading.local()
_lock = threading.Lock()
#: process-wide: listener installed, kernels compiled, first compile and last end
#: (perf_counter), the notice's stream and silence, collector held
_P: dict = {"installed": False, "count": 0, "first": None, "end": None, "stream": None,
            "silent": True, "gc": False, "depth": 0, "others": 0, "processes": 1}


def _thread() -> dict:
    st = getattr(_local, "st", None)
    if st is None:
        st = _local.st = {"depth": 0, "cpu0": 0.0, "wall0": 0.0, "cpu": 0.0, "wall": 0.0,
                          "once_depth": 0, "once0": 0.0, "once": 0.0}
    return st


def _once_start() -> None:
    # numba holds its compiler lock to compile *and* to load a kernel from
    # the disk cache on a signature's first call; a cache load fires no
    # "numba:compile", so without this a warm-cache process timed the load
    # that a cold-cache process (compiling) did not
    st = _thread()
    if st["once_depth"] == 0:
        st["once0"] = time.thread_time()
    st["once_depth"] += 1


def _once_end() -> None:
    st = _thread()
    st["once_depth"] = max(0, st["once_depth"] - 1)
    if st["once_depth"] == 0:
        st["once"] += time.thread_time() - st["once0"]


def _name(event) -> str:
    f = getattr((event.data or {}).get("dispatcher"), "py_func", None)
    module = (getattr(f, "__module__", "") or "").replace("robomaze.", "").replace("._kernels", "")
    name = getattr(f, "__qualname__", "kernel")
    return f"{module}.{name}" if module else name


def _started(event) -> None:
    with _lock:
        _P["count"] += 1
        if _P["depth"] == 0 and gc.isenabled():
            gc.disable()
            _P["gc"] = True
        _P["depth"] += 1
        first = _P["first"] is None
        if first:
            _P["first"] = time.perf_counter()
    st = _thread()
    if st["depth"] == 0:
        st["cpu0"], st["wall0"] = time.thread_time(), time.perf_counter()
    st["depth"] += 1
    _once_start()
    if first and not _P["silent"]:
        try:
            print(f"robomaze: compiling numba kernels on first use ({_name(event)}); they are "
                  "cached, so later runs start in about a second ...",
                  file=_P["stream"] or sys.stderr, flush=True)
        except (OSError, ValueError):  # a closed stderr must not fail the compile
            pass


def _ended(event) -> None:
    st = _thread()
    st["depth"] = max(0, st["depth"] - 1)
    if st["depth"] == 0:
        st["cpu"] += time.thread_time() - st["cpu0"]
        st["wall"] += time.perf_counter() - st["wall0"]
    _once_end()
    with _lock:
        _P["end"] = time.perf_counter()
        _P["depth"] = max(0, _P["depth"] - 1)
        if _P["depth"] == 0 and _P["gc"]:
            _P["gc"] = False
            gc.enable()


def listen(notice: bool | None = None, stream: TextIO | None = None) -> bool:
    """Start listening to numba's compiles in this process (idempotent).

    ``notice=True`` turns the notice on (unless ``ROBOMAZE_COMPILE_NOTICE=0``),
    ``False`` off, None leaves it (off until a command turns it on: a
    library call prints nothing). Counting and the clock work either way.
    Returns False where numba has no event API.
    """
    if stream is not None:
        _P["stream"] = stream
    if notice is not None:
        quiet = os.environ.get(_ENV, "1").strip().lower() in ("0", "false", "no", "off")
        _P["silent"] = quiet or not notice
    if _P["installed"]:
        return True
    try:
        # outside the lock: importing numba runs robomaze's import hook, which listens
        from numba.core import event as ev
    except ImportError:  # pragma: no cover - numba without the event API (< 0.55)
        return False
    with _lock:
        if _P["installed"]:
            return True

        class _Listener(ev.Listener):
            def on_start(self, event):
                _started(event)

            def on_end(self, event):
                _ended(event)

        class _FirstUse(ev.Listener):
            def on_start(self, event):
                _once_start()

            def on_end(self, event):
                _once_end()

        ev.register("numba:compile", _Listener())
        ev.register("numba:compiler_lock", _FirstUse())
        _P["installed"] = True
    return True


def compiled() -> int:
    """Kernels compiled in this process since :func:`listen` (nested ones included)."""
    return _P["count"]


def helped(count: int, processes: int, until: float) -> None:
    """Count ``count`` kernels that ``processes - 1`` helpers compiled for this process,
    which waited for them until ``until`` (``perf_counter``): :func:`summary` adds them."""
    _P["others"] += count
    _P["processes"] = max(_P["processes"], processes)
    if count:
        _P["first"] = until if _P["first"] is None else _P["first"]
        _P["end"] = until if _P["end"] is None else max(_P["end"], until)


def summary(stream: TextIO | None = None, *, elapsed: float | None = None) -> None:
    """One line on what this process and its helpers compiled, if anything
    (``elapsed`` replaces the time from the first compile to the last end)."""
    total, processes = _P["count"] + _P["others"], _P["processes"]
    if _P["silent"] or total == 0:
        return
    if elapsed is None:
        first, end = _P["first"], _P["end"]
        elapsed = 0.0 if first is None or end is None else end - first
    where = f" on {processes} processes" if processes > 1 else ""
    try:
        print(f"robomaze: compiled {total} kernel(s) in {elapsed:.1f} s{where} "
              "(cached for later runs)", file=stream or _P["stream"] or sys.stderr, flush=True)
    except (OSError, ValueError):  # a closed stderr must not fail the run
        pass


class MethodClock:
    """Context manager: ``cpu_s`` (compilation excluded), ``compile_s``, ``wall_s``.

    ``compile_s`` is the wall time numba spent compiling inside the block
    (what a user waits for); ``cpu_s`` is the thread CPU time of the block
    minus the CPU time of those compiles and of kernel loads from the disk
    cache (numba holds its compiler lock for both: ``numba:compiler_lock``),
    so a cold and a warm cache time a method alike.
    """

    cpu_s: float = 0.0
    compile_s: float = 0.0
    wall_s: float = 0.0

    def __enter__(self) -> "MethodClock":
        listen()
        st = _thread()
        self._c0, self._k0, self._kw0 = time.thread_time(), st["once"], st["wall"]
        self._w0 = time.perf_counter()
        return self

    def __exit__(self, *exc) -> None:
        st = _thread()
        self.compile_s = float(st["wall"] - self._kw0)
        self.cpu_s = float(max(0.0, time.thread_time() - self._c0 - (st["once"] - self._k0)))
        self.wall_s = float(time.perf_counter() - self._w0)


def method_clock() -> MethodClock:
    """A fresh :class:`MethodClock` (use it as ``with method_clock() as c:``)."""
    return MethodClock()


def cpu_now() -> float:
    """This thread's CPU time with its compiles taken out (seconds, arbitrary origin).

    The clock every time reported inside a method reads (an anytime
    planner's first solution, its progress samples), so that those can never
    exceed the method's total (``cpu_s``). A compile still running is not
    yet taken out.

    >>> a = cpu_now(); b = cpu_now()
    >>> b >= a
    True
    """
    listen()
    return time.thread_time() - _thread()["once"]
