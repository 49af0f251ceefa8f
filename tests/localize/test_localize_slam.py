"""Scan-matching SLAM: the matcher undoes a known pose error; the map agrees with the maze."""

import math

import numpy as np
import pytest

from robomaze import widen
from robomaze.errors import ParameterError
from robomaze.generate import generate
from robomaze.localize import ScanMatchingSLAM, map_iou
from robomaze.sense import lidar


@pytest.fixture(scope="module")
def grid():
    return widen(generate("kruskal", 3, 3, rng=4), corridor=5, wall=1, resolution=0.1)


@pytest.mark.parametrize("err", [(0.04, -0.03, 0.03), (-0.05, 0.0, -0.04), (0.0, 0.06, 0.0)])
def test_matcher_undoes_an_odometry_error(grid, err):
    s = lidar()
    start = (*grid.cell_to_world(grid.maze_centre((0, 0))), 0.0)
    slam = ScanMatchingSLAM(grid.frame, s, start)
    slam.update(start, s.readings(grid, start))
    # The robot stays put; the odometry claims it moved by err.
    bad = (start[0] + err[0], start[1] + err[1], start[2] + err[2])
    est = slam.update(bad, s.readings(grid, start))
    # within two search steps (1.25 cm each; the field is read at 2.5 cm samples)
    assert math.hypot(est[0] - start[0], est[1] - start[1]) <= 0.025
    # a one-scan map of 10 cm cells resolves the heading less well than the position:
    # the heading error grows by at most one search step (0.01 rad)
    assert abs(est[2] - start[2]) <= abs(err[2]) + 0.01 + 1e-9
    assert slam.matches == 1


def test_map_from_true_poses_agrees_with_the_maze(grid):
    s = lidar()
    slam = ScanMatchingSLAM(grid.frame, s, (*grid.cell_to_world(grid.maze_centre((0, 0))), 0.0))
    for r in range(3):
        for c in range(3):
            p = (*grid.cell_to_world(grid.maze_centre((r, c))), 0.0)
            slam.update(p, s.readings(grid, p))
    occ, free = map_iou(slam.occupied, slam.free, grid.occupied)
    assert occ > 0.8 and free > 0.8
    # every believed free cell is truly free, within the one-cell rounding of beam ends
    assert np.count_nonzero(slam.free & grid.occupied) <= 0.02 * np.count_nonzero(slam.free)


def test_bad_frame_and_option():
    with pytest.raises(ParameterError, match="frame"):
        ScanMatchingSLAM("not a frame", lidar(), (0, 0, 0))
    g = widen(generate("kruskal", 2, 2, rng=1), corridor=3, wall=1)
    with pytest.raises(ParameterError, match="lin_step"):
        ScanMatchingSLAM(g.frame, lidar(), (0, 0, 0), lin_step=0.0)
