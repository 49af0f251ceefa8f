"""The wall follower's length jump (issue 19): the reported route cuts the
walk's dead-end excursions only while the free corridor is at most 4 cells
wide; the report's note says so with the numbers from the rows."""

import pytest

from robomaze import widen
from robomaze.bench.report_notes import free_cells_across, wall_follower_note
from robomaze.generate import generate
from robomaze.geometry import Footprint
from robomaze.plan import plan


@pytest.mark.parametrize("seed", [0, 3])
def test_route_cuts_excursions_up_to_four_free_cells_and_keeps_them_from_five(seed):
    fp = Footprint.disc(0.04)
    share = {}
    for k in (3, 4, 5):
        g = widen(generate("kruskal", 5, 5, rng=seed), corridor=k, wall=1, resolution=0.1)
        p = plan(g, *g.start_goal(), method="wall_follower", footprint=fp)
        assert free_cells_across(k, 0.04, 0.1) == k
        share[k] = p.length / p.walk_length
    assert share[3] < 0.4 and share[4] < 0.4     # tracks in and out of a dead end touch
    assert share[5] > 0.8                        # five free cells: they no longer do


def test_free_cells_across_a_corridor_for_a_disc():
    # a 0.16 m disc in 0.1 m cells: the two cells next to each wall are too close
    assert [free_cells_across(k, 0.16, 0.1) for k in (3, 5, 7, 9)] == [0, 1, 3, 5]


def test_note_lists_route_and_walk_ratios_per_width():
    rows = [{"kind": "plan", "method": "wall_follower", "footprint": "disc:0.04", "corridor": k,
             "resolution": 0.1, "success": True,
             "metrics": {"length_ratio": lr, "walk_length_m": walk, "optimal_length_m": 2.0}}
            for k, lr, walk in ((3, 1.3, 7.6), (5, 3.5, 8.0))]
    text = wall_follower_note(rows)
    assert "| wall_follower | disc:0.04 | 3 | 3 | 1.30 | 3.80 | 1 |" in text
    assert "| wall_follower | disc:0.04 | 5 | 5 | 3.50 | 4.00 | 1 |" in text
    assert wall_follower_note([{"kind": "plan", "method": "astar"}]) == ""
