"""Run a list of warm-up tasks once each, across this process and forks of it.

A task is a named call that compiles (or loads from the cache) some numba
kernels. :func:`warm` runs them all: this process takes the first task, and
when numba's cache lacks kernels (:func:`all_cached` of the caller's probe
files says no) and more cores are free, it forks helpers *before* anything
compiles. A fork starts with the caller's imports and numba's set-up done
(:func:`prime`), where a new interpreter spends about a second importing
numba, scipy and robomaze. Every process then walks the same ordered list
and takes the next task nobody has taken -- the first to create its file in
a shared folder (``O_EXCL``) owns it and touches ``<task>.done`` when it is
finished -- once the tasks it ``needs`` (those compiling kernels it shares)
are done. Helpers compile into the disk cache, report their counts and
errors in a file and end with ``os._exit``; the caller then loads their
kernels from the cache in milliseconds. With a ``load`` callback the caller
loads each helper's task as soon as it is done, before claiming its next
task (and while it waits), so that little is left to load after the last
compile.

Warming is an optimisation only: a task that raises has compiled what it
reached; its error is recorded, never raised. ``ROBOMAZE_WARM_PROCESSES=1``
compiles in the caller's process only.

Examples
--------
>>> ran = []
>>> stats = warm(["a", "b"], ran.append, cap=1)
>>> ran, stats["processes"], stats["errors"]
(['a', 'b'], 1, [])
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
import warnings
from typing import Callable, Iterable, Sequence

from . import events

#: Upper bound on the processes that compile (set it to 1 to compile in one).
PROCESSES_ENV = "ROBOMAZE_WARM_PROCESSES"
#: Seconds the caller waits for a helper before taking its tasks itself.
TIMEOUT = 300.0


def processes(ntasks: int, cap: int) -> int:
    """One per core this process may use, at most ``cap`` (or the environment's) and ``ntasks``."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    text = os.environ.get(PROCESSES_ENV, "").strip()
    if text.isdigit() and int(text) >= 1:
        cap = int(text)
    return max(1, min(cores, cap, ntasks))


def all_cached(files: Iterable[str]) -> bool:
    """Whether the cache holds kernels of every file of ``files`` (paths in the package).

    True too when it cannot tell (numba's own locators chosen): no helper
    is forked then. ``all_cached([])`` is True.
    """
    if os.environ.get("NUMBA_CACHE_LOCATOR_CLASSES"):
        return True
    from .cache import PACKAGE_DIR, cache_folder
    from .seeding import seed

    for rel in files:
        try:
            folder = cache_folder(os.path.join(PACKAGE_DIR, rel))
            if folder is not None:
                seed(folder)  # kernels a wheel build shipped count as cached
            if folder is not None and not any(n.endswith(".nbi") for n in os.listdir(folder)):
                return False
        except FileNotFoundError:
            return False
        except OSError:
            continue
    return True


def prime() -> None:
    """Set numba's CPU target up (its typing and lowering registries: 0.25 s) as a first
    compile would, so that forks inherit it. Never raises."""
    with contextlib.suppress(Exception):
        from numba.core.registry import cpu_target

        cpu_target.typing_context.refresh()
        cpu_target.target_context.refresh()


def _reap(pid: int, flags: int) -> bool:
    """Whether the fork ``pid`` has ended (and is reaped)."""
    try:
        return os.waitpid(pid, flags)[0] != 0
    except ChildProcessError:  # reaped already
        return True


def fork(n: int, run: Callable[[int], None]) -> list[int]:
    """Start ``n`` forks of this process; the i-th runs ``run(i)`` (from 1) and ``os._exit``.

    Call it before this process compiles anything (a fork inside a compile
    copies numba's half-done state). A fork's standard streams go to
    ``os.devnull``; none of this process's exit handlers run twice. Returns
    the pids (``[]`` off Linux or beside other threads: the caller compiles alone).
    """
    if (not hasattr(os, "fork") or not sys.platform.startswith("linux")
            or threading.active_count() > 1):  # another thread may hold a lock a fork keeps
        return []
    pids = []
    for i in range(1, n + 1):
        sys.stdout.flush()
        sys.stderr.flush()
        with warnings.catch_warnings():
            # 3.12+ warns about forking with threads (numpy's BLAS pool): a fork runs numba only
            warnings.simplefilter("ignore", DeprecationWarning)
            try:
                pid = os.fork()
            except OSError:
                break
        if pid == 0:
            code = 0
            try:
                null = os.open(os.devnull, os.O_RDWR)
                for fd in (0, 1, 2):
                    os.dup2(null, fd)
                run(i)
            except BaseException:
                code = 1
            finally:
                os._exit(code)
        pids.append(pid)
    return pids


def _file(folder: str, task: str, suffix: str = "") -> str:
    return os.path.join(folder, task.replace(":", "_").replace("/", "_") + suffix)


def claim(folder: str, task: str) -> bool:
    """Whether this process got ``task`` (the first to create its file does).

    >>> folder = tempfile.mkdtemp()
    >>> claim(folder, "plan:astar"), claim(folder, "plan:astar")
    (True, False)
    """
    try:
        os.close(os.open(_file(folder, task), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        return True
    except FileExistsError:
        return False


def _done(folder: str, task: str) -> bool:
    return os.path.exists(_file(folder, task, ".done"))


class _Worker:
    """One process's share: runs claimed tasks, keeps its log and errors."""

    def __init__(self, folder: str, run: Callable[[str], None], needs, index: int,
                 load: Callable[[str], None] | None = None):
        self.folder, self.run_task, self.needs, self.index = folder, run, needs, index
        self.load = load
        self.log: list = []
        self.errors: list = []
        self.loaded: set[str] = set()
        self.loads: list = []

    def catch_up(self, ordered: Sequence[str]) -> None:
        """``load`` every task of ``ordered`` another process has finished since the last call."""
        if self.load is None:
            return
        mine = {row[1] for row in self.log}
        for task in ordered:
            if task not in self.loaded and task not in mine and _done(self.folder, task):
                self.loaded.add(task)
                t = time.time()
                try:
                    self.load(task)
                except Exception as exc:  # as for run: the real run reports it
                    self.errors.append([self.index, task, f"{type(exc).__name__}: {exc}"])
                self.loads.append([task, t, time.time()])

    def run(self, task: str) -> None:
        t = time.time()
        try:
            self.run_task(task)
        except Exception as exc:  # what it reached is compiled; the real run reports
            self.errors.append([self.index, task, f"{type(exc).__name__}: {exc}"])
        open(_file(self.folder, task, ".done"), "w").close()
        self.log.append([self.index, task, t, time.time()])

    def work(self, ordered: Sequence[str], others_alive: Callable[[], bool], server: bool
             ) -> None:
        """Claim and run tasks in order until every one is claimed. While the only
        tasks left wait for ones running elsewhere, wait too (compiling the same
        kernels twice at once doubles the work); when nobody else is left (or
        :data:`TIMEOUT` passes) the server takes the rest and a helper stops."""
        left = list(ordered)
        deadline = time.monotonic() + TIMEOUT
        while left:
            if server:
                # kernels loaded now cost the wall nothing while a helper still
                # compiles; after the last compile they are the warm-up's tail
                self.catch_up(ordered)
            left = [t for t in left if not os.path.exists(_file(self.folder, t))]
            if not left:
                break
            stuck = not others_alive() or time.monotonic() > deadline
            if stuck and not server:
                return
            ready = [t for t in left if stuck or all(_done(self.folder, n) for n in self.needs(t))]
            if not ready:
                time.sleep(0.02)
            elif claim(self.folder, ready[0]):
                self.run(ready[0])


def warm(tasks: Sequence[str], run: Callable[[str], None], *,
         needs: Callable[[str], Iterable[str]] = lambda task: (), probes: Iterable[str] = (),
         cap: int = 2, load: Callable[[str], None] | None = None,
         here_only: Iterable[str] = ()) -> dict:
    """Run ``run(task)`` once for every task, this process first taking ``tasks[0]``.

    Helpers (forks, up to ``cap`` processes in all) start only when
    ``probes`` are not :func:`all_cached`. ``load(task)``, if given, runs in
    this process for every task a helper ran, once, as soon as this process
    sees it done (before its next task, while it waits, and at the end):
    the helper's kernels, now in the cache, load into this process.
    ``here_only``: tasks no helper takes (they compile nothing
    and matter only in this process, as the bench warm-up's "metrics"). Returns
    ``processes``, ``tasks``, ``compiled_here``, ``compiled_helpers``,
    ``seconds``, ``errors`` (``[process, task, "Type: message"]``),
    ``timeline`` (``[process, task, start, end]``, seconds from the start)
    and ``loads`` (``[task, start, end]``: this process's ``load`` calls).
    """
    t0, epoch = time.perf_counter(), time.time()
    base = events.compiled()
    folder = tempfile.mkdtemp(prefix="robomaze-warm-")
    me = _Worker(folder, run, needs, 0, load)
    pids: list[int] = []
    reports: list[dict] = []
    try:
        nproc = processes(len(tasks), cap)
        if tasks:
            claim(folder, tasks[0])  # the caller's: a fork starting now must not take it
        if nproc > 1 and not all_cached(probes):
            prime()
            mine = set(here_only)
            theirs = [t for t in tasks if t not in mine]
            pids = fork(nproc - 1, lambda i: _helper(folder, theirs, run, needs, i))
        alive = set(pids)

        def others_alive() -> bool:
            alive.difference_update([p for p in alive if _reap(p, os.WNOHANG)])
            return bool(alive)

        if tasks:
            me.run(tasks[0])
        me.work(tasks, others_alive, True)
        deadline = time.monotonic() + TIMEOUT
        # every task done, or nobody left to do it: a helper's exit (numba and
        # LLVM tearing down) is not waited for, only its report
        while (others_alive() and time.monotonic() < deadline
               and not (all(_done(folder, t) for t in tasks)
                        and sum(n.startswith("report.") for n in os.listdir(folder)) >= len(pids))):
            me.catch_up(tasks)
            time.sleep(0.01)
        me.catch_up(tasks)
        for name in sorted(os.listdir(folder)):
            if name.startswith("report."):
                with contextlib.suppress(OSError, ValueError):  # killed mid-write: left out
                    with open(os.path.join(folder, name)) as f:
                        reports.append(json.load(f))
    finally:
        for pid in pids:
            if not _reap(pid, os.WNOHANG):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                _reap(pid, 0)
        shutil.rmtree(folder, ignore_errors=True)
    helpers = sum(r["compiled"] for r in reports)
    events.helped(helpers, 1 + len(pids), time.perf_counter())
    log = me.log + [row for r in reports for row in r["log"]]
    return {"processes": 1 + len(pids), "tasks": list(tasks),
            "compiled_here": events.compiled() - base,
            "compiled_helpers": helpers,
            "seconds": time.perf_counter() - t0,
            "errors": me.errors + [e for r in reports for e in r["errors"]],
            "timeline": sorted([[p, t, round(a - epoch, 2), round(b - epoch, 2)]
                                for p, t, a, b in log], key=lambda row: row[2]),
            "loads": [[t, round(a - epoch, 2), round(b - epoch, 2)] for t, a, b in me.loads]}


def _helper(folder: str, tasks: Sequence[str], run, needs, index: int) -> None:
    """A fork's loop: claim and run tasks until none is left, then report."""
    events.listen(notice=False)  # the caller speaks
    # it ends with os._exit, which frees everything at once: collecting its
    # compiles' garbage on the way (~0.7 M objects, ~1.3 s of CPU in a
    # one-process default-sweep warm-up, round 12) buys nothing
    gc.disable()
    base = events.compiled()
    parent = os.getppid()
    me = _Worker(folder, run, needs, index)
    try:
        # the caller's death (the fork's parent changes) leaves nobody to compile for
        me.work(tasks, lambda: os.getppid() == parent, False)
    finally:
        tmp = os.path.join(folder, f"tmp.{os.getpid()}")
        with open(tmp, "w") as f:
            json.dump({"compiled": events.compiled() - base, "log": me.log,
                       "errors": me.errors}, f)
        os.replace(tmp, os.path.join(folder, f"report.{os.getpid()}"))  # whole, or not at all
