"""Touching a wall counts as contact even when float round-off says otherwise."""

import numpy as np
import shapely

from robomaze.geometry import Footprint, cspace, free_space
from robomaze.grid import OccupancyGrid
from robomaze.plan import plan


def _corridor(res):
    occ = np.ones((7, 12), bool)
    occ[1:6, 1:11] = False          # a 5-cell-wide corridor
    return OccupancyGrid(occ, resolution=res)


def test_disc_exactly_touching_is_blocked_at_awkward_resolutions():
    for res, radius in [(0.1, 0.15), (0.1, 0.25), (0.3, 0.45), (0.05, 0.075)]:
        g = _corridor(res)
        fp = Footprint.disc(radius)
        blocked = cspace(g, fp)
        # second free row: centre at 1.5 cells from the wall face
        walls = shapely.union_all([shapely.box(*(np.array(g.cell_to_world((r, c)))[[0, 1, 0, 1]]
                                                 + np.array([-1, -1, 1, 1]) * res / 2))
                                   for r, c in np.argwhere(g.occupied)])
        for r in range(1, 6):
            x, y = g.cell_to_world((r, 5))
            gap = walls.distance(shapely.Point(x, y)) - radius
            touching = gap <= 1e-9
            assert blocked[r, 5] == touching, (res, radius, r, gap)
            assert free_space(g, fp)[r, 5] == (not touching)
        assert fp.rasterize(res).sum() == np.count_nonzero(
            [np.hypot(max(abs(i) - .5, 0) * res, max(abs(j) - .5, 0) * res) <= radius + 1e-9
             for i in range(-4, 5) for j in range(-4, 5)])


def test_planned_path_never_reports_a_touching_robot_as_clear():
    g = _corridor(0.1)
    p = plan(g, (3, 1 + 2), (3, 10 - 2), method="astar", footprint=Footprint.disc(0.15))
    assert p.collision_free and p.min_clearance_key_poses > 1e-6
