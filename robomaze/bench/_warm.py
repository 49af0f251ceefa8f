"""Imported once by the runner's fork server: compile the numba kernels there.

Workers are forked from that server, so they inherit the compiled code and
a run's time limit measures the run, not the JIT. Never raises: a failure
here only means workers warm up on their first run instead.

Only what the sweep uses is warmed: the runner lists it in the environment
variable ``ROBOMAZE_WARM`` (``plan:astar,simulate:explore,shape:rectangle,
sensor:lidar``) before the server starts, so a first sweep compiles only its
own kernels and a cached start loads only those. Without the variable (dask
workers) every planner and agent is warmed.
"""

import os

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


def _warm() -> None:
    from .. import _jit_notice

    _jit_notice.install()  # the first sweep on a machine compiles here: say so
    try:
        from ..generate import generate
        from ..geometry import Footprint
        from ..grid import widen
        from ..metrics import path_metrics
        from ..plan import PLANNERS, plan

        wanted = _wanted()
        planners = sorted(PLANNERS) if wanted is None else sorted(wanted[0] & set(PLANNERS))
        shapes = {"disc", "rectangle", "polygon"} if wanted is None else wanted[2]
        footprints = [Footprint.disc(0.04)] if "disc" in shapes else []
        if shapes - {"disc"}:
            footprints.append(Footprint.rectangle(0.1, 0.06))  # polygons share its kernels
        grid = widen(generate("kruskal", 3, 3, rng=0), corridor=3, wall=1, resolution=0.1)
        start, goal = grid.start_goal()
        for fp in footprints:
            # the OMPL planners have no numba kernels to compile, and run for their budget
            for name in (n for n in planners if not n.startswith("ompl:")):
                try:
                    path_metrics(plan(grid, start, goal, method=name, footprint=fp), grid,
                                 footprint=fp)
                except Exception:
                    pass  # e.g. the rectangle fits nowhere: the kernels compiled anyway
        from ..sim import AGENTS, simulate

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
    _jit_notice.summary()


_warm()
