"""robomaze.registry: specs, typed options, and every registry read from them."""

import json

import numpy as np
import pytest

from robomaze import registry
from robomaze.cli import main
from robomaze.errors import ParameterError, UnknownNameError
from robomaze.registry import ANY, SEED, Option, Registry, Spec, Warmup, check_options


def cli(argv, capsys):
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


# ------------------------------------------------------------------ Option
@pytest.mark.parametrize("opt, value, expected", [
    (Option("n", int, 3, low=1), "7", 7),
    (Option("n", int, 3, low=1), 4.0, 4),
    (Option("x", float, 1.0), 2, 2),               # an int stays an int
    (Option("x", float, 1.0), "2.5", 2.5),
    (Option("x", float, None), "none", None),
    (Option("b", bool, False), 1, True),
    (Option("b", bool, True), "no", False),
    (Option("b", bool, True), np.bool_(False), False),
    (Option("s", str, "a", choices=("a", "b")), "b", "b"),
    (Option("seed", SEED, None), "12", 12),
    (Option("any", ANY, None), object, object),
])
def test_option_cast_accepts_and_casts(opt, value, expected):
    assert opt.cast(value) == expected
    assert type(opt.cast(value)) is type(expected)


@pytest.mark.parametrize("opt, value", [
    (Option("n", int, 3, low=1), 0),
    (Option("n", int, 3, low=1), 2.5),
    (Option("n", int, 3), True),                   # a bool is no count
    (Option("x", float, 1.0, high=2.0), 3),
    (Option("x", float, 1.0), "abc"),
    (Option("x", float, 1.0), float("nan")),
    (Option("x", float, 1.0), None),               # not nullable: its default is a number
    (Option("b", bool, False), 2),
    (Option("b", bool, False), "maybe"),
    (Option("s", str, "a", choices=("a", "b")), "c"),
    (Option("s", str, "a"), 3),
    (Option("seed", SEED, None), -1),
])
def test_option_cast_refuses(opt, value):
    with pytest.raises(ValueError):
        opt.cast(value)


def test_option_declaration_is_checked():
    with pytest.raises(ParameterError, match="identifier"):
        Option("two words", int)
    with pytest.raises(ParameterError, match="type must be one of"):
        Option("x", list)
    with pytest.raises(ParameterError, match="declares an option twice"):
        Spec("planner", "p", "math:sqrt", options=(Option("a", int, 1), Option("a", int, 2)))
    with pytest.raises(ParameterError, match="'module:attr'"):
        Spec("planner", "p", "no_colon")
    with pytest.raises(ParameterError, match="flags must be a collection of strings"):
        Spec("agent", "a", "m:f", flags="uses_map")
    with pytest.raises(ParameterError, match="options must be Option declarations"):
        Spec("agent", "a", "m:f", options=("speed",))


# ------------------------------------------------------------------ Spec and Registry
def test_spec_entry_is_loaded_lazily_and_once():
    spec = Spec("thing", "sqrt", "math:sqrt", "square root")
    assert not spec.loaded
    fn = spec.load()
    assert spec.loaded and fn(16.0) == 4.0 and spec.load() is fn


def test_registry_holds_specs_and_reads_as_entries():
    reg = Registry("widget", None)
    reg.register(Spec("widget", "w", "math:floor", "floor",
                      options=(Option("k", int, 1, "a count", low=0),), flags={"fast"}))
    assert reg["w"](2.7) == 2 and "w" in reg and len(reg) == 1
    assert reg.spec("w").flag("fast") and not reg.spec("w").flag("slow")
    assert reg.check("w", {"k": "3"}) == {"k": 3}
    with pytest.raises(UnknownNameError, match="unknown widget 'x'"):
        reg.spec("x")
    with pytest.raises(ParameterError, match="already registered"):
        reg.register(Spec("widget", "w", "math:ceil"))
    with pytest.raises(ParameterError, match="names must agree"):
        reg["v"] = Spec("widget", "w", "math:ceil")


def test_a_bare_callable_still_registers_with_options_from_its_signature():
    reg = Registry("planner", None, runner_args=registry.RUNNER_ARGS)

    def mine(grid, start, goal, *, footprint=None, connectivity=4, rng=None, weight=1.0):
        """Mine."""

    reg["mine"] = mine
    spec = reg.spec("mine")
    assert spec.option_names == ["weight"] and spec.takes_rng and spec.description == "Mine."
    with pytest.raises(ParameterError, match="takes no option 'wieght'; did you mean 'weight'"):
        reg.check("mine", {"wieght": 2})


def test_builtin_specs_declare_what_the_functions_take():
    """Every declared option is a parameter of the loaded entry (or of the
    class an agent factory builds): a spec cannot drift from its function."""
    import inspect
    import typing

    for kind in ("planner", "generator", "agent", "sensor", "mouse", "mapf"):
        for spec in registry.get(kind).specs():
            if spec.validate or spec.name.startswith("ompl:"):
                continue
            fn = spec.load()
            params = dict(inspect.signature(fn).parameters)
            # wrappers passing their options on: floodfill with prove="time", LaCAM*
            # with anytime=False
            inner = {("mouse", "floodfill_time"): "floodfill", ("mapf", "lacam"): "lacam_star"}
            if (kind, spec.name) in inner:
                params = dict(inspect.signature(
                    registry.get(kind)[inner[kind, spec.name]]).parameters)
            if kind == "agent":
                params.update(inspect.signature(typing.get_type_hints(fn)["return"]).parameters)
            for opt in spec.options:
                assert opt.name in params, (kind, spec.name, opt.name)
                default = params[opt.name].default
                assert default is inspect.Parameter.empty or default == opt.default, \
                    (kind, spec.name, opt.name, default, opt.default)
            assert spec.takes_rng == ("rng" in params or "seed" in params), (kind, spec.name)


def test_flags_replace_the_function_attributes():
    assert registry.AGENTS.spec("follow_plan").flag("uses_map")
    assert registry.AGENTS.spec("explore").flag("explorer")
    assert not registry.AGENTS.spec("wall_follow").flags
    for name in registry.AGENTS:
        assert not hasattr(registry.AGENTS[name], "uses_map")


def test_warmup_is_declared_per_method():
    spec = registry.PLANNERS.spec("max_clearance")
    assert spec.warmup == Warmup(cost=0.1, needs=("common", "heap", "plan:theta_star"), alone=1.8)
    assert registry.PLANNERS.spec("pledge").warmup.task == "classic"
    assert registry.PLANNERS.spec("ompl:rrtstar").warmup is None


# ------------------------------------------------------------------ one line, every registry
def _first_with_options(kind):
    return next(s for s in registry.get(kind).specs()
                if any(o.type not in (ANY, str) or o.choices for o in s.options))


@pytest.mark.parametrize("kind", ["planner", "generator", "agent", "sensor", "mouse", "mapf",
                                  "format"])
def test_mistyped_name_or_wrong_type_is_one_line_in_every_registry(kind):
    spec = _first_with_options(kind)
    opt = next(o for o in spec.options if o.type not in (ANY, str) or o.choices)
    with pytest.raises(ParameterError) as exc:
        check_options(kind, spec.name, {opt.name + "x": 1})
    msg = str(exc.value)
    assert "\n" not in msg and f"takes no option '{opt.name}x'" in msg and opt.name in msg
    with pytest.raises(ParameterError) as exc:
        check_options(kind, spec.name, {opt.name: "not-a-value"})
    msg = str(exc.value)
    assert "\n" not in msg and f"option {opt.name}='not-a-value'" in msg
    assert "expected" in msg and spec.name in msg


def test_an_agent_hands_the_rest_to_its_planner():
    assert check_options("agent", "follow_plan", {"method": "max_clearance", "weight": "5"}) \
        == {"method": "max_clearance", "weight": 5.0}
    with pytest.raises(ParameterError, match="hands the rest to its planner: planner "
                                             "'max_clearance' takes no option 'wieght'"):
        check_options("agent", "follow_plan", {"wieght": 5})
    with pytest.raises(UnknownNameError, match="unknown planner 'astr'"):
        check_options("agent", "follow_plan", {"method": "astr"})


@pytest.mark.parametrize("argv, needle", [
    (["plan", "kruskal", "3x3", "--method", "astar",
      "--option", "wieght=2"], "takes no option 'wieght'"),
    (["plan", "kruskal", "3x3", "--method", "max_clearance",
      "--option", "weight=heavy"], "option weight='heavy': expected a number"),
    (["plan", "kruskal", "3x3", "--method", "wavefront",
      "--option", "fewest_bends=2"], "expected true/false"),
    (["simulate", "kruskal", "3x3", "--agent", "wall_follow",
      "--footprint", "disc:0.1", "--option", "side=up"], "expected one of 'right', 'left'"),
])
def test_cli_refuses_a_bad_option_in_one_line(argv, needle, capsys):
    code, out, err = cli(argv, capsys)
    assert code == 2 and needle in err and err.count("\n") == 1, err


def test_cli_casts_a_boolean_option(capsys, tmp_path):
    code, out, _ = cli(["plan", "kruskal", "4x4", "--seed", "1",
                        "--method", "wavefront", "--option", "fewest_bends=true", "--json"],
                       capsys)
    assert code == 0 and json.loads(out)["method"] == "wavefront"


def test_list_json_has_every_registry_with_typed_options(capsys):
    code, out, _ = cli(["list", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"generators", "planners", "agents", "sensors", "mouse_solvers",
                         "mapf_solvers", "formats", "mouse_profiles"}
    names = {k: {e["name"] for e in v} for k, v in data.items()}
    assert names["mapf_solvers"] == {"prioritized", "cbs", "ecbs", "pibt", "lacam",
                                     "lacam_star"}
    mc = next(e for e in data["planners"] if e["name"] == "max_clearance")
    assert mc["entry"] == "robomaze.plan.clearance_planner:max_clearance"
    assert mc["options"][0] == {"name": "weight", "type": "float", "default": 50.0,
                                "doc": "weight of the proximity cost", "nullable": False,
                                "low": 0.0, "high": 1e12}
    fp = next(e for e in data["agents"] if e["name"] == "follow_plan")
    assert fp["flags"] == ["uses_map"] and fp["hands_to"] == "method"


def test_sweep_checker_reads_the_specs(tmp_path):
    from robomaze.bench.scenario import ScenarioError, parse_sweep

    base = {"maze": {"generator": "kruskal", "rows": 3, "cols": 3},
            "robot": {"footprint": "disc:0.1"}}
    with pytest.raises(ScenarioError, match=r"run.options.max_clearance.weight: planner "
                                            r"'max_clearance' option weight='x'"):
        parse_sweep({**base, "run": {"planner": "max_clearance",
                                     "options": {"max_clearance": {"weight": "x"}}}})
    with pytest.raises(ScenarioError, match="takes no option 'orderr'"):
        parse_sweep({"maze": base["maze"],
                     "run": {"mapf": ["prioritized"], "agents": [4],
                             "options": {"prioritized": {"orderr": 1}}}})


def test_giving_back_the_loaded_entry_keeps_its_spec(monkeypatch):
    # monkeypatch.setitem's undo assigns the function it read: the declared
    # options and warm-up must survive it (a bare callable would lose them)
    before = registry.PLANNERS.spec("max_clearance")
    fn = registry.PLANNERS["max_clearance"]
    registry.PLANNERS["max_clearance"] = fn
    after = registry.PLANNERS.spec("max_clearance")
    assert after is before
    assert after.warmup == Warmup(cost=0.1, needs=("common", "heap", "plan:theta_star"), alone=1.8)
    registry.PLANNERS["max_clearance"] = lambda grid, start, goal: None
    assert registry.PLANNERS.spec("max_clearance").warmup is None
    registry.PLANNERS["max_clearance"] = before
    assert registry.PLANNERS.spec("max_clearance").options == before.options


# ------------------------------------------------------------------ plugins read lazily
@pytest.fixture
def counted_entry_points(monkeypatch):
    """importlib.metadata.entry_points counting its calls, offering one plugin."""
    import importlib.metadata as md

    calls = []

    def plugin(grid, start, goal):
        return None

    class EntryPoint:  # what the registry reads of one: its name, value and load()
        name, value = "plug", "a_plugin:plugin"

        def load(self):
            return plugin

    def fake(group):
        calls.append(group)
        return [EntryPoint()]

    monkeypatch.setattr(md, "entry_points", fake)
    return calls


def test_a_built_in_name_reads_no_plugin_metadata(counted_entry_points):
    def builtin(grid, start, goal):
        return None

    reg = Registry("thing", "robomaze.test_things", {"builtin": builtin})
    assert reg["builtin"] is builtin and "builtin" in reg and reg.spec("builtin").name == "builtin"
    assert counted_entry_points == []
    # a name no built-in has: the plugins are read, once
    assert "plug" in reg and reg["plug"].__name__ == "plugin"
    assert "nothing" not in reg
    assert counted_entry_points == ["robomaze.test_things"]


def test_iter_specs_reads_plugins_only_past_the_built_ins(counted_entry_points):
    def builtin(grid, start, goal):
        return None

    reg = Registry("thing", "robomaze.test_things", {"builtin": builtin})
    assert next(reg.iter_specs()).name == "builtin"
    assert counted_entry_points == []
    assert [s.name for s in reg.iter_specs()] == ["builtin", "plug"] == [s.name for s in reg.specs()]
    assert counted_entry_points == ["robomaze.test_things"]
