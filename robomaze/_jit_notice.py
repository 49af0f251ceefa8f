"""Say so while numba compiles, instead of tens of seconds of silence.

robomaze's kernels are numba functions compiled on first use and cached on
disk (``cache=True``). On a machine with an empty cache the first command
spends most of its time in the compiler; without a word the user cannot tell
a compile from a hang. :func:`install` hooks numba's ``numba:compile`` event
(it fires only on a cache miss, never when a kernel loads from the cache), so
the notice appears exactly when something is being compiled, once per
process, and :func:`summary` reports how long it took.

Set ``ROBOMAZE_COMPILE_NOTICE=0`` to silence it (the test suite does, so its
checks of one-line error output hold on a cold cache).

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
from typing import TextIO

__all__ = ["CompileNotice", "install", "summary"]

_ENV = "ROBOMAZE_COMPILE_NOTICE"


class CompileNotice:
    """Counts compiles and prints one line at the first."""

    def __init__(self, stream: TextIO | None = None):
        self.stream = stream
        self.count = 0
        self.first: float | None = None
        self.last_end: float | None = None

    def started(self, what: str) -> None:
        self.count += 1
        if self.first is None:
            self.first = time.perf_counter()
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


def _enabled() -> bool:
    return os.environ.get(_ENV, "1").strip().lower() not in ("0", "false", "no", "off")


def install(stream: TextIO | None = None) -> CompileNotice | None:
    """Start reporting numba compiles in this process (idempotent).

    Returns the notice, or None when disabled by ``ROBOMAZE_COMPILE_NOTICE=0``
    or when numba's event API is unavailable.
    """
    global _NOTICE
    if _NOTICE is not None or not _enabled():
        return _NOTICE
    try:
        from numba.core import event as ev
    except ImportError:  # pragma: no cover - numba without the event API (< 0.55)
        return None
    notice = CompileNotice(stream)

    class _Listener(ev.Listener):
        def on_start(self, event):
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


def summary(stream: TextIO | None = None) -> None:
    """One line on what was compiled in this process, if anything was."""
    if _NOTICE is None or _NOTICE.count == 0:
        return
    stream = stream if stream is not None else sys.stderr
    try:
        print(f"robomaze: compiled {_NOTICE.count} kernel(s) in {_NOTICE.elapsed():.1f} s "
              "(cached for later runs)", file=stream, flush=True)
    except (OSError, ValueError):
        pass
