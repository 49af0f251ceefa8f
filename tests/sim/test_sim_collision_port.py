"""The collision kernel against a plain-Python port of the simulator's collision rules.

:func:`robomaze.geometry._collide_kernels.motion_hits` is the one collision kernel (a
single pose is the motion from it to itself, issue 22). This port is
written from the module's rules -- the clearance-field fast accept/reject,
the exact disc and separating-axis tests, sub-poses at most ``step_length``
apart -- in the same floating-point order, so the flags and the
fast/exact split must agree exactly, pose by pose and motion by motion.
"""

import math

import numpy as np
import pytest

from robomaze.geometry import Footprint
from robomaze.grid import OccupancyGrid
from robomaze.sim import Collider


def _cells(k, x, y):
    (occ, clear, rows, cols, res, ox, oy, cy, sy) = k[:9]
    dx, dy = x - ox, y - oy
    return (cy * dx + sy * dy) / res, rows - (-sy * dx + cy * dy) / res


def _disc(k, a, b, r):
    occ, rows, cols = k[0], k[2], k[3]
    if a - r <= 0.0 or b - r <= 0.0 or a + r >= cols or b + r >= rows:
        return True
    for i in range(max(math.ceil(b - r) - 1, 0), min(math.floor(b + r), rows - 1) + 1):
        dy = i - b if b < i else (b - i - 1 if b > i + 1 else 0.0)
        for j in range(max(math.ceil(a - r) - 1, 0), min(math.floor(a + r), cols - 1) + 1):
            dx = j - a if a < j else (a - j - 1 if a > j + 1 else 0.0)
            if occ[i * cols + j] and dx * dx + dy * dy <= r * r:
                return True
    return False


def _sat(pa, pb, c, r):
    n = len(pa)
    for k in range(n):
        k2 = (k + 1) % n
        nx, ny = -(pb[k2] - pb[k]), pa[k2] - pa[k]
        proj = [nx * pa[m] + ny * pb[m] for m in range(n)]
        sq = [nx * c + ny * r, nx * (c + 1) + ny * r, nx * c + ny * (r + 1),
              nx * (c + 1) + ny * (r + 1)]
        if max(proj) < min(sq) or max(sq) < min(proj):
            return False
    return True


def _pieces(k, x, y, th):
    occ, rows, cols = k[0], k[2], k[3]
    px, py, starts, counts = k[12:16]
    ct, st = math.cos(th), math.sin(th)
    for s, n in zip(starts, counts):
        pts = [_cells(k, x + ct * px[s + m] - st * py[s + m], y + st * px[s + m] + ct * py[s + m])
               for m in range(n)]
        pa, pb = [p[0] for p in pts], [p[1] for p in pts]
        if min(pa) <= 0.0 or min(pb) <= 0.0 or max(pa) >= cols or max(pb) >= rows:
            return True
        for i in range(max(math.ceil(min(pb)) - 1, 0), min(math.floor(max(pb)), rows - 1) + 1):
            for j in range(max(math.ceil(min(pa)) - 1, 0),
                           min(math.floor(max(pa)), cols - 1) + 1):
                if occ[i * cols + j] and _sat(pa, pb, j, i):
                    return True
    return False


def _pose(k, x, y, th):
    """0 free, 1 collision, +2 when the exact test ran."""
    clear, rows, cols = k[1], k[2], k[3]
    r_in, r_out, disc = k[9:12]
    a, b = _cells(k, x, y)
    if not (0.0 < a < cols and 0.0 < b < rows):
        return 1
    c = clear[int(b) * cols + int(a)]
    if c - 0.7071067811865476 > r_out:
        return 0
    if c + 0.7071067811865476 <= r_in:
        return 1
    hit = _disc(k, a, b, disc) if disc > 0.0 else _pieces(k, x, y, th)
    return 3 if hit else 2


def _motion(k, p0, p1):
    res, r_out, step = k[4], k[10], k[18]
    (x0, y0, t0), (x1, y1, t1) = p0, p1
    dth = (t1 - t0 + math.pi) % (2.0 * math.pi) - math.pi
    reach = math.hypot(x1 - x0, y1 - y0) + abs(dth) * r_out * res
    n = math.ceil(reach / step) if reach > 0.0 else 1
    return any(_pose(k, x0 + i / n * (x1 - x0), y0 + i / n * (y1 - y0), t0 + i / n * dth) & 1
               for i in range(1, n + 1))


@pytest.mark.parametrize("fp", [
    Footprint.disc(0.23),
    Footprint.rectangle(0.6, 0.3, ref=(0.1, 0.0)),
    Footprint.polygon([(0.3, 0.0), (-0.2, 0.25), (-0.05, 0.0), (-0.2, -0.25)]),  # non-convex
], ids=["disc", "rectangle", "arrow"])
def test_kernel_matches_the_port_pose_by_pose_and_motion_by_motion(fp):
    rng = np.random.default_rng(11)
    occ = rng.random((24, 28)) < 0.05
    g = OccupancyGrid(occ, resolution=0.1, origin=(-1.0, 0.5, 0.3))
    col = Collider(g, fp)
    k = col.kernel_args()
    lo = np.array(g.frame.cell_to_world((23.5, 0.5)))
    hi = np.array(g.frame.cell_to_world((0.5, 27.5)))
    span = np.column_stack([lo, hi])
    n = 600
    xy = np.column_stack([rng.uniform(span[0].min() - 0.2, span[0].max() + 0.2, n),
                          rng.uniform(span[1].min() - 0.2, span[1].max() + 0.2, n)])
    poses = np.column_stack([xy, rng.uniform(-math.pi, math.pi, n)])
    codes = [_pose(k, *p) for p in poses]
    assert col.check(poses).tolist() == [bool(c & 1) for c in codes]
    assert (col.fast, col.exact) == (sum(c < 2 for c in codes), sum(c >= 2 for c in codes))
    assert col.fast > 0 and col.exact > 0 and 0 < sum(c & 1 for c in codes) < n
    starts = poses[[not c & 1 for c in codes]]    # motions from free poses: some get through
    ends = starts + np.column_stack([rng.normal(0, 0.1, (len(starts), 2)),
                                     rng.normal(0, 1.0, len(starts))])
    got = [col.motion_collides(p, q) for p, q in zip(starts.tolist(), ends.tolist())]
    want = [_motion(k, tuple(p), tuple(q)) for p, q in zip(starts.tolist(), ends.tolist())]
    assert got == want
    assert 0 < sum(want) < len(starts)
