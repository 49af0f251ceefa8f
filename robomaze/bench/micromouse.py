"""The micromouse run kind of the benchmark: a cell-level mouse in a contest maze.

A sweep lists mouse solvers under ``run.mouse`` (names in
:data:`robomaze.micromouse.SOLVERS`: ``floodfill``, ``floodfill_time``
(exploring until the time-optimal route is proven), ``left_wall``,
``right_wall``, ``tremaux``) and, optionally, mouse profiles under
``run.profile`` (preset names of :data:`robomaze.micromouse.PROFILES` or
TOML files relative to the sweep file; default ``kerikun``). Such a run
needs no widening and no robot: the mouse drives the maze's cells with the
classic contest rules of :mod:`robomaze.micromouse` (search run from the
start, the fast run on the walls it learned). Every time of a fast run or
a route is its time-optimal driving under the run's profile
(:func:`robomaze.micromouse.fastest_route`: slalom turns, with or without
diagonals); the search time is the search walk stopping for every turn.
Options under ``[run.options.NAME]`` go to the solver (e.g. ``prove =
false`` or ``prove = "time"`` for flood fill); flood fill's fast run and
time proof use the run's profile.

Metrics of a mouse row (``row["metrics"]``)
-------------------------------------------
==================================  ============================================
``success``                         the solver's own success (flood fill:
                                    reached, proved the best route and came
                                    back)
``reached_goal``,                   search milestones
``proven``,
``returned``
``cells_explored``                  distinct cells visited in the search
``search_moves``,                   cells driven and 90-degree turns in the
``search_turns``                    search
``moves_to_goal``                   cells driven until the goal was first
                                    reached
``crashes``                         moves into walls (``collisions`` too)
``search_time``                     search run time estimate (s; the mouse stops
                                    to turn; the classic
                                    :class:`~robomaze.micromouse.MotionProfile`)
``search_time_profile``,            the search walk under the mouse profile
``search_distance_m``               (:func:`robomaze.micromouse.result.
                                    search_time`) and its length (cells x the
                                    profile's cell size)
``route_length``,                   the fast run the solver reports (cells,
``route_turns``                     turns)
``fast_run_time``                   the time-optimal route on the walls the
                                    mouse learned (unknown walls closed), no
                                    diagonals (s)
``fast_run_time_diagonal``          the same with diagonals (s)
``shortest_route_length``,          the shortest route of the true maze, fewest
``shortest_route_turns``            turns among those (what a flood-fill mouse
                                    that knew every wall would drive)
``shortest_route_time``,            its cells driven as fast as the profile
``shortest_route_time_diagonal``    allows, without / with diagonals (s)
``fastest_route_length``,           the best possible fast run: the
``fastest_route_turns``,            time-optimal route of the true maze
``fastest_route_time``              without diagonals (cells, turns, s)
``fastest_route_time_diagonal``     the best possible with diagonals (s)
``fast_run_ratio``,                 ``fast_run_time / fastest_route_time`` and
``fast_run_ratio_diagonal``         the same with diagonals (>= 1: the gap
                                    to the time-optimal route is ratio - 1)
``contest_score``                   ``fast_run_time + search_time / 30 + 10
                                    crashes`` (s, lower is better)
``mms_score``                       the mms simulator's score of the command log
                                    (lower is better)
``length_m``,                       fast-run and shortest route in metres (cell
``optimal_length_m``,               size 0.18 m), so the common tables can show
``length_ratio``                    them; ``route_length /
                                    shortest_route_length``
==================================  ============================================

All times are model estimates, deterministic, not wall-clock. The profile
of a row is its ``scenario.run.profile`` (absent: ``kerikun``).
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from .scenario import Scenario

__all__ = ["run_mouse", "shortest_route", "fastest_route", "mouse_outcome", "trace_poses",
           "MOUSE_METRICS"]

#: Every metric a mouse row holds (compared by ``bench compare`` too).
MOUSE_METRICS = (
    "reached_goal", "proven", "returned", "cells_explored", "search_moves", "search_turns",
    "moves_to_goal", "crashes", "search_time", "search_time_profile", "search_distance_m",
    "route_length", "route_turns", "fast_run_time",
    "fast_run_time_diagonal", "shortest_route_length", "shortest_route_turns", "shortest_route_time",
    "shortest_route_time_diagonal", "fastest_route_length", "fastest_route_turns",
    "fastest_route_time", "fastest_route_time_diagonal", "fast_run_ratio",
    "fast_run_ratio_diagonal", "contest_score", "mms_score",
)


def shortest_route(maze) -> list | None:
    """The shortest route of ``maze`` with every wall known (fewest turns among those).

    >>> from robomaze.maze import Maze
    >>> shortest_route(Maze.empty(2, 3, start=(1, 0), goals=[(0, 2)]))
    [(1, 0), (1, 1), (1, 2), (0, 2)]
    """
    from ..micromouse import WallMap, known_route, wall_array

    walls = wall_array(maze)
    rows, cols = maze.shape
    wm = WallMap(rows, cols)
    for r in range(rows):
        for c in range(cols):
            for side in (1, 2):  # east and south; set() mirrors to the neighbour
                wm.set((r, c), side, bool(walls[r, c, side]))
    return known_route(wm, maze.start, sorted(maze.goals))


def fastest_route(maze, profile=None) -> tuple[list, float] | None:
    """The minimum-time route of ``maze`` with every wall known, and its time (s).

    Exact for the 90-degree run-time model of
    :func:`robomaze.micromouse.run_time`: there a route's time is a sum over
    its straights (the first starts at rest from the start cell's centre, the
    last ends at rest in the goal cell's centre, the others run from corner
    to corner at ``turn_speed``) plus ``turn_time`` per corner, so a
    Dijkstra search over (corner cell, heading out of it) states, whose edges
    are one straight and one turn, finds the fastest route
    (:func:`scipy.sparse.csgraph.dijkstra` on that state graph). A straight ends
    at the first goal cell it enters. None if no goal is reachable.

    >>> from robomaze.maze import Maze
    >>> route, t = fastest_route(Maze.empty(3, 3, start=(2, 0), goals=[(0, 2)]))
    >>> len(route) - 1, round(t, 4)
    (4, 0.9271)
    """
    from ..micromouse import MotionProfile, wall_array
    from ..metrics.micromouse import segment_time
    from ..micromouse.world import DC, DR

    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import dijkstra

    p = profile or MotionProfile()
    walls = wall_array(maze)
    rows, cols = walls.shape[:2]
    goals = {tuple(g) for g in maze.goals}
    start = tuple(maze.start)
    if start in goals:
        return [start], 0.0
    half, cell = p.cell_size / 2, p.cell_size
    # states: 0 = at rest in the start cell, 1 = at rest in a goal cell, then
    # (corner cell, heading out of it) as 2 + 4 * (r * cols + c) + d
    origin, end = 0, 1
    edges: dict[tuple[int, int], tuple[float, int, int]] = {}   # (u, v) -> (time, d, k)

    def add(u, v, t, d, k):
        if t < edges.get((u, v), (math.inf,))[0]:
            edges[(u, v)] = (t, d, k)

    def straights(u, r0, c0, dirs, v_in, lead):
        for d in dirs:
            r, c, k = r0, c0, 0
            while not walls[r, c, d]:
                r, c, k = r + DR[d], c + DC[d], k + 1
                length = lead + (k - 1) * cell      # up to the entry edge of (r, c)
                if (r, c) in goals:
                    add(u, end, segment_time(length + half, v_in, 0.0, p), d, k)
                    break
                for d2 in ((d + 1) % 4, (d + 3) % 4):
                    if not walls[r, c, d2]:
                        add(u, 2 + 4 * (r * cols + c) + d2,
                            segment_time(length, v_in, p.turn_speed, p) + p.turn_time, d, k)

    straights(origin, *start, range(4), 0.0, half)
    for r in range(rows):
        for c in range(cols):
            for d in range(4):
                if not walls[r, c, d]:
                    straights(2 + 4 * (r * cols + c) + d, r, c, (d,), p.turn_speed, 0.0)
    n = 2 + 4 * rows * cols
    uv = np.array(list(edges), dtype=np.int64).reshape(-1, 2)
    # every edge time is > 0 (a straight or a turn takes time), so no edge is
    # lost to the sparse matrix's implicit zeros
    graph = csr_matrix((np.array([e[0] for e in edges.values()]), (uv[:, 0], uv[:, 1])),
                       shape=(n, n))
    dist, pred = dijkstra(graph, indices=origin, return_predecessors=True)
    if not np.isfinite(dist[end]):
        return None
    legs = []
    state = end
    while state != origin:
        prev = int(pred[state])
        _, d, k = edges[(prev, state)]
        legs.append((d, k))
        state = prev
    route = [start]
    for d, k in reversed(legs):
        r, c = route[-1]
        route += [(r + DR[d] * i, c + DC[d] * i) for i in range(1, k + 1)]
    return route, float(dist[end])


def _route_cells(route) -> list | None:
    """Maze cells as grid cells of the default widening (k = t = 1: cell (r, c)
    is grid cell (2r + 1, 2c + 1)), so example pictures can draw the route."""
    if not route:
        return None
    return [[2 * r + 1, 2 * c + 1] for r, c in route]


def _profile_of(scenario: Scenario):
    """The run's mouse profile (a preset name, or a TOML file relative to the sweep)."""
    import os

    from ..micromouse import PROFILES, get_profile
    name = scenario.spec["run"].get("profile") or "kerikun"
    if name not in PROFILES and (name.endswith(".toml") or os.sep in name):
        name = os.path.join(scenario.base_dir, name)
    return get_profile(name)


def _driven(route, maze, profile, diagonals: bool):
    """Seconds to drive a cell route as fast as ``profile`` allows inside its cells."""
    from ..micromouse import MouseRun
    rows, cols = maze.shape
    run = MouseRun(method="route", success=True, reason="", reached_goal=True, proven=False,
                   returned=False, moves=0, turns=0, crashes=0, moves_to_goal=None,
                   explored=np.zeros((rows, cols), bool), trace=[], route=route,
                   start=tuple(route[0]), goals=(tuple(route[-1]),))
    fast = run.fast_route(diagonals=diagonals, profile=profile)
    return None if fast is None else fast.cost_ms / 1000.0


def run_mouse(scenario: Scenario, row: dict) -> dict:
    """Run the scenario's mouse solver and fill ``row`` (returned)."""
    from ..errors import NoPathError
    from ..micromouse import MotionProfile, fastest_route as best_route, route_turns, solve
    from .run import build_grid

    spec = scenario.spec
    t0 = time.perf_counter()
    grid, _, _ = build_grid(scenario)
    maze = grid.maze
    mouse = _profile_of(scenario)
    t1 = time.perf_counter()
    options = dict(spec["run"]["options"])
    if spec["run"]["mouse"] in ("floodfill", "floodfill_time"):
        options.setdefault("profile", mouse)
    from .._compile import method_clock

    cpu0 = time.process_time()
    # the solver's thread CPU time, numba compiles taken out (as every row's)
    with method_clock() as clock:
        run = solve(maze, method=spec["run"]["mouse"], **options)
    t2 = time.perf_counter()
    profile = MotionProfile()
    s = run.summary(profile, mouse_profile=mouse)
    best = shortest_route(maze)
    m: dict[str, Any] = {k: s.get(k) for k in MOUSE_METRICS if k in s}
    if best is not None:
        m["shortest_route_length"] = len(best) - 1
        m["shortest_route_turns"] = route_turns(best)
        m["shortest_route_time"] = _driven(best, maze, mouse, False)
        m["shortest_route_time_diagonal"] = _driven(best, maze, mouse, True)
    for diag, suffix in ((False, ""), (True, "_diagonal")):
        try:
            fastest = best_route(maze, diagonals=diag, profile=mouse)
        except NoPathError:
            continue
        m["fastest_route_time" + suffix] = fastest.cost_ms / 1000.0
        if not diag:
            m["fastest_route_length"] = len(fastest.cells) - 1
            m["fastest_route_turns"] = route_turns(fastest.cells)
        fast, ideal = m.get("fast_run_time" + suffix), m["fastest_route_time" + suffix]
        m["fast_run_ratio" + suffix] = fast / ideal if fast is not None and ideal else None
    m["collisions"] = run.crashes
    length = run.route_length
    m["length_m"] = None if length is None else length * profile.cell_size
    m["optimal_length_m"] = None if best is None else (len(best) - 1) * profile.cell_size
    m["length_ratio"] = (length / (len(best) - 1) if run.success and length is not None
                         and best is not None and len(best) > 1 else None)
    m["success"] = bool(run.success)
    from .run import _json_number

    row["success"] = bool(run.success)
    row["outcome"] = mouse_outcome(run, reachable=best is not None)
    row["reason"] = None if run.success else (run.reason or "did not reach the goal")
    row["metrics"] = {k: _json_number(v) for k, v in m.items()}
    row["path"] = _route_cells(run.route)
    row["route"] = None if run.route is None else [[int(r), int(c)] for r, c in run.route]
    from .run import encode_poses

    row["poses"] = encode_poses(trace_poses(run.trace, maze.shape[0], profile.cell_size))
    t3 = time.perf_counter()
    row["timings"] = {"setup_s": t1 - t0, "optimal_s": t3 - t2, "method_s": t2 - t1,
                      "compute_s": clock.cpu_s, "compile_s": clock.compile_s,
                      "total_s": t3 - t0, "cpu_s": time.process_time() - cpu0}
    return row


def mouse_outcome(run, *, reachable: bool) -> str:
    """A mouse run's ``outcome`` in the failure taxonomy of :mod:`robomaze.bench.run`.

    ``success`` when the solver succeeded; ``no_path`` when no goal is
    reachable from the start; ``budget`` when it stopped at its move limit;
    ``gave_up`` otherwise (a wall follower circling an island, a search that
    did not prove its route).

    >>> from types import SimpleNamespace as R
    >>> mouse_outcome(R(success=False, reason="circles forever"), reachable=True)
    'gave_up'
    >>> mouse_outcome(R(success=False, reason="stopped at the move limit of 9 moves"), reachable=True)
    'budget'
    """
    if run.success:
        return "success"
    if not reachable:
        return "no_path"
    if "move limit" in str(run.reason or ""):
        return "budget"
    return "gave_up"


def trace_poses(trace, rows: int, cell_size: float) -> np.ndarray | None:
    """The search walk as poses (x, y, heading) at cell centres, in metres.

    Cell ``(r, c)`` has its centre at ``((c + 0.5) * s, (rows - r - 0.5) * s)``
    (row 0 is north, as in the grid); each pose faces the way the mouse
    moved into its cell (the first one the way it leaves).

    >>> trace_poses([(1, 0), (0, 0), (0, 1)], 2, 1.0).round(4).tolist()
    [[0.5, 0.5, 1.5708], [0.5, 1.5, 1.5708], [1.5, 1.5, 0.0]]
    """
    if not trace:
        return None
    t = np.asarray(trace, dtype=float).reshape(-1, 2)
    x = (t[:, 1] + 0.5) * cell_size
    y = (rows - t[:, 0] - 0.5) * cell_size
    head = np.zeros(len(t))
    if len(t) > 1:
        moved = np.arctan2(np.diff(y), np.diff(x))
        head[1:] = moved
        head[0] = moved[0]
    return np.column_stack([x, y, head])
