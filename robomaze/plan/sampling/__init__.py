"""Sampling-based planners through OMPL (the optional ``robomaze[ompl]`` extra).

The planners are registered in :data:`robomaze.plan.PLANNERS` as
``ompl:rrt_connect``, ``ompl:rrtstar``, ``ompl:prmstar``, ``ompl:bitstar``
and ``ompl:kpiece``, and for car-like robots ``ompl:dubins`` (forward only)
and ``ompl:reeds_shepp`` (forward and reverse). robomaze imports without
OMPL: the module is imported only when one of them runs, and then says how
to install it if it is missing.

State spaces: R² for a point or a disc (heading does not change
clearance), SE(2) for any other footprint, the Dubins / Reeds-Shepp
spaces of a minimum turning radius for cars. Validity comes from
:class:`~robomaze.geometry.validity.ClearanceLookup`, a table of
exact footprint clearances at every cell centre and sample heading with
Lipschitz bounds between them; OMPL checks it at every sampled state and
every quarter cell (default ``step``) along each motion, and the
lookup's margin makes the continuous motion between checked states
collision-free as well. The returned :class:`~robomaze.plan.Path` holds
the solution interpolated at that step (points and headings), so it is
measured by the same metrics as every grid planner.

Budgets and reproducibility: the budget is ``max_checks`` validity checks
(default 200,000), counted in the solving thread
(:class:`~robomaze.plan.sampling.budget.WorkBudget`); the non-optimizing
RRT-Connect and KPIECE stop at their first exact solution, the optimizing
RRT*, PRM* and BIT* (:data:`OPTIMIZING`) refine it until the budget is
spent (or ``stop_at_first``). OMPL's seed sequence is restarted from
``rng`` (``ompl.util.RNG.setSeed``) before the run creates any OMPL object,
so the planner, its samplers and the path simplifier draw the same numbers
every run, and the simplifier runs to convergence on a check budget of its
own rather than for a time. Same seed and budget: the same path, in this
process or another, under any load, on any machine with the same OMPL
build. PRM*, whose OMPL ``solve`` searches in a second thread on timers,
runs through :mod:`~robomaze.plan.sampling.prm` (roadmap slices on the
check budget, in this thread). ``time_limit`` is a wall-clock safety net
only: when it fires first the run raises
:class:`~robomaze.plan.sampling.budget.WallClockLimitError` instead of
returning a load-dependent path; with ``max_checks=None`` the clock is the
budget and the result says so (``stats["stopped_by"] == "time"``).
``stats["progress"]`` holds the anytime curve (time, best cost, checks at
every improvement) that the benchmark's Planner Arena logs carry.
:func:`typed_options` checks an ``ompl:`` planner's options before any
maze is built.

Examples
--------
>>> from robomaze import Maze, widen
>>> from robomaze.geometry import Footprint
>>> g = widen(Maze.from_edges(2, 2, [0, 1, 3], [1, 3, 2]), corridor=5, wall=1, resolution=0.1)
>>> p = ompl_plan(g, (3, 3), (9, 3), planner="rrt_connect", footprint=Footprint.disc(0.15),
...               rng=1, max_checks=20000)
>>> p.method, p.collision_free, p.length > 1.2
('ompl:rrt_connect', True, True)
>>> p.stats["ompl_status"], p.stats["stopped_by"], p.poses.shape[1]
(6, 'solution', 3)
"""

from __future__ import annotations

from typing import Callable

from ...errors import unknown_name
from ...geometry import Footprint
from ...grid import OccupancyGrid
from ..path import Path
from .budget import PROGRESS_PROPERTIES, Progress, WallClockLimitError, WorkBudget
from .options import typed_options, option_names
from .solve import CAR_SPACES, OMPL_PLANNERS, OPTIMIZING, STATUS, ompl_plan, require_ompl
from ...geometry.validity import ClearanceLookup

__all__ = ["ompl_plan", "OMPL_PLANNERS", "CAR_SPACES", "OPTIMIZING", "ompl_planner",
           "require_ompl", "typed_options", "option_names", "ClearanceLookup", "STATUS",
           "WallClockLimitError", "WorkBudget", "Progress", "PROGRESS_PROPERTIES"]


def ompl_planner(name: str, *, space: str | None = None) -> Callable[..., Path]:
    """The registry entry for one OMPL planner (``space`` for the car planners).

    >>> ompl_planner("rrtstar").__name__
    'ompl_rrtstar'
    """
    if name not in OMPL_PLANNERS:
        raise unknown_name("OMPL planner", name, OMPL_PLANNERS)

    def run(grid: OccupancyGrid, start, goal, *, footprint: Footprint | None = None,
            connectivity: int = 4, rng=None, **options) -> Path:
        if space is not None:
            options.setdefault("space", space)
            options.setdefault("turning_radius", _default_radius(grid, footprint))
        return ompl_plan(grid, start, goal, planner=options.pop("planner", name),
                         footprint=footprint, connectivity=connectivity, rng=rng, **options)

    run.__name__ = f"ompl_{space or name}"
    run.__qualname__ = run.__name__
    run.__doc__ = (f"OMPL's {OMPL_PLANNERS[name]}"
                   + (f" in the {CAR_SPACES[space]}" if space else "")
                   + " (robomaze.plan.sampling.ompl_plan; needs robomaze[ompl]).")
    return run


# the registry's entries (robomaze.plan._specs): "robomaze.plan.sampling:ompl_rrtstar"
for _name in OMPL_PLANNERS:
    globals()["ompl_" + _name] = ompl_planner(_name)
for _space in CAR_SPACES:
    globals()["ompl_" + _space] = ompl_planner("rrt_connect", space=_space)
del _name, _space


def _default_radius(grid: OccupancyGrid, footprint: Footprint | None) -> float:
    """A car's turning radius when none is given: its length, at least one cell."""
    if footprint is None:
        return grid.resolution
    return max(grid.resolution, 2.0 * footprint.circumscribed_radius)
