"""Footprint construction, radii and rasterization against shapely."""

import math

import numpy as np
import pytest
import shapely
from shapely.geometry import Point, Polygon, box

from robomaze.errors import ParameterError
from robomaze.geometry import Footprint

L_SHAPE = [(-0.3, -0.2), (0.5, -0.2), (0.5, 0.05), (0.0, 0.05), (0.0, 0.45), (-0.3, 0.45)]


def test_rectangle_with_offset_reference_point():
    fp = Footprint.rectangle(0.6, 0.4, ref=(0.2, 0.05))
    # reference point 0.2 ahead and 0.05 left of the centre
    assert fp.geometry.bounds == pytest.approx((-0.5, -0.25, 0.1, 0.15))
    assert fp.inscribed_radius == pytest.approx(0.1)           # to the front edge
    assert fp.circumscribed_radius == pytest.approx(math.hypot(0.5, 0.25))


def test_polygon_radii_match_shapely():
    fp = Footprint.polygon(L_SHAPE)
    poly = Polygon(L_SHAPE)
    assert fp.kind == "polygon"
    assert fp.inscribed_radius == pytest.approx(poly.exterior.distance(Point(0, 0)))
    assert fp.circumscribed_radius == pytest.approx(max(math.hypot(x, y) for x, y in L_SHAPE))
    assert fp.geometry.equals(poly)


def test_reference_point_outside_polygon_has_zero_inscribed_radius():
    fp = Footprint.polygon([(1, 1), (2, 1), (2, 2)])
    assert fp.inscribed_radius == 0.0
    assert fp.circumscribed_radius == pytest.approx(math.hypot(2, 2))


@pytest.mark.parametrize("coords", [
    [(0, 0), (1, 1), (1, 0), (0, 1)],          # bow tie
    [(0, 0), (1, 0)],                          # too few vertices
    [(0, 0), (1, 0), (2, 0)],                  # no area
    [(0, 0), (1, float("nan")), (0, 1)],
    "not a polygon",
])
def test_invalid_polygon_raises(coords):
    with pytest.raises(ParameterError, match="polygon"):
        Footprint.polygon(coords)


@pytest.mark.parametrize("call", [lambda: Footprint.disc(0.0), lambda: Footprint.disc(-1),
                                  lambda: Footprint.rectangle(0, 1),
                                  lambda: Footprint.rectangle(1, 1, ref=(1,))])
def test_bad_dimensions_raise(call):
    with pytest.raises(ParameterError):
        call()


def _reference_kernel(geom, res, h):
    k = np.zeros((2 * h + 1, 2 * h + 1), bool)
    for dr in range(-h, h + 1):
        for dc in range(-h, h + 1):
            cx, cy = dc * res, -dr * res
            k[h + dr, h + dc] = geom.intersects(box(cx - res / 2, cy - res / 2,
                                                    cx + res / 2, cy + res / 2))
    return k


def _embed(k, h):
    out = np.zeros((2 * h + 1, 2 * h + 1), bool)
    m = k.shape[0] // 2
    out[h - m:h + m + 1, h - m:h + m + 1] = k
    return out


@pytest.mark.parametrize("theta", [0.0, 0.3, math.pi / 2, 2.5, -1.1])
@pytest.mark.parametrize("fp", [Footprint.rectangle(0.9, 0.35, ref=(0.2, 0.05)),
                                Footprint.polygon(L_SHAPE)])
def test_rasterize_matches_shapely_boxes(fp, theta):
    res = 0.2
    k = fp.rasterize(res, theta)
    assert k.shape[0] == k.shape[1] and k.shape[0] % 2 == 1
    h = 6
    placed = shapely.affinity.rotate(fp.geometry, theta, origin=(0, 0), use_radians=True)
    assert np.array_equal(_embed(k, h), _reference_kernel(placed, res, h))


def test_disc_rasterize_is_exact_circle():
    r, res = 0.77, 0.25
    k = Footprint.disc(r).rasterize(res, 0.0)
    h = k.shape[0] // 2
    for dr in range(-h, h + 1):
        for dc in range(-h, h + 1):
            sq = box((dc - 0.5) * res, (-dr - 0.5) * res, (dc + 0.5) * res, (-dr + 0.5) * res)
            assert k[h + dr, h + dc] == (sq.distance(Point(0, 0)) <= r)


def test_at_places_and_rotates():
    fp = Footprint.rectangle(1.0, 0.2, ref=(0.5, 0.0))   # reference point at the front
    g = fp.at(2.0, 3.0, math.pi / 2)                     # facing north
    assert g.bounds == pytest.approx((1.9, 2.0, 2.1, 3.0))
