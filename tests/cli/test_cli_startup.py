"""The command starts without the heavy libraries: ``--version`` and ``--help``
import no numba, scipy or matplotlib, and a sub-command imports only itself.
Timings are measured in benchmarks/bench_coldstart.py, never asserted here."""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import robomaze
from robomaze.cli import COMMANDS, SUMMARIES, build_parser, command_of

ROOT = Path(robomaze.__file__).parents[1]
HEAVY = ("numba", "scipy", "matplotlib", "shapely")

PROBE = """
import json, sys
from robomaze.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
print(json.dumps({"code": code, "loaded": [m for m in %r if m in sys.modules],
                  "commands": sorted(m.rsplit(".", 1)[1] for m in sys.modules
                                     if m.startswith("robomaze.cli.") and not m.startswith("robomaze.cli._"))}))
""" % (HEAVY,)


def _probe(*argv):
    env = dict(os.environ, PYTHONPATH=str(ROOT), ROBOMAZE_COMPILE_NOTICE="0")
    out = subprocess.run([sys.executable, "-c", PROBE, *argv], env=env, capture_output=True,
                         text=True, timeout=300)
    return json.loads(out.stdout.strip().splitlines()[-1]), out


@pytest.mark.parametrize("flag", ["--version", "--help"])
def test_version_and_help_import_no_heavy_library(flag):
    got, out = _probe(flag)
    assert got["code"] == 0
    assert got["loaded"] == []
    assert got["commands"] == []  # no sub-command module imported
    if flag == "--version":
        assert out.stdout.startswith(f"robomaze {robomaze.__version__}")
    else:
        for name in COMMANDS:  # every command is listed, with its summary
            assert name in out.stdout
        assert "compile every numba kernel" in out.stdout


def test_a_sub_commands_help_imports_that_command_only():
    got, out = _probe("data", "--help")
    assert got["code"] == 0
    assert got["commands"] == ["data"]
    assert "usage: robomaze data" in out.stdout


def test_a_global_option_with_a_value_before_the_command():
    got, out = _probe("--max-cells", "1000", "data", "list")
    assert got["code"] == 0, out.stderr
    assert got["commands"] == ["data"]
    assert out.stdout.strip()  # the samples were listed


def test_summaries_are_the_commands_own_help_lines():
    parser = build_parser()  # imports every command
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    registered = {a.dest: a.help for a in sub._choices_actions}
    assert list(registered) == COMMANDS
    assert registered == SUMMARIES


def test_command_of_skips_the_global_options():
    assert command_of(["--max-cells", "9", "stats", "x.json"]) == "stats"
    assert command_of(["--other", "2G", "plan"], {"--other"}) == "plan"
    assert command_of(["-h"]) is None
    assert command_of([]) is None


def test_an_unknown_command_is_one_line_and_exit_2():
    got, out = _probe("nosuch")
    assert got["code"] == 2
    assert len(out.stderr.strip().splitlines()) == 1
    assert "invalid choice: 'nosuch'" in out.stderr


def test_warmup_leaves_nothing_to_compile():
    """After one ``robomaze warmup`` (in the user's cache, as in CI) a second compiles nothing.

    The first run compiles whatever the cache lacks (everything on a fresh
    machine, nothing after an earlier test run); the second must find every
    kernel the warm-up touches, so the cache really was written and keyed so
    a new process finds it.
    """
    env = dict(os.environ, PYTHONPATH=str(ROOT), ROBOMAZE_COMPILE_NOTICE="0")
    runs = []
    for _ in range(2):
        out = subprocess.run([sys.executable, "-m", "robomaze", "warmup", "--json"], env=env,
                             capture_output=True, text=True, timeout=3000)
        assert out.returncode == 0, out.stderr
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    assert runs[1]["compiled"] == 0
    assert runs[0]["tasks"] == runs[1]["tasks"] > 10  # planners, classic, agents, generators...


def test_a_command_that_reads_no_ros_map_imports_no_yaml():
    # PyYAML is the ROS map reader's, imported when a map's YAML is parsed
    # (~0.03 s of every command's start before round 14)
    code = ("import sys; from robomaze.cli import main; "
            "code = main(['mouse', 'route', 'pkg:micromouse/16MM2019CX.maze']); "
            "print(code, 'yaml' in sys.modules, 'numba' in sys.modules, "
            "'importlib.metadata' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    # nor importlib.metadata: plugins' entry points are read only when a name
    # is not a built-in or a file no built-in format recognises (round 15)
    assert out.stdout.split()[-4:] == ["0", "False", "False", "False"], out.stderr[-2000:]
    from robomaze.io.rosmap import parse_map_yaml

    assert parse_map_yaml("image: m.pgm\nnegate: 1\n")["negate"][0] == 1
