"""The walls of a grid as ORCA obstacles: RVO2's polygon lists from the occupied squares.

The union of the occupied squares (and the outside of the grid) is traced
into rings with shapely; each ring becomes one RVO2 obstacle, its vertices
ordered so the walls are on the left of every edge (RVO2's convention:
counter-clockwise around a wall island, clockwise around the free space it
bounds), collinear vertices dropped. :func:`obstacle_arrays` gives the
flat arrays :func:`robomaze.traffic._orca.orca_step` takes, with RVO2's
``next``/``previous``, unit ``direction`` and ``isConvex``.

>>> import numpy as np
>>> from robomaze.grid import OccupancyGrid
>>> g = OccupancyGrid(np.pad(np.zeros((3, 4), bool), 1, constant_values=True), resolution=0.5)
>>> rings = wall_rings(g)
>>> len(rings), rings[0].tolist()     # one ring: the free room, walls outside it
(1, [[0.5, 2.0], [2.5, 2.0], [2.5, 0.5], [0.5, 0.5]])
"""

from __future__ import annotations

import numpy as np
import shapely
from shapely.geometry import box

__all__ = ["wall_rings", "obstacle_arrays"]


def _clean(ring: np.ndarray) -> np.ndarray:
    """A closed ring without its repeated last point and without collinear vertices."""
    pts = ring[:-1]
    keep = []
    n = len(pts)
    for i in range(n):
        a, b, c = pts[i - 1], pts[i], pts[(i + 1) % n]
        cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
        if abs(cross) > 1e-12:
            keep.append(b)
    return np.array(keep, float)


def wall_rings(grid) -> list[np.ndarray]:
    """RVO2 obstacle vertex lists (world metres) of the grid's walls (the outside included)."""
    res, rows, cols, ox, oy, yaw = grid.frame.kernel_args
    occ = grid.occupied
    free = shapely.union_all([box(ox + c * res, oy + (rows - 1 - r) * res,
                                  ox + (c + 1) * res, oy + (rows - r) * res)
                              for r, c in zip(*np.nonzero(~occ))])
    free = shapely.normalize(free)
    polys = getattr(free, "geoms", [free])
    rings = []
    for p in polys:
        if p.is_empty:
            continue
        p = shapely.geometry.polygon.orient(p, sign=1.0)
        # free space inside: walls outside the exterior, so the exterior runs clockwise
        rings.append(_clean(np.asarray(p.exterior.coords))[::-1])
        for hole in p.interiors:
            # a wall island inside the free space: counter-clockwise around it
            rings.append(_clean(np.asarray(hole.coords))[::-1])
    return [np.ascontiguousarray(r) for r in rings if len(r) >= 2]


def obstacle_arrays(rings, dtype=np.float64) -> tuple[np.ndarray, ...]:
    """``(x, y, next, prev, dir_x, dir_y, convex, tree)`` of RVO2 obstacles given as vertex lists.

    As ``RVOSimulator::addObstacle``: a vertex is convex when the next one
    is left of (or on) the line from the previous one (always for 2-vertex
    obstacles); then as ``KdTree::buildObstacleTree`` (RVO2's
    ``processObstacles``), which splits the edges that cross a chosen
    edge's line, appending the split vertices: ``tree`` is ``(m, 3)``
    ``(edge, left, right)`` nodes, node 0 the root, ``-1`` no child.
    Every figure is computed in ``dtype`` with RVO2's order of operations,
    so ``np.float32`` gives RVO2's own obstacles bit for bit.

    >>> sq = [np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])]
    >>> x, y, nx, pv, dx, dy, cv, tree = obstacle_arrays(sq)
    >>> nx.tolist(), pv.tolist(), cv.tolist(), len(tree)
    ([1, 2, 3, 0], [3, 0, 1, 2], [True, True, True, True], 4)
    """
    F = np.dtype(dtype).type
    xs, ys, nx, pv, dx, dy, cv = [], [], [], [], [], [], []
    base = 0
    one = F(1.0)
    for ring in rings:
        ring = np.asarray(ring, dtype)
        n = len(ring)
        for i in range(n):
            a = ring[i]
            b = ring[(i + 1) % n]
            p = ring[i - 1]
            ex = b[0] - a[0]
            ey = b[1] - a[1]
            inv = one / np.sqrt(ex * ex + ey * ey)      # normalize(): v * (1 / |v|)
            xs.append(a[0])
            ys.append(a[1])
            nx.append(base + (i + 1) % n)
            pv.append(base + (i - 1) % n)
            dx.append(ex * inv)
            dy.append(ey * inv)
            cv.append(True if n == 2 else bool(_left_of(p, a, b) >= 0.0))
        base += n
    xs, ys, dx, dy = ([F(v) for v in col] for col in (xs, ys, dx, dy))
    tree: list[list[int]] = []
    _build_tree(list(range(len(xs))), xs, ys, nx, pv, dx, dy, cv, tree, F)
    return (np.array(xs, dtype), np.array(ys, dtype), np.array(nx, np.int64),
            np.array(pv, np.int64), np.array(dx, dtype), np.array(dy, dtype),
            np.array(cv, np.bool_), np.array(tree, np.int64).reshape(-1, 3))


def _left_of(a, b, c):
    """RVO2's ``leftOf(a, b, c) = det(a - c, b - a)`` (in the inputs' float type)."""
    return (a[0] - c[0]) * (b[1] - a[1]) - (a[1] - c[1]) * (b[0] - a[0])


_EPS = 0.00001


def _build_tree(obs, xs, ys, nx, pv, dx, dy, cv, tree, F) -> int:
    """``KdTree::buildObstacleTreeRecursive``; returns the node index (-1: none).

    The split edge is the one whose (max, min) of the two sides' counts is
    least, the first on ties (RVO2 breaks out of a count once it cannot win,
    which never changes the choice: the pair only grows).
    """
    if not obs:
        return -1
    eps = F(_EPS)
    m = len(obs)
    p1x = np.array([xs[o] for o in obs])
    p1y = np.array([ys[o] for o in obs])
    p2x = np.array([xs[nx[o]] for o in obs])
    p2y = np.array([ys[nx[o]] for o in obs])
    # leftOf(I1, I2, J) for every pair, elementwise in the working type
    ex = (p2x - p1x)[:, None]
    ey = (p2y - p1y)[:, None]
    l1 = (p1x[:, None] - p1x[None, :]) * ey - (p1y[:, None] - p1y[None, :]) * ex
    l2 = (p1x[:, None] - p2x[None, :]) * ey - (p1y[:, None] - p2y[None, :]) * ex
    left = (l1 >= -eps) & (l2 >= -eps)
    right = ~left & (l1 <= eps) & (l2 <= eps)
    both = ~left & ~right
    np.fill_diagonal(left, False)
    np.fill_diagonal(right, False)
    np.fill_diagonal(both, False)
    nl = left.sum(1) + both.sum(1)
    nr = right.sum(1) + both.sum(1)
    key = np.maximum(nl, nr) * (m + 1) + np.minimum(nl, nr)
    i = int(np.argmin(key))
    i1 = obs[i]
    node = len(tree)
    tree.append([i1, -1, -1])
    a = (xs[i1], ys[i1])
    b = (xs[nx[i1]], ys[nx[i1]])
    lo, ro = [], []
    for j, j1 in enumerate(obs):
        if j == i:
            continue
        j2 = nx[j1]
        pj1 = (xs[j1], ys[j1])
        pj2 = (xs[j2], ys[j2])
        a1 = _left_of(a, b, pj1)
        a2 = _left_of(a, b, pj2)
        if a1 >= -eps and a2 >= -eps:
            lo.append(j1)
        elif a1 <= eps and a2 <= eps:
            ro.append(j1)
        else:
            # split obstacle j: det(I2 - I1, J1 - I1) / det(I2 - I1, J1 - J2)
            vx, vy = b[0] - a[0], b[1] - a[1]
            t = ((vx * (pj1[1] - a[1]) - vy * (pj1[0] - a[0]))
                 / (vx * (pj1[1] - pj2[1]) - vy * (pj1[0] - pj2[0])))
            new = len(xs)
            xs.append(F(pj1[0] + t * (pj2[0] - pj1[0])))
            ys.append(F(pj1[1] + t * (pj2[1] - pj1[1])))
            dx.append(dx[j1])
            dy.append(dy[j1])
            cv.append(True)
            nx.append(j2)
            pv.append(j1)
            nx[j1] = new
            pv[j2] = new
            if a1 > 0.0:
                lo.append(j1)
                ro.append(new)
            else:
                ro.append(j1)
                lo.append(new)
    tree[node][1] = _build_tree(lo, xs, ys, nx, pv, dx, dy, cv, tree, F)
    tree[node][2] = _build_tree(ro, xs, ys, nx, pv, dx, dy, cv, tree, F)
    return node
