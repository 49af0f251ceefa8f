"""A command's first run compiles its stages on every core (robomaze.cli._stages).

Each case runs a command in a fresh process with an empty numba cache and
records numba's ``numba:compile`` events in the command's own process. The
stage tasks must compile every kernel the command then calls (nothing is
compiled after :func:`robomaze.cli._stages.prepare` returns), a helper
process must take a share when there are two cores, and the output must be
that of a run whose kernels all come from the cache. Counts only, no timing.
"""

import json
import os
import re
import subprocess
import sys

import pytest

import robomaze
from robomaze import _claims

PROBE = r"""
import json, sys
from numba.core import event as ev
names = []
class Listener(ev.Listener):
    def on_start(self, event):
        f = getattr((event.data or {}).get("dispatcher"), "py_func", None)
        names.append(f"{getattr(f, '__module__', '?')}.{getattr(f, '__qualname__', '?')}")
    def on_end(self, event):
        pass
ev.register("numba:compile", Listener())
from robomaze.cli import _stages, main
marks = []
real = _stages.prepare
def prepare(spec):
    real(spec)
    marks.append(len(names))
_stages.prepare = prepare
rc = main(sys.argv[2:])
stats = {k: v for k, v in _stages.STATS.items() if k != "log"}
with open(sys.argv[1], "w") as f:
    json.dump({"rc": rc, "names": names, "after_prepare": marks, "stats": stats}, f)
"""


def _run(tmp_path, cache, processes, *argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(robomaze.__file__)))
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / cache), ROBOMAZE_COMPILE_NOTICE="0",
               ROBOMAZE_WARM_PROCESSES=str(processes),
               PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("NUMBA_CACHE_LOCATOR_CLASSES", None)
    env.pop("NUMBA_DISABLE_JIT", None)
    out = tmp_path / "probe.json"
    proc = subprocess.run([sys.executable, "-c", PROBE, str(out), *argv], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=1200)
    rec = json.loads(out.read_text())
    rec["stdout"] = re.sub(r"time [0-9.]+ \S*s CPU", "time (CPU)", proc.stdout)  # measured
    return rec


@pytest.mark.parametrize("argv", [
    ["plan", "kruskal", "5x5", "--seed", "2", "--method", "collision_free",
     "--footprint", "rect:0.3x0.2"],
    ["plan", "wilson", "5x5", "--seed", "2", "--method", "theta_star", "--smooth"],
    ["simulate", "prim", "4x4", "--seed", "3", "--agent", "explore"],
    ["plan", "pkg:micromouse/tiny-4x4.txt", "--method", "wavefront", "--corridor", "2"],
    ["simulate", "backtracker", "4x4", "--seed", "3", "--agent", "wall_follow",
     "--footprint", "rect:0.12x0.08"],
])
def test_the_stage_tasks_compile_every_kernel_the_command_calls(tmp_path, argv):
    rec = _run(tmp_path, "cache", 1, *argv)
    assert rec["rc"] in (0, 1)
    assert len(rec["names"]) > 10
    # the first command compiles its first kernel inside prepare and none after it
    assert rec["after_prepare"] == [len(rec["names"])], rec["names"][rec["after_prepare"][0]:]
    again = _run(tmp_path, "cache", 1, *argv)
    assert again["names"] == [] and again["stdout"] == rec["stdout"]


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one core: no helper starts")
def test_a_helper_takes_a_share_and_the_output_is_unchanged(tmp_path):
    argv = ["plan", "kruskal", "4x4", "--seed", "1", "--method", "dijkstra"]
    one = _run(tmp_path, "one", 1, *argv)
    two = _run(tmp_path, "two", 2, *argv)
    assert one["stats"]["processes"] == 1 and one["stats"]["compiled_helpers"] == 0
    assert two["stats"]["processes"] == 2
    assert two["stats"]["compiled_helpers"] > 0
    # the helper's kernels were loaded from the cache, not compiled again
    assert two["after_prepare"] == [len(two["names"])]
    assert len(two["names"]) < len(one["names"])
    assert two["stdout"] == one["stdout"]
    # and every kernel is in the cache: a third run compiles nothing
    three = _run(tmp_path, "two", 2, *argv)
    assert three["names"] == [] and three["stats"]["processes"] == 1


def test_claims_share_a_task_list_once(tmp_path):
    folder = str(tmp_path)
    ran = []
    _claims.work(["a", "b", "c"], ran.append, folder, lambda: False, True, 10.0)
    assert ran == ["a", "b", "c"]
    assert all(_claims.done(folder, t) for t in "abc")
    # a second process finds every task taken and runs none
    ran2 = []
    _claims.work(["a", "b", "c"], ran2.append, folder, lambda: True, False, 10.0)
    assert ran2 == []


def test_a_helper_waits_for_what_a_task_needs(tmp_path):
    folder = str(tmp_path)
    _claims.claim(folder, "common")       # running elsewhere
    ran = []
    # a helper (server=False) whose others died stops rather than wait forever
    _claims.work(["common", "plan"], ran.append, folder, lambda: False, False, 10.0,
                 needs=lambda t: ("common",) if t == "plan" else ())
    assert ran == []
    # the server takes what is left once nobody else can
    _claims.work(["common", "plan"], ran.append, folder, lambda: False, True, 10.0,
                 needs=lambda t: ("common",) if t == "plan" else ())
    assert ran == ["plan"]
