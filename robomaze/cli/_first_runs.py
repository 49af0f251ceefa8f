"""Every command's first run, as one list: what ``ROBOMAZE_BUILD_KERNELS=all`` ships.

``robomaze warmup --first-runs`` (the build's compile step with
``ROBOMAZE_BUILD_KERNELS=all``, :mod:`robomaze._compile.shipped`) runs,
after the warm-up of every kernel family, the default sweep's warm-up and each command of :func:`commands`
once -- every generator, planner, agent, localiser and micromouse solver
through its own command, and the commands the project's first-run
benchmark lists (``benchmarks/bench_compile.py``) -- so that the kernels a
user's first run compiles, with the argument types that run passes, are in
the cache the build ships. The commands run as tasks of robomaze's
parallel warm-up (:func:`robomaze._compile.warm`), each in one process
with its output discarded; a command that fails has compiled what it
reached and is reported, never raised.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile

#: A sweep small enough for a first run (``bench``): two planners on a 3x3 maze.
TINY = """name = "tiny"
seed = 1
[maze]
generator = "kruskal"
rows = 3
cols = 3
[widen]
corridor = 3
resolution = 0.1
[robot]
footprint = "disc:0.04"
[run]
planner = ["astar", "wavefront"]
"""

#: Commands no registry enumerates: argv after ``robomaze``; ``{tmp}`` is a scratch folder.
FIXED = [
    "generate kruskal 250x250 --seed 1",  # above 40,000 cells: the tiled kernels
    "generate wilson 10x10 --seed 3 --corridor 3 --wall 1 -o {tmp}/grid.npy",
    "stats kruskal 20x20 --seed 3",
    "render pkg:micromouse/tiny-4x4.txt -o {tmp}/m.png --corridor 3",
    "plan prim 15x15 --seed 1",
    "plan kruskal 10x10 --seed 1 --method astar --footprint disc:0.1",
    "plan kruskal 10x10 --seed 1 --method max_clearance --footprint disc:0.15",
    "plan kruskal 6x6 --seed 1 --method collision_free --footprint rect:0.3x0.2",
    "plan kruskal 10x10 --seed 1 --method astar --connectivity 8",
    "simulate prim 10x10 --seed 1",
    "simulate kruskal 6x6 --seed 1 --agent car_pursuit --option turning_radius=0.2",
    "mouse solve pkg:micromouse/16MM2019CX.maze",
    "mouse route pkg:micromouse/16MM2019CX.maze",
    "movingai pkg:movingai/maze512-1-0.map.scen --limit 50 --quiet",
    "score pkg:walks/sample-walk.jsonl",
    "replay pkg:walks/sample-walk.jsonl -o {tmp}/walk.png",
    "traffic kruskal 1x4 --corridor 25 --resolution 0.05 --robots 2 --footprint disc:0.3",
    "bench {tmp}/tiny.toml -o {tmp}/out --no-report -q",
]

#: The gymnasium environment's first steps (``py:`` tasks run Python, not a command).
GYM = ("import gymnasium as gym, robomaze; env = gym.make('robomaze/Maze-v0'); "
       "env.reset(seed=1); [env.step(env.action_space.sample()) for _ in range(5)]")


def commands() -> list[str]:
    """Every command the build runs once (argv after ``robomaze``, or ``py:CODE``).

    >>> cmds = commands()
    >>> "plan kruskal 10x10 --seed 1 --method theta_star" in cmds
    True
    >>> "generate sidewinder 10x10 --seed 1" in cmds and "mouse solve " \\
    ...     "pkg:micromouse/16MM2019CX.maze --method tremaux" in cmds
    True
    >>> any(c.startswith("plan") and "ompl" in c for c in cmds)   # no kernels to compile
    False
    """
    from ..registry import AGENTS, GENERATORS, PLANNERS, SOLVERS

    out = [f"generate {name} 10x10 --seed 1" for name in sorted(GENERATORS)]
    out += [f"plan kruskal 10x10 --seed 1 --method {name}" for name in sorted(PLANNERS)
            if "ompl" not in PLANNERS.spec(name).needs]
    out += [f"simulate kruskal 10x10 --seed 1 --agent {name}" for name in sorted(AGENTS)
            if name != "car_pursuit"]  # needs a turning radius: FIXED
    from ..localize import LOCALIZERS

    out += [f"simulate kruskal 6x6 --seed 1 --localize {name}" for name in sorted(LOCALIZERS)]
    out += [f"mouse solve pkg:micromouse/16MM2019CX.maze --method {name}"
            for name in sorted(SOLVERS)]
    return out + FIXED + ["py:" + GYM]


@contextlib.contextmanager
def _quiet():
    """Standard output and error to ``os.devnull`` (the file descriptors: numba,
    matplotlib and subprocesses write there too)."""
    import sys

    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
        os.dup2(null, 2)
        yield
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in (*saved, null):
            os.close(fd)


def run_one(spec: str, tmp: str) -> None:
    """Run one command of :func:`commands` (raises what it raises; exit codes
    other than 0 as ``RuntimeError``)."""
    from .._compile.parallel import PROCESSES_ENV

    saved = os.environ.get(PROCESSES_ENV)
    # a command's own stages compile in its process: the build's warm-up
    # already spreads the commands over the cores
    os.environ[PROCESSES_ENV] = "1"
    cwd = os.getcwd()
    try:
        os.chdir(tmp)
        with _quiet():
            if spec.startswith("py:"):
                exec(spec[3:], {"__name__": "__robomaze_first_run__"})
                return
            from . import main

            try:
                code = main(spec.format(tmp=tmp).split())
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
        if code not in (0, None):
            raise RuntimeError(f"exit {code}")
    finally:
        os.chdir(cwd)
        if saved is None:
            os.environ.pop(PROCESSES_ENV, None)
        else:
            os.environ[PROCESSES_ENV] = saved


def default_sweep_list() -> str:
    """The default sweep's warm-up list (``ROBOMAZE_WARM``), as the bench runner makes it.

    >>> "plan:astar" in default_sweep_list().split(",")
    True
    """
    from ..bench import default_sweep_path, load_sweep, warm_list

    return warm_list(load_sweep(default_sweep_path()).scenarios)


def kernel_files() -> list[str]:
    """The package's files that define cached kernels (paths in the package).

    >>> "_grid_kernels.py" in kernel_files()
    True
    """
    from .._compile.cache import PACKAGE_DIR

    out = []
    for folder, dirs, names in os.walk(PACKAGE_DIR):
        dirs[:] = [d for d in dirs if not d.startswith(("_kernels", "__pycache__"))]
        for name in names:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    if "cache=True" in f.read():
                        out.append(os.path.relpath(path, PACKAGE_DIR))
    return sorted(out)


def run_all(processes: int | None = None) -> dict:
    """Run every command of :func:`commands` once, over up to ``processes``
    processes (default: one per core, at most two). Returns
    :func:`robomaze._compile.warm`'s figures."""
    from .. import _compile

    tmp = tempfile.mkdtemp(prefix="robomaze-first-runs-")
    try:
        with open(os.path.join(tmp, "tiny.toml"), "w") as f:
            f.write(TINY)
        cmds = commands()
        # each command's own scratch folder: two processes write at once
        dirs = {c: os.path.join(tmp, str(i)) for i, c in enumerate(cmds)}
        for d in dirs.values():
            os.makedirs(d)
            shutil.copy(os.path.join(tmp, "tiny.toml"), d)
        # helpers are forked only while some kernel file lacks its index
        return _compile.warm(cmds, lambda c: run_one(c, dirs[c]), probes=kernel_files(),
                             cap=processes or 2)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
