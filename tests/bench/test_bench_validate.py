"""A sweep is validated fully before its first run: exit 2, nothing written."""

from __future__ import annotations

import pytest

from robomaze.bench.scenario import MAX_DT
from robomaze.cli import main
from robomaze.sim.env import MAX_DT as SIM_MAX_DT

SWEEP = """
[maze]
generator = "prim"
rows = 3
cols = 3
[widen]
corridor = 3
resolution = 0.1
[robot]
footprint = "disc:0.04"
[run]
planner = ["astar", "max_clearance"]
"""


@pytest.mark.parametrize("old,new,message", [
    ('planner = ["astar", "max_clearance"]', 'planner = "astar"\ntime_limit = 1e300',
     "run.time_limit: expected a number > 0 and <= 604800, got 1e+300"),
    ('planner = ["astar", "max_clearance"]', 'agent = "explore"\ndt = 1e300',
     "run.dt: expected a number > 0 and <= 1, got 1e+300"),
    ('planner = ["astar", "max_clearance"]',
     'planner = ["astar", "max_clearance"]\n[run.options.max_clearance]\nwieght = 2.0',
     "run.options.max_clearance.wieght: planner 'max_clearance' takes no option 'wieght'; "
     "did you mean 'weight'? its options are: weight, decay, inflation_radius"),
    ('planner = ["astar", "max_clearance"]',
     'planner = ["astar", "max_clearance"]\n[run.options.astar]\nweight = 2.0',
     "run.options.astar.weight: planner 'astar' takes no option 'weight'; its options are: none"),
    ('footprint = "disc:0.04"',
     'footprint = {shape = "polygon", coords = [[0, 0], [1, 1], [1, 0], [0, 1]]}',
     "robot.footprint: expected a valid footprint (polygon footprint is not a valid polygon "
     "with area (Self-intersection"),
    ('footprint = "disc:0.04"',
     'footprint = {shape = "polygon", coords = [[0, 0], [inf, 0], [0, 1]]}',
     "robot.footprint: expected a valid footprint (polygon coordinates must be finite numbers)"),
    ("rows = 3", "rows = 20000", "maze/widen: widening a 20000x3 maze with corridor=3, wall=1 "
     "gives a 80001x13 grid, which has 1040013 cells, more than the limit of 1000000 cells"),
])
def test_bad_runs_fail_with_exit_2_before_anything_runs(tmp_path, capsys, old, new, message):
    p = tmp_path / "bad.toml"
    p.write_text(SWEEP.replace(old, new, 1))
    assert main(["--max-cells", "1000000", "bench", str(p), "-o", str(tmp_path / "out"),
                 "-q"]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and str(p) in err, err
    assert not (tmp_path / "out").exists()


def test_the_sweep_step_limit_is_the_simulators():
    assert MAX_DT == SIM_MAX_DT
