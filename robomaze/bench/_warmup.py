"""The bench warm-up: compile a sweep's numba kernels before its runs.

:mod:`robomaze.bench._warm` runs it when imported (once, by the runner's
fork server).

Only what the sweep uses is warmed: the runner lists it in the environment
variable ``ROBOMAZE_WARM`` (``plan:astar,simulate:explore,shape:rectangle,
sensor:lidar,generate:kruskal``) before the server starts, so a first sweep
compiles only its own kernels and a cached start loads only those. Without
the variable (dask workers) every planner and agent is warmed.

The warm-up is a list of tasks (one planner; all classic solvers, which
share their kernels; all agents; one generator; the kernels every path and
every metric needs). With an empty cache and more than one core, helper
processes (one per further core, at most :data:`MAX_PROCESSES` in all, or
``ROBOMAZE_WARM_PROCESSES``) take tasks from the same list -- forks of the
server started before its first compile when the cache holds none of the
:data:`PROBES` kernels (:func:`robomaze._claims.fork`), interpreters of
their own started at the first cache miss otherwise. Each process claims
the next task (an ``O_EXCL`` file in a shared folder) whose prerequisites
(``Spec.warmup.needs``, the tasks that compile kernels it shares) are done,
the one with the longest compile chain (``Spec.warmup.cost``) first, so all finish together
and no kernel is compiled twice. Helpers compile into numba's disk cache;
when they are done the server runs every task once more, with the path
metrics, and loads their kernels from the cache (a cached task costs
milliseconds). With a warm cache no helper starts.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time

from .. import _claims
from ..registry import Warmup
from .runner import WARM_ENV as ENV

#: Set in helper processes: the folder where tasks are claimed.
CLAIMS_ENV = "ROBOMAZE_WARM_CLAIMS"
#: Upper bound on the processes that compile (set it to 1 to compile in one).
PROCESSES_ENV = _claims.PROCESSES_ENV
#: Beyond four processes the longest task (~7 s) bounds the wall time anyway.
MAX_PROCESSES = 4
#: Seconds the server waits for its helpers before compiling their tasks itself.
HELPER_TIMEOUT = 300.0

# A task's compile seconds (with an empty cache, measured one task after the
# other in one process in the warm-up's own order: default sweep, issue 22's
# round four, benchmarks/README.md) and the tasks it waits for (those that
# compile kernels it shares) are declared by each method's spec
# (robomaze.registry: ``Spec.warmup``); the three tasks below are the
# kernels every method shares, no method's. Unknown tasks (plugins without
# a warm-up) count 1 s and, for planners, wait for "common". Wrong figures
# cost time, never results.
_SHARED = {
    "common": Warmup(task="common", cost=2.4),
    # the heap shares no kernel with "common" (numba's np.empty aside): it
    # starts at once, beside it
    "heap": Warmup(task="heap", cost=1.0),
    # the reference length of the path and trajectory metrics is theta_star's
    "metrics": Warmup(task="metrics", cost=0.1, needs=("common", "heap", "plan:theta_star")),
}
_PREFIX = {"planner": "plan", "generator": "generate"}


def _declared() -> dict[str, Warmup]:
    """Task -> its warm-up: the methods' specs' (a task several share, such as
    ``classic`` or ``simulate``, once) and the shared tasks'."""
    from ..registry import AGENTS, GENERATORS, PLANNERS, SOLVERS

    out = dict(_SHARED)
    for reg in (PLANNERS, AGENTS, GENERATORS, SOLVERS):
        for spec in reg.specs():
            if spec.warmup is not None:
                out.setdefault(_task_of(spec), spec.warmup)
    return out


def _task_of(spec) -> str:
    """The warm-up task that compiles ``spec``'s kernels."""
    if spec.warmup is not None and spec.warmup.task:
        return spec.warmup.task
    return f"{_PREFIX.get(spec.kind, spec.kind)}:{spec.name}"


#: Kernel files the maze tasks compile: with no kernel of theirs in the cache
#: the warm-up is a first run (:func:`robomaze._claims.cold`), and the
#: helpers are forked before anything compiles.
PROBES = ("_grid_kernels.py", "_search/_engine.py", "geometry/_kernels.py")

#: What the last warm-up in this process did (for tests and benchmarks):
#: processes, tasks, kernels compiled here and in helpers, seconds, and
#: ``timeline``: ``[process, task, start, end]`` (seconds from the start).
STATS: dict = {}
_LOG: list = []  # (task, start, end) of the tasks this process ran, time.time()


_KINDS = ("plan", "simulate", "shape", "sensor", "generate", "mouse", "localize")


def _wanted() -> tuple[set, ...] | None:
    """The sets of ``ROBOMAZE_WARM``, in the order of ``_KINDS`` (None: warm everything)."""
    text = os.environ.get(ENV)
    if text is None:
        return None
    out: dict[str, set] = {k: set() for k in _KINDS}
    for item in text.split(","):
        kind, _, name = item.partition(":")
        if kind in out and name:
            out[kind].add(name)
    return tuple(out[k] for k in _KINDS)


def _tasks(wanted) -> list[str]:
    """The warm-up's tasks."""
    from ..registry import AGENTS, GENERATORS, PLANNERS

    planners = set(PLANNERS) if wanted is None else wanted[0] & set(PLANNERS)
    # the OMPL planners have no numba kernels to compile, and run for their budget
    planners = {n for n in planners if "ompl" not in PLANNERS.spec(n).needs}
    shared = _classic(planners)
    tasks = [f"plan:{n}" for n in sorted(planners - shared)]
    if shared:
        tasks.append("classic")  # they share most kernels: one process compiles them
    if AGENTS if wanted is None else wanted[1] & set(AGENTS):
        tasks.append("simulate")  # likewise the agents
    if tasks:
        # "heap": the engine's heap and the distance field that explore's and
        # collision_free's searches share
        tasks += ["common", "heap", "metrics"]
    from ..localize import LOCALIZERS
    from ..registry import SOLVERS

    if "simulate" in tasks and (LOCALIZERS if wanted is None else wanted[6] & set(LOCALIZERS)):
        tasks.append("localize")  # the particle filter's and the scan matcher's kernels
    if SOLVERS if wanted is None else wanted[5] & set(SOLVERS):
        tasks.append("mouse")  # the mice and their route search share their kernels
    if wanted is not None:
        # one task per generator: they share few kernels, and each runs
        # beside the maze's tasks (a generator waits for nothing)
        tasks += [f"generate:{n}" for n in sorted(wanted[4] & set(GENERATORS))]
    return tasks


def _classic(planners) -> set[str]:
    """The planners among ``planners`` that the shared ``classic`` task warms."""
    from ..registry import PLANNERS

    return {n for n in planners if n in PLANNERS and _task_of(PLANNERS.spec(n)) == "classic"}


def _warmup(task: str) -> Warmup:
    """The declared warm-up of ``task`` (a plugin's without one: 1 s, and a
    planner waits for "common")."""
    found = _declared().get(task)
    if found is not None:
        return found
    return Warmup(task=task, needs=("common",) if task.startswith("plan:") else ())


def _needs(task: str, tasks) -> tuple[str, ...]:
    return tuple(t for t in _warmup(task).needs if t in tasks and t != task)


def _chain(task: str, tasks, memo: dict) -> float:
    """Compile seconds of ``task`` plus the longest chain of tasks waiting for it."""
    if task not in memo:
        memo[task] = 0.0  # no cycles in the declared needs; this only guards a bad plugin
        after = [t for t in tasks if task in _needs(t, tasks)]
        memo[task] = _warmup(task).cost + max((_chain(t, tasks, memo) for t in after),
                                               default=0.0)
    return memo[task]


def _order(tasks: list[str]) -> list[str]:
    """Longest chain first (ties by name, so every process has the same list)."""
    memo: dict = {}
    return sorted(tasks, key=lambda t: (-_chain(t, tasks, memo), t))
class _Context:
    """The little maze every task plans and simulates on, and what to warm."""

    def __init__(self, wanted):
        from ..geometry import Footprint

        self.wanted = wanted
        self._grid = None
        shapes = {"disc", "rectangle", "polygon"} if wanted is None else wanted[2]
        self.footprints = [Footprint.disc(0.04)] if "disc" in shapes else []
        if shapes - {"disc"}:
            self.footprints.append(Footprint.rectangle(0.1, 0.06))  # polygons share its kernels

    @property
    def grid(self):
        # made on first use: a helper that starts with the generators does
        # not compile the maze's kernels while the server does
        if self._grid is None:
            from ..grid import widen

            # no generator compiles for it, so the tasks that wait for
            # "common" do not wait for one
            self._grid = widen(_claims.warm_maze(), corridor=3, wall=1, resolution=0.1)
            self._ends = self._grid.start_goal()
        return self._grid

    @property
    def start(self):
        self.grid  # noqa: B018
        return self._ends[0]

    @property
    def goal(self):
        self.grid  # noqa: B018
        return self._ends[1]


def _plan(ctx: _Context, names, metrics: bool) -> None:
    from ..metrics import path_metrics
    from ..plan import plan

    for fp in ctx.footprints:
        for name in names:
            try:
                path = plan(ctx.grid, ctx.start, ctx.goal, method=name, footprint=fp)
                path.collision_free  # noqa: B018 -- the run's row reads the figures
                if metrics:
                    path_metrics(path, ctx.grid, footprint=fp)
            except Exception:
                pass  # e.g. the rectangle fits nowhere: the kernels compiled anyway


def _run(task: str, ctx: _Context, metrics: bool) -> None:
    """Run one task (compiling, or loading from the cache, its kernels).

    ``metrics``: also measure each planned path (the path metrics run
    theta_star: until its kernels are cached they are the "metrics" task's).
    """
    from ..geometry import Footprint
    from ..localize import LOCALIZERS
    from ..registry import AGENTS, GENERATORS, PLANNERS, SOLVERS
    from ..sim import simulate

    w = ctx.wanted
    if task.startswith("plan:"):
        _plan(ctx, [task[5:]], metrics)
    elif task == "classic":
        _plan(ctx, sorted(_classic(set(PLANNERS) if w is None else w[0])), metrics)
    elif task == "simulate":
        agents = sorted(AGENTS) if w is None else sorted(w[1] & set(AGENTS))
        sensors = ("lidar", "ir") if w is None else sorted(w[3]) or ("lidar",)
        for name in agents:
            for sensor in sensors:
                try:
                    simulate(ctx.grid, footprint=Footprint.disc(0.04), agent=name,
                             sensor=sensor, max_steps=30, rng=0)
                except Exception:
                    pass  # an agent that fails here fails again, reported, in its own run
    elif task == "heap":
        from .. import _search as core

        core.distance_field(ctx.grid.free, [ctx.start[0] * ctx.grid.cols + ctx.start[1]])
    elif task in ("common", "metrics"):
        import numpy as np

        from .. import _search as core
        from ..metrics import path_metrics
        from ..plan import make_path

        r, c = ctx.start
        ctx.grid.clearance()
        # the engine's wave, which the field calls from Python on open grids
        # (a sweep's corridor 5 and up): the warm-up maze's field never does,
        # and its first run loaded it from the cache inside its compute time
        # (3.5 ms, 9x that run's time in the CI gate)
        core.bfs_field(np.ones(100, np.uint8), 10, 10, 0, False)
        for fp in ctx.footprints:
            try:
                path = make_path(ctx.grid, [(r, c), (r, c + 1)], footprint=fp)
                path.collision_free  # noqa: B018 -- figures are measured on first read
                if task == "metrics":
                    path_metrics(path, ctx.grid, footprint=fp)
            except Exception:
                pass  # e.g. the footprint does not fit there: the kernels compiled anyway
    elif task == "localize":
        names = sorted(LOCALIZERS) if w is None else sorted(w[6] & set(LOCALIZERS))
        for name in names:
            try:
                simulate(ctx.grid, footprint=Footprint.disc(0.04), agent="follow_plan",
                         sensor="lidar", max_steps=20, rng=0, localize=name,
                         odometry_noise="gaussian:0.01")
            except Exception:
                pass  # fails again, reported, in its own run
    elif task == "mouse":
        _mice(sorted(SOLVERS) if w is None else sorted(w[5] & set(SOLVERS)))
    elif task.startswith("generate:"):
        from ..generate import generate

        name = task[9:]
        try:   # the spec's small warm-up call
            warm = GENERATORS.spec(name).warmup
            generate(name, 5, 5, rng=0, **dict(warm.options if warm is not None else {}))
        except Exception:
            pass  # e.g. a generator that needs options: it compiles in its run


def _mice(names) -> None:
    """Each mouse on a little contest maze, with the figures of its row (the
    summary, the true maze's shortest and fastest routes under a profile):
    the mouse run kind's kernels."""
    from ..generate import generate
    from ..maze import Maze
    from ..micromouse import MotionProfile, fastest_route, get_profile, solve
    from .micromouse import _driven, shortest_route

    try:
        m = generate("kruskal", 4, 4, rng=0)
        maze = Maze(m.east, m.south, start=(3, 0), goals=[(1, 1)])
        mouse = get_profile("kerikun")
    except Exception:
        return
    for name in names:
        try:
            options = {"profile": mouse} if name.startswith("floodfill") else {}
            solve(maze, method=name, **options).summary(MotionProfile(), mouse_profile=mouse)
        except Exception:
            pass  # fails again, reported, in its own run
    try:
        best = shortest_route(maze)
        for diagonals in (False, True):
            _driven(best, maze, mouse, diagonals)
            fastest_route(maze, diagonals=diagonals, profile=mouse)
    except Exception:
        pass


def _processes(ntasks: int) -> int:
    """How many processes compile: one per core this process may use, capped."""
    return _claims.processes(ntasks, MAX_PROCESSES)


def _compiled_here() -> int:
    from .. import _jit_notice

    notice = _jit_notice.current()
    return notice.count if notice is not None else 0


def _work(tasks: list[str], ctx: _Context, folder: str, metrics: bool, others_alive,
          server: bool) -> None:
    """Claim and run tasks (:func:`robomaze._claims.work`, longest chain first)."""
    _claims.work(_order(tasks), lambda task: _run(task, ctx, metrics), folder, others_alive,
                 server, HELPER_TIMEOUT, needs=lambda task: _needs(task, tasks), log=_LOG)


def _helpers(n: int, folder: str) -> list[subprocess.Popen]:
    env = dict(os.environ, **{CLAIMS_ENV: folder})
    out = []
    for _ in range(n):
        try:
            out.append(subprocess.Popen([sys.executable, "-c", "import robomaze.bench._warm"],
                                        env=env, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        except OSError:
            break  # the others compile their share
    return out


def _helper_work(folder: str, wanted, tasks: list[str]) -> None:
    """A helper's loop: claim and compile tasks until none is left, then report
    the kernels it compiled (its notice is silent: the server speaks)."""
    from .. import _jit_notice

    _LOG.clear()  # a fork inherits the server's
    notice = _jit_notice.install(silent=True)
    _jit_notice.on_next_compile(None)
    if notice is not None:
        notice.silent = True  # a fork inherits the server's notice, and its count
    base = _compiled_here()
    parent = os.getppid()
    try:
        # the server's death (its pid's parent changes) leaves nobody to wait for
        _work(tasks, _Context(wanted), folder, False, lambda: os.getppid() == parent, False)
    except Exception:
        pass  # the server compiles what is left
    finally:
        _claims.write_report(folder, _compiled_here() - base, _LOG)


def helper_main(folder: str) -> None:
    """A helper interpreter (:func:`_helpers`): :func:`_helper_work` on the task list."""
    from .. import _jit_cache, _jit_notice

    _jit_notice.install(silent=True)
    _jit_cache.install()
    try:
        wanted = _wanted()
        tasks = _tasks(wanted)
    except Exception:
        _claims.write_report(folder, 0, [])
        return  # the server compiles what is left
    _helper_work(folder, wanted, tasks)


def serve() -> None:
    """Warm up what ``ROBOMAZE_WARM`` lists (everything without it); never raises."""
    from .. import _jit_cache, _jit_notice

    t0 = time.perf_counter()
    epoch = time.time()
    _LOG.clear()
    _jit_notice.install()  # the first sweep on a machine compiles here: say so
    _jit_cache.install()  # helpers and workers may save to the cache beside us
    folder = tempfile.mkdtemp(prefix="robomaze-warm-")
    helpers: list = []  # subprocess.Popen or _claims.Forked
    stats = {"processes": 1, "tasks": 0}
    try:
        wanted = _wanted()
        tasks = _tasks(wanted)
        stats["tasks"] = len(tasks)
        nproc = _processes(len(tasks)) if wanted is not None else 1
        ctx = _Context(wanted)
        # the server makes the maze and the kernels everything shares while
        # the helpers start (they claim the rest once "common" is done)
        common = "common" in tasks and _claims.claim(folder, "common")
        if nproc > 1 and _claims.cold(PROBES):
            # a first run: the helpers are forks of this process, ready at once
            _claims.prime()
            helpers.extend(_claims.fork(nproc - 1,
                                        lambda: _helper_work(folder, wanted, tasks)))
        if nproc > 1 and not helpers:
            # helpers start at the first cache miss: never when everything
            # loads from the cache, at once when nothing does
            _jit_notice.on_next_compile(lambda: helpers.extend(_helpers(nproc - 1, folder)))
        ctx.grid  # noqa: B018  (the first compile, if any: helpers start now)
        if common:
            t = time.time()
            _run("common", ctx, False)
            _claims.mark_done(folder, "common")
            _LOG.append(("common", t, time.time()))
        # without the path metrics: they need theta_star's kernels, which
        # may be compiling in a helper ("metrics" waits for them)
        _work(tasks, ctx, folder, False, lambda: any(h.poll() is None for h in helpers), True)
        _jit_notice.on_next_compile(None)
        # every task done (or nobody left to do it): no need to wait for the
        # helpers' exit, which takes a while (numba and LLVM tear down)
        _claims.wait_done(folder, tasks, lambda: any(h.poll() is None for h in helpers),
                          HELPER_TIMEOUT - (time.perf_counter() - t0))
        t = time.time()
        for task in _order(tasks):  # with the metrics; helpers' kernels load from the cache
            _run(task, ctx, True)
        _LOG.append(("(all again, with metrics)", t, time.time()))
        # they report once every task is claimed; their exit (numba and LLVM
        # tearing down) is not waited for: the kill below ends it
        _claims.wait_reports(folder, helpers, 30.0)
    except Exception:
        pass  # warm-up is an optimisation only; runs report their own errors
    finally:
        _jit_notice.on_next_compile(None)  # forked workers must not start helpers
        for h in helpers:  # reported (its kernels are in the cache) or given up on
            if h.poll() is None:
                h.kill()
            h.wait()
        stats["processes"] = 1 + len(helpers)
        reports = _claims.reports(folder)
        shutil.rmtree(folder, ignore_errors=True)
        stats["compiled_helpers"] = sum(r.get("compiled", 0) for r in reports)
        stats["timeline"] = sorted(
            [[i, task, round(a - epoch, 2), round(b - epoch, 2)]
             for i, log in enumerate([_LOG] + [r.get("log", []) for r in reports])
             for task, a, b in log], key=lambda row: row[2])
    stats["compiled_here"] = _compiled_here()
    stats["seconds"] = time.perf_counter() - t0
    STATS.clear()
    STATS.update(stats)
    _jit_notice.summary(others=stats["compiled_helpers"], processes=stats["processes"],
                        elapsed=stats["seconds"])

