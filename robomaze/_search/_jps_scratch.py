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

import contextlib
import mmap
import os
import threading

import numpy as np

__all__ = ["take", "give", "free_scratch", "scratch_budget"]

_LOCK = threading.Lock()
_KEPT: list = []                 # at most one Scratch
_MARK_LIMIT = 2 ** 31 - 4        # int32 marks: clear once when the bases run out


class Scratch:
    """``g``, ``parent``, ``mark`` and the heap of one padded size, and the next base.

    With int32 indices the three live interleaved, 16 bytes per cell (``g``,
    then ``mark``, then ``parent``): relaxing a successor on a large grid
    costs one cache miss, not three. ``g``, ``mark`` and ``parent`` are
    strided views of that one buffer.
    """

    def __init__(self, n: int, index_dtype, zeros) -> None:
        self.n = n
        if np.dtype(index_dtype) == np.int32:
            buf = zeros(2 * n, np.float64)
            meta = buf.view(np.int32)
            self.g, self.mark, self.parent = buf[0::2], meta[2::4], meta[3::4]
            self._buf = buf
        else:
            self.g = zeros(n, np.float64)
            self.parent = zeros(n, index_dtype)
            self.mark = zeros(n, np.int32)
            self._buf = None
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
        cells = (self._buf.nbytes if self._buf is not None
                 else self.g.nbytes + self.parent.nbytes + self.mark.nbytes)
        return cells + sum(a.nbytes for a in self.heap)


def huge_zeros(n: int, dtype) -> np.ndarray:
    """Zeros on pages the kernel may back with 2 MiB huge pages (``MADV_HUGEPAGE``).

    A search of a large grid touches its scratch at random: on 4 KiB pages
    nearly every relaxation also misses the TLB (a 4001^2 set spans 65,000
    pages). Kept scratch is faulted in once and reused, so the larger first
    touch is paid once. Falls back to ``np.zeros`` where the call is missing.
    """
    dt = np.dtype(dtype)
    size = max(n * dt.itemsize, 1)
    if not hasattr(mmap, "MADV_HUGEPAGE") or size < 2**22:
        return np.zeros(n, dt)
    buf = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE)
    with contextlib.suppress(OSError):  # a kernel without transparent huge pages: 4 KiB pages
        buf.madvise(mmap.MADV_HUGEPAGE)
    return np.frombuffer(buf, dt, count=n)


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
