"""Metrics measure a heading-aware plan along the motion it planned."""

import numpy as np
import shapely

from robomaze import metrics
from robomaze.generate import generate
from robomaze.geometry import Footprint
from robomaze.grid import widen
from robomaze.plan import plan
from robomaze.metrics.keyposes import motion_poses


def test_rectangle_plans_are_measured_with_their_own_headings():
    fp = Footprint.rectangle(0.5, 0.3)
    checked = 0
    for name, seed in [("backtracker", 1), ("kruskal", 2), ("wilson", 1)]:
        g = widen(generate(name, 5, 5, rng=seed), corridor=7, wall=1, resolution=0.1)
        p = plan(g, None, None, method="collision_free", footprint=fp)
        assert p.headings is not None and p.collision_free
        m = metrics.path_metrics(p, g, footprint=fp)
        assert m["collisions"] == 0 and m["min_clearance"] > 0
        # independent check of the sampled motion with shapely
        walls = shapely.union_all([
            shapely.box(x - 0.05, y - 0.05, x + 0.05, y + 0.05)
            for x, y in g.cells_to_world(np.argwhere(g.occupied))])
        poses = motion_poses(p.points, p.headings, g.resolution)
        assert not any(fp.at(*pose).intersects(walls) for pose in poses[::3])
        assert np.isclose(m["min_clearance"], metrics.min_clearance(p, g, fp))
        checked += 1
    assert checked == 3
