"""Numba kernel of the Scheme program's depth-first generator (:mod:`.scheme`).

Directions are numbered in the Scheme program's list order: 0 izq (west),
1 der (east), 2 arr (north), 3 aba (south).

"Kernel style N" notes refer to :mod:`robomaze._compile.kernels`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._kernels import below
from ._common import closed_walls, kernel_state


def scheme_dfs(rows, cols, seed):
    """The Scheme program's depth-first search from cell 0.

    The arrays are allocated here, in numpy, and :func:`_scheme_dfs` carves
    (kernel style 3).
    """
    n = rows * cols
    east, south = closed_walls(n)
    # per cell: the rotation offset drawn on entry and how many of its
    # directions have been tried; the order itself is recomputed from them
    _scheme_dfs(rows, cols, kernel_state(seed), east, south, np.zeros(n, np.uint8),
                np.zeros(n, np.uint8), np.zeros(n, np.uint8), np.empty(n, np.int64),
                np.array([-1, 1, -cols, cols], np.int64), np.empty(4, np.int64))
    return east, south


@njit(cache=True)
def _scheme_dfs(rows, cols, st, east, south, visited, offset, tried, stack, step, dirs):
    """The search of :func:`scheme_dfs` on its arrays (``step``: the flat
    index step of each direction).

    The in-bounds directions (west, east, north, south: the list order) and
    the carving are written out, not calls: two compiles fewer on a cold
    start. A new cell only needs how many directions it has.
    """
    visited[0] = 1
    m = (cols > 1) + (rows > 1)  # cell 0's in-bounds directions: east, south
    if m > 0:
        offset[0] = below(st, np.int64(m))
    stack[0] = 0
    sp = 1
    while sp > 0:
        u = stack[sp - 1]
        r = u // cols
        c = u - r * cols
        m = 0
        if c > 0:
            dirs[m] = 0
            m += 1
        if c < cols - 1:
            dirs[m] = 1
            m += 1
        if r > 0:
            dirs[m] = 2
            m += 1
        if r < rows - 1:
            dirs[m] = 3
            m += 1
        j = np.int64(tried[u])
        if j == m:
            sp -= 1
            continue
        tried[u] += 1
        # random-list conses the rotation onto its result, so the j-th
        # direction tried is the rotation read backwards
        d = dirs[(np.int64(offset[u]) - 1 - j) % m]
        v = u + step[d]
        if visited[v]:
            continue
        if d == 0:  # west: v's east wall
            east[v] = 0
        elif d == 1:
            east[u] = 0
        elif d == 2:  # north: v's south wall
            south[v] = 0
        else:
            south[u] = 0
        visited[v] = 1
        r = v // cols
        c = v - r * cols
        offset[v] = below(st, np.int64((c > 0) + (c < cols - 1) + (r > 0) + (r < rows - 1)))
        stack[sp] = v
        sp += 1
