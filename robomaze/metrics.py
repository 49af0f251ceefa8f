"""Run and path metrics: one module, one documented definition each.

Every function takes a :class:`robomaze.sim.Trajectory`, a
:class:`robomaze.plan.Path` or an ``(n, 2|3)`` array of world points/poses
("a route").

Motion model
    One continuous motion per route (:func:`motion`), used by every
    clearance, collision and curvature metric: a trajectory moves straight
    between its recorded poses, turning as it goes; an OMPL SE(2) path
    likewise between its interpolated states (OMPL's own ``interpolate``:
    position and heading change together); every other path translates
    then turns -- along each segment at a constant heading (its own key
    heading for heading-aware planners, the segment's direction for paths
    without headings), then a turn in place at the vertex
    (:func:`robomaze.plan.path.motion_poses`). Turns in place have no arc
    length but are measured: a rectangle sweeps its corners through them.

*Samples* of a route: a trajectory's recorded rows (equal time steps, so
fractions over samples are fractions of time); a path's motion every
quarter grid cell of each move (fractions of length) and, for a footprint
that is not a disc, every 5 degrees of each turn in place.

Definitions
-----------
success
    The reference point entered the goal region at some recorded row.
executed length
    Sum of the straight distances between consecutive positions (metres).
optimality ratio
    Executed length divided by the length of the shortest collision-free
    path for the footprint from the route's first to its last position
    (:func:`shortest_length`). For a point or a disc that length is exact:
    the visibility graph of the free region, grown corners approximated by
    inscribed chords, so it is a lower bound within 0.04% of the arcs it
    wraps (:mod:`robomaze.geometry.visibility`) and a route that never
    touches a wall has a ratio of at least 1. For rectangles and polygons it
    is the any-angle ``theta_star`` planner on the footprint's free space (an
    upper bound of the true shortest length, so the ratio can dip below 1 for
    a route that hugs corners). Rows name the one used
    (``optimal_reference``).
footprint clearance (min, mean)
    Exact distance (metres) from the footprint at each sample to the nearest
    occupied grid square, 0 when touching
    (:func:`robomaze.geometry.footprint_clearance`).
centre clearance (min, mean)
    The same for the reference point alone (comparable with benchmarks that
    treat the robot as a point).
collision count
    Number of collision *entry events*: samples flagged as in collision
    whose predecessor is not (trajectories: refused steps; paths: footprint
    clearance 0).
time in collision
    Seconds spent in steps flagged as collisions.
unsafe fraction
    Fraction of samples whose footprint clearance is below ``safety``
    (default: :func:`danger_threshold`, 10% of the footprint's inscribed
    radius, in metres, so it compares across resolutions; for a point robot
    the fraction of samples in contact).
smoothness
    Total absolute heading change per metre travelled (rad/m; lower is
    smoother; NaN for a route that does not move).
    It is Bench-MR's *angle-over-length*: the same number, one name here.
arc resampling
    The motion's poses at every ``ARC_STEP`` metres (1 cm) of arc length
    from its start, plus its last pose, and the poses of its turns in place
    (for a footprint that is not a disc, turning at most so far that its
    farthest point moves ``ARC_STEP``) (:func:`resample`). The shape and
    clearance statistics below are measured on these samples, so they do not
    depend on how densely a planner or the simulator spaced its points.
curvature (max, mean)
    Discrete curvature (1/m) at each interior arc sample: the turning angle
    between the chords to and from its two neighbours divided by the mean of
    the chords' lengths (``1/R`` on a circle of radius ``R``, to a relative
    ``(ARC_STEP/R)^2 / 24``); its maximum and its mean over the samples. A
    polyline's corner turning by ``a`` radians reads ``a / ARC_STEP`` (grid
    paths have large maxima by construction). A reversal (cusp) reads
    exactly ``pi / ARC_STEP`` (314 1/m): the pieces between cusps are
    resampled from their own ends, so the value does not depend on where
    the samples fall. NaN for fewer than three samples.
cusps
    Number of direction reversals: vertices of the route (zero-length moves
    dropped) where the direction of travel turns by more than 90 degrees, as
    at the gear change of a Reeds-Shepp path.
arc clearance (min, mean, median, max)
    Footprint clearance (as above, metres) at the arc samples: minimum,
    arc-length mean, median and maximum. ``min_clearance`` and
    ``arc_clearance_min`` are one number by construction: the minimum over
    both sample sets of the same motion (the densest sampling decides).
cpu time
    Processor seconds of the process spent planning or simulating one run
    (``time.process_time``; the benchmark compiles its kernels before the
    runs, so compilation is not counted).
time to goal
    Time of the first row inside the goal region (NaN if never).
steps
    Number of simulation steps (rows minus one).
fraction seen
    Fraction of the grid's free cells that at least one noise-free beam of
    ``sensor``, cast from the samples, enters more than half a cell before
    its end -- the free-space rule of the ``explore`` agent's map; beams that
    hit nothing within ``range_max`` are not counted (explorers).

Metric names
------------
One name per metric, everywhere. The same quantity keeps its name in
:func:`trajectory_metrics` / :func:`path_metrics` (left), in benchmark
result rows (``row["metrics"]``, :mod:`robomaze.bench.run`) and on
:class:`robomaze.plan.Path` (right); a different quantity gets a different
name.

=========================  ==============================  ================================
metrics dict               bench row                       meaning (see Definitions)
=========================  ==============================  ================================
``success``                ``success``                     success
``length``                 ``length_m``                    executed length (m)
--                         ``length_cells``                ``length_m`` in maze cells
``optimal_length``         ``optimal_length_m``            shortest collision-free length
``optimality_ratio``       ``length_ratio``                optimality ratio
``min_clearance``          ``min_clearance``               footprint clearance, min over
                                                           the samples (every quarter cell
                                                           or every step)
``mean_clearance``         ``mean_clearance``              footprint clearance, mean
``min_centre_clearance``   ``centre_min_clearance``        centre clearance, min
``mean_centre_clearance``  ``centre_mean_clearance``       centre clearance, mean
``collisions``             ``collisions``                  collision count
``time_in_collision``      ``time_in_collision``           time in collision (s)
``unsafe_fraction``        ``danger_fraction``             unsafe fraction ("time in
                                                           danger" in reports)
``smoothness``             ``smoothness``                  smoothness (rad/m)
``time_to_goal``           ``time_to_goal``                time to goal (s)
``steps``                  ``steps``                       steps (agents); key poses
                                                           (planners)
``fraction_seen``          ``fraction_seen``               fraction seen (explorers)
``curvature_max``          ``curvature_max``               curvature, max (1/m)
``curvature_mean``         ``curvature_mean``              curvature, mean (1/m)
``cusps``                  ``cusps``                       cusps
``arc_clearance_min``      ``arc_clearance_min``           arc clearance, min (m)
``arc_clearance_mean``     ``arc_clearance_mean``          arc clearance, mean (m)
``arc_clearance_median``   ``arc_clearance_median``        arc clearance, median (m)
``arc_clearance_max``      ``arc_clearance_max``           arc clearance, max (m)
--                         ``optimal_reference``           which shortest length the ratio
                                                           divides by: ``visibility``
                                                           (exact, point and disc) or
                                                           ``theta_star`` (see
                                                           :func:`reference_name`): the
                                                           best-known length, an upper
                                                           bound for rectangles
--                         ``loc_ambiguity``,              MCL: particle weight outside the
                           ``loc_ambiguity_max``,          estimate's cluster (last quarter
                           ``relocalizations``             mean, max) and global
                                                           relocalisations
                                                           (:mod:`robomaze.localize.mcl`)
--                         ``kidnap_recovery_s``           seconds from a kidnapping until
                                                           the estimate is back for good
                                                           (:mod:`robomaze.sim.kidnap`)
--                         ``lower_bound_m``               a provable lower bound of the
                                                           shortest collision-free length
                                                           between the same ends
                                                           (:func:`lower_bound_length`)
--                         ``lower_bound_ratio``           ``length_m / lower_bound_m``:
                                                           below 1 only for a path that
                                                           collides (a bug, tested)
--                         ``lower_bound_reference``       which lower bound: ``visibility``
                                                           (point, disc: the same length
                                                           as the reference),
                                                           ``visibility_inscribed_disc``
                                                           (rectangles, polygons) or
                                                           ``none`` (graph too large)
--                         ``timings.cpu_s``               cpu time (s)
--                         ``first_solution_s``            anytime planners (OMPL): seconds
                                                           to the first exact solution (the
                                                           final cost is ``length_m``)
--                         ``turns``, ``expanded``,        ``Path.turns``, ``Path.expanded``,
                           ``walk_length_m``               ``Path.walk_length``
``odometry_error``         ``odometry_error``              distance (m) between the final
                                                           believed and true positions
                                                           (agents with odometry noise,
                                                           :func:`robomaze.sim.simulate`)
``ate_rmse``               ``ate_rmse``                    absolute trajectory error: RMSE
                                                           (m) of estimated vs true
                                                           positions, no alignment (runs
                                                           with a localizer,
                                                           :mod:`robomaze.localize.errors`)
``rpe_per_m``              ``rpe_per_m``                   relative pose error per metre:
                                                           translation RMSE over 1 m of
                                                           true path, divided by 1 m
``lost_time``              ``lost_time``                   seconds with position error
                                                           over 0.15 m
``map_iou_occupied``       ``map_iou_occupied``            IoU of the built map's occupied
                                                           cells with the true walls (slam)
``map_iou_free``           ``map_iou_free``                IoU of its free cells with the
                                                           true free space (slam)
=========================  ==============================  ================================

``Path.min_clearance_key_poses`` / ``Path.mean_clearance_key_poses`` are
*not* ``min_clearance`` / ``mean_clearance``: they measure the footprint at
the path's key poses only (what a planner checks as it builds the path),
while ``min_clearance`` samples the whole motion, so
``min_clearance <= Path.min_clearance_key_poses``. The micromouse run kind
of the benchmark adds its own names (``cells_explored``, ``search_time``,
``fast_run_time``, ``fast_run_time_diagonal``, ``contest_score``,
``mms_score``, ...), documented in one table in
:mod:`robomaze.bench.micromouse`.
"""

from __future__ import annotations

import math

import numpy as np

from .errors import NoPathError, ParameterError
from .grid import OccupancyGrid

__all__ = ["success", "executed_length", "shortest_length", "optimality_ratio",
           "footprint_clearances", "min_clearance", "mean_clearance", "centre_clearance",
           "collision_flags", "collision_count", "time_in_collision", "unsafe_fraction",
           "smoothness", "time_to_goal", "steps", "fraction_seen", "trajectory_metrics",
           "path_metrics", "ARC_STEP", "resample", "curvatures", "curvature_max",
           "curvature_mean", "cusps", "arc_clearances", "clearance_stats", "shape_metrics", "motion",
           "reference_name", "lower_bound_name", "lower_bound_length", "lower_bound_metrics"]

#: Arc-length step (metres) of :func:`resample`.
ARC_STEP = 0.01


def _is_traj(obj) -> bool:
    return hasattr(obj, "poses") and hasattr(obj, "collisions")


def _points(obj) -> np.ndarray:
    if _is_traj(obj):
        return np.asarray(obj.poses[:, :2], float)
    if hasattr(obj, "points") and hasattr(obj, "cells"):
        return np.asarray(obj.points, float)
    a = np.asarray(obj, float)
    if a.ndim != 2 or a.shape[1] not in (2, 3) or len(a) == 0:
        raise ParameterError(f"route must be a Trajectory, a Path or an (n, 2|3) array, got shape {a.shape}")
    return a[:, :2]


def _rotation_invariant(footprint) -> bool:
    """A turn in place changes nothing for this footprint (a point, or a disc about its centre)."""
    return footprint is None or getattr(footprint, "kind", None) == "disc"


def _interpolated(obj) -> bool:
    """Dense states joined by straight moves that turn as they go (OMPL's SE(2) interpolation)."""
    return (not _is_traj(obj) and getattr(obj, "headings", None) is not None
            and str(getattr(obj, "method", "")).startswith("ompl:"))


def _segment_headings(p: np.ndarray) -> np.ndarray:
    """Each vertex takes the heading of the segment leaving it (the last: the one arriving)."""
    seg = np.diff(p, axis=0)
    head = np.arctan2(seg[:, 1], seg[:, 0])
    return np.r_[head, head[-1]]


def motion(obj, grid: OccupancyGrid | None = None, footprint=None) -> np.ndarray:
    """The key poses of a route's continuous motion, ``(n, 3)``, joined by straight moves.

    One motion model per route (see "motion model" in the module docstring):
    a trajectory's recorded poses, an OMPL SE(2) path's interpolated states
    (position and heading change together between them, as OMPL's own
    ``interpolate`` does), and for every other path translate-then-turn --
    a heading-aware plan's own key headings
    (:func:`robomaze.plan.path.motion_poses`), a path without headings at
    its segments' headings -- with its turns in place as poses of zero
    length every 5 degrees, finer for a wide ``footprint`` (at most a
    fraction of a cell of sweep at its corners:
    :func:`robomaze.plan.path.turn_step`).

    >>> motion(np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]]), None)[:, 2].round(3).tolist()[:3]
    [0.0, 0.0, 0.0]
    """
    if _is_traj(obj):
        return np.asarray(obj.poses, float)[:, :3]
    p = _points(obj)
    if _interpolated(obj):
        return np.column_stack([p, np.asarray(obj.headings, float)])
    res = grid.resolution if grid is not None else 1.0
    if len(p) == 1:
        h = getattr(obj, "headings", None)
        return np.array([[p[0, 0], p[0, 1], float(h[0]) if h is not None else 0.0]])
    if not hasattr(obj, "points"):
        a = np.asarray(obj, float)
        if a.shape[1] == 3:   # an array of poses: its own headings, turning as it goes
            return a
    heads = getattr(obj, "headings", None)
    from .plan.path import motion_poses, turn_radius

    return motion_poses(p, _segment_headings(p) if heads is None else heads, res,
                        radius=turn_radius(footprint))


def samples(obj, grid: OccupancyGrid, footprint=None) -> np.ndarray:
    """The ``(m, 3)`` poses a route is measured at (see the module docstring).

    A trajectory's recorded rows; a path's motion (:func:`motion`) with a
    pose every quarter cell of every move. Turns in place are sampled
    (every 5 degrees) unless ``footprint`` turns without changing shape
    (None or a disc), where they would only repeat a pose.

    >>> from robomaze import OccupancyGrid
    >>> samples(np.array([[0.0, 0.0], [1.0, 0.0]]), OccupancyGrid(np.zeros((2, 2)))).shape
    (5, 3)
    """
    if _is_traj(obj):
        return np.asarray(obj.poses, float)
    q = motion(obj, grid, footprint)
    if len(q) > 1 and _rotation_invariant(footprint):
        d = np.hypot(np.diff(q[:, 0]), np.diff(q[:, 1]))
        q = q[np.r_[True, d > 0]]   # drop pure turns: the same pose for a disc
    if _interpolated(obj) or (not hasattr(obj, "points") and np.asarray(obj).shape[1] == 3):
        return _densify(q, grid.resolution / 4)
    return q


def _densify(q: np.ndarray, step: float) -> np.ndarray:
    """Poses at most ``step`` apart along straight moves (heading interpolated the short way)."""
    if len(q) < 2:
        return q.copy()
    d = np.hypot(np.diff(q[:, 0]), np.diff(q[:, 1]))
    n = np.maximum(np.ceil(d / step).astype(np.int64), 1)
    th = np.unwrap(q[:, 2])
    idx = np.repeat(np.arange(len(d)), n)
    f = (np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n)) / np.repeat(n, n)
    a, b = idx, idx + 1
    out = np.column_stack([q[a, 0] + f * (q[b, 0] - q[a, 0]), q[a, 1] + f * (q[b, 1] - q[a, 1]),
                           th[a] + f * (th[b] - th[a])])
    return np.vstack([out, [[q[-1, 0], q[-1, 1], th[-1]]]])


def _poses(obj, grid: OccupancyGrid | None) -> np.ndarray:
    """The route as ``(n, 3)`` poses of its motion (kept for callers of the old name)."""
    return motion(obj, grid)


def resample(obj, grid: OccupancyGrid | None = None, *, step: float = ARC_STEP,
             turn_step: float | None = None, turns: bool = True) -> np.ndarray:
    """The route's motion at every ``step`` metres of arc length, its turns in place, its last pose.

    Positions are interpolated linearly along the motion (:func:`motion`),
    headings with them (along each straight move of a translate-then-turn
    motion the heading is constant; an OMPL path or a trajectory turns as
    it moves). A turn in place has no arc length: its poses are kept, at
    least every ``turn_step`` radians (default: the motion's own 5 degrees),
    so clearance is measured through the turn (``turns=False`` leaves them
    out: for a disc they repeat a pose). ``grid`` is needed only for a path
    (its motion's spacing).

    >>> resample(np.array([[0.0, 0.0], [0.025, 0.0]]), step=0.01)[:, 0]
    array([0.   , 0.01 , 0.02 , 0.025])
    """
    if not step > 0:
        raise ParameterError(f"step must be a positive number of metres, got {step!r}")
    q = motion(obj, grid)
    th = np.unwrap(q[:, 2])
    q = np.column_stack([q[:, :2], th])
    d = np.hypot(np.diff(q[:, 0]), np.diff(q[:, 1]))
    s = np.r_[0.0, np.cumsum(d)]
    total = s[-1]
    moving = np.flatnonzero(d > 0)
    if total <= 0 or len(moving) == 0:
        return (_turn_poses(q, np.arange(len(q) - 1), turn_step) if turns and len(q) > 1
                else q[-1:].copy())
    at = np.arange(0.0, total, step)
    if total - at[-1] > 1e-12:
        at = np.r_[at, total]
    else:
        at[-1] = total
    k = moving[np.clip(np.searchsorted(s[moving], at, side="right") - 1, 0, len(moving) - 1)]
    f = np.clip((at - s[k]) / d[k], 0.0, 1.0)
    arc = q[k] + f[:, None] * (q[k + 1] - q[k])
    turns = np.flatnonzero((d == 0) & (np.diff(th) != 0)) if turns else np.zeros(0, np.int64)
    if len(turns) == 0:
        return arc
    tp = _turn_poses(q, turns, turn_step)
    # order: by arc length; at a turn's arc length the arc sample first, then the turn
    key_arc = np.column_stack([at, np.zeros(len(at))])
    tk = np.repeat(turns, _turn_counts(q, turns, turn_step))
    key_turn = np.column_stack([s[tk], 1.0 + np.arange(len(tk))])
    keys = np.vstack([key_arc, key_turn])
    order = np.lexsort((keys[:, 1], keys[:, 0]))
    return np.vstack([arc, tp])[order]


def _turn_counts(q: np.ndarray, turns: np.ndarray, turn_step: float | None) -> np.ndarray:
    dth = np.abs(q[turns + 1, 2] - q[turns, 2])
    if turn_step is None or not turn_step > 0:
        return np.ones(len(turns), dtype=np.int64)
    return np.maximum(np.ceil(dth / turn_step).astype(np.int64), 1)


def _turn_poses(q: np.ndarray, turns: np.ndarray, turn_step: float | None) -> np.ndarray:
    """The poses of the zero-length moves ``turns`` (end pose, and finer steps when asked)."""
    n = _turn_counts(q, turns, turn_step)
    idx = np.repeat(turns, n)
    f = (np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n) + 1) / np.repeat(n, n)
    return q[idx] + f[:, None] * (q[idx + 1] - q[idx])


def _curvature_pieces(obj, grid: OccupancyGrid | None, step: float) -> tuple[list, int]:
    """Arc samples of each cusp-free piece of the motion (anchored at its cusps), and the cusps."""
    q = motion(obj, grid)[:, :2]
    d = np.diff(q, axis=0)
    keep = np.hypot(d[:, 0], d[:, 1]) > 1e-12
    pts = q[np.r_[True, keep]]
    if len(pts) < 2:
        return [pts], 0
    dd = np.diff(pts, axis=0)
    rev = np.flatnonzero(np.einsum("ij,ij->i", dd[:-1], dd[1:]) < 0) + 1   # cusp vertices
    pieces, start = [], 0
    for c in list(rev) + [len(pts) - 1]:
        pieces.append(_arc_positions(pts[start:c + 1], step))
        start = c
    return pieces, len(rev)


def _arc_positions(p: np.ndarray, step: float) -> np.ndarray:
    """Positions every ``step`` of arc length along a polyline, and its end."""
    d = np.hypot(np.diff(p[:, 0]), np.diff(p[:, 1]))
    s = np.r_[0.0, np.cumsum(d)]
    total = s[-1]
    if total <= 0:
        return p[-1:].copy()
    at = np.arange(0.0, total, step)
    if total - at[-1] > 1e-12:
        at = np.r_[at, total]
    else:
        at[-1] = total
    return np.column_stack([np.interp(at, s, p[:, 0]), np.interp(at, s, p[:, 1])])


def _shape_curvatures(obj, grid: OccupancyGrid | None, step: float) -> np.ndarray:
    """Curvature at interior arc samples of each cusp-free piece, and pi / step at each cusp.

    A reversal turns by pi within no arc length; reading it off samples that
    straddle it would depend on where they fall (the sampling phase), so the
    pieces between cusps are resampled from their own ends and each cusp
    reads the same pi / step.
    """
    pieces, ncusp = _curvature_pieces(obj, grid, step)
    k = [_turn_curvatures(p) for p in pieces]
    return np.concatenate(k + [np.full(ncusp, math.pi / step)])


def curvatures(obj, grid: OccupancyGrid | None = None, *, step: float = ARC_STEP) -> np.ndarray:
    """Discrete curvature (1/m) at each interior arc sample of the route.

    The turning angle between the chords to and from the sample's neighbours
    divided by the mean of the two chords' lengths.

    >>> t = np.linspace(0, np.pi / 2, 3000)   # vertices 1 mm apart
    >>> arc = 2.0 * np.column_stack([np.cos(t), np.sin(t)])   # radius 2 m
    >>> round(float(np.median(curvatures(arc))), 3)
    0.5
    """
    return _shape_curvatures(obj, grid, step)


def _turn_curvatures(p: np.ndarray) -> np.ndarray:
    """Turning angle over mean chord at each interior point of an arc-resampled polyline."""
    if len(p) < 3:
        return np.zeros(0)
    d = np.diff(p, axis=0)
    h = np.hypot(d[:, 0], d[:, 1])
    cross = d[:-1, 0] * d[1:, 1] - d[:-1, 1] * d[1:, 0]
    dot = d[:-1, 0] * d[1:, 0] + d[:-1, 1] * d[1:, 1]
    turn = np.abs(np.arctan2(cross, dot))
    ds = 0.5 * (h[:-1] + h[1:])
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(ds > 0, turn / ds, 0.0)


def curvature_max(obj, grid: OccupancyGrid | None = None, *, step: float = ARC_STEP) -> float:
    """Largest discrete curvature over the arc samples (1/m; NaN if under 3 samples)."""
    k = curvatures(obj, grid, step=step)
    return float(k.max()) if len(k) else math.nan


def curvature_mean(obj, grid: OccupancyGrid | None = None, *, step: float = ARC_STEP) -> float:
    """Mean discrete curvature over the arc samples (1/m; NaN if under 3 samples)."""
    k = curvatures(obj, grid, step=step)
    return float(k.mean()) if len(k) else math.nan


def cusps(obj) -> int:
    """Number of direction reversals (turns of more than 90 degrees between moves).

    >>> cusps(np.array([[0.0, 0.0], [1.0, 0.0], [0.5, 0.1], [0.5, 1.0]]))
    1
    """
    p = _points(obj)
    d = np.diff(p, axis=0)
    d = d[np.hypot(d[:, 0], d[:, 1]) > 1e-12]
    if len(d) < 2:
        return 0
    return int(np.count_nonzero(np.einsum("ij,ij->i", d[:-1], d[1:]) < 0))


def _arc_turn_step(footprint, step: float) -> float | None:
    """Turn-in-place sampling that moves the footprint's far corner at most ``step``."""
    if _rotation_invariant(footprint):
        return None
    r = float(getattr(footprint, "circumscribed_radius", 0.0) or 0.0)
    return min(math.radians(5.0), step / r) if r > 0 else None


def arc_clearances(obj, grid: OccupancyGrid, footprint, *, step: float = ARC_STEP) -> np.ndarray:
    """Footprint clearance (metres) at each arc sample of the route (turns in place included)."""
    from .geometry import footprint_clearance

    return footprint_clearance(grid, footprint, resample(
        obj, grid, step=step, turn_step=_arc_turn_step(footprint, step),
        turns=not _rotation_invariant(footprint)))


def clearance_stats(clearances) -> dict:
    """``arc_clearance_min/mean/median/max`` of a clearance array (NaN when empty).

    >>> clearance_stats([0.1, 0.2, 0.6])["arc_clearance_median"]
    0.2
    """
    c = np.asarray(clearances, float)
    if c.size == 0:
        return {f"arc_clearance_{k}": math.nan for k in ("min", "mean", "median", "max")}
    return {"arc_clearance_min": float(c.min()), "arc_clearance_mean": float(c.mean()),
            "arc_clearance_median": float(np.median(c)), "arc_clearance_max": float(c.max())}


def shape_metrics(obj, grid: OccupancyGrid, footprint, *, step: float = ARC_STEP) -> dict:
    """Curvature, cusps and arc clearance of a route in one pass over its arc samples."""
    r = resample(obj, grid, step=step, turn_step=_arc_turn_step(footprint, step),
                 turns=not _rotation_invariant(footprint))
    from .geometry import footprint_clearance

    out = clearance_stats(footprint_clearance(grid, footprint, r))
    k = _shape_curvatures(obj, grid, step)
    out["curvature_max"] = float(k.max()) if len(k) else math.nan
    out["curvature_mean"] = float(k.mean()) if len(k) else math.nan
    out["cusps"] = cusps(obj)
    return out


def success(obj, goal) -> bool:
    """Whether the route's reference point entered ``goal`` (a :class:`GoalRegion`)."""
    p = _points(obj)
    return bool(any(goal.contains(x, y) for x, y in p))


def executed_length(obj) -> float:
    """Polyline length of the route in metres.

    >>> executed_length(np.array([[0.0, 0.0], [3.0, 4.0]]))
    5.0
    """
    p = _points(obj)
    d = np.diff(p, axis=0)
    return float(np.hypot(d[:, 0], d[:, 1]).sum())


def reference_name(footprint, grid: OccupancyGrid | None = None) -> str:
    """Which shortest length :func:`shortest_length` computes for ``footprint``
    (on ``grid``, when given).

    ``"visibility"`` (exact within a stated tolerance: point and disc) or
    ``"theta_star"`` (rectangles and polygons, whose free space depends on
    the heading, and a point or disc on a grid whose visibility graph would
    test more than :data:`robomaze.geometry.visibility.MAX_PAIRS` vertex
    pairs: a maze of more than about 20x20 cells widened with corridor 5).

    >>> from robomaze.geometry import Footprint
    >>> reference_name(Footprint.disc(0.1)), reference_name(Footprint.rectangle(0.4, 0.2))
    ('visibility', 'theta_star')
    """
    if footprint is not None and getattr(footprint, "kind", None) != "disc":
        return "theta_star"
    if grid is not None:
        from .geometry.visibility import MAX_PAIRS, pair_count

        radius = 0.0 if footprint is None else float(footprint.radius)
        if pair_count(grid.occupied, radius / grid.resolution) > MAX_PAIRS:
            return "theta_star"
    return "visibility"


def shortest_length(grid: OccupancyGrid, footprint, start, goal) -> float:
    """Shortest collision-free length (metres) from ``start`` to ``goal``, NaN if none.

    For a point (``footprint`` None) or a disc: the exact length over the
    visibility graph of the free region
    (:func:`robomaze.geometry.visibility.visibility_length`, a lower bound
    within its stated tolerance). For other footprints, and where that graph
    is too large (:func:`reference_name` of ``footprint`` and ``grid`` says
    which): the length of the any-angle ``theta_star`` path on the
    footprint's free space.
    """
    if reference_name(footprint, grid) == "visibility":
        from .geometry.visibility import visibility_length

        radius = 0.0 if footprint is None else float(footprint.radius)
        ends = [grid.frame.to_units(float(p[0]), float(p[1])) for p in (start, goal)]
        v = visibility_length(grid.occupied, radius / grid.resolution, ends[0], ends[1])
        return v * grid.resolution
    from .plan import plan

    try:
        return float(plan(grid, (float(start[0]), float(start[1])), (float(goal[0]), float(goal[1])),
                          method="theta_star", footprint=footprint).length)
    except NoPathError:
        return math.nan


def lower_bound_name(footprint, grid: OccupancyGrid | None = None) -> str:
    """Which provable lower bound :func:`lower_bound_length` uses for ``footprint``.

    >>> from robomaze.geometry import Footprint
    >>> lower_bound_name(Footprint.disc(0.1)), lower_bound_name(Footprint.rectangle(0.4, 0.2))
    ('visibility', 'visibility_inscribed_disc')
    """
    disc = footprint is None or getattr(footprint, "kind", None) == "disc"
    radius = 0.0 if footprint is None else float(footprint.inscribed_radius)
    if grid is not None:
        from .geometry.visibility import MAX_PAIRS, pair_count

        if pair_count(grid.occupied, radius / grid.resolution) > MAX_PAIRS:
            return "none"
    return "visibility" if disc else "visibility_inscribed_disc"


def lower_bound_length(grid: OccupancyGrid, footprint, start, goal) -> float:
    """A provable lower bound (metres) of the shortest collision-free length, NaN if none.

    Every placement of a footprint that misses the walls contains its
    inscribed disc about the reference point
    (:attr:`~robomaze.geometry.Footprint.inscribed_radius`), so the
    reference point of any collision-free motion -- whatever it does with
    its heading -- follows a collision-free path of that disc, which is
    no shorter than the disc's shortest path: the exact visibility-graph
    length (:func:`robomaze.geometry.visibility.visibility_length`, itself
    a lower bound within its chord tolerance). For a point or a disc this
    is the reference of :func:`shortest_length`. NaN when the disc cannot
    get through or the graph is too large (:func:`lower_bound_name` is
    ``"none"``).

    >>> from robomaze import Maze, widen
    >>> from robomaze.geometry import Footprint
    >>> g = widen(Maze.empty(1, 3), corridor=5, wall=1, resolution=0.1)
    >>> a, b = g.cell_to_world((3, 3)), g.cell_to_world((3, 15))
    >>> round(lower_bound_length(g, Footprint.rectangle(0.3, 0.2), a, b), 6)
    1.2
    """
    if lower_bound_name(footprint, grid) == "none":
        return math.nan
    from .geometry.visibility import visibility_length

    radius = 0.0 if footprint is None else float(footprint.inscribed_radius)
    ends = [grid.frame.to_units(float(p[0]), float(p[1])) for p in (start, goal)]
    return visibility_length(grid.occupied, radius / grid.resolution, ends[0], ends[1]) \
        * grid.resolution


def lower_bound_metrics(grid: OccupancyGrid, footprint, start, goal, length: float | None, *,
                        reference: float | None = None,
                        reference_name_: str | None = None) -> dict:
    """``lower_bound_m``, ``lower_bound_ratio`` and ``lower_bound_reference`` of a run.

    ``reference`` (with its name) is the run's shortest-length reference,
    reused when it already is the lower bound (points and discs).
    """
    name = lower_bound_name(footprint, grid)
    if name == "visibility" and reference_name_ == "visibility" and reference is not None:
        lb = float(reference)
    else:
        lb = lower_bound_length(grid, footprint, start, goal)
    ok = lb is not None and math.isfinite(lb) and lb > 0 and length is not None
    return {"lower_bound_m": lb if lb is not None and math.isfinite(lb) else None,
            "lower_bound_ratio": float(length) / lb if ok else None,
            "lower_bound_reference": name}


def optimality_ratio(obj, grid: OccupancyGrid, footprint, *, reference: float | None = None) -> float:
    """Executed length over the shortest collision-free length between the route's ends."""
    p = _points(obj)
    ref = shortest_length(grid, footprint, p[0], p[-1]) if reference is None else reference
    length = executed_length(obj)
    if not ref or math.isnan(ref):
        return math.nan if length > 0 or (ref is not None and math.isnan(ref)) else 1.0
    return length / ref


def footprint_clearances(obj, grid: OccupancyGrid, footprint) -> np.ndarray:
    """Footprint clearance (metres) at each sample."""
    from .geometry import footprint_clearance

    return footprint_clearance(grid, footprint, samples(obj, grid, footprint))


def min_clearance(obj, grid: OccupancyGrid, footprint) -> float:
    """Smallest footprint clearance over the samples (metres)."""
    return float(footprint_clearances(obj, grid, footprint).min())


def mean_clearance(obj, grid: OccupancyGrid, footprint) -> float:
    """Mean footprint clearance over the samples (metres)."""
    return float(footprint_clearances(obj, grid, footprint).mean())


def centre_clearance(obj, grid: OccupancyGrid) -> np.ndarray:
    """Clearance of the reference point alone at each sample (metres)."""
    from .geometry import footprint_clearance

    return footprint_clearance(grid, None, samples(obj, grid))


def collision_flags(obj, grid: OccupancyGrid | None = None, footprint=None) -> np.ndarray:
    """Per-sample collision flags: a trajectory's refused steps, or a path's touching samples."""
    if _is_traj(obj):
        return np.asarray(obj.collisions, bool)
    if grid is None or footprint is None:
        raise ParameterError("collision flags of a path need the grid and the footprint")
    return footprint_clearances(obj, grid, footprint) <= 0.0


def collision_count(obj, grid: OccupancyGrid | None = None, footprint=None) -> int:
    """Number of collision entry events.

    >>> from robomaze.sim import Trajectory
    >>> tr = Trajectory(np.arange(5.0), np.zeros((5, 3)), np.zeros((5, 2)),
    ...                 [False, True, True, False, True])
    >>> collision_count(tr), time_in_collision(tr)
    (2, 3.0)
    """
    f = collision_flags(obj, grid, footprint)
    if len(f) == 0:
        return 0
    return int(f[0]) + int(np.count_nonzero(f[1:] & ~f[:-1]))


def time_in_collision(traj) -> float:
    """Seconds spent in refused steps (trajectories only)."""
    if not _is_traj(traj):
        raise ParameterError("time in collision needs a Trajectory")
    dt = np.diff(traj.t)
    return float(dt[traj.collisions[1:]].sum())


#: A pose is in danger when its footprint clearance is below this fraction of
#: the footprint's inscribed radius: a threshold in metres that scales with
#: the robot, not with the grid, so it compares across resolutions.
DANGER_RADIUS_FRACTION = 0.1


def danger_threshold(footprint) -> float:
    """Clearance (m) under which a pose counts as in danger.

    10% of the footprint's inscribed radius (0 for a point robot, whose
    danger is then contact only).

    >>> from robomaze.geometry import Footprint
    >>> round(danger_threshold(Footprint.disc(0.15)), 6)
    0.015
    >>> danger_threshold(None)
    0.0
    """
    if footprint is None:
        return 0.0
    return DANGER_RADIUS_FRACTION * float(footprint.inscribed_radius)


def _danger(fc: np.ndarray, s: float) -> float:
    return float(np.mean(fc < s)) if s > 0 else float(np.mean(fc <= 0.0))


def unsafe_fraction(obj, grid: OccupancyGrid, footprint, safety: float | None = None) -> float:
    """Fraction of samples whose footprint clearance is below ``safety`` metres."""
    s = danger_threshold(footprint) if safety is None else float(safety)
    return _danger(footprint_clearances(obj, grid, footprint), s)


def smoothness(obj) -> float:
    """Total absolute heading change per metre (rad/m).

    >>> smoothness(np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]]))  # one right angle in 2 m
    0.7853981633974483
    """
    length = executed_length(obj)
    if length <= 0:
        return math.nan
    if _is_traj(obj):
        th = np.asarray(obj.poses[:, 2], float)
    else:
        p = _points(obj)
        d = np.diff(p, axis=0)
        d = d[np.hypot(d[:, 0], d[:, 1]) > 0]
        th = np.arctan2(d[:, 1], d[:, 0])
    turn = (np.diff(th) + math.pi) % (2 * math.pi) - math.pi
    return float(np.abs(turn).sum() / length)


def time_to_goal(traj, goal) -> float:
    """Time of the first recorded row inside the goal region (NaN if never)."""
    for t, (x, y) in zip(traj.t, traj.poses[:, :2]):
        if goal.contains(x, y):
            return float(t)
    return math.nan


def steps(traj) -> int:
    """Number of simulation steps."""
    return int(len(traj.t) - 1)


def fraction_seen(obj, grid: OccupancyGrid, sensor, *, max_samples: int = 2000) -> float:
    """Fraction of free cells crossed by a noise-free beam from the samples.

    At most ``max_samples`` evenly spaced samples are used.
    """
    from .sense import mark_scan

    p = samples(obj, grid)
    if len(p) > max_samples:
        p = p[np.linspace(0, len(p) - 1, max_samples).round().astype(int)]
    exact = sensor.cast_many(grid, p)
    rows, cols = grid.shape
    free_marks = np.zeros(rows * cols, np.int32)
    hit_marks = np.zeros(rows * cols, np.int32)
    for pose, ranges in zip(p, exact):
        mark_scan(grid.frame, sensor, pose, ranges, free_marks, hit_marks)
    free = grid.free.ravel()
    return float(np.count_nonzero((free_marks > 0) & free) / max(np.count_nonzero(free), 1))


def trajectory_metrics(traj, grid: OccupancyGrid, *, footprint, goal, sensor=None,
                       safety: float | None = None, reference: bool = True) -> dict:
    """All metrics of one simulated run as a flat dict (see the module docstring).

    ``reference=False`` skips the planner call behind the optimality ratio.
    ``fraction_seen`` is included when ``sensor`` is given.
    """
    fc = footprint_clearances(traj, grid, footprint)
    cc = centre_clearance(traj, grid)
    s = danger_threshold(footprint) if safety is None else float(safety)
    length = executed_length(traj)
    out = {
        "success": success(traj, goal),
        "length": length,
        "optimal_length": math.nan,
        "optimality_ratio": math.nan,
        "min_clearance": float(fc.min()),
        "mean_clearance": float(fc.mean()),
        "min_centre_clearance": float(cc.min()),
        "mean_centre_clearance": float(cc.mean()),
        "collisions": collision_count(traj),
        "time_in_collision": time_in_collision(traj),
        "unsafe_fraction": _danger(fc, s),
        "smoothness": smoothness(traj),
        "time_to_goal": time_to_goal(traj, goal),
        "steps": steps(traj),
    }
    if reference and length > 0:
        p = traj.poses
        ref = shortest_length(grid, footprint, p[0], p[-1])
        out["optimal_length"] = ref
        out["optimality_ratio"] = length / ref if ref and not math.isnan(ref) else math.nan
    if sensor is not None:
        out["fraction_seen"] = fraction_seen(traj, grid, sensor)
    out.update(shape_metrics(traj, grid, footprint))
    _one_minimum(out)
    return out


def _one_minimum(out: dict) -> None:
    """``min_clearance`` and ``arc_clearance_min``: one number, the minimum over both sample sets."""
    m = min(out["min_clearance"], out["arc_clearance_min"])
    if math.isfinite(m):
        out["min_clearance"] = out["arc_clearance_min"] = float(m)


def path_metrics(path, grid: OccupancyGrid, *, footprint, safety: float | None = None,
                 reference: bool = True) -> dict:
    """Length, optimality and safety metrics of a planned :class:`~robomaze.plan.Path`."""
    fc = footprint_clearances(path, grid, footprint)
    cc = centre_clearance(path, grid)
    s = danger_threshold(footprint) if safety is None else float(safety)
    flags = fc <= 0.0
    out = {
        "length": executed_length(path),
        "optimality_ratio": optimality_ratio(path, grid, footprint) if reference else math.nan,
        "min_clearance": float(fc.min()),
        "mean_clearance": float(fc.mean()),
        "min_centre_clearance": float(cc.min()),
        "mean_centre_clearance": float(cc.mean()),
        "collisions": int(flags[0]) + int(np.count_nonzero(flags[1:] & ~flags[:-1])),
        "unsafe_fraction": _danger(fc, s),
        "smoothness": smoothness(path),
    }
    out.update(shape_metrics(path, grid, footprint))
    _one_minimum(out)
    return out
