"""Imported once by the runner's fork server: compile the numba kernels there.

Workers are forked from that server, so they inherit the compiled code and
a run's time limit measures the run, not the JIT. Never raises: a failure
here only means workers warm up on their first run instead.
"""


def _warm() -> None:
    from .. import _jit_notice

    _jit_notice.install()  # the first sweep on a machine compiles here: say so
    try:
        from ..generate import generate
        from ..geometry import Footprint
        from ..grid import widen
        from ..metrics import path_metrics
        from ..plan import PLANNERS, plan

        grid = widen(generate("kruskal", 3, 3, rng=0), corridor=3, wall=1, resolution=0.1)
        start, goal = grid.start_goal()
        for fp in (Footprint.disc(0.04), Footprint.rectangle(0.1, 0.06)):
            # the OMPL planners have no numba kernels to compile, and run for their budget
            for name in sorted(n for n in PLANNERS if not n.startswith("ompl:")):
                try:
                    path_metrics(plan(grid, start, goal, method=name, footprint=fp), grid,
                                 footprint=fp)
                except Exception:
                    pass  # e.g. the rectangle fits nowhere: the kernels compiled anyway
        from ..sim import AGENTS, simulate

        for name in sorted(AGENTS):
            for sensor in ("lidar", "ir"):
                try:
                    simulate(grid, footprint=Footprint.disc(0.04), agent=name, sensor=sensor,
                             max_steps=30, rng=0)
                except Exception:
                    pass  # an agent that fails here fails again, reported, in its own run
    except Exception:
        pass  # warm-up is an optimisation only; runs report their own errors
    _jit_notice.summary()


_warm()
