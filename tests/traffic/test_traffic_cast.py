"""The traffic scans' grid cast (sphere tracing on the clearance field) against the exact caster."""

import numpy as np

from robomaze.grid import OccupancyGrid
from robomaze.sense.raycast import scan_rows
from robomaze.traffic._cast import free_rects, scan_rows_jump
from robomaze.world import WorldSpec


def _compare(grid, poses, beams, range_max, mount=(0.0, 0.0, 0.0)):
    res, rows, cols, ox, oy, yaw = grid.frame.kernel_args
    occ = grid.flat_occupancy()
    ang = np.linspace(-np.pi, np.pi, beams, endpoint=False)
    mount = np.array(mount, float)
    want = np.empty((len(poses), beams))
    got = np.empty((len(poses), beams))
    scan_rows(occ, rows, cols, res, ox, oy, yaw, poses, mount, np.cos(ang), np.sin(ang), 0.0,
              range_max, False, want)
    scan_rows_jump(occ, grid.flat_clearance(), free_rects(occ, rows, cols), rows, cols, res, ox,
                   oy, yaw, poses, mount,
                   np.cos(ang), np.sin(ang), range_max, got)
    return want, got


def test_same_ranges_as_the_exact_caster_in_a_widened_maze():
    grid = WorldSpec(generator="kruskal", rows=6, cols=6, braid=0.3, corridor=15, wall=1,
                     resolution=0.1, seed=2).build().grid
    rng = np.random.default_rng(1)
    w, h = grid.cols * grid.resolution, grid.rows * grid.resolution
    x0, y0 = grid.cell_to_world((grid.rows - 1, 0))
    poses = np.c_[rng.uniform(x0, x0 + w, 400), rng.uniform(y0, y0 + h, 400),
                  rng.uniform(-np.pi, np.pi, 400)]
    want, got = _compare(grid, poses, 90, 3.5, mount=(0.05, 0.0, 0.1))
    assert np.abs(got - want).max() < 1e-9
    assert (want == 3.5).any() and (want == 0.0).any() and ((want > 0) & (want < 3.5)).any()
    # no return reads range_max exactly, from inside a wall 0 exactly, as the exact caster
    np.testing.assert_array_equal(got == 3.5, want == 3.5)
    np.testing.assert_array_equal(got == 0.0, want == 0.0)


def test_axis_aligned_beams_along_grid_lines_and_random_walls():
    rng = np.random.default_rng(4)
    occ = rng.random((60, 80)) < 0.03
    grid = OccupancyGrid(occ, resolution=0.25)
    # sensors on cell corners and edges: beams run along grid lines
    r, c = rng.integers(1, 59, 300), rng.integers(1, 79, 300)
    xs = grid.frame.kernel_args[3] + c * 0.25
    ys = grid.frame.kernel_args[4] + (60 - r) * 0.25
    th = rng.integers(0, 4, 300) * (np.pi / 2)
    poses = np.c_[xs, ys, th]
    want, got = _compare(grid, poses, 8, 12.0)
    assert np.abs(got - want).max() < 1e-9
    np.testing.assert_array_equal(got == 12.0, want == 12.0)
