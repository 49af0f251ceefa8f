"""RVO2's obstacle k-d tree (robomaze.traffic.walls.obstacle_arrays) against brute force."""

import numpy as np
import shapely

from robomaze.traffic._orca import _query_obstacles
from robomaze.traffic.walls import obstacle_arrays, wall_rings
from robomaze.world import WorldSpec


def _maze_obstacles(seed):
    grid = WorldSpec(generator="kruskal", rows=4, cols=4, braid=0.4, corridor=10, wall=1,
                     resolution=0.2, seed=seed).build().grid
    rings = wall_rings(grid)
    return grid, rings, obstacle_arrays(rings)


def test_split_edges_keep_the_walls_geometry():
    _, rings, (x, y, nx, pv, dx, dy, cv, tree) = _maze_obstacles(3)
    n0 = sum(len(r) for r in rings)
    assert len(x) > n0                   # the tree split some edges
    assert sorted(tree[:, 0].tolist()) == list(range(len(x)))   # every edge in one node
    # the edges, split or not, still trace the same rings: same total length
    seg = np.hypot(x[nx] - x, y[nx] - y)
    perim = sum(shapely.LinearRing(r).length for r in rings)
    assert abs(seg.sum() - perim) < 1e-9
    for e in range(len(x)):
        assert pv[nx[e]] == e
        # unit direction along the edge
        assert abs(dx[e] * (x[nx[e]] - x[e]) + dy[e] * (y[nx[e]] - y[e]) - seg[e]) < 1e-9


def test_tree_query_finds_exactly_the_edges_brute_force_finds():
    grid, _, (x, y, nx, pv, dx, dy, cv, tree) = _maze_obstacles(5)
    rng = np.random.default_rng(0)
    m = len(x)
    idx = np.empty(m + 1, np.int64)
    dist = np.empty(m + 1)
    st = np.empty(m + 1, np.int64)
    ph = np.empty(m + 1, np.int64)
    lo = np.array([x.min(), y.min()])
    hi = np.array([x.max(), y.max()])
    for _ in range(300):
        px, py = rng.uniform(lo, hi)
        reach = rng.uniform(0.3, 2.5)
        k = _query_obstacles(px, py, reach * reach, x, y, nx, tree, idx, dist, st, ph)
        got = idx[:k].tolist()
        want = []
        for e in range(m):
            ax, ay = x[nx[e]] - x[e], y[nx[e]] - y[e]
            left = (x[e] - px) * ay - (y[e] - py) * ax
            seg = shapely.LineString([(x[e], y[e]), (x[nx[e]], y[nx[e]])])
            if left < 0.0 and seg.distance(shapely.Point(px, py)) < reach:
                want.append(e)
        assert sorted(got) == sorted(want)
        assert np.all(np.diff(dist[:k]) >= 0.0)      # nearest first
