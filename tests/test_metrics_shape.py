"""Shape and arc-clearance metrics on hand-made routes with known answers."""

import math

import numpy as np
import pytest

import robomaze.metrics as M
from robomaze import OccupancyGrid
from robomaze.errors import ParameterError
from robomaze.geometry import Footprint
from robomaze.sim import Trajectory


def arc(radius, a0, a1, centre=(0.0, 0.0), spacing=0.001):
    n = max(int(abs(a1 - a0) * radius / spacing), 2) + 1
    t = np.linspace(a0, a1, n)
    return np.column_stack([centre[0] + radius * np.cos(t), centre[1] + radius * np.sin(t)])


@pytest.mark.parametrize("radius", [0.25, 0.5, 2.0])
def test_circular_arc_has_curvature_one_over_radius(radius):
    k = M.curvatures(arc(radius, 0.0, math.pi))
    # chords 1 mm apart lie within (1 mm)^2 / (8 R) of the circle; the
    # 1 cm turning-angle estimate is 1/R to (0.01/R)^2/24
    assert np.median(k) == pytest.approx(1 / radius, rel=1e-3)
    assert M.curvature_mean(arc(radius, 0.0, math.pi)) == pytest.approx(1 / radius, rel=2e-3)
    assert M.curvature_max(arc(radius, 0.0, math.pi)) == pytest.approx(1 / radius, rel=5e-3)


def test_straight_line_has_zero_curvature_and_no_cusp():
    line = np.array([[0.0, 0.0], [0.3, 0.4], [0.6, 0.8]])
    assert M.curvature_max(line) == pytest.approx(0.0, abs=1e-9)
    assert M.cusps(line) == 0


def test_polyline_corner_reads_two_sin_half_angle_over_step():
    # a right angle: the sample on the corner sees neighbours ARC_STEP away on each leg
    k = M.curvatures(np.array([[0.0, 0.0], [0.5, 0.0], [0.5, 0.5]]))
    expected = (math.pi / 2) / M.ARC_STEP
    assert k.max() == pytest.approx(expected, rel=1e-9)
    assert np.count_nonzero(k > 1e-6) == 1


def test_square_angle_over_length_is_smoothness():
    # three quarter turns along four 1 m sides: 3 (pi/2) / 4 rad/m
    square = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.0, 0.0]])
    assert M.smoothness(square) == pytest.approx(3 * math.pi / 8)
    assert M.cusps(square) == 0


def reeds_shepp_like():
    """Forward left quarter turn (radius 1), then backward straight out of the cusp."""
    fwd = arc(1.0, -math.pi / 2, 0.0, centre=(0.0, 1.0))      # (0,0) -> (1,1), heading north at the end
    back = np.column_stack([np.full(50, 1.0), np.linspace(1.0, 0.0, 50)])[1:]   # reversing south
    return np.concatenate([fwd, back])


def test_reeds_shepp_like_path_has_one_cusp():
    p = reeds_shepp_like()
    assert M.cusps(p) == 1
    # the gear change turns by pi within about one arc step
    assert M.curvature_max(p) > 0.5 * math.pi / M.ARC_STEP
    assert M.curvature_max(p[:900]) == pytest.approx(1.0, rel=1e-2)   # the forward arc alone


def test_trajectory_reversal_counts_once_and_turn_in_place_does_not():
    # drive 0.2 m east, turn in place, reverse 0.1 m west: one cusp
    poses = np.array([[0, 0, 0], [0.1, 0, 0], [0.2, 0, 0], [0.2, 0, 1.0], [0.15, 0, 1.0], [0.1, 0, 1.0]])
    tr = Trajectory(np.arange(6.0), poses.astype(float), np.zeros((6, 2)), [False] * 6)
    assert M.cusps(tr) == 1


def test_resample_steps_are_the_arc_step_and_keep_both_ends():
    p = np.array([[0.0, 0.0], [0.137, 0.0], [0.137, 0.2]])
    r = M.resample(p)
    # the turn in place at the corner is kept (zero arc length, heading 0 -> pi/2)
    corner = np.all(np.isclose(r[:, :2], p[1]), axis=1)
    assert corner.sum() >= 2 and r[corner, 2].min() <= np.radians(5.0) + 1e-12
    assert r[corner, 2].max() == pytest.approx(np.pi / 2)
    # the arc samples: ARC_STEP of arc apart (a chord across the corner is shorter)
    r = r[~corner]
    d = np.hypot(*np.diff(r[:, :2], axis=0).T)
    s = np.r_[0.0, np.cumsum(np.abs(np.diff(r[:, 0])) + np.abs(np.diff(r[:, 1])))]
    assert np.allclose(np.diff(s)[:-1], M.ARC_STEP)
    assert d[-1] <= M.ARC_STEP + 1e-12
    assert np.allclose(r[0, :2], p[0]) and np.allclose(r[-1, :2], p[-1])
    with pytest.raises(ParameterError, match="step"):
        M.resample(p, step=0.0)


def test_arc_clearance_statistics_on_a_ramp():
    # a 1 m x 1 m free square (the outside is occupied): along y = 0.5 from
    # x = 0.2 to x = 0.5 the nearest wall is the west one, x metres away
    g = OccupancyGrid(np.zeros((10, 10), bool), resolution=0.1)
    route = np.array([[0.2, 0.5], [0.5, 0.5]])
    st = M.clearance_stats(M.arc_clearances(route, g, None))
    assert st["arc_clearance_min"] == pytest.approx(0.2)
    assert st["arc_clearance_max"] == pytest.approx(0.5)
    assert st["arc_clearance_mean"] == pytest.approx(0.35)
    assert st["arc_clearance_median"] == pytest.approx(0.35)
    disc = M.shape_metrics(route, g, Footprint.disc(0.05))
    assert disc["arc_clearance_min"] == pytest.approx(0.15)
    assert disc["arc_clearance_max"] == pytest.approx(0.45)
    assert disc["cusps"] == 0 and disc["curvature_max"] == pytest.approx(0.0, abs=1e-9)


def test_shape_metrics_are_in_path_and_trajectory_metrics():
    from robomaze import Maze, widen
    from robomaze.plan import plan
    from robomaze.sim import simulate

    g = widen(Maze.empty(2, 2), corridor=5, wall=1, resolution=0.1)
    fp = Footprint.disc(0.05)
    keys = {"curvature_max", "curvature_mean", "cusps", "arc_clearance_min",
            "arc_clearance_mean", "arc_clearance_median", "arc_clearance_max"}
    pm = M.path_metrics(plan(g, None, None, method="astar", footprint=fp), g, footprint=fp,
                        reference=False)
    assert keys <= pm.keys()
    # the arc minimum is never above the quarter-cell one by more than the
    # clearance's change over one arc step
    assert pm["arc_clearance_min"] <= pm["min_clearance"] + M.ARC_STEP
    res = simulate(g, footprint=fp, agent="follow_plan", max_steps=400)
    assert keys <= res.metrics.keys()
    assert res.metrics["arc_clearance_min"] >= 0.0


def test_cusps_agree_with_ompls_gear_changes_on_reeds_shepp_plans():
    # an independent count: OMPL's planner counts sign flips of the forward speed
    # along its headings; robomaze.metrics.cusps sees only the points
    pytest.importorskip("ompl")
    from robomaze import Maze, widen
    from robomaze.plan import plan

    g = widen(Maze.empty(2, 2), corridor=7, wall=1, resolution=0.1)
    counts = []
    # seeds 4 and 5 reverse with the start/goal headings of today's 8-connected route
    for seed in (1, 2, 3, 4, 5):
        p = plan(g, None, None, method="ompl:reeds_shepp", footprint=Footprint.rectangle(0.3, 0.16),
                 turning_radius=0.3, rng=seed, max_checks=40_000, time_limit=600.0)
        assert M.cusps(p) == p.stats["cusps"]
        counts.append(p.stats["cusps"])
    assert max(counts) >= 1      # some plans do reverse: the agreement is not 0 == 0
