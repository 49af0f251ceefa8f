"""A MAPF instance: a grid, agents' starts and goals, and the agents' body size.

Agents move on the 4-connected free cells of a grid in unit time steps,
one cell or a wait per step. An agent is a square *body* of ``size x size``
grid cells named by its top-left cell (its *reference cell*): a point robot
has ``size = 1``; on a widened grid a disc robot occupies the cells
inscribed in its disc (:func:`body_size`), so two robots conflict when
their bodies share a grid cell. A reference cell is a *vertex* of the
instance's graph when its whole body lies on free cells.

Vertices are numbered row-major over the grid (``v = row * cols + col``)
so a plan's cells and the solvers' vertex ids convert without a table.

>>> import numpy as np
>>> inst = Instance(np.zeros((2, 3), bool), [(0, 0), (1, 2)], [(1, 2), (0, 0)])
>>> inst.n_agents, inst.vertex((1, 2)), inst.cell(5)
(2, 5, (1, 2))
>>> Instance(np.zeros((3, 3), bool), [(0, 0)], [(1, 1)], size=2).valid.astype(int)
array([[1, 1, 0],
       [1, 1, 0],
       [0, 0, 0]])
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..errors import ParameterError

__all__ = ["Instance", "body_size", "overlap"]


def body_size(radius: float, resolution: float) -> int:
    """Side, in grid cells, of the square of cells inscribed in a disc robot.

    A disc of radius ``r`` holds a square of side ``r * sqrt(2)``; at
    ``resolution`` metres per cell that is ``floor(r * sqrt(2) / resolution)``
    cells (at least one: a robot smaller than a cell still occupies its cell).

    >>> body_size(0.1, 1.0), body_size(1.5, 1.0), body_size(0.75, 0.5)
    (1, 2, 2)
    """
    if not (radius > 0 and math.isfinite(radius)):
        raise ParameterError(f"radius must be a finite number > 0, got {radius!r}")
    if not (resolution > 0 and math.isfinite(resolution)):
        raise ParameterError(f"resolution must be a finite number > 0, got {resolution!r}")
    return max(1, int(math.floor(radius * math.sqrt(2.0) / resolution + 1e-9)))


def overlap(a, b, size: int) -> bool:
    """Whether the ``size x size`` bodies at reference cells ``a`` and ``b`` share a cell.

    >>> overlap((0, 0), (1, 1), 2), overlap((0, 0), (0, 2), 2), overlap((3, 3), (3, 3), 1)
    (True, False, True)
    """
    return abs(a[0] - b[0]) < size and abs(a[1] - b[1]) < size


def _cells(name: str, v) -> np.ndarray:
    a = np.asarray(v, dtype=np.int64) if len(v) else np.zeros((0, 2), np.int64)
    if a.ndim != 2 or a.shape[1] != 2:
        raise ParameterError(f"{name} must be a list of (row, col) cells, got shape {a.shape}")
    return a


@dataclass(frozen=True, eq=False)
class Instance:
    """Starts and goals of ``n`` agents on a grid (True = blocked).

    Parameters
    ----------
    occupied : ndarray of bool, shape (rows, cols)
    starts, goals : sequences of (row, col)
        Reference cells, one per agent.
    size : int
        Body side in grid cells (1: point agents).
    name : str
        Map name (written into ``.scen`` and plan files).
    """

    occupied: np.ndarray
    starts: np.ndarray
    goals: np.ndarray
    size: int = 1
    name: str = "map"
    _memo: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        occ = np.ascontiguousarray(np.asarray(self.occupied, dtype=bool))
        if occ.ndim != 2 or occ.size == 0:
            raise ParameterError(f"occupied must be a non-empty 2-D array, got shape {occ.shape}")
        occ.setflags(write=False)
        object.__setattr__(self, "occupied", occ)
        if not isinstance(self.size, (int, np.integer)) or isinstance(self.size, bool) \
                or self.size < 1:
            raise ParameterError(f"size must be an integer >= 1, got {self.size!r}")
        object.__setattr__(self, "size", int(self.size))
        s, g = _cells("starts", self.starts), _cells("goals", self.goals)
        if len(s) != len(g):
            raise ParameterError(f"starts and goals must have one cell per agent, got "
                                 f"{len(s)} starts and {len(g)} goals")
        for what, arr in (("start", s), ("goal", g)):
            for i, (r, c) in enumerate(arr):
                if not (0 <= r < occ.shape[0] and 0 <= c < occ.shape[1]) or not self.valid[r, c]:
                    raise ParameterError(
                        f"agent {i}'s {what} ({r}, {c}) is not a free cell for a body of "
                        f"{self.size}x{self.size} cells on the {occ.shape[0]}x{occ.shape[1]} "
                        "grid; expected a reference cell whose body lies on free cells")
        s.setflags(write=False)
        g.setflags(write=False)
        object.__setattr__(self, "starts", s)
        object.__setattr__(self, "goals", g)

    # ------------------------------------------------------------ basics
    @property
    def n_agents(self) -> int:
        return len(self.starts)

    @property
    def shape(self) -> tuple[int, int]:
        return self.occupied.shape

    def vertex(self, cell) -> int:
        """Vertex id of a reference cell (row-major)."""
        return int(cell[0]) * self.occupied.shape[1] + int(cell[1])

    def cell(self, v: int) -> tuple[int, int]:
        """Reference cell of a vertex id."""
        r, c = divmod(int(v), self.occupied.shape[1])
        return r, c

    @property
    def valid(self) -> np.ndarray:
        """Cells whose ``size x size`` body (down and right) lies on free cells."""
        if "valid" not in self._memo:
            free = ~self.occupied
            k = self.size
            if k == 1:
                ok = free.copy()
            else:
                h, w = free.shape
                ok = np.zeros_like(free)
                if h >= k and w >= k:
                    # a k x k window is free iff its summed-area count is k*k
                    s = np.zeros((h + 1, w + 1), np.int64)
                    s[1:, 1:] = free.cumsum(0).cumsum(1)
                    win = s[k:, k:] - s[:-k, k:] - s[k:, :-k] + s[:-k, :-k]
                    ok[: h - k + 1, : w - k + 1] = win == k * k
            ok.setflags(write=False)
            self._memo["valid"] = ok
        return self._memo["valid"]

    def with_agents(self, n: int) -> "Instance":
        """The instance of the first ``n`` agents (``.scen`` files list up to 1,000)."""
        if not 1 <= n <= self.n_agents:
            raise ParameterError(f"agents must be between 1 and {self.n_agents} (the "
                                 f"instance's agents), got {n}")
        return Instance(self.occupied, self.starts[:n], self.goals[:n], self.size, self.name)

    # ------------------------------------------------------------ graph
    def graph(self) -> tuple[np.ndarray, np.ndarray]:
        """``(nbr, deg)``: the 4-neighbours of every vertex (``nbr[v, :deg[v]]``,
        in the order north, west, east, south), for the kernels."""
        if "graph" not in self._memo:
            from ._kernels import grid_neighbours

            nbr, deg = grid_neighbours(np.ascontiguousarray(self.valid))
            self._memo["graph"] = (nbr, deg)
        return self._memo["graph"]

    def start_ids(self) -> np.ndarray:
        return (self.starts[:, 0] * self.shape[1] + self.starts[:, 1]).astype(np.int32)

    def goal_ids(self) -> np.ndarray:
        return (self.goals[:, 0] * self.shape[1] + self.goals[:, 1]).astype(np.int32)

    def distances(self) -> np.ndarray:
        """``dist[i, v]``: shortest steps from vertex ``v`` to agent ``i``'s goal
        (-1 where unreachable), the solvers' heuristic."""
        if "dist" not in self._memo:
            from ._kernels import goal_distances

            nbr, deg = self.graph()
            self._memo["dist"] = goal_distances(nbr, deg, self.goal_ids())
        return self._memo["dist"]

    def conflict_offsets(self) -> np.ndarray:
        """Offsets ``(dr, dc)`` between reference cells whose bodies overlap."""
        k = self.size
        d = np.arange(-(k - 1), k)
        return np.array([(a, b) for a in d for b in d], np.int64)

    def lower_bound(self) -> int:
        """Sum of the agents' shortest path lengths: a lower bound on any plan's
        sum of costs."""
        d = self.distances()
        idx = np.arange(self.n_agents)
        return int(d[idx, self.start_ids()].sum())

    def check_solvable(self) -> None:
        """Refuse an instance where an agent cannot reach its goal, or where two
        agents' bodies overlap at the start or at the goal."""
        from ..errors import NoPathError

        d = self.distances()
        starts = self.start_ids()
        for i in range(self.n_agents):
            if d[i, starts[i]] < 0:
                raise NoPathError(f"agent {i}'s goal {tuple(self.goals[i])} cannot be reached "
                                  f"from its start {tuple(self.starts[i])}",
                                  reason="goal unreachable")
        for what, arr in (("start", self.starts), ("goal", self.goals)):
            bad = _overlapping_pair(arr, self.size)
            if bad is not None:
                i, j = bad
                raise ParameterError(f"agents {i} and {j} overlap at their {what}s "
                                     f"{tuple(arr[i])} and {tuple(arr[j])}; expected "
                                     "disjoint bodies")


def _overlapping_pair(cells: np.ndarray, size: int):
    """The first pair of agents whose bodies overlap, or None."""
    if size == 1:
        key = cells[:, 0] * (1 << 31) + cells[:, 1]
        _, first, counts = np.unique(key, return_index=True, return_counts=True)
        if (counts > 1).any():
            dup = key[first[np.argmax(counts > 1)]]
            i, j = np.flatnonzero(key == dup)[:2]
            return int(i), int(j)
        return None
    d = np.abs(cells[:, None, :] - cells[None, :, :]).max(axis=2) < size
    np.fill_diagonal(d, False)
    if d.any():
        i, j = np.argwhere(d)[0]
        return int(min(i, j)), int(max(i, j))
    return None
