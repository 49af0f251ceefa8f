"""Registries: register/unregister, lazy entry points, suggestions, contract checks."""

import os
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from robomaze import Maze, OccupancyGrid, widen
from robomaze.errors import ContractError, ParameterError, UnknownNameError
from robomaze.generate import GENERATORS, generate
from robomaze.generate import register as register_generator
from robomaze.generate import unregister as unregister_generator
from robomaze.plan import PLANNERS, astar, make_path, plan, register, unregister
from robomaze.sim import AGENTS
from robomaze.testing import check_agent, check_planner
from robomaze.sim.agents import follow_plan
from robomaze.sim.agents import register as register_agent
from robomaze.sim.agents import unregister as unregister_agent


def test_register_unregister_and_decorator():
    def mine(grid, start, goal, *, footprint=None, connectivity=4):
        return astar(grid, start, goal, footprint=footprint)

    assert register("t_mine", mine) is mine
    try:
        g = widen(Maze.empty(2, 2), corridor=3)
        assert plan(g, None, None, method="t_mine").length == astar(g, None, None).length
        with pytest.raises(ParameterError, match="already registered"):
            register("t_mine", astar)
        register("t_mine", astar, replace=True)
        assert PLANNERS["t_mine"] is astar
    finally:
        assert unregister("t_mine") is astar
    assert "t_mine" not in PLANNERS
    with pytest.raises(UnknownNameError, match="t_mine"):
        unregister("t_mine")


@pytest.mark.parametrize("bad, match", [("", "non-empty"), (3, "non-empty")])
def test_register_rejects_bad_names(bad, match):
    with pytest.raises(ParameterError, match=match):
        register(bad, astar)
    with pytest.raises(ParameterError, match="callable"):
        register("t_x", 42)


def test_generator_and_agent_registries():
    @register_generator("t_empty")
    def t_empty(rows, cols, *, rng=None):
        return Maze.empty(rows, cols)

    try:
        assert generate("t_empty", 3, 4).rows == 3
    finally:
        unregister_generator("t_empty")
    assert "t_empty" not in GENERATORS
    register_agent("t_follow", follow_plan)
    try:
        assert AGENTS.lookup("t_follow") is follow_plan
    finally:
        unregister_agent("t_follow")


@pytest.mark.parametrize("registry, name, want", [
    (PLANNERS, "a_star", "'astar'"), (GENERATORS, "krusk", "'kruskal'"),
    (AGENTS, "wallfollow", "'wall_follow'")])
def test_unknown_names_suggest_close_ones(registry, name, want):
    with pytest.raises(UnknownNameError, match=f"did you mean {want}"):
        registry.lookup(name)


def test_entry_points_load_on_first_lookup(tmp_path):
    (tmp_path / "t_plugin.py").write_text(textwrap.dedent("""
        from robomaze.plan import astar
        def plug(grid, start, goal, *, footprint=None, connectivity=4, **o):
            return astar(grid, start, goal, footprint=footprint)
        def broken(*a, **k):
            pass
        """))
    info = tmp_path / "t_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: t-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[robomaze.planners]\nt_plug = t_plugin:plug\nt_gone = t_plugin_missing:x\n")
    code = textwrap.dedent("""
        import sys, warnings
        import robomaze.plan as P
        assert "t_plugin" not in sys.modules        # nothing loaded at import
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            ok = "t_plug" in P.PLANNERS
        assert ok and "t_plugin" in sys.modules
        assert "t_gone" not in P.PLANNERS
        assert any("t_gone" in str(x.message) for x in w), [str(x.message) for x in w]
        from robomaze.testing import check_planner
        print(check_planner(P.PLANNERS["t_plug"]))
        """)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), *sys.path]))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    assert "4 checks passed" in out.stdout


def test_check_planner_reports_what_is_wrong():
    def backwards(grid, start, goal, *, footprint=None, connectivity=4):
        p = astar(grid, start, goal, footprint=footprint)
        return make_path(grid, p.cells[::-1], footprint=footprint)

    def never(grid, start, goal, *, footprint=None, connectivity=4):
        raise RuntimeError("boom")

    with pytest.raises(ContractError, match=r"path runs .* expected"):
        check_planner(backwards)
    with pytest.raises(ContractError, match="raised RuntimeError: boom"):
        check_planner(never)


def test_check_agent_catches_a_nondeterministic_agent():
    counter = iter(range(10**6))

    def jittery(ctx, **options):
        def act(obs):
            return (0.2, 0.5 if next(counter) % 7 == 0 else -0.5)
        return act

    with pytest.raises(ContractError, match="same seed"):
        check_agent(jittery, max_steps=50)
    assert "t" not in AGENTS and not any(k.startswith("__check") for k in AGENTS)


# ------------------------------------------------ options checked by plan()
@pytest.mark.parametrize("method, options, named", [
    ("astar", {"bogus": 1}, "'bogus'"),
    ("theta_star", {"heuristic": "manhattan"}, "'heuristic'"),
    ("ompl:rrt_connect", {"max_check": 10}, "did you mean 'max_checks'"),
    ("ompl:rrtstar", {"max_checks": -5}, "max_checks=-5"),
])
def test_plan_refuses_an_option_the_planner_does_not_take(method, options, named):
    """A mistyped option is one ParameterError naming it (the library call answers
    as the CLI and sweeps do, not with a TypeError from inside the planner)."""
    grid = OccupancyGrid(np.zeros((4, 4), bool))
    with pytest.raises(ParameterError, match=re.escape(named)):
        plan(grid, (0, 0), (3, 3), method=method, **options)


def test_plan_passes_options_the_planner_takes():
    grid = OccupancyGrid(np.zeros((1, 6), bool))
    p = plan(grid, (0, 0), (0, 5), method="wall_follower", hand="left")
    assert p.length == 5.0
