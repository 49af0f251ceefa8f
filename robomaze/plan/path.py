"""The result of every planner: a :class:`Path` with its length and safety.

A path is a sequence of *key poses*: grid cells, their world points and
optionally headings. The robot moves from pose ``i`` to pose ``i + 1`` by
translating with heading ``headings[i]`` and then turning on the spot to
``headings[i + 1]`` (so a planner over (cell, heading) states gives pure
translations and pure rotations). Without explicit headings each pose
faces along its outgoing segment (the last one along its incoming one).

Safety is measured for the footprint, not just its centre:
``min_clearance_key_poses`` / ``mean_clearance_key_poses`` are the exact
distances from the footprint at each key pose to the nearest occupied cell
(not the ``min_clearance`` of :func:`robomaze.metrics.path_metrics`, which
samples the whole polyline every quarter cell; see "Metric names" in
:mod:`robomaze.metrics`), and
``collision_free`` also checks the motion between poses: exactly for
discs and point robots (the disc swept along each segment), and for other
shapes at interpolated poses at most a quarter cell apart and, during
turns, 5 degrees apart or closer, so the footprint's corners move at most
:data:`TURN_SWEEP` cells between poses (:func:`turn_step`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from ..errors import ParameterError
from ..geometry import (CONTACT_TOL, Footprint, cell_clearance, check_footprint,
                        footprint_clearance, footprint_touches, segment_clearance)
from ..grid import OccupancyGrid

__all__ = ["Path", "make_path"]

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

#: The figures a Path measures on first read (they cost a pass over the path
#: and the grid around it that most callers of a planner never look at).
_LATER = ("turns", "min_clearance_key_poses", "mean_clearance_key_poses", "collision_free")


class _Later:
    """Class attribute of a :class:`Path` figure that may be measured on first read.

    The instance holds either the value or the shared :class:`_Figures`
    that measures all four figures at once (then keeps them). Reading the
    class attribute raises AttributeError, so the dataclass field keeps no
    default and stays a required argument.
    """

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, obj, owner=None):
        if obj is None:
            raise AttributeError(self.name)
        v = obj.__dict__[self.name]
        if isinstance(v, _Figures):
            v = v.value(self.name)
        return v

    def __set__(self, obj, value):
        obj.__dict__[self.name] = value


class _Figures:
    """Turns, key-pose clearances and ``collision_free`` of one path, measured once on demand.

    Holds the grid and footprint only until the figures are measured, so a
    path read once keeps no reference to the grid.
    """

    def __init__(self, grid, footprint, cells, points, headings, at_centres):
        self._args = (grid, footprint, cells, points, headings, at_centres)
        self._values = None

    def value(self, name: str):
        if self._values is None:
            turns, lo, mean, free = _measure(*self._args)
            self._values = {"turns": turns, "min_clearance_key_poses": lo,
                            "mean_clearance_key_poses": mean, "collision_free": free}
            self._args = None
        return self._values[name]


def _frozen(a):
    if a is None:
        return None
    a = np.array(a, copy=True)
    a.setflags(write=False)
    return a


@dataclass(frozen=True, eq=False)
class Path:
    """A planned path; build it with :func:`make_path`.

    Attributes
    ----------
    cells : ndarray, shape (n, 2), int
        Grid cells of the key poses (row, col).
    points : ndarray, shape (n, 2), float
        World points (metres) of the key poses.
    length : float
        Polyline length in metres.
    length_cells : float
        Length in maze cells for grids made by ``widen`` (grid-cell length
        divided by ``corridor + wall``), else in grid cells.
    turns : int
        Changes of direction along the polyline.
    expanded : int
        Nodes the planner expanded.
    time : float
        Planning time in seconds: the thread CPU time of the planner, numba
        compilation excluded, when it ran through :func:`robomaze.plan.plan`
        (a planner called directly reports its own measure).
    min_clearance_key_poses, mean_clearance_key_poses : float
        Footprint clearance (metres) over the key poses only.
    collision_free : bool
        No key pose and no motion between them touches an occupied cell.
    method : str
        Planner name.
    walk : ndarray or None
        Every cell a classic solver visited, backtracking included.
    walk_length : float or None
        Length of the walk in metres.
    headings : ndarray or None
        World heading (radians) of each key pose when the planner chose them.
    stats : dict or None
        Planner-specific figures (e.g. the OMPL planners' status code and
        time to the first solution); the benchmark stores them as metrics.
    compile_time : float
        Seconds numba spent compiling kernels during this call (a first use
        on a cold cache); never part of ``time``.

    Notes
    -----
    ``turns``, ``min_clearance_key_poses``, ``mean_clearance_key_poses``
    and ``collision_free`` are measured on first read, all four at once,
    and then kept: a planner's call pays only for the cells, points and
    length (a pass over the path), and ``time`` does not include the
    measuring. The values are the same whenever they are read; a pickle
    carries them measured.
    """

    cells: np.ndarray
    points: np.ndarray
    length: float
    length_cells: float
    turns: int = _Later()
    expanded: int
    time: float
    min_clearance_key_poses: float = _Later()
    mean_clearance_key_poses: float = _Later()
    collision_free: bool = _Later()
    method: str = ""
    walk: np.ndarray | None = None
    walk_length: float | None = None
    headings: np.ndarray | None = None
    stats: dict | None = None
    compile_time: float = 0.0

    def __len__(self) -> int:
        return int(self.cells.shape[0])

    def __getstate__(self):
        # a pickle carries the figures, not the grid they are measured on
        state = dict(self.__dict__)
        for name in _LATER:
            state[name] = getattr(self, name)
        return state

    @property
    def poses(self) -> np.ndarray:
        """Key poses ``(n, 3)``: ``x, y`` in world metres and the heading (radians).

        The planner's :attr:`headings` when it chose them, else the headings
        the motion model gives (each pose faces along its outgoing segment).

        >>> from robomaze import Maze, widen
        >>> p = make_path(widen(Maze.empty(1, 2), corridor=1), [(1, 1), (1, 2), (1, 3)])
        >>> p.poses.tolist()
        [[1.5, 1.5, 0.0], [2.5, 1.5, 0.0], [3.5, 1.5, 0.0]]
        """
        h = self.headings if self.headings is not None else _derived_headings(self.points)
        return np.column_stack([np.asarray(self.points, float), np.asarray(h, float)])

    def summary(self) -> str:
        """One line: method, lengths, clearance, collision-free, expanded, time."""
        return (f"{self.method or 'path'}: length {self.length:.3f} m "
                f"({self.length_cells:.2f} cells), min clearance at key poses {self.min_clearance_key_poses:.3f} m, "
                f"collision-free {'yes' if self.collision_free else 'NO'}, "
                f"expanded {self.expanded}, time {self.time * 1e3:.1f} ms CPU")


def _polyline_length(p: np.ndarray) -> float:
    if p.shape[0] < 2:
        return 0.0
    # per column: 2-D diffs and hypot are several times slower on long paths
    dx = np.diff(p[:, 0])
    dy = np.diff(p[:, 1])
    return float(np.sqrt(dx * dx + dy * dy).sum())


def _turns(p: np.ndarray) -> int:
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


def _derived_headings(p: np.ndarray) -> np.ndarray:
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
    -- the motion model of the heading-aware planners, shared with
    :mod:`robomaze.metrics`.

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


def make_path(grid: OccupancyGrid, cells, *, footprint: Footprint | None = None,
              method: str = "", expanded: int = 0, time: float = 0.0, walk=None,
              points=None, headings=None, stats: dict | None = None) -> Path:
    """Build a :class:`Path` from grid cells and measure its length and safety.

    Parameters
    ----------
    grid : OccupancyGrid
    cells : array_like, shape (n, 2)
        Grid cells ``(row, col)`` of the key poses, n >= 1.
    footprint : Footprint, optional
        The robot whose clearance is measured (None: a point robot).
    method, expanded, time
        Planner name, nodes expanded, planning time (s).
    walk : array_like, shape (m, 2), optional
        Full walk of a classic solver (grid cells).
    points : array_like, shape (n, 2), optional
        World points of the poses; default the cell centres.
    headings : array_like, shape (n,), optional
        World headings; default along the path.
    stats : dict, optional
        Planner-specific figures stored as :attr:`Path.stats`.

    Returns
    -------
    Path

    Examples
    --------
    >>> from robomaze import Maze, widen
    >>> g = widen(Maze.empty(1, 2), corridor=3, wall=1)
    >>> p = make_path(g, [(2, 2), (2, 3), (2, 4), (2, 5), (2, 6)], method="demo")
    >>> p.length, p.length_cells, p.turns, p.min_clearance_key_poses, p.collision_free
    (4.0, 1.0, 0, 1.5, True)
    """
    # checked now (the door of a plugin's path): the figures that use it are
    # measured later, on first read; the built-in planners come through plan()
    footprint = check_footprint(footprint)
    return _make_path(grid, cells, own=False, footprint=footprint, method=method,
                      expanded=expanded, time=time, walk=walk, points=points,
                      headings=headings, stats=stats)


def retimed(path: Path, *, time: float, compile_time: float) -> Path:
    """``path`` with another ``time`` and ``compile_time``; figures not yet measured stay so.

    (``dataclasses.replace`` would read, and so measure, every field.)
    """
    new = object.__new__(type(path))
    new.__dict__.update(path.__dict__)
    new.__dict__["time"] = float(time)
    new.__dict__["compile_time"] = float(compile_time)
    return new


@njit(cache=True)
def _centre_points(c, rows, cols, res, ox, oy):
    """Cell centres and segment lengths of an unrotated grid: ``(points, steps, in_bounds)``.

    The arithmetic of ``OccupancyGrid.cells_to_world`` and
    ``_polyline_length`` operation for operation (no fused multiply-add), so
    the values are bit-identical to theirs; one pass instead of ten numpy
    ones.
    """
    n = c.shape[0]
    # explicit float64: np.empty without a dtype is a specialisation of its own
    p = np.empty((n, 2), np.float64)
    steps = np.empty(max(n - 1, 0), np.float64)
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
    return p, steps, ok


def _make_path(grid, cells, *, own: bool, footprint, method, expanded, time, walk, points,
               headings, stats) -> Path:
    """:func:`make_path`; ``own``: ``cells`` is a fresh int64 ``(n, 2)`` array nobody else holds."""
    if not isinstance(grid, OccupancyGrid):
        raise ParameterError(f"grid must be an OccupancyGrid, got {type(grid).__name__}")
    c = np.asarray(cells)
    if c.ndim != 2 or c.shape[1] != 2 or c.shape[0] < 1:
        raise ParameterError(f"cells must be an (n, 2) array with n >= 1, got shape {c.shape}")
    # always read-only int64 (one kernel signature); a caller's cells are copied
    c = np.ascontiguousarray(c, dtype=np.int64) if own else np.array(c, np.int64, order="C")
    c.setflags(write=False)
    bad = f"path cells must lie inside the {grid.rows}x{grid.cols} grid"
    ox, oy, yaw = grid.origin
    if points is None and yaw == 0.0:
        p, steps, ok = _centre_points(c, grid.rows, grid.cols, float(grid.resolution), float(ox),
                                      float(oy))
        if not ok:
            raise ParameterError(bad)
        # numpy's own (pairwise) sum, as _polyline_length
        length = float(steps.sum()) if steps.shape[0] else 0.0
    else:
        # whole-array and per-column reductions: (n, 2) axis reductions are slow on long paths
        if c.min() < 0 or c[:, 0].max() >= grid.rows or c[:, 1].max() >= grid.cols:
            raise ParameterError(bad)
        p = grid.cells_to_world(c) if points is None else np.asarray(points, float).reshape(-1, 2)
        if p.shape[0] != c.shape[0]:
            raise ParameterError(
                f"points must have one row per cell ({c.shape[0]}), got {p.shape[0]}")
        length = _polyline_length(p)
    if headings is None:
        h = given = None
    else:
        h = np.asarray(headings, float).reshape(-1)
        if h.shape[0] != c.shape[0]:
            raise ParameterError(
                f"headings must have one entry per cell ({c.shape[0]}), got {h.shape[0]}")
        given = h
    unit = grid.resolution * (grid.widening.pitch if grid.widening is not None else 1)
    wl = None
    if walk is not None:
        w = np.asarray(walk).astype(np.int64).reshape(-1, 2)
        wl = _polyline_length(grid.cells_to_world(w))
        walk = w
    p = _readonly(p) if points is None else _frozen(p)
    h = None if h is None else _frozen(h)
    figures = _Figures(grid, footprint, c, p, h, points is None)
    return Path(cells=c, points=p, length=length, length_cells=length / unit,
                turns=figures, expanded=int(expanded), time=float(time),
                min_clearance_key_poses=figures, mean_clearance_key_poses=figures,
                collision_free=figures, method=str(method), walk=_frozen(walk), walk_length=wl,
                headings=None if given is None else h, stats=dict(stats) if stats else None)


def _readonly(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


def _measure(grid, footprint, c, p, h, at_centres):
    """``(turns, min clearance, mean clearance, collision_free)`` of a path's key poses."""
    round_robot = footprint is None or footprint.kind == "disc"
    if h is None:
        # a round robot's clearance does not depend on its heading
        h = np.zeros(p.shape[0]) if round_robot else _derived_headings(p)
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
    return _turns(p), float(clear.min()), float(clear.mean()), free
