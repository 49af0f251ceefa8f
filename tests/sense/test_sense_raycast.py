"""Exact ray casting checked against shapely intersections with the occupied squares."""

import math

import numpy as np
import pytest
import shapely
from shapely.geometry import LineString, Point, box
from shapely.ops import unary_union

from robomaze.grid import OccupancyGrid
from robomaze.sense import RangeSensor, cast_rays, ir, lidar


def obstacles(occ):
    """Closed occupied squares in (a, b) cell coordinates plus everything outside the grid."""
    rows, cols = occ.shape
    big = 10.0 * (rows + cols)
    parts = [box(c, r, c + 1, r + 1) for r, c in zip(*np.nonzero(occ))]
    parts += [box(-big, -big, 0, big), box(cols, -big, big, big),
              box(-big, -big, big, 0), box(-big, rows, big, big)]
    return unary_union(parts)


def reference(obst, origin, direction, max_range):
    d = np.asarray(direction, float)
    d = d / np.hypot(*d)
    o = np.asarray(origin, float)
    if obst.intersects(Point(o)):
        return 0.0
    line = LineString([o, o + d * max_range])
    inter = obst.intersection(line)
    if inter.is_empty:
        return max_range
    return float(shapely.distance(Point(o), inter))


def check(occ, origins, dirs, max_range=100.0, tol=1e-9):
    got = cast_rays(occ, origins, dirs, max_range=max_range)
    obst = obstacles(occ)
    want = np.array([reference(obst, o, d, max_range) for o, d in zip(origins, dirs)])
    np.testing.assert_allclose(got, want, atol=tol, rtol=0)
    return got


def test_random_rays_match_shapely():
    rng = np.random.default_rng(7)
    occ = rng.random((25, 30)) < 0.25
    free = np.argwhere(~occ)
    pick = free[rng.integers(len(free), size=300)]
    origins = np.stack([pick[:, 1] + rng.random(300), pick[:, 0] + rng.random(300)], 1)
    ang = rng.uniform(-np.pi, np.pi, 300)
    dirs = np.stack([np.cos(ang), np.sin(ang)], 1)
    check(occ, origins, dirs)


def test_axis_aligned_rays_from_centres_and_grid_lines():
    rng = np.random.default_rng(3)
    occ = rng.random((15, 15)) < 0.3
    origins, dirs = [], []
    for r, c in np.argwhere(~occ):
        for o in ((c + 0.5, r + 0.5), (c + 0.5, r), (c, r + 0.5), (c, r)):
            for d in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                origins.append(o)
                dirs.append(d)
    got = check(occ, np.array(origins, float), np.array(dirs, float))
    assert (got == 0).any() and (got > 1).any()


def test_diagonal_rays_through_vertices():
    rng = np.random.default_rng(5)
    occ = rng.random((20, 20)) < 0.2
    origins, dirs = [], []
    for r, c in np.argwhere(~occ):
        for d in ((1, 1), (1, -1), (-1, 1), (-1, -1), (2, 1), (-1, 2)):
            origins.append((c + 0.5, r + 0.5))
            dirs.append(d)
    check(occ, np.array(origins, float), np.array(dirs, float))


def test_corner_grazing_never_slips_between_diagonal_neighbours():
    occ = np.zeros((4, 4), bool)
    occ[1, 2] = occ[2, 1] = True          # touch only at the vertex (2, 2)
    got = cast_rays(occ, [[0.5, 0.5]], [[1, 1]])
    assert got[0] == pytest.approx(1.5 * math.sqrt(2))
    # A ray that only touches the corner of a single square stops at the corner.
    occ = np.zeros((4, 4), bool)
    occ[0, 2] = True
    got = cast_rays(occ, [[0.5, 2.5]], [[1, -1]])
    assert got[0] == pytest.approx(1.5 * math.sqrt(2))
    # Grazing computed from an angle (not exactly representable) agrees with shapely.
    check(occ, np.array([[0.5, 2.5]]), np.array([[math.cos(math.pi / 4), -math.sin(math.pi / 4)]]),
          tol=1e-7)


def test_ray_along_grid_line_touching_a_square_edge():
    occ = np.zeros((5, 10), bool)
    occ[1, 6] = True                       # square [6,7] x [1,2], its bottom edge on b = 2
    got = check(occ, np.array([[0.5, 2.0], [0.5, 2.5]]), np.array([[1, 0], [1, 0]]))
    assert got.tolist() == [5.5, 9.5]
    # Documented: direction components below 1e-12 count as 0, so a ray that
    # drifts off the line by rounding (e.g. from sin(pi)) still runs along it.
    assert cast_rays(occ, [[0.5, 2.0]], [[1, 1e-15]])[0] == 5.5
    assert cast_rays(occ, [[9.5, 2.0]], [[math.cos(math.pi), math.sin(math.pi)]])[0] == 2.5


def test_beam_starting_inside_an_occupied_cell_reads_zero_then_range_min():
    occ = np.zeros((5, 5), bool)
    occ[2, 2] = True
    assert cast_rays(occ, [[2.5, 2.5], [2.0, 2.5], [-1.0, 1.0]], [[1, 0], [-1, 0], [1, 0]]).tolist() \
        == [0.0, 0.0, 0.0]
    g = OccupancyGrid(occ)
    s = RangeSensor(8, 2 * math.pi, 0.1, 3.0)
    # World y of row 2 is 5 - 2.5 = 2.5.
    assert s.scan(g, (2.5, 2.5, 0.3)).ranges.tolist() == [0.1] * 8


def test_no_return_reads_plus_inf_and_close_reads_range_min():
    occ = np.zeros((40, 40), bool)
    g = OccupancyGrid(occ)
    s = RangeSensor(4, 2 * math.pi, 0.5, 3.0)
    # REP 117: nothing within range_max is +inf, not range_max.
    assert s.scan(g, (20.0, 20.0, 0.0)).ranges.tolist() == [math.inf] * 4
    assert s.exact(g, (20.0, 20.0, 0.0)).tolist() == [[3.0] * 4]
    # Close to the east border (0.2 m away): exact 0.2, reported as range_min.
    r = s.scan(g, (39.8, 20.0, 0.0)).ranges
    assert r[2] == 0.5 and r[0] == math.inf
    assert s.exact(g, (39.8, 20.0, 0.0))[0, 2] == pytest.approx(0.2)
    # A wall 2.9 m away is a return; the fast single-pose path agrees.
    r = s.scan(g, (37.1, 20.0, 0.0)).ranges
    assert r[2] == pytest.approx(2.9) and r[0] == math.inf
    assert s.readings(g, (37.1, 20.0, 0.0)).tolist() == r.tolist()


def test_laserscan_has_the_rep_fields():
    g = OccupancyGrid(np.zeros((10, 10), bool))
    scan = RangeSensor(4, 2 * math.pi, 0.0, 3.0).scan(g, (5.0, 5.0, 0.0), time=1.5)
    assert (scan.time_increment, scan.scan_time, scan.time) == (0.0, 0.0, 1.5)
    assert scan.intensities.shape == (0,)
    assert scan.angle_max == pytest.approx(scan.angle_min + 3 * scan.angle_increment)


@pytest.mark.parametrize("origin", [(0.0, 0.0, 0.0), (1.5, -2.0, 0.4)])
def test_sensor_in_world_frame_matches_shapely(origin):
    rng = np.random.default_rng(11)
    occ = rng.random((20, 25)) < 0.2
    res = 0.1
    g = OccupancyGrid(occ, resolution=res, origin=origin)
    ox, oy, yaw = origin
    cs, sn = math.cos(yaw), math.sin(yaw)
    rows = occ.shape[0]

    def world(lx, ly):
        return ox + cs * lx - sn * ly, oy + sn * lx + cs * ly

    squares = []
    for r, c in zip(*np.nonzero(occ)):
        x0, y0 = c * res, (rows - r - 1) * res
        squares.append(shapely.Polygon([world(x0, y0), world(x0 + res, y0),
                                        world(x0 + res, y0 + res), world(x0, y0 + res)]))
    inside = shapely.Polygon([world(0, 0), world(g.width, 0), world(g.width, g.height),
                              world(0, g.height)])
    obst = unary_union(squares + [inside.buffer(50, join_style="mitre").difference(inside)])
    sensor = RangeSensor(24, 2 * math.pi, 0.0, 1.5, mount=(0.05, 0.02, 0.3))
    free = np.argwhere(~occ)
    pick = free[rng.integers(len(free), size=20)]
    pts = g.cells_to_world(pick)
    poses = np.column_stack([pts, rng.uniform(-3, 3, len(pts))])
    got = sensor.scan_many(g, poses)
    for pose, row in zip(poses, got):
        x, y, th = pose
        mx, my, mth = sensor.mount
        sx, sy = x + math.cos(th) * mx - math.sin(th) * my, y + math.sin(th) * mx + math.cos(th) * my
        for ang, val in zip(sensor.angles, row):
            phi = th + mth + ang
            want = reference(obst, (sx, sy), (math.cos(phi), math.sin(phi)), 1.5)
            if want >= 1.5:
                assert val == math.inf          # no return within range_max
            else:
                assert val == pytest.approx(want, abs=1e-7)


def test_scan_is_shaped_like_ros_laserscan():
    s = lidar(n_beams=360)
    g = OccupancyGrid(np.zeros((10, 10), bool))
    scan = s.scan(g, (5.0, 5.0, 0.0))
    assert scan.angle_max == pytest.approx(scan.angle_min + 359 * scan.angle_increment)
    assert len(scan.ranges) == 360 and scan.angles[0] == -math.pi
    i = ir()
    assert i.angle_min == pytest.approx(-math.pi / 2) and i.angle_max == pytest.approx(math.pi / 2)


def test_scan_many_equals_scan():
    rng = np.random.default_rng(2)
    g = OccupancyGrid(rng.random((30, 30)) < 0.2, resolution=0.05)
    s = lidar(n_beams=36, range_max=2.0)
    poses = np.column_stack([rng.uniform(0, 1.5, (10, 2)), rng.uniform(-4, 4, 10)])
    batch = s.scan_many(g, poses)
    for p, row in zip(poses, batch):
        np.testing.assert_array_equal(s.scan(g, p).ranges, row)
