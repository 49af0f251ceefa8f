"""Theta* and smoothing: shorter, never through walls (checked with shapely)."""

import math

import numpy as np
import pytest
import shapely
from shapely.geometry import LineString, box

from robomaze import OccupancyGrid
from robomaze.errors import NoPathError
from robomaze.geometry import Footprint
from robomaze.plan import astar, smooth, theta_star, wavefront


def obstacles(grid, margin=5.0):
    res = grid.resolution
    parts = [box(x - res / 2, y - res / 2, x + res / 2, y + res / 2)
             for x, y in grid.cells_to_world(np.argwhere(grid.occupied))]
    W, H = grid.width, grid.height
    parts.append(box(-margin, -margin, W + margin, H + margin).difference(box(0, 0, W, H)))
    return shapely.union_all(parts)


def polyline_clearance(grid, path):
    if len(path) == 1:
        return obstacles(grid).distance(shapely.Point(path.points[0]))
    return obstacles(grid).distance(LineString(path.points))


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("radius", [None, 0.3])
def test_theta_star_and_smooth_are_short_and_clear(seed, radius):
    rng = np.random.default_rng(seed)
    occ = rng.random((18, 20)) < 0.18
    g = OccupancyGrid(occ, resolution=0.5)
    fp = None if radius is None else Footprint.disc(radius)
    r = 0.0 if radius is None else radius
    free = np.argwhere(g.clearance() > r)
    s, goal = tuple(free[0]), tuple(free[-1])
    try:
        a8 = astar(g, s, goal, footprint=fp, connectivity=8)
    except NoPathError:
        with pytest.raises(NoPathError):
            theta_star(g, s, goal, footprint=fp)
        return
    th = theta_star(g, s, goal, footprint=fp)
    sm = smooth(wavefront(g, s, goal, footprint=fp), g, fp)
    straight = math.dist(g.cell_to_world(s), g.cell_to_world(goal))
    for p in (th, sm):
        assert tuple(p.cells[0]) == s and tuple(p.cells[-1]) == goal
        assert straight - 1e-9 <= p.length
        assert p.collision_free
        assert polyline_clearance(g, p) > r                    # shapely, not our C-space
    assert th.length <= a8.length + 1e-9
    assert sm.length <= wavefront(g, s, goal, footprint=fp).length + 1e-9
    assert sm.method == "wavefront+smooth"


def test_smooth_open_room_is_straight_line():
    g = OccupancyGrid(np.zeros((6, 6), bool))
    p = smooth(astar(g, (0, 0), (5, 3)), g)
    assert p.cells.tolist() == [[0, 0], [5, 3]]
    assert p.length == pytest.approx(math.hypot(5, 3))


def test_line_of_sight_refuses_grazing_a_corner():
    # a segment that would pass exactly through the corner of an obstacle square
    occ = np.zeros((3, 3), bool)
    occ[0, 1] = True
    g = OccupancyGrid(occ)
    p = theta_star(g, (1, 0), (0, 2))                          # must go around (1, 1)
    assert p.collision_free and polyline_clearance(g, p) > 0
    assert len(p) >= 3
