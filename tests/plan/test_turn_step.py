"""Turns in place of a wide footprint are checked finely enough: the corners
sweep at most TURN_SWEEP cells between checked poses, in planning (a path's
collision check) and in the metrics alike."""

import math

import numpy as np
import shapely
from shapely import affinity

from robomaze import metrics as M
from robomaze.geometry import Footprint
from robomaze.grid import OccupancyGrid
from robomaze.metrics.keyposes import TURN_SWEEP, motion_poses, turn_radius, turn_step
from robomaze.plan.path import make_path


def _reference_min(grid, footprint, x, y, h0, h1, n=20001):
    """The turn's clearance minimum by shapely, at 20,001 headings (independent
    of robomaze's geometry)."""
    occ = np.argwhere(grid.occupied)
    res = grid.resolution
    rows, cols = grid.shape
    boxes = [shapely.box(c * res, (rows - r - 1) * res, (c + 1) * res, (rows - r) * res)
             for r, c in occ]
    outside = shapely.box(-1, -1, cols * res + 1, rows * res + 1).difference(
        shapely.box(0, 0, cols * res, rows * res))
    walls = shapely.union_all(boxes + [outside])
    best = math.inf
    for h in np.linspace(h0, h1, n):
        g = affinity.translate(affinity.rotate(footprint.geometry, h, origin=(0, 0),
                                               use_radians=True), x, y)
        best = min(best, g.distance(walls))
    return best


def _grid():
    occ = np.zeros((12, 12), bool)
    occ[3, 7] = True          # a post the corners pass near while turning
    return OccupancyGrid(occ, resolution=0.1)


def test_turn_step_bounds_the_corner_sweep():
    assert math.degrees(turn_step(0.1)) == 5.0                    # discs and points
    for res, r in ((0.1, 0.206), (0.02, 0.29), (0.1, 2.0)):
        step = turn_step(res, r)
        assert step <= math.radians(5.0) + 1e-15
        assert r * step <= TURN_SWEEP * res * (1 + 1e-12)         # the corner's arc per step
    assert turn_radius(Footprint.disc(0.3)) is None
    assert turn_radius(Footprint.rectangle(0.36, 0.2)) == math.hypot(0.18, 0.1)


def test_a_rectangle_turn_reads_its_true_minimum_clearance():
    grid = _grid()
    fp = Footprint.rectangle(0.36, 0.2)
    x, y = 0.6, 0.6
    path = make_path(grid, [(6, 6), (6, 6)], footprint=fp, points=[[x, y], [x, y]],
                     headings=[0.0, math.pi / 2])
    got = M.min_clearance(path, grid, fp)
    ref = _reference_min(grid, fp, x, y, 0.0, math.pi / 2)
    r = fp.circumscribed_radius
    # sampled poses never read below the continuous minimum, and miss it by at
    # most half a step's corner sweep
    assert got >= ref - 1e-9
    assert got - ref <= r * turn_step(grid.resolution, r) / 2 + 1e-9
    # the old 5 degree step missed it by more (this is the case it fixes)
    coarse = motion_poses([[x, y], [x, y]], [0.0, math.pi / 2], grid.resolution)
    from robomaze.geometry import footprint_clearance

    assert footprint_clearance(grid, fp, coarse).min() - ref > got - ref


def test_discs_keep_their_samples():
    grid = _grid()
    a = motion_poses([[0.6, 0.6], [0.6, 0.6]], [0.0, math.pi / 2], 0.1)
    b = motion_poses([[0.6, 0.6], [0.6, 0.6]], [0.0, math.pi / 2], 0.1,
                     radius=turn_radius(Footprint.disc(0.2)))
    assert a.shape == b.shape == (19, 3)      # 2 keys and 17 poses 5 degrees apart
    assert np.array_equal(a, b)
    del grid
