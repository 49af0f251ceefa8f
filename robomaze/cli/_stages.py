"""A command's first run compiles its stages on every core, not one after another.

``robomaze plan kruskal 15x15 --method collision_free --footprint rect:0.3x0.2``
with an empty numba cache compiles the generator's kernels, then the
planner's, then the path measurements' (12 s of compile in one process).
Before its real work such a command calls :func:`prepare` with a *spec*
(what it will run: generator, planner or agent, footprint, widening,
options). :func:`prepare` runs the spec's tasks (:data:`TASKS`: the
generator on a 5x5 maze, the planner on a fixed 3x3 maze widened as the
command widens, the path figures on a two-cell path, a 30-step simulation
...) with the command's own argument types, so they compile exactly the
kernels the command will call. With a second core it starts one helper
process (:mod:`robomaze._claims` shares the list: no task runs twice) --
a fork of the command before anything compiles when the cache holds none
of the tasks' :data:`PROBES` kernels, an interpreter of its own at the
first cache miss otherwise; the helper compiles into numba's disk cache
and the command then loads everything from it. With a warm cache no
helper starts and the tasks cost milliseconds.

A task is an optimisation only: one that fails (a footprint that fits
nowhere in the little maze, a planner that finds no path there) has compiled
what it reached, and the command compiles anything left itself. Results do
not depend on it (the tests run commands both ways).

``ROBOMAZE_WARM_PROCESSES=1`` compiles in the command's own process only.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Callable

from .. import _claims, _jit_notice

#: The spec, as JSON, in a helper's environment.
SPEC_ENV = "ROBOMAZE_STAGES_SPEC"
#: The claims folder, in a helper's environment.
CLAIMS_ENV = "ROBOMAZE_STAGES_CLAIMS"
#: Two cores is what the issue's targets name; more would only split hairs.
MAX_PROCESSES = 2
#: Seconds the command waits for a helper before compiling what is left itself.
TIMEOUT = 120.0

#: What :func:`prepare` did last in this process (tests and benchmarks read it);
#: ``errors`` lists ``(process, task, "Type: message")`` of the tasks that raised.
STATS: dict = {}
#: The errors of this process's tasks since :func:`prepare` (or a helper) began.
_ERRORS: list = []


def _tiny_grid(spec: dict):
    """The warm-up's 3x3 maze (:func:`robomaze._claims.warm_maze`), widened as the
    command widens."""
    from ..grid import widen

    return widen(_claims.warm_maze(), corridor=spec.get("corridor", 3),
                 wall=spec.get("wall", 1), resolution=spec.get("resolution", 1.0))


def _footprint(spec: dict):
    from ._parse import parse_footprint

    return parse_footprint(spec.get("footprint"))


def _task_generate(spec: dict) -> None:
    from ..generate import generate

    generate(spec["generator"], 5, 5, rng=0, braid=spec.get("braid", 0.0),
             placement=spec.get("placement", "corners"), **spec.get("generator_options", {}))


def _task_plan(spec: dict) -> None:
    from ..plan import plan, smooth
    from ..world import stage_rng

    grid = _tiny_grid(spec)
    options = dict(spec.get("options", {}))
    if spec.get("rng"):
        options["rng"] = stage_rng(0, "method")
    fp = _footprint(spec)
    path = plan(grid, None, None, method=spec["method"], footprint=fp,
                connectivity=spec.get("connectivity", 4), **options)
    if spec.get("smooth"):
        smooth(path, grid, fp).summary()  # a smoothed path's figures are measured off-grid


def _task_measure(spec: dict) -> None:
    """The figures a command prints of a path (read lazily, so not by the plan task)."""
    from ..plan import make_path

    grid = _tiny_grid(spec)
    (r, c), _ = grid.start_goal()
    path = make_path(grid, [(r, c), (r, c + 1)], footprint=_footprint(spec))
    path.summary()


def _sensor(spec: dict, grid):
    from ..sense.noise import parse_noise
    from ..sim.runner import default_sensor

    noise = parse_noise(spec.get("noise"))
    return default_sensor(spec.get("sensor", "lidar"), grid,
                          **({} if noise is None else {"noise": noise}))


def _task_env(spec: dict) -> None:
    """The simulator's kernels: sensor scans, collision checks of poses and motions."""
    from ..sim.env import SimEnv
    from ..sim.kinematics import Kinematics
    from ..sim.odometry import parse_odometry_noise
    from ..sim.robot import Robot

    grid = _tiny_grid(spec)
    env = SimEnv(grid, Robot(_footprint(spec), Kinematics(), sensors=(_sensor(spec, grid),)),
                 dt=spec.get("dt", 0.05), max_steps=30,
                 record_scans=spec.get("record_scans", False),
                 odometry_noise=parse_odometry_noise(spec.get("odometry_noise")))
    env.reset(seed=0)
    for _ in range(3):
        env.step((0.2, 0.1))
    env.trajectory()


def _task_agent(spec: dict) -> None:
    """The agent's own kernels (its map, its plans), fed made-up scans: none of the simulator's."""
    import numpy as np

    from ..sim import AGENTS
    from ..sim.agents.base import AgentContext
    from ..sim.env import GoalRegion, default_start
    from ..sim.kinematics import Kinematics

    grid = _tiny_grid(spec)
    sensor = _sensor(spec, grid)
    factory = AGENTS[spec["agent"]]
    start = default_start(grid)
    ctx = AgentContext(footprint=_footprint(spec), kinematics=Kinematics(), sensor=sensor,
                       dt=spec.get("dt", 0.05), start=start, goal=GoalRegion.for_grid(grid),
                       shape=grid.shape, resolution=grid.resolution, origin=grid.origin,
                       widening=grid.widening,
                       grid=grid if getattr(factory, "uses_map", False) else None,
                       rng=np.random.default_rng(0))
    controller = factory(ctx, **spec.get("options", {}))
    scan = sensor.wrap(np.full(sensor.n_beams, 0.5 * sensor.range_max), 0.0)
    for i in range(3):
        controller({"scan": scan, "scans": (scan,), "odom": np.array([*start, 0.0, 0.0]),
                    "time": 0.05 * i})


def _task_simulate(spec: dict) -> None:
    """A 30-step run: what the other tasks did not reach (e.g. localisation)."""
    from ..sense.noise import parse_noise
    from ..sim import simulate
    from ..sim.odometry import parse_odometry_noise

    simulate(_tiny_grid(spec), footprint=_footprint(spec), agent=spec["agent"],
             sensor=spec.get("sensor", "lidar"), max_steps=30, dt=spec.get("dt", 0.05), rng=0,
             record_scans=spec.get("record_scans", False),
             noise=parse_noise(spec.get("noise")),
             odometry_noise=parse_odometry_noise(spec.get("odometry_noise")),
             localize=spec.get("localize", "none"), **spec.get("options", {}))


def _task_metrics(spec: dict) -> None:
    """The run metrics (computed at the end of a simulation) of a two-pose run."""
    import numpy as np

    from ..metrics import trajectory_metrics
    from ..sim.env import GoalRegion
    from ..sim.trajectory import Trajectory

    grid = _tiny_grid(spec)
    (r, c), _ = grid.start_goal()
    poses = np.array([[*grid.cell_to_world((r, c)), 0.0], [*grid.cell_to_world((r, c + 1)), 0.0]])
    traj = Trajectory(t=np.array([0.0, 0.05]), poses=poses, commands=np.zeros((2, 2)),
                      collisions=np.zeros(2, bool))
    trajectory_metrics(traj, grid, footprint=_footprint(spec), goal=GoalRegion.for_grid(grid))


#: Task name -> function of the spec. In a spec's list the command takes the
#: first task, a helper the next, and so on; ``spec["needs"]`` names the
#: tasks one waits for (those that compile kernels it would compile too).
TASKS: dict[str, Callable[[dict], None]] = {
    "generate": _task_generate,
    "plan": _task_plan,
    "measure": _task_measure,
    "simulate": _task_simulate,
    "metrics": _task_metrics,
    "env": _task_env,
    "agent": _task_agent,
}


def _needs(spec: dict) -> Callable[[str], list]:
    needs = spec.get("needs", {})
    return lambda task: needs.get(task, [])


def _ordered(tasks: list[str]) -> list[str]:
    """``tasks`` with the generator second: it shares no kernel with the other
    tasks (they run on a fixed maze) and is among the longest, so the helper
    starts on it beside the command's first task, and whoever is free first
    takes the tasks that share kernels with that one once it is done.

    >>> _ordered(["env", "agent", "metrics", "generate", "simulate"])
    ['env', 'generate', 'agent', 'metrics', 'simulate']
    """
    if "generate" not in tasks[1:]:
        return list(tasks)
    rest = [t for t in tasks if t != "generate"]
    return rest[:1] + ["generate"] + rest[1:]


def _own(task: str, spec: dict, folder: str, log: list) -> None:
    """Run a task this process claimed beforehand and mark it done."""
    t = time.time()
    _run(task, spec)
    _claims.mark_done(folder, task)
    log.append((task, t, time.time()))


def _run(task: str, spec: dict) -> None:
    """Run one task. A task that raises has compiled what it reached and the
    command compiles the rest itself; its error is kept for ``STATS["errors"]``
    rather than stop the command (warming is an optimisation only)."""
    try:
        TASKS[task](spec)
    except Exception as exc:
        _ERRORS.append((task, f"{type(exc).__name__}: {exc}"))


def _spawn(n: int, folder: str, spec: dict) -> list[subprocess.Popen]:
    env = dict(os.environ, **{CLAIMS_ENV: folder, SPEC_ENV: json.dumps(spec)})
    out = []
    for _ in range(n):
        try:
            out.append(subprocess.Popen(
                [sys.executable, "-c", "from robomaze.cli import _stages; _stages.helper_main()"],
                env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL))
        except OSError:
            break  # the command compiles their share
    return out


#: Kernel files each task always compiles: with none of a spec's in the cache
#: the command is a first run (:func:`robomaze._claims.cold`) and its helper
#: is a fork of the command, started before anything compiles.
PROBES = {"generate": ("generate/_kernels.py",), "plan": ("plan/path.py",),
          "measure": ("geometry/_kernels.py",), "env": ("geometry/_collide_kernels.py",),
          "agent": ("sense/_kernels.py",), "simulate": ("geometry/_collide_kernels.py",),
          "metrics": ("geometry/_kernels.py",)}


def prepare(spec: dict) -> None:
    """Compile (or load from the cache) the kernels of ``spec["tasks"]``.

    Never raises; returns when every task is done. See the module docstring.
    """
    tasks = _ordered([t for t in spec.get("tasks", ()) if t in TASKS])
    STATS.clear()
    _ERRORS.clear()
    if not tasks or _jit_notice.current() is None:
        return
    spec = dict(spec, tasks=tasks)  # the helper walks the same order
    t0 = time.perf_counter()
    folder = tempfile.mkdtemp(prefix="robomaze-stages-")
    helpers: list = []
    log: list = []
    try:
        nproc = _claims.processes(len(tasks), MAX_PROCESSES)
        first = None
        if nproc > 1 and _claims.cold(f for t in tasks for f in PROBES.get(t, ())):
            # the command's first task is its own (a fork starting at the
            # same moment could take it), the helper starts on the next
            first = tasks[0]
            _claims.claim(folder, first)
            _claims.prime()
            helpers.extend(_claims.fork(nproc - 1, lambda: _helper_work(folder, spec)))
        if nproc > 1 and not helpers:
            _jit_notice.on_next_compile(lambda: helpers.extend(_spawn(nproc - 1, folder, spec)))
        if first is not None:
            _own(first, spec, folder, log)

        def alive() -> bool:
            return any(h.poll() is None for h in helpers)

        _claims.work(tasks, lambda task: _run(task, spec), folder, alive, True, TIMEOUT,
                     needs=_needs(spec), log=log)
        _jit_notice.on_next_compile(None)
        _claims.wait_done(folder, tasks, alive, TIMEOUT)
        _claims.wait_reports(folder, helpers, 5.0)
    finally:
        _jit_notice.on_next_compile(None)
        for h in helpers:  # reported (its kernels are in the cache): only its teardown is left
            if h.poll() is None:
                h.kill()
            h.wait()
        reports = _claims.reports(folder)
        shutil.rmtree(folder, ignore_errors=True)
    others = sum(r.get("compiled", 0) for r in reports)
    STATS.update(processes=1 + len(helpers), tasks=tasks, compiled_helpers=others,
                 seconds=time.perf_counter() - t0,
                 log=[(0, *row) for row in log]
                 + [(i + 1, *row) for i, r in enumerate(reports) for row in r.get("log", [])],
                 errors=[(0, *e) for e in _ERRORS]
                 + [(i + 1, *e) for i, r in enumerate(reports) for e in r.get("errors", [])])
    if helpers:
        _jit_notice.add_others(others, 1 + len(helpers), time.perf_counter())


def _helper_work(folder: str, spec: dict) -> None:
    """A helper's loop: claim and run the spec's tasks until none is left, then
    report the kernels it compiled (silently: the command speaks)."""
    notice = _jit_notice.install(silent=True)  # counts compiles
    _jit_notice.on_next_compile(None)
    if notice is not None:
        notice.silent = True  # a fork inherits the command's notice, and its count
    base = notice.count if notice is not None else 0
    parent = os.getppid()
    log: list = []
    _ERRORS.clear()  # a fork inherits the command's list
    try:
        tasks = [t for t in spec.get("tasks", ()) if t in TASKS]
        # the command's death (its pid's parent changes) leaves nobody to compile for
        _claims.work(tasks, lambda task: _run(task, spec), folder,
                     lambda: os.getppid() == parent, False, TIMEOUT, needs=_needs(spec), log=log)
    except Exception as exc:  # the claims themselves failed: the command compiles what is left
        _ERRORS.append(("(claims)", f"{type(exc).__name__}: {exc}"))
    finally:
        _claims.write_report(folder, (notice.count - base) if notice is not None else 0, log,
                             _ERRORS)


def helper_main() -> None:
    """A helper interpreter (:func:`_spawn`): :func:`_helper_work` on the spec."""
    from .. import _jit_cache

    _jit_notice.install(silent=True)
    _jit_cache.install()
    folder = os.environ[CLAIMS_ENV]
    try:
        spec = json.loads(os.environ[SPEC_ENV])
    except ValueError:
        _claims.write_report(folder, 0, [])
        return  # the command compiles what is left
    _helper_work(folder, spec)
