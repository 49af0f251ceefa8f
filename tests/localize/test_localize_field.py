"""The likelihood field against shapely distances; the beam weights against a plain port."""

import math

import numpy as np
import pytest
from shapely.geometry import Point, box
from shapely.ops import unary_union

from robomaze import widen
from robomaze.generate import generate
from robomaze.errors import ParameterError
from robomaze.localize import _kernels
from robomaze.localize.field import likelihood_field
from robomaze.sense import lidar


@pytest.fixture(scope="module")
def grid():
    return widen(generate("kruskal", 3, 3, rng=2), corridor=4, wall=1, resolution=0.1)


def _walls(g):
    res = g.resolution
    rows = g.rows
    return unary_union([box(c * res, (rows - r - 1) * res, (c + 1) * res, (rows - r) * res)
                        for r, c in np.argwhere(g.occupied)])


def test_field_is_the_distance_to_the_walls_within_half_a_sample(grid):
    f = likelihood_field(grid.occupied, grid.frame, factor=4, max_dist=2.0)
    walls = _walls(grid)
    pts = np.random.default_rng(0).uniform(0, grid.cols * grid.resolution, (300, 2))
    want = np.array([walls.distance(Point(x, y)) for x, y in pts])
    got = f.at(pts)
    half_diag = f.sres * math.sqrt(2) / 2
    assert np.all(np.abs(got - want) <= half_diag + 1e-9)
    assert f.at([[-1.0, -1.0]])[0] == 2.0


def test_field_rejects_a_shape_that_is_not_the_frames(grid):
    with pytest.raises(ParameterError, match="frame's shape"):
        likelihood_field(grid.occupied[1:], grid.frame)


def _weight_port(pose, f, sensor, ranges, z_hit, z_rand, sigma):
    x, y, th = pose
    p = 1.0
    for a, r in zip(sensor.angles, ranges):
        if not (r < sensor.range_max) or r <= sensor.range_min:
            continue
        ex, ey = x + r * math.cos(th + a), y + r * math.sin(th + a)
        z = f.at([[ex, ey]])[0]
        pz = z_hit * math.exp(-z * z / (2 * sigma * sigma)) + z_rand / sensor.range_max
        p += pz ** 3
    return p


def test_weights_match_nav2s_formula(grid):
    s = lidar(n_beams=36)
    f = likelihood_field(grid.occupied, grid.frame)
    truth = (0.35, 0.35, 0.3)
    ranges = s.readings(grid, truth)
    # Off the truth by a little: beam ends of the true pose lie exactly on sample
    # borders, where the kernel's and the port's rounding may pick either side.
    parts = np.array([(0.3531, 0.3517, 0.3013), (0.4, 0.3, 0.2), (0.7, 0.7, 2.0)])
    w = np.empty(3)
    table, far = f.beam_table(z_hit=0.9, z_rand=0.1, sigma=0.05, range_max=s.range_max)
    _kernels.likelihood_weights(parts, table, *f.kernel_args[1:5], far, np.zeros(3),
                                np.cos(s.angles), np.sin(s.angles), ranges, s.range_min,
                                s.range_max, w)
    want = [_weight_port(p, f, s, ranges, 0.9, 0.1, 0.05) for p in parts]
    np.testing.assert_allclose(w, want, rtol=1e-12)
    assert w[0] > w[1] > w[2]   # the pose nearest the truth explains the scan best
