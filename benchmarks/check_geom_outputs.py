"""Digests of the geometry kernels' outputs, to compare checkouts.

Issue 40, round 13 (r13-kernels): ``dilate_bits`` (and other kernels of
``robomaze/geometry``) were reshaped to compile less; every output must stay
byte-identical. Run in each checkout and compare the printed digests::

    PYTHONPATH=/tmp/base13 python benchmarks/check_geom_outputs.py
    PYTHONPATH=. python benchmarks/check_geom_outputs.py

On 10 grids (widened kruskal/backtracker mazes of corridor 1-3, random
0-45% obstacles, a resolution other than 1 and an offset origin, one
rotated 0.4 rad):

* ``cspace``: ``cspace`` of a disc, two rectangles and a convex and a
  non-convex polygon (sweep on and off, 8 and 16 headings): the bit-row
  dilation ``dilate_bits`` and its window doubling at every run length;
* ``clear``: ``footprint_clearance`` (none, disc, rectangle, polygon) and
  ``footprint_touches`` at 200 random poses, ``cell_clearance`` at every
  free cell and ``segment_clearance`` (``shapes_clearance``,
  ``points_clearance``, ``poses_touch``, ``cell_clearance``);
* ``collide``: a disc's and a rectangle's ``Collider`` pose and motion
  checks on 200 random motions (``disc_motion_hits``).
"""
import hashlib
import pickle
import sys

import numpy as np

from robomaze.generate import generate
from robomaze.geometry import Footprint
from robomaze.geometry.clearance import (cell_clearance, footprint_clearance,
                                         footprint_touches, segment_clearance)
from robomaze.geometry.cspace import cspace
from robomaze.geometry.validity import Collider
from robomaze.grid import OccupancyGrid
from robomaze.world import widen_maze


def digest(obj):
    return hashlib.sha256(pickle.dumps(obj, protocol=4)).hexdigest()[:16]


def grids():
    out = []
    for k, (name, corridor) in enumerate([("kruskal", 1), ("backtracker", 2), ("kruskal", 3),
                                          ("backtracker", 1)]):
        out.append(widen_maze(generate(name, 9, 11, rng=k), corridor=corridor))
    rng = np.random.default_rng(7)
    for p in (0.0, 0.2, 0.45):
        out.append(OccupancyGrid(rng.random((37, 53)) < p))
    out.append(OccupancyGrid(rng.random((30, 41)) < 0.2, resolution=0.1, origin=(1.3, -0.7, 0.0)))
    out.append(OccupancyGrid(rng.random((25, 33)) < 0.15, resolution=0.5, origin=(0.2, 0.1, 0.4)))
    out.append(OccupancyGrid(rng.random((64, 130)) < 0.1, resolution=0.25))
    return out


def footprints(res):
    return [Footprint.disc(0.9 * res), Footprint.rectangle(2.5 * res, 1.2 * res),
            Footprint.rectangle(4.1 * res, 0.6 * res),
            Footprint.polygon([(0, 0), (2 * res, 0.3 * res), (1.5 * res, 1.7 * res),
                               (-0.4 * res, 1.1 * res)]),
            Footprint.polygon([(0, 0), (3 * res, 0), (3 * res, 2 * res), (2 * res, 2 * res),
                               (2 * res, 0.8 * res), (0, 0.8 * res)])]


def random_poses(g, n, rng):
    h, w = g.rows * g.resolution, g.cols * g.resolution
    ox, oy, _ = g.origin
    return np.column_stack([ox + rng.random(n) * w, oy + rng.random(n) * h,
                            rng.uniform(-np.pi, np.pi, n)])


def run(want):
    out = {}
    gs = grids()
    if "cspace" in want:
        rows = []
        for g in gs:
            for fp in footprints(g.resolution):
                for headings, sweep in ((16, True), (8, False)):
                    try:
                        rows.append(np.packbits(cspace(g, fp, headings=headings, sweep=sweep)))
                    except Exception as e:   # noqa: BLE001 -- the text is the output
                        rows.append(repr(e))
        out["cspace"] = digest(rows)
    if "clear" in want:
        rows = []
        rng = np.random.default_rng(11)
        for g in gs:
            poses = random_poses(g, 200, rng)
            for fp in [None] + footprints(g.resolution):
                rows.append(footprint_clearance(g, fp, poses))
                rows.append(footprint_touches(g, fp, poses[:50]))
            free = np.argwhere(~g.occupied)
            rows.append(cell_clearance(g, None, free))
            a, b = poses[:60, :2], poses[60:120, :2]
            for r in (0.0, 0.3 * g.resolution, 1.7 * g.resolution):
                rows.append(segment_clearance(g, r, a, b))
        out["clear"] = digest(rows)
    if "collide" in want:
        rows = []
        rng = np.random.default_rng(13)
        for g in gs:
            p0, p1 = random_poses(g, 200, rng), random_poses(g, 200, rng)
            p1[:, :2] = p0[:, :2] + (p1[:, :2] - p0[:, :2]) * 0.1
            for fp in (Footprint.disc(0.6 * g.resolution), Footprint.rectangle(2 * g.resolution,
                                                                               g.resolution)):
                col = Collider(g, fp)
                rows.append(col.check(p0))
                rows.append([col.motion_collides(p0[i], p1[i]) for i in range(200)])
        out["collide"] = digest(rows)
    return out


if __name__ == "__main__":
    print(run(set(sys.argv[1:]) or {"cspace", "clear", "collide"}))
