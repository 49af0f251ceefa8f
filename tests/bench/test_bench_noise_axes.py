"""Sensor and odometry noise as sweep axes (TOML, rows) and on the simulate CLI."""

import json

import pytest

from robomaze.bench.run import run_scenario
from robomaze.bench.scenario import DEFAULTS, load_sweep, parse_sweep
from robomaze.cli import main
from robomaze.errors import ScenarioError

BASE = {"maze": {"generator": "kruskal", "rows": 3, "cols": 3}, "seed": 4,
        "widen": {"corridor": 5, "resolution": 0.1},
        "robot": {"footprint": "disc:0.1"}}


def sweep(robot=None, run=None):
    data = json.loads(json.dumps(BASE))
    data["robot"].update(robot or {})
    data["run"] = run or {"agent": "wall_follow"}
    return parse_sweep(data, check_names=False)


def test_noise_axes_multiply_agent_runs_only():
    sw = sweep({"noise": ["none", "gaussian:0.01", "dropout:0.05+gaussian:0.01"],
                "odometry_noise": ["none", "gaussian:0.02+drift:0.01"]},
               {"agent": ["wall_follow"], "planner": ["astar", "wavefront"]})
    agents = [s for s in sw.scenarios if s.kind == "simulate"]
    planners = [s for s in sw.scenarios if s.kind == "plan"]
    assert len(agents) == 6 and len(planners) == 2  # planners ignore noise: no repeats
    assert {(s.spec["robot"].get("noise"), s.spec["robot"].get("odometry_noise"))
            for s in agents} == {(n, o) for n in (None, "gaussian:0.01",
                                                  "dropout:0.05+gaussian:0.01")
                                 for o in (None, "gaussian:0.02+drift:0.01")}
    assert all("noise" not in s.spec["robot"] for s in planners)


def test_no_noise_keeps_the_ids_of_sweeps_without_noise_keys():
    plain = sweep()
    explicit = sweep({"noise": "none", "odometry_noise": "none"})
    zero = sweep({"odometry_noise": "gaussian:0"})
    assert [s.id for s in plain.scenarios] == [s.id for s in explicit.scenarios] \
        == [s.id for s in zero.scenarios]
    assert set(plain.scenarios[0].spec["robot"]) == set(DEFAULTS["robot"])


def test_specs_are_canonical_so_equal_noise_shares_one_id():
    a = sweep({"noise": "mixture:z_hit=0.85"}).scenarios[0]   # 0.85 is the default
    b = sweep({"noise": "mixture"}).scenarios[0]
    assert a.id == b.id and a.spec["robot"]["noise"] == "mixture"


@pytest.mark.parametrize("key, value, expected", [
    ("noise", "gauss:0.1", "robot.noise: expected a valid noise spec"),
    ("noise", 0.1, "robot.noise: expected a noise spec string"),
    ("odometry_noise", "drift:abc", "robot.odometry_noise: expected a valid odometry noise"),
    ("odometry_noise", ["none", "gaussian:-1"], "robot.odometry_noise[1]"),
])
def test_bad_noise_values_name_the_key(tmp_path, key, value, expected):
    with pytest.raises(ScenarioError, match=expected.replace("[", r"\[").replace("]", r"\]")):
        sweep({key: value})


def test_toml_noise_axes_and_rows(tmp_path):
    p = tmp_path / "noisy.toml"
    p.write_text('seed = 4\n[maze]\ngenerator = "kruskal"\nrows = 3\ncols = 3\n'
                 '[widen]\ncorridor = 5\nresolution = 0.1\n'
                 '[robot]\nfootprint = "disc:0.1"\nnoise = ["none", "gaussian:0.03"]\n'
                 'odometry_noise = ["none", "drift:0.2"]\n[run]\nagent = "wall_follow"\n'
                 'max_steps = 3000\n')
    rows = {(r["noise"], r["odometry_noise"]): r
            for r in map(run_scenario, load_sweep(p).scenarios)}
    assert set(rows) == {("none", "none"), ("gaussian:0.03", "none"), ("none", "drift:0.2"),
                         ("gaussian:0.03", "drift:0.2")}
    clean = rows[("none", "none")]
    assert "odometry_error" not in clean["metrics"]
    assert rows[("none", "drift:0.2")]["metrics"]["odometry_error"] > 0.05
    # sensor noise reaches the agent: the wall follower's run changes
    # (here it loses the wall and circles: without the loop check it runs to
    # max_steps, with it the run ends as "no path", while the clean run arrives)
    noisy = rows[("gaussian:0.03", "none")]
    assert clean["metrics"]["success"] and noisy["metrics"] != clean["metrics"]
    # and is deterministic: the same scenario gives the same metrics
    again = run_scenario(load_sweep(p).scenarios[1])
    assert again["metrics"] == rows[(again["noise"], again["odometry_noise"])]["metrics"]


def test_simulate_cli_noise_flags(capsys):
    rc = main(["simulate", "kruskal", "3x3", "--seed", "4", "--footprint", "disc:0.1",
               "--agent", "wall_follow", "--noise", "gaussian:0.01+dropout:0.05",
               "--odometry-noise", "gaussian:0.02"])
    out = capsys.readouterr().out
    assert rc in (0, 1) and "odometry_error=" in out


@pytest.mark.parametrize("argv, match", [
    (["--noise", "gauss:1"], "--noise: noise must be"),
    (["--odometry-noise", "drift:x"], "--odometry-noise: odometry noise 'drift:x'"),
])
def test_simulate_cli_bad_noise_is_one_line(argv, match, capsys):
    rc = main(["simulate", "prim", "3x3", "--seed", "1"] + argv)
    err = capsys.readouterr().err
    assert rc == 2 and match in err and len(err.strip().splitlines()) == 1
