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
every metric needs), run by :func:`robomaze._compile.warm` on up to
:data:`MAX_PROCESSES` cores when the cache lacks the :data:`PROBES`
kernels: each process takes the next task whose prerequisites
(``Spec.warmup.needs``, the tasks that compile kernels it shares) are done,
the one with the longest compile chain (``Spec.warmup.cost``) first, so all finish together
and no kernel is compiled twice.
"""

from __future__ import annotations

import gc
import os
import time

from .. import _compile
from .._compile.parallel import PROCESSES_ENV  # noqa: F401  (bench.warm_up sets it)
from ..registry import Warmup
from .runner import WARM_ENV as ENV

#: Beyond four processes the longest task (~7 s) bounds the wall time anyway.
MAX_PROCESSES = 4

# A task's compile seconds (with an empty cache, measured one task after the
# other in one process in the warm-up's own order: default sweep, issue 22's
# round four, benchmarks/README.md) and the tasks it waits for (those that
# compile kernels it shares) are declared by each method's spec
# (robomaze.registry: ``Spec.warmup``); the three tasks below are the
# kernels every method shares, no method's. Unknown tasks (plugins without
# a warm-up) count 1 s and, for planners, wait for "common". Wrong figures
# cost time, never results.
_SHARED = {
    # the grid's clearance and the clearance at points, which the path
    # metrics and every simulation read (costs: each task's compile CPU in
    # the default sweep's warm-up, one process, load 1.3, issue 40 round 13,
    # benchmarks/README.md)
    "common": Warmup(task="common", cost=0.8),
    # the 4-connected wave field (``bfs_field``), apart from the clearance since
    # round 10: only the tasks that call it wait for it (wavefront, the heading
    # search's heuristic), where every planner waited for both
    "field": Warmup(task="field", cost=0.9),
    # the figures of a planned path (the key poses' clearance and contacts):
    # no kernel shared with "common", so it compiles beside it, and every
    # task that waits for "common" measures a path and waits for it too
    "figures": Warmup(task="figures", cost=2.5),
    # the heap shares no kernel with "common" (numba's np.empty aside): it
    # starts at once, beside it
    "heap": Warmup(task="heap", cost=0.8),
    # the reference length of the path and trajectory metrics is theta_star's
    # (their clearance at points is "common"'s since round 13: "simulate",
    # which compiles it too, then waits for "common" only, not for this
    # chain behind theta_star; it had been the warm-up's last task, ~0.4 s
    # after everything else)
    "metrics": Warmup(task="metrics", cost=0.1, needs=("common", "heap", "plan:theta_star")),
    # the range sensors' scans and the occupancy marks of a scan, which every
    # agent's run reads: apart from "simulate" since round 14, so that the
    # agents' 2.3 s no longer come as one block at the end of the warm-up
    # (shares no kernel with anything: it starts at once)
    "sense": Warmup(task="sense", cost=1.4),
    # collision_free for the footprints that are not discs: the heading
    # search, its rotated c-space and the bit dilation, none of which the
    # disc's 4-connected A* compiles (round 14: apart from plan:collision_free,
    # whose 4 s were the warm-up's largest block)
    "shapes": Warmup(task="shapes", cost=2.6, needs=("common", "field")),
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


#: Kernel files the maze tasks compile: while all are cached no helper is forked.
PROBES = ("_grid_kernels.py", "_search/_engine.py", "geometry/_kernels.py")

#: What the last warm-up in this process did (tests and benchmarks read it):
#: :func:`robomaze._compile.warm`'s figures, ``compiled_here`` and ``seconds``.
STATS: dict = {}


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
        tasks += ["simulate", "sense"]  # likewise the agents (their scans apart)
    if "plan:collision_free" in tasks and _shapes(wanted) - {"disc"}:
        tasks.append("shapes")
    if tasks:
        tasks += ["common", "figures", "metrics"]
        if any("field" in _warmup(t).needs for t in tasks):
            tasks.insert(-2, "field")
        if any("heap" in _warmup(t).needs for t in tasks if t != "metrics"):
            # "heap": the 8-connected distance field (the bucket ring) that
            # explore, the 8-connected searches and their heuristics share;
            # a sweep of none of them (astar and wavefront alone: the bench
            # command's small sweep) never runs it, and compiled it anyway
            # (1.3 s of its warm-up, round 10, benchmarks/README.md)
            tasks.insert(-1, "heap")
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


def _shapes(wanted) -> set[str]:
    """The footprint shapes the warm-up plans with."""
    return {"disc", "rectangle", "polygon"} if wanted is None else wanted[2]


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
    needs = _warmup(task).needs
    if "common" in needs:           # it measures the path it plans (or the run)
        needs = (*needs, "figures")
    return tuple(t for t in needs if t in tasks and t != task)


def _chain(task: str, tasks, memo: dict) -> float:
    """Compile seconds of ``task`` plus the longest chain of tasks waiting for it."""
    if task not in memo:
        memo[task] = 0.0  # no cycles in the declared needs; this only guards a bad plugin
        after = [t for t in tasks if task in _needs(t, tasks)]
        memo[task] = _cost(task, tasks) + max((_chain(t, tasks, memo) for t in after),
                                              default=0.0)
    return memo[task]


def _cost(task: str, tasks) -> float:
    """``task``'s compile seconds in this warm-up: its declared ``alone`` figure
    when a method task it waits for is not in it (it compiles their shared
    kernels itself: ``plan:astar`` in a sweep without ``collision_free``).

    >>> alone = _cost("plan:astar", ["plan:astar", "common"])
    >>> alone > _cost("plan:astar", ["plan:astar", "plan:collision_free", "common"])
    True
    """
    w = _warmup(task)
    if w.alone is not None and any(n not in tasks for n in w.needs if n not in _SHARED):
        return w.alone
    return w.cost


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
        shapes = _shapes(wanted)
        self.footprints = [Footprint.disc(0.04)] if "disc" in shapes else []
        if shapes - {"disc"}:
            self.footprints.append(Footprint.rectangle(0.1, 0.06))  # polygons share its kernels

    @property
    def grid(self):
        # made on first use: a helper that starts with the generators does
        # not compile the maze's kernels while the server does
        if self._grid is None:
            from ..maze import Maze
            from ..world import widen_maze

            # no generator compiles for it, so the tasks that wait for
            # "common" do not wait for one
            # a fixed 3x3 perfect maze (turns both ways, openings west and east)
            maze = Maze.from_edges(3, 3, [0, 1, 2, 5, 4, 3, 4, 7], [1, 2, 5, 4, 3, 6, 7, 8],
                                   openings=[(0, 0, "W"), (2, 2, "E")])
            self._grid = widen_maze(maze, corridor=3, wall=1, resolution=0.1)
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


def _plan(ctx: _Context, names, metrics: bool, footprints=None) -> None:
    from ..metrics import path_metrics
    from ..plan import plan

    for fp in ctx.footprints if footprints is None else footprints:
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
    if task == "plan:collision_free":
        # the disc only: the other shapes' kernels are the "shapes" task's
        _plan(ctx, ["collision_free"], metrics, [f for f in ctx.footprints if f.kind == "disc"])
    elif task == "shapes":
        _plan(ctx, ["collision_free"], metrics, [f for f in ctx.footprints if f.kind != "disc"])
    elif task.startswith("plan:"):
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
    elif task == "sense":
        import numpy as np

        from ..sense import make_sensor, mark_scan

        pose = (*ctx.grid.cell_to_world(ctx.start), 0.0)
        for name in ("lidar", "ir") if w is None else sorted(w[3]) or ("lidar",):
            try:
                sensor = make_sensor(name)
                ranges = sensor.readings(ctx.grid, pose)
                free, hit = (np.zeros(ctx.grid.free.size, np.int32) for _ in "fh")
                mark_scan(ctx.grid.frame, sensor, pose, ranges, free, hit)
            except Exception:
                pass  # a sensor that fails here fails again, reported, in its run
    elif task == "heap":
        from .. import _search as core

        core.distance_field(ctx.grid.free, [ctx.start[0] * ctx.grid.cols + ctx.start[1]])
    elif task == "common":
        from ..geometry import footprint_clearance

        ctx.grid.clearance()
        x, y = ctx.grid.cell_to_world(ctx.start)
        footprint_clearance(ctx.grid, Footprint.disc(0.04), [(x, y, 0.0)])
    elif task == "field":
        import numpy as np

        from .. import _search as core

        # the engine's wave, which the field calls from Python on open grids
        # (a sweep's corridor 5 and up): the warm-up maze's field never does,
        # and its first run loaded it from the cache inside its compute time
        # (3.5 ms, 9x that run's time in the CI gate)
        core.bfs_field(np.ones(100, np.uint8), 10, 10, 0, False)
    elif task in ("figures", "metrics"):
        from ..metrics import path_metrics
        from ..plan import make_path

        r, c = ctx.start
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


def _settle(fork_server: bool) -> None:
    """What becomes of the garbage the warm-up's compiles left (gc off throughout).

    In the runner's fork server (``ROBOMAZE_WARM`` set) it is frozen
    (:func:`gc.freeze`): never traversed again, here or in the workers
    forked from here, which is Python's advice for a process that forks
    without exec (no worker's collection then writes to the pages it shares
    with the server). Collecting it instead cost 0.5-0.6 s at the end of the
    default sweep's warm-up, on its critical path (issue 40, round 13,
    benchmarks/README.md), and bought no memory: the server's resident size
    after the default sweep's warm-up is 265-271 MB with or without the
    collections it had made while waiting for helpers (round 16: freed
    objects' arenas stay with Python).
    Elsewhere (a dask worker warms up and then runs its tasks
    in the same, long-lived process) generation 0 is collected, as before.
    """
    if fork_server:
        gc.freeze()
    else:
        gc.collect(0)


def serve() -> None:
    """Warm up what ``ROBOMAZE_WARM`` lists (everything without it); never raises.

    The server takes "common" first (the maze and the kernels everything
    shares) while helpers start on the rest. It runs each helper's task
    again as soon as that is done, loading its kernels from the cache, and
    every task with the path metrics once their kernels are there; what is
    left of both when all are done runs last.
    """
    t0 = time.perf_counter()
    _compile.install()  # the first sweep on a machine compiles here: say so
    stats: dict = {"processes": 1, "tasks": 0, "compiled_helpers": 0, "timeline": []}
    before = _compile.compiled()
    try:
        wanted = _wanted()
        tasks = _tasks(wanted)
        ordered = _order(tasks)
        # "common" first (everything waits for it), "metrics" as soon as it
        # can start: it compiles next to nothing, but until its kernels are
        # here no task is measured, and the ones run before are measured again
        # (last in the list it left ~0.2 s of such re-runs after the last
        # compile, round 13)
        ordered = ([t for t in ("common", "metrics") if t in ordered]
                   + [t for t in ordered if t not in ("common", "metrics")])
        ctx = _Context(wanted)
        # A task runs with the path metrics once "metrics" has run or loaded
        # here (they need theta_star's kernels, which may be compiling in a
        # helper until then: "metrics" waits for them). Helpers' tasks load
        # here as they finish, with the metrics when they can, while the
        # rest still compiles; the tail is what is left (round 12: 0.9 s; round
        # 13: the loads of the helpers' last tasks)
        here: set[str] = set()
        measured: set[str] = set()

        server = os.getpid()

        def run(task: str) -> None:
            if "metrics" in here and os.getpid() == server:
                # the tasks that ran before the metrics' kernels were here are
                # measured now, while a helper may still compile, not in the
                # tail after the last compile (~0.25 s of a default sweep's);
                # a helper (a fork running this too) has nobody to measure for
                for earlier in [t for t in ordered if t in here and t not in measured]:
                    measured.add(earlier)
                    _run(earlier, ctx, True)
            metrics = "metrics" in here
            here.add(task)
            _run(task, ctx, metrics)
            if metrics:
                measured.add(task)

        # The compiles' garbage (~0.7 M objects, ~0.7 s of collecting in this
        # process) is never collected during the warm-up, and in the fork
        # server never at all (_settle). It had been collected whenever this
        # process waited for a helper: the server's resident memory after the
        # default sweep's warm-up is the same without (265-271 MB either way:
        # freed objects stay in Python's arenas), and a collection that began
        # just before a helper's last task ended delayed the tail by ~0.6 s
        # (issue 40, round 16, benchmarks/README.md)
        collecting = gc.isenabled()
        gc.disable()
        try:
            stats = _compile.warm(ordered, run, needs=lambda task: _needs(task, tasks),
                                  probes=PROBES, load=run,
                                  # it compiles nothing (its kernels are other
                                  # tasks'): in a helper it only cost that core
                                  # ~0.4 s (SciPy's import) and made the helper
                                  # measure every path after it, for nobody
                                  here_only=("metrics",),
                                  cap=MAX_PROCESSES if wanted is not None else 1)
            stats["tasks"] = len(tasks)
            for task in ordered:  # the metrics of the rest
                if task not in measured:
                    _run(task, ctx, True)
        finally:
            _settle(fork_server=wanted is not None)
            if collecting:
                gc.enable()
    except Exception:
        pass  # warm-up is an optimisation only; runs report their own errors
    stats["compiled_here"] = _compile.compiled() - before
    stats["seconds"] = time.perf_counter() - t0
    STATS.clear()
    STATS.update(stats)
    _compile.summary(elapsed=stats["seconds"])
