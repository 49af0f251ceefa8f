"""The result of every planner: a :class:`Path` with its length and safety.

A path is a sequence of *key poses*: grid cells, their world points and
optionally headings, joined by translate-then-turn motions. A Path measures
nothing itself: its length, turns, key-pose clearances and
``collision_free`` are those of :mod:`robomaze.metrics.keyposes` (the motion
model, the footprint's clearance at the key poses and along the motion
between them), the one place that measures a path.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import ParameterError
from ..geometry import Footprint, check_footprint
from ..grid import OccupancyGrid
from ..metrics.keyposes import (centre_points, key_headings, key_pose_figures, polyline_length)

__all__ = ["Path", "make_path"]

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
            turns, lo, mean, free = key_pose_figures(*self._args)
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
        h = self.headings if self.headings is not None else key_headings(self.points)
        return np.column_stack([np.asarray(self.points, float), np.asarray(h, float)])

    def summary(self) -> str:
        """One line: method, lengths, clearance, collision-free, expanded, time."""
        return (f"{self.method or 'path'}: length {self.length:.3f} m "
                f"({self.length_cells:.2f} cells), min clearance at key poses {self.min_clearance_key_poses:.3f} m, "
                f"collision-free {'yes' if self.collision_free else 'NO'}, "
                f"expanded {self.expanded}, time {self.time * 1e3:.1f} ms CPU")


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
    yaw = grid.origin[2]
    if points is None and yaw == 0.0:
        measured = centre_points(grid, c)
        if measured is None:
            raise ParameterError(bad)
        p, length = measured
    else:
        # whole-array and per-column reductions: (n, 2) axis reductions are slow on long paths
        if c.min() < 0 or c[:, 0].max() >= grid.rows or c[:, 1].max() >= grid.cols:
            raise ParameterError(bad)
        p = grid.cells_to_world(c) if points is None else np.asarray(points, float).reshape(-1, 2)
        if p.shape[0] != c.shape[0]:
            raise ParameterError(
                f"points must have one row per cell ({c.shape[0]}), got {p.shape[0]}")
        length = polyline_length(p)
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
        wl = polyline_length(grid.cells_to_world(w))
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
