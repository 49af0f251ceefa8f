"""One motion model per route: turns in place measured, OMPL SE(2) paths with
their own interpolation, one minimum clearance, cusps read without phase, and
the lower bound that no collision-free path goes below."""

import math

import numpy as np
import pytest
from shapely.geometry import LineString, box
from shapely.ops import unary_union

import robomaze.metrics as M
from robomaze import Maze, OccupancyGrid, widen
from robomaze.geometry import Footprint
from robomaze.plan import plan
from robomaze.plan.path import make_path


def walls(grid):
    res = grid.resolution
    rr, cc = np.nonzero(grid.occupied)
    boxes = [box(c * res, (grid.rows - r - 1) * res, (c + 1) * res, (grid.rows - r) * res)
             for r, c in zip(rr, cc)]
    frame = box(-1, -1, grid.width + 1, grid.height + 1).difference(
        box(0, 0, grid.width, grid.height))
    return unary_union(boxes + [frame])


def test_turn_in_place_of_a_rectangle_is_measured():
    # a 0.6 m x 0.2 m bar in a 1.2 m x 1.4 m room turns from west to north at
    # its centre: half-way through the turn its corners reach sqrt(0.1) = 0.316 m
    # out in x, closer to the walls than at any key pose
    g = OccupancyGrid(np.zeros((14, 12), bool), resolution=0.1)
    bar = Footprint.rectangle(0.6, 0.2)
    route = np.array([[0.61, 0.7], [0.6, 0.7], [0.6, 0.71]])
    sweep = M.samples(route, g, bar)
    w = walls(g)
    keys = min(bar.at(x, y, th).distance(w) for (x, y), th in
               zip(route, (math.pi, math.pi, math.pi / 2)))
    # independent reference: the bar against shapely walls through the turn
    ref = min(bar.at(0.6, 0.7, th).distance(w) for th in np.linspace(math.pi / 2, math.pi, 361))
    assert ref == pytest.approx(0.6 - math.sqrt(0.1), abs=1e-4)
    assert ref < keys - 0.004
    got = M.min_clearance(route, g, bar)
    assert got == pytest.approx(ref, abs=1e-3)
    assert sweep.shape[0] > 10
    # a disc does not change when turning: no repeated poses for it
    disc = M.samples(route, g, Footprint.disc(0.1))
    assert len(disc) == len(np.unique(disc[:, :2], axis=0))


def test_min_clearance_and_arc_clearance_min_are_one_number_for_rectangles():
    g = widen(Maze.from_edges(2, 3, [0, 1, 2, 5, 4], [1, 2, 5, 4, 3]), corridor=7, wall=1,
              resolution=0.1)
    fp = Footprint.rectangle(0.4, 0.25)
    for method in ("astar", "theta_star", "collision_free", "max_clearance"):
        p = plan(g, None, None, method=method, footprint=fp)
        m = M.path_metrics(p, g, footprint=fp, reference=False)
        assert m["min_clearance"] == m["arc_clearance_min"], method
        # against shapely on the same motion, turns included
        q = M.resample(p, g, turn_step=0.01)
        w = walls(g)
        ref = min(fp.at(x, y, th).distance(w) for x, y, th in q[:: max(1, len(q) // 400)])
        assert m["min_clearance"] <= ref + 1e-3, method


def test_ompl_se2_path_is_measured_with_its_own_interpolation():
    # two states 0.2 m apart turning by 90 degrees: OMPL moves and turns together
    pts = np.array([[0.3, 0.5], [0.5, 0.5]])
    g = OccupancyGrid(np.zeros((10, 10), bool), resolution=0.1)
    p = make_path(g, np.array([[5, 3], [5, 5]]), method="ompl:rrtstar", points=pts,
                  headings=np.array([0.0, math.pi / 2]))
    s = M.samples(p, g, Footprint.rectangle(0.3, 0.1))
    mid = s[np.argmin(np.abs(s[:, 0] - 0.4))]
    assert mid[2] == pytest.approx(math.pi / 4, abs=0.2)   # halfway, half turned
    # a grid path of the same two points translates first, then turns
    q = make_path(g, np.array([[5, 3], [5, 5]]), method="astar", points=pts,
                  headings=np.array([0.0, math.pi / 2]))
    t = M.samples(q, g, Footprint.rectangle(0.3, 0.1))
    assert t[np.argmin(np.abs(t[:, 0] - 0.4)), 2] == pytest.approx(0.0)


@pytest.mark.parametrize("shift", [0.0, 0.0013, 0.0037, 0.005, 0.0071, 0.0099])
def test_curvature_at_a_cusp_does_not_depend_on_sampling_phase(shift):
    # forward 0.3 + shift, back 0.2: one reversal
    x = 0.3 + shift
    route = np.array([[0.0, 0.0], [x, 0.0], [x - 0.2, 0.0]])
    assert M.cusps(route) == 1
    assert M.curvature_max(route) == pytest.approx(math.pi / M.ARC_STEP, rel=1e-12)


def test_lower_bound_is_below_every_collision_free_rectangle_path():
    g = widen(Maze.from_edges(2, 3, [0, 1, 2, 5, 4], [1, 2, 5, 4, 3]), corridor=7, wall=1,
              resolution=0.1)
    fp = Footprint.rectangle(0.4, 0.25)
    p0 = plan(g, None, None, method="theta_star", footprint=fp)
    a, b = p0.points[0], p0.points[-1]
    lb = M.lower_bound_length(g, fp, a, b)
    best = M.shortest_length(g, fp, a, b)
    assert 0 < lb <= best
    # the disc of the inscribed radius alone: independent of the rectangle's planners
    assert lb == pytest.approx(M.shortest_length(g, Footprint.disc(fp.inscribed_radius), a, b))
    for method in ("astar", "theta_star", "collision_free", "max_clearance"):
        p = plan(g, None, None, method=method, footprint=fp)
        if p.collision_free:
            assert M.executed_length(p) / lb >= 1 - 1e-6, method
    m = M.lower_bound_metrics(g, fp, a, b, M.executed_length(p0))
    assert m["lower_bound_reference"] == "visibility_inscribed_disc"
    assert m["lower_bound_ratio"] == pytest.approx(M.executed_length(p0) / lb)


def test_lower_bound_of_a_disc_is_its_reference():
    g = widen(Maze.from_edges(1, 3, [0, 1], [1, 2]), corridor=5, wall=1, resolution=0.1)
    fp = Footprint.disc(0.1)
    a, b = g.cell_to_world((3, 3)), g.cell_to_world((3, 15))
    m = M.lower_bound_metrics(g, fp, a, b, 1.3, reference=1.2, reference_name_="visibility")
    assert m == {"lower_bound_m": 1.2, "lower_bound_ratio": pytest.approx(1.3 / 1.2),
                 "lower_bound_reference": "visibility"}
    assert M.lower_bound_length(g, fp, a, b) == pytest.approx(1.2, abs=1e-9)
