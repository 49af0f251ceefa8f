"""What a path or a trajectory measures: its motion, length, curvature and optimality.

Part of :mod:`robomaze.metrics` (its module notes name every metric).
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import NoPathError, ParameterError
from ..grid import OccupancyGrid
from .keyposes import motion_poses, turn_radius

__all__ = [
    'success', 'executed_length', 'shortest_length', 'optimality_ratio', 'smoothness',
    'time_to_goal', 'steps', 'ARC_STEP', 'resample', 'curvatures', 'curvature_max',
    'curvature_mean', 'cusps', 'motion', 'reference_name', 'lower_bound_name',
    'lower_bound_length', 'lower_bound_metrics'
]


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
    (:func:`robomaze.metrics.keyposes.motion_poses`), a path without headings at
    its segments' headings -- with its turns in place as poses of zero
    length every 5 degrees, finer for a wide ``footprint`` (at most a
    fraction of a cell of sweep at its corners:
    :func:`robomaze.metrics.keyposes.turn_step`).

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
        from ..geometry.visibility import MAX_PAIRS, pair_count

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
        from ..geometry.visibility import visibility_length

        radius = 0.0 if footprint is None else float(footprint.radius)
        ends = [grid.frame.to_units(float(p[0]), float(p[1])) for p in (start, goal)]
        v = visibility_length(grid.occupied, radius / grid.resolution, ends[0], ends[1])
        return v * grid.resolution
    # named, not imported: metrics sits below the planners (the layers in
    # docs/design.md), and the registry loads an entry on first use
    from ..registry import PLANNERS

    theta_star = PLANNERS.lookup("theta_star")
    try:
        # connectivity 4: what plan(..., method="theta_star") passes
        return float(theta_star(grid, (float(start[0]), float(start[1])),
                                (float(goal[0]), float(goal[1])), footprint=footprint,
                                connectivity=4).length)
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
        from ..geometry.visibility import MAX_PAIRS, pair_count

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
    from ..geometry.visibility import visibility_length

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
