"""Run and path metrics: one package, one documented definition each.

The one place robomaze measures: a path (:mod:`~robomaze.metrics.path`,
its key poses and the motion between them in
:mod:`~robomaze.metrics.keyposes`, which :class:`robomaze.plan.Path` asks),
its safety (:mod:`~robomaze.metrics.safety`), a run's tables
(:mod:`~robomaze.metrics.run`), a micromouse's route, run time and scores
(:mod:`~robomaze.metrics.micromouse`) and a localiser's errors
(:mod:`~robomaze.metrics.localisation`). The package sits below the
planners, the simulator, the mice and the localisers (the layers in
``docs/design.md``): it measures geometry and imports none of them; the
one planner a metric needs (``theta_star``, the reference length of
footprints that are not round) is named in :data:`robomaze.registry.PLANNERS`,
not imported.

Every function of the path, safety and run modules takes a :class:`robomaze.sim.Trajectory`, a
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
    (:func:`robomaze.metrics.keyposes.motion_poses`). Turns in place have no arc
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
                                                           :mod:`robomaze.metrics.localisation`)
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

import importlib

# names -> the module that defines them, imported on first use: a mouse or a
# localiser that imports robomaze.metrics.micromouse or .localisation loads
# neither the path metrics nor their numba kernel (``robomaze mouse route``
# runs without numba)
_LAZY = {
    **dict.fromkeys(("TURN_SWEEP", "motion_poses", "turn_radius", "turn_step"), "keyposes"),
    **dict.fromkeys(("ARC_STEP", "curvature_max", "curvature_mean", "curvatures", "cusps",
                     "executed_length", "lower_bound_length", "lower_bound_metrics",
                     "lower_bound_name", "motion", "optimality_ratio", "reference_name",
                     "resample", "samples", "shortest_length", "smoothness", "steps", "success",
                     "time_to_goal"), "path"),
    **dict.fromkeys(("DANGER_RADIUS_FRACTION", "arc_clearances", "centre_clearance",
                     "clearance_stats", "collision_count", "collision_flags", "danger_threshold",
                     "footprint_clearances", "mean_clearance", "min_clearance", "shape_metrics",
                     "time_in_collision", "unsafe_fraction"), "safety"),
    **dict.fromkeys(("fraction_seen", "path_metrics", "trajectory_metrics"), "run"),
}

__all__ = [
    'success', 'executed_length', 'shortest_length', 'optimality_ratio', 'footprint_clearances',
    'min_clearance', 'mean_clearance', 'centre_clearance', 'collision_flags', 'collision_count',
    'time_in_collision', 'unsafe_fraction', 'smoothness', 'time_to_goal', 'steps',
    'fraction_seen', 'trajectory_metrics', 'path_metrics', 'ARC_STEP', 'resample', 'curvatures',
    'curvature_max', 'curvature_mean', 'cusps', 'arc_clearances', 'clearance_stats',
    'shape_metrics', 'motion', 'reference_name', 'lower_bound_name', 'lower_bound_length',
    'lower_bound_metrics', 'TURN_SWEEP', 'motion_poses', 'turn_radius', 'turn_step'
]


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
