"""The report of a sweep with OMPL's optimising planners shows their convergence."""

import pytest

from robomaze.bench import load_sweep, read_rows, run_sweep, write_report

pytest.importorskip("ompl")

SWEEP = """\
name = "anytime"
seed = [1, 2]
[maze]
generator = "kruskal"
rows = 3
cols = 3
[widen]
corridor = 5
resolution = 0.1
[robot]
footprint = "disc:0.1"
[run]
planner = ["ompl:rrtstar"]
[run.options."ompl:rrtstar"]
max_checks = 3000
"""


def test_anytime_rows_carry_progress_and_the_report_draws_it(tmp_path):
    p = tmp_path / "anytime.toml"
    p.write_text(SWEEP)
    out = tmp_path / "out"
    run_sweep(load_sweep(p).scenarios, out, workers=1, progress=False)
    rows = read_rows(out)
    solved = [r for r in rows if r["success"]]
    assert solved and all(r["progress"]["samples"] for r in solved)
    # best cost never rises along a run's progress
    for r in solved:
        costs = [s[1] for s in r["progress"]["samples"]]
        assert all(b <= a + 1e-12 for a, b in zip(costs, costs[1:]))
    md = write_report(out, examples=False)["report"].read_text()
    assert (out / "figures" / "ompl_convergence.png").stat().st_size > 5000
    assert "figures/ompl_convergence.png" in md
