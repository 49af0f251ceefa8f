"""Numba kernel of the Scheme program's depth-first generator (:mod:`.scheme`).

Directions are numbered in the Scheme program's list order: 0 izq (west),
1 der (east), 2 arr (north), 3 aba (south).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._alloc import filled
from ._kernels import below, carve, new_state


@njit(cache=True)
def _in_bounds(u, rows, cols, out):
    """The in-bounds directions of cell ``u`` in list order; return their count."""
    r = u // cols
    c = u - r * cols
    m = 0
    if c > 0:
        out[m] = 0
        m += 1
    if c < cols - 1:
        out[m] = 1
        m += 1
    if r > 0:
        out[m] = 2
        m += 1
    if r < rows - 1:
        out[m] = 3
        m += 1
    return m


@njit(cache=True)
def scheme_dfs(rows, cols, seed):
    n = rows * cols
    st = new_state(seed)
    east = filled(n, 1, np.uint8)
    south = filled(n, 1, np.uint8)
    visited = filled(n, 0, np.uint8)
    # per cell: the rotation offset drawn on entry and how many of its
    # directions have been tried; the order itself is recomputed from them
    offset = filled(n, 0, np.uint8)
    tried = filled(n, 0, np.uint8)
    stack = np.empty(n, np.int64)
    step = np.array([-1, 1, -cols, cols], np.int64)
    dirs = np.empty(4, np.int64)
    visited[0] = 1
    m = _in_bounds(np.int64(0), rows, cols, dirs)  # not a literal 0: one compile
    if m > 0:
        offset[0] = below(st, m)
    stack[0] = 0
    sp = 1
    while sp > 0:
        u = stack[sp - 1]
        m = _in_bounds(u, rows, cols, dirs)
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
        carve(east, south, cols, u, v)
        visited[v] = 1
        mv = _in_bounds(v, rows, cols, dirs)
        offset[v] = below(st, mv)
        stack[sp] = v
        sp += 1
    return east, south
