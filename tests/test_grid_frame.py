"""The grid core's Frame: world <-> cell conversion against hand-built references,
the cached flat arrays, and no private reach-through from sim/sense/metrics."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robomaze import Maze, widen
from robomaze.grid import Frame


def rotation_reference(frame, x, y):
    """World -> cell units written out with an explicit 2x2 rotation matrix."""
    ox, oy, yaw = frame.origin
    rot = np.array([[math.cos(yaw), math.sin(yaw)], [-math.sin(yaw), math.cos(yaw)]])
    lx, ly = rot @ np.array([x - ox, y - oy])
    return lx / frame.resolution, frame.rows - ly / frame.resolution


def test_hand_computed_cases():
    # 4 rows x 5 cols, 0.5 m cells, lower-left corner at (10, 20), no rotation.
    f = Frame((4, 5), 0.5, (10.0, 20.0, 0.0))
    # The north-west cell (0, 0) spans x 10..10.5, y 21.5..22.
    assert f.cell_to_world((0, 0)) == (10.25, 21.75)
    assert f.cell_to_world((3, 4)) == (12.25, 20.25)
    assert f.world_to_cell((10.01, 21.99)) == (0, 0)
    assert f.world_to_cell((12.49, 20.01)) == (3, 4)
    assert f.world_to_cell((9.99, 20.0)) == (3, -1)       # out of bounds is allowed
    assert f.to_units(10.0, 22.0) == (0.0, 0.0)           # NW corner
    assert f.to_units(12.5, 20.0) == (5.0, 4.0)           # SE corner
    # Rotated a quarter turn: the grid's east axis points north.
    g = Frame((2, 2), 1.0, (0.0, 0.0, math.pi / 2))
    a, b = g.to_units(-0.5, 0.5)                          # local (0.5, 0.5): cell (1, 0)
    assert (a, b) == pytest.approx((0.5, 1.5))
    assert g.world_to_cell((-0.5, 0.5)) == (1, 0)
    assert g.kernel_args == (1.0, 2, 2, 0.0, 0.0, math.pi / 2)


@settings(max_examples=60, deadline=None)
@given(st.floats(-50, 50), st.floats(-50, 50), st.floats(-math.pi, math.pi),
       st.floats(0.01, 3.0), st.integers(1, 40), st.integers(1, 40),
       st.floats(-100, 100), st.floats(-100, 100))
def test_conversions_match_rotation_reference_and_round_trip(ox, oy, yaw, res, rows, cols, x, y):
    f = Frame((rows, cols), res, (ox, oy, yaw))
    a, b = f.to_units(x, y)
    ra, rb = rotation_reference(f, x, y)
    assert a == pytest.approx(ra, abs=1e-9 * (1 + abs(ra)))
    assert b == pytest.approx(rb, abs=1e-9 * (1 + abs(rb)))
    bx, by = f.from_units(a, b)
    assert (bx, by) == pytest.approx((x, y), abs=1e-9 * (1 + abs(x) + abs(y)))
    cell = f.world_to_cell((x, y))
    if abs(a - round(a)) > 1e-9 and abs(b - round(b)) > 1e-9:   # not on a grid line
        assert cell == (math.floor(b), math.floor(a))
    # The vectorised forms agree with the scalar ones.
    assert f.world_to_cells([[x, y]]).tolist() == [list(cell)]
    cx, cy = f.cell_to_world(cell)
    assert f.cells_to_world([cell])[0].tolist() == pytest.approx([cx, cy])
    assert f.world_to_cell((cx, cy)) == cell


def test_grid_owns_frame_and_cached_flat_arrays():
    g = widen(Maze.empty(2, 3), corridor=3, wall=1, resolution=0.2, origin=(1.0, -2.0, 0.3))
    f = g.frame
    assert f is g.frame and (f.shape, f.resolution, f.origin) == (g.shape, 0.2, (1.0, -2.0, 0.3))
    assert g.cell_to_world((2, 5)) == f.cell_to_world((2, 5))
    occ = g.flat_occupancy()
    assert occ is g.flat_occupancy() and occ.dtype == np.uint8 and not occ.flags.writeable
    assert np.array_equal(occ.reshape(g.shape), g.occupied)
    clear = g.flat_clearance()
    assert clear is g.flat_clearance() and not clear.flags.writeable
    assert np.allclose(clear.reshape(g.shape) * 0.2, g.clearance())
    with pytest.raises(ValueError):
        occ[0] = 0


#: Packages that must reach other packages only through public names.


# Cross-package private names: tests/test_private_imports.py checks every module.
