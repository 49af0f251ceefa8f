"""Sweep files: validation errors before any run, expansion, stable ids."""

from __future__ import annotations

import filecmp
from pathlib import Path

import pytest

from robomaze.bench import load_sweep, parse_sweep, scenario_id
from robomaze.errors import ScenarioError

ROOT = Path(__file__).resolve().parents[2]

GOOD = """
name = "t"
seed = [1, 2]
[maze]
generator = "kruskal"
rows = 4
cols = 4
[widen]
corridor = [1, 3]
resolution = 0.1
[robot]
footprint = ["disc:0.04", {shape = "rectangle", length = 0.3, width = 0.2}]
[run]
planner = ["astar", "wavefront"]
"""


def write(tmp_path, text, name="s.toml"):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_expansion_is_the_product_and_ids_are_stable(tmp_path):
    sweep = load_sweep(write(tmp_path, GOOD))
    assert len(sweep.scenarios) == 2 * 2 * 2 * 2
    assert len({sc.id for sc in sweep.scenarios}) == 16
    again = load_sweep(write(tmp_path, GOOD, "other.toml"))
    assert [sc.id for sc in sweep.scenarios] == [sc.id for sc in again.scenarios]
    sc = sweep.scenarios[0]
    assert sc.id == scenario_id(sc.spec)
    assert sc.spec["robot"]["footprint"] == {"shape": "disc", "radius": 0.04}
    assert {s.footprint for s in sweep.scenarios} == {"disc:0.04", "rect:0.3x0.2"}
    # changing any value changes the id
    changed = load_sweep(write(tmp_path, GOOD.replace("rows = 4", "rows = 5"), "c.toml"))
    assert not {s.id for s in changed.scenarios} & {s.id for s in sweep.scenarios}


def test_planner_and_agent_lists_are_joined_not_multiplied(tmp_path):
    text = GOOD.replace('planner = ["astar", "wavefront"]',
                        'planner = ["astar"]\nagent = ["wall_follow"]')
    sweep = load_sweep(write(tmp_path, text))
    kinds = sorted({(s.kind, s.method) for s in sweep.scenarios})
    assert kinds == [("plan", "astar"), ("simulate", "wall_follow")]
    assert len(sweep.scenarios) == 2 * 2 * 2 * 2


@pytest.mark.parametrize("old,new,where,expected", [
    ("rows = 4", "rows = 4\ncolour = 3", "maze.colour", "one of the keys"),
    ("rows = 4", 'rows = "four"', "maze.rows", "an integer >= 1"),
    ("corridor = [1, 3]", "corridor = [1, 0]", "widen.corridor[1]", "an integer >= 1"),
    ("corridor = [1, 3]", "corridor = 0", "widen.corridor", "an integer >= 1"),
    ('"disc:0.04"', '"disc:-0.1"', "robot.footprint[0]", "sizes are numbers > 0"),
    ('"disc:0.04"', '{shape = "disc", radius = 0}', "robot.footprint[0]", "> 0"),
    ("width = 0.2", "width = -0.2", "robot.footprint[1]", "> 0"),
    ("resolution = 0.1", "resolution = 0", "widen.resolution", "a number > 0"),
    ('name = "t"', 'name = "t"\nspeed = 3', "speed", "one of the keys"),
    ("[run]", "[run]\nconnectivity = 6", "run.connectivity", "one of 4, 8"),
])
def test_bad_values_name_file_key_value_and_expectation(tmp_path, old, new, where, expected):
    p = write(tmp_path, GOOD.replace(old, new, 1))
    with pytest.raises(ScenarioError) as err:
        load_sweep(p)
    msg = str(err.value)
    assert str(p) in msg and where in msg and expected in msg, msg


def test_unknown_planner_lists_the_valid_ones(tmp_path):
    p = write(tmp_path, GOOD.replace('"wavefront"', '"warp_drive"'))
    with pytest.raises(ScenarioError, match=r"run\.planner: unknown planner 'warp_drive'.*astar"):
        load_sweep(p)


def test_unknown_generator_and_missing_parts(tmp_path):
    with pytest.raises(ScenarioError, match="unknown generator 'labyrinth'"):
        load_sweep(write(tmp_path, GOOD.replace('"kruskal"', '"labyrinth"')))
    with pytest.raises(ScenarioError, match="robot.footprint"):
        load_sweep(write(tmp_path, GOOD.replace("[robot]\nfootprint", "[robot]\nsensor = 'ir'\n#")))
    with pytest.raises(ScenarioError, match="run.planner and/or run.agent"):
        load_sweep(write(tmp_path, GOOD.replace('planner = ["astar", "wavefront"]', "")))
    with pytest.raises(ScenarioError, match="exactly one of maze.generator"):
        load_sweep(write(tmp_path, GOOD.replace('generator = "kruskal"', 'generator = "kruskal"\nfile = "x.maze"')))


def test_unknown_sensor_is_caught_when_agents_run(tmp_path):
    text = GOOD.replace('planner = ["astar", "wavefront"]', 'agent = "explore"')
    text = text.replace("[robot]", '[robot]\nsensor = "sonar"')
    with pytest.raises(ScenarioError, match="robot.sensor: unknown sensor 'sonar'; expected one of: ir, lidar"):
        load_sweep(write(tmp_path, text))


def test_not_toml_and_missing_file(tmp_path):
    with pytest.raises(ScenarioError, match="not valid TOML"):
        load_sweep(write(tmp_path, "[maze\nrows = 3"))
    with pytest.raises(ScenarioError, match="no such sweep file"):
        load_sweep(tmp_path / "nope.toml")


def test_shipped_sweeps_load_and_the_embedded_default_is_identical():
    from robomaze.bench import default_sweep_path

    # the repository's scenarios/ is the package's folder, not a second copy
    assert filecmp.cmp(ROOT / "scenarios" / "default.toml", default_sweep_path(), shallow=False)
    assert (ROOT / "scenarios").resolve() == default_sweep_path().parent
    for name in ("default.toml", "ci.toml", "micromouse.toml"):
        sweep = load_sweep(ROOT / "scenarios" / name)
        assert sweep.scenarios, name
    default = load_sweep(ROOT / "scenarios" / "default.toml")
    assert sorted({s.spec["widen"]["corridor"] for s in default.scenarios}) == [1, 3, 5, 7, 9]
    assert len({s.footprint for s in default.scenarios}) == 3
    from robomaze.plan import PLANNERS
    # every built-in planner and agent (tests elsewhere may register extra ones in this process)
    builtin = {"wavefront", "dijkstra", "astar", "collision_free", "max_clearance", "theta_star",
               "wall_follower", "pledge", "tremaux", "dfs_backtracking", "dead_end_filling",
               "random_mouse"}
    assert builtin <= set(PLANNERS)
    assert {s.method for s in default.scenarios if s.kind == "plan"} == builtin
    from robomaze.sim import AGENTS
    agents = {"wall_follow", "follow_plan", "explore", "tremaux"}
    assert agents <= set(AGENTS)
    assert {s.method for s in default.scenarios if s.kind == "simulate"} == agents
    for p in sorted((ROOT / "scenarios" / "examples").glob("*.toml")):
        assert len(load_sweep(p).scenarios) == 1, p


def test_expansion_size_and_unique_stable_ids_property():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    ints = st.lists(st.integers(1, 9), min_size=1, max_size=3, unique=True)

    @settings(deadline=None, max_examples=30)
    @given(ints, ints, st.lists(st.sampled_from(["astar", "wavefront", "dijkstra"]),
                                min_size=1, max_size=3, unique=True),
           st.lists(st.floats(0.01, 1.0), min_size=1, max_size=2, unique=True))
    def check(corridors, seeds, planners, radii):
        data = {"seed": seeds, "maze": {"generator": "prim", "rows": 3, "cols": 3},
                "widen": {"corridor": corridors},
                "robot": {"footprint": [{"shape": "disc", "radius": r} for r in radii]},
                "run": {"planner": planners}}
        a = parse_sweep(data, check_names=False).scenarios
        assert len(a) == len(corridors) * len(seeds) * len(planners) * len(radii)
        assert len({s.id for s in a}) == len(a)
        b = parse_sweep(data, check_names=False).scenarios
        assert [s.id for s in a] == [s.id for s in b]
        assert {(s.spec["widen"]["corridor"], s.spec["seed"], s.method) for s in a} == {
            (c, sd, p) for c in corridors for sd in seeds for p in planners}

    check()
