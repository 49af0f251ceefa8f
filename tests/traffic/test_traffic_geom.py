"""Body geometry kernels against shapely and brute force; time to collision by hand."""

import math

import numpy as np
import pytest
import shapely
from shapely import affinity
from shapely.geometry import LineString, Point

from robomaze.geometry import Footprint
from robomaze.traffic import time_to_collision
from robomaze.traffic._geom import (CONTACT, body_distance, integrate, ray_body, scratch,
                                    time_of_contact)
from robomaze.traffic.world import Bodies

SHAPES = ["disc:0.3", "disc:0.15", "rect:0.6x0.3", "rect:0.5x0.2@0.1,0",
          "poly:0,0;0.4,0;0.4,0.4;0.2,0.1;0,0.4"]  # the last one is not convex


def _placed(fp, x, y, th):
    g = fp.geometry if fp.kind != "disc" else Point(0, 0).buffer(fp.radius, 256)
    return affinity.translate(affinity.rotate(g, th, origin=(0, 0), use_radians=True), x, y)


@pytest.mark.parametrize("a", SHAPES)
@pytest.mark.parametrize("b", SHAPES)
def test_body_distance_matches_shapely(a, b):
    fa, fb = Footprint.from_spec(a), Footprint.from_spec(b)
    bodies = Bodies.of([fa, fb])
    sa, sb, sc, sd = scratch(bodies.max_piece)
    rng = np.random.default_rng(hash((a, b)) % 2**32)
    for _ in range(40):
        x, y = rng.uniform(-1.2, 1.2, 2)
        ta, tb = rng.uniform(-math.pi, math.pi, 2)
        d = body_distance(0, 0.0, 0.0, ta, 1, x, y, tb, *bodies.args, sa, sb, sc, sd)
        ref = _placed(fa, 0, 0, ta).distance(_placed(fb, x, y, tb))
        # discs are polygons in shapely: 256 segments a quarter, so 1e-5 m
        assert d == pytest.approx(ref, abs=2e-5)


def _dist_at(bodies, pose, twist, frac, dt, t, scr):
    pa = integrate(*pose[0], *twist[0], min(t, frac[0]) * dt)
    pb = integrate(*pose[1], *twist[1], min(t, frac[1]) * dt)
    return body_distance(0, *pa, 1, *pb, *bodies.args, *scr)


@pytest.mark.parametrize("a,b", [("disc:0.3", "disc:0.3"), ("rect:0.6x0.3", "disc:0.2"),
                                 ("rect:0.6x0.3", "poly:0,0;0.4,0;0.4,0.4;0.2,0.1;0,0.4")])
def test_time_of_contact_is_the_first_touch_found_by_fine_sampling(a, b):
    bodies = Bodies.of([Footprint.from_spec(a), Footprint.from_spec(b)])
    scr = scratch(bodies.max_piece)
    rng = np.random.default_rng(7)
    hits = misses = 0
    for _ in range(80):
        pose = np.array([[0.0, 0.0, rng.uniform(-3, 3)],
                         [rng.uniform(1.0, 2.5), rng.uniform(-0.6, 0.6), rng.uniform(-3, 3)]])
        twist = np.array([[rng.uniform(0, 3), rng.uniform(-1, 1), rng.uniform(-4, 4)],
                          [rng.uniform(-3, 0), rng.uniform(-1, 1), rng.uniform(-4, 4)]])
        if _dist_at(bodies, pose, twist, np.ones(2), 1.0, 0.0, scr) <= 0:
            continue
        frac = np.ones(2)
        bound = np.array([math.hypot(*tw[:2]) + abs(tw[2]) * r
                          for tw, r in zip(twist, bodies.rc)])
        t = time_of_contact(0, 1, pose, twist, frac, 1.0, bound, *bodies.args, *scr)
        ts = np.linspace(0, 1, 4001)
        d = np.array([_dist_at(bodies, pose, twist, frac, 1.0, s, scr) for s in ts])
        if t <= 1.0:
            hits += 1
            assert _dist_at(bodies, pose, twist, frac, 1.0, t, scr) <= CONTACT
            # nothing touched earlier (sampling, 1/4000 of the step)
            assert np.all(d[ts < t - 1e-3] > 0.0)
        else:
            misses += 1
            assert d.min() > 0.0
    assert hits >= 3 and misses >= 3   # both branches exercised


@pytest.mark.parametrize("shape", SHAPES)
def test_ray_body_matches_shapely(shape):
    fp = Footprint.from_spec(shape)
    bodies = Bodies.of([fp])
    sa, sb, _, _ = scratch(bodies.max_piece)
    rng = np.random.default_rng(3)
    x, y, th = 0.3, -0.2, 0.7
    geom = _placed(fp, x, y, th)
    for _ in range(80):
        sx, sy = rng.uniform(-2, 2, 2)
        if geom.distance(Point(sx, sy)) < 1e-3:
            continue
        phi = rng.uniform(-math.pi, math.pi)
        dx, dy = math.cos(phi), math.sin(phi)
        t = ray_body(0, sx, sy, dx, dy, x, y, th, *bodies.args, sa, sb)
        hit = LineString([(sx, sy), (sx + 10 * dx, sy + 10 * dy)]).intersection(geom)
        if hit.is_empty:
            assert t == math.inf
        else:
            assert t == pytest.approx(Point(sx, sy).distance(hit), abs=2e-5)


def test_time_to_collision_hand_computed():
    # head-on: gap 5 - 0.6 = 4.4 m closing at 2 m/s
    assert time_to_collision((0, 0), (1, 0), (5, 0), (-1, 0), 0.6) == pytest.approx(2.2)
    # offset by 0.3 m: (5 - 2t)^2 + 0.3^2 = 0.6^2  ->  t = (5 - sqrt(0.27)) / 2
    assert time_to_collision((0, 0), (1, 0), (5, 0.3), (-1, 0), 0.6) == pytest.approx(
        (5 - math.sqrt(0.27)) / 2)
    # passing by farther than the radii: never
    assert time_to_collision((0, 0), (1, 0), (5, 0.7), (-1, 0), 0.6) == math.inf
    # moving apart, and touching already
    assert time_to_collision((0, 0), (-1, 0), (5, 0), (1, 0), 0.6) == math.inf
    assert time_to_collision((0, 0), (0, 0), (0.5, 0), (0, 0), 0.6) == 0.0
