"""MAPF plans run in the traffic simulator with the reactive layer off
(:mod:`robomaze.traffic.mapf_exec`): lateness and contacts against hand geometry."""

import json
import math

import numpy as np
import pytest

from robomaze.mapf import Instance, Plan, find_problems
from robomaze.traffic.mapf_exec import execute_plan


def corridor(length=6):
    occ = np.ones((3, length + 2), bool)
    occ[1, 1:length + 1] = False
    inst = Instance(occ, [(1, 1)], [(1, length)])
    plan = Plan(np.array([[[1, 1 + t]] for t in range(length)]))
    return inst, plan


def test_a_slow_enough_schedule_holds():
    inst, plan = corridor()
    ex = execute_plan(inst, plan, step_time=1.0)
    assert ex.held and ex.collisions == 0 and ex.finished
    assert ex.lateness[0] <= 0.25


def test_a_schedule_faster_than_the_robot_is_late_by_physics():
    # 5 cells at 0.2 s a cell is 5 m/s; a robot capped at 1 m/s needs >= 5 s less the
    # 0.1-cell tolerance for the last cell, planned at 1 s: at least 3.9 s late
    inst, plan = corridor()
    ex = execute_plan(inst, plan, step_time=0.2, v_max=1.0, a_max=50.0)
    assert not ex.held
    T = plan.steps
    assert ex.lateness[0] >= (T - 0.1) / 1.0 - T * 0.2 - 0.05
    assert ex.summary()["late_agents"] == 1


@pytest.mark.parametrize("radius, contact", [(0.45, True), (0.3, False)])
def test_perpendicular_following_touches_only_wide_discs(radius, contact):
    """Agent 0 leaves (1,1) east while agent 1 enters it from the south: legal in
    MAPF (following), but the disc centres pass within sqrt(2)/2 = 0.707 cells of
    each other (at half step), so discs 0.9 wide touch and 0.6 wide do not."""
    occ = np.zeros((4, 4), bool)        # room: the simulator wants goals a disc clears
    inst = Instance(occ, [(1, 1), (2, 1)], [(1, 2), (1, 1)])
    plan = Plan(np.array([[[1, 1], [2, 1]], [[1, 2], [1, 1]]]))
    assert find_problems(inst, plan) == []
    ex = execute_plan(inst, plan, step_time=2.0, radius=radius)
    assert (ex.robot_contacts.sum() > 0) == contact
    assert ex.held == (not contact)
    if not contact:
        # tracking error aside, the closest approach is 0.707 - 0.6 = 0.107 cells
        assert 0.03 < ex.min_robot_clearance < 0.107 + 0.05


def test_cli_execute_reports_and_writes_json(tmp_path, capsys):
    from robomaze.cli import main
    from robomaze.grid import OccupancyGrid
    from robomaze.io.movingai import write_movingai
    from robomaze.world import WorldSpec

    grid = WorldSpec(generator="kruskal", rows=5, cols=5, corridor=2, seed=4).build().grid
    write_movingai(OccupancyGrid(grid.occupied), tmp_path / "m.map")
    assert main(["mapf", str(tmp_path / "m.map"), str(tmp_path / "m.scen"), "--new-scen",
                 "--agents", "6", "--seed", "2"]) == 0
    out = tmp_path / "r.json"
    assert main(["mapf", str(tmp_path / "m.map"), str(tmp_path / "m.scen"), "--solver", "cbs",
                 "--execute", "--step-time", "1.5", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "executed in the traffic simulator" in text and "timing" in text
    s = json.loads(out.read_text())
    ex = s["execute"]
    assert len(ex["lateness_s"]) == 6 and ex["step_time_s"] == 1.5
    assert ex["held"] == (ex["collisions"] == 0 and ex["late_agents"] == 0
                          and ex["unreached"] == 0 and ex["finished"])
    assert math.isfinite(ex["max_lateness_s"]) or ex["max_lateness_s"] is None
    with pytest.raises(SystemExit) as exc:      # argparse's usage error, one line
        main(["mapf", str(tmp_path / "m.map"), str(tmp_path / "m.scen"), "--execute",
              "--step-time", "0"])
    assert exc.value.code == 2
    assert "--step-time" in capsys.readouterr().err
