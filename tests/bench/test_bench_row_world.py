"""Every row kind stores the world it ran in (issue 32 item 1): ``row["world"]``
is the :class:`robomaze.world.WorldSpec` dict -- braid, placement and widening
included -- that a walk record and a play URL of the same world hold, and it
changes neither a row id nor anything the CI gate compares."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from robomaze.bench.compare import compare_rows
from robomaze.bench.run import build_grid, run_scenario
from robomaze.bench.scenario import parse_sweep
from robomaze.world import WorldSpec

SWEEP = {"seed": 3, "maze": {"generator": "kruskal", "rows": 4, "cols": 4, "braid": 0.5,
                             "placement": "centre"},
         "widen": {"corridor": 3, "wall": 1, "resolution": 0.1},
         "robot": {"footprint": "disc:0.1"},
         "run": {"planner": ["astar"], "agent": ["follow_plan"], "mouse": ["floodfill"]}}


@pytest.fixture(scope="module")
def rows():
    scenarios = list(parse_sweep(copy.deepcopy(SWEEP)).scenarios)
    scenarios += list(parse_sweep({"seed": 3, "maze": {"generator": "kruskal", "rows": 4,
                                                       "cols": 4},
                                   "widen": {"corridor": 2, "wall": 1},
                                   "run": {"mapf": ["pibt"], "agents": [3],
                                           "max_work": 1000}}).scenarios)
    return [(sc, run_scenario(sc)) for sc in scenarios]


def test_every_row_kind_stores_its_world(rows):
    assert sorted(sc.kind for sc, _ in rows) == ["mapf", "mouse", "plan", "simulate"]
    # the worlds written out by hand: a robot's rows widen, a mouse's cell maze does not
    robot = WorldSpec(generator="kruskal", rows=4, cols=4, seed=3, braid=0.5,
                      placement="centre", corridor=3, wall=1, resolution=0.1,
                      footprint="disc:0.1").to_dict()
    want = {"plan": robot, "simulate": robot,
            "mouse": WorldSpec(generator="kruskal", rows=4, cols=4, seed=3, braid=0.5,
                               placement="centre").to_dict(),
            "mapf": WorldSpec(generator="kruskal", rows=4, cols=4, seed=3, corridor=2).to_dict()}
    for sc, row in rows:
        assert row["status"] == "ok", row.get("error")
        assert row["world"] == want[sc.kind], sc.kind
        assert row["id"] == sc.id
        # the stored world builds the grid the row ran on
        grid = WorldSpec.from_dict(row["world"]).build().grid
        assert np.array_equal(grid.occupied, build_grid(sc)[0].occupied), sc.kind


def test_a_file_world_row_names_its_file_portably():
    """A planner row on a MovingAI map (a grid file) names the map as the
    sweep did, and no machine path."""
    (sc,) = parse_sweep({"seed": 1, "maze": {"grid": "pkg:movingai/maze512-1-0.map",
                                             "start": [1, 1], "goal": [1, 3]},
                         "robot": {"footprint": "disc:0.1"},
                         "run": {"planner": ["astar"]}}).scenarios
    row = run_scenario(sc)
    w = row["world"]
    assert (w["grid"], w["start"], w["goal"]) == ("pkg:movingai/maze512-1-0.map", [1, 1], [1, 3])
    assert not w["base_dir"].startswith("/")
    assert WorldSpec.from_dict(w).build().grid.shape == (512, 512)


def test_the_gate_ignores_the_stored_world(rows):
    """A baseline written before rows stored their world compares clean with
    one that does (0 metric changes), and a real change is still caught."""
    current = [row for _, row in rows]
    baseline = [{k: v for k, v in row.items() if k != "world"} for row in current]
    res = compare_rows(baseline, current)
    assert res.changes == [] and res.missing == [] and res.ok
    changed = copy.deepcopy(current)
    changed[0]["metrics"]["length_m"] = (changed[0]["metrics"]["length_m"] or 0) + 1.0
    assert [c[1] for c in compare_rows(baseline, changed).changes] == ["length_m"]


def test_traffic_rows_store_their_world_without_changing_their_id():
    import robomaze.bench.traffic as T

    sweep = {"kind": "traffic", "seed": 2,
             "maze": {"generator": "kruskal", "rows": 1, "cols": 3, "braid": 0.0},
             "widen": {"corridor": 14, "resolution": 0.1}, "robots": {"count": 1},
             "run": {"max_steps": 300}}
    (row,) = T.parse_traffic_sweep(sweep, source="/some/folder/t.toml")
    stored = T.run_row(row)
    assert stored["id"] == row["id"]
    assert stored["spec"] == T.parse_traffic_sweep(sweep, source="/some/folder/t.toml")[0]["spec"]
    # the spec keeps its folder (the id hashes it); the stored world is the
    # world itself, as a record or a URL of it would name it
    assert row["spec"]["world"]["base_dir"] == "/some/folder"
    assert stored["world"] == WorldSpec(generator="kruskal", rows=1, cols=3, seed=2,
                                        corridor=14, resolution=0.1).to_dict()
    again = T.rerun_row(stored)
    assert T.row_differences(stored, again) == []
    forged = dict(stored, world=dict(stored["world"], seed=3))
    assert T.row_differences(forged, again) == ["world: the stored world is not the world "
                                                "re-created"]


def test_a_rerun_checks_the_world_it_recreated(rows):
    """``bench rerun``'s differences name a stored world that is not the world
    the row's scenario re-creates (and none for an honest row)."""
    from robomaze.bench.rerun import row_differences

    sc, row = next((sc, r) for sc, r in rows if sc.kind == "plan")
    assert [d[0] for d in row_differences(row, run_scenario(sc))] == []
    forged = dict(row, world=dict(row["world"], braid=0.0))
    assert [d[0] for d in row_differences(forged, run_scenario(sc))] == ["world"]
    old = {k: v for k, v in row.items() if k != "world"}   # a row from before: nothing to check
    assert row_differences(old, run_scenario(sc)) == []
