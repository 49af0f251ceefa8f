"""Hand-built and random perfect mazes for the traverse tests (no generator needed)."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import minimum_spanning_tree

from robomaze.maze import Maze

KEY_OF = {(0, 1): "right", (1, 0): "down", (0, -1): "left", (-1, 0): "up"}


def random_perfect(rows: int, cols: int, seed: int, **kw) -> Maze:
    """A uniform-ish random spanning tree of the grid graph (MST of random weights)."""
    rng = np.random.default_rng(seed)
    idx = np.arange(rows * cols).reshape(rows, cols)
    a = np.r_[idx[:, :-1].ravel(), idx[:-1, :].ravel()]
    b = np.r_[idx[:, 1:].ravel(), idx[1:, :].ravel()]
    w = rng.random(a.size) + 1.0
    mst = minimum_spanning_tree(sp.csr_matrix((w, (a, b)), shape=(rows * cols,) * 2)).tocoo()
    return Maze.from_edges(rows, cols, mst.row, mst.col, **kw)


def comb(length: int, cols: int = 5, junction: int = 2) -> Maze:
    """Spine along row 0 from (0,0) to (0,cols-1) and one dead end of ``length``
    cells hanging south from (0, junction)."""
    a = list(range(cols - 1))
    b = list(range(1, cols))
    for r in range(length):
        a.append(r * cols + junction)
        b.append((r + 1) * cols + junction)
    return Maze.from_edges(length + 1, cols, a, b, start=(0, 0), goals=[(0, cols - 1)])


def comb_detour_walk(length: int, cols: int = 5, junction: int = 2) -> list:
    """Start -> junction -> down the dead end and back -> goal."""
    walk = [(0, c) for c in range(junction + 1)]
    walk += [(r, junction) for r in range(1, length + 1)]
    walk += [(r, junction) for r in range(length - 1, -1, -1)]
    walk += [(0, c) for c in range(junction + 1, cols)]
    return walk


def keys_for(cells) -> list:
    """Arrow key names that walk the given cell sequence."""
    return [KEY_OF[(b[0] - a[0], b[1] - a[1])] for a, b in zip(cells[:-1], cells[1:])]


class FakeClock:
    """A clock that advances by ``step`` seconds each time it is read."""

    def __init__(self, step: float = 0.5) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        value = self.now
        self.now += self.step
        return value


class ManualClock:
    """A clock that only moves when told."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now
