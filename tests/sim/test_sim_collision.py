"""Exact collision checks against shapely, for discs, rectangles and non-convex polygons."""

import math

import numpy as np
import pytest
import shapely
from shapely.geometry import Point
from shapely.ops import unary_union

from robomaze.geometry import Footprint
from robomaze.grid import OccupancyGrid
from robomaze.sim import Collider


def world_obstacles(grid):
    """Occupied squares plus everything outside the grid, as a shapely geometry (origin yaw 0)."""
    res = grid.resolution
    ox, oy, _ = grid.origin
    rows = grid.rows
    boxes = [shapely.box(ox + c * res, oy + (rows - r - 1) * res, ox + (c + 1) * res,
                         oy + (rows - r) * res) for r, c in zip(*np.nonzero(grid.occupied))]
    inside = shapely.box(ox, oy, ox + grid.width, oy + grid.height)
    return unary_union(boxes + [inside.buffer(10, join_style="mitre").difference(inside)])


def reference(fp, obst, pose):
    x, y, th = pose
    if fp.kind == "disc":
        return Point(x, y).distance(obst) <= fp.radius
    return fp.at(x, y, th).intersects(obst)


@pytest.mark.parametrize("fp", [
    Footprint.disc(0.23),
    Footprint.rectangle(0.6, 0.3, ref=(0.1, 0.0)),
    Footprint.polygon([(0.3, 0.0), (-0.2, 0.25), (-0.05, 0.0), (-0.2, -0.25)]),  # non-convex
], ids=["disc", "rectangle", "arrow"])
def test_collider_matches_shapely_at_random_poses(fp):
    rng = np.random.default_rng(4)
    occ = rng.random((30, 30)) < 0.08
    g = OccupancyGrid(occ, resolution=0.1, origin=(-1.0, 0.5, 0.0))
    obst = world_obstacles(g)
    col = Collider(g, fp)
    poses = np.column_stack([rng.uniform(-1.1, 2.1, 1500), rng.uniform(0.4, 3.6, 1500),
                             rng.uniform(-math.pi, math.pi, 1500)])
    got = col.check(poses)
    want = np.array([reference(fp, obst, p) for p in poses])
    np.testing.assert_array_equal(got, want)
    assert got.any() and not got.all()
    assert col.fast > 0 and col.exact > 0       # both paths exercised


def test_touching_counts_as_collision():
    occ = np.zeros((5, 5), bool)
    occ[2, 4] = True          # square x in [4, 5], y in [2, 3]
    g = OccupancyGrid(occ)
    c = Collider(g, Footprint.disc(0.5))
    assert c.collides(3.5, 2.5, 0.0)          # touches x = 4 exactly
    assert not c.collides(3.49, 2.5, 0.0)
    r = Collider(g, Footprint.rectangle(1.0, 1.0))
    assert r.collides(3.5, 2.5, 0.0) and not r.collides(3.49, 2.5, 0.0)
    assert r.collides(0.5, 2.5, 0.0)          # touches the grid border


def test_motion_check_prevents_tunnelling_through_a_thin_wall():
    occ = np.zeros((5, 9), bool)
    occ[:, 4] = True                          # wall x in [4, 5]
    g = OccupancyGrid(occ)
    c = Collider(g, Footprint.disc(0.2))
    assert not c.collides(2.5, 2.5, 0.0) and not c.collides(6.5, 2.5, 0.0)
    assert c.motion_collides((2.5, 2.5, 0.0), (6.5, 2.5, 0.0))
    assert not c.motion_collides((2.5, 2.5, 0.0), (3.5, 2.5, 0.0))
