"""Run a sweep: in parallel, isolated, resumable, with verdicts that do not depend on load.

Every limit that decides a run's result is counted in work (an agent's
steps, an OMPL planner's validity checks, a mouse's moves), so a busy
machine gives the same rows as an idle one. The wall clock is only a safety
net against a run that hangs, and when it fires the row's status is
``infra_timeout``: not a result of the method, but of the machine.
``robomaze bench compare`` re-runs such rows once, serially and warm,
under a CPU budget scaled from the baseline's own time
(:mod:`robomaze.bench.reexec`): a re-run that finishes is compared, a hang
is a regression, and only a re-run the machine starves stays inconclusive.

Local execution keeps one single-process
:class:`concurrent.futures.ProcessPoolExecutor` per worker *slot*. A slot
runs one scenario at a time, so the parent knows exactly when each run
started and which process runs it. The safety net has two layers:

- a *soft* limit inside the worker (``SIGALRM`` after ``time_limit``
  seconds) interrupts Python code and turns the run into an
  ``infra_timeout`` row while the worker lives on;
- a *hard* limit in the parent (``time_limit`` plus a grace period) catches
  what the soft one cannot (a compiled kernel that never returns, a process
  that blocks signals): the slot's process is killed, the run becomes an
  ``infra_timeout`` row and the slot gets a fresh process.

A run that raises becomes an ``error`` row with its traceback; a worker that
dies (segfault, out of memory) becomes an ``error`` row too. The sweep
always goes on. Rows are appended to ``DIR/results.jsonl`` as they finish
(fsync'd, see :mod:`robomaze.bench.store`) and ids already there are skipped,
so rerunning on the same ``DIR`` resumes an interrupted sweep.

With ``executor="dask"`` the same worker function runs on a
dask.distributed cluster (``pip install 'robomaze[dask]'``); there a run
that exceeds its limit is reported as an ``infra_timeout`` row but its thread
cannot be killed and finishes in the background.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Sequence

from .._threads import THREAD_VARS
from ..errors import ParameterError
from .plugins import import_plugins
from .refcache import REFERENCE_CACHE_ENV, cache_files, spread_by_reference, sweep_cache
from .run import BAG_DIR_ENV, failed_row, failed_timings, format_exception, run_scenario
from .scenario import Scenario
from ._procs import become_subreaper, has_children, kill_tree
from .files import LOCK_NAME, DirLock, Manifest, claim, target, write_file
from .store import RESULTS_NAME, ResultStore, read_rows, write_rows

__all__ = ["run_sweep", "SweepResult", "Progress", "hard_grace"]


def hard_grace(time_limit: float) -> float:
    """Seconds the parent waits past ``time_limit`` before killing a worker."""
    return max(1.0, 0.25 * time_limit)


# ----------------------------------------------------------------- worker
class _SoftTimeout(BaseException):
    """Raised by SIGALRM in a worker; BaseException so planners can't swallow it
    with ``except Exception``."""


def _on_alarm(signum, frame):
    raise _SoftTimeout()


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(1.0)
        try:
            os.kill(parent, 0)
            with open(f"/proc/{parent}/stat", "rb") as fh:  # a killed, unreaped parent
                if fh.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                    raise ProcessLookupError
        except ProcessLookupError:  # the sweep was killed: do not linger as an orphan
            os._exit(1)
        except (PermissionError, OSError, IndexError):
            pass  # the parent exists but is not ours to signal (or no /proc): it is alive


def _worker_init(plugins: Sequence[str], base_dir: str, parent: int,
                 environ: dict | None = None) -> None:
    # Interrupts belong to the parent: it decides what to do with the sweep.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for key, value in (environ or {}).items():  # undo _import_like_parent for the runs
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
    become_subreaper()
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    try:
        import_plugins(plugins, base_dir)
    except Exception:  # reported per run, where the scenario imports them again
        pass


def execute(scenario_dict: dict, *, soft_timeout: bool = True) -> dict:
    """Run one scenario and always return a row (``ok``, ``error`` or ``infra_timeout``).

    ``ROBOMAZE_SLOW_RUNS=S`` (a test hook) makes every run sleep ``S``
    seconds of wall-clock time first, as a loaded machine would: rows and
    verdicts must not change.
    """
    scenario = Scenario.from_dict(scenario_dict)
    t0 = time.perf_counter()
    use_alarm = soft_timeout and threading.current_thread() is threading.main_thread()
    old = None
    try:
        if use_alarm:
            old = signal.signal(signal.SIGALRM, _on_alarm)
            signal.setitimer(signal.ITIMER_REAL, scenario.time_limit)
        try:
            _injected_slowness()
            with sweep_cache():   # references shared with the other workers
                return run_scenario(scenario)
        finally:
            # disarm before anything else; an alarm landing in this window is
            # still caught below (the run then counts as timed out)
            if use_alarm:
                signal.setitimer(signal.ITIMER_REAL, 0)
    except _SoftTimeout:
        return failed_row(scenario, "infra_timeout",
                          f"wall-clock safety net: still running after {scenario.time_limit:g} s "
                          "(time_limit); a machine problem, not a result of the method",
                          elapsed=time.perf_counter() - t0)
    except BaseException as exc:  # isolation: any failure of the run is a result row,
        # SystemExit and KeyboardInterrupt raised by a planner included (a real
        # Ctrl-C never reaches a worker: workers ignore SIGINT, the parent decides)
        status = "infra_timeout" if _is_safety_net(exc) else "error"
        return failed_row(scenario, status, format_exception(exc),
                          elapsed=time.perf_counter() - t0,
                          timings=failed_timings(exc) if status == "error" else None)
    finally:
        if use_alarm and old is not None:
            signal.signal(signal.SIGALRM, old)


#: Test hook: seconds every run sleeps first, as on a loaded machine (the
#: fork server's environment is fixed when it starts, so workers get it passed).
SLOW_ENV = "ROBOMAZE_SLOW_RUNS"


def _is_safety_net(exc: BaseException) -> bool:
    """A method's own wall-clock safety net fired (e.g. an OMPL planner's)."""
    from ..plan.sampling.budget import WallClockLimitError

    return isinstance(exc, WallClockLimitError)


def _injected_slowness() -> None:
    value = os.environ.get(SLOW_ENV)
    if value:
        try:
            seconds = float(value)
        except ValueError:
            return
        if 0 < seconds < 3600:
            time.sleep(seconds)


def _local_execute(scenario_dict: dict) -> tuple[dict, bool]:
    """:func:`execute` in a local worker, then end whatever the run left running
    (a planner's forked child would otherwise outlive the sweep holding its stdout).

    Returns the row and whether processes had to be ended: the parent then
    replaces this worker, whose process state (e.g. multiprocessing's fork
    server it believes alive) no longer matches what runs.
    """
    row = execute(scenario_dict)
    return row, has_children() and kill_tree(os.getpid(), include_root=False, reap=True)


def _worker_identity() -> tuple[int, str]:
    from .. import __file__ as where

    return os.getpid(), where


# ---------------------------------------------------------------- progress
class Progress:
    """A plain-text progress bar on stderr: done/total, rate, ETA, failures."""

    def __init__(self, total: int, *, stream=None, enabled: bool = True, label: str = "bench"):
        self.total = total
        self.done = 0
        self.failed = 0
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.label = label
        self.t0 = time.monotonic()
        self._last = 0.0
        self._started = False
        self._tty = bool(getattr(self.stream, "isatty", lambda: False)())

    def start(self) -> None:
        """Start the clock: the rate and ETA count from here (after the warm-up)."""
        if not self._started:
            self.t0 = time.monotonic()
            self._started = True

    def update(self, row: dict | None = None) -> None:
        if row is not None:
            self.done += 1
            if row.get("status") != "ok":
                self.failed += 1
        if not self.enabled:
            return
        now = time.monotonic()
        final = self.done >= self.total
        if not final and not self._tty and now - self._last < 2.0:
            return
        self._last = now
        self.stream.write(("\r" if self._tty else "") + self.line() + ("\n" if final or not self._tty else ""))
        self.stream.flush()

    def line(self) -> str:
        elapsed = max(time.monotonic() - self.t0, 1e-9)
        rate = self.done / elapsed
        left = (self.total - self.done) / rate if rate > 0 else float("nan")
        width = 24
        filled = int(width * self.done / self.total) if self.total else width
        eta = _hms(left) if left == left else "?"
        fail = f"  {self.failed} failed" if self.failed else ""
        return (f"{self.label} [{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total}"
                f"  {rate:.2f} run/s  elapsed {_hms(elapsed)}  ETA {eta}{fail}")


def _hms(s: float) -> str:
    s = int(round(s))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


# ------------------------------------------------------------ local pool
@dataclass
class _Slot:
    ctx: object
    plugins: tuple
    base_dir: str
    executor: ProcessPoolExecutor | None = None
    pid: int | None = None
    future: object = None
    scenario: Scenario | None = None
    started: float = 0.0

    def start(self, *, wait: bool = True):
        with _import_like_parent() as saved:
            self.executor = ProcessPoolExecutor(
                max_workers=1, mp_context=self.ctx, initializer=_worker_init,
                initargs=(self.plugins, self.base_dir, os.getpid(),
                          dict(saved, **{SLOW_ENV: os.environ.get(SLOW_ENV),
                                         BAG_DIR_ENV: os.environ.get(BAG_DIR_ENV),
                                         REFERENCE_CACHE_ENV: os.environ.get(REFERENCE_CACHE_ENV)})))
            fut = self.executor.submit(_worker_identity)
        if wait:
            self.pid = _started_pid(fut)
        return fut

    def submit(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self.started = time.monotonic()
        self.future = self.executor.submit(_local_execute, scenario.to_dict())

    def clear(self) -> None:
        self.future = None
        self.scenario = None

    def kill(self) -> None:
        if self.pid is not None:  # the worker and everything its run started
            kill_tree(self.pid, include_root=True, reap=False)
        self.executor.shutdown(wait=True, cancel_futures=True)
        self.executor = None
        self.pid = None


class _single_threaded_children:
    """Set the thread variables (unless the user set them) while workers start.

    The sweep parallelises over runs, and idle BLAS/OpenMP threads spinning
    in every worker steal the cores the other workers need (measured: 2
    workers ran slower than 1).
    """

    def __enter__(self):
        self.saved = {k: os.environ.get(k) for k in THREAD_VARS}
        for k in THREAD_VARS:
            os.environ.setdefault(k, "1")
        return self

    def __exit__(self, *exc):
        for k, v in self.saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


class _import_like_parent:
    """Make new worker processes import the ``robomaze`` this process imported.

    The fork server runs ``python -c ...``, which puts the current directory
    first on ``sys.path`` (and Python 3.11 ignores the ``sys_path`` it is
    handed): run from a folder holding a clone, workers would import that
    clone's ``robomaze``. While workers start, ``PYTHONPATH`` lists this
    process's ``sys.path`` and ``PYTHONSAFEPATH`` keeps the current directory
    out; the workers restore the user's values before any run.
    """

    _KEYS = ("PYTHONPATH", "PYTHONSAFEPATH")

    def __enter__(self) -> dict:
        self.saved = {k: os.environ.get(k) for k in self._KEYS}
        paths = [os.path.abspath(p) if p else os.getcwd() for p in sys.path]
        os.environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
        os.environ["PYTHONSAFEPATH"] = "1"
        return dict(self.saved)

    def __exit__(self, *exc) -> None:
        for k, v in self.saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _started_pid(fut) -> int:
    """The pid of a fresh worker, after checking it imported our ``robomaze``."""
    from .. import __file__ as ours
    from ..errors import RobomazeError

    try:
        pid, theirs = fut.result()
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise RobomazeError(f"a worker process could not start robomaze ({type(exc).__name__}: "
                            f"{exc}); this process imports it from {os.path.dirname(ours)}") from None
    if os.path.realpath(theirs) != os.path.realpath(ours):
        raise RobomazeError(f"worker processes import robomaze from {os.path.dirname(theirs)}, "
                            f"this process from {os.path.dirname(ours)}; refusing to run "
                            "the sweep with another copy of the code")
    return pid


#: Environment variable naming what the fork server warms up (read by ``_warm``).
WARM_ENV = "ROBOMAZE_WARM"


def _warm_list(scenarios: list[Scenario]) -> str:
    """What the fork server's warm-up compiles: the sweep's own planners, agents,
    mice, localizers, footprint shapes, sensors and maze generators
    (``generate:kruskal,localize:mcl,mouse:floodfill,plan:astar,simulate:explore,
    shape:rectangle``)."""
    items = set()
    for sc in scenarios:
        items.add(f"{sc.kind}:{sc.method}")
        generator = sc.spec["maze"].get("generator")
        if generator:
            items.add(f"generate:{generator}")
        fp = sc.spec["robot"].get("footprint")
        if isinstance(fp, dict):
            items.add(f"shape:{fp.get('shape')}")
        sensor = sc.spec["robot"].get("sensor")
        if sc.kind == "simulate" and sensor:
            items.add(f"sensor:{sensor}")
        localize = sc.spec["robot"].get("localize")
        if sc.kind == "simulate" and localize:
            items.add(f"localize:{localize}")
    return ",".join(sorted(items))


def _mp_context(scenarios: list[Scenario] | None = None):
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" in methods:
        if scenarios:
            # The fork server inherits the environment when it starts: warm up
            # only what this sweep runs (a cached start then loads a handful of
            # kernels, not all of them). A server already running keeps its own.
            os.environ[WARM_ENV] = _warm_list(scenarios)
        ctx = multiprocessing.get_context("forkserver")
        # Workers start warm: the heavy imports happen once in the server.
        ctx.set_forkserver_preload(["robomaze.bench.run", "robomaze.plan", "robomaze.sim",
                                    "robomaze.generate", "robomaze.geometry",
                                    "robomaze.bench._warm"])
        return ctx
    return multiprocessing.get_context("spawn")


def _run_local(scenarios: list[Scenario], workers: int, emit: Callable[[dict], None],
               on_ready: Callable[[], None] | None = None) -> None:
    if not scenarios:
        return
    ctx = _mp_context(scenarios)
    first = scenarios[0]
    plugins = tuple(first.spec["plugins"])
    slots = [_Slot(ctx, plugins, first.base_dir) for _ in range(min(workers, len(scenarios)))]
    pending = list(reversed(scenarios))
    try:
        with _single_threaded_children():
            started = [slot.start(wait=False) for slot in slots]  # start them side by side
            for slot, fut in zip(slots, started):
                slot.pid = _started_pid(fut)
        if on_ready is not None:  # the warm-up (compiling in the fork server) is over
            on_ready()
        while True:
            for slot in slots:
                if slot.future is None and pending:
                    slot.submit(pending.pop())
            busy = [s for s in slots if s.future is not None]
            if not busy:
                break
            now = time.monotonic()
            next_deadline = min(s.started + s.scenario.time_limit + hard_grace(s.scenario.time_limit)
                                for s in busy)
            wait([s.future for s in busy], timeout=max(0.05, next_deadline - now),
                 return_when=FIRST_COMPLETED)
            now = time.monotonic()
            for slot in busy:
                sc = slot.scenario
                if slot.future.done():
                    # .exception() hands back what the worker raised without raising it
                    # here: a KeyboardInterrupt or SystemExit from a run is that run's
                    # failed row; only one raised in this process (a real Ctrl-C) stops
                    # the sweep.
                    exc = slot.future.exception()
                    if exc is None:
                        row, dirty = slot.future.result()
                        if dirty:  # its run left processes behind: a fresh worker next
                            slot.kill()
                            with _single_threaded_children():
                                slot.start()
                    elif isinstance(exc, BrokenProcessPool):
                        row = failed_row(sc, "error", "worker process died during the run "
                                         "(crash or out of memory)", elapsed=now - slot.started)
                        slot.kill()
                        with _single_threaded_children():
                            slot.start()
                    else:  # e.g. the row could not be pickled back
                        row = failed_row(sc, "error", format_exception(exc),
                                         elapsed=now - slot.started)
                    slot.clear()
                    emit(row)
                elif now > slot.started + sc.time_limit + hard_grace(sc.time_limit):
                    slot.kill()
                    row = failed_row(sc, "infra_timeout",
                                     f"killed after {now - slot.started:.1f} s: exceeded the "
                                     f"wall-clock safety net time_limit {sc.time_limit:g} s "
                                     "and did not stop",
                                     elapsed=now - slot.started)
                    slot.clear()
                    emit(row)
                    with _single_threaded_children():
                        slot.start()
    finally:
        for slot in slots:
            if slot.executor is not None:
                if slot.future is not None and not slot.future.done():
                    slot.kill()
                else:
                    slot.executor.shutdown(wait=True, cancel_futures=True)


# ----------------------------------------------------------------- dask
def _dask_execute(scenario_dict: dict) -> dict:
    """Dask task: run with a thread watchdog (signals are main-thread only)."""
    from . import _warm  # noqa: F401  (first task per worker process compiles the kernels)

    scenario = Scenario.from_dict(scenario_dict)
    box: dict = {}

    def target():
        box["row"] = execute(scenario_dict, soft_timeout=False)

    t0 = time.perf_counter()
    th = threading.Thread(target=target, daemon=True, name=f"robomaze-{scenario.id}")
    th.start()
    th.join(scenario.time_limit + hard_grace(scenario.time_limit))
    if th.is_alive():
        return failed_row(scenario, "infra_timeout",
                          f"exceeded the wall-clock safety net time_limit {scenario.time_limit:g} s "
                          "on the dask worker "
                          "(the run's thread cannot be killed and finishes in the background)",
                          elapsed=time.perf_counter() - t0)
    return box["row"]


def _run_dask(scenarios: list[Scenario], scheduler, emit: Callable[[dict], None]) -> None:
    try:
        from dask.distributed import Client, as_completed
    except ImportError:
        raise ParameterError("--executor dask needs dask.distributed: "
                             "pip install 'robomaze[dask]'") from None
    if not scenarios:
        return
    own = not isinstance(scheduler, Client)
    client = Client(scheduler) if own else scheduler
    try:
        futures = {client.submit(_dask_execute, sc.to_dict(), pure=False,
                                 key=f"robomaze-bench-{sc.id}-{time.monotonic_ns()}"): sc
                   for sc in scenarios}
        for fut in as_completed(futures):
            sc = futures[fut]
            try:
                row = fut.result()
            except Exception as exc:  # worker lost, task erred outside execute()
                row = failed_row(sc, "error", format_exception(exc))
            emit(row)
    finally:
        if own:
            client.close()


# ----------------------------------------------------------------- sweep
def _sweep_store(directory: Path, retry_failed: bool) -> ResultStore:
    """The results store of a locked directory (failed rows dropped first on retry).

    The retry rewrite goes through a temporary file renamed over
    ``results.jsonl``, so a kill at any moment leaves either the old file or
    the new one, and the dropped runs simply run again on the next sweep.
    """
    results = target(directory, RESULTS_NAME)  # never through a planted link
    if retry_failed and results.exists():
        rows = read_rows(directory, dedupe=False)
        kept = [r for r in rows if r.get("status") == "ok"]
        if len(kept) != len(rows):
            write_rows(directory, kept)
    manifest = Manifest.load(directory)
    manifest.add(RESULTS_NAME)
    manifest.add(LOCK_NAME)
    manifest.save()
    return ResultStore(directory)


class _environ:
    """Set (or, with None, unset) one environment variable while workers start."""

    def __init__(self, key: str, value: str | None) -> None:
        self.key, self.value = key, value

    def __enter__(self):
        self.saved = os.environ.get(self.key)
        if self.value is None:
            os.environ.pop(self.key, None)
        else:
            os.environ[self.key] = self.value

    def __exit__(self, *exc):
        if self.saved is None:
            os.environ.pop(self.key, None)
        else:
            os.environ[self.key] = self.saved


def _machine() -> dict:
    """What the sweep ran on (reported, never compared: rows stay portable)."""
    import platform

    try:
        load = " ".join(f"{v:.2f}" for v in os.getloadavg())
    except OSError:
        load = None
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {"platform": platform.platform(terse=True), "cpus": cpus, "load": load}


@dataclass
class SweepResult:
    """What a sweep did: where rows went and how many ran / were skipped."""

    directory: Path
    total: int
    skipped: int
    ran: int
    failed: int
    rows: list = field(default_factory=list)


def run_sweep(scenarios: Iterable[Scenario], directory: str | os.PathLike, *,
              workers: int | None = None, executor: str = "local", scheduler=None,
              progress: bool = True, stream=None, retry_failed: bool = False,
              on_ready: Callable[[], None] | None = None,
              meta: dict | None = None) -> SweepResult:
    """Run every scenario not yet in ``DIR/results.jsonl`` and append its row.

    Parameters
    ----------
    scenarios : iterable of Scenario
    directory : path
        Result directory (created). Rerunning on it resumes.
    workers : int, optional
        Local worker processes (default: the number of usable cores).
    executor : {"local", "dask"}
    scheduler : str or dask.distributed.Client, optional
        Scheduler address (or a client) for ``executor="dask"``.
    progress : bool
        Draw the progress bar on ``stream`` (stderr).
    retry_failed : bool
        Drop the rows of runs that failed (``error`` / ``infra_timeout``) from
        ``DIR/results.jsonl`` first, so they run again (the file is
        rewritten atomically; successful and no-path rows are kept).
    on_ready : callable, optional
        Called once every check of the output (the directory, its lock, its
        results file, ``sweep.json``) has passed, before the first run: the
        CLI says what it runs only then, so an error is its only line.
    meta : dict, optional
        Sweep name, description and source, written with the scenario ids to
        ``DIR/sweep.json`` so the report can say how complete the directory is.
    """
    scenarios = list(scenarios)
    if executor not in ("local", "dask"):
        raise ParameterError(f"executor must be 'local' or 'dask', got {executor!r}")
    if executor == "dask" and scheduler is None:
        raise ParameterError("executor 'dask' needs a scheduler address (--scheduler)")
    if workers is None:
        workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ParameterError(f"workers must be an integer >= 1, got {workers!r}")
    from .run import validate_for_run

    for sc in scenarios:
        validate_for_run(sc)
    directory = claim(directory)
    # One writer at a time: a second sweep (or a --retry-failed rewrite) into
    # the same directory would duplicate runs or drop rows appended meanwhile.
    with DirLock(directory, "bench sweep"), _sweep_store(directory, retry_failed) as store:
        # each reference group's first run early: workers build different references at once
        todo = spread_by_reference([sc for sc in scenarios if sc.id not in store.done])
        bar = Progress(len(todo), stream=stream, enabled=progress)
        result = SweepResult(directory, len(scenarios), len(scenarios) - len(todo), 0, 0)

        bags = any(sc.spec["run"].get("bags") for sc in todo)
        manifest = Manifest.load(directory) if bags else None

        def emit(row: dict) -> None:
            if row.get("bag") and manifest is not None:  # robomaze wrote it: list it
                manifest.add(row["bag"])
                manifest.save()
            store.append(row)
            result.ran += 1
            result.failed += row.get("status") != "ok"
            bar.update(row)

        info = {"name": "", "description": "", "source": ""}
        info.update(meta or {})
        info["ids"] = [sc.id for sc in scenarios]
        info["machine"] = _machine()
        from .versions import versions

        info["versions"] = versions()   # every library a result depends on
        write_file(directory, "sweep.json", json.dumps(info, indent=1) + "\n")
        if on_ready is not None:     # every check of the output has passed
            on_ready()
        if todo:
            if bags and executor != "local":
                raise ParameterError("run.bags writes ROS 2 bags into the results directory, "
                                     "which dask workers may not share: use the local executor")
            if executor == "local":
                with _environ(BAG_DIR_ENV, str(directory) if bags else None), \
                        _environ(REFERENCE_CACHE_ENV, str(directory)):
                    _run_local(todo, workers, emit,
                               on_ready=lambda: (bar.start(), bar.update()))
                cached = Manifest.load(directory)   # the shared references: robomaze's files
                for rel in cache_files(directory):
                    cached.add(rel)
                cached.save()
            else:
                bar.start()
                bar.update()
                _run_dask(todo, scheduler, emit)
    return result
