"""Prim for small grids: one self-contained kernel with a plain binary heap.

The keys are those of :func:`robomaze.generate._prim_kernels.prim` bit for
bit: the start cell is ``below(n)`` of the kernel's SplitMix64 stream, and
each cell that joins the tree draws one word per neighbour still outside
it, in the order N, E, S, W, the 33-bit weight above the 31-bit edge id
``cell * 4 + direction``. Every pop is the smallest key still waiting
whatever the queue (a bucketed one there, one heap here), keys are
distinct, and a cell draws when it joins, so both kernels join the cells
in the same order, draw the same words and build the same maze.

The large kernel's bucketed, prefetching queue pays off where the heap
leaves the cache; on small grids it is only compile time (19 kernel
specialisations, about 2 s on a cold cache). This one inlines SplitMix64
and the heap, so nothing else is compiled with it; its arrays come from
numpy (an array constructor in a kernel compiles numba's own
implementation). :data:`robomaze.generate.trees.PRIM_SMALL_CELLS` picks the
path.

Examples
--------
>>> import numpy as np
>>> from robomaze.generate import _prim_kernels
>>> small = prim(5, 7, 11)
>>> large = _prim_kernels.prim(5, 7, 11)
>>> all(np.array_equal(a, b) for a, b in zip(small, large))
True
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._common import closed_walls
from ._kernels import scale_below, step

_S31 = np.uint64(31)


def prim(rows: int, cols: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Walls (flat ``uint8`` east, south; 1 = wall) of Prim's tree from
    ``seed``: the maze :func:`._prim_kernels.prim` builds."""
    n = rows * cols
    east, south = closed_walls(n)
    # every edge is pushed at most once, from whichever end joins first
    _prim_heap(rows, cols, seed, east, south, np.zeros(n, np.uint8),
               np.empty(2 * n, np.uint64))
    return east, south


@njit(cache=True)
def _prim_heap(rows, cols, seed, east, south, intree, heap):
    """Grow the tree into ``east``/``south`` (all walls up on entry);
    ``intree`` starts zero, ``heap`` has room for every edge.

    The draws (:func:`._kernels.step`, inlined) and the heap
    (:func:`robomaze._search.heap_push` / ``heap_pop`` on bare keys, written
    out) are no calls: as calls they would be seven more compiles.
    """
    n = rows * cols
    st = np.uint64(seed)
    st, z = step(st)
    u = scale_below(z, n)
    intree[u] = 1
    size = 0
    hold = np.uint64(0)
    for _ in range(n - 1):
        r = u // cols
        c = u - r * cols
        held = False
        for code in range(4):  # N, E, S, W: the order the weights are drawn in
            if code == 0:
                if r == 0 or intree[u - cols]:
                    continue
            elif code == 1:
                if c == cols - 1 or intree[u + 1]:
                    continue
            elif code == 2:
                if r == rows - 1 or intree[u + cols]:
                    continue
            elif c == 0 or intree[u - 1]:
                continue
            st, z = step(st)
            key = ((z >> _S31) << _S31) | np.uint64(u * 4 + code)
            if not held:
                hold = key
                held = True
                continue
            if key < hold:
                key, hold = hold, key
            i = size  # sift up
            while i > 0:
                p = (i - 1) >> 1
                if heap[p] <= key:
                    break
                heap[i] = heap[p]
                i = p
            heap[i] = key
            size += 1
        while True:  # pop until an edge leaves the tree
            if held and (size == 0 or hold < heap[0]):
                top = hold  # its far cell was out of the tree when it was drawn
                held = False
            else:
                top = heap[0]
                if held:  # the top's place goes to the held key: no sift up
                    key = hold
                    held = False
                else:
                    size -= 1
                    key = heap[size]
                i = 0
                while True:  # sift down
                    ch = 2 * i + 1
                    if ch >= size:
                        break
                    if ch + 1 < size and heap[ch + 1] < heap[ch]:
                        ch += 1
                    if heap[ch] >= key:
                        break
                    heap[i] = heap[ch]
                    i = ch
                if i < size:
                    heap[i] = key
            e = np.int64(top & np.uint64(0x7FFFFFFF))
            a = e >> 2
            code = e & 3
            if code == 0:
                b = a - cols
            elif code == 1:
                b = a + 1
            elif code == 2:
                b = a + cols
            else:
                b = a - 1
            if intree[b] == 0:
                break
        if code == 0:  # the wall south of b
            south[b] = 0
        elif code == 1:
            east[a] = 0
        elif code == 2:
            south[a] = 0
        else:  # the wall east of b
            east[b] = 0
        intree[b] = 1
        u = b
