import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings, strategies as st
from scipy.sparse import csgraph

from robomaze.errors import ParameterError
from robomaze.grid import OccupancyGrid, centre_lines, clearance_field, widen
from robomaze.maze import Maze


def _random_maze(rows, cols, seed, p=0.3):
    rng = np.random.default_rng(seed)
    return Maze(rng.random((rows, cols)) < p, rng.random((rows, cols)) < p,
                start=(0, 0), goals=[(rows - 1, cols - 1)])


def _grid_bfs(occ, src):
    free = ~occ
    idx = -np.ones(occ.shape, np.int64)
    idx[free] = np.arange(free.sum())
    a, b = [], []
    for dr, dc in ((0, 1), (1, 0)):
        A = free[: occ.shape[0] - dr, : occ.shape[1] - dc] & free[dr:, dc:]
        a.append(idx[: occ.shape[0] - dr, : occ.shape[1] - dc][A])
        b.append(idx[dr:, dc:][A])
    import scipy.sparse as sp
    a, b = np.concatenate(a), np.concatenate(b)
    n = int(free.sum())
    adj = sp.coo_matrix((np.ones(a.size), (a, b)), shape=(n, n))
    d = csgraph.shortest_path(adj, unweighted=True, directed=False, indices=idx[src])
    out = np.full(occ.shape, np.inf)
    out[free] = d
    return out


@settings(max_examples=40, deadline=None)
@given(rows=st.integers(1, 6), cols=st.integers(1, 6), k=st.integers(1, 5),
       t=st.integers(1, 3), seed=st.integers(0, 10_000))
def test_widen_shape_and_distances(rows, cols, k, t, seed):
    m = _random_maze(rows, cols, seed)
    g = widen(m, corridor=k, wall=t)
    assert g.shape == (rows * (k + t) + t, cols * (k + t) + t)
    s, goal = g.start_goal()
    lines = centre_lines(g)
    assert not (lines & g.occupied).any()
    d_lines = _grid_bfs(~lines, s)
    d = _grid_bfs(g.occupied, s)
    sol = m.solution_length()
    if sol is None:
        assert np.isinf(d[goal]) and np.isinf(d_lines[goal])
    else:
        # exact along the centre lines; over all free cells U-turns can be cut
        assert d_lines[goal] == sol * (k + t)
        assert d[goal] <= sol * (k + t)
        if k == 1:
            assert d[goal] == sol * (k + t)
    # every block is free, every post is occupied
    for r in range(rows):
        for c in range(cols):
            assert not g.occupied[g.maze_block((r, c))].any()
            assert g.maze_cell(g.maze_centre((r, c))) == (r, c)
    assert g.occupied[::k + t, ::k + t].all()


def test_widen_perfect_maze_is_one_component():
    m = Maze.from_edges(2, 3, [0, 1, 0, 3, 4], [1, 2, 3, 4, 5])
    assert m.is_perfect()
    for k, t in [(1, 1), (3, 1), (4, 2)]:
        n, _ = widen(m, corridor=k, wall=t).free_components()
        assert n == 1


def test_widen_matrix_identity():
    m = _random_maze(7, 9, 3)
    assert np.array_equal(widen(m).occupied, m.to_matrix().astype(bool))


@pytest.mark.parametrize("kw", [dict(corridor=0), dict(wall=0), dict(corridor=1.5),
                                dict(corridor=10**5, wall=10**5)])
def test_widen_bad_input(kw):
    with pytest.raises(ParameterError):
        widen(Maze.full(3, 3), **kw)


def test_clearance_against_shapely():
    rng = np.random.default_rng(5)
    occ = rng.random((12, 15)) < 0.15
    g = OccupancyGrid(occ, resolution=0.5, origin=(1.0, -2.0, 0.0))
    boxes = []
    for r, c in np.argwhere(occ):
        x, y = g.cell_to_world((r, c))
        h = g.resolution / 2
        boxes.append(shapely.box(x - h, y - h, x + h, y + h))
    # outside the grid counts as occupied: a frame around it
    frame = shapely.box(1.0 - 5, -2.0 - 5, 1.0 + g.width + 5, -2.0 + g.height + 5).difference(
        shapely.box(1.0, -2.0, 1.0 + g.width, -2.0 + g.height))
    obstacles = shapely.union_all(boxes + [frame])
    cl = g.clearance()
    for r in range(occ.shape[0]):
        for c in range(occ.shape[1]):
            p = shapely.Point(g.cell_to_world((r, c)))
            expect = 0.0 if occ[r, c] else obstacles.distance(p)
            assert math.isclose(cl[r, c], expect, abs_tol=1e-9), (r, c)


def test_clearance_without_outside():
    assert np.isinf(clearance_field(np.zeros((2, 2), bool), outside_occupied=False)).all()


def test_world_cell_roundtrip_with_yaw():
    g = OccupancyGrid(np.zeros((4, 6), bool), resolution=0.25, origin=(2.0, 3.0, 0.7))
    cells = np.argwhere(np.ones((4, 6)))
    pts = g.cells_to_world(cells)
    assert np.array_equal(g.world_to_cells(pts), cells)
    assert g.world_to_cell(g.cell_to_world((3, 5))) == (3, 5)


def test_grid_bad_input():
    with pytest.raises(ParameterError, match="resolution"):
        OccupancyGrid(np.zeros((2, 2), bool), resolution=0)
    with pytest.raises(ParameterError, match="origin"):
        OccupancyGrid(np.zeros((2, 2), bool), origin=(1, 2, 3, 4))
    with pytest.raises(ParameterError, match="2-D"):
        OccupancyGrid(np.zeros(3, bool))


def test_free_space_cuts_u_turns_by_at_most_k_minus_one_each():
    """A hand-built U: right, down, left. Centre lines: 3(k+t); free space cuts 2(k//2)."""
    m = Maze.from_edges(2, 2, [0, 1, 2], [1, 3, 3], start=(0, 0), goals=[(1, 0)])
    for k, t in [(1, 1), (3, 1), (4, 2), (5, 1)]:
        g = widen(m, corridor=k, wall=t)
        s, goal = g.start_goal()
        assert _grid_bfs(~centre_lines(g), s)[goal] == 3 * (k + t)
        assert _grid_bfs(g.occupied, s)[goal] == 3 * (k + t) - 2 * (k // 2)


def test_padded_free_is_the_bordered_free_mask_cached_read_only():
    occ = np.random.default_rng(4).random((5, 7)) < 0.3
    g = OccupancyGrid(occ)
    p = g.padded_free()
    want = np.zeros((7, 9), np.uint8)
    want[1:-1, 1:-1] = ~occ
    assert p.dtype == np.uint8 and np.array_equal(p.reshape(7, 9), want)
    assert not p.flags.writeable and g.padded_free() is p
    # a changed grid is a new grid with its own cache
    occ2 = occ.copy()
    occ2[2, 3] = not occ2[2, 3]
    assert g.replace(occupied=occ2).padded_free().reshape(7, 9)[3, 4] == (not occ2[2, 3])


def test_clearance_field_of_a_grid_walled_outside_is_the_padded_grids():
    # outside_occupied pads a blocked border (written out, not np.pad):
    # the same as padding by hand and measuring without the outside
    occ = np.random.default_rng(3).random((7, 9)) < 0.3
    by_hand = clearance_field(np.pad(occ, 1, constant_values=True), outside_occupied=False)
    assert np.array_equal(clearance_field(occ), by_hand[1:-1, 1:-1])
