import numpy as np
import pytest
from scipy.sparse import csgraph

from robomaze.errors import ParameterError
from robomaze.maze import Maze


def test_full_and_empty_matrix_shapes():
    m = Maze.full(3, 4)
    mat = m.to_matrix()
    assert mat.shape == (7, 9)
    assert mat.sum() == mat.size - 12  # only the 12 cell positions are free
    assert Maze.empty(3, 4).degrees().sum() == 2 * (3 * 3 + 2 * 4)


def test_matrix_roundtrip_with_openings():
    rng = np.random.default_rng(0)
    east = rng.random((5, 6)) < 0.5
    south = rng.random((5, 6)) < 0.5
    m = Maze(east, south, start=(0, 0), goals=[(4, 5)], openings=[(0, 0, "W"), (4, 5, "E")])
    back = Maze.from_matrix(m.to_matrix(), start=(0, 0), goals=[(4, 5)])
    assert back == m
    assert back.to_matrix()[1, 0] == 0 and back.to_matrix()[9, 12] == 0


def test_graph_matches_matrix_bfs():
    """Cell distances equal BFS distances on the 2r+1 matrix halved."""
    rng = np.random.default_rng(1)
    m = Maze(rng.random((6, 7)) < 0.4, rng.random((6, 7)) < 0.4)
    mat = m.to_matrix()
    free = np.argwhere(mat == 0)
    index = {tuple(p): i for i, p in enumerate(free)}
    rows, cols = [], []
    for (r, c), i in index.items():
        for dr, dc in ((0, 1), (1, 0)):
            j = index.get((r + dr, c + dc))
            if j is not None:
                rows.append(i)
                cols.append(j)
    import scipy.sparse as sp
    adj = sp.coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(free),) * 2)
    d = csgraph.shortest_path(adj, unweighted=True, directed=False, indices=index[(1, 1)])
    expect = d[[index[(2 * r + 1, 2 * c + 1)] for r in range(6) for c in range(7)]] / 2
    got = m.distances((0, 0)).ravel().astype(float)
    got[got < 0] = np.inf
    np.testing.assert_array_equal(got, expect)


def test_perfect_and_loops():
    line = Maze.from_edges(1, 4, [0, 1, 2], [1, 2, 3])
    assert line.is_perfect() and line.n_loops() == 0
    assert line.solution_length() == 3
    assert line.dead_ends().sum() == 2
    ring = Maze.empty(2, 2)
    assert not ring.is_perfect() and ring.n_loops() == 1
    split = Maze.from_edges(1, 4, [0, 2], [1, 3])
    assert not split.is_connected() and split.solution_length() is None
    assert split.solution() is None


def test_solution_route_is_connected():
    m = Maze.empty(4, 5)
    route = m.solution()
    assert route[0] == m.start and route[-1] in m.goals
    assert len(route) - 1 == m.solution_length() == 7
    for a, b in zip(route, route[1:]):
        assert b in m.neighbors(a)


@pytest.mark.parametrize("kw, word", [
    (dict(start=(5, 0)), "start"),
    (dict(goals=[(0, 9)]), "goal"),
    (dict(openings=[(1, 1, "N")]), "boundary"),
    (dict(openings=[(0, 0, "Q")]), "side"),
])
def test_bad_input_names_parameter(kw, word):
    with pytest.raises(ParameterError, match=word):
        Maze.full(3, 3, **kw)


@pytest.mark.parametrize("rows, cols", [(0, 3), (3, -1), (2.5, 3), (10**6, 10**6)])
def test_bad_shapes(rows, cols):
    with pytest.raises(ParameterError):
        Maze.full(rows, cols)


def test_immutable():
    m = Maze.full(2, 2)
    with pytest.raises(ValueError):
        m.east[0, 0] = False
