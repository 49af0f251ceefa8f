"""Filled 1-D arrays inside numba kernels, without numba's ``np.zeros`` & co.

On a cold start every ``np.zeros``, ``np.ones``, ``np.full`` and
``np.arange`` a kernel calls compiles numba's own implementation of it, and
that implementation's ``np.empty`` and fill helpers, for each dtype: about
0.05-0.2 s apiece, a tenth or more of a small command's first run
(benchmarks/README.md, "Issue 22: compile time per command"). These helpers
are ``np.empty`` and a loop, inlined into the calling kernel (numba's
``inline="always"``), so they compile nothing of their own; the loop is the
same one numba's implementations run. They pay where a kernel file asks
for several dtypes (the generators: prim 26 -> 19 kernels compiled, wilson
29 -> 20); where one dtype is filled at many places numba's shared
implementation is as cheap, so not every kernel uses them.

Examples
--------
>>> import numpy as np
>>> from numba import njit
>>> from robomaze._alloc import filled, counting
>>> @njit
... def demo(n):
...     return filled(n, -1, np.int32), counting(n, np.int64)
>>> a, b = demo(3)
>>> a.tolist(), a.dtype.name, b.tolist()
([-1, -1, -1], 'int32', [0, 1, 2])
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["filled", "counting"]


@njit(cache=True, inline="always")
def filled(n, value, dtype):
    """``np.full(n, value, dtype)`` for a 1-D array of ``n`` items."""
    a = np.empty(n, dtype)
    for i in range(n):
        a[i] = value
    return a


@njit(cache=True, inline="always")
def counting(n, dtype):
    """``np.arange(n).astype(dtype)``: 0, 1, ..., n - 1."""
    a = np.empty(n, dtype)
    for i in range(n):
        a[i] = i
    return a
