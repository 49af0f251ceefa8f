"""The exact shortest length for a point or a disc (visibility graph) against
a hand-computed case, a brute-force graph without the tangent pruning, and
every grid planner's paths (none may be shorter)."""

import math

import numpy as np
import pytest
import shapely

import robomaze.metrics as M
from robomaze import widen
from robomaze.errors import NoPathError, ParameterError
from robomaze.generate import generate
from robomaze.geometry import Footprint
from robomaze.geometry import visibility as vis
from robomaze.geometry.visibility import QUAD_SEGS, free_region, visibility_length
from robomaze.plan import plan


def wall_grid():
    occ = np.zeros((20, 20), bool)
    occ[10:, 10] = True      # a wall from the south edge up to row 10
    return occ


def test_disc_around_a_wall_end_matches_the_tangent_arc_tangent_length():
    # from (5, 15) over the wall's rounded end to (16, 15): tangent, arc on the
    # circle about corner (10, 10), the flat top y = 9 from x = 10 to 11, arc, tangent
    d = math.hypot(5, 5)
    tangent = math.sqrt(d * d - 1)
    turn = math.pi / 4 + math.asin(1 / d)        # from the tangent's heading to east
    exact = 2 * (tangent + turn) + 1.0
    got = visibility_length(wall_grid(), 1.0, (5.0, 15.0), (16.0, 15.0))
    a = math.pi / (2 * QUAD_SEGS)
    chord_factor = math.sin(a / 2) / (a / 2)
    assert got <= exact + 1e-9                                 # a lower bound ...
    assert got >= exact - 2 * turn * (1 - chord_factor) - 1e-9  # ... within the stated tolerance
    # a point robot: straight to the wall's corners and on, exactly
    pt = visibility_length(wall_grid(), 0.0, (5.0, 15.0), (16.0, 15.0))
    assert pt == pytest.approx(math.hypot(5, 5) + 1 + math.hypot(5, 5), abs=1e-12)


def brute_force(occ, r, s, g):
    """Every vertex of the region, every pair, no pruning: Dijkstra in plain Python."""
    region = free_region(occ, r)
    comps = [c for c in getattr(region, "geoms", [region]) if c.buffer(1e-7).covers(shapely.Point(s))]
    if not comps:
        return math.nan
    comp = comps[0]
    grown = comp.buffer(1e-7)
    pts = [tuple(s), tuple(g)]
    for ring in [comp.exterior, *comp.interiors]:
        pts.extend(tuple(c) for c in list(ring.coords)[:-1])
    n = len(pts)
    dist = [math.inf] * n
    dist[0] = 0.0
    done = [False] * n
    for _ in range(n):
        i = min((k for k in range(n) if not done[k]), key=lambda k: dist[k])
        if dist[i] == math.inf or i == 1:
            break
        done[i] = True
        for j in range(n):
            if not done[j]:
                w = math.dist(pts[i], pts[j])
                if dist[i] + w < dist[j] and grown.covers(shapely.LineString([pts[i], pts[j]])):
                    dist[j] = dist[i] + w
    return dist[1]


@pytest.mark.parametrize("seed,corridor,radius", [(1, 2, 0.0), (2, 3, 0.6), (3, 3, 1.1)])
def test_tangent_pruning_loses_no_shortest_path(seed, corridor, radius):
    g = widen(generate("kruskal", 3, 3, rng=seed), corridor=corridor, wall=1)
    s, t = (np.array(c[::-1], float) + 0.5 for c in g.start_goal())
    fast = visibility_length(g.occupied, radius, s, t)
    assert fast == pytest.approx(brute_force(g.occupied, radius, s, t), rel=1e-12)


def test_no_path_and_outside_are_nan():
    occ = np.zeros((5, 5), bool)
    occ[:, 2] = True
    assert math.isnan(visibility_length(occ, 0.0, (0.5, 0.5), (4.5, 0.5)))   # wall across
    assert math.isnan(visibility_length(np.zeros((5, 5), bool), 3.0, (2.5, 2.5), (2.5, 2.5)))


PLANNERS = ["wavefront", "dijkstra", "astar", "collision_free", "max_clearance", "theta_star",
            "wall_follower", "pledge", "tremaux", "dfs_backtracking", "dead_end_filling",
            "random_mouse"]


@pytest.mark.parametrize("generator,corridor,radius", [
    ("backtracker", 3, 0.04), ("kruskal", 5, 0.04), ("wilson", 7, 0.04),
    ("backtracker", 5, 0.16), ("kruskal", 7, 0.16), ("wilson", 9, 0.16)])
def test_no_planner_beats_the_exact_reference(generator, corridor, radius):
    g = widen(generate(generator, 4, 4, rng=1), corridor=corridor, wall=1, resolution=0.1)
    fp = Footprint.disc(radius)
    start, goal = g.start_goal()
    ratios = []
    for method in PLANNERS:
        opts = {"rng": 0} if method == "random_mouse" else {}
        try:
            p = plan(g, start, goal, method=method, footprint=fp, **opts)
        except NoPathError:   # a planner that finds no path for this disc
            continue
        if not p.collision_free:
            continue
        ref = M.shortest_length(g, fp, p.points[0], p.points[-1])
        ratios.append(p.length / ref)
    assert ratios and min(ratios) >= 1 - 1e-6
    # theta_star on the rasterised free space is an upper bound of the exact length
    ts = M.shortest_length(g, Footprint.rectangle(2 * radius, 2 * radius), g.cell_to_world(start),
                           g.cell_to_world(goal))
    ex = M.shortest_length(g, fp, g.cell_to_world(start), g.cell_to_world(goal))
    assert ex <= ts + 1e-9


def test_pair_count_is_the_reflex_vertex_pairs_of_each_component():
    # a point robot around two separate occupied squares: 4 convex corners each,
    # one component, 8 vertices -> 28 pairs; split the grid by a full wall and
    # each side keeps its square: 6 + 6
    occ = np.zeros((9, 9), bool)
    occ[2, 2] = occ[6, 6] = True
    assert vis.pair_count(occ, 0.0) == 8 * 7 // 2
    occ[:, 4] = True
    assert vis.pair_count(occ, 0.0) == 6 + 6


def test_a_graph_above_max_pairs_is_refused_by_name(monkeypatch):
    occ = np.zeros((12, 12), bool)
    occ[3, 3] = occ[8, 8] = occ[3, 8] = True     # 12 corners: 66 pairs
    monkeypatch.setattr(vis, "MAX_PAIRS", 65)
    with pytest.raises(ParameterError, match=r"12x12 grid .* 12 reflex vertices, 66 vertex "
                                             r"pairs .* at most MAX_PAIRS = 65"):
        visibility_length(occ, 0.0, (0.5, 0.5), (11.5, 11.5))


def test_shortest_length_takes_theta_star_where_the_graph_is_too_large(monkeypatch):
    grid = widen(generate("kruskal", 4, 4, rng=3), corridor=3, wall=1, resolution=0.1)
    disc = Footprint.disc(0.08)
    start, goal = grid.start_goal()
    s, g = grid.cell_to_world(start), grid.cell_to_world(goal)
    assert M.reference_name(disc, grid) == "visibility"
    exact = M.shortest_length(grid, disc, s, g)
    radius = 0.08 / grid.resolution
    monkeypatch.setattr(vis, "MAX_PAIRS", vis.pair_count(grid.occupied, radius) - 1)
    assert M.reference_name(disc, grid) == "theta_star"
    assert M.reference_name(disc) == "visibility"      # without a grid: the footprint's rule
    fallback = M.shortest_length(grid, disc, s, g)
    want = plan(grid, s, g, method="theta_star", footprint=disc).length
    assert fallback == want
    assert exact <= fallback                            # the exact length is the lower bound
