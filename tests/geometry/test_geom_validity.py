"""geometry.validity is the one validity API: the simulator's Collider, OMPL's
ClearanceLookup, the metrics' footprint_clearance/footprint_touches and the
planners' free_space give one verdict per pose, checked against shapely."""

import numpy as np
import pytest
import shapely
from shapely import affinity

from robomaze import widen
from robomaze.geometry import CONTACT_TOL, Footprint, footprint_clearance, footprint_touches, free_space
from robomaze.generate import generate
from robomaze.geometry.validity import ClearanceLookup, Collider, collides


@pytest.fixture(scope="module")
def grid():
    return widen(generate("kruskal", 4, 4, rng=1), corridor=5, wall=1, resolution=0.1)


def _walls(grid):
    """Occupied squares and everything outside the grid, in world metres (shapely)."""
    res = grid.resolution
    rows, cols = grid.shape
    squares = [shapely.box(c * res, (rows - r - 1) * res, (c + 1) * res, (rows - r) * res)
               for r, c in zip(*np.nonzero(grid.occupied))]
    inside = shapely.box(0.0, 0.0, cols * res, rows * res)
    outside = shapely.box(-10, -10, cols * res + 10, rows * res + 10).difference(inside)
    return shapely.union_all(squares + [outside])


def _placed(fp, pose):
    x, y, th = pose
    body = fp.geometry if fp.kind != "disc" else shapely.Point(0, 0).buffer(fp.radius, 256)
    return affinity.translate(affinity.rotate(body, th, origin=(0, 0), use_radians=True), x, y)


FOOTPRINTS = [Footprint.disc(0.12), Footprint.rectangle(0.3, 0.15)]


@pytest.mark.parametrize("fp", FOOTPRINTS, ids=["disc", "rect"])
def test_every_api_gives_shapelys_verdict(grid, fp):
    rng = np.random.default_rng(0)
    rows, cols = grid.shape
    # near free cells, so both verdicts are common
    free = np.argwhere(~grid.occupied)
    at = grid.cells_to_world(free[rng.integers(len(free), size=300)])
    poses = np.column_stack([at + rng.uniform(-0.15, 0.15, (300, 2)),
                             rng.uniform(-np.pi, np.pi, 300)])
    # the frame _walls assumes (row 0 at the top), checked on the grid itself
    cx, cy = grid.cell_to_world((0, 0))
    assert abs(cy - (rows * 0.1 - 0.05)) < 1e-9 and abs(cx - 0.05) < 1e-9
    walls = _walls(grid)
    bodies = [_placed(fp, p) for p in poses]
    dist = np.array([b.distance(walls) for b in bodies])
    overlap = np.array([b.intersection(walls).area for b in bodies])
    # a 256-gon disc and float noise decide nothing within 1 mm of touching
    sure = (dist > 1e-3) | (overlap > 1e-5)
    want = overlap > 0
    assert 30 < want.sum() < 270 and sure.mean() > 0.9   # both verdicts, most of them clear-cut
    flags = Collider(grid, fp).check(poses)
    assert np.array_equal(flags[sure], want[sure])
    assert np.array_equal(collides(grid, fp, poses), flags)
    clear = footprint_clearance(grid, fp, poses)
    assert np.array_equal(clear <= CONTACT_TOL, flags)
    assert np.allclose(clear[sure & ~want], dist[sure & ~want], atol=2e-3)
    look = ClearanceLookup(grid, fp)
    got = np.array([look.valid(*p) for p in poses])
    assert np.array_equal(got, clear > look.margin)
    first = footprint_touches(grid, fp, poses)
    assert first == (int(np.flatnonzero(flags)[0]) if flags.any() else -1)


def test_free_space_is_the_pose_verdict_at_cell_centres(grid):
    fp = Footprint.disc(0.12)
    free = free_space(grid, fp)
    rows, cols = grid.shape
    r, c = np.mgrid[0:rows, 0:cols]
    centres = np.column_stack([grid.cells_to_world(np.column_stack([r.ravel(), c.ravel()])),
                               np.zeros(r.size)])
    flags = Collider(grid, fp).check(centres).reshape(rows, cols)
    assert np.array_equal(free, ~flags)
