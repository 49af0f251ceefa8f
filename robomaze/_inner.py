"""numba options for kernels that only other kernels call: no entry points to compile.

numba compiles every kernel with two entry points beside its body: a
CPython wrapper (unboxes the arguments, boxes the result: what a call from
Python runs) and a C wrapper (for first-class function values). Both are
lowered, optimised, turned into machine code and cached with the kernel.
A kernel that only other kernels call needs neither (they call its body),
so it is compiled with :data:`INNER`.

Two rules keep this a saving (``tests/test_inner_kernels.py`` checks both):

* Nothing calls an INNER kernel from Python: it has no Python entry point.
  Declared with :func:`inner`, such a call raises a ``TypeError`` that says
  so (a bare ``njit(**INNER)`` kernel would jump to a null address and kill
  the process).
* An INNER kernel calls none of numba's overloaded functions (``np.empty``,
  ``min``, ``max``, ``int`` ...): numba caches an overload's compiled
  implementation per calling kernel's *flags*, so the same call compiles
  once for INNER kernels and once again for plain ones. For the same
  reason the kernels Python calls keep numba's defaults (dropping only their
  C wrapper would split every overload between them and the generators'
  kernels).

Examples
--------
>>> import numpy as np
>>> from numba import njit
>>> from robomaze._inner import inner
>>> @inner(cache=False)                 # a doctest has no file to cache in
... def _twice(a, i):
...     return 2 * a[i]
>>> @njit
... def demo(a):
...     return _twice(a, 1)
>>> demo(np.arange(3))
2
>>> _twice(np.arange(3), 1)
Traceback (most recent call last):
...
TypeError: _twice is compiled for other kernels only (no Python entry point): call a kernel that calls it
"""

from __future__ import annotations

from typing import Callable

__all__ = ["INNER", "inner"]

#: njit options of a kernel only other kernels call: cached, no wrappers
INNER = {"cache": True, "no_cfunc_wrapper": True, "no_cpython_wrapper": True}


def inner(fn: Callable | None = None, **options):
    """``njit(**INNER)`` whose calls from Python raise a ``TypeError``.

    numba's dispatcher calls a compiled entry point it looks up in a table
    filled by ``_insert``; without a CPython wrapper that entry is null. Here
    the table stays empty, so every call from Python takes numba's slow path
    (``_compile_for_args``), which refuses; kernels call the body directly
    and never look at either. Use as ``@inner`` or ``@inner(cache=False)``.
    """
    from numba import njit

    def wrap(f):
        disp = njit(**dict(INNER, **options))(f)
        name = f.__name__

        def no_python_entry(*args, **kwargs):
            raise TypeError(f"{name} is compiled for other kernels only (no Python entry "
                            "point): call a kernel that calls it")

        disp._insert = lambda *args, **kwargs: None
        disp._compile_for_args = no_python_entry
        return disp

    return wrap if fn is None else wrap(fn)
