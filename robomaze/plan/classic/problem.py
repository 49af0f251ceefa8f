"""A maze-solving problem: what every classic solver starts from and ends with.

:class:`Problem` is the free space for a footprint, the flat start and goal,
the line of sight to the goal and the result Path; the ``check_*`` functions
refuse what a classic solver cannot do (options it does not take, a
connectivity other than 4, a bad hand, heading or route)."""

from __future__ import annotations

import numbers
import time
from typing import Any, Sequence

import numpy as np

from ..._validate import check_choice
from ...errors import NoPathError, ParameterError
from ...grid import OccupancyGrid
from ...geometry import free_space
from .._endpoints import check_grid, endpoints
from ... import _search as core
from . import _kernels

HEADINGS = ("N", "E", "S", "W")
HANDS = {"right": 1, "left": -1}


def refuse_options(method: str, options: dict[str, Any]) -> None:
    """Reject option names a solver does not know (they would be silently ignored)."""
    if options:
        raise ParameterError(
            f"{method} got unknown option(s) {', '.join(sorted(options))}")


def require_four_neighbours(method: str, connectivity) -> None:
    """Classic solvers walk between the 4 neighbours of a cell; anything else is refused."""
    if isinstance(connectivity, bool) or connectivity != 4:
        raise ParameterError(
            f"connectivity must be 4 for {method} (classic solvers move between the "
            f"4 neighbours of a cell), got {connectivity!r}")


def check_hand(hand) -> int:
    if hand not in HANDS:
        raise ParameterError(f"hand must be one of 'right', 'left', got {hand!r}")
    return HANDS[hand]


def check_heading(name: str, heading) -> int | None:
    if heading is None:
        return None
    if heading not in HEADINGS:
        raise ParameterError(f"{name} must be one of 'N', 'E', 'S', 'W' or None, got {heading!r}")
    return HEADINGS.index(heading)


ROUTES = ("loop_erased", "shortest_known")


def check_route(route, routes: Sequence[str] = ROUTES) -> str:
    return check_choice("route", route, routes)


def check_sight(sight) -> bool:
    """True/False, or 1/0 as the command line's ``--option sight=0`` gives it."""
    if isinstance(sight, (bool, np.bool_)) or (isinstance(sight, numbers.Integral)
                                               and sight in (0, 1)):
        return bool(sight)
    raise ParameterError(f"sight must be True or False (or 1/0), got {sight!r}")


class Problem:
    """A validated problem: flat free mask, flat start and goal, the sight field."""

    def __init__(self, method: str, grid: OccupancyGrid, start, goal, footprint,
                 connectivity, sight: bool = True) -> None:
        self.t0 = time.perf_counter()
        self.method = method
        self.grid = grid
        self.footprint = footprint
        require_four_neighbours(method, connectivity)
        check_grid(grid)
        free2d = free_space(grid, footprint)
        s, g = endpoints(grid, start, goal, free=free2d, footprint=footprint)
        self.free2d = np.asarray(free2d, dtype=bool)
        self.rows, self.cols = self.free2d.shape
        self.free = np.ascontiguousarray(self.free2d, dtype=np.uint8).ravel()
        self.start = int(s[0]) * self.cols + int(s[1])
        self.goal = int(g[0]) * self.cols + int(g[1])
        self.vis = _kernels.sight_field(self.free, self.rows, self.cols, self.goal,
                                        check_sight(sight))

    def cells(self, flat: np.ndarray) -> np.ndarray:
        flat = np.asarray(flat, dtype=np.int64)
        return np.stack([flat // self.cols, flat % self.cols], axis=1)

    def fail(self, message: str, reason: str) -> NoPathError:
        return NoPathError(f"{self.method}: {message}", reason=reason)

    def result(self, walk: np.ndarray, *, path: np.ndarray | None = None,
               expanded: int | None = None, route: str = "loop_erased"):
        """The Path of a finished walk.

        ``cells`` is ``path`` if given, else the loop-erased walk; with
        ``route="shortest_known"`` it is the shortest route through the cells
        the walk visited or touched (a second run on the explored map).
        """
        from ..path import make_path

        walk = np.asarray(walk, dtype=np.int64)
        ncells = self.rows * self.cols
        if route == "shortest_known":
            known = np.zeros(ncells, np.uint8)
            distinct = _kernels.known_cells(self.free, self.rows, self.cols, walk, known)
            path = core.bfs_path(known, self.rows, self.cols, self.start, self.goal)
            if expanded is None:
                expanded = distinct
        elif path is None:
            path = _kernels.loop_erase(walk, ncells)
        if expanded is None:
            expanded = _kernels.count_distinct(walk, np.zeros(ncells, np.uint8))
        return make_path(self.grid, self.cells(path), footprint=self.footprint,
                         method=self.method, expanded=int(expanded),
                         time=time.perf_counter() - self.t0, walk=self.cells(walk))


def nearest_wall_heading(free2d: np.ndarray, cell: Sequence[int]) -> int:
    """Heading (0-3) of the nearest blocked cell straight N, E, S or W (ties in that order)."""
    r, c = cell
    rows, cols = free2d.shape
    best, best_d = 0, None
    for h, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
        if dr:
            line = free2d[r - 1::-1, c] if dr < 0 else free2d[r + 1:, c]
        else:
            line = free2d[r, c - 1::-1] if dc < 0 else free2d[r, c + 1:]
        if dr < 0 and r == 0 or dc < 0 and c == 0:
            line = line[:0]
        blocked = np.flatnonzero(~line)
        dist = int(blocked[0]) if blocked.size else line.size
        if best_d is None or dist < best_d:
            best, best_d = h, dist
    return best

