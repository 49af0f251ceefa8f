"""Scratch arrays of the jump point search, kept from one query to the next.

A query on a 4001^2 grid needs ``g`` (float64), ``parent`` and ``mark``
(int32) over 16 M padded cells: allocating and faulting them in per query
was a real share of a query's time (1.2-1.7x on 1001^2 mazes). The search
marks cells with a per-query ``base`` (:func:`robomaze._search._jps.jps`),
so kept arrays need no clearing. One set is kept -- the last size used --
and only while it fits the budget (``ROBOMAZE_JPS_SCRATCH_MB``, default
512 MB; 0 keeps nothing); :func:`free_scratch` drops it. A query takes the
set out of the pool while it runs, so concurrent queries never share one.
"""

from __future__ import annotations

import os
import threading

import numpy as np

__all__ = ["take", "give", "free_scratch", "scratch_budget"]

_LOCK = threading.Lock()
_KEPT: list = []                 # at most one Scratch
_MARK_LIMIT = 2 ** 31 - 4        # int32 marks: clear once when the bases run out


class Scratch:
    """``g``, ``parent``, ``mark`` and the heap of one padded size, and the next base."""

    def __init__(self, n: int, index_dtype, zeros) -> None:
        self.n = n
        self.g = zeros(n, np.float64)
        self.parent = zeros(n, index_dtype)
        self.mark = zeros(n, np.int32)
        cap = 1024 + n // 64
        self.heap = (np.empty(cap), np.empty(cap), np.empty(cap, index_dtype))
        self.base = 0

    def next_base(self) -> int:
        """The base of the next query (2 above the last; marks cleared when they run out)."""
        if self.base + 2 >= _MARK_LIMIT:
            self.mark[:] = 0
            self.base = 0
        b = self.base
        self.base += 2
        return b

    def nbytes(self) -> int:
        return (self.g.nbytes + self.parent.nbytes + self.mark.nbytes
                + sum(a.nbytes for a in self.heap))


def scratch_budget() -> int:
    """Bytes of scratch the pool may keep (``ROBOMAZE_JPS_SCRATCH_MB``, default 512).

    >>> scratch_budget() >= 0
    True
    """
    raw = os.environ.get("ROBOMAZE_JPS_SCRATCH_MB", "512").strip()
    try:
        mb = float(raw)
    except ValueError:
        mb = 512.0
    return int(max(mb, 0.0) * 2 ** 20)


def take(n: int, index_dtype, zeros) -> Scratch:
    """The kept scratch of ``n`` padded cells (taken out of the pool), or a new one."""
    with _LOCK:
        if _KEPT and _KEPT[0].n == n and _KEPT[0].parent.dtype == np.dtype(index_dtype):
            return _KEPT.pop()
    return Scratch(n, index_dtype, zeros)


def give(s: Scratch) -> None:
    """Keep ``s`` for the next query if it fits the budget (replacing any other size)."""
    if s.nbytes() > scratch_budget():
        return
    with _LOCK:
        _KEPT.clear()
        _KEPT.append(s)


def free_scratch() -> int:
    """Drop the kept scratch; returns the bytes released.

    >>> free_scratch() >= 0
    True
    """
    with _LOCK:
        out = sum(s.nbytes() for s in _KEPT)
        _KEPT.clear()
    return out
