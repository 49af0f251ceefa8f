"""MCL's beam model in narrow corridors and its look-alikes (issue 34 item 6, third pass).

Hand-computed fields, likelihood comparisons between a true pose and the
pose the old model could not tell from it, and fixed-seed runs.
"""

import math

import numpy as np
import pytest

from robomaze import Maze, OccupancyGrid, widen
from robomaze.errors import ParameterError
from robomaze.localize import MCL
from robomaze.localize.field import likelihood_field
from robomaze.sense import lidar


@pytest.fixture(scope="module")
def cell():
    """One maze cell of 3 grid cells: walls x in [0, 0.1] and [0.4, 0.5] (and y alike)."""
    return widen(Maze.empty(1, 1), corridor=3, wall=1, resolution=0.1)


def test_depth_inside_a_wall_is_the_distance_to_its_surface(cell):
    # 2.5 cm samples; a point reads the centre of its sample. West wall x in [0, 0.1]:
    # centres 0.0875, 0.0625, 0.0125 lie 0.0125, 0.0375, 0.0875 below the surface at 0.1
    pts = [[0.09, 0.25], [0.07, 0.25], [0.01, 0.25], [0.24, 0.25]]
    deep = likelihood_field(cell.occupied, cell.frame, factor=4, inside="depth")
    flat = likelihood_field(cell.occupied, cell.frame, factor=4)
    assert deep.at(pts).tolist() == pytest.approx([0.0125, 0.0375, 0.0875, 0.1375])
    assert flat.at(pts).tolist() == pytest.approx([0.0, 0.0, 0.0, 0.1375])
    assert flat.inside is None and deep.inside[deep.values.shape[0] // 2, 0]
    # a table for readings that end in the wall on purpose counts the inside as on it
    t0, _ = deep.beam_table(z_hit=1.0, z_rand=0.0, sigma=0.05, range_max=3.5, inside_zero=True)
    t1, _ = deep.beam_table(z_hit=1.0, z_rand=0.0, sigma=0.05, range_max=3.5)
    r = deep.values.shape[0] // 2
    assert t0[r, 0] == pytest.approx(1.0) and t1[r, 0] == pytest.approx(
        math.exp(-0.0875 ** 2 / (2 * 0.05 ** 2)) ** 3)


def test_bad_inside_names_the_parameter(cell):
    with pytest.raises(ParameterError, match="inside"):
        likelihood_field(cell.occupied, cell.frame, inside="deep")


def _corridor(width_cells: int = 3, length_cells: int = 30) -> OccupancyGrid:
    occ = np.ones((width_cells + 2, length_cells + 2), bool)
    occ[1:-1, 1:-1] = False
    return OccupancyGrid(occ, resolution=0.1)


def _ratio(grid, truth, other, **options):
    s = lidar()
    f = MCL(grid, s, truth, rng=0, **options)
    w = f._likelihood(np.array([truth, other], float), s.readings(grid, truth))
    return float(w[0] / w[1])


def test_short_readings_tell_which_wall_is_near():
    # a 0.3 m corridor (walls at y = 0.1 and 0.4); 4 cm south of the centre the
    # south wall is 0.11 m away, closer than the lidar's 0.12 m: those beams read
    # range_min. The pose 4 cm north is the mirror image for every other beam.
    g = _corridor()
    truth, mirror = (1.6, 0.21, 0.0), (1.6, 0.29, 0.0)
    # alone (Nav2's field otherwise) the short readings add to the evidence
    with_short = _ratio(g, truth, mirror, wall_depth=False)
    without = _ratio(g, truth, mirror, wall_depth=False, short_hits=False)
    assert with_short > 1.1 * without
    # with the wall depth too the true pose is several times as likely
    assert _ratio(g, truth, mirror) > 5.0


def test_an_end_point_through_the_wall_costs_with_wall_depth():
    # facing the corridor's east end 0.3 m ahead; the pose 5 cm nearer puts the
    # beams that hit the end wall 5 cm inside it: free of charge in Nav2's field
    g = _corridor(width_cells=5)
    truth, nearer = (2.8, 0.35, 0.0), (2.85, 0.35, 0.0)
    assert _ratio(g, truth, nearer) > 1.15
    assert _ratio(g, truth, nearer, wall_depth=False, short_hits=False) < 1.05


def _room(n: int = 30) -> OccupancyGrid:
    occ = np.zeros((n, n), bool)
    occ[0, :] = occ[-1, :] = occ[:, 0] = occ[:, -1] = True
    return OccupancyGrid(occ, resolution=0.1)


@pytest.mark.parametrize("seed", range(3))
def test_a_copy_that_crosses_the_estimate_is_still_reported(seed):
    """Driving through a square room's centre, the copy turned by a half turn meets the
    estimate there with the opposite heading: it is another mode, not the same one."""
    g = _room()
    c = g.width / 2
    s = lidar()
    start = (c - 0.6, c, 0.0)
    f = MCL(g, s, start, rng=seed, global_start=True, global_particles=1000,
            global_candidates=20_000)
    amb = []
    for k in range(121):
        pose = (c - 0.6 + 0.01 * k, c, 0.0)
        f.update(pose, s.readings(g, pose))
        amb.append(f.ambiguity)
    # after passing the centre (k = 60) the look-alikes are still there
    assert f.modes >= 2
    assert min(amb[70:]) > 0.4
