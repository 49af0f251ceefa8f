"""The clearance kernels' degenerate shapes and the wavefront's backtrace, against references.

``shapes_clearance`` measures a one-vertex shape as the degenerate segment
from the point to itself, and ``_seg_box`` finds a segment's end-to-box
distances in the loop over the box's corners: both checked here against
shapely (points, zero-length and ordinary segments, on grid lines and
vertices) and against ``points_clearance`` bit for bit. The wavefront's
``descend`` writes the caller's array: checked as a shortest route against
a breadth-first search of scipy's.
"""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import shortest_path
from shapely.geometry import LineString, Point, box

from robomaze.geometry._kernels import points_clearance, shapes_clearance
from robomaze.plan import _kernels as PK


def _obstacles(occ: np.ndarray, margin: float = 60.0):
    """Occupied squares in cell units (u east, v south) and everything outside the grid."""
    rows, cols = occ.shape
    parts = [box(c, r, c + 1, r + 1) for r, c in np.argwhere(occ)]
    outer = box(-margin, -margin, cols + margin, rows + margin).difference(box(0, 0, cols, rows))
    return shapely.union_all(parts + [outer])


@pytest.mark.parametrize("seed", range(4))
def test_points_and_degenerate_segments_match_shapely(seed):
    rng = np.random.default_rng(seed)
    rows, cols = (int(x) for x in rng.integers(3, 14, 2))
    occ = rng.random((rows, cols)) < 0.25
    obs = _obstacles(occ)
    n = 50
    u = rng.uniform(-1.5, cols + 1.5, n)
    v = rng.uniform(-1.5, rows + 1.5, n)
    u[:10] = np.round(u[:10])                   # on grid lines and vertices
    v[:6] = np.round(v[:6])
    for radius in (0.0, 0.35):
        one = np.empty(n)
        shapes_clearance(occ, np.ascontiguousarray(u[:, None]), np.ascontiguousarray(v[:, None]),
                         True, radius, one)
        # the zero-length segment (open and closed) is the point, bit for bit
        for closed in (False, True):
            two = np.empty(n)
            shapes_clearance(occ, np.column_stack([u, u]), np.column_stack([v, v]), closed,
                             radius, two)
            assert two.tobytes() == one.tobytes()
        pts = np.empty(n)
        points_clearance(occ, u, v, radius, pts)
        assert pts.tobytes() == one.tobytes()
        for k in range(n):
            ref = max(obs.distance(Point(u[k], v[k])) - radius, 0.0)
            assert one[k] == pytest.approx(ref, abs=1e-9)


@pytest.mark.parametrize("seed", range(3))
def test_segments_match_shapely(seed):
    rng = np.random.default_rng(10 + seed)
    occ = rng.random((12, 15)) < 0.2
    obs = _obstacles(occ)
    n = 60
    us = rng.uniform(-1.0, 16.0, (n, 2))
    vs = rng.uniform(-1.0, 13.0, (n, 2))
    us[:10] = np.round(us[:10])
    vs[:5, 1] = vs[:5, 0]                       # horizontal and vertical ones
    us[5:10, 1] = us[5:10, 0]
    got = np.empty(n)
    shapes_clearance(occ, us, vs, False, 0.0, got)
    for k in range(n):
        ref = obs.distance(LineString([(us[k, 0], vs[k, 0]), (us[k, 1], vs[k, 1])]))
        assert got[k] == pytest.approx(ref, abs=1e-9)


def _bfs_lengths(free: np.ndarray, goal: int, conn8: bool) -> np.ndarray:
    """Unit-step distances to ``goal`` by scipy's graph search (no corner cutting)."""
    rows, cols = free.shape
    moves = [(-1, 0), (0, 1), (1, 0), (0, -1)]
    if conn8:
        moves += [(-1, 1), (1, 1), (1, -1), (-1, -1)]
    a, b = [], []
    for r, c in np.argwhere(free):
        for dr, dc in moves:
            rr, cc = r + dr, c + dc
            if 0 <= rr < rows and 0 <= cc < cols and free[rr, cc]:
                if dr and dc and not (free[rr, c] and free[r, cc]):
                    continue
                a.append(r * cols + c)
                b.append(rr * cols + cc)
    g = csr_matrix((np.ones(len(a)), (a, b)), shape=(rows * cols,) * 2)
    return shortest_path(g, unweighted=True, indices=goal)


@pytest.mark.parametrize("conn8", [False, True])
def test_descend_is_a_shortest_route(conn8):
    rng = np.random.default_rng(4)
    rows, cols = 17, 21
    free = rng.random((rows, cols)) > 0.25
    cells = np.flatnonzero(free)
    goal = int(cells[0])
    ref = _bfs_lengths(free, goal, conn8)
    dist = np.where(np.isfinite(ref), ref, -1).astype(np.int32)
    f8 = np.ascontiguousarray(free, dtype=np.uint8).ravel()
    checked = 0
    for start in cells[1:]:
        if dist[start] < 0:
            continue
        out = np.full(int(dist[start]) + 1, -7, np.int64)
        PK.descend(f8, dist, rows, cols, int(start), conn8, out)
        assert out[0] == start and out[-1] == goal
        for p, q in zip(out[:-1], out[1:]):
            dr, dc = abs(p // cols - q // cols), abs(p % cols - q % cols)
            assert free.flat[q] and (dr, dc) in ({(0, 1), (1, 0)} | ({(1, 1)} if conn8 else set()))
            assert dist[q] == dist[p] - 1
            if dr and dc:                       # no corner cutting
                assert free[p // cols, q % cols] and free[q // cols, p % cols]
        checked += 1
    assert checked > 50
