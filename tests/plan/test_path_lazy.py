"""Path figures measured on first read: the same values as the eager make_path, bit for bit.

``FIXTURE`` was recorded from the code before the figures became lazy
(commit ad8c9a2: every float as ``float.hex``, the points as their
count and two weighted sums); floats are compared within 1e-12 relative,
not bit for bit, since a rotated frame and a rectangle's rasterisation go
through sines and cosines whose last bits depend on the CPU. The other
tests recompute the figures independently (shapely distances,
hand-counted lengths).
"""

from __future__ import annotations

import copy
import dataclasses
import math
import pickle

import numpy as np
import pytest
from shapely.geometry import Point, box
from shapely.ops import unary_union

from robomaze import OccupancyGrid, widen
from robomaze.errors import ParameterError
from robomaze.generate import generate
from robomaze.geometry import Footprint
from robomaze.plan import astar, dijkstra, plan
from robomaze.plan import path as pathmod
from robomaze.plan.path import make_path, retimed

# name: (length, length_cells, turns, min clearance, mean clearance, collision_free,
#        cells, weighted sums of the points' x and y, walk_length)
FIXTURE = {
    'astar4': ('0x1.999999999999ap+2', '0x1.0000000000000p+4', 9, '0x1.999999999999ap-5', '0x1.8831f28af70e6p-4', True, 65, '0x1.ef68000000000p+11,0x1.4728000000000p+11', None),
    'astar8': ('0x1.741c13339688ap+2', '0x1.d12318007c2acp+3', 11, '0x1.999999999999ap-5', '0x1.08e84e327eae8p-4', True, 55, '0x1.5d8999999999ap+11,0x1.cad3333333334p+10', None),
    'dijkstra8': ('0x1.741c13339688ap+2', '0x1.d12318007c2acp+3', 12, '0x1.999999999999ap-5', '0x1.69b8d43f870f6p-4', True, 55, '0x1.5c66666666666p+11,0x1.cb80000000000p+10', None),
    'wavefront': ('0x1.999999999999ap+2', '0x1.0000000000000p+4', 9, '0x1.999999999999ap-5', '0x1.7a4974d3ba8e0p-4', True, 65, '0x1.eac199999999ap+11,0x1.4bce666666666p+11', None),
    'theta_star': ('0x1.6b1559ad2df54p+2', '0x1.c5dab01879729p+3', 8, '0x1.21a1851ff630bp-4', '0x1.6295b22e0ca1dp-4', True, 10, '0x1.7d66666666667p+6,0x1.1300000000000p+6', None),
    'max_clearance': ('0x1.ccccccccccccdp+2', '0x1.2000000000000p+4', 9, '0x1.3333333333334p-3', '0x1.33a7bf8df9d02p-3', True, 73, '0x1.3367333333334p+12,0x1.a6a8000000000p+11', None),
    'disc_astar8': ('0x1.ccccccccccccdp+2', '0x1.2000000000000p+4', 9, '0x1.999999999999cp-5', '0x1.9b6bcb04b40d6p-5', True, 73, '0x1.3367333333334p+12,0x1.a6a8000000000p+11', None),
    'rect_cf': ('0x1.ccccccccccccdp+2', '0x1.2000000000000p+4', 9, '0x1.9999999999967p-6', '0x1.5912efde5590dp-5', True, 73, '0x1.3367333333334p+12,0x1.a6a8000000000p+11', None),
    'wall_follower': ('0x1.b333333333332p+2', '0x1.0ffffffffffffp+4', 9, '0x1.999999999999ap-5', '0x1.11aae71c4ee12p-3', True, 69, '0x1.1448ccccccccdp+12,0x1.6b78000000000p+11', '0x1.f333333333332p+2'),
    'tremaux': ('0x1.b333333333332p+2', '0x1.0ffffffffffffp+4', 9, '0x1.999999999999ap-5', '0x1.11aae71c4ee12p-3', True, 69, '0x1.1448ccccccccdp+12,0x1.6b78000000000p+11', '0x1.2666666666666p+3'),
    'rotated_astar8': ('0x1.d12318007c2b1p+3', '0x1.d12318007c2b1p+5', 11, '0x1.0000000000000p-3', '0x1.4b2261bf1e5a3p-3', True, 55, '0x1.dd09914c48c38p+12,0x1.a527608270783p+11', None),
    'points_given': ('0x1.87fb54d6afd82p-2', '0x1.e9fa2a0c5bce2p-1', 2, '0x0.0p+0', '0x1.c98ea9e77dc4ep-5', False, 4, '0x1.9d70a3d70a3d6p+1,0x1.1000000000000p+3', None),
    'blocked': ('0x1.ee6e51ecc2fd9p-3', '0x1.3504f333f9de7p-1', 1, '0x0.0p+0', '0x1.1111111111111p-5', False, 3, '0x1.199999999999ap+0,0x1.c666666666667p+3', None),
}


def _grid():
    return widen(generate("backtracker", 6, 6, rng=3), corridor=3, wall=1, resolution=0.1)


def _cases():
    g = _grid()
    s, t = g.start_goal()
    yield "astar4", plan(g, s, t, method="astar")
    yield "astar8", plan(g, s, t, method="astar", connectivity=8)
    yield "dijkstra8", plan(g, s, t, method="dijkstra", connectivity=8)
    yield "wavefront", plan(g, s, t, method="wavefront")
    yield "theta_star", plan(g, s, t, method="theta_star")
    yield "max_clearance", plan(g, s, t, method="max_clearance")
    yield "disc_astar8", plan(g, s, t, method="astar", connectivity=8,
                              footprint=Footprint.disc(0.1))
    yield "rect_cf", plan(g, s, t, method="collision_free",
                          footprint=Footprint.rectangle(0.25, 0.15))
    yield "wall_follower", plan(g, s, t, method="wall_follower")
    yield "tremaux", plan(g, s, t, method="tremaux")
    rot = OccupancyGrid(g.occupied, resolution=0.25, origin=(1.5, -2.0, 0.3))
    yield "rotated_astar8", plan(rot, s, t, method="astar", connectivity=8)
    yield "points_given", make_path(g, [(1, 1), (1, 2), (2, 2), (2, 3)],
                                    points=[(0.15, 1.0), (0.27, 0.93), (0.3, 0.8), (0.41, 0.81)],
                                    footprint=Footprint.disc(0.02))
    yield "blocked", make_path(g, [(0, 0), (1, 1), (1, 2)])


def _points_sums(points) -> str:
    """Two weighted sums that change with any point's coordinates or order."""
    w = np.arange(1, len(points) + 1, dtype=float)
    return f"{float(w @ points[:, 0]).hex()},{float(w @ points[:, 1]).hex()}"


def _figures(p):
    return (p.length.hex(), p.length_cells.hex(), p.turns, p.min_clearance_key_poses.hex(),
            p.mean_clearance_key_poses.hex(), p.collision_free, len(p),
            _points_sums(p.points), None if p.walk_length is None else p.walk_length.hex())


def _close(got, want) -> bool:
    if isinstance(want, str) and "," in want:          # the points' sums
        return all(_close(g, w) for g, w in zip(got.split(","), want.split(",")))
    if isinstance(want, str):
        return math.isclose(float.fromhex(got), float.fromhex(want), rel_tol=1e-12,
                            abs_tol=1e-15)
    return got == want


def test_figures_equal_to_the_recorded_eager_ones():
    got = dict(_cases())
    assert set(got) == set(FIXTURE)
    for name, p in got.items():
        fig = _figures(p)
        assert all(_close(g, w) for g, w in zip(fig, FIXTURE[name])), (name, fig)


def test_figure_types_are_plain_python():
    for _, p in _cases():
        assert type(p.turns) is int and type(p.collision_free) is bool
        assert type(p.min_clearance_key_poses) is float
        assert type(p.mean_clearance_key_poses) is float


def _shapely_clearance(grid, cells):
    """Distance (cells) from each cell centre to the occupied squares and the outside."""
    rows, cols = grid.shape
    blocked = [box(c, r, c + 1, r + 1) for r, c in zip(*np.nonzero(grid.occupied))]
    outside = box(-1, -1, cols + 1, rows + 1).difference(box(0, 0, cols, rows))
    walls = unary_union(blocked + [outside])
    return np.array([walls.distance(Point(c + 0.5, r + 0.5)) for r, c in cells])


@pytest.mark.parametrize("method, conn", [("astar", 4), ("astar", 8), ("dijkstra", 8),
                                          ("wavefront", 4), ("max_clearance", 8)])
def test_point_figures_against_shapely_and_hand_counts(method, conn):
    g = _grid()
    s, t = g.start_goal()
    p = plan(g, s, t, method=method, connectivity=conn)
    d = _shapely_clearance(g, p.cells) * g.resolution
    assert p.min_clearance_key_poses == pytest.approx(d.min(), abs=1e-12)
    assert p.mean_clearance_key_poses == pytest.approx(d.mean(), abs=1e-12)
    step = np.abs(np.diff(p.cells, axis=0))
    straight = int((step.sum(axis=1) == 1).sum())
    diagonal = int(((step[:, 0] == 1) & (step[:, 1] == 1)).sum())
    assert straight + diagonal == len(p) - 1
    assert p.length == pytest.approx(g.resolution * (straight + math.sqrt(2) * diagonal),
                                     rel=1e-12)
    assert p.collision_free


def test_figures_wait_until_read(monkeypatch):
    calls = []
    real = pathmod.key_pose_figures   # what a Path asks robomaze.metrics for
    monkeypatch.setattr(pathmod, "key_pose_figures", lambda *a: calls.append(1) or real(*a))
    g = _grid()
    s, t = g.start_goal()
    p = astar(g, s, t, connectivity=8)
    q = plan(g, s, t, method="dijkstra")
    assert calls == []
    assert p.length > 0 and p.length_cells > 0 and len(q) > 0
    assert calls == []
    first = p.min_clearance_key_poses
    assert calls == [1]
    assert (p.turns, p.mean_clearance_key_poses, p.collision_free, p.min_clearance_key_poses) \
        == (p.turns, p.mean_clearance_key_poses, p.collision_free, first)
    assert calls == [1]                       # all four measured at once, then kept


def test_retimed_keeps_figures_unmeasured_and_equal(monkeypatch):
    g = _grid()
    s, t = g.start_goal()
    p = dijkstra(g, s, t)
    calls = []
    real = pathmod.key_pose_figures   # what a Path asks robomaze.metrics for
    monkeypatch.setattr(pathmod, "key_pose_figures", lambda *a: calls.append(1) or real(*a))
    q = retimed(p, time=1.5, compile_time=0.25)
    assert calls == [] and (q.time, q.compile_time) == (1.5, 0.25) and p.time != 1.5
    assert q.turns == p.turns and q.collision_free == p.collision_free
    assert q.min_clearance_key_poses == p.min_clearance_key_poses
    assert calls == [1]                        # shared: measured once for both


def test_pickle_copy_replace_and_repr_carry_the_same_values():
    for (_, p), (_, fresh) in zip(_cases(), _cases()):
        want = _figures(p)
        r = repr(p)
        assert _figures(pickle.loads(pickle.dumps(fresh))) == want      # pickled unmeasured
        state = fresh.__getstate__()
        assert not any(isinstance(v, pathmod._Figures) for v in state.values())
        assert _figures(copy.copy(p)) == want
        assert _figures(dataclasses.replace(p, method="x")) == want
        assert repr(pickle.loads(pickle.dumps(p))) == r


def test_frozen_and_constructible_with_plain_values():
    p = make_path(_grid(), [(1, 1), (1, 2)])
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.turns = 3
    q = pathmod.Path(cells=p.cells, points=p.points, length=1.0, length_cells=1.0, turns=2,
                     expanded=0, time=0.0, min_clearance_key_poses=0.5,
                     mean_clearance_key_poses=0.5, collision_free=True)
    assert (q.turns, q.min_clearance_key_poses, q.collision_free) == (2, 0.5, True)
    with pytest.raises(TypeError):
        pathmod.Path(cells=p.cells, points=p.points, length=1.0, length_cells=1.0,
                     expanded=0, time=0.0)


@pytest.mark.parametrize("cells", [[(0, 0), (-1, 0)], [(0, 0), (0, 27)], [(27, 0)],
                                   [(0, -3), (0, 0)]])
def test_cells_outside_the_grid_are_one_clear_error(cells):
    g = _grid()
    with pytest.raises(ParameterError, match="inside the 25x25 grid"):
        make_path(g, cells)


def test_caller_cells_are_copied_and_frozen():
    g = _grid()
    c = np.array([[1, 1], [1, 2], [1, 3]])
    p = make_path(g, c)
    c[0, 0] = 9
    assert p.cells[0].tolist() == [1, 1] and not p.cells.flags.writeable
    assert not p.points.flags.writeable


@pytest.mark.parametrize("fp", [Footprint.disc(0.12), Footprint.rectangle(0.2, 0.1)])
@pytest.mark.parametrize("conn", [4, 8])
def test_footprint_search_reads_a_cached_mask_equal_to_free_space(fp, conn):
    from robomaze import _search as core
    from robomaze.geometry import free_space

    g = _grid()
    s, t = g.start_goal()
    free = free_space(g, fp)                          # computed afresh, no cache
    for fn, hmode in ((astar, 1 if conn == 4 else 2), (dijkstra, 0)):
        p = fn(g, s, t, footprint=fp, connectivity=conn)
        if hmode == 2:
            ref, _ = core.jump_point_path(free, s[0] * g.cols + s[1], t[0] * g.cols + t[1])
        else:
            ref, _ = core.shortest_path(free, s[0] * g.cols + s[1], t[0] * g.cols + t[1],
                                        conn8=conn == 8, hmode=hmode)
        assert np.array_equal(p.cells[:, 0] * g.cols + p.cells[:, 1], ref)
    r = fp.radius if fp.kind == "disc" else fp.circumscribed_radius
    from robomaze.geometry import CONTACT_TOL
    m = g.padded_clearer(r + CONTACT_TOL)
    assert m is g.padded_clearer(r + CONTACT_TOL)     # the same object: no new pass
    assert np.array_equal(m.reshape(g.rows + 2, g.cols + 2)[1:-1, 1:-1].astype(bool), free)


def test_clearer_masks_cache_keeps_the_last_four():
    g = _grid()
    masks = [g.padded_clearer(0.01 * k) for k in range(6)]
    assert masks[5] is g.padded_clearer(0.05) and masks[2] is g.padded_clearer(0.02)
    assert masks[0] is not g.padded_clearer(0.0)      # evicted, rebuilt equal
    assert np.array_equal(masks[0], g.padded_clearer(0.0))


def test_footprint_blocked_endpoint_is_still_one_clear_error():
    from robomaze.errors import NoPathError

    g = _grid()
    s, t = g.start_goal()
    with pytest.raises(NoPathError, match="blocked for the footprint"):
        astar(g, (1, 1), t, footprint=Footprint.disc(0.12))
    with pytest.raises(NoPathError, match="fits nowhere"):
        dijkstra(g, s, t, footprint=Footprint.disc(5.0))


def test_a_bad_footprint_is_refused_at_construction():
    with pytest.raises(ParameterError, match="footprint must be a Footprint or None, got str"):
        make_path(_grid(), [(1, 1), (1, 2)], footprint="disc:0.1")
