"""A command's first run compiles its stages on every core (robomaze.cli._stages).

Each case runs a command in a fresh process with an empty numba cache and
records numba's ``numba:compile`` events in the command's own process. The
stage tasks must compile every kernel the command then calls (nothing is
compiled after :func:`robomaze.cli._stages.prepare` returns), a helper
process must take a share when there are two cores, and the output must be
that of a run whose kernels all come from the cache. Counts only, no timing.
On a first run the helper is a fork of the command (:func:`robomaze._claims.fork`);
with a partly warm cache an interpreter started at the first cache miss.
"""

import json
import os
import re
import subprocess
import sys

import pytest

import robomaze
from robomaze import _claims
from robomaze.cli import _stages

PROBE = r"""
import json, sys
from numba.core import event as ev
names = []
class Listener(ev.Listener):
    def on_start(self, event):
        f = getattr((event.data or {}).get("dispatcher"), "py_func", None)
        names.append(f"{getattr(f, '__module__', '?')}.{getattr(f, '__qualname__', '?')}")
    def on_end(self, event):
        return  # only starts are counted
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
    # an open grid: the field calls the engine's wave, which the 3x3 task maze may not
    ["plan", "kruskal", "6x6", "--seed", "2", "--method", "wavefront", "--corridor", "5"],
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


def _fake_cached(cache_dir, *files):
    """Mark ``files`` as having a cached kernel in ``cache_dir`` (an index file no
    kernel of theirs is named after: numba never opens it)."""
    from numba.core import config

    from robomaze import _jit_cache

    saved = config.CACHE_DIR
    config.CACHE_DIR = str(cache_dir)
    try:
        for rel in files:
            folder = _jit_cache.cache_folder(os.path.join(_jit_cache.PACKAGE_DIR, rel))
            os.makedirs(folder, exist_ok=True)
            open(os.path.join(folder, "probe-0.py0.nbi"), "w").close()
    finally:
        config.CACHE_DIR = saved


def test_cold_means_no_kernel_of_any_probe_file(tmp_path, monkeypatch):
    from numba.core import config

    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("NUMBA_CACHE_LOCATOR_CLASSES", raising=False)
    files = ["sim/_kernels.py", "sense/_kernels.py"]
    assert _claims.cold(files)
    _fake_cached(tmp_path, "sense/_kernels.py")
    assert not _claims.cold(files)              # one of them cached: not a first run
    assert _claims.cold(["sim/_kernels.py"])
    assert not _claims.cold([])
    monkeypatch.setenv("NUMBA_CACHE_LOCATOR_CLASSES", "x")
    assert not _claims.cold(["sim/_kernels.py"])   # numba's own folders: cannot tell


@pytest.mark.skipif(not hasattr(os, "fork") or not sys.platform.startswith("linux"),
                    reason="helpers are forked on Linux only")
def test_a_forked_helper_runs_then_exits_and_can_be_killed(tmp_path):
    import time

    mark = tmp_path / "ran"
    done = _claims.fork(1, lambda: mark.write_text(str(os.getpid())))
    assert len(done) == 1 and done[0].wait() == 0
    assert int(mark.read_text()) == done[0].pid != os.getpid()
    assert done[0].poll() == 0
    slow = _claims.fork(1, lambda: time.sleep(60))[0]
    assert slow.poll() is None
    slow.kill()
    assert slow.wait() == -9
    failing = _claims.fork(1, lambda: 1 / 0)[0]
    assert failing.wait() == 1                  # an error ends the helper, not the caller


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one core: no helper starts")
def test_a_partly_warm_cache_starts_a_helper_interpreter_at_the_first_miss(tmp_path):
    # a cache holding kernels of the probe files is not a first run: no fork up
    # front; the first cache miss starts a helper interpreter, which still
    # takes a share
    from robomaze.cli._stages import PROBES

    _fake_cached(tmp_path / "cache", *{f for files in PROBES.values() for f in files})
    argv = ["plan", "kruskal", "4x4", "--seed", "1", "--method", "dijkstra"]
    one = _run(tmp_path, "one", 1, *argv)
    two = _run(tmp_path, "cache", 2, *argv)
    assert two["stats"]["processes"] == 2 and two["stats"]["compiled_helpers"] > 0
    assert two["after_prepare"] == [len(two["names"])]
    assert two["stdout"] == one["stdout"]


def test_a_task_that_raises_is_recorded_not_raised(monkeypatch):
    def boom(spec):
        raise ValueError("no such maze")

    monkeypatch.setitem(_stages.TASKS, "boom", boom)
    monkeypatch.setattr(_stages, "_ERRORS", [])
    _stages._run("boom", {})
    assert _stages._ERRORS == [("boom", "ValueError: no such maze")]


def test_a_helpers_report_carries_its_errors(tmp_path):
    _claims.write_report(str(tmp_path), 3, [["env", 1.0, 2.0]], [("agent", "KeyError: 'x'")])
    (rep,) = _claims.reports(str(tmp_path))
    assert rep == {"compiled": 3, "log": [["env", 1.0, 2.0]], "errors": [["agent", "KeyError: 'x'"]]}
    (tmp_path / "count.99").write_text("{half")   # a helper killed mid-write is left out
    assert len(_claims.reports(str(tmp_path))) == 1
