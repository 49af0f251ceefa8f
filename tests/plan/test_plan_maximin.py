"""max_clearance keeps to the middle: its minimum clearance is the bottleneck optimum.

The reference is independent of the planner: the largest clearance level c
such that start and goal lie in one 4-connected component of
``{clearance >= c}`` (scipy.ndimage.label), i.e. the best minimum clearance
any 4-connected path can have.
"""

import numpy as np
import pytest
from scipy import ndimage

from robomaze.generate import generate
from robomaze.geometry import Footprint
from robomaze.grid import widen
from robomaze.plan import plan


def bottleneck_clearance(grid, start, goal):
    cl = grid.clearance()
    for level in np.unique(cl[cl > 0])[::-1]:
        labels, _ = ndimage.label(cl >= level)
        if labels[start] and labels[start] == labels[goal]:
            return level
    return 0.0


@pytest.mark.parametrize("name, seed", [("backtracker", 1), ("kruskal", 2), ("wilson", 3)])
@pytest.mark.parametrize("corridor", [3, 5, 9])
def test_max_clearance_reaches_the_bottleneck_optimum(name, seed, corridor):
    g = widen(generate(name, 5, 5, rng=seed), corridor=corridor, wall=1, resolution=0.1)
    s, t = g.start_goal()
    fp = Footprint.disc(0.04)
    p = plan(g, s, t, method="max_clearance", footprint=fp)
    # footprint clearance = centre clearance - radius along a disc's path
    assert p.min_clearance_key_poses == pytest.approx(bottleneck_clearance(g, s, t) - 0.04, abs=1e-9)
    shortest = plan(g, s, t, method="astar", footprint=fp)
    # the centre line is longer than a corner-hugging route by at most about
    # half a corridor per turn; on these 5x5 mazes that stays well under 25%
    assert shortest.length <= p.length <= 1.25 * shortest.length
