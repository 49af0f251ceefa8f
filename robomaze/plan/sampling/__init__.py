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
:class:`~robomaze.plan.sampling.validity.ClearanceLookup`, a table of
exact footprint clearances at every cell centre and sample heading with
Lipschitz bounds between them; OMPL checks it at every sampled state and
every quarter cell (default ``step``) along each motion, and the
lookup's margin makes the continuous motion between checked states
collision-free as well. The returned :class:`~robomaze.plan.Path` holds
the solution interpolated at that step (points and headings), so it is
measured by the same metrics as every grid planner.

Budgets and reproducibility: planning stops at ``time_limit`` seconds or
after ``max_checks`` validity checks, whichever comes first (with
``stop_at_first`` also at the first exact solution; the optimizing
planners RRT*, PRM* and BIT* otherwise keep improving it until the budget
ends). OMPL's random generator is seeded before every call
(``ompl.util.RNG.setSeed``, from ``rng``). A run whose budget is a check
count (``max_checks`` reached before ``time_limit``) is reproducible: same
seed, same path, in this process or another, on any machine with the same
OMPL build. A run stopped by the clock depends on the machine's speed and
load. PRM* checks for solutions in a second thread, which cannot call a
Python termination condition (the GIL is held by the solving thread): it
has only the time budget, no check budget and no time to first solution,
and is never reproducible.

Examples
--------
>>> from robomaze import Maze, widen
>>> from robomaze.geometry import Footprint
>>> g = widen(Maze.from_edges(2, 2, [0, 1, 3], [1, 3, 2]), corridor=5, wall=1, resolution=0.1)
>>> p = ompl_plan(g, (3, 3), (9, 3), planner="rrt_connect", footprint=Footprint.disc(0.15),
...               rng=1, max_checks=20000, time_limit=30.0)
>>> p.method, p.collision_free, p.length > 1.2
('ompl:rrt_connect', True, True)
>>> p.stats["ompl_status"]
6
"""

from __future__ import annotations

import math
import time as _time
from typing import Callable

import numpy as np

from ...errors import NoPathError, OptionalDependencyError, ParameterError
from ...geometry import Footprint
from ...grid import OccupancyGrid
from ..._validate import check_float, check_int
from .._endpoints import check_grid, endpoints
from ..path import Path, make_path
from .validity import ClearanceLookup

__all__ = ["ompl_plan", "OMPL_PLANNERS", "CAR_SPACES", "ompl_planner", "require_ompl",
           "ClearanceLookup", "STATUS"]

#: robomaze name -> OMPL geometric planner class name.
OMPL_PLANNERS = {"rrt_connect": "RRTConnect", "rrtstar": "RRTstar", "prmstar": "PRMstar",
                 "bitstar": "BITstar", "kpiece": "KPIECE1"}

# planners that run part of their search in a second thread
_THREADED = {"prmstar"}
# planners that return their first exact solution
_FIRST_ONLY = {"rrt_connect", "kpiece"}

#: Car state spaces: robomaze name -> OMPL state space class name.
CAR_SPACES = {"dubins": "DubinsStateSpace", "reeds_shepp": "ReedsSheppStateSpace"}

#: OMPL's ``PlannerStatus`` codes (``ompl::base::PlannerStatus::StatusType``).
STATUS = {"unknown": 0, "invalid_start": 1, "invalid_goal": 2, "unrecognized_goal_type": 3,
          "timeout": 4, "approximate_solution": 5, "exact_solution": 6, "crash": 7,
          "abort": 8, "infeasible": 9}


def require_ompl():
    """Import OMPL's ``base``, ``geometric`` and ``util`` modules, or say how to install them.

    Raises
    ------
    OptionalDependencyError
        OMPL is not installed.
    """
    try:
        from ompl import base as ob, geometric as og, util as ou
    except ImportError as exc:
        raise OptionalDependencyError(
            f"the OMPL planners need the ompl package ({exc}); "
            f"install it with: pip install 'robomaze[ompl]'") from None
    return ob, og, ou


def _seed(rng) -> int:
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
        if rng < 0:
            raise ParameterError(f"rng must be a non-negative seed, got {rng}")
    # OMPL ignores a seed of 0
    return int(np.random.default_rng(rng).integers(1, 2**31 - 1))


def _bounds(grid: OccupancyGrid) -> tuple[float, float, float, float]:
    corners = grid.cells_to_world(np.array([[0, 0], [0, grid.cols - 1], [grid.rows - 1, 0],
                                            [grid.rows - 1, grid.cols - 1]]))
    h = 0.5 * grid.resolution * math.sqrt(2.0)
    lo, hi = corners.min(axis=0) - h, corners.max(axis=0) + h
    return float(lo[0]), float(hi[0]), float(lo[1]), float(hi[1])


def _pick_heading(look: ClearanceLookup, name: str, cell, given, x: float, y: float) -> float:
    """The given heading, or the sample heading with the most clearance at the cell."""
    if given is not None:
        th = check_float(f"{name}_heading", given)
        if not look.valid(x, y, th):
            raise NoPathError(f"{name} pose ({x:.3f}, {y:.3f}, {th:.3f}) is blocked for the "
                              f"footprint", reason=f"{name} blocked for footprint")
        return th
    col = look.lo[:, cell[0], cell[1]]
    b = int(np.argmax(col))
    th = 2 * math.pi * b / look.n
    if not look.valid(x, y, th):
        raise NoPathError(f"{name} cell {tuple(cell)} is blocked for the footprint at every "
                          f"heading", reason=f"{name} blocked for footprint")
    return math.remainder(th, 2 * math.pi)


def ompl_plan(grid: OccupancyGrid, start, goal, *, planner: str = "rrt_connect",
              footprint: Footprint | None = None, connectivity: int = 4,
              time_limit: float = 5.0, max_checks: int | None = 200_000,
              simplify: bool = True, stop_at_first: bool = False, rng=None,
              start_heading: float | None = None, goal_heading: float | None = None,
              space: str | None = None, turning_radius: float | None = None,
              step: float | None = None, planner_range: float | None = None) -> Path:
    """Plan with an OMPL planner on the grid's exact clearance lookup.

    Parameters
    ----------
    grid : OccupancyGrid
    start, goal : (row, col) or (x, y)
        Cells (their centres are the start and goal positions) or world points.
    planner : str
        A key of :data:`OMPL_PLANNERS`.
    footprint : Footprint, optional
        None / a disc plan in R², other shapes in SE(2).
    connectivity : int
        Accepted for the common planner signature; sampling ignores it.
    time_limit : float
        Wall-clock budget in seconds.
    max_checks : int or None
        Budget in validity checks (machine-independent); None: no limit.
    simplify : bool
        Shortcut and smooth the solution with OMPL's path simplifier
        (given a tenth of the time budget).
    stop_at_first : bool
        Stop at the first exact solution (optimizing planners otherwise
        refine until the budget ends).
    rng : int, Generator or None
        Seeds OMPL's random generator.
    start_heading, goal_heading : float, optional
        Headings (radians) for SE(2) and car spaces; default for cars the
        directions of the first and last moves of the shortest grid route
        (a car cannot turn on the spot), else (or when the robot does not
        fit that way) the sample heading with the most clearance.
    space : {None, "dubins", "reeds_shepp"}
        A car's state space (``turning_radius`` required).
    turning_radius : float, optional
        The car's minimum turning radius (metres).
    step : float, optional
        Motion checking resolution in metres; default a quarter cell.
    planner_range : float, optional
        The planner's maximum motion length (metres); OMPL's default otherwise.

    Returns
    -------
    Path
        ``method`` is ``"ompl:<planner>"`` (``"ompl:<space>"`` for cars),
        ``expanded`` the validity checks made, ``stats`` holds ``ompl_status``
        (OMPL's code), ``first_solution_s``, ``validity_checks``,
        ``exact_checks`` (settled by the exact fallback), ``ompl_seed``,
        ``cusps`` (Reeds-Shepp gear changes) and ``stopped_by``
        (``"time"``, ``"checks"`` or ``"solution"``).
        ``first_solution_s`` is the time from the start of the search to
        the first exact solution, known when the search ended there
        (RRT-Connect, KPIECE, or ``stop_at_first``), else None.

    Raises
    ------
    NoPathError
        No exact solution within the budget (``reason`` says which budget
        ended), or the robot does not fit at the start or goal.
    OptionalDependencyError
        OMPL is not installed.
    """
    ob, og, ou = require_ompl()
    t0 = _time.perf_counter()
    check_grid(grid)
    if planner not in OMPL_PLANNERS:
        from ...errors import unknown_name
        raise unknown_name("OMPL planner", planner, OMPL_PLANNERS)
    if footprint is not None and not isinstance(footprint, Footprint):
        raise ParameterError(
            f"footprint must be a Footprint or None, got {type(footprint).__name__}")
    tl = check_float("time_limit", time_limit, min_value=0.0, strict_min=True)
    mc = None if max_checks is None else check_int("max_checks", max_checks, min_value=1)
    if space is not None and space not in CAR_SPACES:
        from ...errors import unknown_name
        raise unknown_name("car state space", space, CAR_SPACES)
    rho = None
    if space is not None:
        if turning_radius is None:
            raise ParameterError(f"space={space!r} needs turning_radius (metres), got None")
        rho = check_float("turning_radius", turning_radius, min_value=0.0, strict_min=True)
    st = None if step is None else check_float("step", step, min_value=0.0, strict_min=True)
    s_cell, g_cell = endpoints(grid, start, goal)
    # heading change per unit of OMPL distance: SE(2) weighs it by 0.5, a car turns at 1/rho
    turn = 2.0 if rho is None else 1.0 / rho
    look = ClearanceLookup(grid, footprint, step=st, turn_per_metre=turn,
                           with_heading=space is not None)
    seed = _seed(rng)
    xmin, xmax, ymin, ymax = _bounds(grid)
    b = ob.RealVectorBounds(2)
    b.setLow(0, xmin)
    b.setHigh(0, xmax)
    b.setLow(1, ymin)
    b.setHigh(1, ymax)
    headed = space is not None or not look.round
    if space is not None:
        sp = getattr(ob, CAR_SPACES[space])(rho)
    elif headed:
        sp = ob.SE2StateSpace()
    else:
        sp = ob.RealVectorStateSpace(2)
    sp.setBounds(b)
    sp.setLongestValidSegmentFraction(look.step / sp.getMaximumExtent())
    ss = og.SimpleSetup(sp)
    if headed:
        ss.setStateValidityChecker(lambda s: look.valid(s.getX(), s.getY(), s.getYaw()))
    else:
        ss.setStateValidityChecker(lambda s: look.valid(s[0], s[1]))
    (sx, sy), (gx, gy) = grid.cell_to_world(s_cell), grid.cell_to_world(g_cell)

    def _state(x, y, th):
        s = sp.allocState()
        if headed:
            s.setX(x)
            s.setY(y)
            s.setYaw(th)
        else:
            s[0], s[1] = x, y
        return s

    if headed:
        if space is not None and (start_heading is None or goal_heading is None):
            # a car cannot turn on the spot: start facing the way out, arrive along the way in
            way_out, way_in = _route_headings(grid, s_cell, g_cell, footprint)
            if start_heading is None and way_out is not None and look.valid(sx, sy, way_out):
                start_heading = way_out
            if goal_heading is None and way_in is not None and look.valid(gx, gy, way_in):
                goal_heading = way_in
        sth = _pick_heading(look, "start", s_cell, start_heading, sx, sy)
        gth = _pick_heading(look, "goal", g_cell, goal_heading, gx, gy)
    else:
        sth = gth = 0.0
        for name, (x, y), c in (("start", (sx, sy), s_cell), ("goal", (gx, gy), g_cell)):
            if not look.valid(x, y):
                raise NoPathError(f"{name} cell {c} is blocked for the footprint",
                                  reason=f"{name} blocked for footprint")
    ss.setStartAndGoalStates(_state(sx, sy, sth), _state(gx, gy, gth), 1e-6)
    si = ss.getSpaceInformation()
    pl = getattr(og, OMPL_PLANNERS[planner])(si)
    if planner_range is not None and hasattr(pl, "setRange"):
        pl.setRange(check_float("planner_range", planner_range, min_value=0.0, strict_min=True))
    ss.setPlanner(pl)
    if stop_at_first and planner not in _FIRST_ONLY:
        # the OMPL way to stop an optimizing planner at its first solution:
        # an objective every solution satisfies
        obj = ob.PathLengthOptimizationObjective(si)
        obj.setCostThreshold(ob.Cost(math.inf))
        ss.setOptimizationObjective(obj)
    level = ou.getLogLevel()
    ou.setLogLevel(ou.LogLevel.LOG_NONE)   # OMPL logs every solve and warns on re-seeding
    try:
        ou.RNG.setSeed(seed)
        ss.setup()
        look.checks = look.exact = 0
        clock = {"first": None, "by": "time"}
        t_solve = _time.perf_counter()

        def stop() -> bool:
            if mc is not None and look.checks >= mc:
                clock["by"] = "checks"
                return True
            return _time.perf_counter() - t_solve >= tl

        if planner in _THREADED:
            # PRM* checks for a solution in a second thread that evaluates the
            # termination condition: a Python one would deadlock on the GIL
            ptc = ob.timedPlannerTerminationCondition(tl)
        else:
            ptc = ob.PlannerTerminationCondition(stop)
        status = ss.solve(ptc)
        code = int(status.getStatus().value)
        if code == STATUS["exact_solution"] and (stop_at_first or planner in _FIRST_ONLY):
            # the search ended at its first exact solution
            clock["first"] = _time.perf_counter() - t_solve
            clock["by"] = "solution"
        failure = None
        if code != STATUS["exact_solution"]:
            what = status.asString().lower()
            failure = NoPathError(
                f"ompl:{space or planner} found no exact solution from {s_cell} to {g_cell} "
                f"({what} after {look.checks} validity checks, "
                f"{_time.perf_counter() - t_solve:.3f} s; budget: {tl:g} s, {mc} checks)",
                reason=f"ompl {what}")
        else:
            if simplify:
                ss.simplifySolution(max(0.1 * tl, 1e-3))
            path = ss.getSolutionPath()
            path.interpolate()
            n = path.getStateCount()
            if headed:
                pose = np.array([[path.getState(i).getX(), path.getState(i).getY(),
                                  path.getState(i).getYaw()] for i in range(n)])
            else:
                pose = np.array([[path.getState(i)[0], path.getState(i)[1], 0.0]
                                 for i in range(n)])
            del path
    finally:
        ou.setLogLevel(level)
        # an exception's traceback keeps this frame alive: drop the OMPL objects
        # first, or nanobind reports them as leaked when the interpreter exits
        ss = si = pl = pdef = sp = ptc = status = None
    if failure is not None:
        raise failure
    cells = grid.world_to_cells(pose[:, :2])
    cells = np.clip(cells, 0, np.array(grid.shape) - 1)
    stats = {"ompl_status": code, "first_solution_s": clock["first"],
             "validity_checks": look.checks, "exact_checks": look.exact, "ompl_seed": seed,
             "stopped_by": clock["by"], "cusps": _reverses(pose) if space == "reeds_shepp" else 0}
    name = f"ompl:{space}" if space is not None else f"ompl:{planner}"
    return make_path(grid, cells, footprint=footprint, method=name, expanded=look.checks,
                     time=_time.perf_counter() - t0, points=pose[:, :2],
                     headings=pose[:, 2] if headed else None, stats=stats)


def _route_headings(grid: OccupancyGrid, s_cell, g_cell, footprint):
    """Headings of the first and last moves of the shortest grid route (None if there is none)."""
    from ..search import astar

    fp = footprint if footprint is None or footprint.kind == "disc" else \
        Footprint.disc(footprint.inscribed_radius) if footprint.inscribed_radius > 0 else None
    try:
        p = astar(grid, s_cell, g_cell, footprint=fp, connectivity=8)
    except NoPathError:
        return None, None
    pts = np.asarray(p.points, float)
    if len(pts) < 2:
        return None, None
    k = min(len(pts) - 1, 3)   # a few cells along, not the first diagonal step
    a, b = pts[k] - pts[0], pts[-1] - pts[-1 - k]
    return math.atan2(a[1], a[0]), math.atan2(b[1], b[0])


def _reverses(pose: np.ndarray) -> int:
    """Cusps: steps where the motion flips between forward and reverse."""
    d = np.diff(pose[:, :2], axis=0)
    fwd = d[:, 0] * np.cos(pose[:-1, 2]) + d[:, 1] * np.sin(pose[:-1, 2])
    s = np.sign(fwd[np.abs(fwd) > 1e-9])
    return int((np.diff(s) != 0).sum()) if s.size > 1 else 0


def ompl_planner(name: str, *, space: str | None = None) -> Callable[..., Path]:
    """The registry entry for one OMPL planner (``space`` for the car planners).

    >>> ompl_planner("rrtstar").__name__
    'ompl_rrtstar'
    """
    if name not in OMPL_PLANNERS:
        from ...errors import unknown_name
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


def _default_radius(grid: OccupancyGrid, footprint: Footprint | None) -> float:
    """A car's turning radius when none is given: its length, at least one cell."""
    if footprint is None:
        return grid.resolution
    return max(grid.resolution, 2.0 * footprint.circumscribed_radius)
