"""Re-run one row in a fresh process: kernels warm first, then a safety net
that tells a hang from a busy machine.

``bench compare`` re-runs the current rows that hit a sweep's wall-clock
safety net, and ``bench rerun`` re-runs any row. Both go through
:func:`reexec`, which forks a child process that

1. has the kernels the row uses loaded: the bench warm-up of
   :mod:`robomaze.bench._warmup` for this row ran in the parent first,
   outside any clock, before any plugin was imported,
2. imports the plugins the *user* passed (``--plugins``, ``$ROBOMAZE_PLUGINS``;
   never the ones a results folder names: a results folder is data),
3. runs the row and sends its new row back.

While step 3 runs, the parent reads the child's scheduler statistics
(``/proc/PID/task/*/schedstat`` on Linux: CPU time, and time spent
*waiting for a CPU* on the run queue) and decides:

- the run spent its **CPU budget** (numba compiles excluded) without
  finishing -- a budget scaled from the row's own time in the baseline --
  : a **hang**, whatever the load (it computed, and never stopped);
- it was **neither running nor waiting for a CPU** (sleeping, blocked) for
  as long as that budget: a **hang** too;
- it was still going after the **wall limit**, mostly waiting for a CPU or
  not: **starved** -- the machine, not the method; inconclusive.

Without ``/proc`` only the wall limit decides (inconclusive).
``ROBOMAZE_SLOW_RUNS`` (the test hook of a loaded machine,
:mod:`robomaze.bench.runner`) counts as waiting for a CPU.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

__all__ = ["reexec", "Reexec", "budget", "CPU_FLOOR", "CPU_FACTOR", "WALL_FACTOR"]

#: CPU seconds every re-run may spend, however fast the baseline was.
CPU_FLOOR = 2.0
#: The CPU budget is this many times the row's own time in the baseline.
CPU_FACTOR = 20.0
#: Wall seconds per CPU-budget second before the machine is blamed (a run
#: that gets less than 1/30 of a core: a load above 30 per core).
WALL_FACTOR = 30.0
#: Seconds the child may take to import the user's plugins.
WARM_LIMIT = 600.0
_POLL = 0.05


@dataclass
class Reexec:
    """What a re-run did.

    ``verdict`` is ``"done"`` (``row`` is the new row), ``"hang"`` (stopped:
    the method's fault) or ``"starved"`` (stopped: the machine's);
    ``why`` says it in words.
    """

    verdict: str
    row: dict | None = None
    why: str = ""
    cpu_s: float = 0.0
    wait_s: float = 0.0
    wall_s: float = 0.0


def reference_time(row: dict | None) -> float | None:
    """A row's own run time (s): the largest of its CPU and total times, or None.

    >>> reference_time({"status": "ok", "timings": {"compute_s": 0.1, "cpu_s": 0.2, "total_s": 0.3}})
    0.3
    >>> reference_time({"status": "infra_timeout", "timings": {"total_s": 600.0}}) is None
    True
    """
    if not row or row.get("status") not in ("ok", "error"):
        return None
    t = row.get("timings") or {}
    vals = [v for k in ("compute_s", "cpu_s", "total_s")
            if isinstance(v := t.get(k), (int, float)) and math.isfinite(v)]
    return max(vals) if vals else None


def budget(reference: float | None, time_limit: float) -> tuple[float, float]:
    """``(cpu_budget, wall_limit)`` of a re-run whose row took ``reference`` s.

    Unknown ``reference``: the row's own ``time_limit`` as both.

    >>> budget(0.01, 600.0)
    (2.0, 60.0)
    >>> budget(1.0, 600.0)
    (20.0, 600.0)
    >>> budget(None, 30.0)
    (30.0, 30.0)
    """
    if reference is None:
        return float(time_limit), float(time_limit)
    cpu = max(CPU_FLOOR, CPU_FACTOR * float(reference))
    return cpu, WALL_FACTOR * cpu


def reexec(scenario_dict: dict, *, plugins=(), cpu_budget: float, wall_limit: float,
           warm: bool = True) -> Reexec:
    """Run a scenario in a child process (see the module docstring).

    ``scenario_dict`` is :meth:`Scenario.to_dict`; its ``spec.plugins`` are
    *not* imported (pass the ones the user gave again as ``plugins``, names
    or ``.py`` files relative to the current directory).
    """
    from ..errors import ParameterError
    from .run import failed_row
    from .scenario import Scenario

    d = {**scenario_dict, "spec": {**scenario_dict["spec"], "plugins": []}}
    stored_plugins = list(scenario_dict["spec"].get("plugins") or [])
    if warm:
        # here, before any plugin is imported (robomaze's own kernels: a
        # plugin cannot hang it); the child inherits them loaded
        warm_for([Scenario.from_dict(d)])
    ctx = multiprocessing.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)
    shared = ctx.Array("d", [0.0, -1.0], lock=False)   # compile CPU, compile start
    # not daemonic: a method may start processes of its own (as in a sweep's
    # worker); _end() ends the child and everything it started
    child = ctx.Process(target=_child, args=(d, tuple(plugins), os.getcwd(), send, shared))
    child.start()
    send.close()
    try:
        if not recv.poll(WARM_LIMIT):
            return Reexec("starved", why=f"the plugins did not load in {WARM_LIMIT:g} s")
        kind, payload = _receive(recv)
        if kind == "plugin":
            raise ParameterError(payload)
        if kind != "ready":
            return Reexec("done", row=_fix(failed_row(Scenario.from_dict(d), "error", payload),
                                           stored_plugins))
        return _watch(child, recv, shared, d, stored_plugins, cpu_budget, wall_limit)
    finally:
        _end(child)
        recv.close()


def _receive(conn):
    try:
        return conn.recv()
    except (EOFError, OSError):
        return ("died", "the re-run's process died (crash or out of memory)")


def _fix(row: dict, plugins: list) -> dict:
    """The row as the stored run wrote it: its scenario names its plugins again."""
    row["scenario"] = {**row["scenario"], "plugins": plugins}
    return row


def _watch(child, recv, shared, d, plugins, cpu_budget, wall_limit) -> Reexec:
    from .run import failed_row
    from .scenario import Scenario

    slow = _injected()
    t0 = time.monotonic()
    s0 = _sched(child.pid)
    c0 = shared[0]
    cpu = wait = 0.0
    while True:
        if recv.poll(_POLL):
            kind, payload = _receive(recv)
            wall = time.monotonic() - t0
            if kind == "row":
                return Reexec("done", row=_fix(payload, plugins), cpu_s=cpu, wait_s=wait,
                              wall_s=wall)
            return Reexec("done", row=_fix(failed_row(Scenario.from_dict(d), "error", payload,
                                                      elapsed=wall), plugins),
                          cpu_s=cpu, wait_s=wait, wall_s=wall)
        wall = time.monotonic() - t0
        s = _sched(child.pid)
        if s is not None and s0 is not None:
            main_cpu, _ = _sched_task(child.pid)
            compiling = main_cpu - shared[1] if shared[1] >= 0 and main_cpu is not None else 0.0
            cpu = max(0.0, s[0] - s0[0] - (shared[0] - c0) - max(0.0, compiling))
            wait = s[1] - s0[1] + min(slow, wall)
            idle = wall - (s[0] - s0[0]) - wait
            if cpu >= cpu_budget:
                return Reexec("hang", why=f"spent {cpu:.1f} s of CPU (budget {cpu_budget:.3g} s) "
                              "without finishing", cpu_s=cpu, wait_s=wait, wall_s=wall)
            if idle >= cpu_budget:
                return Reexec("hang", why=f"neither ran nor waited for a CPU for {idle:.1f} s "
                              f"(blocked or asleep; budget {cpu_budget:.3g} s)",
                              cpu_s=cpu, wait_s=wait, wall_s=wall)
        if wall >= wall_limit:
            share = f"; it waited for a CPU {wait / wall:.0%} of the time" if s is not None else ""
            return Reexec("starved", why=f"still running after {wall:.1f} s (wall limit "
                          f"{wall_limit:.3g} s) with {cpu:.2f} s of CPU{share}",
                          cpu_s=cpu, wait_s=wait, wall_s=wall)
        if not child.is_alive() and not recv.poll(0):
            return Reexec("done", row=_fix(failed_row(
                Scenario.from_dict(d), "error", "the re-run's process died (crash or out of "
                "memory)", elapsed=wall), plugins), cpu_s=cpu, wait_s=wait, wall_s=wall)


def _injected() -> float:
    from .runner import SLOW_ENV

    try:
        v = float(os.environ.get(SLOW_ENV) or 0.0)
    except ValueError:
        return 0.0
    return v if 0 < v < 3600 else 0.0


def _sched_task(pid: int, tid: int | None = None) -> tuple[float | None, float | None]:
    try:
        with open(f"/proc/{pid}/task/{tid or pid}/schedstat", "rb") as fh:
            run, wait = fh.read().split()[:2]
        return int(run) / 1e9, int(wait) / 1e9
    except (OSError, ValueError):
        return None, None


def _sched(pid: int) -> tuple[float, float] | None:
    """CPU and run-queue seconds of ``pid``'s threads and its descendants' (None: no /proc)."""
    from .._proctree import descendants

    total = [0.0, 0.0]
    seen = False
    for p in [pid, *descendants(pid)]:
        try:
            tids = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue
        for tid in tids:
            run, wait = _sched_task(p, int(tid))
            if run is not None:
                seen = True
                total[0] += run
                total[1] += wait
    return tuple(total) if seen else None


def _end(child) -> None:
    from ._procs import kill_tree

    if child.pid is not None and child.is_alive():
        kill_tree(child.pid, include_root=True, reap=False)
    child.join(5.0)


def _child(d, plugins, cwd, conn, shared) -> None:
    """The re-run's process: import the user's plugins, run, send the row."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the parent decides
    try:
        from ._procs import become_subreaper
        from .plugins import import_plugins
        from .run import failed_row, failed_timings, format_exception, run_scenario
        from .runner import _injected_slowness
        from .scenario import Scenario

        become_subreaper()
        sc = Scenario.from_dict(d)
        _count_compiles(shared)
        try:
            import_plugins(plugins, Path(cwd))
        except BaseException as exc:  # noqa: BLE001 -- the user's plugin: say which
            conn.send(("plugin", f"--plugins: could not import {', '.join(plugins) or '$ROBOMAZE_PLUGINS'}"
                                 f" ({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''})"))
            return
        conn.send(("ready", None))
        t0 = time.perf_counter()
        try:
            _injected_slowness()
            row = run_scenario(sc)
        except BaseException as exc:  # noqa: BLE001 -- any failure of the run is its row
            row = failed_row(sc, "error", format_exception(exc),
                             elapsed=time.perf_counter() - t0, timings=failed_timings(exc))
        conn.send(("row", row))
    except BaseException as exc:  # noqa: BLE001
        try:
            conn.send(("error", f"{type(exc).__name__}: {exc}"))
        except OSError:
            pass
    finally:
        try:
            conn.close()
        finally:
            os._exit(0)


_WARMED: set = set()


def warm_for(scenarios) -> None:
    """The bench warm-up (:mod:`robomaze.bench._warmup`) of these scenarios, in
    this process (once per list of kernels)."""
    from . import _warmup
    from .runner import WARM_ENV, _warm_list

    items = _warm_list(list(scenarios))
    if items in _WARMED:
        return
    _WARMED.add(items)
    old = os.environ.get(WARM_ENV)
    os.environ[WARM_ENV] = items
    try:
        _warmup.serve()
    finally:
        if old is None:
            os.environ.pop(WARM_ENV, None)
        else:
            os.environ[WARM_ENV] = old


def _count_compiles(shared) -> None:
    """Keep numba's compile CPU time in ``shared`` (the parent takes it out of
    the run's CPU: a kernel the warm-up missed is not the method's time)."""
    try:
        from numba.core import event as ev
    except ImportError:
        return

    depth = [0]

    class _Listener(ev.Listener):
        def on_start(self, event):
            if depth[0] == 0:
                shared[1] = time.thread_time()
            depth[0] += 1

        def on_end(self, event):
            depth[0] = max(0, depth[0] - 1)
            if depth[0] == 0 and shared[1] >= 0:
                shared[0] += time.thread_time() - shared[1]
                shared[1] = -1.0

    ev.register("numba:compile", _Listener())
