"""braid(), place() and the generate() front-end."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robomaze.generate import GENERATORS, braid, centre_cells, generate, place
from robomaze.maze import Maze


def test_braid_zero_is_identity():
    m = GENERATORS["backtracker"](12, 12, rng=1)
    assert braid(m, 0.0, rng=2) == m


@pytest.mark.parametrize("name", ["backtracker", "kruskal", "division", "wilson"])
def test_braid_one_leaves_no_dead_end(name):
    m = braid(GENERATORS[name](25, 30, rng=3), 1.0, rng=4)
    assert not m.dead_ends().any()
    assert m.is_connected() and m.n_loops() > 0


@settings(deadline=None, max_examples=40)
@given(rows=st.integers(2, 15), cols=st.integers(2, 15), seed=st.integers(0, 10**6),
       fraction=st.floats(0, 1))
def test_braid_removes_the_asked_share_and_only_opens_walls(rows, cols, seed, fraction):
    m = GENERATORS["backtracker"](rows, cols, rng=seed)
    before = int(m.dead_ends().sum())
    b = braid(m, fraction, rng=seed + 1)
    after = int(b.dead_ends().sum())
    target = round(fraction * before)
    # one last wall may remove two dead ends at once
    assert target <= before - after <= target + 1
    assert not (b.east & ~m.east).any() and not (b.south & ~m.south).any()
    opened = int((m.east & ~b.east).sum() + (m.south & ~b.south).sum())
    assert b.n_loops() == opened  # every opened wall in a tree closes one loop
    assert (b.start, b.goals, b.openings) == (m.start, m.goals, m.openings)


def test_braid_prefers_joining_two_dead_ends():
    # Kruskal mazes have many dead ends facing each other across a wall.
    # Pairing them removes two dead ends per opened wall: full braiding of
    # this 40x40 maze opens 332 walls for 498 dead ends (ratio 0.67); a
    # braid that ignored neighbouring dead ends would need close to one wall
    # per dead end.
    m = GENERATORS["kruskal"](40, 40, rng=5)
    b = braid(m, 1.0, rng=6)
    opened = int((m.east & ~b.east).sum() + (m.south & ~b.south).sum())
    assert opened < 0.75 * int(m.dead_ends().sum())


def test_braid_one_cell_wide_keeps_its_two_ends():
    m = braid(GENERATORS["kruskal"](1, 8, rng=1), 1.0, rng=1)
    assert int(m.dead_ends().sum()) == 2


def test_braid_bad_input():
    m = Maze.full(3, 3)
    with pytest.raises(ValueError, match="fraction"):
        braid(m, 1.5)
    with pytest.raises(ValueError, match="maze"):
        braid(np.zeros((3, 3)), 0.5)


def test_place_corners():
    m = place(GENERATORS["wilson"](4, 7, rng=1), "corners")
    assert m.start == (0, 0) and m.goals == ((3, 6),)
    assert set(m.openings) == {(0, 0, "W"), (3, 6, "E")}
    mat = m.to_matrix()
    assert mat[1, 0] == 0 and mat[7, 14] == 0  # entrance and exit in the frame


def test_place_sides_random_rows():
    base = GENERATORS["kruskal"](9, 5, rng=1)
    starts, goals = set(), set()
    for seed in range(30):
        m = place(base, "sides", rng=seed)
        (sr, sc), ((gr, gc),) = m.start, m.goals
        assert sc == 0 and gc == 4
        assert set(m.openings) == {(sr, 0, "W"), (gr, 4, "E")}
        starts.add(sr)
        goals.add(gr)
    assert len(starts) > 4 and len(goals) > 4


@pytest.mark.parametrize("shape,goals", [
    ((16, 16), {(7, 7), (7, 8), (8, 7), (8, 8)}),
    ((5, 5), {(2, 2)}),
    ((5, 6), {(2, 2), (2, 3)}),
    ((1, 1), {(0, 0)}),
])
def test_place_centre(shape, goals):
    m = place(Maze.full(*shape), "centre")
    assert m.start == (shape[0] - 1, 0)
    assert set(m.goals) == goals == set(centre_cells(*shape))
    assert m.openings == ()
    assert place(Maze.full(*shape), "center") == m


def test_place_bad_name():
    with pytest.raises(ValueError, match="placement.*'corners'"):
        place(Maze.full(2, 2), "middle")


def test_generate_front_end():
    m = generate("backtracker", 10, 12, rng=1)
    assert m.is_perfect() and m.start == (0, 0) and m.goals == ((9, 11),)
    assert m == generate("backtracker", 10, 12, rng=1)
    # generate's walls are the registered generator's walls for the same stream
    raw = GENERATORS["backtracker"](10, 12, rng=1)
    assert np.array_equal(m.east, raw.east) and np.array_equal(m.south, raw.south)
    b = generate("backtracker", 10, 12, rng=1, braid=1.0, placement="centre")
    assert not b.dead_ends().any() and b.start == (9, 0) and len(b.goals) == 4
    g = generate("growing_tree", 10, 12, rng=1, selection="random")
    assert g.is_perfect()


@pytest.mark.parametrize("name", sorted(GENERATORS))
@pytest.mark.parametrize("placement", ["corners", "sides", "centre"])
def test_generate_every_generator_is_solvable(name, placement):
    m = generate(name, 9, 8, rng=2, braid=0.3, placement=placement)
    assert m.is_connected() and m.solution_length() is not None


@settings(deadline=None, max_examples=30)
@given(rows=st.integers(1, 20), cols=st.integers(1, 20), seed=st.integers(0, 10**6),
       placement=st.sampled_from(["corners", "sides", "centre"]))
def test_placement_invariants(rows, cols, seed, placement):
    m = generate("kruskal", rows, cols, rng=seed, placement=placement)
    sr, sc = m.start
    if placement == "centre":
        assert m.start == (rows - 1, 0) and m.openings == ()
        # goals: the 1 or 2 middle rows x the 1 or 2 middle columns
        gr = {r for r, _ in m.goals}
        gc = {c for _, c in m.goals}
        assert len(m.goals) == len(gr) * len(gc)
        assert all(abs(2 * r + 1 - rows) <= 1 for r in gr)
        assert all(abs(2 * c + 1 - cols) <= 1 for c in gc)
    else:
        (gr, gc), = m.goals
        assert sc == 0 and gc == cols - 1
        assert set(m.openings) == {(sr, 0, "W"), (gr, cols - 1, "E")}
        if placement == "corners":
            assert (sr, gr) == (0, rows - 1)
        mat = m.to_matrix()  # the openings really are gaps in the frame
        assert mat[2 * sr + 1, 0] == 0 and mat[2 * gr + 1, -1] == 0
    assert m.solution_length() is not None
