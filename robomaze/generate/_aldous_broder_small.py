"""Aldous-Broder for grids too narrow to jump: one self-contained kernel.

:func:`robomaze.generate._walk_kernels.aldous_broder` jumps from calm
16x16 blocks, and a calm block needs a block all around it: three blocks
each way (:data:`SMALL_SIDE`). Below that it walks step by step, and this
kernel takes exactly those steps (the same SplitMix64 words, two bits a
step, an off-grid draw a stay), so it returns the same walls and move
count. It compiles one kernel instead of two, without the jump and block
bookkeeping (the draws, :func:`._kernels.step`, and the wall to open
are inlined, the step written out); its arrays come from numpy.

Examples
--------
>>> import numpy as np
>>> from robomaze.generate import _walk_kernels
>>> small = aldous_broder(6, 9, 4)
>>> large = _walk_kernels.aldous_broder(6, 9, 4)
>>> all(np.array_equal(a, b) for a, b in zip(small, large))
True
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._common import closed_walls
from ._kernels import scale_below, step, wall_between
from ._walk_kernels import AB_FINE, _move_tables

#: The big kernel jumps only on grids of at least three fine blocks each
#: way, ``3 * 2**AB_FINE`` = 48 cells; a grid narrower than this either way
#: takes :func:`aldous_broder`.
SMALL_SIDE = 3 << AB_FINE

_U3 = np.uint64(3)
_S2 = np.uint64(2)


def aldous_broder(rows: int, cols: int, seed: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Walls (flat ``uint8`` east, south; 1 = wall) and walk moves of the
    Aldous-Broder walk from ``seed``, step by step: what
    :func:`._walk_kernels.aldous_broder` returns when it does not jump."""
    n = rows * cols
    east, south = closed_walls(n)
    moves = _walk_steps(rows, cols, seed, east, south, np.zeros(n, np.uint8),
                        *_move_tables(cols)[:3])
    return east, south, moves


@njit(cache=True)
def _walk_steps(rows, cols, seed, east, south, visited, dr, dc, off):
    """The walk until every cell is visited; returns the number of moves."""
    n = rows * cols
    st = np.uint64(seed)
    st, z = step(st)
    u = scale_below(z, n)
    visited[u] = 1
    remaining = n - 1
    moves = 0
    r = u // cols
    c = u - r * cols
    while remaining > 0:
        st, bits = step(st)
        for _ in range(32):
            d = np.int64(bits & _U3)
            bits >>= _S2
            # table look-ups, not a 4-way branch on a random direction
            nr = r + dr[d]
            nc = c + dc[d]
            if nr < 0 or nr >= rows or nc < 0 or nc >= cols:
                continue  # an off-grid draw is a stay
            v = u + off[d]
            r = nr
            c = nc
            moves += 1
            if visited[v] == 0:
                visited[v] = 1
                south_side, w = wall_between(u, v, cols)
                if south_side:
                    south[w] = 0
                else:
                    east[w] = 0
                remaining -= 1
                if remaining == 0:
                    break
            u = v
    return moves
