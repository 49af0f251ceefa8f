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


# ---------------------------------------------------------------- Sage's conversions
# Ports of the Sage notebook's two conversions (1 = free in its matrices).
# The notebook itself is not in the repository; its example maze is written
# out below as a matrix in the notebook's convention and checked by hand.
def grafo_a_laberinto(vertices, edges, rows, cols):
    """Cells and passages free, then the entrance (north, west and the corner
    post of the first cell) and the exit (south, east and corner of the last)."""
    m = np.zeros((2 * rows + 1, 2 * cols + 1), np.uint8)
    for i, j in vertices:
        m[2 * i + 1, 2 * j + 1] = 1
    for (i, j), (k, l) in edges:
        m[i + k + 1, j + l + 1] = 1
    m[0, 0] = m[0, 1] = m[1, 0] = 1
    m[-1, -1] = m[-1, -2] = m[-2, -1] = 1
    return m


def laberinto_a_grafo(m):
    """Edges between cells whose in-between entry is free."""
    rows, cols = (m.shape[0] - 1) // 2, (m.shape[1] - 1) // 2
    edges = set()
    for i in range(rows):
        for j in range(cols):
            if j + 1 < cols and m[2 * i + 1, 2 * j + 2]:
                edges.add(((i, j), (i, j + 1)))
            if i + 1 < rows and m[2 * i + 2, 2 * j + 1]:
                edges.add(((i, j), (i + 1, j)))
    return edges


SAGE_EXAMPLE = np.array([  # 3x4 cells, 1 = free, openings at the two corners
    [1, 1, 0, 0, 0, 0, 0, 0, 0],
    [1, 1, 1, 1, 1, 1, 1, 1, 0],
    [0, 1, 0, 0, 0, 0, 0, 1, 0],
    [0, 1, 0, 1, 1, 1, 0, 1, 0],
    [0, 1, 0, 1, 0, 1, 0, 0, 0],
    [0, 1, 1, 1, 0, 1, 1, 1, 1],
    [0, 0, 0, 0, 0, 0, 0, 1, 1],
])


def test_sage_matrix_reads_with_free_1():
    m = Maze.from_matrix(SAGE_EXAMPLE, free=1)
    assert m.shape == (3, 4) and m.is_perfect()
    # by hand: row 0 runs east, (0,0) goes down the west column, (0,3) down to (1,3)
    assert m.neighbors((0, 0)) == [(0, 1), (1, 0)]
    assert m.neighbors((2, 1)) == [(1, 1), (2, 0)]
    assert m.neighbors((2, 3)) == [(2, 2)]
    assert set(m.openings) == {(0, 0, "N"), (0, 0, "W"), (2, 3, "S"), (2, 3, "E")}
    # the inverted matrix, read the usual way, is the same maze
    assert Maze.from_matrix(1 - SAGE_EXAMPLE) == m
    with pytest.raises(ParameterError, match=r"\(1, 1\) must be 1 \(free"):
        Maze.from_matrix(1 - SAGE_EXAMPLE, free=1)
    with pytest.raises(ParameterError, match="free must be 0 or 1"):
        Maze.from_matrix(SAGE_EXAMPLE, free=2)


def test_sage_graph_round_trip_reproduces_the_example_and_its_openings():
    edges = laberinto_a_grafo(SAGE_EXAMPLE)
    vertices = [(i, j) for i in range(3) for j in range(4)]
    # the port reproduces the example from its own graph
    assert np.array_equal(grafo_a_laberinto(vertices, edges, 3, 4), SAGE_EXAMPLE)
    m = Maze.from_graph(sorted(edges), openings="sage")
    assert m.start == (0, 0) and m.goals == ((2, 3),)
    assert np.array_equal(m.to_matrix(free=1, corner_posts=True), SAGE_EXAMPLE)
    assert m == Maze.from_matrix(SAGE_EXAMPLE, free=1)
    # same edges as the notebook's graph, both ways
    a, b = m.edges()
    assert {tuple(sorted((divmod(int(x), 4), divmod(int(y), 4)))) for x, y in zip(a, b)} == edges
    # without corner posts the frame corners stay walls; default openings none
    assert m.to_matrix(free=1)[0, 0] == 0 and m.to_matrix()[0, 0] == 1
    assert Maze.from_graph(sorted(edges)).openings == ()


def test_sage_openings_on_random_graphs_match_the_port():
    rng = np.random.default_rng(5)
    for _ in range(20):
        rows, cols = (int(v) for v in rng.integers(1, 7, size=2))
        full = Maze.empty(rows, cols)
        a, b = full.edges()
        keep = rng.random(a.size) < 0.6
        edges = [(divmod(int(x), cols), divmod(int(y), cols)) for x, y in zip(a[keep], b[keep])]
        vertices = [(i, j) for i in range(rows) for j in range(cols)]
        want = grafo_a_laberinto(vertices, edges, rows, cols)

        class SageLike:  # vertices() and edges() with labels, as a Sage Graph
            def vertices(self):
                return vertices

            def edges(self):
                return [(u, v, None) for u, v in edges]
        m = Maze.from_graph(SageLike(), openings="sage")
        assert m.shape == (rows, cols)
        assert np.array_equal(m.to_matrix(free=1, corner_posts=True), want)


@pytest.mark.parametrize("graph,kw,message", [
    ([((0, 0), (1, 1))], {}, "does not join 4-neighbouring"),
    ([((0, 0), (0, 1))], {"rows": 1, "cols": 1}, "outside the 1x1 maze"),
    ([("a", "b")], {}, "must join two"),
    ([], {}, "needs rows= and cols="),
    ([((0, 0), (0, 1))], {"openings": "paper"}, "openings must be one of"),
])
def test_from_graph_bad_input(graph, kw, message):
    with pytest.raises(ParameterError, match=message):
        Maze.from_graph(graph, **kw)
