"""Footprint-aware planning: collision_free and max_clearance, checked with shapely."""

import math

import numpy as np
import pytest
import scipy.sparse as sp
import shapely
from scipy.sparse import csgraph
from shapely.geometry import box

from robomaze import Maze, OccupancyGrid, widen
from robomaze.errors import NoPathError
from robomaze.geometry import Footprint, heading_bins
from robomaze.plan import astar, collision_free, max_clearance, plan

L_SHAPE = [(-0.3, -0.2), (0.55, -0.2), (0.55, 0.05), (0.0, 0.05), (0.0, 0.45), (-0.3, 0.45)]


def spanning_maze(rows, cols, seed):
    rng = np.random.default_rng(seed)
    idx = np.arange(rows * cols).reshape(rows, cols)
    a = np.concatenate([idx[:, :-1].ravel(), idx[:-1, :].ravel()])
    b = np.concatenate([idx[:, 1:].ravel(), idx[1:, :].ravel()])
    w = rng.random(a.size) + 0.01
    t = csgraph.minimum_spanning_tree(sp.csr_matrix((w, (a, b)), shape=(rows * cols,) * 2)).tocoo()
    return Maze.from_edges(rows, cols, t.row, t.col, goals=[(rows - 1, cols - 1)])


def obstacles(grid, margin=5.0):
    res = grid.resolution
    parts = [box(x - res / 2, y - res / 2, x + res / 2, y + res / 2)
             for x, y in grid.cells_to_world(np.argwhere(grid.occupied))]
    W, H = grid.width, grid.height
    parts.append(box(-margin, -margin, W + margin, H + margin).difference(box(0, 0, W, H)))
    u = shapely.union_all(parts)
    shapely.prepare(u)
    return u


def assert_shapely_collision_free(grid, path, fp):
    """Every key pose and interpolated motion is clear of the walls (shapely)."""
    obs = obstacles(grid)
    pts = path.points
    heads = path.headings
    if heads is None:
        d = np.diff(pts, axis=0)
        heads = np.append(np.arctan2(d[:, 1], d[:, 0]), 0.0) if len(pts) > 1 else np.zeros(1)
    for i, ((x, y), h) in enumerate(zip(pts, heads)):
        if fp.kind == "disc":
            assert obs.distance(shapely.Point(x, y)) > fp.radius, i
        else:
            assert not obs.intersects(fp.at(x, y, h)), i
    if fp.kind == "disc" and len(pts) > 1:
        for a, b in zip(pts[:-1], pts[1:]):
            assert obs.distance(shapely.LineString([a, b])) > fp.radius
    elif path.headings is not None:
        for i in range(len(pts) - 1):
            a, b = pts[i], pts[i + 1]
            for s in np.linspace(0, 1, 9)[1:-1]:                 # translations
                x, y = a + s * (b - a)
                assert not obs.intersects(fp.at(x, y, heads[i]))
            dh = math.remainder(heads[i + 1] - heads[i], 2 * math.pi)
            for s in np.linspace(0, 1, 9)[1:-1]:                 # turns on the spot
                assert not obs.intersects(fp.at(*b, heads[i] + s * dh))


@pytest.mark.parametrize("k", [1, 3, 5])
def test_disc_too_wide_for_corridor_has_no_path(k):
    res = 0.1
    g = widen(spanning_maze(4, 5, 1), corridor=k, wall=1, resolution=res)
    s, goal = g.start_goal()
    r = k * res / 2 + 0.01                                       # 2r > corridor width
    with pytest.raises(NoPathError) as e:
        collision_free(g, s, goal, footprint=Footprint.disc(r))
    # junction centres are wider than corridors, so the robot may fit at a few
    # isolated cells -- but never along a corridor
    assert e.value.reason in ("corridor narrower than robot", "start blocked for footprint",
                              "goal blocked for footprint")
    assert (g.clearance() > r).sum() <= g.maze.rows * g.maze.cols


def test_disc_narrow_passage_between_rooms():
    occ = np.zeros((9, 15), bool)
    occ[:, 7] = True
    occ[4, 7] = False                                            # one-cell door
    g = OccupancyGrid(occ, resolution=0.1)
    assert collision_free(g, (4, 2), (4, 12)).collision_free     # a point fits
    with pytest.raises(NoPathError) as e:
        collision_free(g, (4, 2), (4, 12), footprint=Footprint.disc(0.12))
    assert e.value.reason == "corridor narrower than robot"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_disc_fits_then_max_clearance_is_safer_and_grows(seed):
    res, r = 0.1, 0.1
    m = spanning_maze(5, 6, seed)
    mins = []
    for k in (3, 5, 7):
        g = widen(m, corridor=k, wall=1, resolution=res)
        s, goal = g.start_goal()
        fp = Footprint.disc(r)
        a = astar(g, s, goal, footprint=fp)
        c = collision_free(g, s, goal, footprint=fp)
        mc = max_clearance(g, s, goal, footprint=fp)
        for p in (a, c, mc):
            assert p.collision_free
            assert tuple(p.cells[0]) == s and tuple(p.cells[-1]) == goal
            assert_shapely_collision_free(g, p, fp)
        assert c.length == pytest.approx(a.length)
        assert mc.min_clearance_key_poses >= a.min_clearance_key_poses - 1e-12
        assert mc.mean_clearance_key_poses >= a.mean_clearance_key_poses - 1e-12
        mins.append(mc.min_clearance_key_poses)
    assert mins[0] < mins[1] < mins[2]
    # keeps to the corridor centre line: clearance k/2 cells minus the radius
    assert mins[2] == pytest.approx(3.5 * res - r)


def test_max_clearance_weight_zero_is_shortest():
    rng = np.random.default_rng(4)
    for _ in range(10):
        occ = rng.random((12, 12)) < 0.25
        free = np.argwhere(~occ)
        i, j = rng.choice(len(free), 2, replace=False)
        g = OccupancyGrid(occ)
        for conn in (4, 8):
            try:
                a = astar(g, tuple(free[i]), tuple(free[j]), connectivity=conn)
            except NoPathError:
                continue
            m = max_clearance(g, tuple(free[i]), tuple(free[j]), connectivity=conn, weight=0.0)
            assert m.length == pytest.approx(a.length)


@pytest.mark.parametrize("fp", [Footprint.rectangle(0.9, 0.35, ref=(0.3, 0.07)),
                                Footprint.polygon(L_SHAPE)], ids=["rect_offset", "l_shape"])
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_polygon_paths_are_collision_free_per_shapely(fp, seed):
    rng = np.random.default_rng(seed)
    occ = rng.random((14, 16)) < 0.08
    g = OccupancyGrid(occ, resolution=0.25)
    n = 8
    from robomaze.geometry import cspace
    freeb = ~cspace(g, fp, headings=n)
    ok = np.argwhere(freeb.any(axis=0))
    s, goal = tuple(ok[0]), tuple(ok[-1])
    try:
        p = collision_free(g, s, goal, footprint=fp, headings=n, connectivity=8)
    except NoPathError as e:
        assert e.reason in ("corridor narrower than robot", "goal unreachable")
        return
    assert p.collision_free
    assert tuple(p.cells[0]) == s and tuple(p.cells[-1]) == goal
    bins = np.rint(np.asarray(p.headings) / (2 * math.pi / n)).astype(int) % n
    assert np.allclose(heading_bins(n)[bins], p.headings)
    for i in range(len(p) - 1):                                  # translation xor rotation
        dcell = np.abs(p.cells[i + 1] - p.cells[i]).max()
        db = (bins[i + 1] - bins[i]) % n
        assert (dcell == 1 and db == 0) or (dcell == 0 and db in (1, n - 1))
    assert_shapely_collision_free(g, p, fp)


def test_long_robot_cannot_turn_the_corner():
    # an L corridor three cells wide: a short bar turns, a long one cannot
    g = widen(Maze.from_edges(2, 2, [0, 1, 3], [1, 3, 2]), corridor=3, wall=1)
    short = plan(g, (2, 4), (6, 4), method="collision_free", footprint=Footprint.rectangle(3.6, 0.4))
    assert short.collision_free and short.turns >= 1
    assert len(set(np.round(short.headings, 6))) > 1           # it had to rotate
    assert_shapely_collision_free(g, short, Footprint.rectangle(3.6, 0.4))
    with pytest.raises(NoPathError) as e:
        plan(g, (2, 4), (6, 4), method="collision_free", footprint=Footprint.rectangle(5.0, 0.4))
    assert e.value.reason == "corridor narrower than robot"


def test_heading_constraints():
    g = OccupancyGrid(np.zeros((9, 13), bool), resolution=0.25)
    fp = Footprint.rectangle(0.9, 0.3)
    p = collision_free(g, (4, 3), (4, 9), footprint=fp, start_heading=math.pi / 2,
                       goal_heading=math.pi, headings=8)
    assert p.headings[0] == pytest.approx(math.pi / 2)
    assert p.headings[-1] == pytest.approx(math.pi)
    assert p.collision_free
