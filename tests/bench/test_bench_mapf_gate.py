"""MAPF rows are gated: a longer plan, a later makespan or a lost bound is a
regression of ``bench compare`` and a difference of ``bench rerun``."""

from __future__ import annotations

import json

import pytest

from robomaze.bench import read_rows, write_rows
from robomaze.bench.compare import compare_rows
from robomaze.bench.mapf import MAPF_METRICS
from robomaze.bench.rerun import row_differences
from robomaze.bench.run import DETERMINISTIC_METRICS, run_scenario
from robomaze.bench.scenario import parse_sweep
from robomaze.cli import main

SWEEP = {"seed": [3], "maze": {"generator": "kruskal", "rows": 4, "cols": 4},
         "widen": {"corridor": [2]},
         "run": {"mapf": ["cbs", "ecbs"], "agents": [4], "max_work": 20000,
                 "options": {"ecbs": {"w": 1.5}}}}


@pytest.fixture(scope="module")
def rows():
    out = [run_scenario(s) for s in parse_sweep(SWEEP).scenarios]
    assert all(r["success"] for r in out)
    return out


def test_every_mapf_metric_is_deterministic():
    assert set(MAPF_METRICS) <= set(DETERMINISTIC_METRICS)


@pytest.mark.parametrize("key, delta", [("soc", 1), ("makespan", 1), ("lower_bound", -1),
                                        ("nodes", 1), ("agents", -1)])
def test_a_mapf_regression_is_a_change(rows, key, delta):
    cur = json.loads(json.dumps(rows))
    cur[0]["metrics"][key] += delta
    res = compare_rows(rows, cur)
    assert res.status == "regression" and res.exit_code == 1
    assert [c[:2] for c in res.changes] == [(rows[0]["id"], key)]
    assert [d[0] for d in row_differences(rows[0], cur[0])] == [f"metrics.{key}"]


def test_a_lost_bound_and_a_worse_ratio_are_changes(rows):
    ecbs = next(i for i, r in enumerate(rows) if r["method"] == "ecbs")
    assert rows[ecbs]["metrics"]["bound"] == 1.5
    cur = json.loads(json.dumps(rows))
    cur[ecbs]["metrics"]["bound"] = None
    cur[ecbs]["metrics"]["suboptimality"] *= 1.01
    keys = {c[1] for c in compare_rows(rows, cur).changes}
    assert keys == {"bound", "suboptimality"}


def test_the_cli_gate_on_mapf_rows(rows, tmp_path, capsys):
    write_rows(tmp_path / "base", rows)
    assert main(["bench", "compare", str(tmp_path / "base"), str(tmp_path / "base")]) == 0
    cur = json.loads(json.dumps(read_rows(tmp_path / "base")))
    cur[0]["metrics"]["soc"] += 2
    write_rows(tmp_path / "cur", cur)
    capsys.readouterr()
    assert main(["bench", "compare", str(tmp_path / "base"), str(tmp_path / "cur")]) == 1
    out = capsys.readouterr().out
    assert "soc" in out and "REGRESSION" in out
