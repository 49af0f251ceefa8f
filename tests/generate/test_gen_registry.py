"""Contract tests over every registered generator (shape, perfect, seeds,
no global randomness, tiny sizes)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import ndimage

from robomaze.generate import GENERATORS
from robomaze.maze import Maze

NAMES = sorted(GENERATORS)

EXPECTED = {"backtracker", "prim", "prim_frontier", "kruskal", "aldous_broder", "wilson",
            "hunt_and_kill", "growing_tree", "eller", "sidewinder", "binary_tree",
            "division", "mst", "wall_adder", "scheme_dfs"}


def assert_perfect_independently(maze: Maze) -> None:
    """Perfect = connected with exactly cells - 1 passages, checked on the
    (2r+1)x(2c+1) matrix with scipy.ndimage, not with Maze's own graph code."""
    m = maze.to_matrix()
    free = m == 0
    _, ncomp = ndimage.label(free)  # 4-connectivity by default
    assert ncomp == 1
    passages = int(free.sum()) - maze.rows * maze.cols
    assert passages == maze.rows * maze.cols - 1


def test_registry_has_every_contract_name():
    assert set(GENERATORS) == EXPECTED


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("shape", [(1, 1), (1, 9), (9, 1), (2, 2), (2, 7), (13, 21)])
def test_shape_and_perfect(name, shape):
    m = GENERATORS[name](*shape, rng=5)
    assert isinstance(m, Maze)
    assert m.shape == shape
    assert m.is_perfect()
    assert_perfect_independently(m)


@pytest.mark.parametrize("name", NAMES)
def test_same_seed_same_maze_different_seed_different(name):
    fn = GENERATORS[name]
    a = fn(15, 17, rng=42)
    b = fn(15, 17, rng=42)
    assert np.array_equal(a.east, b.east) and np.array_equal(a.south, b.south)
    c = fn(15, 17, rng=np.random.default_rng(42))
    assert a == c  # an int seed and a Generator from it are the same source
    others = [fn(15, 17, rng=s) for s in (43, 44, 45)]
    assert all(o != a for o in others)


@pytest.mark.parametrize("name", NAMES)
def test_shared_generator_advances(name):
    gen = np.random.default_rng(9)
    assert GENERATORS[name](12, 12, rng=gen) != GENERATORS[name](12, 12, rng=gen)


@pytest.mark.parametrize("name", NAMES)
def test_no_global_random_state(name):
    fn = GENERATORS[name]
    np.random.seed(0)
    random.seed(0)
    before_np = np.random.get_state()[1].copy()
    before_py = random.getstate()
    a = fn(11, 13, rng=3)
    assert np.array_equal(np.random.get_state()[1], before_np)
    assert random.getstate() == before_py
    np.random.seed(12345)
    random.seed(12345)
    assert fn(11, 13, rng=3) == a


@pytest.mark.parametrize("name", NAMES)
def test_rng_none_gives_a_valid_maze(name):
    m = GENERATORS[name](6, 5)
    assert m.shape == (6, 5) and m.is_perfect()


@pytest.mark.parametrize("name", NAMES)
@settings(deadline=None, max_examples=15)
@given(rows=st.integers(1, 14), cols=st.integers(1, 14), seed=st.integers(0, 2**32))
def test_perfect_for_any_size_and_seed(name, rows, cols, seed):
    m = GENERATORS[name](rows, cols, rng=seed)
    assert m.shape == (rows, cols)
    assert_perfect_independently(m)


def test_line_mazes_are_single_corridors():
    for name in NAMES:
        row = GENERATORS[name](1, 6, rng=1)
        col = GENERATORS[name](6, 1, rng=1)
        assert not row.east[0, :-1].any(), name
        assert not col.south[:-1, 0].any(), name


def test_sidewinder_and_binary_tree_biases():
    # Independent structural facts of these algorithms: the north row is one
    # corridor (both), and binary tree also opens the whole west column.
    for seed in range(5):
        s = GENERATORS["sidewinder"](8, 9, rng=seed)
        b = GENERATORS["binary_tree"](8, 9, rng=seed)
        assert not s.east[0, :-1].any()
        assert not b.east[0, :-1].any() and not b.south[:-1, 0].any()


@pytest.mark.parametrize("selection", ["newest", "random", "mixed"])
def test_growing_tree_selections_are_perfect(selection):
    m = GENERATORS["growing_tree"](20, 20, rng=1, selection=selection, mix=0.3)
    assert_perfect_independently(m)


def test_growing_tree_selection_changes_texture():
    # newest = depth-first (few dead ends), random = Prim-like (many); mixed
    # sits between. Fractions measured over 5 seeds at 60x60: newest ~0.10,
    # mixed(0.5) ~0.20, random ~0.27, sd ~0.004 per maze.
    def frac(**kw):
        return np.mean([GENERATORS["growing_tree"](60, 60, rng=s, **kw).dead_ends().mean()
                        for s in range(5)])
    newest, mixed, rand = frac(selection="newest"), frac(selection="mixed"), frac(selection="random")
    assert newest < 0.13 < mixed < 0.24 < rand
    # mix=1 is all-newest, mix=0 all-random: the same mazes as the pure modes
    assert frac(selection="mixed", mix=1.0) < 0.13
    assert frac(selection="mixed", mix=0.0) > 0.24
