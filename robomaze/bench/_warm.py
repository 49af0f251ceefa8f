"""Imported once by the runner's fork server: compile the numba kernels there.

Workers are forked from that server, so they inherit the compiled code and
a run's time limit measures the run, not the JIT. Never raises: a failure
here only means workers warm up on their first run instead.

Only what the sweep uses is warmed: the runner lists it in the environment
variable ``ROBOMAZE_WARM`` (``plan:astar,simulate:explore,shape:rectangle,
sensor:lidar``) before the server starts, so a first sweep compiles only its
own kernels and a cached start loads only those. Without the variable (dask
workers) every planner and agent is warmed.

On a machine with more than one core a cold start compiles on two: a helper
process compiles the agents' and the classic maze solvers' kernels into
numba's on-disk cache while the
server compiles the grid planners'; the server then loads the agents' and
classic solvers' kernels from the cache.
"""

import os
import subprocess
import sys

from .runner import WARM_ENV as ENV


def _wanted() -> tuple[set, set, set, set] | None:
    text = os.environ.get(ENV)
    if text is None:
        return None
    out: dict[str, set] = {"plan": set(), "simulate": set(), "shape": set(), "sensor": set()}
    for item in text.split(","):
        kind, _, name = item.partition(":")
        if kind in out and name:
            out[kind].add(name)
    return out["plan"], out["simulate"], out["shape"], out["sensor"]


_CHILD = "ROBOMAZE_WARM_CHILD"


def _classic() -> set:
    from ..plan.classic import CLASSIC_SOLVERS

    return set(CLASSIC_SOLVERS)


def _helper(wanted) -> subprocess.Popen | None:
    """Start a process that compiles half of the sweep's kernels (the agents'
    and the classic solvers') into the disk cache while the server compiles
    the rest."""
    if wanted is None or os.environ.get(_CHILD) or (os.cpu_count() or 1) < 2:
        return None
    classic = sorted(wanted[0] & _classic())
    if not wanted[1] and not classic or not wanted[0] - set(classic):
        return None  # nothing to share out
    part = ",".join([f"simulate:{a}" for a in sorted(wanted[1])]
                    + [f"plan:{p}" for p in classic]
                    + [f"sensor:{n}" for n in sorted(wanted[3])] + ["shape:disc"])
    env = dict(os.environ, **{ENV: part, _CHILD: "1", "ROBOMAZE_COMPILE_NOTICE": "0"})
    try:
        return subprocess.Popen([sys.executable, "-c", "import robomaze.bench._warm"], env=env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
    except OSError:
        return None  # the server compiles them itself


def _wait(helper) -> None:
    if helper is None:
        return
    try:
        helper.wait(timeout=300)  # its kernels then load from the cache
    except subprocess.TimeoutExpired:
        helper.kill()
        helper.wait()


def _warm() -> None:
    from .. import _jit_notice

    _jit_notice.install()  # the first sweep on a machine compiles here: say so
    helper = None
    try:
        from ..generate import generate
        from ..geometry import Footprint
        from ..grid import widen
        from ..metrics import path_metrics
        from ..plan import PLANNERS, plan
        from ..sim import AGENTS, simulate

        wanted = _wanted()
        helper = _helper(wanted)
        # the OMPL planners have no numba kernels to compile, and run for their budget
        planners = [n for n in (sorted(PLANNERS) if wanted is None
                                else sorted(wanted[0] & set(PLANNERS)))
                    if not n.startswith("ompl:")]
        shared = _classic() if helper is not None else set()
        shapes = {"disc", "rectangle", "polygon"} if wanted is None else wanted[2]
        footprints = [Footprint.disc(0.04)] if "disc" in shapes else []
        if shapes - {"disc"}:
            footprints.append(Footprint.rectangle(0.1, 0.06))  # polygons share its kernels
        grid = widen(generate("kruskal", 3, 3, rng=0), corridor=3, wall=1, resolution=0.1)
        start, goal = grid.start_goal()
        own = [n for n in planners if n not in shared]
        for batch in (own, [n for n in planners if n in shared]):
            if batch is not own:
                _wait(helper)
            for fp in footprints:
                for name in batch:
                    try:
                        path_metrics(plan(grid, start, goal, method=name, footprint=fp), grid,
                                     footprint=fp)
                    except Exception:
                        pass  # e.g. the rectangle fits nowhere: the kernels compiled anyway
        _wait(helper)
        agents = sorted(AGENTS) if wanted is None else sorted(wanted[1] & set(AGENTS))
        sensors = ("lidar", "ir") if wanted is None else sorted(wanted[3]) or ("lidar",)
        for name in agents:
            for sensor in sensors:
                try:
                    simulate(grid, footprint=Footprint.disc(0.04), agent=name, sensor=sensor,
                             max_steps=30, rng=0)
                except Exception:
                    pass  # an agent that fails here fails again, reported, in its own run
    except Exception:
        pass  # warm-up is an optimisation only; runs report their own errors
    finally:
        if helper is not None and helper.poll() is None:
            helper.kill()
            helper.wait()
    _jit_notice.summary()

_warm()
