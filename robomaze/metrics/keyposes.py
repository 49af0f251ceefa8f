"""What a planned path measures at its key poses, and the motion between them.

A path is a sequence of *key poses*: grid cells, their world points and
optionally headings. The robot moves from pose ``i`` to pose ``i + 1`` by
translating with heading ``headings[i]`` and then turning on the spot to
``headings[i + 1]`` (:func:`motion_poses`; without explicit headings each
pose faces along its outgoing segment, :func:`key_headings`).
:class:`robomaze.plan.Path` asks this module for its length, turns,
key-pose clearances and ``collision_free`` (:func:`key_pose_figures`), and
:func:`robomaze.metrics.motion` for the motion the metrics sample.

Safety is measured for the footprint, not just its centre: the key-pose
clearances are the exact distances from the footprint at each key pose to
the nearest occupied cell (not the ``min_clearance`` of
:func:`robomaze.metrics.path_metrics`, which samples the whole motion; see
"Metric names" in :mod:`robomaze.metrics`), and ``collision_free`` also
checks the motion between poses: exactly for discs and point robots (the
disc swept along each segment), and for other shapes at interpolated poses
at most a quarter cell apart and, during turns, 5 degrees apart or closer,
so the footprint's corners move at most :data:`TURN_SWEEP` cells between
poses (:func:`turn_step`).

Part of :mod:`robomaze.metrics` (its module notes name every metric).
"""

from __future__ import annotations

import math

import numpy as np

from .._compile.kernels import noalloc


__all__ = ["TURN_SWEEP", "turn_step", "turn_radius", "motion_poses", "polyline_length",
           "turn_count", "key_headings", "centre_points", "key_pose_figures"]

_TURN_STEP = math.radians(5.0)
#: A turn in place of a non-round footprint is sampled so that its farthest
#: point (the circumradius) moves at most this many grid cells between
#: poses: the exact clearance of each pose then misses the turn's true
#: minimum by at most half of it (a fortieth of a cell).
TURN_SWEEP = 0.05


def turn_step(resolution: float, radius: float | None = None) -> float:
    """The heading step (radians) of a turn in place: 5 degrees, finer for a
    footprint whose circumradius ``radius`` would sweep more than
    :data:`TURN_SWEEP` cells at its corners per step.

    >>> round(math.degrees(turn_step(0.1)), 6)
    5.0
    >>> round(math.degrees(turn_step(0.1, 0.206)), 3)   # a 0.36 x 0.2 m rectangle
    1.391
    """
    if radius is None or not radius > 0:
        return _TURN_STEP
    return min(_TURN_STEP, TURN_SWEEP * float(resolution) / float(radius))


def turn_radius(footprint) -> float | None:
    """The radius a turn in place sweeps: the circumradius of a non-round
    footprint (None for a disc or a point: turning moves none of it)."""
    if footprint is None or getattr(footprint, "kind", "disc") == "disc":
        return None
    return float(footprint.circumscribed_radius)


def polyline_length(p: np.ndarray) -> float:
    """Length (metres) of the polyline through the ``(n, 2)`` points ``p``.

    >>> polyline_length(np.array([[0.0, 0.0], [3.0, 4.0], [3.0, 5.0]]))
    6.0
    """
    if p.shape[0] < 2:
        return 0.0
    # per column: 2-D diffs and hypot are several times slower on long paths
    dx = np.diff(p[:, 0])
    dy = np.diff(p[:, 1])
    return float(np.sqrt(dx * dx + dy * dy).sum())


def turn_count(p: np.ndarray) -> int:
    """Changes of direction along the polyline through ``p`` (zero-length moves dropped).

    >>> turn_count(np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [1.0, 2.0]]))
    1
    """
    dx = np.diff(p[:, 0])
    dy = np.diff(p[:, 1])
    moving = dx * dx + dy * dy > 1e-24
    if not moving.all():
        dx, dy = dx[moving], dy[moving]
    if dx.shape[0] < 2:
        return 0
    cross = dx[:-1] * dy[1:] - dy[:-1] * dx[1:]
    dot = dx[:-1] * dx[1:] + dy[:-1] * dy[1:]
    # a turn of more than 1e-9 rad between consecutive moves, without the
    # trigonometry (paths run to 10^5 cells): |atan2(cross, dot)| > 1e-9
    return int(((dot <= 0.0) | (np.abs(cross) > 1e-9 * dot)).sum())


def key_headings(p: np.ndarray) -> np.ndarray:
    """The headings of key poses without their own: each faces along its outgoing segment
    (the last along its incoming one; zero-length segments take the next moving one's).

    >>> key_headings(np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]])).round(4).tolist()
    [0.0, 1.5708, 1.5708]
    """
    n = p.shape[0]
    if n < 2:
        return np.zeros(n)
    d = np.diff(p, axis=0)
    seg = np.arctan2(d[:, 1], d[:, 0])
    moving = np.hypot(d[:, 0], d[:, 1]) > 1e-12
    if not moving.any():
        return np.zeros(n)
    # zero-length segments take the next moving segment's direction (last: the previous)
    idx = np.where(moving, np.arange(n - 1), n)
    nxt = np.minimum.accumulate(idx[::-1])[::-1]
    prev = np.maximum.accumulate(np.where(moving, np.arange(n - 1), -1))
    pick = np.where(nxt < n, nxt, prev)
    h = seg[pick]
    return np.concatenate([h, h[-1:]])


def motion_poses(points, headings, resolution: float, *, keys: bool = True,
                 radius: float | None = None) -> np.ndarray:
    """Poses of the translate-then-turn motions between key poses, in order.

    Between key poses ``i`` and ``i + 1`` the robot first moves in a straight
    line at heading ``headings[i]`` (a pose every quarter cell), then turns
    in place at ``points[i + 1]`` to ``headings[i + 1]`` along the shorter
    way (a pose every 5 degrees, finer for a wide footprint: :func:`turn_step`)
    -- the motion model of the heading-aware planners, which
    :func:`robomaze.metrics.motion` and :func:`key_pose_figures` measure.

    Parameters
    ----------
    points : array_like, shape (n, 2)
        Key positions (world metres).
    headings : array_like, shape (n,)
        Key headings (radians).
    resolution : float
        Grid resolution (metres per cell) setting the sampling step.
    keys : bool
        Include the key poses themselves (in order) or only the poses
        between them.
    radius : float, optional
        The footprint's circumradius (:func:`turn_radius`; None for a disc):
        turns step by :func:`turn_step`.

    Returns
    -------
    ndarray, shape (m, 3)
        ``x, y, theta`` rows.

    Examples
    --------
    Two keys one cell apart with a quarter turn at the end: the start key,
    3 poses along the move, the end key at the old heading, 17 poses of the
    turn (5 degree steps) and the final key.

    >>> motion_poses([[0.0, 0.0], [1.0, 0.0]], [0.0, math.pi / 2], 1.0).shape
    (23, 3)
    """
    p = np.asarray(points, float).reshape(-1, 2)
    h = np.asarray(headings, float).reshape(-1)
    n = p.shape[0]
    if n == 0:
        return np.zeros((0, 3))
    seg = p[1:] - p[:-1]
    L = np.hypot(seg[:, 0], seg[:, 1])
    nt = np.maximum(np.ceil(L / (0.25 * resolution)).astype(np.int64), 1)   # m per move
    # math.remainder (IEEE, exact), called only where the heading changes
    dh = h[1:] - h[:-1]
    turn = np.flatnonzero(dh)
    dh[turn] = [math.remainder(d, 2 * math.pi) for d in dh[turn].tolist()]
    nr = np.maximum(np.ceil(np.abs(dh) / turn_step(resolution, radius)).astype(np.int64), 1)
    k = 1 if keys else 0
    ends = (L > 0) & keys
    # per move: [key i] [m - 1 translation poses] [pose at point i+1, heading i] [turn poses]
    blk = k + (nt - 1) + ends + (nr - 1)
    start = np.concatenate([[0], np.cumsum(blk)])
    out = np.empty((int(start[-1]) + k, 3))
    if keys:
        out[start[:-1], 0:2] = p[:-1]
        out[start[:-1], 2] = h[:-1]
        out[-1] = (p[-1, 0], p[-1, 1], h[-1])
    i, j = _groups(nt - 1)
    pos = start[i] + k + j
    s_ = (j + 1) / nt[i]
    out[pos, 0:2] = p[i] + s_[:, None] * seg[i]
    out[pos, 2] = h[i]
    e = np.flatnonzero(ends)
    out[start[e] + k + nt[e] - 1, 0:2] = p[e + 1]
    out[start[e] + k + nt[e] - 1, 2] = h[e]
    i, j = _groups(nr - 1)
    pos = start[i] + k + (nt[i] - 1) + ends[i] + j
    out[pos, 0:2] = p[i + 1]
    out[pos, 2] = h[i] + dh[i] * (j + 1) / nr[i]
    return out


def _groups(sizes: np.ndarray):
    """``(group, index within group)`` of every item when group ``g`` holds ``sizes[g]`` items."""
    total = int(sizes.sum())
    grp = np.repeat(np.arange(sizes.size), sizes)
    first = np.cumsum(sizes) - sizes
    return grp, np.arange(total) - first[grp]


@noalloc
def _centre_points(c, rows, cols, res, ox, oy, p, steps):
    """Cell centres and segment lengths of an unrotated grid, into ``p`` and ``steps``; whether
    every cell is in bounds.

    The arithmetic of ``OccupancyGrid.cells_to_world`` and
    ``polyline_length`` operation for operation (no fused multiply-add), so
    the values are bit-identical to theirs; one pass instead of ten numpy
    ones. ``p`` (``(n, 2)``) and ``steps`` (``n - 1``, float64) are the
    caller's (kernel style, rule 3: no ``np.empty`` nor tuple of arrays
    compiled here, and no reference counting: ``_nrt=False``).
    """
    n = c.shape[0]
    ok = True
    fr = float(rows)
    for i in range(n):
        r = c[i, 0]
        q = c[i, 1]
        if r < 0 or q < 0 or r >= rows or q >= cols:
            ok = False
        p[i, 0] = (float(q) + 0.5) * res + ox
        p[i, 1] = (fr - float(r) - 0.5) * res + oy
        if i > 0:
            dx = p[i, 0] - p[i - 1, 0]
            dy = p[i, 1] - p[i - 1, 1]
            steps[i - 1] = math.sqrt(dx * dx + dy * dy)
    return ok


def centre_points(grid, cells: np.ndarray) -> tuple[np.ndarray, float] | None:
    """World points of ``cells`` (an int64 ``(n, 2)`` array) at their centres, and the
    polyline's length, in one pass; None when a cell lies outside ``grid``.

    Only for a grid without rotation (``grid.origin[2] == 0``); the values
    are bit-identical to ``grid.cells_to_world`` and :func:`polyline_length`.

    >>> from robomaze import OccupancyGrid
    >>> p, length = centre_points(OccupancyGrid(np.zeros((2, 3))), np.array([[0, 0], [1, 2]]))
    >>> p.tolist(), round(length, 4)
    ([[0.5, 1.5], [2.5, 0.5]], 2.2361)
    """
    ox, oy, _ = grid.origin
    n = cells.shape[0]
    p = np.empty((n, 2))
    steps = np.empty(n - 1 if n > 1 else 0)
    if not _centre_points(cells, grid.rows, grid.cols, float(grid.resolution), float(ox),
                          float(oy), p, steps):
        return None
    # numpy's own (pairwise) sum, as polyline_length
    return p, (float(steps.sum()) if steps.shape[0] else 0.0)


def key_pose_figures(grid, footprint, c, p, h, at_centres: bool) -> tuple[int, float, float, bool]:
    """``(turns, min clearance, mean clearance, collision_free)`` of a path's key poses.

    ``c``: the key poses' grid cells, ``p`` their world points, ``h`` their
    headings (None: :func:`key_headings`), ``at_centres``: ``p`` are the
    cells' centres (a round robot's clearance is then read off the grid's
    clearance field). Clearances are the footprint's exact distances
    (metres) to the nearest occupied cell at the key poses;
    ``collision_free`` also checks the motion between them: exactly for a
    point or a disc (the disc swept along each segment), for other shapes
    at the poses of :func:`motion_poses`.

    >>> from robomaze import Maze, widen
    >>> g = widen(Maze.empty(1, 2), corridor=3, wall=1)
    >>> c = np.array([[2, 2], [2, 6]])
    >>> key_pose_figures(g, None, c, g.cells_to_world(c), None, True)
    (0, 1.5, 1.5, True)
    """
    # imported here: the metrics package stays light for what imports it
    # without measuring a path (the micromouse and its mms host: no shapely)
    from ..geometry import (CONTACT_TOL, cell_clearance, footprint_clearance, footprint_touches,
                            segment_clearance)

    round_robot = footprint is None or footprint.kind == "disc"
    if h is None:
        # a round robot's clearance does not depend on its heading
        h = np.zeros(p.shape[0]) if round_robot else key_headings(p)
    if round_robot and at_centres:
        clear = cell_clearance(grid, footprint, c)
    else:
        clear = footprint_clearance(grid, footprint, np.column_stack([p, h]))
    free = bool(clear.min() > CONTACT_TOL)
    if free and p.shape[0] > 1:
        if round_robot:
            r = 0.0 if footprint is None else footprint.radius
            seg = np.ones(p.shape[0] - 1, bool)   # segments still to check exactly
            if at_centres:
                dr = np.diff(c[:, 0])
                dc = np.diff(c[:, 1])
                dr *= dr
                dc *= dc
                # a disc clear at both ends of a unit axis move is clear along it;
                # a diagonal one also needs the two cells beside it clear (the
                # 2x2-block argument of plan._kernels.line_of_sight)
                seg = (dr > 1) | (dc > 1)
                diag = np.flatnonzero((dr == 1) & (dc == 1))
                if diag.size:
                    a, b = c[diag], c[diag + 1]
                    side = np.concatenate([np.column_stack([a[:, 0], b[:, 1]]),
                                           np.column_stack([b[:, 0], a[:, 1]])])
                    ok = cell_clearance(grid, footprint, side) > CONTACT_TOL
                    seg[diag] = ~(ok[:diag.size] & ok[diag.size:])
            if seg.any():
                idx = np.flatnonzero(seg)
                free = bool((segment_clearance(grid, r, p[idx], p[idx + 1]) > CONTACT_TOL).all())
        else:
            mid = motion_poses(p, h, grid.resolution, keys=False, radius=turn_radius(footprint))
            free = footprint_touches(grid, footprint, mid) < 0
    return turn_count(p), float(clear.min()), float(clear.mean()), free
