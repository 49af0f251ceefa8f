"""Deviation of a traversal from the optimal route, per section and per cell.

Everything is measured on the cell graph of the maze (maze cells; a
grid-level record is first mapped back to maze cells with
:meth:`TraversalRecord.maze_walk`, so walks at any widening level compare
directly). A plain grid without a maze is scored on its own 4-connected
graph of free cells.

Definitions
-----------
``d(v)`` is the number of moves from cell ``v`` to the nearest goal.

* **optimal** -- ``d(start)``, the length of a shortest route.
* **extra moves, efficiency** -- ``moves - optimal`` and ``optimal / moves``
  for a walk that reached the goal; None for an unfinished walk (it has not
  walked a route to compare). An unfinished walk has **remaining**, ``d`` of
  its last cell, and **progress**, ``optimal`` minus the least ``d`` it
  reached (the moves that made new progress); a finished walk has
  remaining 0 and progress ``optimal``.
* **error of a move** -- 0 if it reaches a cell closer to the goal than any
  cell reached before (it makes new progress), else 1. The errors of a walk
  that reaches the goal add up to ``moves - optimal``; an optimal walk has
  none; a detour into a dead end of length ``L`` costs ``2L``.
* **wrong turn** -- leaving a junction (a cell of degree >= 3, or the start)
  through a passage that takes the walker farther from the goal, i.e. into a
  branch that does not lie on a shortest route. A **turnback** is the same
  reversal begun anywhere else (turning round inside a corridor).
* **revisit** -- arriving at a cell already visited.
* **dead end entered** -- arriving at a dead-end cell (degree 1) that is not
  a goal.
* **sections** -- the corridors between junctions: maximal chains of
  degree-2 cells between two nodes (cells of degree != 2), with the edges
  that join them to those nodes (see :func:`sections`). Every passage
  belongs to exactly one section, so every move does; cycles without any
  node form one section each.
* **hints** -- hints the walker asked for (version 2 records; 0 before).
* **time** -- the time between two arrivals belongs to the move (and its
  section); the time from arriving at a cell to leaving it is that cell's
  dwell time (the final cell's lasts until the end of the walk), summed over
  regions of the maze for ``region_time``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph

from .._validate import check_int
from ..errors import ParameterError
from ..grid import OccupancyGrid
from ..maze import Maze
from .record import TraversalRecord

__all__ = ["Sections", "sections", "TraversalScore", "score", "score_walk", "SUMMARY_KEYS"]

#: Keys of :attr:`TraversalScore.summary`, identical for every record.
SUMMARY_KEYS = ("walker", "level", "reached_goal", "moves", "optimal", "extra_moves",
                "efficiency", "error", "revisits", "wrong_turns", "turnbacks",
                "dead_ends_entered", "distinct_dead_ends", "bumps", "duration",
                "level_moves", "pitch", "sections", "sections_with_error", "hints",
                "remaining", "progress")


@dataclass(frozen=True)
class Sections:
    """The decomposition of a cell graph into sections.

    Attributes
    ----------
    shape : (int, int)
    kinds : list of str
        Per section: ``"corridor"`` (between two junctions), ``"dead_end"``
        (one end is a dead end), ``"cycle"`` (a loop with no node).
    cells : list of ndarray
        Per section, the flat cells of its chain in order, end nodes included.
    edge_section : scipy.sparse.csr_matrix
        ``edge_section[a, b] - 1`` is the section of passage ``a-b``.
    """

    shape: tuple[int, int]
    kinds: list
    cells: list
    edge_section: sp.csr_matrix

    def __len__(self) -> int:
        return len(self.kinds)

    def of_edge(self, a: int, b: int) -> int:
        """Section id of the passage between flat cells ``a`` and ``b`` (-1 if none)."""
        return int(self.edge_section[a, b]) - 1

    def length(self, i: int) -> int:
        """Passages in section ``i``."""
        return len(self.cells[i]) - 1

    def labels(self) -> np.ndarray:
        """``(rows, cols)`` int: the section of each interior (degree-2) cell, else -1."""
        out = np.full(self.shape[0] * self.shape[1], -1, np.int64)
        for i, cells in enumerate(self.cells):
            inner = cells if self.kinds[i] == "cycle" else cells[1:-1]
            out[inner] = i
        return out.reshape(self.shape)


def _adjacency_of(world) -> tuple[sp.csr_matrix, tuple[int, int]]:
    if isinstance(world, Maze):
        return world.adjacency().tocsr(), world.shape
    free = world.free.ravel()
    rows, cols = world.shape
    idx = np.arange(rows * cols).reshape(rows, cols)
    pairs = []
    for a, b in ((idx[:, :-1], idx[:, 1:]), (idx[:-1, :], idx[1:, :])):
        a, b = a.ravel(), b.ravel()
        ok = free[a] & free[b]
        pairs.append((a[ok], b[ok]))
    a = np.concatenate([p[0] for p in pairs])
    b = np.concatenate([p[1] for p in pairs])
    n = rows * cols
    adj = sp.csr_matrix((np.ones(2 * a.size, np.int8), (np.r_[a, b], np.r_[b, a])),
                        shape=(n, n))
    return adj, (rows, cols)


def sections(world: Maze | OccupancyGrid) -> Sections:
    """Split the cell graph into sections (corridors between junctions).

    Examples
    --------
    A T: a junction at (0, 1) with three one-cell arms.

    >>> m = Maze.from_edges(2, 3, [0, 1, 1], [1, 2, 4])
    >>> s = sections(m)
    >>> len(s), s.kinds, [c.tolist() for c in s.cells]
    (3, ['dead_end', 'dead_end', 'dead_end'], [[0, 1], [1, 2], [1, 4]])
    """
    adj, shape = _adjacency_of(world)
    adj = adj.tocsr()
    deg = np.diff(adj.indptr)
    nbrs = [adj.indices[adj.indptr[i]:adj.indptr[i + 1]] for i in range(adj.shape[0])]
    seen_edges: dict[tuple[int, int], int] = {}
    kinds, chains = [], []

    def walk(u: int, v: int) -> list[int]:
        chain = [u, v]
        prev, cur = u, v
        while deg[cur] == 2 and cur != u:
            a, b = nbrs[cur]
            prev, cur = cur, (b if a == prev else a)
            chain.append(cur)
        return chain

    def add(chain: list[int], kind: str) -> None:
        sid = len(kinds)
        for a, b in zip(chain[:-1], chain[1:]):
            seen_edges[(min(a, b), max(a, b))] = sid
        kinds.append(kind)
        chains.append(np.asarray(chain, dtype=np.int64))

    for u in np.flatnonzero(deg != 2):
        for v in nbrs[u]:
            if (min(u, v), max(u, v)) in seen_edges:
                continue
            chain = walk(int(u), int(v))
            add(chain, "dead_end" if deg[chain[0]] == 1 or deg[chain[-1]] == 1 else "corridor")
    # what is left are loops made only of degree-2 cells
    for u in np.flatnonzero(deg == 2):
        v = int(nbrs[u][0])
        if (min(u, v), max(u, v)) not in seen_edges:
            add(walk(int(u), v), "cycle")
    n = adj.shape[0]
    if seen_edges:
        keys = np.array(list(seen_edges.keys()), dtype=np.int64)
        vals = np.array(list(seen_edges.values()), dtype=np.int64) + 1
        es = sp.csr_matrix((np.r_[vals, vals], (np.r_[keys[:, 0], keys[:, 1]],
                                                 np.r_[keys[:, 1], keys[:, 0]])), shape=(n, n))
    else:
        es = sp.csr_matrix((n, n), dtype=np.int64)
    return Sections(shape=shape, kinds=kinds, cells=chains, edge_section=es)


@dataclass(frozen=True)
class TraversalScore:
    """The deviation report of one walk (see the module docstring).

    Attributes
    ----------
    summary : dict
        Keys :data:`SUMMARY_KEYS`.
    table_rows : list of dict
        One per section: ``section, kind, length, on_route, moves, optimal,
        error, wrong_turns, time``.
    cell_visits, cell_error, cell_time : ndarray, shape (rows, cols)
        Per maze cell: arrivals (the start counts once), errors of the moves
        arriving there, dwell seconds.
    region_time : ndarray, shape ``regions``
        Dwell seconds summed over blocks of the maze.
    sections : Sections
    """

    summary: dict
    table_rows: list
    cell_visits: np.ndarray
    cell_error: np.ndarray
    cell_time: np.ndarray
    region_time: np.ndarray
    sections: Sections
    route: np.ndarray = field(repr=False)

    def section_error(self, i: int) -> int:
        """Error of section ``i``."""
        return int(self.table_rows[i]["error"])

    def section_map(self, key: str = "error") -> np.ndarray:
        """``(rows, cols)`` float: each cell coloured by its section's ``key``.

        Node cells (shared by several sections) take the largest value of
        the sections they end; cells in no section are NaN.
        """
        out = np.full(self.sections.shape[0] * self.sections.shape[1], np.nan)
        for i, cells in enumerate(self.sections.cells):
            v = float(self.table_rows[i][key])
            cur = out[cells]
            out[cells] = np.where(np.isnan(cur), v, np.fmax(cur, v))
        return out.reshape(self.sections.shape)

    def table(self, *, all_sections: bool = False) -> str:
        """Plain-text table of the sections walked or on the optimal route."""
        head = ("section", "kind", "length", "on_route", "moves", "optimal", "error",
                "wrong_turns", "time")
        rows = [r for r in self.table_rows
                if all_sections or r["moves"] or r["on_route"]]
        cells = [[str(r[h]) if h != "time" else f"{r[h]:.2f}" for h in head] for r in rows]
        widths = [max(len(h), *(len(c[i]) for c in cells)) if cells else len(h)
                  for i, h in enumerate(head)]
        lines = ["  ".join(h.rjust(w) for h, w in zip(head, widths))]
        lines += ["  ".join(c.rjust(w) for c, w in zip(row, widths)) for row in cells]
        return "\n".join(lines)

    def to_dict(self) -> dict:
        """JSON-ready: summary, sections and per-cell arrays as nested lists."""
        return {"summary": self.summary, "sections": self.table_rows,
                "cell_visits": self.cell_visits.tolist(),
                "cell_error": self.cell_error.tolist(),
                "cell_time": np.round(self.cell_time, 6).tolist(),
                "region_time": np.round(self.region_time, 6).tolist()}


def score(record: TraversalRecord, *, regions: Sequence[int] = (2, 2)) -> TraversalScore:
    """Score a traversal record against the optimal route.

    Parameters
    ----------
    record : TraversalRecord
        Cell level, grid level on a widened maze (scored per maze cell), or
        grid level on a plain grid (scored per grid cell).
    regions : (int, int)
        Blocks the maze is split into for ``region_time``.

    Returns
    -------
    TraversalScore

    Examples
    --------
    >>> m = Maze.from_edges(1, 4, [0, 1, 2], [1, 2, 3], start=(0, 1), goals=[(0, 3)])
    >>> rec = TraversalRecord.from_cells(m, [(0, 1), (0, 0), (0, 1), (0, 2), (0, 3)])
    >>> s = score(rec).summary
    >>> s["moves"], s["optimal"], s["extra_moves"], s["wrong_turns"], s["dead_ends_entered"]
    (4, 2, 2, 1, 1)

    An unfinished walk has no extra moves or efficiency, but remaining and progress:

    >>> s = score(TraversalRecord.from_cells(m, [(0, 1), (0, 2)])).summary
    >>> s["reached_goal"], s["extra_moves"], s["efficiency"], s["remaining"], s["progress"]
    (False, None, None, 1, 1)
    """
    if not isinstance(record, TraversalRecord):
        raise ParameterError(f"record must be a TraversalRecord, got {type(record).__name__}")
    cells, times = record.maze_walk()
    world = record.maze if record.maze is not None else record.grid
    pitch = 1
    if record.level == "grid" and record.grid.widening is not None:
        pitch = record.grid.widening.pitch
    lvl = record.positions
    level_moves = int(np.any(lvl[1:] != lvl[:-1], axis=1).sum())
    rep = score_walk(world, cells, times, goals=record.goals, regions=regions,
                     end_time=record.duration)
    rep.summary.update(walker=record.walker.get("name") or record.walker.get("kind"),
                       level=record.level, bumps=record.n_bumps,
                       duration=float(record.duration), level_moves=level_moves, pitch=pitch,
                       hints=record.n_hints)
    return rep


def score_walk(world: Maze | OccupancyGrid, cells, times=None, *,
               goals: Sequence[Sequence[int]] | None = None,
               regions: Sequence[int] = (2, 2),
               end_time: float | None = None) -> TraversalScore:
    """Score a walk given as cells (start first) on a Maze or a plain grid.

    ``times`` are the arrival times (default 0, 1, 2...); ``goals`` default
    to the maze goals; ``end_time`` (default the last arrival) ends the dwell
    in the final cell. See :func:`score`.
    """
    cells = np.asarray(cells, dtype=np.int64).reshape(-1, 2)
    if len(cells) == 0:
        raise ParameterError("cells must hold at least the start cell")
    times = np.arange(len(cells), dtype=float) if times is None else np.asarray(times, float)
    if times.shape != (len(cells),):
        raise ParameterError(f"times must have one entry per cell ({len(cells)}), "
                             f"got {times.shape}")
    nr, nc = (check_int("regions", v, min_value=1) for v in regions)
    adj, shape = _adjacency_of(world)
    rows, cols = shape
    if goals is None:
        if not isinstance(world, Maze):
            raise ParameterError("goals are required to score a walk on a plain grid")
        goals = world.goals
    goal_idx = np.array([r * cols + c for r, c in goals], dtype=np.int64)
    if cells[:, 0].min() < 0 or cells[:, 0].max() >= rows or cells[:, 1].min() < 0 \
            or cells[:, 1].max() >= cols:
        raise ParameterError(f"walk leaves the {rows}x{cols} map")
    w = cells[:, 0] * cols + cells[:, 1]
    dist = csgraph.shortest_path(adj, unweighted=True, indices=goal_idx,
                                 directed=False).min(axis=0)
    if np.isinf(dist[w[0]]):
        raise ParameterError(f"no route from the start {tuple(cells[0])} to the goals")
    deg = np.diff(adj.tocsr().indptr)
    secs = sections(world)
    n_sec = len(secs)
    route = _route(adj, dist, int(w[0]))
    n = rows * cols
    goal_mask = np.zeros(n, bool)
    goal_mask[goal_idx] = True
    r_arr = np.asarray(route, dtype=np.int64)
    sec_opt = np.bincount(_edge_ids(secs, r_arr[:-1], r_arr[1:]), minlength=n_sec)[:n_sec]
    a, b = w[:-1], w[1:]
    sid = _edge_ids(secs, a, b)
    on = sid >= 0               # moves along a passage (always, unless the walk jumps)
    d = dist[w]
    # a move errs unless it reaches a cell closer to the goal than any before
    err = (d[1:] >= np.minimum.accumulate(d)[:-1]).astype(np.int64)
    away = d[1:] > d[:-1]
    begins = away & ~np.r_[False, away[:-1]]
    at_junction = (deg[a] >= 3) | (a == w[0])
    wrong_moves = begins & at_junction
    wrong = int(wrong_moves.sum())
    turnback = int((begins & ~at_junction).sum())
    first = np.zeros(len(w), bool)
    first[np.unique(w, return_index=True)[1]] = True
    revisits = int((~first[1:]).sum())
    dead_arrivals = b[(deg[b] == 1) & ~goal_mask[b]]
    dead = int(dead_arrivals.size)
    dt = np.diff(times)
    sec_moves = np.bincount(sid[on], minlength=n_sec)
    sec_err = np.bincount(sid[on], weights=err[on], minlength=n_sec).astype(np.int64)
    sec_wrong = np.bincount(sid[on & wrong_moves], minlength=n_sec)
    sec_time = np.bincount(sid[on], weights=dt[on], minlength=n_sec)
    visits = np.bincount(w, minlength=n).astype(np.int64)
    cell_err = np.bincount(b, weights=err, minlength=n).astype(np.int64)
    cell_time = np.zeros(n)
    dead_cells = set(dead_arrivals.tolist())
    goal_set = set(goal_idx.tolist())
    np.add.at(cell_time, w[:-1], np.diff(times))
    end = times[-1] if end_time is None else max(float(end_time), times[-1])
    cell_time[w[-1]] += end - times[-1]
    moves = len(w) - 1
    optimal = int(dist[w[0]])
    reached = w[-1] in goal_set
    on_route = np.zeros(n_sec, bool)
    on_route[sec_opt > 0] = True
    table = [{"section": i, "kind": secs.kinds[i], "length": secs.length(i),
              "on_route": bool(on_route[i]), "moves": int(sec_moves[i]),
              "optimal": int(sec_opt[i]), "error": int(sec_err[i]),
              "wrong_turns": int(sec_wrong[i]), "time": float(sec_time[i])}
             for i in range(n_sec)]
    ct = cell_time.reshape(shape)
    rb = np.minimum(np.arange(rows) * nr // rows, nr - 1)
    cb = np.minimum(np.arange(cols) * nc // cols, nc - 1)
    region = np.zeros((nr, nc))
    np.add.at(region, (rb[:, None].repeat(cols, 1), cb[None, :].repeat(rows, 0)), ct)
    total_err = int(cell_err.sum())
    summary = {
        "walker": "", "level": "cell", "reached_goal": bool(reached), "moves": moves,
        "optimal": optimal,
        # an unfinished walk has no route to compare: "extra -20, efficiency
        # 2.67" would be nonsense (moves < optimal) or flattering
        "extra_moves": (moves - optimal) if reached else None,
        "efficiency": (((optimal / moves) if moves else 1.0) if reached else None),
        "remaining": int(d[-1]), "progress": int(optimal - d.min()),
        "error": total_err, "revisits": revisits, "wrong_turns": wrong,
        "turnbacks": turnback, "dead_ends_entered": dead,
        "distinct_dead_ends": len(dead_cells), "bumps": 0,
        "duration": float(end - times[0]), "level_moves": moves, "pitch": 1,
        "sections": n_sec, "sections_with_error": int((sec_err > 0).sum()), "hints": 0,
    }
    return TraversalScore(summary=summary, table_rows=table,
                          cell_visits=visits.reshape(shape), cell_error=cell_err.reshape(shape),
                          cell_time=ct, region_time=region, sections=secs,
                          route=np.array([divmod(int(v), cols) for v in route]))


def _edge_ids(secs: Sections, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Section of each passage ``a[i]-b[i]`` (-1 where they are not adjacent)."""
    if len(a) == 0:
        return np.zeros(0, np.int64)
    return np.asarray(secs.edge_section[a, b]).ravel().astype(np.int64) - 1


def _route(adj: sp.csr_matrix, dist: np.ndarray, start: int,
           limit: int | None = None) -> list[int]:
    """One shortest route start -> nearest goal following ``dist`` downhill
    (its first ``limit`` steps only, when given: a hint)."""
    adj = adj.tocsr()
    route = [start]
    cur = start
    while dist[cur] > 0 and (limit is None or len(route) <= limit):
        nb = adj.indices[adj.indptr[cur]:adj.indptr[cur + 1]]
        cur = int(min(nb[dist[nb] == dist[cur] - 1]))
        route.append(cur)
    return route
