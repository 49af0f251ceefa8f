"""Footprint clearance against shapely distances."""

import math

import numpy as np
import pytest
import shapely
from shapely.geometry import LineString, Point, box

from robomaze import OccupancyGrid
from robomaze.errors import ParameterError
from robomaze.geometry import Footprint, footprint_clearance, segment_clearance

L_SHAPE = [(-0.3, -0.2), (0.55, -0.2), (0.55, 0.05), (0.0, 0.05), (0.0, 0.45), (-0.3, 0.45)]


def obstacles(grid, margin=50.0):
    res = grid.resolution
    parts = [box(*(np.array(grid.cell_to_world((r, c))) - res / 2),
                 *(np.array(grid.cell_to_world((r, c))) + res / 2))
             for r, c in np.argwhere(grid.occupied)]
    W, H = grid.width, grid.height
    ox, oy, _ = grid.origin
    outer = box(ox - margin, oy - margin, ox + W + margin, oy + H + margin).difference(
        box(ox, oy, ox + W, oy + H))
    return shapely.union_all(parts + [outer])


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("fp", [None, Footprint.disc(0.33), Footprint.rectangle(0.7, 0.3, ref=(0.2, 0)),
                                Footprint.polygon(L_SHAPE)])
def test_clearance_matches_shapely(seed, fp):
    rng = np.random.default_rng(seed)
    occ = rng.random((9, 11)) < 0.15
    g = OccupancyGrid(occ, resolution=0.4, origin=(1.0, -2.0, 0.0))
    obs = obstacles(g)
    n = 60
    poses = np.column_stack([1.0 + rng.random(n) * g.width, -2.0 + rng.random(n) * g.height,
                             rng.uniform(-math.pi, math.pi, n)])
    got = footprint_clearance(g, fp, poses)
    for (x, y, t), d in zip(poses, got):
        if fp is None:
            ref = obs.distance(Point(x, y))
        elif fp.kind == "disc":
            ref = max(obs.distance(Point(x, y)) - fp.radius, 0.0)
        else:
            ref = obs.distance(fp.at(x, y, t))
        assert d == pytest.approx(ref, abs=1e-9)


def test_segment_clearance_matches_shapely():
    rng = np.random.default_rng(3)
    g = OccupancyGrid(rng.random((10, 10)) < 0.1, resolution=0.5)
    obs = obstacles(g)
    a = rng.random((40, 2)) * 5
    b = rng.random((40, 2)) * 5
    got = segment_clearance(g, 0.2, a, b)
    for p, q, d in zip(a, b, got):
        assert d == pytest.approx(max(obs.distance(LineString([p, q])) - 0.2, 0.0), abs=1e-9)


def test_touching_is_zero_and_far_from_walls_is_positive():
    occ = np.zeros((5, 5), bool)
    occ[2, 4] = True
    g = OccupancyGrid(occ)
    fp = Footprint.rectangle(2.0, 0.5)            # front edge at x + 1
    assert footprint_clearance(g, fp, [(3.0, 2.5, 0.0)])[0] == 0.0      # touches square 4
    assert footprint_clearance(g, fp, [(2.9, 2.5, 0.0)])[0] == pytest.approx(0.1)


def test_bad_poses_raise():
    g = OccupancyGrid(np.zeros((3, 3), bool))
    with pytest.raises(ParameterError, match="poses"):
        footprint_clearance(g, None, [[1, 2, 3, 4]])
    with pytest.raises(ParameterError, match="finite"):
        footprint_clearance(g, None, [[1, np.nan]])


@pytest.mark.parametrize("seed", range(3))
def test_cell_centre_fast_path_matches_shapely(seed):
    from robomaze.geometry import cell_clearance
    rng = np.random.default_rng(seed)
    g = OccupancyGrid(rng.random((12, 13)) < 0.12, resolution=0.3)
    obs = obstacles(g)
    cells = np.argwhere(np.ones(g.shape, bool))
    for fp in (None, Footprint.disc(0.25)):
        got = cell_clearance(g, fp, cells)
        r = 0.0 if fp is None else fp.radius
        for (rr, cc), d in zip(cells, got):
            ref = max(obs.distance(Point(*g.cell_to_world((rr, cc)))) - r, 0.0)
            assert d == pytest.approx(ref, abs=1e-9)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("fp", [Footprint.rectangle(0.7, 0.3, ref=(0.2, 0)), Footprint.polygon(L_SHAPE),
                                Footprint.disc(0.33)])
def test_touches_is_shapely_intersection(seed, fp):
    from robomaze.geometry import footprint_touches
    rng = np.random.default_rng(seed)
    g = OccupancyGrid(rng.random((9, 11)) < 0.15, resolution=0.4, origin=(1.0, -2.0, 0.0))
    obs = obstacles(g)
    # poses on a lattice of quarter cells and 15-degree headings: many exact contacts
    res = g.resolution
    xy = np.array(g.cells_to_world(np.argwhere(np.ones(g.shape, bool))))
    poses = np.column_stack([xy + rng.integers(-2, 3, xy.shape) * res / 4,
                             rng.integers(0, 24, len(xy)) * math.pi / 12 + 0.3])
    hits = np.array([obs.intersects(fp.at(*p)) for p in poses])
    assert 0 < hits.sum() < len(hits)
    for i in range(len(poses)):
        assert footprint_touches(g, fp, poses[i:i + 1]) == (0 if hits[i] else -1), i
    first = int(np.flatnonzero(hits)[0])
    assert footprint_touches(g, fp, poses) == first
    assert footprint_touches(g, fp, poses[~hits]) == -1


@pytest.mark.parametrize("yaw", [0.0, 0.4, -2.0])
def test_touches_agrees_with_clearance_on_rotated_grids(yaw):
    from robomaze.geometry import CONTACT_TOL, footprint_touches
    rng = np.random.default_rng(7)
    g = OccupancyGrid(rng.random((10, 12)) < 0.12, resolution=0.25, origin=(0.5, 1.5, yaw))
    fp = Footprint.polygon(L_SHAPE)
    cells = np.argwhere(np.ones(g.shape, bool))
    xy = g.cells_to_world(cells) + rng.normal(0, 0.05, (len(cells), 2))
    poses = np.column_stack([xy, rng.uniform(-math.pi, math.pi, len(cells))])
    hit = footprint_clearance(g, fp, poses) <= CONTACT_TOL
    assert 0 < hit.sum() < len(hit)
    got = np.array([footprint_touches(g, fp, poses[i:i + 1]) == 0 for i in range(len(poses))])
    np.testing.assert_array_equal(got, hit)
