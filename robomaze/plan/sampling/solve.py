"""``ompl_plan``: one OMPL planning run on the grid's clearance lookup.

See :mod:`robomaze.plan.sampling` for the state spaces, budgets and
reproducibility; :mod:`.budget` for the work budget and progress,
:mod:`.prm` for the single-threaded PRM* driver.
"""

from __future__ import annotations

import math
import time as _time
import numpy as np

from ..._compile import cpu_now
from ...errors import NoPathError, OptionalDependencyError, ParameterError
from ...geometry import Footprint
from ...grid import OccupancyGrid
from ..._validate import check_float, check_int
from .._endpoints import check_grid, endpoints
from ..path import Path, make_path
from .budget import Progress, WorkBudget
from .lengths import check_lengths
from .params import planner_params
from .prm import solve_prm
from ...geometry.validity import ClearanceLookup

__all__ = ["ompl_plan", "OMPL_PLANNERS", "CAR_SPACES", "require_ompl", "STATUS", "OPTIMIZING"]

#: robomaze name -> OMPL geometric planner class name.
OMPL_PLANNERS = {"rrt_connect": "RRTConnect", "rrtstar": "RRTstar", "prmstar": "PRMstar",
                 "bitstar": "BITstar", "kpiece": "KPIECE1"}

# planners that return their first exact solution
_FIRST_ONLY = {"rrt_connect", "kpiece"}
#: Planners that keep improving their solution until the budget ends (anytime).
OPTIMIZING = frozenset(OMPL_PLANNERS) - _FIRST_ONLY

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
              max_checks: int | None = 200_000, time_limit: float | None = None,
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
    max_checks : int or None
        The budget, in validity checks (machine-independent): planning
        stops once it is spent; the simplifier has the same budget again.
        None: ``time_limit`` is the budget (not reproducible).
    time_limit : float or None
        Wall-clock safety net in seconds (None: none). When it fires before
        ``max_checks`` is spent, :class:`~.budget.WallClockLimitError` is
        raised rather than a path that depends on the machine.
    simplify : bool
        Shortcut and smooth the solution with OMPL's path simplifier
        (until it converges or its check budget is spent).
    stop_at_first : bool
        Stop at the first exact solution (optimizing planners otherwise
        refine until the budget ends).
    rng : int, Generator or None
        Seeds OMPL's random generators.
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
        ``method`` is ``"ompl:<planner>"`` (``"ompl:<space>"`` for cars);
        :attr:`~robomaze.plan.Path.poses` holds the continuous solution
        ``(x, y, heading)`` in world metres, interpolated at ``step``;
        ``expanded`` the validity checks made (planning and simplifying).
        ``stats`` holds ``ompl_status`` (OMPL's code), ``validity_checks``
        (planning only: what the budget counts), ``simplify_checks``,
        ``budget_checks`` (``max_checks``), ``exact_checks`` (settled by the
        exact fallback), ``first_solution_s`` and ``first_solution_checks``
        (when the first exact solution was found: the solving thread's CPU
        seconds, the clock of the run's own time, and validity checks), ``best_cost`` (OMPL's
        path length before simplification), ``ompl_seed``, ``cusps``
        (Reeds-Shepp gear changes), ``params`` (every parameter OMPL
        declares for the planner, read after setup, with robomaze's own
        settings: :mod:`.params`), ``stopped_by`` (``"checks"``: the
        budget; ``"solution"``: the first solution ends the search;
        ``"time"``: the clock, when it was the budget) and ``progress``
        (:meth:`~.budget.Progress.as_dict`: ``[time_s, best_cost, checks]``
        at every improvement).

    Raises
    ------
    NoPathError
        No exact solution within the budget (``reason`` says which budget
        ended), or the robot does not fit at the start or goal.
    WallClockLimitError
        The ``time_limit`` safety net fired before ``max_checks``.
    OptionalDependencyError
        OMPL is not installed.
    """
    ob, og, ou = require_ompl()
    t0 = cpu_now()
    check_grid(grid)
    if planner not in OMPL_PLANNERS:
        from ...errors import unknown_name
        raise unknown_name("OMPL planner", planner, OMPL_PLANNERS)
    tl = None if time_limit is None else check_float("time_limit", time_limit, min_value=0.0,
                                                     strict_min=True)
    mc = None if max_checks is None else check_int("max_checks", max_checks, min_value=1)
    budget = WorkBudget(max_checks=mc, time_limit=tl)
    if space is not None and space not in CAR_SPACES:
        from ...errors import unknown_name
        raise unknown_name("car state space", space, CAR_SPACES)
    rho = None
    if space is not None:
        if turning_radius is None:
            raise ParameterError(f"space={space!r} needs turning_radius (metres), got None")
        rho = check_float("turning_radius", turning_radius, min_value=0.0, strict_min=True)
    st = None if step is None else check_float("step", step, min_value=0.0, strict_min=True)
    rng_ = None if planner_range is None else check_float("planner_range", planner_range,
                                                          min_value=0.0, strict_min=True)
    name = f"ompl:{space}" if space is not None else f"ompl:{planner}"
    check_lengths(grid, name, turning_radius=rho, step=st, planner_range=rng_)
    s_cell, g_cell = endpoints(grid, start, goal)
    # heading change per unit of OMPL distance: SE(2) weighs it by 0.5, a car turns at 1/rho
    turn = 2.0 if rho is None else 1.0 / rho
    look = ClearanceLookup(grid, footprint, step=st, turn_per_metre=turn,
                           with_heading=space is not None)
    seed = _seed(rng)
    headed = space is not None or not look.round
    (sx, sy), (gx, gy) = grid.cell_to_world(s_cell), grid.cell_to_world(g_cell)
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
        for what, (x, y), c in (("start", (sx, sy), s_cell), ("goal", (gx, gy), g_cell)):
            if not look.valid(x, y):
                raise NoPathError(f"{what} cell {c} is blocked for the footprint",
                                  reason=f"{what} blocked for footprint")
    level = ou.getLogLevel()
    ou.setLogLevel(ou.LogLevel.LOG_NONE)   # OMPL logs every solve and warns on re-seeding
    sp = ss = si = pl = pdef = path = ptc = obj = mv = None
    try:
        # every OMPL generator (planner, samplers, simplifier) is created after
        # this and draws its seed from the sequence it restarts
        ou.RNG.setSeed(seed)
        sp = _space(ob, grid, space, rho, headed)
        # (finer, never coarser, than the step when the step spans the space)
        sp.setLongestValidSegmentFraction(min(0.5, look.step / sp.getMaximumExtent()))
        ss = og.SimpleSetup(sp)
        if headed:
            ss.setStateValidityChecker(lambda s: look.valid(s.getX(), s.getY(), s.getYaw()))
        else:
            ss.setStateValidityChecker(lambda s: look.valid(s[0], s[1]))
        ss.setStartAndGoalStates(_state(sp, headed, sx, sy, sth), _state(sp, headed, gx, gy, gth),
                                 1e-6)
        si = ss.getSpaceInformation()
        pl = getattr(og, OMPL_PLANNERS[planner])(si)
        if rng_ is not None and hasattr(pl, "setRange"):
            pl.setRange(rng_)
        ss.setPlanner(pl)
        if planner in OPTIMIZING:
            obj = ob.PathLengthOptimizationObjective(si)
            if stop_at_first:
                # the OMPL way to stop an optimizing planner at its first
                # solution: an objective every solution satisfies
                obj.setCostThreshold(ob.Cost(math.inf))
            ss.setOptimizationObjective(obj)
        ss.setup()
        # the full parameter set, defaults included, as OMPL's Benchmark logs it
        params = {"planner": OMPL_PLANNERS[planner], **planner_params(pl, planner),
                  "state_space": type(sp).__name__,
                  "longest_valid_segment_fraction": float(sp.getLongestValidSegmentFraction()),
                  "motion_step_m": float(look.step), "max_checks": mc, "simplify": bool(simplify),
                  "stop_at_first": bool(stop_at_first), "turning_radius": rho,
                  "ompl_seed": seed, "ompl_version": _ompl_version()}
        pdef = ss.getProblemDefinition()
        look.checks = look.exact = 0
        mv = si.getMotionValidator()
        motions0 = mv.getCheckedMotionCount()
        budget.motions = lambda: mv.getCheckedMotionCount() - motions0
        budget.start(look)
        progress = Progress(look, t0=budget.t0)
        if hasattr(pl, "bestCost"):
            budget.poll = lambda: progress.add(pl.bestCost().value())
        if planner == "prmstar":
            code = solve_prm(ob, og, ss, si, pl, budget, look, progress, headed=headed,
                             car=space is not None, stop_at_first=stop_at_first)
            what = "exact solution" if code == STATUS["exact_solution"] else "timeout"
        else:
            ptc = ob.PlannerTerminationCondition(budget.stop)
            status = ss.solve(ptc)
            code = int(status.getStatus().value)
            what = status.asString().lower()
            if budget.poll is not None:   # an improvement in the last iteration
                budget.poll()
        budget.raise_if_wall_clock(f"{name} from {s_cell} to {g_cell}")
        solve_checks, stopped_by = look.checks, budget.stopped_by or "solution"
        failure = None
        if code != STATUS["exact_solution"]:
            failure = NoPathError(
                f"{name} found no exact solution from {s_cell} to {g_cell} ({what} after "
                f"{solve_checks} validity checks, {budget.elapsed():.3f} s CPU; budget: {mc} checks"
                + (f", safety net {tl:g} s" if tl is not None else "")
                + (f"; stopped by {budget.stopped_by}: {budget.iterations} iterations, "
                   f"{budget.motions()} motions checked"
                   if budget.stopped_by in ("iterations", "motions") else "") + ")",
                reason=f"ompl {what}")
        else:
            raw = ss.getSolutionPath()
            if not progress.samples:   # planners that do not report intermediate solutions
                progress.add(raw.length())
            best_cost = progress.best
            if simplify:
                simp = WorkBudget(max_checks=mc, time_limit=tl)
                simp.start(_Offset(look))
                ss.simplifySolution(ob.PlannerTerminationCondition(simp.stop))
                simp.raise_if_wall_clock(f"{name} simplifying its path")
            path = ss.getSolutionPath()
            path.interpolate()
            n = path.getStateCount()
            if headed:
                pose = np.array([[path.getState(i).getX(), path.getState(i).getY(),
                                  path.getState(i).getYaw()] for i in range(n)])
            else:
                pose = np.array([[path.getState(i)[0], path.getState(i)[1], 0.0]
                                 for i in range(n)])
    finally:
        ou.setLogLevel(level)
        # an exception's traceback keeps this frame alive: drop the OMPL objects
        # first, or nanobind reports them as leaked when the interpreter exits
        budget.poll = budget.motions = None
        sp = ss = si = pl = pdef = path = ptc = obj = raw = status = mv = None
    if failure is not None:
        failure.params = params   # a failed row still says what was run
        raise failure
    cells = grid.world_to_cells(pose[:, :2])
    cells = np.clip(cells, 0, np.array(grid.shape) - 1)
    first = progress.samples[0]
    stats = {"ompl_status": code, "first_solution_s": first[0],
             "first_solution_checks": first[2], "best_cost": best_cost,
             "validity_checks": solve_checks, "simplify_checks": look.checks - solve_checks,
             "budget_checks": mc, "exact_checks": look.exact, "ompl_seed": seed,
             "params": params, "stopped_by": stopped_by,
             "cusps": _reverses(pose) if space == "reeds_shepp" else 0,
             "progress": progress.as_dict()}
    return make_path(grid, cells, footprint=footprint, method=name, expanded=look.checks,
                     time=cpu_now() - t0, points=pose[:, :2],
                     headings=pose[:, 2] if headed else None, stats=stats)


def _ompl_version() -> str | None:
    from importlib import metadata

    try:
        return metadata.version("ompl")
    except metadata.PackageNotFoundError:  # pragma: no cover - a source build
        return None


class _Offset:
    """The lookup's check counter from now on (the simplifier's own budget)."""

    def __init__(self, look: ClearanceLookup) -> None:
        self.look, self.base = look, look.checks

    @property
    def checks(self) -> int:
        return self.look.checks - self.base


def _space(ob, grid: OccupancyGrid, space: str | None, rho: float | None, headed: bool):
    xmin, xmax, ymin, ymax = _bounds(grid)
    b = ob.RealVectorBounds(2)
    b.setLow(0, xmin)
    b.setHigh(0, xmax)
    b.setLow(1, ymin)
    b.setHigh(1, ymax)
    if space is not None:
        sp = getattr(ob, CAR_SPACES[space])(rho)
    elif headed:
        sp = ob.SE2StateSpace()
    else:
        sp = ob.RealVectorStateSpace(2)
    sp.setBounds(b)
    return sp


def _state(sp, headed: bool, x: float, y: float, th: float):
    s = sp.allocState()
    if headed:
        s.setX(x)
        s.setY(y)
        s.setYaw(th)
    else:
        s[0], s[1] = x, y
    return s

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


