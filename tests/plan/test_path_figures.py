"""Path length and turn count on hand-counted polylines (make_path's figures)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from robomaze import OccupancyGrid
from robomaze.plan.path import make_path

GRID = OccupancyGrid(np.zeros((8, 8), bool), resolution=0.5, origin=(1.0, -2.0, 0.3))

CASES = [
    # cells, moves in cells (straight / diagonal), hand-counted turns
    ([(0, 0)], 0, 0, 0),
    ([(0, 0), (0, 1), (0, 2), (0, 3)], 3, 0, 0),
    ([(0, 0), (0, 1), (1, 1), (2, 1)], 3, 0, 1),
    ([(0, 0), (1, 1), (2, 2), (2, 3), (3, 4)], 1, 3, 2),
    ([(2, 2), (2, 3), (2, 2)], 2, 0, 1),                  # reversal
    ([(0, 0), (0, 1), (0, 1), (0, 2)], 2, 0, 0),          # a repeated pose is no turn
    ([(0, 0), (0, 1), (0, 1), (1, 1)], 2, 0, 1),
    ([(3, 3), (2, 3), (2, 4), (1, 4), (1, 5)], 4, 0, 3),  # staircase
]


@pytest.mark.parametrize("cells, straight, diagonal, turns", CASES)
def test_length_and_turns_match_hand_counts(cells, straight, diagonal, turns):
    p = make_path(GRID, cells)
    assert p.turns == turns
    assert p.length == pytest.approx(0.5 * (straight + math.sqrt(2) * diagonal), abs=1e-12)


def test_turn_count_agrees_with_wrapped_heading_changes():
    # an independent count: wrapped differences of atan2 headings on a long random walk
    rng = np.random.default_rng(3)
    grid = OccupancyGrid(np.zeros((60, 60), bool), resolution=0.1)
    steps = np.array([(-1, 0), (0, 1), (1, 0), (0, -1), (-1, 1), (1, 1), (1, -1), (-1, -1)])
    cells = [(30, 30)]
    for k in rng.integers(0, 8, 400):
        r, c = cells[-1][0] + steps[k][0], cells[-1][1] + steps[k][1]
        if 0 <= r < 60 and 0 <= c < 60:
            cells.append((r, c))
    pts = grid.cells_to_world(np.array(cells))
    a = np.arctan2(*np.diff(pts, axis=0)[:, ::-1].T)
    wrapped = np.abs((np.diff(a) + np.pi) % (2 * np.pi) - np.pi)
    p = make_path(grid, cells)
    assert p.turns == int((wrapped > 1e-9).sum()) > 100
