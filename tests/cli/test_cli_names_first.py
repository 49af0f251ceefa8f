"""Everything typed is checked before work starts (issue 26, item 6).

A mistyped planner, agent, sensor or mouse name or option is one line and
exit 2, *before* the maze is generated and before any kernel is compiled or
loaded. Run in a fresh interpreter, which then reports what it imported and
compiled: no generator module (no maze was built) and no numba dispatcher
with a signature (nothing compiled, nothing loaded from the cache).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
from robomaze.cli import main
rc = main(sys.argv[1:])
compiled = [f"{name}.{v.__name__}" for name, mod in list(sys.modules.items())
            if name.startswith("robomaze")
            for v in list(vars(mod).values())
            if type(v).__name__ in ("CPUDispatcher", "Dispatcher") and v.signatures]
print(json.dumps({"rc": rc, "compiled": compiled,
                  "generate": sorted(m for m in sys.modules if m.startswith("robomaze.generate"))}))
"""


def _probe(*argv):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", PROBE, *argv], env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1]), out.stderr.strip()


@pytest.mark.parametrize("argv, message", [
    (["plan", "kruskal", "20x20", "--seed", "1", "--method", "astr"],
     "unknown planner 'astr'; expected one of: astar, "),
    (["plan", "kruskal", "20x20", "--seed", "1", "--method", "ompl:prmstar",
      "--option", "max_check=10"],
     "unknown option 'max_check' for ompl:prmstar (did you mean 'max_checks'?); "
     "accepted: goal_heading, max_checks, "),
    (["plan", "kruskal", "20x20", "--seed", "1", "--method", "max_clearance",
      "--option", "wieght=2"],
     "planner 'max_clearance' takes no option 'wieght'; did you mean 'weight'?"),
    (["simulate", "kruskal", "5x5", "--seed", "1", "--footprint", "disc:0.1",
      "--agent", "explor"],
     "unknown agent 'explor'; expected one of: car_pursuit, explore, "),
    (["simulate", "kruskal", "5x5", "--seed", "1", "--footprint", "disc:0.1",
      "--sensor", "lidr"],
     "unknown sensor 'lidr'; expected one of: ir, lidar, lidar_long"),
    (["simulate", "kruskal", "5x5", "--seed", "1", "--footprint", "disc:0.1",
      "--agent", "explore", "--option", "margn=0.1"],
     "agent 'explore' takes no option 'margn'; did you mean 'margin'? its options are: "
     "margin, speed, lookahead"),
    (["simulate", "kruskal", "5x5", "--seed", "1", "--footprint", "disc:0.1",
      "--agent", "follow_plan", "--option", "method=astr"],
     "unknown planner 'astr'"),
    (["simulate", "kruskal", "5x5", "--seed", "1", "--footprint", "disc:0.1",
      "--agent", "follow_plan", "--option", "method=max_clearance", "--option", "wieght=1"],
     "hands the rest to its planner: planner 'max_clearance' takes no option 'wieght'"),
    # the first run's stage tasks (robomaze.cli._stages) compile before the maze
    # is built: the placement is checked before them
    (["simulate", "kruskal", "5x5", "--seed", "1", "--footprint", "disc:0.1",
      "--placement", "nowhere"],
     "--placement must be one of "),
])
def test_a_typo_is_refused_before_the_maze_is_built_or_anything_compiles(argv, message):
    report, err = _probe(*argv)
    assert report["rc"] == 2
    assert len(err.splitlines()) == 1 and message in err, err
    assert report["generate"] == [], "the maze was generated before the check"
    assert report["compiled"] == [], "a kernel compiled before the check"


@pytest.mark.parametrize("command", ["plan", "simulate"])
def test_an_unknown_generator_is_refused_before_anything_compiles(command):
    # knowing the names imports the generators' registry; nothing is compiled
    # (the first run's stage tasks would compile the planner or the agent)
    report, err = _probe(command, "krusal", "5x5", "--seed", "1", "--footprint", "disc:0.1")
    assert report["rc"] == 2
    assert len(err.splitlines()) == 1, err
    assert "unknown generator 'krusal'; expected one of: " in err
    assert "did you mean 'kruskal'?" in err
    assert report["compiled"] == [], "a kernel compiled before the check"


def test_the_probe_sees_a_generated_maze_and_a_compiled_kernel():
    # The same probe on a correct command: it must see both, or the test above
    # would pass for a probe that sees nothing.
    report, err = _probe("plan", "kruskal", "4x4", "--seed", "1", "--method", "astar")
    assert report["rc"] == 0, err
    assert "robomaze.generate" in report["generate"] and report["compiled"]
