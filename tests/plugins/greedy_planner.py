"""A planner plugin in one module: greedy best-first search, plus its spec.

Registered by importing the module (``ROBOMAZE_PLUGINS``, a sweep's
``plugins`` list) or through the entry point group ``robomaze.planners``
naming :data:`SPEC`. It uses only robomaze's public API.
"""

from __future__ import annotations

import heapq
import time

import numpy as np

from robomaze.errors import NoPathError, ParameterError
from robomaze.geometry import free_space
from robomaze.plan import make_path
from robomaze.registry import PLANNERS, Option, Spec


def _cell(grid, p):
    if all(isinstance(v, (int, np.integer)) for v in p):
        return int(p[0]), int(p[1])
    return grid.world_to_cell(p)


def greedy(grid, start, goal, *, footprint=None, connectivity: int = 4,
           tie_break: str = "fifo", weight: float = 1.0):
    """Greedy best-first search: always expand the open cell nearest the goal.

    Fast and complete on a finite grid, but not optimal: the path may be
    longer than the shortest one.
    """
    if connectivity not in (4, 8):
        raise ParameterError(f"connectivity must be 4 or 8, got {connectivity!r}")
    t0 = time.perf_counter()
    free = free_space(grid, footprint)
    rows, cols = free.shape
    s, g = _cell(grid, start), _cell(grid, goal)
    for name, c in (("start", s), ("goal", g)):
        if not (0 <= c[0] < rows and 0 <= c[1] < cols) or not free[c]:
            raise NoPathError(f"greedy: the {name} {c} is not free for this robot")
    steps = [(-1, 0), (1, 0), (0, -1), (0, 1)]
    if connectivity == 8:
        steps += [(-1, -1), (-1, 1), (1, -1), (1, 1)]
    sign = 1 if tie_break == "fifo" else -1
    parent = {s: None}
    heap = [(0.0, 0, s)]
    n = 0
    while heap:
        _, _, c = heapq.heappop(heap)
        n += 1
        if c == g:
            cells = []
            while c is not None:
                cells.append(c)
                c = parent[c]
            return make_path(grid, cells[::-1], footprint=footprint, method="greedy",
                             expanded=n, time=time.perf_counter() - t0)
        for dr, dc in steps:
            r, k = c[0] + dr, c[1] + dc
            if not (0 <= r < rows and 0 <= k < cols) or not free[r, k] or (r, k) in parent:
                continue
            if dr and dc and not (free[c[0] + dr, c[1]] and free[c[0], c[1] + dc]):
                continue   # no corner cutting
            parent[(r, k)] = c
            h = weight * float(np.hypot(r - g[0], k - g[1]))
            heapq.heappush(heap, (h, sign * len(parent), (r, k)))
    raise NoPathError(f"greedy: no path from {s} to {g}")


SPEC = Spec(
    "planner", "greedy", "tests.plugins.greedy_planner:greedy",
    "Greedy best-first search: always expand the open cell nearest the goal.",
    options=(Option("tie_break", str, "fifo", "order of cells equally near the goal",
                    choices=("fifo", "lifo")),
             Option("weight", float, 1.0, "scale of the distance to the goal", low=0.0)),
)
PLANNERS.register(SPEC, replace=True)
