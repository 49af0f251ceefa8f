"""Everything about numba compilation, behind a small interface.

robomaze's kernels are numba functions compiled on first use and cached on
disk. The rest of the package says nothing about compiling; it calls:

* :func:`install_locator` (``import robomaze``): kernels cached by the content
  of their sources (:mod:`.cache`), numba's compile listener in place
  (:mod:`.events`);
* :func:`install` (a command, the bench server): the compile notice on, and
  cache saves safe across processes;
* :func:`warm`: run named warm-up calls once each, over this process and
  forks of it when the cache lacks kernels (:mod:`.parallel`);
* :func:`method_clock` / :func:`cpu_now`: a method's CPU time with its
  compiles taken out, and :func:`summary`: the line saying what compiled;
* :mod:`.kernels` (imports numba): ``inner``, ``noalloc``, ``filled``, ``counting``,
  ``prefetch`` for kernel modules.

Importing this package imports no numba.

>>> from robomaze import _compile
>>> callable(_compile.warm) and callable(_compile.method_clock)
True
"""

from __future__ import annotations

from .cache import install_locator
from .events import MethodClock, compiled, cpu_now, method_clock, summary
from .parallel import warm

__all__ = ["install_locator", "install", "warm", "method_clock", "MethodClock", "cpu_now",
           "compiled", "summary"]


def install() -> None:
    """A command's set-up: say so while compiling, and lock the cache's saves
    (several robomaze processes may compile into one cache at once)."""
    import sys

    from .._import_hook import after_import

    # a command that never runs a kernel (``mouse route``) must not pay
    # numba's import (~0.4 s of CPU) for a listener: set up when numba is
    # imported, before anything can compile
    if "numba" in sys.modules:
        _install_now()
    else:
        after_import("numba", _install_now)


def _install_now(_module=None) -> None:
    from . import cache, events

    events.listen(notice=True)
    cache.install()
