"""The time-optimal fast run: an exact Dijkstra on the slalom graph.

Nodes (the node graph of micromouse-maze-library's ``StepMapSlalom``)
----------------------------------------------------------------------
* a cell centre with an axis heading (N, E, S, W);
* a wall midpoint with a diagonal heading (NE, SE, SW, NW).

Moves, each allowed when every wall midpoint it sweeps is open (a move out
of a node always sweeps the wall ahead of it; ``F`` the wall ahead of a
centre, ``W1`` the side wall of the cell ahead, ``I`` the wall a diagonal
node faces):

===========  =========================================  ======================
move         from -> to                                 sweeps
===========  =========================================  ======================
``S n``      centre -> the centre ``n`` cells ahead     the ``n`` walls ahead
``F90``      centre -> the diagonal neighbour's centre  ``F``, ``W1``
``F180``     centre -> the side neighbour's centre,     ``F``, ``W1``, the wall
             heading back                               between the two cells
                                                        on that side
``F45in``    centre -> ``W1``, diagonal                 ``F``, ``W1`` (and the
                                                        wall after it)
``F135in``   centre -> the wall back beside the start   ``F``, ``W1``, that wall
             cell, diagonal                             (and the one after it)
``D n``      wall -> the wall ``n`` half-cell steps on  ``n + 1`` walls ahead
``F45out``   wall -> the centre beyond ``I``            ``I``
``V90``      wall -> the wall 90 degrees off            ``I``, that wall (and
                                                        the one after it)
``F135out``  wall -> the centre 135 degrees off         ``I``, the next wall
``FS90``     centre -> the same centre, 90 degrees off  nothing (profiles with
                                                        ``pivots`` only)
===========  =========================================  ======================

Sides: ``L``/``R``. The route starts at the centre of the start cell
heading north (if north is walled, heading to any open side) and ends at
the centre of a goal cell arriving along an axis. The search is exact: it
settles nodes in cost order, and the only moves it leaves out are straights
that a node settled earlier provably drives at least as cheaply (a node
reached by a straight does not extend it: its parent's longer straight
does; see :mod:`._route_dial`), so it never returns a slower route than the
library's own search, which stops extending a straight at the first node
already reached as cheaply.

Without diagonals the graph keeps the axis moves (``S n``, ``F90``,
``F180``, ``FS90``), so allowing diagonals never makes the optimum slower, unless the
profile's orthogonal model is ``runs`` (the library's separate
:class:`~robomaze.micromouse.profile.MouseProfile` model: one small turn plus
a straight per run of cells, any first heading), kept for comparison with
the library.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ..errors import NoPathError, ParameterError
from ..maze import Maze
from . import _route_dial as _rd
from .profile import MouseProfile, get_profile
from .world import wall_array

__all__ = ["FastRoute", "RouteSearch", "fastest_route", "passable_grid", "prunable"]

#: Move kinds in code order (the kernels' move codes are ``2 * kind + side``).
KINDS = ("S", "D", "F45in", "F90", "F135in", "F180", "F45out", "V90", "F135out", "FS90", "R")

# (dR, dC) per heading in half cells, N NE E SE S SW W NW (row 0 is north)
_DR = (-1, -1, 0, 1, 1, 1, 0, -1)
_DC = (0, 1, 1, 1, 0, -1, -1, -1)
_PAD = 2


@dataclass(frozen=True)
class FastRoute:
    """A time-optimal route: its segments, time and cells.

    Attributes
    ----------
    cost_ms : float
        The route's time (ms) under the profile.
    route : list of str
        Segments: ``S3`` (3 cells straight), ``D4`` (4 diagonal half-cell
        steps), ``F45inL``, ``F90R``, ``F135outL``, ``F180R``, ``V90L``...;
        in the ``runs`` model ``S3`` runs joined by ``L90``/``R90``/``B180``.
    cells : list of (row, col)
        Every cell the route crosses, in order, start to goal.
    diagonals : bool
    model : {"slalom", "runs"}
    profile : str
        The profile's name.
    """

    cost_ms: float
    route: list
    cells: list
    diagonals: bool
    model: str
    profile: str
    poses: list = field(default_factory=list, repr=False)
    points: list = field(default_factory=list, repr=False)

    def polyline(self) -> np.ndarray:
        """The route's centre line as ``(row, col)`` cell coordinates (floats):
        the start, every wall midpoint crossed and every node reached, so a
        drawing follows the slaloms and diagonals inside the open passages.

        >>> r = fastest_route(Maze.empty(2, 2, start=(1, 0), goals=[(0, 1)]), diagonals=True)
        >>> r.route, r.polyline().tolist()
        (['F90R'], [[1.0, 0.0], [0.5, 0.0], [0.0, 0.5], [0.0, 1.0]])
        """
        return (np.asarray(self.points, float).reshape(-1, 2) - 1.0) / 2.0

    def to_json(self) -> dict:
        """The fields as a JSON-ready dict."""
        return {"cost_ms": self.cost_ms, "route": list(self.route),
                "cells": [list(c) for c in self.cells], "diagonals": self.diagonals,
                "model": self.model, "profile": self.profile}


def passable_grid(walls: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """The padded half-cell grid of ``walls`` (``(rows, cols, 4)`` bool, N E S W).

    Returns ``(passable, horiz, width)``: flat uint8 arrays (centres and open
    wall midpoints 1; horizontal wall midpoints 1) and the padded row width.
    A wall is open only if neither of its two cells says it is closed; the
    outer boundary is always closed.

    >>> p, h, w = passable_grid(wall_array(Maze.empty(1, 2)))
    >>> p.reshape(-1, w)[2:5, 2:7].tolist()
    [[0, 0, 0, 0, 0], [0, 1, 1, 1, 0], [0, 0, 0, 0, 0]]
    """
    rows, cols = walls.shape[:2]
    H, W = 2 * rows + 1 + 2 * _PAD, 2 * cols + 1 + 2 * _PAD
    g = np.zeros((H, W), np.uint8)
    o = _PAD
    g[o + 1:o + 2 * rows:2, o + 1:o + 2 * cols:2] = 1
    # wall between (r, c) and (r + 1, c): half row 2r + 2
    south_open = ~(walls[:-1, :, 2] | walls[1:, :, 0])
    g[o + 2:o + 2 * rows - 1:2, o + 1:o + 2 * cols:2] = south_open
    east_open = ~(walls[:, :-1, 1] | walls[:, 1:, 3])
    g[o + 1:o + 2 * rows:2, o + 2:o + 2 * cols - 1:2] = east_open
    horiz = np.zeros((H, W), np.uint8)
    horiz[o::2, :] = 1
    return g.ravel(), horiz.ravel(), W


def _walls_of(source, unknown_open: bool) -> np.ndarray:
    if isinstance(source, Maze):
        return wall_array(source)
    k = np.asarray(source)
    if k.ndim != 3 or k.shape[2] != 4:
        raise ParameterError(f"walls must be a Maze or a (rows, cols, 4) array, got shape "
                             f"{k.shape}")
    if k.dtype == bool:
        return k
    from ._kernels import OPEN, WALL
    return (k == WALL) if unknown_open else (k != OPEN)


def fastest_route(source, *, start=None, goals=None, diagonals: bool = False,
                  profile: "str | MouseProfile | None" = None,
                  unknown_open: bool = False, jit: bool = True) -> FastRoute:
    """The time-optimal route of a maze (or of a wall map) under a mouse profile.

    One search; for many searches on one maze size (a mouse exploring) keep
    a :class:`RouteSearch`, which builds its tables and scratch arrays once.

    Parameters
    ----------
    source : Maze or ndarray
        A maze (every wall known), a ``(rows, cols, 4)`` bool wall array, or
        a wall-knowledge array (0 unknown, 1 open, 2 wall; sides N E S W).
    start, goals
        Default: the maze's; required for arrays.
    diagonals : bool
        Allow diagonal moves (F45, F135, V90, D n).
    profile : str, MouseProfile or None
        Preset name, TOML file or profile (default ``kerikun``).
    unknown_open : bool
        With a knowledge array: treat unknown walls as open (else closed).
    jit : bool
        Search with the numba kernel (True) or run the same search in plain
        Python (False: no numba import, for a process that searches once;
        profiles whose tables are not integers always take the kernel).

    Returns
    -------
    FastRoute

    Raises
    ------
    NoPathError
        No goal cell can be reached.

    Examples
    --------
    >>> m = Maze.empty(3, 3, start=(2, 0), goals=[(0, 0)])
    >>> r = fastest_route(m, profile="kerikun", diagonals=True)
    >>> r.route, r.cost_ms, r.cells              # 2 * 129 units: S2 in 258 ms
    (['S2'], 258.0, [(2, 0), (1, 0), (0, 0)])
    >>> r = fastest_route(m, profile="kerikun")  # runs: 2 * int((287 + 154) / 2)
    >>> r.route, r.cost_ms, r.model
    (['S2'], 440.0, 'runs')
    """
    prof = get_profile(profile)
    walls = _walls_of(source, unknown_open)
    rows, cols = walls.shape[:2]
    if start is None or goals is None:
        if not isinstance(source, Maze):
            raise ParameterError("start and goals are required with a wall array")
        start = source.start if start is None else start
        goals = source.goals if goals is None else goals
    search = RouteSearch(rows, cols, diagonals=diagonals, profile=prof, jit=jit)
    return search.route(walls, start, goals)


class RouteSearch:
    """Time-optimal route searches on one maze size under one profile, repeated.

    The half-cell graph's layout, the profile's cost tables (integers where
    the profile allows: Dial's bucket queue, else the binary heap) and every
    scratch array are built once; each :meth:`route` call writes the walls
    it is given into the graph and searches, clearing nothing (states carry
    the number of the search that reached them). The search a mouse runs
    after every cell it explores. With integer costs a compiled search is
    one call with three arguments (the walls and the object's two scratch
    arrays, :data:`._route_dial.W32` / ``W64``), and it skips the moves the
    straight-run pruning of :mod:`._route_dial` proves redundant when the
    tables allow it (:attr:`prune`, see :func:`prunable`).

    Parameters
    ----------
    rows, cols : int
        Maze size in cells.
    diagonals, profile
        As in :func:`fastest_route`.
    jit : bool
        numba kernel (True) or the same search in plain Python (False).

    Examples
    --------
    >>> s = RouteSearch(3, 3, diagonals=True)
    >>> m = Maze.empty(3, 3, start=(2, 0), goals=[(0, 0)])
    >>> s.route(wall_array(m), m.start, m.goals).route
    ['S2']
    >>> s.route(wall_array(m), (2, 2), [(0, 0)]).route
    ['F45inL', 'D1', 'F45outL']
    >>> s.prune, RouteSearch(3, 3).prune          # the kerikun tables allow it
    (True, True)
    """

    def __init__(self, rows: int, cols: int, *, diagonals: bool = False,
                 profile: "str | MouseProfile | None" = None, jit: bool = True) -> None:
        self.profile = prof = get_profile(profile)
        self.shape = (int(rows), int(cols))
        self.diagonals = bool(diagonals)
        self.model = "runs" if not diagonals and prof.orthogonal == "runs" else "slalom"
        rows, cols = self.shape
        self.width = width = 2 * cols + 1 + 2 * _PAD
        height = 2 * rows + 1 + 2 * _PAD
        n_max = 2 * max(rows, cols) + 2
        along, diag, turns, runs = _tables(prof, n_max)
        pivot = prof.pivot_cost()
        runs_model = self.model == "runs"
        used = (runs[1:],) if runs_model else (along, diag, turns, [max(pivot, 0)])
        top = max(float(np.max(t)) for t in used)
        # Dial's buckets need integer costs; a route's cost must fit the int32 dist
        self.dial = all(float(x) == int(x) for t in used for x in t) and \
            top * 8 * (rows + 2) * (cols + 2) < 2 ** 31
        self.jit = bool(jit) or not self.dial
        self.prune = _prune_ok(prof, n_max, self.model, self.diagonals, max(rows, cols))
        n_pos = height * width
        n_states = n_pos if runs_model else 8 * n_pos
        horiz = np.zeros((height, width), np.uint8)
        horiz[_PAD::2, :] = 1
        self._horiz = horiz.ravel()
        if runs_model:
            off = [-width, 1, width, -1]
        else:
            off = [-width, -width + 1, 1, width + 1, width, width - 1, -1, -width - 1]
        self._gen = 0
        self._key = None
        self._entry = None
        self._wshape = (rows, cols, 4)
        if not self.dial:
            self._tables = (along, diag, turns, runs, pivot)
            return
        nb = max(64, 1 << int(top).bit_length())  # > every edge cost, a power of two
        ncand = 0 if runs_model else len(along) + len(diag) + 16
        grid = np.zeros((height, width), np.int32)
        grid[_PAD + 1:_PAD + 2 * rows:2, _PAD + 1:_PAD + 2 * cols:2] = 1    # centres
        # the kernels run straights to the first closed wall: every table must
        # outlast the longest straight (the closed border ends each one)
        assert len(runs) > max(rows, cols) and len(along) > max(rows, cols) and \
            len(diag) > 2 * max(rows, cols) + 1
        # each section: its initial values, or its size (zeros)
        sec32 = {"grid": grid.ravel(), "goal": n_pos,
                 "horiz": self._horiz if not runs_model else [],
                 "dist": n_states, "stamp": n_states,
                 "parent": n_states, "move": 0 if runs_model else n_states,
                 "head": np.full(nb, -1, np.int32), "tail": np.full(nb, -1, np.int32),
                 "nxt": n_states, "prv": n_states}
        sec64 = {"occ": nb >> 5, "off": off,
                 "starts": 4, "goals": rows * cols,
                 "along": [] if runs_model else along, "diag": [] if runs_model else diag,
                 "turns": [] if runs_model else turns, "runs": runs if runs_model else [],
                 "cv": ncand, "cc": ncand, "cm": ncand}
        header = {_rd.H_ROWS: rows, _rd.H_COLS: cols, _rd.H_WIDTH: width,
                  _rd.H_PRUNE: int(self.prune), _rd.H_DIAG: int(self.diagonals),
                  _rd.H_PIVOT: int(pivot), _rd.H_FILL: 1}
        if self.jit:
            self._ws, self._wl, self._sec = _pack(sec32, sec64, header)
            for name in ("dist", "parent", "move"):
                setattr(self, "_" + name, self._sec[name])
        else:
            self._sec = {k: [0] * v if isinstance(v, int) else
                         np.asarray(v, np.float64).astype(np.int64).tolist()
                         for k, v in {**sec32, **sec64}.items()}
            self._dist, self._parent, self._move = (self._sec[k] for k in
                                                    ("dist", "parent", "move"))
            self._header = header

    def route(self, walls: np.ndarray, start, goals) -> FastRoute:
        """The time-optimal route from ``start`` to a cell of ``goals``.

        ``walls``: a ``(rows, cols, 4)`` bool array (sides N E S W), or a
        Maze or knowledge array as :func:`fastest_route` takes (unknown
        walls closed). Raises NoPathError when no goal is reachable.
        """
        start, end, cost, parent, move = self._search(walls, start, goals)
        chain = _chain(parent, end)
        prof, width = self.profile, self.width
        if self.model == "runs":
            poses = [_half(p, width) for p in chain]
            route, crossed, points = _runs_segments(poses)
        else:
            poses = [(*_half(s >> 3, width), s & 7) for s in chain]
            route, crossed, points = _slalom_segments(poses, [int(move[s]) for s in chain])
        return FastRoute(cost_ms=float(cost) * prof.unit_ms, route=route,
                         cells=_cells(start, crossed), diagonals=self.diagonals,
                         model=self.model, profile=prof.name, poses=poses, points=points)

    def cost(self, walls: np.ndarray, start, goals) -> float:
        """The time (ms) of the route :meth:`route` finds, without building it.

        >>> m = Maze.empty(3, 3, start=(2, 0), goals=[(0, 0)])
        >>> RouteSearch(3, 3).cost(wall_array(m), m.start, m.goals)
        440.0
        """
        return float(self._search(walls, start, goals)[2]) * self.profile.unit_ms

    def _cells_of(self, start, goals):
        """``start`` and the sorted goal cells, checked; cached for the last call."""
        try:
            goals = tuple(map(tuple, goals))
            key = (tuple(start), goals)
        except TypeError:
            key = None
        if key is not None and key == self._key:
            return self._cells
        rows, cols = self.shape
        start = (int(start[0]), int(start[1]))
        goals = sorted({(int(r), int(c)) for r, c in goals})
        if not goals:
            raise ParameterError("goals must hold at least one (row, col) cell, got none")
        for cell in [start, *goals]:
            if not (0 <= cell[0] < rows and 0 <= cell[1] < cols):
                raise ParameterError(f"cell {cell} is outside the {rows}x{cols} maze")
        width = self.width
        pos = [(2 * r + 1 + _PAD) * width + 2 * c + 1 + _PAD for r, c in [start, *goals]]
        self._key, self._cells = key, (start, goals, pos[0], pos[1:])
        if self.dial and self.jit:
            wl, sec = self._wl, self._sec
            wl[_rd.H_START] = pos[0]
            wl[_rd.H_NGOALS] = len(goals)
            sec["goals"][:len(goals)] = pos[1:]
        return self._cells

    def _search(self, walls, start, goals):
        if not (isinstance(walls, np.ndarray) and walls.dtype == bool):
            walls = _walls_of(walls, False)
        if walls.shape != self._wshape:
            rows, cols = self.shape
            raise ParameterError(f"walls must have shape ({rows}, {cols}, 4) for this "
                                 f"search, got {walls.shape}")
        start, goals, p0, gpos = self._cells_of(start, goals)
        if self.dial:
            end = self._dial_search(walls, p0, gpos)
            cost = 0 if end < 0 else int(self._dist[end])
            parent, move = self._parent, self._move
        else:
            end, cost, parent, move = self._heap_search(walls, start, goals, p0, gpos)
        if end < 0:
            raise NoPathError(f"no goal cell is reachable from {start}")
        return start, end, cost, parent, move

    def _dial_search(self, walls, p0, gpos):
        if self.jit:
            entry = self._entry
            if entry is None:
                from ._route_kernels import dial_entry as kernel, direct_entry
                end = kernel(walls.ravel(), self._ws, self._wl)   # compiles or loads it
                self._entry = direct_entry(kernel)
                return int(end)
            return int(entry(walls.ravel(), self._ws, self._wl))
        # the same steps as the compiled entries, on lists (the grid the
        # entries' prepare writes, built by numpy: faster in Python)
        h, sec = self._header, self._sec
        sec["grid"] = grid = passable_grid(walls)[0].tolist()
        starts = sec["starts"]
        runs_model = self.model == "runs"
        self._gen, n = _rd.prepare(None, 0, grid, h[_rd.H_ROWS], h[_rd.H_COLS], self.width,
                                   sec["goal"], sec["stamp"], gpos, len(gpos), self._gen, p0,
                                   not runs_model, starts)
        if runs_model:
            return _rd.runs_dial(grid, sec["goal"], self._gen, sec["off"], starts, n,
                                 sec["runs"], h[_rd.H_PRUNE], sec["dist"], sec["stamp"],
                                 sec["parent"], sec["head"], sec["tail"], sec["nxt"],
                                 sec["prv"], sec["occ"])
        return _rd.slalom_dial(grid, sec["horiz"], sec["goal"], self._gen, sec["off"],
                               starts, n, sec["along"], sec["diag"], sec["turns"],
                               h[_rd.H_DIAG], h[_rd.H_PIVOT], h[_rd.H_PRUNE], sec["dist"],
                               sec["stamp"], sec["parent"], sec["move"], sec["head"],
                               sec["tail"], sec["nxt"], sec["prv"], sec["occ"], sec["cv"],
                               sec["cc"], sec["cm"])

    def _heap_search(self, walls, start, goals, p0, gpos):
        from ._route_kernels import runs_search, slalom_search
        along, diag, turns, runs, pivot = self._tables
        passable = passable_grid(walls)[0]
        goal = np.zeros(passable.shape[0], np.uint8)
        goal[gpos] = 1
        if self.model == "runs":
            end, dist, parent = runs_search(passable, self.width, p0, goal, runs)
            move = None
        else:
            starts = np.zeros(4, np.int64)
            # the start states as the Dial search picks them (a scratch goal list)
            n = _rd.prepare(None, 0, passable, *self.shape, self.width, [0], [0], [], 0, 0,
                            p0, True, starts)[1]
            starts = starts[:n]
            end, dist, parent, move = slalom_search(
                passable, self._horiz, self.width, starts, goal, along,
                diag, turns, self.diagonals, pivot)
        return int(end), (dist[end] if end >= 0 else 0.0), parent, move


def _pack(sec32: dict, sec64: dict, header: dict):
    """The int32 and int64 scratch arrays of the layout :data:`._route_dial.W32`
    / ``W64`` (each section an int size or initial values), and a view per section."""
    assert tuple(sec32) == _rd.W32 and tuple(sec64) == _rd.W64
    sizes32 = [v if isinstance(v, int) else len(v) for v in sec32.values()]
    sizes64 = [v if isinstance(v, int) else len(v) for v in sec64.values()]
    b32 = np.concatenate([[0], np.cumsum(sizes32)]).astype(np.int64)
    b64 = _rd.HEADER + np.concatenate([[0], np.cumsum(sizes64)]).astype(np.int64)
    ws = np.zeros(int(b32[-1]), np.int32)
    wl = np.zeros(int(b64[-1]), np.int64)
    wl[_rd.H_W32:_rd.H_W32 + len(b32)] = b32
    wl[_rd.H_W64:_rd.H_W64 + len(b64)] = b64
    for k, v in header.items():
        wl[k] = v
    views = {}
    for i, (name, v) in enumerate(sec32.items()):
        views[name] = ws[b32[i]:b32[i + 1]]
        if not isinstance(v, int):
            views[name][:] = v
    for i, (name, v) in enumerate(sec64.items()):
        views[name] = wl[b64[i]:b64[i + 1]]
        if not isinstance(v, int):
            views[name][:] = v
    return ws, wl, views


@lru_cache(maxsize=64)
def _prune_ok(prof: MouseProfile, n_max: int, model: str, diagonals: bool, size: int) -> bool:
    """Whether the pruning is exact for these tables on mazes of ``size``
    cells a side (cached: a profile is immutable)."""
    along, diag, _, runs = _tables(prof, n_max)
    longest = size - 1                       # cells in the longest straight
    if model == "runs":
        return prunable(runs, longest, monotone=True)
    return prunable(along, longest) and (not diagonals or prunable(diag, 2 * size))


def prunable(table, longest: int, *, monotone: bool = False) -> bool:
    """Whether the straight-run pruning of :mod:`._route_dial` is exact for a
    cost table: ``t[a + b] <= t[a] + t[b]`` for all ``a, b >= 1`` with ``a + b
    <= longest`` (and, with ``monotone``, ``t`` non-decreasing from 1 to
    ``longest``: the runs model also leaves out the run back).

    >>> prunable([0, 143, 220, 281], 3, monotone=True)
    True
    >>> prunable([0, 1, 77, 129], 3)        # a turn cheaper than a cell: not so
    False
    """
    t = np.asarray(table, np.float64)[:max(longest, 0) + 1]
    if monotone and np.any(np.diff(t[1:]) < 0):
        return False
    for a in range(1, len(t) // 2 + 1):
        b = np.arange(a, len(t) - a)
        if np.any(t[a + b] > t[a] + t[b]):
            return False
    return True


@lru_cache(maxsize=64)
def _tables(prof: MouseProfile, n_max: int):
    """The profile's cost tables (read-only; a profile is immutable, so cached)."""
    out = (prof.along_table(n_max), prof.diag_table(2 * n_max), prof.turn_costs(),
           prof.runs_table(n_max))
    for a in out:
        a.setflags(write=False)
    return out


def _chain(parent: np.ndarray, end: int) -> list[int]:
    out = [int(end)]
    while parent[out[-1]] >= 0:
        out.append(int(parent[out[-1]]))
    return out[::-1]


def _half(p: int, width: int) -> tuple[int, int]:
    r, c = divmod(int(p), width)
    return r - _PAD, c - _PAD


def _step(pt, h, k=1):
    return pt[0] + k * _DR[h], pt[1] + k * _DC[h]


def _slalom_segments(poses, moves):
    """Segment strings, the wall midpoints crossed and the centre-line points, in order."""
    route, crossed = [], []
    points = [tuple(poses[0][:2])]
    for (r0, c0, h0), (r1, c1, h1), code in zip(poses[:-1], poses[1:], moves[1:]):
        kind, side = KINDS[code >> 1], "R" if code & 1 else "L"
        s = 1 if side == "R" else -1
        p = (r0, c0)
        walls: list = []
        if kind == "FS90":
            route.append(f"FS90{side}")
            continue
        if kind == "S":
            n = (abs(r1 - r0) + abs(c1 - c0)) // 2
            walls = [_step(p, h0, 2 * i - 1) for i in range(1, n + 1)]
            route.append(f"S{n}")
        elif kind == "D":
            n = max(abs(r1 - r0), abs(c1 - c0))
            walls = [_step(p, h0, i) for i in range(1, n + 1)]
            route.append(f"D{n}")
        else:
            f = _step(p, h0)
            if kind in ("F45in", "F90", "F135in", "F180"):
                w1 = _step(f, (h0 + s) & 7)
                walls = [f, w1]
                if kind in ("F135in", "F180"):
                    walls.append(_step(w1, (h0 + 3 * s) & 7))
            elif kind == "F45out":
                walls = [f]
            else:                               # V90, F135out
                walls = [f, _step(f, (h0 + 2 * s) & 7)]
            route.append(f"{kind}{side}")
        crossed += walls
        points += [w for w in walls if w != (r1, c1)] + [(r1, c1)]
    return route, crossed, points


def _runs_segments(poses):
    route, crossed = [], []
    points = [tuple(poses[0])]
    prev = None
    for (r0, c0), (r1, c1) in zip(poses[:-1], poses[1:]):
        h = (0 if r1 < r0 else 4) if c1 == c0 else (2 if c1 > c0 else 6)
        n = (abs(r1 - r0) + abs(c1 - c0)) // 2
        if prev is not None:
            rel = (h - prev) & 7
            route.append({2: "R90", 6: "L90", 4: "B180", 0: "S0"}[rel])
        route.append(f"S{n}")
        walls = [_step((r0, c0), h, 2 * i - 1) for i in range(1, n + 1)]
        crossed += walls
        points += walls + [(r1, c1)]
        prev = h
    return route, crossed, points


def _cells(start, crossed) -> list[tuple[int, int]]:
    """The cells entered through each crossed wall midpoint, after the start."""
    cells = [start]
    for R, C in crossed:
        if R % 2 == 0:                          # horizontal wall: cells above and below
            a, b = (R // 2 - 1, (C - 1) // 2), (R // 2, (C - 1) // 2)
        else:
            a, b = ((R - 1) // 2, C // 2 - 1), ((R - 1) // 2, C // 2)
        cells.append(b if cells[-1] == a else a)
    return cells
