"""A command's first run compiles its stages on two cores (robomaze.cli._stages,
robomaze._compile.parallel).

Each case runs a command in a fresh process with an empty numba cache and
records numba's ``numba:compile`` events in the command's own process. The
stage tasks must compile every kernel the command then calls (nothing is
compiled after :func:`robomaze.cli._stages.prepare` returns), a helper
process must take a share when there are two cores, and the output must be
that of a run whose kernels all come from the cache. Counts only, no timing.
The helper is a fork of the command (:func:`robomaze._compile.parallel.fork`),
started only while the cache lacks kernels of the tasks' probe files.
"""

import json
import os
import re
import subprocess
import sys

import pytest

import robomaze
from robomaze._compile import parallel
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
    # the default planner (astar) and footprint (a point): no heading search
    ["plan", "prim", "5x5", "--seed", "1"],
    ["plan", "kruskal", "5x5", "--seed", "2", "--method", "collision_free",
     "--footprint", "rect:0.3x0.2"],
    # round 10: above 64 bins the state search, whose stage task is another
    ["plan", "kruskal", "4x4", "--seed", "2", "--method", "collision_free",
     "--footprint", "rect:0.3x0.2", "--option", "headings=70"],
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
    # a cold run compiled (the checks below need kernels to have compiled):
    # round 12 left the wavefront commands 5 kernels, the others more
    assert len(rec["names"]) >= 3
    # the first command compiles its first kernel inside prepare and none after it
    assert rec["after_prepare"] == [len(rec["names"])], rec["names"][rec["after_prepare"][0]:]
    # warm, with helpers allowed: it knows it is warm and forks none (round
    # 16: a task that did nothing for a disc kept its probe file uncached,
    # so every warm plan of a disc forked a helper and set numba's compiler up)
    again = _run(tmp_path, "cache", 2, *argv)
    assert again["names"] == [] and again["stdout"] == rec["stdout"]
    assert again["stats"]["processes"] == 1, again["stats"]


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


def test_warm_runs_each_task_once_and_records_errors(monkeypatch):
    monkeypatch.setenv("ROBOMAZE_WARM_PROCESSES", "1")
    ran = []

    def run(task):
        ran.append(task)
        if task == "b":
            raise ValueError("no such maze")

    stats = parallel.warm(["a", "b", "c"], run, cap=4)
    assert ran == ["a", "b", "c"] and stats["processes"] == 1
    assert stats["errors"] == [[0, "b", "ValueError: no such maze"]]
    assert [row[1] for row in stats["timeline"]] == ["a", "b", "c"]


def test_claims_share_a_task_list_once(tmp_path):
    folder = str(tmp_path)
    ran = []
    parallel._Worker(folder, ran.append, lambda t: (), 0).work(["a", "b", "c"], lambda: False,
                                                              True)
    assert ran == ["a", "b", "c"]
    assert all(parallel._done(folder, t) for t in "abc")
    # a second process finds every task taken and runs none
    ran2 = []
    parallel._Worker(folder, ran2.append, lambda t: (), 1).work(["a", "b", "c"], lambda: True,
                                                               False)
    assert ran2 == []


def test_a_helper_waits_for_what_a_task_needs(tmp_path):
    folder = str(tmp_path)
    parallel.claim(folder, "common")       # running elsewhere
    ran = []
    needs = lambda t: ("common",) if t == "plan" else ()  # noqa: E731
    # a helper (server=False) whose others died stops rather than wait forever
    parallel._Worker(folder, ran.append, needs, 1).work(["common", "plan"], lambda: False, False)
    assert ran == []
    # the server takes what is left once nobody else can
    parallel._Worker(folder, ran.append, needs, 0).work(["common", "plan"], lambda: False, True)
    assert ran == ["plan"]


def _fake_cached(cache_dir, *files):
    """Mark ``files`` as having a cached kernel in ``cache_dir`` (an index file no
    kernel of theirs is named after: numba never opens it)."""
    from numba.core import config

    from robomaze._compile import cache

    saved = config.CACHE_DIR
    config.CACHE_DIR = str(cache_dir)
    try:
        for rel in files:
            folder = cache.cache_folder(os.path.join(cache.PACKAGE_DIR, rel))
            os.makedirs(folder, exist_ok=True)
            open(os.path.join(folder, "probe-0.py0.nbi"), "w").close()
    finally:
        config.CACHE_DIR = saved


def test_all_cached_means_a_kernel_of_every_probe_file(tmp_path, monkeypatch):
    from numba.core import config

    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("NUMBA_CACHE_LOCATOR_CLASSES", raising=False)
    files = ["geometry/_collide_kernels.py", "sense/_kernels.py"]
    assert not parallel.all_cached(files)
    _fake_cached(tmp_path, "sense/_kernels.py")
    assert not parallel.all_cached(files)          # one of them lacks kernels: fork
    assert parallel.all_cached(["sense/_kernels.py"])
    assert parallel.all_cached([])
    monkeypatch.setenv("NUMBA_CACHE_LOCATOR_CLASSES", "x")
    assert parallel.all_cached(["sim/_kernels.py"])   # numba's own folders: cannot tell


@pytest.mark.skipif(not hasattr(os, "fork") or not sys.platform.startswith("linux"),
                    reason="helpers are forked on Linux only")
def test_a_forked_helper_runs_then_exits_and_can_be_killed(tmp_path):
    import signal
    import time

    mark = tmp_path / "ran"
    (pid,) = parallel.fork(1, lambda i: mark.write_text(f"{os.getpid()} {i}"))
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0
    assert mark.read_text() == f"{pid} 1" and pid != os.getpid()
    (slow,) = parallel.fork(1, lambda i: time.sleep(60))
    assert not parallel._reap(slow, os.WNOHANG)
    os.kill(slow, signal.SIGKILL)
    assert os.waitstatus_to_exitcode(os.waitpid(slow, 0)[1]) == -9
    (failing,) = parallel.fork(1, lambda i: 1 / 0)
    assert os.waitstatus_to_exitcode(os.waitpid(failing, 0)[1]) == 1  # the helper's, not ours


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one core: no helper starts")
def test_a_helper_reports_its_compiles_and_errors_through_warm(tmp_path, monkeypatch):
    monkeypatch.delenv("ROBOMAZE_WARM_PROCESSES", raising=False)
    monkeypatch.setattr(parallel, "all_cached", lambda files: False)
    import time

    def run(task):
        if task == "slow":
            time.sleep(0.5)  # the caller is busy: the helper takes the rest
        elif task == "bad":
            raise KeyError("x")

    stats = parallel.warm(["slow", "bad", "ok"], run, cap=2)
    assert stats["processes"] == 2
    by = {task: proc for proc, task, _, _ in stats["timeline"]}
    assert by["slow"] == 0 and by["bad"] == 1
    assert stats["errors"] == [[1, "bad", "KeyError: 'x'"]]
    assert sorted(by) == ["bad", "ok", "slow"]


def test_the_server_loads_each_task_others_finished_once_before_its_next(tmp_path):
    folder = str(tmp_path)
    # "b" ran elsewhere (claimed and done); "c" is claimed elsewhere, still running
    for task in ("b", "c"):
        parallel.claim(folder, task)
    open(parallel._file(folder, "b", ".done"), "w").close()
    events = []
    server = parallel._Worker(folder, lambda t: events.append(("run", t)), lambda t: (), 0,
                              load=lambda t: events.append(("load", t)))
    server.work(["a", "b", "c", "d"], lambda: False, True)
    # "b" is loaded before the server's first task; its own tasks never are
    assert events == [("load", "b"), ("run", "a"), ("run", "d")]
    open(parallel._file(folder, "c", ".done"), "w").close()
    server.catch_up(["a", "b", "c", "d"])
    server.catch_up(["a", "b", "c", "d"])
    assert events[3:] == [("load", "c")]                 # once each
    assert [row[0] for row in server.loads] == ["b", "c"]
    # a load that raises is recorded as the task's error, like a run's
    bad = parallel._Worker(folder, lambda t: None, lambda t: (), 0, load=lambda t: 1 / 0)
    bad.catch_up(["b"])
    assert bad.errors == [[0, "b", "ZeroDivisionError: division by zero"]]


def test_a_helper_never_loads_and_one_process_loads_nothing(tmp_path, monkeypatch):
    folder = str(tmp_path)
    parallel.claim(folder, "a")
    open(parallel._file(folder, "a", ".done"), "w").close()
    loaded = []
    helper = parallel._Worker(folder, lambda t: None, lambda t: (), 1, load=loaded.append)
    helper.work(["a", "b"], lambda: True, False)
    assert loaded == []                         # the caller loads, not the helpers
    monkeypatch.setenv("ROBOMAZE_WARM_PROCESSES", "1")
    stats = parallel.warm(["x", "y"], lambda t: None, load=loaded.append, cap=4)
    assert loaded == [] and stats["loads"] == []


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one core: no helper starts")
def test_warm_loads_every_helper_task_into_the_caller(tmp_path, monkeypatch):
    monkeypatch.delenv("ROBOMAZE_WARM_PROCESSES", raising=False)
    monkeypatch.setattr(parallel, "all_cached", lambda files: False)
    import time

    loaded = []

    def run(task):
        if task == "slow":
            time.sleep(0.5)  # the caller is busy: the helper takes the rest

    stats = parallel.warm(["slow", "p", "q"], run, cap=2, load=loaded.append)
    by = {task: proc for proc, task, _, _ in stats["timeline"]}
    helpers = sorted(t for t, proc in by.items() if proc != 0)
    assert stats["processes"] == 2 and helpers
    assert sorted(loaded) == helpers                 # each helper task once, in the caller
    assert sorted(row[0] for row in stats["loads"]) == helpers


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one core: no helper starts")
def test_a_here_only_task_is_never_a_helpers(tmp_path, monkeypatch):
    monkeypatch.delenv("ROBOMAZE_WARM_PROCESSES", raising=False)
    monkeypatch.setattr(parallel, "all_cached", lambda files: False)
    import time

    def run(task, started):
        if task != "slow":
            started.touch()
            return
        # the caller holds "slow" until a helper has started a task, so the
        # helper's pick is the first free one it may take, however busy the
        # machine (no sleep to race)
        deadline = time.monotonic() + 120
        while not started.exists() and time.monotonic() < deadline:
            time.sleep(0.01)

    for here_only, m_by_caller in (((), False), (("m",), True)):
        started = tmp_path / f"started-{len(here_only)}"
        stats = parallel.warm(["slow", "m", "p"], lambda t: run(t, started), cap=2,
                              here_only=here_only)
        by = {task: proc for proc, task, _, _ in stats["timeline"]}
        assert sorted(by) == ["m", "p", "slow"] and stats["processes"] == 2
        assert (by["m"] == 0) is m_by_caller, stats["timeline"]
        if m_by_caller:
            assert by["p"] != 0  # the helper took the other task instead


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one core: no helper starts")
def test_a_helper_never_collects_garbage_and_the_caller_still_does(monkeypatch):
    import gc
    import time

    monkeypatch.delenv("ROBOMAZE_WARM_PROCESSES", raising=False)
    monkeypatch.setattr(parallel, "all_cached", lambda files: False)

    def run(task):
        if task == "slow":
            time.sleep(0.5)  # the caller is busy: the helper takes "probe"
        else:
            raise RuntimeError(f"collecting: {gc.isenabled()}")

    assert gc.isenabled()
    stats = parallel.warm(["slow", "probe"], run, cap=2)
    assert stats["errors"] == [[1, "probe", "RuntimeError: collecting: False"]]
    assert gc.isenabled()                      # the caller's collector untouched


def test_the_sweep_warm_up_leaves_the_collector_as_it_found_it(monkeypatch):
    import gc

    from robomaze.bench import _warmup

    monkeypatch.setenv("ROBOMAZE_WARM", "generate:kruskal")
    monkeypatch.setenv("ROBOMAZE_WARM_PROCESSES", "1")
    seen = []
    monkeypatch.setattr(_warmup, "_run", lambda task, ctx, metrics: seen.append(gc.isenabled()))
    assert gc.isenabled()
    frozen = gc.get_freeze_count()
    try:
        _warmup.serve()
        # the runner's fork server (ROBOMAZE_WARM set) freezes what is left
        # rather than collecting it at the end: the tasks' objects joined the
        # permanent generation
        assert gc.get_freeze_count() > frozen
    finally:
        gc.unfreeze()
    assert seen and not any(seen)            # the tasks compile with the collector off
    assert gc.isenabled()                    # and it is back on afterwards


def test_the_warm_up_collects_its_garbage_outside_the_fork_server(monkeypatch):
    import gc

    from robomaze.bench import _warmup

    # a dask worker warms everything (no ROBOMAZE_WARM) and then runs in the
    # same long-lived process: generation 0 is collected, nothing is frozen
    monkeypatch.delenv("ROBOMAZE_WARM", raising=False)
    monkeypatch.setenv("ROBOMAZE_WARM_PROCESSES", "1")
    monkeypatch.setattr(_warmup, "_tasks", lambda wanted: ["x"])
    monkeypatch.setattr(_warmup, "_run", lambda task, ctx, metrics: None)
    monkeypatch.setattr(_warmup, "_Context", lambda wanted: None)
    collected = []
    monkeypatch.setattr(gc, "collect", lambda gen=2: collected.append(gen) or 0)
    frozen = gc.get_freeze_count()
    _warmup.serve()
    assert collected == [0] and gc.get_freeze_count() == frozen
    assert gc.isenabled()
