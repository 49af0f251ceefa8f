"""The disc-only kernels (round 8) give the general kernels' answers bit for bit.

``points_clearance`` is ``shapes_clearance`` for single points and
``disc_motion_hits`` is ``motion_hits`` for a disc: they exist so that a
disc's first run compiles less, so any difference would change outputs.
Each is checked against the general kernel on random grids, and the point
clearance also against a brute-force distance to every occupied square and
to the outside of the grid.
"""

from __future__ import annotations

import numpy as np
import pytest

from robomaze import widen
from robomaze.generate import generate
from robomaze.geometry import Footprint
from robomaze.geometry import _collide_kernels as ck
from robomaze.geometry._kernels import points_clearance, shapes_clearance
from robomaze.geometry.validity import Collider


def _brute(occ, u, v, radius):
    """Distance from each point to the closed occupied squares and the grid's outside."""
    rows, cols = occ.shape
    rr, cc = np.nonzero(occ)
    out = np.empty(u.shape[0])
    for i, (a, b) in enumerate(zip(u, v)):
        best = max(min(a, cols - a, b, rows - b), 0.0)   # the outside is occupied
        if rr.size:
            dx = np.maximum(np.maximum(cc - a, a - (cc + 1.0)), 0.0)
            dy = np.maximum(np.maximum(rr - b, b - (rr + 1.0)), 0.0)
            best = min(best, float(np.sqrt(dx * dx + dy * dy).min()))
        out[i] = max(best - radius, 0.0)
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_points_clearance_is_shapes_clearance_of_points_and_exact(seed):
    rng = np.random.default_rng(seed)
    for _ in range(30):
        rows, cols = (int(x) for x in rng.integers(1, 25, 2))
        occ = rng.random((rows, cols)) < rng.uniform(0.0, 0.6)
        n = 40
        u = rng.uniform(-2.0, cols + 2.0, n)
        v = rng.uniform(-2.0, rows + 2.0, n)
        u[:8] = np.round(u[:8])          # on grid lines and vertices
        v[:4] = np.round(v[:4])
        radius = float(rng.choice([0.0, 0.4, 1.5, rng.uniform(0.0, 5.0)]))
        got = np.empty(n)
        points_clearance(occ, u, v, radius, got)
        general = np.empty(n)
        shapes_clearance(occ, np.ascontiguousarray(u[:, None]),
                         np.ascontiguousarray(v[:, None]), False, radius, general)
        assert got.tobytes() == general.tobytes()
        np.testing.assert_allclose(got, _brute(occ, u, v, radius), rtol=0, atol=1e-12)


def test_disc_motion_hits_gives_motion_hits_codes():
    rng = np.random.default_rng(7)
    codes = set()
    for t in range(12):
        grid = widen(generate("kruskal", 4, 5, rng=t), corridor=int(rng.integers(1, 5)), wall=1,
                     resolution=float(rng.choice([1.0, 0.25, 0.1])))
        col = Collider(grid, Footprint.disc(float(rng.uniform(0.05, 1.5)) * grid.resolution))
        assert col._hits is ck.disc_motion_hits
        args = col.kernel_args()
        w, h = grid.cols * grid.resolution, grid.rows * grid.resolution
        for k in range(200):
            p0 = np.array([rng.uniform(-0.5, w + 0.5), rng.uniform(-0.5, h + 0.5),
                           rng.uniform(-7.0, 7.0)])
            p1 = p0 if k % 4 == 0 else p0 + rng.normal(size=3) * (2 * grid.resolution,
                                                                   2 * grid.resolution, 3.0)
            want = ck.motion_hits(*args[:9], *p0, *p1, *args[9:])
            assert col._hits(*col._head, *p0, *p1, *col._tail) == want
            assert col.motion_collides(p0, p1) == bool(want & 1)
            codes.add(int(want))
    assert codes == {0, 1, 2, 3}     # free, hit, and both after the exact test


def test_polygons_keep_the_general_kernel():
    grid = widen(generate("kruskal", 3, 3, rng=0), corridor=3, wall=1)
    assert Collider(grid, Footprint.rectangle(1.2, 0.8))._hits is ck.motion_hits
