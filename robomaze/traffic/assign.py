"""Where robots start and go, and where moving obstacles walk: the assignment rules.

Places are *slots*: centres of free grid cells far enough from the walls
for the body (clearance above its circumscribed radius plus half a cell),
picked greedily so no two bodies overlap (centres at least
``2 * r + gap`` apart). ``swap`` fills slots outward from the maze's two
end cells (nearest along the maze first); ``random`` and ``one_goal`` draw
from the method stage's child generator.

>>> from robomaze import Maze, widen
>>> g = widen(Maze.empty(1, 4), corridor=6, wall=1, resolution=0.1)
>>> a, b = slots_near(g, g.start_goal()[0], 2, radius=0.15), slots_near(g, g.start_goal()[1], 2, radius=0.15)
>>> bool(np.hypot(*(a[0] - a[1])) >= 0.3), bool(a[:, 0].max() < b[:, 0].min())
(True, True)
"""

from __future__ import annotations

import numpy as np

from .._search import distance_field
from ..errors import ParameterError

__all__ = ["free_slots", "slots_near", "random_slots", "route_waypoints"]


def free_slots(grid, radius: float) -> np.ndarray:
    """Flat indices of the cells whose centre clears the walls by ``radius`` + half a cell."""
    clear = grid.clearance()
    return np.flatnonzero((clear > radius + 0.5 * grid.resolution).ravel())


def _pick(grid, order: np.ndarray, n: int, radius: float, taken: list, what: str,
          spacing: float | None = None) -> np.ndarray:
    pts = grid.cells_to_world(np.stack(np.unravel_index(order, grid.shape), axis=1))
    out = []
    gap = (2.0 * radius if spacing is None else spacing) + 0.25 * radius
    for p in pts:
        if all(np.hypot(*(p - q)) >= gap for q in taken + out):
            out.append(p)
            if len(out) == n:
                break
    if len(out) < n:
        raise ParameterError(f"{what}: room for only {len(out)} of {n} bodies of radius "
                             f"{radius:g} m in this maze")
    taken.extend(out)
    return np.array(out)


def slots_near(grid, cell, n: int, *, radius: float, taken: list | None = None) -> np.ndarray:
    """``n`` non-overlapping places nearest (along the maze) to grid ``cell``, ``(n, 2)`` metres."""
    ok = free_slots(grid, radius)
    free = np.zeros(grid.shape, bool)
    free.ravel()[ok] = True
    src = int(np.ravel_multi_index(tuple(cell), grid.shape))
    if not free.ravel()[src]:
        # the end cell itself is too close to a wall: start from the nearest slot
        rc = np.stack(np.unravel_index(ok, grid.shape), axis=1)
        if not len(rc):
            raise ParameterError(f"no place in this maze clears a body of radius {radius:g} m")
        src = int(ok[np.argmin(np.abs(rc - np.asarray(cell)).sum(axis=1))])
    d = distance_field(free, [src]).ravel()
    order = ok[np.argsort(d[ok], kind="stable")]
    order = order[np.isfinite(d[order])]
    return _pick(grid, order, n, radius, [] if taken is None else taken, "slots")


def random_slots(grid, n: int, *, radius: float, rng, taken: list | None = None,
                 spacing: float | None = None) -> np.ndarray:
    """``n`` non-overlapping random places, ``(n, 2)`` metres (one draw of a permutation).

    ``spacing``: the least distance to the places already ``taken`` (default
    twice ``radius``; bodies of another size pass the sum of the radii).
    """
    ok = free_slots(grid, radius)
    order = ok[rng.permutation(len(ok))]
    return _pick(grid, order, n, radius, [] if taken is None else taken, "random slots",
                 spacing)


def route_waypoints(grid, a, b, *, radius: float, every: int = 4) -> np.ndarray:
    """Waypoints (metres) along the shortest route between world points ``a`` and ``b``.

    The route runs through cells clearing ``radius``; every ``every``-th cell
    of it (and ``b``) is a waypoint, then back again to ``a``: a patrol.
    """
    ok = free_slots(grid, radius)
    free = np.zeros(grid.shape, bool)
    free.ravel()[ok] = True
    ca = np.ravel_multi_index(grid.world_to_cell(a), grid.shape)
    cb = np.ravel_multi_index(grid.world_to_cell(b), grid.shape)
    d = distance_field(free, [cb])
    rows, cols = grid.shape
    u = int(ca)
    cells = [u]
    if not np.isfinite(d.ravel()[u]):
        return np.array([a, b], float)
    while d.ravel()[u] > 0:
        r, c = divmod(u, cols)
        best, bu = d.ravel()[u], u
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                rr, cc = r + dr, c + dc
                if (dr or dc) and 0 <= rr < rows and 0 <= cc < cols and d[rr, cc] < best:
                    if dr and dc and not (free[r + dr, c] and free[r, c + dc]):
                        continue
                    best, bu = d[rr, cc], rr * cols + cc
        if bu == u:
            break
        u = bu
        cells.append(u)
    keep = cells[::every] + [cells[-1]]
    pts = grid.cells_to_world(np.stack(np.unravel_index(np.array(keep), grid.shape), axis=1))
    return np.concatenate([pts, pts[-2:0:-1]]) if len(pts) > 2 else pts
