"""Share a list of compile tasks between processes through a folder of claim files.

The bench warm-up (:mod:`robomaze.bench._warmup`) and a command's first run
(:mod:`robomaze._stages`) compile numba kernels in helper processes beside
the main one. Every process walks the same ordered task list and takes the
next task nobody has taken: the first to create ``<task>`` (``O_EXCL``) owns
it and touches ``<task>.done`` when it is finished, so no task runs twice.
A task can wait for others (``needs``) that compile kernels it shares.

On a first run (:func:`cold`: the cache holds no kernel of the files the
tasks compile) the helpers are forks of the main process (:func:`fork`),
started before its first compile: they begin with its imports and numba's
set-up done, where a new interpreter spends about a second (0.5 s of CPU)
importing numba, scipy and robomaze and 0.25 s setting numba up before its
first task (issue 22). Elsewhere (no ``fork``, or a cache that is only
partly cold) the callers start helper interpreters at the first cache miss.

Examples
--------
>>> import tempfile
>>> folder = tempfile.mkdtemp()
>>> claim(folder, "plan:astar"), claim(folder, "plan:astar")
(True, False)
>>> done(folder, "plan:astar")
False
>>> mark_done(folder, "plan:astar"); done(folder, "plan:astar")
True
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import time
import warnings
from pathlib import Path
from typing import Callable, Iterable

#: Upper bound on the processes that compile (set it to 1 to compile in one).
PROCESSES_ENV = "ROBOMAZE_WARM_PROCESSES"


def warm_maze():
    """The fixed 3x3 perfect maze (turns both ways, openings west and east) every
    compile task runs on: building it compiles no generator.

    >>> warm_maze().is_perfect()
    True
    """
    from .maze import Maze

    return Maze.from_edges(3, 3, [0, 1, 2, 5, 4, 3, 4, 7], [1, 2, 5, 4, 3, 6, 7, 8],
                           openings=[(0, 0, "W"), (2, 2, "E")])


def processes(ntasks: int, cap: int) -> int:
    """How many processes compile: one per core this process may use, at most
    ``cap`` (or ``ROBOMAZE_WARM_PROCESSES``) and ``ntasks``."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    text = os.environ.get(PROCESSES_ENV, "").strip()
    if text.isdigit() and int(text) >= 1:
        cap = int(text)
    return max(1, min(cores, cap, ntasks))


def cold(files: Iterable[str]) -> bool:
    """Whether numba's cache holds no kernel of any of ``files`` (paths inside the
    robomaze package, each one its tasks compile): a first run, whose tasks
    will all compile. False when it cannot tell (numba's own cache locators
    chosen, no file given); a cache that holds some of them is not cold.

    >>> cold([])
    False
    """
    if os.environ.get("NUMBA_CACHE_LOCATOR_CLASSES"):
        return False  # not robomaze's content-keyed folders: nothing to look at
    from . import _jit_cache

    seen = False
    for rel in files:
        seen = True
        try:
            folder = _jit_cache.cache_folder(os.path.join(_jit_cache.PACKAGE_DIR, rel))
            if folder is None or any(name.endswith(".nbi") for name in os.listdir(folder)):
                return False
        except FileNotFoundError:
            continue  # no folder: nothing of that file is cached
        except OSError:
            return False
    return seen


def prime() -> None:
    """Set numba's CPU target up (its typing and lowering registries: 0.25 s),
    as a first compile would, but without compiling: helpers forked afterwards
    inherit it. Never raises."""
    # a numba that moved it raises here: its first compile sets it up instead
    with contextlib.suppress(Exception):
        from numba.core.registry import cpu_target

        cpu_target.typing_context.refresh()
        cpu_target.target_context.refresh()


class Forked:
    """A forked helper, with the part of :class:`subprocess.Popen` the callers use."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def _reaped(self, flags: int) -> int | None:
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, flags)
            except ChildProcessError:  # reaped elsewhere: it has ended
                self.returncode = -1
                return self.returncode
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def poll(self) -> int | None:
        return self._reaped(os.WNOHANG)

    def wait(self) -> int | None:
        return self._reaped(0)

    def kill(self) -> None:
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):  # it has ended meanwhile
                os.kill(self.pid, signal.SIGKILL)


def fork(n: int, run: Callable[[], None]) -> list[Forked]:
    """Start ``n`` helpers as forks of this process; each runs ``run()`` and exits.

    Call it before this process compiles anything (a fork inside a compile
    would copy numba's half-done state) and after :func:`prime`. A helper's
    standard streams go to ``os.devnull`` (it speaks through its report),
    and it ends with ``os._exit``: none of this process's exit handlers, buffers
    or numba and LLVM teardown run twice. Returns ``[]`` where ``os.fork`` is
    missing (the callers then start helper interpreters).
    """
    if not hasattr(os, "fork") or not sys.platform.startswith("linux"):
        return []
    out = []
    for _ in range(n):
        sys.stdout.flush()
        sys.stderr.flush()
        with warnings.catch_warnings():
            # Python 3.12+ warns about forking a process with threads (numpy's
            # BLAS pool): the helper runs numba only, in its one thread
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
                run()
            except BaseException:
                code = 1
            finally:
                os._exit(code)
        out.append(Forked(pid))
    return out


def _file(folder: str, task: str, suffix: str = "") -> str:
    return os.path.join(folder, task.replace(":", "_").replace("/", "_") + suffix)


def claim(folder: str, task: str) -> bool:
    """Whether this process got ``task`` (the first to create its file does)."""
    try:
        os.close(os.open(_file(folder, task), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        return True
    except FileExistsError:
        return False


def claimed(folder: str, task: str) -> bool:
    return os.path.exists(_file(folder, task))


def done(folder: str, task: str) -> bool:
    return os.path.exists(_file(folder, task, ".done"))


def mark_done(folder: str, task: str) -> None:
    Path(_file(folder, task, ".done")).touch()


def work(ordered: list[str], run: Callable[[str], None], folder: str,
         others_alive: Callable[[], bool], server: bool, timeout: float,
         needs: Callable[[str], Iterable[str]] = lambda task: (),
         log: list | None = None) -> None:
    """Claim and run tasks, in ``ordered``'s order, until every one is claimed.

    A task is taken once the tasks it ``needs`` are done; while the only
    tasks left wait for ones running elsewhere, this process waits too
    (compiling the same kernels at the same time would double the work).
    When ``others_alive()`` turns False (or ``timeout`` seconds pass) the
    server takes every task left and a helper stops. ``log`` collects
    ``(task, start, end)`` in ``time.time()`` seconds.
    """
    left = list(ordered)
    deadline = time.monotonic() + timeout
    while left:
        left = [t for t in left if not claimed(folder, t)]
        stuck = not others_alive() or time.monotonic() > deadline
        if stuck and not server:
            return
        ready = [t for t in left if stuck or all(done(folder, n) for n in needs(t))]
        if not ready:
            time.sleep(0.02)
            continue
        task = ready[0]
        if claim(folder, task):
            t = time.time()
            run(task)
            mark_done(folder, task)
            if log is not None:
                log.append((task, t, time.time()))


def wait_done(folder: str, tasks: Iterable[str], others_alive: Callable[[], bool],
              timeout: float) -> None:
    """Wait until every task is done, nobody is left to do them, or ``timeout``."""
    tasks = list(tasks)
    deadline = time.monotonic() + timeout
    while (others_alive() and not all(done(folder, t) for t in tasks)
           and time.monotonic() < deadline):
        time.sleep(0.02)


def write_report(folder: str, compiled: int, log: list, errors: list | None = None) -> None:
    """A helper's count of compiled kernels, its task log and the errors its
    tasks raised, for the main process (written whole, then renamed:
    :func:`wait_reports` never sees half of it)."""
    tmp = os.path.join(folder, f"tmp.{os.getpid()}")
    # an unwritable folder only leaves this helper out of the compile summary
    with contextlib.suppress(OSError):
        with open(tmp, "w") as f:
            f.write(json.dumps({"compiled": compiled, "log": log, "errors": errors or []}))
        os.replace(tmp, os.path.join(folder, f"count.{os.getpid()}"))


def wait_reports(folder: str, procs: list, timeout: float) -> None:
    """Wait until every helper in ``procs`` wrote its report (or died, or ``timeout``).

    A helper reports after its last task; its exit comes later (numba and
    LLVM tear down for half a second): nothing needs to wait for that.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        written = sum(name.startswith("count.") for name in os.listdir(folder))
        if written >= len(procs) or all(p.poll() is not None for p in procs):
            return
        time.sleep(0.01)


def reports(folder: str) -> list[dict]:
    """Every helper's :func:`write_report`."""
    out = []
    for name in sorted(os.listdir(folder)):
        if name.startswith("count."):
            try:
                with open(os.path.join(folder, name)) as f:
                    out.append(json.load(f))
            except (OSError, ValueError):
                continue  # a helper killed mid-write: its count is left out of the summary
    return out
