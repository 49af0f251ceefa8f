"""The cell-level maze: walls, start, goals, the cell graph and statistics.

Conventions
-----------
A maze has ``rows x cols`` cells addressed ``(row, col)``; row 0 is the
north (top) row and column 0 the west column, as in an image and as in
:class:`robomaze.grid.OccupancyGrid`. Walls are stored as two boolean arrays
of shape ``(rows, cols)``:

* ``east[r, c]`` -- a wall between ``(r, c)`` and ``(r, c + 1)``;
* ``south[r, c]`` -- a wall between ``(r, c)`` and ``(r + 1, c)``.

The last column of ``east`` and the last row of ``south`` are the outer
boundary and are always ``True``; the boundary is closed except for the
``openings`` (entrance/exit gaps), each a ``(row, col, side)`` with side one
of ``"N" "E" "S" "W"`` on a border cell.

Cells are numbered ``row * cols + col`` in the cell graph.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

import numpy as np

from ._validate import check_cells, check_int
from .errors import ParameterError

__all__ = ["Maze", "SIDES", "DIRECTIONS"]

#: Unit moves ``(drow, dcol)`` for each side of a cell.
DIRECTIONS: dict[str, tuple[int, int]] = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
SIDES = ("N", "E", "S", "W")


def _as_cell(name: str, cell, rows: int, cols: int) -> tuple[int, int]:
    try:
        r, c = (int(v) for v in cell)
    except (TypeError, ValueError):
        raise ParameterError(f"{name} must be a (row, col) pair, got {cell!r}") from None
    if not (0 <= r < rows and 0 <= c < cols):
        raise ParameterError(
            f"{name} {cell!r} is outside the {rows}x{cols} maze "
            f"(rows 0..{rows - 1}, cols 0..{cols - 1})")
    return r, c


_FIELDS = {"east", "south", "start", "goals", "openings"}


@dataclass(frozen=True, eq=False)
class Maze:
    """An immutable rectangular maze of cells separated by walls.

    Parameters
    ----------
    east, south : array_like of bool, shape (rows, cols)
        Wall east / south of each cell. Boundary entries are forced to True.
    start : (int, int), optional
        Start cell; default ``(0, 0)``.
    goals : iterable of (int, int), optional
        Goal cells; default the single cell ``(rows - 1, cols - 1)``.
    openings : iterable of (int, int, str), optional
        Gaps in the outer wall: ``(row, col, side)`` on a border cell.

    Examples
    --------
    >>> m = Maze.full(2, 3)
    >>> m.rows, m.cols, int(m.degrees().sum())
    (2, 3, 0)
    >>> m = Maze.empty(2, 2)
    >>> m.to_matrix()
    array([[1, 1, 1, 1, 1],
           [1, 0, 0, 0, 1],
           [1, 0, 1, 0, 1],
           [1, 0, 0, 0, 1],
           [1, 1, 1, 1, 1]], dtype=uint8)
    >>> m.is_perfect(), m.n_loops()
    (False, 1)
    """

    east: np.ndarray
    south: np.ndarray
    start: tuple[int, int] = (0, 0)
    goals: tuple[tuple[int, int], ...] = ()
    openings: tuple[tuple[int, int, str], ...] = ()
    _cache: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        east = np.asarray(self.east)
        south = np.asarray(self.south)
        if east.ndim != 2 or east.shape != south.shape:
            raise ParameterError(
                f"east and south wall arrays must be 2-D of equal shape, got "
                f"{east.shape} and {south.shape}")
        rows, cols = east.shape
        if rows < 1 or cols < 1:
            raise ParameterError(f"maze must have at least 1x1 cells, got {rows}x{cols}")
        east = np.array(east, dtype=bool)          # a copy: the maze owns its walls
        south = np.array(south, dtype=bool)
        east[:, -1] = True
        south[-1, :] = True
        east.setflags(write=False)
        south.setflags(write=False)
        object.__setattr__(self, "east", east)
        object.__setattr__(self, "south", south)
        self._set_places(rows, cols)

    def _set_places(self, rows: int, cols: int) -> None:
        """Validate and normalise start, goals and openings (walls already set)."""
        object.__setattr__(self, "start", _as_cell("start", self.start, rows, cols))
        goals = tuple(self.goals) if len(self.goals) else ((rows - 1, cols - 1),)
        goals = tuple(dict.fromkeys(_as_cell("goal", g, rows, cols) for g in goals))
        object.__setattr__(self, "goals", goals)
        ops = []
        for op in self.openings:
            try:
                r, c, side = op
            except (TypeError, ValueError):
                raise ParameterError(
                    f"opening must be (row, col, side), got {op!r}") from None
            r, c = _as_cell("opening", (r, c), rows, cols)
            side = str(side).upper()
            on_border = {"N": r == 0, "S": r == rows - 1, "W": c == 0, "E": c == cols - 1}
            if side not in on_border:
                raise ParameterError(f"opening side must be one of N, E, S, W, got {side!r}")
            if not on_border[side]:
                raise ParameterError(
                    f"opening {op!r} is not on the outer boundary of the {rows}x{cols} maze")
            ops.append((r, c, side))
        object.__setattr__(self, "openings", tuple(dict.fromkeys(ops)))

    # ------------------------------------------------------------------ build
    @classmethod
    def full(cls, rows: int, cols: int, **kw) -> "Maze":
        """A maze with every wall present (no passages)."""
        rows, cols = _check_shape(rows, cols)
        return cls(np.ones((rows, cols), bool), np.ones((rows, cols), bool), **kw)

    @classmethod
    def empty(cls, rows: int, cols: int, **kw) -> "Maze":
        """A maze with no interior walls (an open room)."""
        rows, cols = _check_shape(rows, cols)
        return cls(np.zeros((rows, cols), bool), np.zeros((rows, cols), bool), **kw)

    @classmethod
    def from_edges(cls, rows: int, cols: int, a: np.ndarray, b: np.ndarray, **kw) -> "Maze":
        """A maze whose open passages are the cell pairs ``(a[i], b[i])``.

        Cells are flat indices ``row * cols + col``; each pair must be
        4-neighbours. This is how graph-based generators build their result.

        >>> Maze.from_edges(1, 3, [0, 1], [1, 2]).is_perfect()
        True
        """
        rows, cols = _check_shape(rows, cols)
        a = np.asarray(a, dtype=np.int64).ravel()
        b = np.asarray(b, dtype=np.int64).ravel()
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        if lo.size and (lo.min() < 0 or hi.max() >= rows * cols):
            raise ParameterError(f"edge cell index out of range for a {rows}x{cols} maze")
        east = np.ones(rows * cols, bool)
        south = np.ones(rows * cols, bool)
        horiz = (hi - lo == 1) & (lo % cols != cols - 1)
        vert = hi - lo == cols
        if not np.all(horiz | vert):
            raise ParameterError("every edge must join two 4-neighbouring cells")
        east[lo[horiz]] = False
        south[lo[vert]] = False
        return cls(east.reshape(rows, cols), south.reshape(rows, cols), **kw)

    @classmethod
    def from_graph(cls, graph, *, rows: int | None = None, cols: int | None = None,
                   openings: str = "none", **kw) -> "Maze":
        """A maze whose passages are the edges of a graph on ``(row, col)`` cells.

        Parameters
        ----------
        graph : graph or iterable of pairs
            Anything with an ``edges()`` method yielding ``(u, v)`` or
            ``(u, v, label)`` (a Sage or NetworkX graph) or an iterable of
            ``(u, v)`` pairs; each vertex is a ``(row, col)`` cell and each
            edge must join two 4-neighbours. Vertices listed by
            ``vertices()`` or ``nodes()`` count for the size too.
        rows, cols : int, optional
            Maze size; default one more than the largest row / column seen.
        openings : {"none", "sage"}
            ``"sage"`` opens the outer wall as the Sage notebook's
            ``grafo_a_laberinto`` does: north and west of the start ``(0, 0)``
            and south and east of the goal ``(rows-1, cols-1)`` (its corner
            posts too: :meth:`to_matrix` with ``corner_posts=True``).
        **kw
            Passed to the constructor (``start``, ``goals``).

        Returns
        -------
        Maze

        Raises
        ------
        ParameterError
            If an edge is not a pair of 4-neighbouring cells, a vertex is
            outside the given size or ``openings`` is unknown.

        Examples
        --------
        >>> m = Maze.from_graph([((0, 0), (0, 1)), ((0, 1), (1, 1)), ((1, 1), (1, 0))],
        ...                     openings="sage")
        >>> m.shape, m.is_perfect(), sorted(m.openings)
        ((2, 2), True, [(0, 0, 'N'), (0, 0, 'W'), (1, 1, 'E'), (1, 1, 'S')])
        """
        if openings not in ("none", "sage"):
            raise ParameterError(f"openings must be one of 'none', 'sage', got {openings!r}")
        raw = graph.edges() if hasattr(graph, "edges") else graph
        pairs, cells = [], []
        for e in raw:
            try:
                u, v = (tuple(int(x) for x in p) for p in tuple(e)[:2])
                if len(u) != 2 or len(v) != 2:
                    raise ValueError
            except (TypeError, ValueError):
                raise ParameterError(
                    f"graph edge must join two (row, col) cells, got {e!r}") from None
            pairs.append((u, v))
            cells += [u, v]
        listed = getattr(graph, "vertices", None) or getattr(graph, "nodes", None)
        for v in (listed() if callable(listed) else ()):
            try:
                cells.append(tuple(int(x) for x in v)[:2])
            except (TypeError, ValueError):
                raise ParameterError(f"graph vertex must be a (row, col) cell, got {v!r}") \
                    from None
        if (rows is None or cols is None) and not cells:
            raise ParameterError("an empty graph needs rows= and cols=")
        rows = max(r for r, _ in cells) + 1 if rows is None else rows
        cols = max(c for _, c in cells) + 1 if cols is None else cols
        rows, cols = _check_shape(rows, cols)
        for cell in cells:
            _as_cell("graph vertex", cell, rows, cols)
        a = [u[0] * cols + u[1] for u, _ in pairs]
        b = [v[0] * cols + v[1] for _, v in pairs]
        for u, v in pairs:
            if abs(u[0] - v[0]) + abs(u[1] - v[1]) != 1:
                raise ParameterError(f"graph edge {u}-{v} does not join 4-neighbouring cells")
        if openings == "sage":
            kw.setdefault("start", (0, 0))
            kw.setdefault("goals", ((rows - 1, cols - 1),))
            kw["openings"] = ((0, 0, "N"), (0, 0, "W"),
                              (rows - 1, cols - 1, "S"), (rows - 1, cols - 1, "E"))
        return cls.from_edges(rows, cols, a, b, **kw)

    @classmethod
    def from_matrix(cls, matrix, *, free: int = 0, **kw) -> "Maze":
        """Read the ``(2r+1) x (2c+1)`` 0/1 matrix of the literature.

        Cell ``(r, c)`` sits at matrix ``(2r+1, 2c+1)``; the entries between
        two cells are their wall. Posts (even, even) are ignored. A free
        entry on the outer frame next to a cell becomes an opening.

        Parameters
        ----------
        matrix : array_like of 0/1
        free : {0, 1}
            The value that means free: 0 (default, 1 = wall, as in the
            paper) or 1 (as in the Sage notebook, 0 = wall).
        **kw
            Passed to the constructor (``start``, ``goals``, extra ``openings``).

        Examples
        --------
        >>> m = Maze.from_matrix([[1, 1, 1, 1, 1], [0, 0, 0, 0, 1], [1, 1, 1, 1, 1]])
        >>> m.shape, m.openings
        ((1, 2), ((0, 0, 'W'),))
        >>> Maze.from_matrix([[0, 0, 0, 0, 0], [1, 1, 1, 1, 0], [0, 0, 0, 0, 0]], free=1) == m
        True
        """
        if isinstance(free, bool) or free not in (0, 1):
            raise ParameterError(f"free must be 0 or 1 (the value of a free entry), got {free!r}")
        m = np.asarray(matrix)
        if m.ndim != 2 or m.shape[0] < 3 or m.shape[1] < 3 or m.shape[0] % 2 == 0 \
                or m.shape[1] % 2 == 0:
            raise ParameterError(
                f"matrix must be 2-D with odd sizes >= 3 (2r+1 x 2c+1), got shape {m.shape}")
        if not np.isin(m, (0, 1)).all():
            raise ParameterError(f"matrix entries must be {free} (free) or {1 - free} (wall)")
        if free == 1:
            m = 1 - m.astype(np.int8)
        m = m.astype(bool)
        if m[1::2, 1::2].any():
            r, c = np.argwhere(m[1::2, 1::2])[0]
            raise ParameterError(
                f"matrix cell position ({2 * r + 1}, {2 * c + 1}) must be {free} (free: a cell "
                f"is never a wall)")
        east = m[1::2, 2::2]
        south = m[2::2, 1::2]
        rows, cols = east.shape
        openings = list(kw.pop("openings", ()))
        for c in range(cols):
            if not m[0, 2 * c + 1]:
                openings.append((0, c, "N"))
            if not m[-1, 2 * c + 1]:
                openings.append((rows - 1, c, "S"))
        for r in range(rows):
            if not m[2 * r + 1, 0]:
                openings.append((r, 0, "W"))
            if not m[2 * r + 1, -1]:
                openings.append((r, cols - 1, "E"))
        return cls(east, south, openings=tuple(openings), **kw)

    def replace(self, **changes) -> "Maze":
        """A copy with some fields changed (walls, start, goals, openings).

        >>> Maze.full(2, 2).replace(start=(1, 1)).start
        (1, 1)
        """
        kw = dict(east=self.east, south=self.south, start=self.start,
                  goals=self.goals, openings=self.openings)
        kw.update(changes)
        if kw["east"] is self.east and kw["south"] is self.south and set(kw) == _FIELDS:
            # the same frozen walls: shared, not copied (a small generate()
            # call spent a tenth of its time re-copying them in place())
            new = object.__new__(Maze)
            for key, value in kw.items():
                object.__setattr__(new, key, value)
            object.__setattr__(new, "_cache", {})
            new._set_places(*self.east.shape)
            return new
        return Maze(**kw)

    # ------------------------------------------------------------ properties
    @property
    def rows(self) -> int:
        """Number of cell rows."""
        return self.east.shape[0]

    @property
    def cols(self) -> int:
        """Number of cell columns."""
        return self.east.shape[1]

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, cols)``."""
        return self.east.shape

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Maze):
            return NotImplemented
        return (self.shape == other.shape and np.array_equal(self.east, other.east)
                and np.array_equal(self.south, other.south) and self.start == other.start
                and set(self.goals) == set(other.goals)
                and set(self.openings) == set(other.openings))

    def __hash__(self) -> int:
        return hash((self.shape, self.east.tobytes(), self.south.tobytes(), self.start,
                     frozenset(self.goals), frozenset(self.openings)))

    def __repr__(self) -> str:
        return (f"Maze({self.rows}x{self.cols}, start={self.start}, "
                f"goals={list(self.goals)}, openings={list(self.openings)})")

    def cell_index(self, cell: Sequence[int]) -> int:
        """Flat index ``row * cols + col`` of a cell (validated)."""
        r, c = _as_cell("cell", cell, self.rows, self.cols)
        return r * self.cols + c

    def wall(self, cell: Sequence[int], side: str) -> bool:
        """Whether the given side of a cell is walled (boundary openings count).

        >>> Maze.empty(1, 2).wall((0, 0), "E"), Maze.empty(1, 2).wall((0, 0), "N")
        (False, True)
        """
        r, c = _as_cell("cell", cell, self.rows, self.cols)
        side = side.upper()
        if side == "E":
            return bool(self.east[r, c]) and (r, c, "E") not in self.openings
        if side == "S":
            return bool(self.south[r, c]) and (r, c, "S") not in self.openings
        if side == "W":
            return (c == 0 and (r, c, "W") not in self.openings) or (
                c > 0 and bool(self.east[r, c - 1]))
        if side == "N":
            return (r == 0 and (r, c, "N") not in self.openings) or (
                r > 0 and bool(self.south[r - 1, c]))
        raise ParameterError(f"side must be one of N, E, S, W, got {side!r}")

    def neighbors(self, cell: Sequence[int]) -> list[tuple[int, int]]:
        """Cells reachable in one move from ``cell`` (inside the maze).

        >>> Maze.empty(2, 2).neighbors((0, 0))
        [(0, 1), (1, 0)]
        """
        r, c = _as_cell("cell", cell, self.rows, self.cols)
        out = []
        for side in SIDES:
            dr, dc = DIRECTIONS[side]
            rr, cc = r + dr, c + dc
            if 0 <= rr < self.rows and 0 <= cc < self.cols and not self.wall((r, c), side):
                out.append((rr, cc))
        return out

    # ------------------------------------------------------------ the graph
    def edges(self) -> tuple[np.ndarray, np.ndarray]:
        """Open interior passages as two arrays of flat cell indices ``a < b``."""
        if "edges" not in self._cache:
            rows, cols = self.shape
            idx = np.arange(rows * cols).reshape(rows, cols)
            eopen = ~self.east[:, :-1]
            sopen = ~self.south[:-1, :]
            a = np.concatenate([idx[:, :-1][eopen], idx[:-1, :][sopen]])
            b = np.concatenate([idx[:, 1:][eopen], idx[1:, :][sopen]])
            self._cache["edges"] = (a, b)
        return self._cache["edges"]

    def adjacency(self) -> "scipy.sparse.csr_matrix":
        """Symmetric scipy.sparse adjacency (CSR, 0/1) of the cell graph."""
        if "adj" not in self._cache:
            import scipy.sparse as sp  # here, not at import: scipy.sparse costs ~0.15 s

            n = self.rows * self.cols
            a, b = self.edges()
            data = np.ones(2 * a.size, dtype=np.int8)
            adj = sp.csr_matrix((data, (np.concatenate([a, b]), np.concatenate([b, a]))),
                                shape=(n, n))
            self._cache["adj"] = adj
        return self._cache["adj"]

    def degrees(self) -> np.ndarray:
        """Open passages per cell, shape ``(rows, cols)`` (openings not counted).

        >>> Maze.empty(2, 2).degrees()
        array([[2, 2],
               [2, 2]])
        """
        rows, cols = self.shape
        eopen = ~self.east
        eopen[:, -1] = False
        sopen = ~self.south
        sopen[-1, :] = False
        deg = eopen.astype(np.int64) + sopen
        deg[:, 1:] += eopen[:, :-1]
        deg[1:, :] += sopen[:-1, :]
        return deg

    def n_components(self) -> int:
        """Number of connected components of the cell graph."""
        from scipy.sparse import csgraph

        return int(csgraph.connected_components(self.adjacency(), directed=False)[0])

    def is_connected(self) -> bool:
        """Whether every cell can reach every other cell."""
        return self.n_components() == 1

    def n_loops(self) -> int:
        """Independent cycles of the cell graph (edges - cells + components)."""
        a, _ = self.edges()
        return int(a.size - self.rows * self.cols + self.n_components())

    def is_perfect(self) -> bool:
        """Connected and acyclic: exactly one route between any two cells.

        >>> Maze.from_edges(2, 2, [0, 0, 1], [1, 2, 3]).is_perfect()
        True
        """
        a, _ = self.edges()
        return a.size == self.rows * self.cols - 1 and self.is_connected()

    # ------------------------------------------------------------ statistics
    def dead_ends(self) -> np.ndarray:
        """Boolean mask of dead-end cells (exactly one open passage)."""
        return self.degrees() == 1

    def junctions(self) -> np.ndarray:
        """Boolean mask of junction cells (three or more open passages)."""
        return self.degrees() >= 3

    def corridors(self) -> np.ndarray:
        """Boolean mask of corridor cells (exactly two open passages)."""
        return self.degrees() == 2

    def distances(self, source: Sequence[int] | None = None) -> np.ndarray:
        """Moves from ``source`` (default the start) to every cell; -1 if unreachable."""
        from scipy.sparse import csgraph

        src = self.cell_index(self.start if source is None else source)
        d = csgraph.shortest_path(self.adjacency(), unweighted=True, indices=src,
                                  directed=False)
        out = np.where(np.isinf(d), -1, d).astype(np.int64)
        return out.reshape(self.shape)

    def solution_length(self) -> int | None:
        """Moves from the start to the nearest goal cell; None if unreachable.

        >>> Maze.empty(3, 3).solution_length()
        4
        >>> Maze.full(3, 3).solution_length() is None
        True
        """
        d = self.distances()
        reach = [int(d[g]) for g in self.goals if d[g] >= 0]
        return min(reach) if reach else None

    def solution(self) -> list[tuple[int, int]] | None:
        """One shortest route of cells from the start to the nearest goal.

        >>> Maze.from_edges(1, 3, [0, 1], [1, 2]).solution()
        [(0, 0), (0, 1), (0, 2)]
        """
        from scipy.sparse import csgraph

        src = self.cell_index(self.start)
        _, pred = csgraph.breadth_first_order(self.adjacency(), src, directed=False,
                                              return_predecessors=True)
        d = self.distances()
        reach = [g for g in self.goals if d[g] >= 0]
        if not reach:
            return None
        goal = min(reach, key=lambda g: (d[g], g))
        node = goal[0] * self.cols + goal[1]
        route = [node]
        while node != src:
            node = int(pred[node])
            route.append(node)
        return [divmod(n, self.cols) for n in reversed(route)]

    def stats(self) -> dict:
        """A dictionary of the usual maze statistics.

        >>> s = Maze.empty(2, 2).stats()
        >>> s["cells"], s["dead_ends"], s["loops"], s["perfect"]
        (4, 0, 1, False)
        """
        deg = self.degrees()
        n = self.rows * self.cols
        sol = self.solution_length()
        return {
            "rows": self.rows,
            "cols": self.cols,
            "cells": n,
            "passages": int(self.edges()[0].size),
            "dead_ends": int((deg == 1).sum()),
            "dead_end_fraction": float((deg == 1).sum() / n),
            "corridors": int((deg == 2).sum()),
            "junctions": int((deg >= 3).sum()),
            "isolated": int((deg == 0).sum()),
            "components": self.n_components(),
            "loops": self.n_loops(),
            "perfect": self.is_perfect(),
            "solution_length": sol,
        }

    # ------------------------------------------------------------ matrix
    def to_matrix(self, *, free: int = 0, corner_posts: bool = False) -> np.ndarray:
        """The ``(2r+1) x (2c+1)`` uint8 matrix, 1 = wall, posts always walls.

        Parameters
        ----------
        free : {0, 1}
            The value written for free entries: 0 (default, 1 = wall) or 1
            (the Sage notebook's convention, 0 = wall).
        corner_posts : bool
            Also free a post of the outer frame's corner where the corner
            cell is open on both sides of it, as the Sage notebook's
            ``grafo_a_laberinto`` does.

        Examples
        --------
        >>> m = Maze.empty(1, 1, openings=[(0, 0, "N"), (0, 0, "W")])
        >>> m.to_matrix(free=1, corner_posts=True).tolist()
        [[1, 1, 0], [1, 1, 0], [0, 0, 0]]
        """
        if isinstance(free, bool) or free not in (0, 1):
            raise ParameterError(f"free must be 0 or 1 (the value of a free entry), got {free!r}")
        m = self._wall_matrix()
        if corner_posts:
            rows, cols = self.shape
            ops = set(self.openings)
            for r, c, a, b in ((0, 0, "N", "W"), (0, cols - 1, "N", "E"),
                               (rows - 1, 0, "S", "W"), (rows - 1, cols - 1, "S", "E")):
                if (r, c, a) in ops and (r, c, b) in ops:
                    m[0 if a == "N" else -1, 0 if b == "W" else -1] = 0
        return m if free == 0 else 1 - m

    def _wall_matrix(self) -> np.ndarray:
        rows, cols = self.shape
        m = np.ones((2 * rows + 1, 2 * cols + 1), dtype=np.uint8)
        m[1::2, 1::2] = 0
        m[1::2, 2::2] = self.east
        m[2::2, 1::2] = self.south
        for r, c, side in self.openings:
            mr, mc = 2 * r + 1, 2 * c + 1
            dr, dc = DIRECTIONS[side]
            m[mr + dr, mc + dc] = 0
        return m


def _check_shape(rows, cols) -> tuple[int, int]:
    rows = check_int("rows", rows, min_value=1)
    cols = check_int("cols", cols, min_value=1)
    check_cells(f"a {rows}x{cols} maze", rows * cols, "rows*cols")
    return rows, cols


def check_shape(rows, cols) -> tuple[int, int]:
    """Validate a maze size (both >= 1, not absurdly large); return ints.

    >>> check_shape(0, 3)
    Traceback (most recent call last):
    ...
    robomaze.errors.ParameterError: rows must be an integer >= 1, got 0
    """
    return _check_shape(rows, cols)


def cells_of(maze: Maze, flat: Iterable[int]) -> list[tuple[int, int]]:
    """Flat indices to ``(row, col)`` cells."""
    return [divmod(int(i), maze.cols) for i in flat]
