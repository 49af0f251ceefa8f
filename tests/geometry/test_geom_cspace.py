"""C-space against exact shapely intersection of the placed footprint with the walls."""

import math

import numpy as np
import pytest
import shapely
from shapely.geometry import Point, box

from robomaze import OccupancyGrid
from robomaze.geometry import Footprint, cspace, heading_bin, heading_bins

L_SHAPE = [(-0.3, -0.2), (0.55, -0.2), (0.55, 0.05), (0.0, 0.05), (0.0, 0.45), (-0.3, 0.45)]
SHAPES = {
    "rect_offset": Footprint.rectangle(0.9, 0.35, ref=(0.3, 0.07)),
    "l_shape": Footprint.polygon(L_SHAPE),
}


def obstacles(grid, margin=3.0):
    """Union of occupied squares plus a thick frame outside the grid (world frame)."""
    res = grid.resolution
    parts = []
    for r, c in np.argwhere(grid.occupied):
        x, y = grid.cell_to_world((r, c))
        parts.append(box(x - res / 2, y - res / 2, x + res / 2, y + res / 2))
    W, H = grid.width, grid.height
    outer = box(-margin, -margin, W + margin, H + margin).difference(box(0, 0, W, H))
    return shapely.union_all(parts + [outer])


def random_grid(seed, shape=(7, 8), p=0.25, res=0.5):
    rng = np.random.default_rng(seed)
    return OccupancyGrid(rng.random(shape) < p, resolution=res)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("radius", [0.3, 0.61, 0.9])
def test_disc_cspace_is_exact(seed, radius):
    g = random_grid(seed)
    obs = obstacles(g)
    blocked = cspace(g, Footprint.disc(radius))
    assert blocked.shape == g.shape
    for r in range(g.rows):
        for c in range(g.cols):
            d = obs.distance(Point(*g.cell_to_world((r, c))))
            assert blocked[r, c] == (d <= radius), (r, c, d)   # touching is blocked


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("name", sorted(SHAPES))
def test_exact_heading_cspace_matches_shapely(seed, name):
    fp = SHAPES[name]
    g = random_grid(seed)
    obs = obstacles(g)
    shapely.prepare(obs)
    n = 8
    blocked = cspace(g, fp, headings=n, sweep=False)
    assert blocked.shape == (n,) + g.shape
    for b, theta in enumerate(heading_bins(n)):
        for r in range(g.rows):
            for c in range(g.cols):
                x, y = g.cell_to_world((r, c))
                assert blocked[b, r, c] == obs.intersects(fp.at(x, y, theta)), (b, r, c)


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_swept_bins_are_conservative_and_tight(name):
    fp = SHAPES[name]
    g = random_grid(11, shape=(8, 9))
    obs = obstacles(g)
    shapely.prepare(obs)
    n = 6
    step = 2 * math.pi / n
    blocked = cspace(g, fp, headings=n)
    R = fp.circumscribed_radius
    slack = R * (math.radians(2.0) / 2 * 1.05 + step / 40) + 1e-6
    for b, centre in enumerate(heading_bins(n)):
        samples = centre + np.linspace(-step / 2, step / 2, 21)
        assert (heading_bin(samples[1:-1], n) == b).all()
        for r in range(g.rows):
            for c in range(g.cols):
                x, y = g.cell_to_world((r, c))
                dists = [obs.distance(fp.at(x, y, t)) for t in samples]
                if not blocked[b, r, c]:
                    # free bin: every heading in the bin is collision-free
                    assert min(dists) > 0, (b, r, c)
                else:
                    # blocked only if some heading of the bin comes close
                    assert min(dists) <= slack, (b, r, c, min(dists))


def test_asymmetric_footprint_is_reflected():
    # one obstacle; a footprint reaching 1 cell east of its reference point
    occ = np.zeros((3, 7), bool)
    occ[1, 3] = True
    g = OccupancyGrid(occ)
    fp = Footprint.polygon([(-0.2, -0.2), (1.2, -0.2), (1.2, 0.2), (-0.2, 0.2)])
    blocked = cspace(g, fp, headings=4, sweep=False)[0]
    # facing east, the robot hits the obstacle from the cell WEST of it, never from the east
    assert blocked[1, 2] and blocked[1, 3] and not blocked[1, 4]
    assert not blocked[0, 2] and not blocked[2, 2]
    # facing west (bin 2) the mirror image
    west = cspace(g, fp, headings=4, sweep=False)[2]
    assert west[1, 4] and not west[1, 2] and not west[1, 1]


def test_single_bin_is_the_circumscribed_disc():
    g = random_grid(5, shape=(6, 6))
    fp = SHAPES["rect_offset"]
    one = cspace(g, fp, headings=1)[0]
    disc = cspace(g, Footprint.disc(fp.circumscribed_radius * 1.06))
    ring = cspace(g, Footprint.disc(fp.circumscribed_radius * 0.999))
    # the full sweep is the disc of radius R (up to the small documented pad)
    assert (one <= disc).all() and (ring <= one).all()


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_motion_sweeps_are_collision_free(name):
    from robomaze.geometry import MOTIONS, motion_cspace
    fp = SHAPES[name]
    g = random_grid(3, shape=(8, 9), p=0.1)
    obs = obstacles(g)
    shapely.prepare(obs)
    n = 4
    step = 2 * math.pi / n
    moves = motion_cspace(g, fp, headings=n, connectivity=8)
    ends = cspace(g, fp, headings=n)
    assert moves.shape == (4, n) + g.shape
    free_moves = 0
    for m, (dr, dc) in enumerate(MOTIONS):
        for b, centre in enumerate(heading_bins(n)):
            for r in range(g.rows):
                for c in range(g.cols):
                    r2, c2 = r + dr, c + dc
                    if not (0 <= r2 < g.rows and 0 <= c2 < g.cols):
                        assert moves[m, b, r, c]          # leaving the grid is blocked
                        continue
                    if ends[b, r, c] or ends[b, r2, c2]:
                        assert moves[m, b, r, c]          # the sweep holds both ends
                        continue
                    if moves[m, b, r, c]:
                        continue
                    free_moves += 1
                    (x0, y0), (x1, y1) = g.cell_to_world((r, c)), g.cell_to_world((r2, c2))
                    for s in np.linspace(0, 1, 7):
                        for t in centre + np.linspace(-step / 2, step / 2, 5):
                            pose = fp.at(x0 + s * (x1 - x0), y0 + s * (y1 - y0), t)
                            assert not obs.intersects(pose), (m, b, r, c, s, t)
    assert free_moves > 10                                # the test checked something


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("name", sorted(SHAPES))
def test_one_cell_sweeps_are_the_end_cells(seed, name):
    # The footprint planner allows a move where its end cells (diagonally also
    # the two side cells) are free in the bin, with no sweep masks: the shapely
    # sweep (Minkowski sum of the bin region with the move) must never block a
    # move those cells allow, and for E/S moves it blocks exactly what they block.
    from robomaze.geometry import MOTIONS, motion_cspace
    fp = SHAPES[name]
    g = random_grid(seed + 10, shape=(9, 10), p=0.12)
    n = 8
    moves = motion_cspace(g, fp, headings=n, connectivity=8)
    ends = np.pad(cspace(g, fp, headings=n), ((0, 0), (1, 1), (1, 1)), constant_values=True)
    R, C = g.shape
    for m, (dr, dc) in enumerate(MOTIONS):
        src = ends[:, 1:R + 1, 1:C + 1]
        dst = ends[:, 1 + dr:R + 1 + dr, 1 + dc:C + 1 + dc]
        cells = src | dst
        if dr and dc:
            cells = cells | ends[:, 1 + dr:R + 1 + dr, 1:C + 1] | ends[:, 1:R + 1, 1 + dc:C + 1 + dc]
            assert (moves[m] <= cells).all(), m
            assert (moves[m] != cells).sum() < cells.size // 4   # hardly looser than the sweep
        else:
            np.testing.assert_array_equal(moves[m], cells, err_msg=str(m))
    assert not cells.all() and cells.any()


@pytest.mark.parametrize("seed", range(40))
def test_bit_row_dilation_matches_scipy(seed):
    # kernels up to 139 cells wide (shifts past one 64-bit word), odd shapes, holes
    from scipy import ndimage

    from robomaze.geometry.cspace import _Dilator
    rng = np.random.default_rng(seed)
    rows, cols = (int(v) for v in rng.integers(1, 160, 2))
    occ = rng.random((rows, cols)) < rng.random() * 0.2
    h = int(rng.integers(30, 70)) if seed % 8 == 0 else int(rng.integers(0, 6))
    ker = rng.random((2 * h + 1, 2 * h + 1)) < 0.5
    g = OccupancyGrid(occ, resolution=0.1)
    got = _Dilator(g)(ker)
    # x is blocked iff x + k is occupied (or outside) for some kernel cell k
    want = ndimage.binary_dilation(np.pad(occ, h, constant_values=True),
                                   structure=ker[::-1, ::-1])[h:h + rows, h:h + cols]
    np.testing.assert_array_equal(got, want if ker.any() else np.zeros_like(occ))


@pytest.mark.parametrize("seed", range(12))
def test_pack_rows_matches_the_bit_loop(seed):
    # numpy's packbits against a plain-Python port of the kernel it replaced (bit by bit)
    from robomaze.geometry.cspace import pack_rows
    rng = np.random.default_rng(seed)
    rows, cols = (int(v) for v in rng.integers(1, 150, 2))
    m = int(rng.integers(0, 70))
    occ = rng.random((rows, cols)) < rng.random()
    R, C = rows + 2 * m, cols + 2 * m
    wd = (cols + 63) // 64 + (2 * m) // 64 + 3
    want = [[0] * wd for _ in range(R)]
    for y in range(R):
        for x in range(C):
            r, c = y - m, x - m
            if r < 0 or r >= rows or c < 0 or c >= cols or occ[r, c]:
                want[y][x >> 6] |= 1 << (x & 63)
    got = pack_rows(occ, m)
    assert got.dtype == np.uint64 and got.shape == (R, wd) and got.flags.c_contiguous
    assert got.tolist() == want
