"""Run one scenario and turn its outcome into a result row.

:func:`run_scenario` builds the maze (generated or read from a file),
widens it, builds the footprint, then either plans with a planner from
:data:`robomaze.plan.PLANNERS` or simulates an agent from
:data:`robomaze.sim.AGENTS`, and measures the result. "No collision-free
path" (:class:`robomaze.errors.NoPathError`) is a *result* (``success``
false, with the reason), not an error. Anything else that raises is left to
the caller (the runner turns it into a failed row with
:func:`failed_row`).

Every row has one ``outcome`` from the failure taxonomy shared by runs, the
report and ``bench compare`` (:data:`OUTCOMES`):

=================  =========================================================
``success``        the method reached the goal
``no_path``        no collision-free route exists for this robot (shown by
                   the method or by the exact reference)
``gave_up``        an agent stopped or proved itself looping (e.g. a wall
                   follower circling phantom walls); its safety metrics are
                   kept, it moved
``budget``         its work budget was spent (agent steps or simulated time,
                   an OMPL planner's checks, a mouse's moves)
``collided``       the run stopped on contact, or a planned path touches walls
``infra_timeout``  the wall-clock safety net fired: the machine, not a result
``error``          the run raised
=================  =========================================================

A row is a plain JSON-ready dict::

    id, sweep, scenario (canonical spec), base_dir,
    kind, method, generator, corridor, wall, resolution, footprint, seed,
    noise, odometry_noise (the agent's noise specs, "none" for other runs),
    status ("ok" | "error" | "infra_timeout"), outcome (see above),
    success, reason, error,
    metrics {...deterministic numbers...},
    timings {"setup_s", "optimal_s", "method_s", "compute_s", "compile_s", "total_s"}
        (compute_s: the method's thread CPU time, numba compilation excluded
        and reported as compile_s, on every outcome -- no_path, budget and
        error rows and mouse rows too; cpu_s: the process CPU time around it;
        times are measured, never verdicts),
    path [[row, col], ...] (grid cells, for example images) or None,
    poses (the continuous path: x, y, heading per pose, metres and radians;
        :func:`robomaze.bench.store.row_poses` decodes it) or None,
    provenance {robomaze, git_commit, python, numpy, seed},
    localize ("mcl" | "slam"; only in rows of agents with a localizer)
"""

from __future__ import annotations

import functools
import inspect
import json
import math
import platform
import subprocess
import time
import traceback
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import CollisionError, NoPathError, ParameterError, ScenarioError
from .plugins import import_plugins
from .scenario import Scenario

__all__ = ["run_scenario", "failed_row", "build_grid", "build_footprint", "provenance",
           "DETERMINISTIC_METRICS", "OUTCOMES"]

#: The failure taxonomy (see the module docstring).
OUTCOMES = ("success", "no_path", "gave_up", "budget", "collided", "infra_timeout", "error")

#: Metrics compared by ``bench compare`` (everything but timings).
DETERMINISTIC_METRICS = (
    "success", "length_m", "length_cells", "optimal_length_m", "length_ratio",
    "min_clearance", "mean_clearance", "centre_min_clearance", "centre_mean_clearance",
    "collisions", "time_in_collision", "danger_fraction", "smoothness", "turns", "expanded",
    "walk_length_m", "steps", "time_to_goal", "fraction_seen",
    # noisy agents and the micromouse run kind (robomaze.bench.micromouse)
    "odometry_error", "reached_goal", "proven", "returned", "cells_explored", "search_moves",
    "search_turns", "moves_to_goal", "crashes", "search_time", "route_length", "route_turns",
    "fast_run_time", "fast_run_time_diagonal", "shortest_route_length", "shortest_route_turns",
    "shortest_route_time", "shortest_route_time_diagonal", "fastest_route_length",
    "fastest_route_turns", "fastest_route_time", "fast_run_ratio", "contest_score",
    "mms_score",
    "search_time_profile", "search_distance_m", "fastest_route_time_diagonal",
    "fast_run_ratio_diagonal",
    # shape and arc clearance (robomaze.metrics.shape_metrics), the reference's name
    "curvature_max", "curvature_mean", "cusps", "arc_clearance_min", "arc_clearance_mean",
    "arc_clearance_median", "arc_clearance_max", "optimal_reference",
    # agents with a localizer (robomaze.localize)
    "ate_rmse", "rpe_per_m", "lost_time", "map_iou_occupied", "map_iou_free",
    # many agents planned together (robomaze.bench.mapf.MAPF_METRICS): a MAPF
    # regression (a longer plan, a lost optimality bound) is gated like a path's
    "agents", "soc", "makespan", "lower_bound", "sum_of_distances", "suboptimality", "bound",
    "expansions", "nodes", "body",
)
_MAX_PATH_POINTS = 2000


# ------------------------------------------------------------ provenance
@functools.lru_cache(maxsize=1)
def _static_provenance() -> dict:
    from .. import __version__

    commit = None
    repo = Path(__file__).resolve().parents[2]
    if (repo / ".git").exists():
        try:
            out = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"],
                                 capture_output=True, text=True, timeout=5)
            if out.returncode == 0:
                commit = out.stdout.strip()
                dirty = subprocess.run(["git", "-C", str(repo), "status", "--porcelain",
                                        "--untracked-files=no", "robomaze"],
                                       capture_output=True, text=True, timeout=5)
                if dirty.returncode == 0 and dirty.stdout.strip():
                    commit += "-dirty"
        except (OSError, subprocess.SubprocessError):
            commit = None
    # no platform string: rows are compared across machines (the sweep's
    # sweep.json records the machine)
    return {"robomaze": __version__, "git_commit": commit,
            "python": platform.python_version(), "numpy": np.__version__}


def provenance(seed: int | None = None) -> dict:
    """Versions, git commit (if the package runs from a checkout) and seed."""
    return dict(_static_provenance(), seed=seed)


# --------------------------------------------------------------- building
def _resolve(name: str, base_dir: str) -> Path:
    from ..data import PREFIX, resolve

    if name.startswith(PREFIX):  # a sample shipped in the package
        return resolve(name)
    p = Path(name).expanduser()
    return p if p.is_absolute() else Path(base_dir) / p


def build_grid(scenario: Scenario):
    """The occupancy grid, and its start and goal grid cells, of a scenario.

    Built by :class:`robomaze.world.WorldSpec`, the one place a spec becomes
    a world (and a seed becomes a maze), so the CLI re-creates the row.
    """
    from ..world import WorldSpec

    world = WorldSpec.from_scenario(scenario).build()
    return world.grid, world.start, world.goal


def build_footprint(fp: dict):
    """A :class:`robomaze.geometry.Footprint` from a canonical footprint table."""
    from ..geometry import Footprint

    return Footprint.from_spec(fp)


def _accepts(fn, name: str) -> bool:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    # explicit parameters only: a **options catch-all may reject unknown names
    return name in params


# ---------------------------------------------------------------- metrics
def _json_number(v) -> Any:
    """JSON-safe number: numpy scalars to Python, non-finite floats to None."""
    if v is None:
        return None
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        v = float(v)
        return v if math.isfinite(v) else None
    return v


def _optimal_length(grid, start, goal, footprint) -> float | None:
    """Shortest collision-free length for this footprint (None if there is none).

    The definition of :func:`robomaze.metrics.shortest_length` (any-angle
    ``theta_star`` on the footprint's free space), shared by planners and
    agents so their ratios are comparable.
    """
    from .. import metrics as M

    v = M.shortest_length(grid, footprint, grid.cell_to_world(start), grid.cell_to_world(goal))
    return None if v is None or not math.isfinite(v) else float(v)


def _length_cells(grid, length_m: float | None) -> float | None:
    if length_m is None:
        return None
    pitch = grid.widening.pitch if grid.widening is not None else 1
    return float(length_m) / (grid.resolution * pitch)


#: robomaze.metrics key -> row metric key
_RENAME = {"length": "length_m", "min_centre_clearance": "centre_min_clearance",
           "mean_centre_clearance": "centre_mean_clearance", "unsafe_fraction": "danger_fraction"}
_DROP = ("optimal_length", "optimality_ratio", "reason")


def _from_metrics(m: dict) -> dict:
    return {_RENAME.get(k, k): v for k, v in m.items() if k not in _DROP}


def _thin(cells: np.ndarray) -> list:
    cells = np.asarray(cells).reshape(-1, 2)
    if len(cells) > 1:
        keep = np.r_[True, np.any(np.diff(cells, axis=0) != 0, axis=1)]
        cells = cells[keep]
    if len(cells) > _MAX_PATH_POINTS:
        idx = np.linspace(0, len(cells) - 1, _MAX_PATH_POINTS).round().astype(int)
        cells = cells[idx]
    return cells.tolist()


# ------------------------------------------------------------------- rows
def _base_row(scenario: Scenario) -> dict:
    spec = scenario.spec
    mz = spec["maze"]
    source = mz["generator"] or Path(mz["file"] or mz["grid"]).name
    return {
        "id": scenario.id, "sweep": Path(scenario.sweep).stem if scenario.sweep else "",
        "scenario": spec, "base_dir": portable_base_dir(scenario.base_dir),
        "kind": scenario.kind, "method": scenario.method, "generator": source,
        "corridor": spec["widen"]["corridor"], "wall": spec["widen"]["wall"],
        "resolution": spec["widen"]["resolution"], "footprint": scenario.footprint,
        "seed": spec["seed"],
        "noise": spec["robot"].get("noise") or "none",
        "odometry_noise": spec["robot"].get("odometry_noise") or "none",
        "status": "ok", "outcome": "success", "success": False, "reason": None, "error": None,
        "metrics": {}, "timings": {}, "path": None, "poses": None,
        "provenance": provenance(spec["seed"]),
        # the world the row ran in, stored (WorldSpec.to_dict(): a walk record and
        # a play URL of the same world hold an equal dict); never compared or hashed
        "world": row_world(scenario),
        # only with a localizer: rows without one keep their bytes
        **({"localize": spec["robot"]["localize"]} if spec["robot"].get("localize") else {}),
    }


def row_world(scenario: Scenario) -> dict | None:
    """The stored ``world`` of a row: the scenario's
    :class:`~robomaze.world.WorldSpec` dict, portable
    (:meth:`~robomaze.world.WorldSpec.portable`); None when the scenario names
    no valid world (its row is an error row)."""
    from ..world import WorldSpec

    try:
        return WorldSpec.from_scenario(scenario).portable().to_dict()
    except (ParameterError, KeyError, TypeError, ValueError):
        return None


def failed_row(scenario: Scenario, status: str, error: str, *, elapsed: float = 0.0,
               timings: dict | None = None) -> dict:
    """The row of a run that raised (``"error"``) or hit the wall-clock safety net
    (``"infra_timeout"``); ``timings`` adds the method's clock where it was read
    (:func:`failed_timings`)."""
    row = _base_row(scenario)
    row.update(status=status, outcome=status, success=False, error=error,
               reason=error.strip().splitlines()[-1] if error.strip() else status)
    row["timings"] = {**(timings or {}), "total_s": float(elapsed)}
    return row


def _attach_timings(exc: BaseException, clock, cpu: float) -> None:
    """Keep the method's CPU time on an exception, for its ``error`` row."""
    try:
        exc.robomaze_timings = {"compute_s": float(clock.cpu_s),
                                "compile_s": float(clock.compile_s), "cpu_s": float(cpu)}
    except (AttributeError, TypeError):  # an exception type that takes no attributes
        pass


def failed_timings(exc: BaseException) -> dict:
    """The timings an exception carries from :func:`run_scenario` (or none)."""
    t = getattr(exc, "robomaze_timings", None)
    return dict(t) if isinstance(t, dict) else {}


def run_scenario(scenario: Scenario | dict) -> dict:
    """Run one scenario in this process and return its result row.

    Raises whatever the maze source, planner or agent raises, except
    :class:`NoPathError`, which becomes ``success = False`` with its reason.
    """
    if isinstance(scenario, dict):
        scenario = Scenario.from_dict(scenario)
    spec = scenario.spec
    import_plugins(spec["plugins"], scenario.base_dir)
    row = _base_row(scenario)
    if scenario.kind == "mouse":
        from .micromouse import run_mouse

        row = run_mouse(scenario, row)
        json.dumps(row, allow_nan=False)
        return row
    if scenario.kind == "mapf":   # many agents planned together (robomaze.bench.mapf)
        from .mapf import run_mapf

        row = run_mapf(scenario, row)
        json.dumps(row, allow_nan=False)
        return row
    t0 = time.perf_counter()
    grid, start, goal = build_grid(scenario)
    footprint = build_footprint(spec["robot"]["footprint"])
    t1 = time.perf_counter()
    optimal = _optimal_length(grid, start, goal, footprint)
    t2 = time.perf_counter()
    metrics: dict[str, Any] = {"optimal_length_m": optimal}
    from .. import metrics as M
    from ..world import stage_rng

    metrics["optimal_reference"] = M.reference_name(footprint, grid)
    cpu0 = time.process_time()
    compute = compile_s = None
    from .._compile import method_clock

    # the method's CPU time when it raises (no path, a spent budget, an
    # error): the planner's own clock is lost with its Path
    outer = method_clock()
    outer.__enter__()
    try:
        if scenario.kind == "plan":
            metrics_, path, poses, (compute, compile_s) = _run_planner(
                scenario, grid, start, goal, footprint, stage_rng(spec["seed"], "method"))
            # an anytime planner's (time, best cost, checks) samples, for the
            # Planner Arena logs' progress table
            progress = metrics_.pop("progress", None)
            if progress is not None:
                row["progress"] = progress
            params = metrics_.pop("params", None)
            if params is not None:   # the planner's full parameter set
                row["params"] = params
        else:
            metrics_, path, poses, (compute, compile_s) = _run_agent(
                scenario, grid, start, goal, footprint, stage_rng(spec["seed"], "method"))
        bag = metrics_.pop("bag", None)
        if bag:
            row["bag"] = bag
        metrics.update(metrics_)
        optimal = metrics.get("optimal_length_m", optimal)
        row["path"] = path
        row["poses"] = encode_poses(poses)
        ends = ((grid.cell_to_world(start), grid.cell_to_world(goal)) if scenario.kind == "plan"
                else (poses[0, :2], poses[-1, :2]))
        row["success"] = bool(metrics.get("success", False))
        row["outcome"] = metrics.pop("outcome", None) or ("success" if row["success"] else "gave_up")
        if not row["success"]:
            row["reason"] = metrics.pop("reason", None) or "did not reach the goal"
        metrics.pop("reason", None)
    except NoPathError as exc:
        if isinstance(getattr(exc, "params", None), dict):
            row["params"] = exc.params
        # the method's own clock (plan() and the simulation time a "no path" like a
        # path); the outer clock also holds this function's set-up and unwinding,
        # constant costs that are most of a sub-millisecond row
        inner = getattr(exc, "method_time", None)
        if isinstance(inner, tuple) and len(inner) == 2:
            compute, compile_s = inner
        row["success"] = False
        row["reason"] = f"no collision-free path: {exc.reason}"
        # a sampling planner that found nothing where a route exists spent its budget
        row["outcome"] = ("budget" if scenario.kind == "plan" and optimal is not None
                          and str(scenario.method).startswith("ompl:") else "no_path")
        metrics["success"] = False
    except BaseException as exc:
        outer.__exit__(None, None, None)
        _attach_timings(exc, outer, time.process_time() - cpu0)
        raise
    outer.__exit__(None, None, None)
    if compute is None:
        compute, compile_s = outer.cpu_s, outer.compile_s
    t3 = time.perf_counter()
    cpu = time.process_time() - cpu0
    length = metrics.get("length_m")
    metrics["length_cells"] = _length_cells(grid, length)
    metrics["length_ratio"] = (float(length) / optimal
                               if row["success"] and optimal and length is not None else None)
    if row["success"] and length is not None:   # rows name the best-known and the lower bound
        metrics.update(M.lower_bound_metrics(grid, footprint, *ends, length, reference=optimal,
                                             reference_name_=metrics.get("optimal_reference")))
    metrics["success"] = row["success"]
    row["metrics"] = {k: _json_number(v) for k, v in metrics.items()}
    row["timings"] = {"setup_s": t1 - t0, "optimal_s": t2 - t1, "method_s": t3 - t2,
                      "compute_s": float(compute),
                      "compile_s": float(compile_s or 0.0), "total_s": t3 - t0,
                      "cpu_s": cpu}
    json.dumps(row, allow_nan=False)  # a row that cannot be stored is a bug here, not later
    return row


def _run_planner(scenario, grid, start, goal, footprint, rng):
    from ..plan import PLANNERS, plan

    run = scenario.spec["run"]
    options = dict(run["options"])
    if _accepts(PLANNERS[run["planner"]], "rng") and "rng" not in options:
        options["rng"] = rng
    path = plan(grid, start, goal, method=run["planner"], footprint=footprint,
                connectivity=run["connectivity"], **options)
    from .. import metrics as M

    # safety measured along the whole polyline (resampled every quarter cell)
    m = _from_metrics(M.path_metrics(path, grid, footprint=footprint, reference=False))
    m.update(turns=path.turns, expanded=path.expanded, steps=len(path.cells),
             walk_length_m=getattr(path, "walk_length", None))
    # a planner's own figures never replace a robomaze.metrics name (one definition each:
    # OMPL's "cusps" is robomaze.metrics.cusps on its dense states)
    stats = getattr(path, "stats", None) or {}
    m.update({k: v for k, v in stats.items() if _is_plain(v) and k not in m})
    for key in ("progress", "params"):
        if isinstance(stats.get(key), dict):
            m[key] = stats[key]
    m["success"] = bool(path.collision_free) and len(path.cells) > 0
    m["outcome"] = "success" if m["success"] else "collided"
    if not path.collision_free:
        m["reason"] = "path collides with the walls"
    # plan() timed the planner alone: thread CPU time, compilation apart
    return m, _thin(path.cells), _path_poses(path), (path.time, path.compile_time)


def _run_agent(scenario, grid, start, goal, footprint, rng):
    from ..sim import simulate

    spec = scenario.spec
    run, mz = spec["run"], spec["maze"]
    # widened mazes: the simulator's defaults (start block centre, goal = the
    # goal cell's whole block); grid files: the given grid cells
    where = {"start": start, "goal": goal} if mz["grid"] or mz["start"] or mz["goal"] else {}
    from .._compile import method_clock

    clock = method_clock()
    observed: list | None = [] if run.get("bags") else None
    try:
        with clock:
            result = simulate(grid, footprint=footprint, agent=run["agent"],
                              sensor=spec["robot"]["sensor"], max_steps=run["max_steps"],
                              dt=run["dt"], rng=rng, noise=spec["robot"].get("noise"),
                              odometry_noise=spec["robot"].get("odometry_noise"),
                              localize=spec["robot"].get("localize") or "none",
                              kidnap=spec["robot"].get("kidnap"),
                              observer=None if observed is None else observed.append,
                              **where, **run["options"])
    except CollisionError as exc:  # the robot does not even fit where it starts
        err = NoPathError(str(exc), reason=f"the robot does not fit at the start ({exc})")
        err.method_time = (clock.cpu_s, clock.compile_s)
        raise err from None
    except NoPathError as exc:
        exc.method_time = (clock.cpu_s, clock.compile_s)
        raise
    m = {k: v for k, v in _from_metrics(dict(result.metrics)).items() if _is_plain(v)}
    m["success"] = bool(result.success)
    # normalise by the shortest path between the trajectory's own ends (it
    # stops on entering the goal block, not at its centre), as robomaze.metrics does
    ref = _json_number(result.metrics.get("optimal_length"))
    if result.success and ref:
        m["optimal_length_m"] = ref
    poses = np.asarray(result.trajectory.poses, dtype=float)
    moved = len(poses) > 1 and bool(np.any(poses[1:, :2] != poses[0, :2]))
    if result.success:
        m["outcome"] = "success"
    else:
        why = {"no_path": "no collision-free path", "collision": "stopped on a collision",
               "max_steps": "step budget spent (max_steps)",
               "max_time": "simulated-time budget spent (max_time)"}
        m["reason"] = why.get(result.reason, str(result.reason))
        m["outcome"] = {"collision": "collided", "max_steps": "budget",
                        "max_time": "budget"}.get(result.reason, "gave_up")
        if result.reason == "no_path":
            error = str(result.info.get("error", "no path"))
            if not moved:  # it never started: there is no route for it
                err = NoPathError(error, reason=error)
                # timed like a run that moved: the simulation alone
                err.method_time = (clock.cpu_s, clock.compile_s)
                raise err
            # it moved, then stopped (e.g. circling phantom walls under sensor
            # noise): a run that gave up, whose safety metrics count
            m["reason"] = f"gave up: {result.info.get('no_path_reason') or error}"
    if observed is not None:
        m["bag"] = _write_bag(scenario, grid, result, footprint, observed)
    cells = _fractional_cells(grid, poses[:, :2])
    return m, _thin(cells), poses[:, :3], (clock.cpu_s, clock.compile_s)


#: Environment variable naming the results directory whose ``bags/`` folder
#: receives the ROS 2 bags of a sweep's ``run.bags = true`` agent runs.
BAG_DIR_ENV = "ROBOMAZE_BAG_DIR"


def _write_bag(scenario, grid, result, footprint, observed) -> str | None:
    """The run as ``DIR/bags/ID.mcap`` (written beside, then renamed); its
    path relative to ``DIR``, or None when no results directory is known."""
    import os

    from ..io.rosbag2 import write_run_bag
    from ..sim.runner import default_sensor
    from .files import target

    directory = os.environ.get(BAG_DIR_ENV)
    if not directory:
        return None
    rel = f"bags/{scenario.id}.mcap"
    out = target(directory, rel)
    tmp = out.parent / f".tmp-{scenario.id}-{os.getpid()}.mcap"
    plan = getattr(result.agent, "path", None)
    sensor = scenario.spec["robot"]["sensor"]
    try:
        write_run_bag(tmp, grid, result.trajectory, footprint=footprint,
                      scans=[o["scan"] for o in observed],
                      odometry=np.array([o["odom"] for o in observed]),
                      plan_points=getattr(plan, "points", None),
                      mount=default_sensor(sensor, grid).mount)
        os.replace(tmp, out)
    finally:
        if tmp.exists():
            tmp.unlink()
    return rel


def _path_poses(path) -> np.ndarray:
    """(x, y, heading) of a planned path's key poses (:attr:`Path.poses`)."""
    return np.asarray(path.poses, dtype=float).reshape(-1, 3)


def encode_poses(poses) -> dict | None:
    """A pose array as a compact, exact JSON value (zlib'd little-endian float64).

    >>> enc = encode_poses(np.array([[0.0, 1.0, 0.5], [2.0, 3.0, -0.25]]))
    >>> enc["n"], enc["columns"]
    (2, ['x', 'y', 'heading'])
    >>> from robomaze.bench.store import row_poses
    >>> row_poses({"poses": enc}).tolist()
    [[0.0, 1.0, 0.5], [2.0, 3.0, -0.25]]
    """
    import base64
    import zlib

    if poses is None:
        return None
    a = np.ascontiguousarray(np.asarray(poses, dtype="<f8").reshape(-1, 3))
    return {"n": int(a.shape[0]), "columns": ["x", "y", "heading"], "dtype": "<f8",
            "zlib_base64": base64.b64encode(zlib.compress(a.tobytes(), 6)).decode("ascii")}


def portable_base_dir(base_dir: str) -> str:
    """``base_dir`` as rows store it: ``pkg:DIR`` for the package's own sweep
    folders, so committed baselines hold no machine paths."""
    from ..data import PREFIX, SAMPLES_DIR

    if str(base_dir).startswith(PREFIX):
        return str(base_dir)
    try:
        rel = Path(base_dir).resolve().relative_to(SAMPLES_DIR.resolve())
    except (ValueError, OSError):
        return base_dir
    return PREFIX + rel.as_posix()


def local_base_dir(base_dir: str) -> str:
    """The folder a stored ``base_dir`` names on this machine (see
    :func:`portable_base_dir`)."""
    from ..data import PREFIX, SAMPLES_DIR

    if str(base_dir).startswith(PREFIX):
        return str(SAMPLES_DIR / str(base_dir)[len(PREFIX):])
    return str(base_dir)


def _fractional_cells(grid, points: np.ndarray) -> np.ndarray:
    """World points as fractional (row, col) grid coordinates (for smooth drawings)."""
    p = np.asarray(points, dtype=float).reshape(-1, 2)
    a, b = grid.frame.to_units(p[:, 0], p[:, 1])
    return np.round(np.stack([b - 0.5, a - 0.5], axis=1), 3)   # cell centres are at .5


def _is_plain(v) -> bool:
    return isinstance(v, (bool, int, float, str, np.integer, np.floating, np.bool_)) or v is None


def format_exception(exc: BaseException) -> str:
    """Type, message and the innermost frames of an exception (for rows)."""
    tb = traceback.format_exception(type(exc), exc, exc.__traceback__)
    text = "".join(tb[-6:]).strip()
    return text[-4000:]


def validate_for_run(scenario: Scenario) -> None:
    """Cheap checks that need the file system (maze/grid files exist)."""
    mz = scenario.spec["maze"]
    from .files import file_problem

    for key in ("file", "grid"):
        if not mz[key]:
            continue
        path = str(_resolve(mz[key], scenario.base_dir))
        problem = file_problem(path)
        if problem == "no such file":
            raise ScenarioError(f"{scenario.sweep}: maze.{key}: no such file {path!r}")
        if problem is not None:
            raise ScenarioError(f"{scenario.sweep}: maze.{key}: {path!r} {problem}")
