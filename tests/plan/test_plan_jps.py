"""Jump point search (robomaze._search._jps) against plain octile A*.

The reference is the engine's 8-connected A* (``shortest_path(...,
conn8=True, hmode=2)``) and, on the MovingAI maze, the scenario file's
stored optima. Two shortest paths may differ cell by cell; their lengths
``n_straight + sqrt(2) n_diagonal`` are equal exactly when the counts are
(sqrt(2) is irrational), so the counts are compared, not floats.
"""

from pathlib import Path as FsPath

import numpy as np
import pytest

from robomaze import OccupancyGrid, widen
from robomaze import _search as core
from robomaze.generate import generate
from robomaze.io.movingai import read_movingai, read_scen
from robomaze.plan import astar, plan

DATA = FsPath(__file__).resolve().parents[1] / "data" / "movingai"


def move_counts(cells, free):
    """(straight, diagonal) moves of a cell path, checking it is a legal 8-connected walk."""
    cols = free.shape[1]
    r, c = np.divmod(np.asarray(cells, np.int64), cols)
    dr, dc = np.abs(np.diff(r)), np.abs(np.diff(c))
    assert np.all(np.maximum(dr, dc) == 1), "a move longer than one cell"
    assert free[r, c].all(), "a blocked cell on the path"
    diag = (dr == 1) & (dc == 1)
    for i in np.flatnonzero(diag):  # no corner cutting
        assert free[r[i], c[i + 1]] and free[r[i + 1], c[i]]
    return int((~diag).sum()), int(diag.sum())


def check_pair(free, s, g):
    a, _ = core.shortest_path(free, s, g, conn8=True, hmode=2)
    b, _ = core.jump_point_path(free, s, g)
    if a.size == 0:
        assert b.size == 0
        return None
    assert b[0] == s and b[-1] == g
    assert move_counts(b, free) == move_counts(a, free)
    return move_counts(b, free)


def test_hand_computed_cases():
    free = np.ones((3, 5), bool)
    cells, _ = core.jump_point_path(free, 0, 14)  # (0,0) -> (2,4): 2 diagonals, 2 straight
    assert move_counts(cells, free) == (2, 2)
    # a wall with one gap: around it, no corner cut at the gap's ends
    free = np.array([[1, 1, 1, 1, 1],
                     [1, 0, 0, 0, 1],
                     [1, 1, 1, 1, 1]], bool)
    cells, _ = core.jump_point_path(free, 5, 9)  # (1,0) -> (1,4)
    # every diagonal past the wall would cut one of its corners: N, 4 x E, S
    assert move_counts(cells, free) == (6, 0)
    # the goal walled off
    free = np.array([[1, 0, 1]], bool)
    assert core.jump_point_path(free, 0, 2)[0].size == 0


@pytest.mark.parametrize("seed", range(4))
def test_random_grids_same_length_as_astar(seed):
    rng = np.random.default_rng(seed)
    checked = 0
    for _ in range(400):
        rows, cols = rng.integers(1, 45, 2)
        free = rng.random((rows, cols)) < rng.uniform(0.35, 1.0)
        idx = np.flatnonzero(free)
        if idx.size < 2:
            continue
        s, g = (int(v) for v in rng.choice(idx, 2))
        checked += check_pair(free, s, g) is not None
    assert checked > 150


@pytest.mark.parametrize("corridor", [1, 3, 5])
def test_widened_mazes_same_length_as_astar(corridor):
    rng = np.random.default_rng(corridor)
    for algo in ("kruskal", "backtracker"):
        grid = widen(generate(algo, 12, 15, rng=7), corridor=corridor, wall=1)
        free = grid.free
        idx = np.flatnonzero(free)
        for s, g in rng.choice(idx, (15, 2)):
            assert check_pair(free, int(s), int(g)) is not None  # perfect maze: connected


def test_movingai_scenarios_match_the_stored_optima():
    grid = read_movingai(DATA / "maze512-1-0.map")
    problems = read_scen(DATA / "maze512-1-0.map.scen")
    pick = problems[:: max(1, len(problems) // 60)]
    free = grid.free
    cols = grid.cols
    for p in pick:
        s = p.start[0] * cols + p.start[1]
        g = p.goal[0] * cols + p.goal[1]
        straight, diagonal = check_pair(free, s, g)
        assert abs(straight + np.sqrt(2) * diagonal - p.optimal) <= 1e-6 * max(1, p.optimal)


def test_astar_8_connected_uses_it_and_keeps_the_length():
    grid = widen(generate("kruskal", 10, 10, rng=3), corridor=4, wall=1)
    start, goal = grid.start_goal()
    path = astar(grid, start, goal, connectivity=8)
    cols = grid.cols
    ref, expanded = core.shortest_path(grid.free, start[0] * cols + start[1],
                                       goal[0] * cols + goal[1], conn8=True, hmode=2)
    flat = path.cells[:, 0] * cols + path.cells[:, 1]
    assert move_counts(flat, grid.free) == move_counts(ref, grid.free)
    assert path.expanded < expanded  # jump points, far fewer than A*'s cells
    via_plan = plan(grid, start, goal, method="astar", connectivity=8)
    assert via_plan.length == pytest.approx(path.length, rel=1e-12)


def test_a_footprint_search_keeps_the_length():
    from robomaze.geometry import Footprint, free_space

    occ = np.zeros((40, 50), bool)
    occ[10:30, 20] = True
    occ[5, 5:40] = True
    grid = OccupancyGrid(occ, resolution=0.1)
    fp = Footprint.disc(0.15)
    path = astar(grid, (35, 2), (2, 45), footprint=fp, connectivity=8)
    free = free_space(grid, fp)
    ref, _ = core.shortest_path(free, 35 * 50 + 2, 2 * 50 + 45, conn8=True, hmode=2)
    flat = path.cells[:, 0] * 50 + path.cells[:, 1]
    assert move_counts(flat, free) == move_counts(ref, free)
