"""Wilson for grids too narrow to jump: one self-contained kernel.

:func:`robomaze.generate._walk_kernels.wilson` jumps 32 steps at once from
calm blocks, and needs at least three 32x32 blocks each way to have one
(:data:`SMALL_SIDE`); below that its walks are the plain step-by-step walks
drawn from the same SplitMix64 words, and this kernel takes exactly those
steps: the same words, two bits a step, the same loop erasure and retrace,
so the same maze and move count. It compiles one kernel instead of eleven
(the draws, :func:`._kernels.step`, are inlined and the step written out:
as calls they would be compiled apart); its arrays come from numpy (an array constructor in a
kernel compiles numba's own implementation).

Examples
--------
>>> import numpy as np
>>> from robomaze.generate import _walk_kernels
>>> small = wilson(6, 9, 4)
>>> large = _walk_kernels.wilson(6, 9, 4)
>>> all(np.array_equal(a, b) for a, b in zip(small, large))
True
"""

from __future__ import annotations

import numpy as np

from .._compile.kernels import noalloc
from ._kernels import scale_below, step
from ._walk_kernels import WILSON_BLOCK, _move_tables

#: The big kernel jumps only on grids of at least three blocks each way,
#: ``3 * 2**WILSON_BLOCK`` = 96 cells; a grid narrower than this either way
#: takes :func:`wilson`.
SMALL_SIDE = 3 << WILSON_BLOCK

_U3 = np.uint64(3)
_S2 = np.uint64(2)


def wilson(rows: int, cols: int, seed: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Walls (flat ``uint8`` east, south; 1 = wall) and walk moves of
    Wilson's walks from ``seed``, step by step: what
    :func:`._walk_kernels.wilson` returns when it does not jump."""
    n = rows * cols
    walls = np.ones(2 * n, np.uint8)  # cell i's east wall at 2i, south wall at 2i + 1
    moves = _wilson_steps(rows, cols, seed, walls, np.zeros(n, np.uint8),
                          np.zeros(n, np.uint8), *_move_tables(cols))
    return walls[0::2].copy(), walls[1::2].copy(), moves


# Kernels here that allocate nothing (their callers do: kernel style 3) are
# noalloc(no_cfunc_wrapper=True): no reference counting lowered and
# no C wrapper, which nothing calls (issue 40, round 12: benchmarks/README.md).
# error_model="numpy" on those whose only divisions are ``// cols`` (cols >= 1):
# numba's default (Python) model tests every ``//`` for a zero divisor and
# lowers a ZeroDivisionError never raised (issue 40, round 13: benchmarks/README.md).
@noalloc(no_cfunc_wrapper=True, error_model="numpy")   # see the note on error_model
def _wilson_steps(rows, cols, seed, walls, intree, nxt, dr, dc, off, woff, wsel):
    """Loop-erased walks into the tree (``nxt``: each cell's last exit);
    returns the number of moves. A word's 32 steps run on into the next
    walk, as in :func:`._walk_kernels._wilson_walks`."""
    n = rows * cols
    st = np.uint64(seed)
    st, z = step(st)
    root = scale_below(z, n)
    intree[root] = 1
    bits = np.uint64(0)
    nbits = 0
    moves = 0
    for s in range(n):
        if intree[s]:
            continue
        u = s
        r = s // cols
        c = s - r * cols
        while True:
            if nbits == 0:
                st, bits = step(st)
                nbits = 32
            d = np.int64(bits & _U3)
            bits >>= _S2
            nbits -= 1
            # table look-ups, not a 4-way branch on a random direction
            nr = r + dr[d]
            nc = c + dc[d]
            if nr < 0 or nr >= rows or nc < 0 or nc >= cols:
                continue  # an off-grid draw is a stay
            r = nr
            c = nc
            moves += 1
            nxt[u] = d
            u += off[d]
            if intree[u]:
                break
        u = s
        while intree[u] == 0:
            intree[u] = 1
            d = np.int64(nxt[u])
            walls[2 * (u + woff[d]) + wsel[d]] = 0
            u += off[d]
    return moves
