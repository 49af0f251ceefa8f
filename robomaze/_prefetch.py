"""A software prefetch for numba kernels: ``prefetch(array, index)``.

Numba has no prefetch of its own; this intrinsic emits LLVM's
``llvm.prefetch`` (read, keep in all cache levels) for the address of
``array[index]`` -- ``prefetcht0`` on x86-64, ``prfm pldl1keep`` on
AArch64. It only starts a cache-line fill and never faults, so the index
need not be valid; nothing waits for the line. A kernel issues it for
look-ups it will make a little later, so that independent cache misses
overlap instead of arriving one at a time.
"""

from __future__ import annotations

from llvmlite import ir
from llvmlite.binding import llvm_version_info
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


# The intrinsic is overloaded on its pointer type and the verifier wants the
# mangled name: ``p0`` for LLVM's opaque pointers (only kind from LLVM 17),
# ``p0i8`` for the typed ``i8*`` of older LLVMs (numba >= 0.59 brings LLVM 14).
_NAME = "llvm.prefetch.p0" if llvm_version_info[0] >= 17 else "llvm.prefetch.p0i8"


@intrinsic
def prefetch(typingctx, arr, idx):
    """Start loading the cache line of ``arr[idx]`` (1-D array, integer index).

    Examples
    --------
    >>> import numpy as np
    >>> from numba import njit
    >>> @njit
    ... def first_after_prefetch(a):
    ...     prefetch(a, 0)
    ...     return a[0]
    >>> int(first_after_prefetch(np.arange(3)))
    0
    """
    if not (isinstance(arr, types.Array) and arr.ndim == 1
            and isinstance(idx, types.Integer)):
        return None

    def codegen(context, builder, sig, args):
        ary = context.make_array(sig.args[0])(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, sig.args[0], ary, [args[1]],
                                       wraparound=False)
        i32 = ir.IntType(32)
        i8p = ir.IntType(8).as_pointer()
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), (i8p, i32, i32, i32)),
            _NAME)
        # read (0), locality 3 (keep in every level), data cache (1)
        builder.call(fn, (builder.bitcast(ptr, i8p), ir.Constant(i32, 0),
                          ir.Constant(i32, 3), ir.Constant(i32, 1)))
        return context.get_dummy_value()

    return types.void(arr, idx), codegen
