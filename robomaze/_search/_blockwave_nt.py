"""Streaming (non-temporal) row writes for the closed-form wave's output.

The field is written once and not read again by the kernel, so its cache
lines need not be fetched before they are overwritten. Ordinary stores
fetch each line first (a read for every write: at 8001^2 the 192 MB of
cell rows took 10.4 ms against 5.5 ms streamed, and ``ndarray.fill``'s
6.7 ms); a non-temporal store writes whole lines straight to memory. Numba
has no such store, and LLVM's loop vectorizer will not turn a scalar one
into vector stores (it cannot prove their alignment), so
:func:`band_row` emits the row loop itself: 64-byte aligned ``<16 x i32>``
stores tagged ``!nontemporal`` (``vmovntdq`` on x86-64; a hint other
targets may ignore), with scalar stores before the first aligned address
and after the last full vector. :func:`store_fence` orders the streamed
stores before anything later (``fence seq_cst``; once per field).
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

_LANES = 16  # int32 lanes of one 64-byte store


def _splat(ty, value):
    return ir.Constant(ty, [value] * ty.count) if isinstance(ty, ir.VectorType) \
        else ir.Constant(ty, value)


def _row_value(builder, e, row, t32, t64):
    """``max(term + |row - prow|, -1)`` of a packed ``prow << 32 | term`` (scalar or vector)."""
    term = builder.trunc(e, t32)
    prow = builder.trunc(builder.ashr(e, _splat(t64, 32)), t32)
    d = builder.sub(row, prow)
    ad = builder.select(builder.icmp_signed("<", d, _splat(t32, 0)), builder.neg(d), d)
    v = builder.add(term, ad)
    m1 = _splat(t32, -1)
    return builder.select(builder.icmp_signed(">", v, m1), v, m1)


@intrinsic
def band_row(typingctx, out, band, row):
    """``out[i] = max(int32(band[i]) + |row - (band[i] >> 32)|, -1)``, streamed to memory.

    ``out``: 1-D int32 (an output row), ``band``: 1-D int64 of at least
    ``len(out)`` packed forms, ``row``: the grid row. Call
    :func:`store_fence` once after the last row.

    Examples
    --------
    >>> import numpy as np
    >>> from numba import njit
    >>> @njit
    ... def rows(out, band):
    ...     for r in range(out.shape[0]):
    ...         band_row(out[r], band, r)
    ...     store_fence()
    >>> band = (np.arange(40, dtype=np.int64) % 3 << 32) | np.arange(40)
    >>> band[5] = -(1 << 30) & 0xFFFFFFFF  # blocked: below -1 on every row
    >>> out = np.empty((3, 40), np.int32)
    >>> rows(out, band)
    >>> want = np.maximum(np.arange(40) + np.abs(np.arange(3)[:, None] - np.arange(40) % 3), -1)
    >>> want[:, 5] = -1
    >>> bool((out == want).all())
    True
    """
    # the loop walks raw pointers one element at a time: contiguous arrays only
    if not (isinstance(out, types.Array) and out.ndim == 1 and out.dtype == types.int32
            and out.layout == "C" and isinstance(band, types.Array) and band.ndim == 1
            and band.dtype == types.int64 and band.layout == "C"
            and isinstance(row, types.Integer)):
        return None

    def codegen(context, builder, sig, args):
        oary = context.make_array(sig.args[0])(context, builder, args[0])
        bary = context.make_array(sig.args[1])(context, builder, args[1])
        i32, i64 = ir.IntType(32), ir.IntType(64)
        v32, v64 = ir.VectorType(i32, _LANES), ir.VectorType(i64, _LANES)
        n = builder.extract_value(oary.shape, 0)
        optr, bptr = oary.data, bary.data
        r = context.cast(builder, args[2], sig.args[2], types.int32)
        rv = cgutils.get_null_value(v32)
        for j in range(_LANES):
            rv = builder.insert_element(rv, r, ir.Constant(i32, j))
        # scalar stores up to the first 64-byte boundary (all of them if the
        # row is not even 4-byte aligned), then whole vectors, then the rest
        addr = builder.ptrtoint(optr, i64)
        mis = builder.and_(addr, ir.Constant(i64, 63))
        head = builder.lshr(builder.and_(builder.sub(ir.Constant(i64, 64), mis),
                                         ir.Constant(i64, 63)), ir.Constant(i64, 2))
        odd = builder.icmp_unsigned("!=", builder.and_(addr, ir.Constant(i64, 3)),
                                    ir.Constant(i64, 0))
        head = builder.select(odd, n, head)
        head = builder.select(builder.icmp_signed("<", head, n), head, n)
        vend = builder.add(head, builder.and_(builder.sub(n, head),
                                              ir.Constant(i64, -_LANES)))

        def scalar(lo, hi):
            with cgutils.for_range_slice(builder, lo, hi, ir.Constant(i64, 1)) as (i, _):
                e = builder.load(builder.gep(bptr, [i]))
                builder.store(_row_value(builder, e, r, i32, i64), builder.gep(optr, [i]))

        scalar(ir.Constant(i64, 0), head)
        nontemporal = builder.module.add_metadata([ir.Constant(i32, 1)])
        with cgutils.for_range_slice(builder, head, vend, ir.Constant(i64, _LANES)) as (i, _):
            e = builder.load(builder.bitcast(builder.gep(bptr, [i]), v64.as_pointer()), align=8)
            st = builder.store(_row_value(builder, e, rv, v32, v64),
                               builder.bitcast(builder.gep(optr, [i]), v32.as_pointer()),
                               align=64)
            st.set_metadata("nontemporal", nontemporal)
        scalar(vend, n)
        return context.get_dummy_value()

    return types.void(out, band, row), codegen


@intrinsic
def store_fence(typingctx):
    """Order the streamed stores before every later memory access (``fence seq_cst``)."""

    def codegen(context, builder, sig, args):
        builder.fence("seq_cst")
        return context.get_dummy_value()

    return types.void(), codegen
