"""Numba kernels for the micromouse solvers: breadth-first floods on the
mouse's wall knowledge (flat ``(n, 4)`` int8 arrays, 0 unknown, 1 open,
2 wall; sides N, E, S, W)."""

from __future__ import annotations

import numpy as np
from numba import njit

UNKNOWN, OPEN, WALL = 0, 1, 2


@njit(cache=True)
def flood(know, rows, cols, sources, unknown_open):
    """Moves from every cell to the nearest source cell (-1 unreachable).

    An edge is passable when known open, or unknown and ``unknown_open``.
    """
    n = rows * cols
    dist = np.full(n, -1, np.int32)
    queue = np.empty(n, np.int32)
    head = 0
    tail = 0
    for i in range(sources.size):
        s = sources[i]
        if dist[s] < 0:
            dist[s] = 0
            queue[tail] = s
            tail += 1
    while head < tail:
        u = queue[head]
        head += 1
        r = u // cols
        c = u - r * cols
        for side in range(4):
            st = know[u, side]
            if st == 2 or (st == 0 and not unknown_open):
                continue
            if side == 0:
                if r == 0:
                    continue
                v = u - cols
            elif side == 1:
                if c == cols - 1:
                    continue
                v = u + 1
            elif side == 2:
                if r == rows - 1:
                    continue
                v = u + cols
            else:
                if c == 0:
                    continue
                v = u - 1
            if dist[v] < 0:
                dist[v] = dist[u] + 1
                queue[tail] = v
                tail += 1
    return dist
