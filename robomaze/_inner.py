"""numba options for kernels that only other kernels call: no entry points to compile.

numba compiles every kernel with two entry points beside its body: a
CPython wrapper (unboxes the arguments, boxes the result: what a call from
Python runs) and a C wrapper (for first-class function values). Both are
lowered, optimised, turned into machine code and cached with the kernel.
A kernel that only other kernels call needs neither (they call its body),
so it is compiled with :data:`INNER`.

Two rules keep this a saving (``tests/test_inner_kernels.py`` checks both):

* Nothing calls an INNER kernel from Python: it has no Python entry point,
  and a call would jump to a null address.
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
>>> from robomaze._inner import INNER
>>> @njit(**dict(INNER, cache=False))     # a doctest has no file to cache in
... def _twice(a, i):
...     return 2 * a[i]
>>> @njit
... def demo(a):
...     return _twice(a, 1)
>>> demo(np.arange(3))
2
"""

from __future__ import annotations

__all__ = ["INNER"]

#: njit options of a kernel only other kernels call: cached, no wrappers
INNER = {"cache": True, "no_cfunc_wrapper": True, "no_cpython_wrapper": True}
