"""Octile fields of grids without a free 2x2 square: the 4-connected field, as floats.

Without corner cutting a diagonal move from ``(r, c)`` to ``(r + 1, c + 1)``
needs ``(r, c + 1)`` and ``(r + 1, c)`` free as well: four free cells in a
2x2 square. A grid with no such square (perfect mazes of corridor 1 -- the
MovingAI ``maze512-1-*`` maps --, spirals and other one-cell corridors)
allows no diagonal move at all, so its octile field *is* the 4-connected
unit field, exactly (integers, which float64 holds exactly). That field is
:func:`._field4.field4`'s (a tree walk, a bit wave or a small-component
probe, several times a queue's speed), turned into float64 with inf where
it has -1.

The test for a square reads two rows at a time and stops at the first
square found, so on grids that have them (almost all) it costs a row or
two. Only grids of at least :data:`._octile_probe.BIG` cells take this
path, so small grids never compile these kernels.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["has_free_square", "thin_field"]


@njit(cache=True)
def has_free_square(free):
    """Whether the 2-D uint8 mask ``free`` has four free cells in a 2x2 square.

    >>> has_free_square(np.array([[1, 1, 0], [0, 1, 1]], np.uint8))
    False
    >>> has_free_square(np.array([[1, 1, 0], [1, 1, 0]], np.uint8))
    True
    """
    rows, cols = free.shape
    for r in range(rows - 1):
        a = free[r]
        b = free[r + 1]
        acc = 0
        # no exit inside the row: the loop vectorises
        for c in range(cols - 1):
            acc |= a[c] & a[c + 1] & b[c] & b[c + 1]
        if acc:
            return True
    return False


@njit(cache=True)
def _to_float(flat, off, stride, rows, cols, out):
    # rows of a row-strided int32 field, read through its flat buffer: a
    # 2-D non-contiguous view would compile numba's strided indexing (2x slower)
    for r in range(rows):
        s = off + r * stride
        o = r * cols
        for c in range(cols):
            d = flat[s + c]
            out[o + c] = np.inf if d < 0 else d
    return out


def _rows_of(dist: np.ndarray):
    """``(flat, offset, row stride)`` of the 2-D int32 ``dist`` (its buffer, not a copy if it can)."""
    rows, cols = dist.shape
    if dist.flags.c_contiguous:
        return dist.reshape(-1), 0, cols
    base = dist.base
    item = dist.itemsize
    if (isinstance(base, np.ndarray) and base.dtype == dist.dtype and base.flags.c_contiguous
            and dist.strides[1] == item and dist.strides[0] % item == 0):
        flat = base.reshape(-1)
        off = (dist.__array_interface__["data"][0] - flat.__array_interface__["data"][0]) // item
        stride = dist.strides[0] // item
        if off >= 0 and off + (rows - 1) * stride + cols <= flat.size:
            return flat, off, stride
    return np.ascontiguousarray(dist).reshape(-1), 0, cols


def thin_field(free: np.ndarray, source: int) -> np.ndarray | None:
    """The octile field of ``free`` (2-D bool) from flat ``source``; None if a 2x2 square is free.

    >>> free = np.array([[1, 1, 1], [0, 0, 1], [1, 0, 1]], bool)
    >>> thin_field(free, 0)
    array([[ 0.,  1.,  2.],
           [inf, inf,  3.],
           [inf, inf,  4.]])
    """
    from ._field4 import field4

    mask = np.ascontiguousarray(free, dtype=bool).view(np.uint8)
    if has_free_square(mask):
        return None
    rows, cols = free.shape
    dist = field4(mask.reshape(-1), rows, cols, int(source), False)[0]
    flat, off, stride = _rows_of(dist)
    return _to_float(flat, off, stride, rows, cols, np.empty(rows * cols)).reshape(rows, cols)
