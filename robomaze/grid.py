"""Occupancy grids, the widening construction and the clearance field.

Conventions (as in DESIGN.md): ``occupied[row, col]`` is True where blocked;
row 0 is the north (top) row, as in an image. ``origin = (x, y, yaw)`` is the
world pose of the lower-left corner of the grid (as in a ROS map), world
``x`` grows east and ``y`` north, angles are counter-clockwise from east in
radians. ``resolution`` is metres per grid cell.

Widening maps maze cell ``(r, c)`` to the ``k x k`` block of grid cells with
rows ``t + r*(k+t) ... t + r*(k+t) + k - 1`` (columns alike). Its *block
centre* is grid cell ``(t + r*(k+t) + k//2, t + c*(k+t) + k//2)``. The
straight run between the block centres of two cells joined by a passage is
exactly ``k + t`` grid moves, so along the *centre lines* (:func:`centre_lines`:
the block centres joined through the middle of every passage) grid distances
are maze distances times ``k + t``. The shortest route over all free cells
can be shorter when ``k > 1``: it cuts the inside of every U-turn, by up to
``2 * (k // 2)`` moves each; it is never longer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from ._validate import check_cells, check_float, check_int
from .errors import ParameterError
from .maze import Maze

__all__ = ["Frame", "OccupancyGrid", "Widening", "widen", "clearance_field", "centre_lines"]


def _frozen_bool(a) -> np.ndarray:
    a = np.array(a, dtype=bool, copy=True)
    a.setflags(write=False)
    return a


@dataclass(frozen=True)
class Widening:
    """How a maze was widened: corridor width ``k`` and wall thickness ``t``."""

    rows: int
    cols: int
    corridor: int
    wall: int

    @property
    def pitch(self) -> int:
        """Grid cells from one maze cell to the next (``k + t``)."""
        return self.corridor + self.wall

    def block(self, cell: Sequence[int]) -> tuple[slice, slice]:
        """Grid slices of the ``k x k`` free block of maze cell ``(r, c)``."""
        r, c = (int(v) for v in cell)
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise ParameterError(f"maze cell {cell!r} outside the {self.rows}x{self.cols} maze")
        r0 = self.wall + r * self.pitch
        c0 = self.wall + c * self.pitch
        return slice(r0, r0 + self.corridor), slice(c0, c0 + self.corridor)

    def centre(self, cell: Sequence[int]) -> tuple[int, int]:
        """Block-centre grid cell of maze cell ``(r, c)``.

        >>> Widening(5, 5, 3, 1).centre((0, 0))
        (2, 2)
        """
        rs, cs = self.block(cell)
        k2 = self.corridor // 2
        return rs.start + k2, cs.start + k2

    def maze_cell(self, grid_cell: Sequence[int]) -> tuple[int, int] | None:
        """The maze cell whose block holds a grid cell; walls map to the nearest.

        Grid cells inside a wall band are assigned to the maze cell whose
        block they border on the north/west side (clipped to the maze), so
        every free grid cell maps to exactly one maze cell.

        >>> w = Widening(5, 5, 3, 1)
        >>> w.maze_cell((2, 2)), w.maze_cell((4, 6))
        ((0, 0), (0, 1))
        """
        gr, gc = (int(v) for v in grid_cell)
        r = min(max((gr - self.wall) // self.pitch, 0), self.rows - 1)
        c = min(max((gc - self.wall) // self.pitch, 0), self.cols - 1)
        return r, c

    def maze_cells(self, grid_cells: np.ndarray) -> np.ndarray:
        """Vectorised :meth:`maze_cell` for an ``(n, 2)`` array of grid cells."""
        g = np.asarray(grid_cells, dtype=np.int64).reshape(-1, 2)
        r = np.clip((g[:, 0] - self.wall) // self.pitch, 0, self.rows - 1)
        c = np.clip((g[:, 1] - self.wall) // self.pitch, 0, self.cols - 1)
        return np.stack([r, c], axis=1)


@dataclass(frozen=True)
class Frame:
    """The world frame of a grid: ``shape``, ``resolution`` and ``origin``.

    The one place world/cell conversion is written. Three coordinate kinds:

    * world ``(x, y)`` in metres;
    * continuous *cell units* ``(a, b)``: ``a`` east along the columns, ``b``
      south along the rows, so grid cell ``(r, c)`` is the square
      ``[c, c+1] x [r, r+1]`` (what the numba kernels work in);
    * integer grid cells ``(row, col)``, row 0 at the north edge.

    Every method takes scalars or arrays (vectorised with numpy).
    :attr:`kernel_args` gives the plain tuple the kernels take.

    Examples
    --------
    >>> f = Frame((3, 4), 0.5, (1.0, 2.0, 0.0))
    >>> f.to_units(1.25, 3.25)
    (0.5, 0.5)
    >>> f.from_units(0.5, 0.5)
    (1.25, 3.25)
    >>> f.world_to_cell((1.25, 3.25)), f.cell_to_world((0, 0))
    ((0, 0), (1.25, 3.25))
    >>> f.world_to_cells([[1.25, 3.25], [2.9, 2.1]]).tolist()
    [[0, 0], [2, 3]]
    """

    shape: tuple[int, int]
    resolution: float = 1.0
    origin: tuple[float, float, float] = (0.0, 0.0, 0.0)

    def __post_init__(self) -> None:
        ox, oy, yaw = self.origin
        # Computed once: the simulator converts a pose or two every step.
        args = (float(self.resolution), int(self.shape[0]), int(self.shape[1]), float(ox),
                float(oy), float(yaw))
        object.__setattr__(self, "_args", args)
        object.__setattr__(self, "_rot", (math.cos(yaw), math.sin(yaw)))

    @property
    def rows(self) -> int:
        return self.shape[0]

    @property
    def cols(self) -> int:
        return self.shape[1]

    @property
    def kernel_args(self) -> tuple[float, int, int, float, float, float]:
        """``(resolution, rows, cols, ox, oy, yaw)`` as plain Python numbers (what kernels take)."""
        return self._args

    # Map frame <-> world: the map frame is the world rotated by -yaw about the origin.
    def local(self, x, y):
        """World ``(x, y)`` to metres in the grid's own (unrotated) frame."""
        ox, oy, yaw = self.origin
        dx, dy = np.asarray(x, float) - ox, np.asarray(y, float) - oy
        if yaw == 0.0:
            return dx, dy
        cs, sn = math.cos(yaw), math.sin(yaw)
        return cs * dx + sn * dy, -sn * dx + cs * dy

    def world(self, lx, ly):
        """Metres in the grid's own frame to world ``(x, y)``."""
        ox, oy, yaw = self.origin
        if yaw == 0.0:
            return lx + ox, ly + oy
        cs, sn = math.cos(yaw), math.sin(yaw)
        return cs * lx - sn * ly + ox, sn * lx + cs * ly + oy

    def to_units(self, x, y):
        """World ``(x, y)`` to continuous cell units ``(a, b)`` (floats for scalars)."""
        if isinstance(x, float) and isinstance(y, float):
            # Scalar fast path: the same arithmetic as below, without numpy's overhead.
            res, rows, _, ox, oy, yaw = self._args
            dx, dy = x - ox, y - oy
            if yaw != 0.0:
                cs, sn = self._rot
                dx, dy = cs * dx + sn * dy, -sn * dx + cs * dy
            return float(dx / res), float(rows - dy / res)
        lx, ly = self.local(x, y)
        a, b = lx / self.resolution, self.rows - ly / self.resolution
        if np.ndim(a) == 0:
            return float(a), float(b)
        return a, b

    def from_units(self, a, b):
        """Continuous cell units ``(a, b)`` to world ``(x, y)`` (floats for scalars)."""
        x, y = self.world(np.asarray(a, float) * self.resolution,
                          (self.rows - np.asarray(b, float)) * self.resolution)
        if np.ndim(x) == 0:
            return float(x), float(y)
        return x, y

    def world_to_cell(self, point: Sequence[float]) -> tuple[int, int]:
        """Grid ``(row, col)`` holding a world point (may be out of bounds)."""
        lx, ly = self.local(point[0], point[1])
        col = int(math.floor(float(lx) / self.resolution))
        row = self.rows - 1 - int(math.floor(float(ly) / self.resolution))
        return row, col

    def world_to_cells(self, points) -> np.ndarray:
        """Vectorised :meth:`world_to_cell`: ``(n, 2)`` points to ``(n, 2)`` int64 cells."""
        p = np.asarray(points, dtype=float).reshape(-1, 2)
        lx, ly = self.local(p[:, 0], p[:, 1])
        col = np.floor(lx / self.resolution).astype(np.int64)
        row = self.rows - 1 - np.floor(ly / self.resolution).astype(np.int64)
        return np.stack([row, col], axis=1)

    def cell_to_world(self, cell: Sequence[float]) -> tuple[float, float]:
        """World ``(x, y)`` of a grid cell's centre (fractional cells allowed)."""
        r, c = cell
        x, y = self.world((c + 0.5) * self.resolution, (self.rows - r - 0.5) * self.resolution)
        return float(x), float(y)

    def cells_to_world(self, cells) -> np.ndarray:
        """Vectorised :meth:`cell_to_world`: ``(n, 2)`` cells to ``(n, 2)`` points."""
        cells = np.asarray(cells, dtype=float).reshape(-1, 2)
        x, y = self.world((cells[:, 1] + 0.5) * self.resolution,
                          (self.rows - cells[:, 0] - 0.5) * self.resolution)
        return np.stack([x, y], axis=1)


@dataclass(frozen=True, eq=False)
class OccupancyGrid:
    """An immutable boolean occupancy grid with a world frame.

    Parameters
    ----------
    occupied : array_like of bool, shape (rows, cols)
        True where blocked. Row 0 is the north (top) row.
    resolution : float
        Metres per grid cell (> 0).
    origin : (x, y, yaw)
        World pose of the lower-left corner of the grid.
    widening : Widening, optional
        Set by :func:`widen`: how maze cells map to grid blocks.
    maze : Maze, optional
        The maze this grid was widened from, if any.

    Examples
    --------
    >>> g = OccupancyGrid([[1, 1, 1], [1, 0, 1], [1, 1, 1]], resolution=0.5)
    >>> g.shape, g.cell_to_world((1, 1))
    ((3, 3), (0.75, 0.75))
    >>> g.world_to_cell((0.75, 0.75))
    (1, 1)
    """

    occupied: np.ndarray
    resolution: float = 1.0
    origin: tuple[float, float, float] = (0.0, 0.0, 0.0)
    widening: Widening | None = None
    maze: Maze | None = None
    _cache: dict = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        occ = np.asarray(self.occupied)
        if occ.ndim != 2 or occ.shape[0] < 1 or occ.shape[1] < 1:
            raise ParameterError(f"occupied must be a non-empty 2-D array, got shape {occ.shape}")
        if occ.dtype != bool and not np.isin(occ, (0, 1)).all():
            raise ParameterError("occupied must hold booleans or 0/1 values")
        object.__setattr__(self, "occupied", _frozen_bool(occ))
        res = check_float("resolution", self.resolution, min_value=0.0, strict_min=True)
        object.__setattr__(self, "resolution", res)
        try:
            origin = tuple(float(v) for v in self.origin)
        except (TypeError, ValueError):
            raise ParameterError(f"origin must be (x, y, yaw), got {self.origin!r}") from None
        if len(origin) == 2:
            origin = origin + (0.0,)
        if len(origin) != 3 or not all(math.isfinite(v) for v in origin):
            raise ParameterError(f"origin must be three finite numbers (x, y, yaw), got {self.origin!r}")
        object.__setattr__(self, "origin", origin)

    # ------------------------------------------------------------ basics
    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, cols)`` of the grid."""
        return self.occupied.shape

    @property
    def rows(self) -> int:
        return self.occupied.shape[0]

    @property
    def cols(self) -> int:
        return self.occupied.shape[1]

    @property
    def free(self) -> np.ndarray:
        """Boolean mask of free cells."""
        return ~self.occupied

    @property
    def width(self) -> float:
        """Extent east-west in metres."""
        return self.cols * self.resolution

    @property
    def height(self) -> float:
        """Extent north-south in metres."""
        return self.rows * self.resolution

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, OccupancyGrid):
            return NotImplemented
        return (np.array_equal(self.occupied, other.occupied)
                and self.resolution == other.resolution and self.origin == other.origin)

    __hash__ = None  # type: ignore[assignment]

    def replace(self, **changes) -> "OccupancyGrid":
        """A copy with fields changed (the cached clearance is not carried over)."""
        kw = dict(occupied=self.occupied, resolution=self.resolution, origin=self.origin,
                  widening=self.widening, maze=self.maze)
        kw.update(changes)
        return OccupancyGrid(**kw)

    def in_bounds(self, cell: Sequence[int]) -> bool:
        """Whether a ``(row, col)`` lies inside the grid."""
        r, c = cell
        return 0 <= r < self.rows and 0 <= c < self.cols

    def is_free(self, cell: Sequence[int]) -> bool:
        """Inside the grid and not occupied."""
        r, c = (int(v) for v in cell)
        return self.in_bounds((r, c)) and not self.occupied[r, c]

    # ------------------------------------------------------------ frames
    @property
    def frame(self) -> Frame:
        """The grid's :class:`Frame` (world/cell conversion)."""
        f = self._cache.get("frame")
        if f is None:
            f = self._cache["frame"] = Frame(self.shape, self.resolution, self.origin)
        return f

    def world_to_cell(self, point: Sequence[float]) -> tuple[int, int]:
        """Grid ``(row, col)`` holding a world point (may be out of bounds)."""
        return self.frame.world_to_cell(point)

    def cell_to_world(self, cell: Sequence[float]) -> tuple[float, float]:
        """World ``(x, y)`` of a grid cell's centre."""
        return self.frame.cell_to_world(cell)

    def cells_to_world(self, cells: np.ndarray) -> np.ndarray:
        """Vectorised :meth:`cell_to_world`: ``(n, 2)`` cells to ``(n, 2)`` points."""
        return self.frame.cells_to_world(cells)

    def world_to_cells(self, points: np.ndarray) -> np.ndarray:
        """Vectorised :meth:`world_to_cell`: ``(n, 2)`` points to int cells."""
        return self.frame.world_to_cells(points)

    # ------------------------------------------------------------ maze links
    def maze_block(self, cell: Sequence[int]) -> tuple[slice, slice]:
        """Grid slices of a maze cell's block (grids made by :func:`widen`)."""
        return self._need_widening().block(cell)

    def maze_centre(self, cell: Sequence[int]) -> tuple[int, int]:
        """Block-centre grid cell of a maze cell (grids made by :func:`widen`)."""
        return self._need_widening().centre(cell)

    def maze_cell(self, grid_cell: Sequence[int]) -> tuple[int, int] | None:
        """Maze cell of a grid cell (grids made by :func:`widen`)."""
        return self._need_widening().maze_cell(grid_cell)

    def _need_widening(self) -> Widening:
        if self.widening is None:
            raise ParameterError("this grid was not made by widen(); it has no maze cells")
        return self.widening

    def start_goal(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """Block centres of the maze's start and (first) goal cell."""
        if self.maze is None:
            raise ParameterError("this grid was not made by widen(); it has no start/goal")
        return self.maze_centre(self.maze.start), self.maze_centre(self.maze.goals[0])

    # ------------------------------------------------------------ clearance
    def clearance(self) -> np.ndarray:
        """Distance (metres) from each cell centre to the nearest occupied cell.

        Exact Euclidean distance to the nearest point of an occupied grid
        square (not to its centre), with the outside of the grid counted as
        occupied; 0 on occupied cells. Read-only and cached.

        >>> g = OccupancyGrid(np.pad(np.zeros((3, 3), bool), 1, constant_values=True))
        >>> g.clearance()[2, 2], g.clearance()[1, 1]
        (1.5, 0.5)
        """
        if "clearance" not in self._cache:
            c = clearance_field(self.occupied) * self.resolution
            c.setflags(write=False)
            self._cache["clearance"] = c
        return self._cache["clearance"]

    def flat_occupancy(self) -> np.ndarray:
        """Occupancy as a read-only C-contiguous flat uint8 array (1 = blocked), cached.

        Row-major, so cell ``(r, c)`` is element ``r * cols + c``: what the
        numba kernels index.
        """
        flat = self._cache.get("flat_occupancy")
        if flat is None:
            flat = np.ascontiguousarray(self.occupied, dtype=np.uint8).ravel()
            flat.setflags(write=False)
            self._cache["flat_occupancy"] = flat
        return flat

    def padded_free(self) -> np.ndarray:
        """Free mask with a one-cell blocked border, flat uint8 (1 = free), read-only; cached.

        ``(rows + 2) * (cols + 2)`` cells, row-major: the form the search
        engine (:mod:`robomaze._search`) walks without bounds checks, built
        once per grid instead of once per search.

        >>> OccupancyGrid([[0, 1]]).padded_free().reshape(3, 4)[1].tolist()
        [0, 1, 0, 0]
        """
        flat = self._cache.get("padded_free")
        if flat is None:
            flat = np.pad(~self.occupied, 1).view(np.uint8).ravel()
            flat.setflags(write=False)
            self._cache["padded_free"] = flat
        return flat

    def padded_clearer(self, threshold: float) -> np.ndarray:
        """Cells whose :meth:`clearance` exceeds ``threshold`` metres, padded as :meth:`padded_free`.

        Flat uint8 (1 = clearer), read-only; cached for the last few
        thresholds, so repeated plans of one robot make no pass over the grid.

        >>> g = OccupancyGrid(np.pad(np.zeros((3, 3), bool), 1, constant_values=True))
        >>> g.padded_clearer(1.0).reshape(7, 7)[3].tolist()
        [0, 0, 0, 1, 0, 0, 0]
        """
        masks = self._cache.setdefault("padded_clearer", {})
        key = float(threshold)
        flat = masks.get(key)
        if flat is None:
            flat = np.pad(self.clearance() > key, 1).view(np.uint8).ravel()
            flat.setflags(write=False)
            if len(masks) >= 4:
                masks.pop(next(iter(masks)))
            masks[key] = flat
        return flat

    def flat_clearance(self) -> np.ndarray:
        """:meth:`clearance` in cell units, flat and read-only like :meth:`flat_occupancy`; cached."""
        flat = self._cache.get("flat_clearance")
        if flat is None:
            flat = np.ascontiguousarray(self.clearance() / self.resolution).ravel()
            flat.setflags(write=False)
            self._cache["flat_clearance"] = flat
        return flat

    def free_components(self, connectivity: int = 4) -> tuple[int, np.ndarray]:
        """Connected components of free cells: ``(count, labels)`` (0 = occupied)."""
        from scipy import ndimage

        structure = ndimage.generate_binary_structure(2, 1 if connectivity == 4 else 2)
        labels, n = ndimage.label(self.free, structure=structure)
        return int(n), labels


def clearance_field(occupied: np.ndarray, *, outside_occupied: bool = True) -> np.ndarray:
    """Exact distance (in cells) from each cell centre to the nearest occupied square.

    Parameters
    ----------
    occupied : ndarray of bool
        True where blocked.
    outside_occupied : bool
        Treat everything beyond the grid as blocked (the default, so a robot
        never leaves the map). Otherwise a grid without obstacles gives inf.

    Returns
    -------
    ndarray of float64
        0 on occupied cells, otherwise ``min hypot(max(|dx|-.5, 0), max(|dy|-.5, 0))``
        over occupied cells at offset ``(dx, dy)``.

    Examples
    --------
    >>> clearance_field(np.array([[True, False, False]]), outside_occupied=False)
    array([[0. , 0.5, 1.5]])
    """
    from ._grid_kernels import square_clearance

    occ = np.asarray(occupied, dtype=bool)
    if occ.ndim != 2:
        raise ParameterError(f"occupied must be 2-D, got shape {occ.shape}")
    if outside_occupied:
        # not np.pad (~0.1 ms of Python set-up a call: agents call this each replan)
        padded = np.ones((occ.shape[0] + 2, occ.shape[1] + 2), bool)
        padded[1:-1, 1:-1] = occ
        occ = padded
    elif not occ.any():
        return np.full(occ.shape, np.inf)
    else:
        occ = np.ascontiguousarray(occ)
    d2 = np.empty(occ.shape)
    square_clearance(occ, np.empty(occ.shape, np.int64), d2)
    return np.sqrt(d2[1:-1, 1:-1] if outside_occupied else d2)


def widen(maze: Maze, *, corridor: int = 1, wall: int = 1, resolution: float = 1.0,
          origin: Sequence[float] = (0.0, 0.0, 0.0)) -> OccupancyGrid:
    """Enlarge a maze into an occupancy grid.

    Every cell becomes a ``corridor x corridor`` block of free grid cells and
    every wall a band ``wall`` cells thick, so an ``r x c`` maze becomes a
    ``(r*(k+t)+t) x (c*(k+t)+t)`` grid. Posts (band crossings) are always
    occupied; boundary openings are carved through the outer band.

    Parameters
    ----------
    maze : Maze
    corridor : int
        Free cells across each corridor, ``k >= 1``.
    wall : int
        Grid cells across each wall, ``t >= 1``.
    resolution : float
        Metres per grid cell.
    origin : (x, y, yaw)
        World pose of the grid's lower-left corner.

    Returns
    -------
    OccupancyGrid
        With ``widening`` and ``maze`` set, so maze cells map to grid blocks.

    Raises
    ------
    ParameterError
        If ``corridor`` or ``wall`` is below 1 or the grid would be too large.

    Examples
    --------
    >>> from robomaze.maze import Maze
    >>> g = widen(Maze.empty(1, 2), corridor=2, wall=1)
    >>> g.occupied.astype(int)
    array([[1, 1, 1, 1, 1, 1, 1],
           [1, 0, 0, 0, 0, 0, 1],
           [1, 0, 0, 0, 0, 0, 1],
           [1, 1, 1, 1, 1, 1, 1]])
    >>> np.array_equal(widen(Maze.empty(2, 2)).occupied, Maze.empty(2, 2).to_matrix())
    True
    """
    if not isinstance(maze, Maze):
        raise ParameterError(f"maze must be a robomaze Maze, got {type(maze).__name__}")
    k = check_int("corridor", corridor, min_value=1)
    t = check_int("wall", wall, min_value=1)
    gr = maze.rows * (k + t) + t
    gc = maze.cols * (k + t) + t
    check_cells(f"widening a {maze.rows}x{maze.cols} maze with corridor={k}, wall={t} "
                f"gives a {gr}x{gc} grid, which", gr * gc, "grid rows*cols")
    m = maze.to_matrix().astype(bool)
    rep_r = np.where(np.arange(m.shape[0]) % 2 == 0, t, k)
    rep_c = np.where(np.arange(m.shape[1]) % 2 == 0, t, k)
    occ = np.repeat(np.repeat(m, rep_r, axis=0), rep_c, axis=1)
    return OccupancyGrid(occ, resolution=resolution, origin=tuple(origin),
                         widening=Widening(maze.rows, maze.cols, k, t), maze=maze)


def centre_lines(grid: OccupancyGrid) -> np.ndarray:
    """The centre lines of a widened maze: block centres joined through passages.

    A bool mask, True on every grid cell of the straight run between the
    block centres of two maze cells joined by a passage (and from a border
    cell's centre out through an entrance/exit opening). It is the maze's
    cell graph drawn on the grid with every edge ``k + t`` moves long, so a
    4-connected search restricted to it measures maze distances times
    ``k + t`` -- the reference robomaze's tests hold the widening to.

    Raises
    ------
    ParameterError
        If the grid was not made by :func:`widen`.

    Examples
    --------
    >>> from robomaze.maze import Maze
    >>> m = Maze.from_edges(1, 2, [0], [1])
    >>> centre_lines(widen(m, corridor=3, wall=1)).astype(int)[2]
    array([0, 0, 1, 1, 1, 1, 1, 0, 0])
    """
    w = grid._need_widening()
    if grid.maze is None:
        raise ParameterError("this grid was not made by widen(); it has no maze")
    maze, k, t, pitch = grid.maze, w.corridor, w.wall, w.pitch
    centre = t + np.arange(max(maze.rows, maze.cols)) * pitch + k // 2
    mask = np.zeros(grid.shape, bool)
    rr, cc = np.meshgrid(centre[:maze.rows], centre[:maze.cols], indexing="ij")
    mask[rr, cc] = True
    steps = np.arange(pitch + 1)
    a, b = maze.edges()
    horiz = (b - a == 1) & (a // maze.cols == b // maze.cols)  # cols == 1: b - a == 1 is vertical
    for lo, along in ((a[horiz], "col"), (a[~horiz], "row")):
        r0, c0 = centre[lo // maze.cols], centre[lo % maze.cols]
        if along == "col":
            mask[np.repeat(r0, steps.size), (c0[:, None] + steps).ravel()] = True
        else:
            mask[(r0[:, None] + steps).ravel(), np.repeat(c0, steps.size)] = True
    for r, c, side in maze.openings:
        cr, cc_ = centre[r], centre[c]
        if side == "N":
            mask[:cr + 1, cc_] = True
        elif side == "S":
            mask[cr:, cc_] = True
        elif side == "W":
            mask[cr, :cc_ + 1] = True
        else:
            mask[cr, cc_:] = True
    return mask
