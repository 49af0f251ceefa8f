"""Maze.replace shares unchanged frozen walls and still validates what changes."""

from __future__ import annotations

import numpy as np
import pytest

from robomaze.errors import ParameterError
from robomaze.maze import Maze


def test_replace_shares_walls_and_validates_places():
    m = Maze.full(3, 4)
    r = m.replace(start=(2, 1), goals=[(0, 3), (0, 3)], openings=[(0, 0, "w")])
    assert r.east is m.east and r.south is m.south          # no copy
    assert not r.east.flags.writeable
    assert r.start == (2, 1) and r.goals == ((0, 3),) and r.openings == ((0, 0, "W"),)
    assert m.start == (0, 0) and m.openings == ()           # the original is untouched
    with pytest.raises(ParameterError, match="outside the 3x4 maze"):
        m.replace(start=(3, 0))
    with pytest.raises(ParameterError, match="not on the outer boundary"):
        m.replace(openings=[(1, 1, "N")])


def test_new_walls_are_copied_and_bordered():
    m = Maze.full(2, 2)
    east = np.zeros((2, 2), np.uint8)
    r = m.replace(east=east)
    east[0, 0] = 1                                           # the caller's array is not shared
    assert r.east is not m.east and r.east.dtype == bool
    assert r.east.tolist() == [[False, True], [False, True]]
    assert not r.east.flags.writeable
