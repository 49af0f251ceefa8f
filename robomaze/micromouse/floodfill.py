"""Modified flood fill: the search run, the proof of the best route, the fast run.

The mouse keeps a wall map (unknown / open / wall). Each step it senses the
walls of its cell, floods distances from the target cells over the map with
**unknown walls assumed open**, and moves to a neighbour one step closer
(preferring straight on). Because the map is optimistic, the flood's
distance is a lower bound; the mouse either reaches the target or learns a
wall, so the search always ends -- and if the target's flood distance from
the mouse becomes infinite, no unknown wall can save it: the goal is walled
off, which is reported (no loop, no hang).

Search run (``prove=True``): go to the goal; then, while the best route
start -> goal over unknown-as-open is shorter than the best over known open
passages only (unknown-as-closed), visit the nearest cell with an unknown
wall that lies on some optimistic shortest route; then go back to the
start. When the two lengths agree the known route is provably optimal.

Time proof (``prove="time"``): as above, but the two routes compared are the
*time-optimal* ones under the mouse profile (:func:`~robomaze.micromouse.
fastest_route`, with or without diagonals): while the fastest route with
unknown walls open is faster than the fastest with unknown walls closed, visit
the nearest cell with an unknown wall on the optimistic fastest route. A
cell's four walls are known once the mouse has stood in it, so every visit
removes unknowns from that route, and the search ends; when the two times
agree, the fast run on known walls is provably the fastest there is.

Fast run: the time-optimal route over known open passages only (unknown walls
closed) under the mouse profile; :func:`known_route` gives the shortest route
with the fewest turns instead.
"""

from __future__ import annotations

import numpy as np

from .._validate import check_int
from ..errors import NoPathError
from ..maze import Maze
from .. import _search as core
from ._kernels import OPEN, UNKNOWN, WALL
from ..metrics.micromouse import route_commands
from .result import MouseRun
from .world import DC, DR, MouseWorld

__all__ = ["floodfill", "floodfill_time", "WallMap", "known_route"]


class WallMap:
    """The mouse's wall knowledge: ``(rows*cols, 4)`` int8, consistent on both sides."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        k = np.zeros((rows, cols, 4), np.int8)
        k[0, :, 0] = WALL
        k[:, -1, 1] = WALL
        k[-1, :, 2] = WALL
        k[:, 0, 3] = WALL
        self.k = k.reshape(rows * cols, 4)

    def set(self, cell, side: int, wall: bool) -> None:
        r, c = cell
        st = WALL if wall else OPEN
        self.k[r * self.cols + c, side] = st
        rr, cc = r + DR[side], c + DC[side]
        if 0 <= rr < self.rows and 0 <= cc < self.cols:
            self.k[rr * self.cols + cc, (side + 2) % 4] = st

    def flood(self, cells, *, unknown_open: bool = True) -> np.ndarray:
        src = np.array([r * self.cols + c for r, c in cells], np.int32)
        return core.flood_edges(self.k, self.rows, self.cols, src, unknown_open)

    def array(self) -> np.ndarray:
        return self.k.reshape(self.rows, self.cols, 4).copy()


def _sense(world: MouseWorld, wm: WallMap) -> None:
    h = world.heading
    for rel in (0, 1, 3):
        side = (h + rel) % 4
        wm.set(world.cell, side, world.is_wall(side))


def _step(world: MouseWorld, wm: WallMap, dist: np.ndarray) -> None:
    """One move down the flood gradient (or a turn to look at an unknown side)."""
    r, c = world.cell
    u = r * wm.cols + c
    best = None
    for rel in (0, 1, 3, 2):            # straight first: fewer turns
        side = (world.heading + rel) % 4
        if wm.k[u, side] == WALL:
            continue
        rr, cc = r + DR[side], c + DC[side]
        if not (0 <= rr < wm.rows and 0 <= cc < wm.cols):
            continue
        d = dist[rr * wm.cols + cc]
        if d >= 0 and d == dist[u] - 1:
            best = side
            break
    if best is None:                    # cannot happen with a consistent flood
        raise RuntimeError("flood gradient has no downhill neighbour")
    world.face(best)
    if wm.k[u, best] == UNKNOWN:        # only the back side can be unsensed
        _sense(world, wm)
        return
    if not world.move_forward(1):       # map and world disagree: learn the wall
        wm.set(world.cell, best, True)
        return
    _sense(world, wm)


def _go(world: MouseWorld, wm: WallMap, targets, limit: int, *,
        dynamic=None) -> str:
    """Drive until on a target cell; returns "" or a failure reason."""
    while True:
        if dynamic is not None:
            targets = dynamic()
            if targets is None:
                return ""
        if world.cell in targets:
            if dynamic is None:
                return ""
            # Standing on a cell with an unsensed side (only ever its back):
            # look at it instead of walking away.
            world.face((world.heading + 2) % 4)
            _sense(world, wm)
            continue
        dist = wm.flood(targets)
        r, c = world.cell
        if dist[r * wm.cols + c] < 0:
            return "unreachable"
        if world.moves >= limit:
            return "move limit"
        _step(world, wm, dist)


def known_route(wm: WallMap, start, goals) -> list[tuple[int, int]] | None:
    """Shortest route over known open passages, fewest turns among those."""
    cols = wm.cols
    dg = wm.flood(goals, unknown_open=False)
    s = start[0] * cols + start[1]
    if dg[s] < 0:
        return None
    length = int(dg[s])
    ds = wm.flood([start], unknown_open=False)
    inf = 1 << 30
    # Layered DP over (cell, last heading) along shortest-route edges only.
    layer = {(s, -1): 0}
    back: dict[tuple[int, int], tuple[int, int] | None] = {(s, -1): None}
    for step in range(length):
        nxt: dict[tuple[int, int], int] = {}
        for (u, h), t in layer.items():
            r, c = divmod(u, cols)
            for side in range(4):
                if wm.k[u, side] != OPEN:
                    continue
                v = (r + DR[side]) * cols + c + DC[side]
                if ds[v] != step + 1 or dg[v] != length - step - 1:
                    continue
                t2 = t + (h >= 0 and side != h)
                if t2 < nxt.get((v, side), inf):
                    nxt[(v, side)] = t2
                    back[(v, side)] = (u, h)
        layer = nxt
    goal_set = {g[0] * cols + g[1] for g in goals}
    end = min(((t, key) for key, t in layer.items() if key[0] in goal_set), default=None)
    if end is None and length == 0:
        return [tuple(start)]
    state = end[1]
    route = []
    while state is not None:
        route.append(divmod(state[0], cols))
        state = back[state]
    return [tuple(map(int, x)) for x in reversed(route)]


def floodfill(maze: Maze, *, prove: "bool | str" = True, return_to_start: bool = True,
              max_moves: int | None = None, profile=None,
              diagonals: bool = False) -> MouseRun:
    """Run the modified flood-fill search (and plan the fast run) in ``maze``.

    Parameters
    ----------
    maze : Maze
        The true maze; the mouse starts at ``maze.start`` facing north and
        only learns walls by sensing.
    prove : bool or "time"
        Keep exploring after the goal until the shortest route is proven
        (True), or until the time-optimal route under ``profile`` is proven
        ("time"), or stop at the goal (False).
    return_to_start : bool
        Drive back to the start at the end of the search (as in contests).
    max_moves : int, optional
        Safety limit on cells driven (default ``50 * cells``).
    profile : str or MouseProfile, optional
        Mouse profile of the fast run (and of the time proof); default
        ``kerikun``.
    diagonals : bool
        The fast run (and the time proof) may use diagonals.

    Returns
    -------
    MouseRun
        ``success`` False with ``reason`` when the goal is walled off.

    Examples
    --------
    >>> run = floodfill(Maze.empty(3, 3, start=(2, 0), goals=[(0, 2)]))
    >>> run.success, run.route_length, run.proven
    (True, 4, True)
    >>> run.fast.route, run.fast.cost_ms
    (['S2', 'R90', 'S2'], 880.0)
    """
    if prove not in (True, False, "time"):
        from ..errors import ParameterError
        raise ParameterError(f"prove must be True, False or 'time', got {prove!r}")
    from .profile import get_profile
    from .route import RouteSearch, fastest_route
    mouse = get_profile(profile)
    rows, cols = maze.shape
    limit = 50 * rows * cols if max_moves is None else check_int("max_moves", max_moves,
                                                                  min_value=1)
    world = MouseWorld(maze)
    wm = WallMap(rows, cols)
    goals = set(maze.goals)
    start = maze.start
    _sense(world, wm)
    reason = _go(world, wm, goals, limit)
    reached = reason == ""
    moves_to_goal = world.moves if reached else None
    proven = False
    returned = False
    if reached and prove == "time":

        # one search object for the whole exploration: its tables and scratch
        # are built once, and it runs twice after every cell
        search = RouteSearch(rows, cols, diagonals=diagonals, profile=mouse)

        def targets():
            k = wm.k.reshape(rows, cols, 4)
            lo = search.route(k == WALL, start, goals)          # unknown walls open
            try:
                hi = search.route(k != OPEN, start, goals).cost_ms
            except NoPathError:
                hi = np.inf
            if hi == lo.cost_ms:
                return None
            unknown = (wm.k == UNKNOWN).any(axis=1)
            return {c for c in lo.cells if unknown[c[0] * cols + c[1]]}

        reason = _go(world, wm, None, limit, dynamic=targets)
        proven = reason == ""
    elif reached and prove:

        def targets():
            ds = wm.flood([start])
            dg = wm.flood(list(goals))
            s = start[0] * cols + start[1]
            lo = dg[s]
            hi = wm.flood(list(goals), unknown_open=False)[s]
            if hi == lo:
                return None
            on_route = (ds >= 0) & (dg >= 0) & (ds + dg == lo)
            unknown = (wm.k == UNKNOWN).any(axis=1)
            cand = np.flatnonzero(on_route & unknown)
            return {divmod(int(i), cols) for i in cand}

        reason = _go(world, wm, None, limit, dynamic=targets)
        proven = reason == ""
    if reached and return_to_start and reason == "":
        reason = _go(world, wm, {start}, limit)
        returned = reason == ""
    if reason == "unreachable":
        reason = (f"goal unreachable: walled off from the start (explored "
                  f"{int(world.visited.sum())} cells, {world.moves} moves)")
    elif reason == "move limit":
        reason = f"stopped at the move limit of {limit} moves"
    fast = None
    if reached:
        try:
            fast = fastest_route(wm.array(), start=start, goals=goals, diagonals=diagonals,
                                 profile=mouse)
        except NoPathError:
            fast = None
    route = None if fast is None else [tuple(c) for c in fast.cells]
    log = list(world.log)
    if route is not None and returned:
        # The fast run, its cells driven as one moveForward per straight
        # from the heading the mouse came home with.
        log += route_commands(route, world.heading)
    return MouseRun(method="floodfill", success=reason == "" and reached, reason=reason,
                    reached_goal=reached, proven=proven,
                    returned=returned, moves=world.moves, turns=world.turns,
                    crashes=world.crashes, moves_to_goal=moves_to_goal,
                    explored=world.visited.copy(), trace=list(world.trace),
                    known=wm.array(), route=route, log=log, start=start,
                    goals=tuple(maze.goals), fast=fast)


def floodfill_time(maze: Maze, **options) -> MouseRun:
    """Flood fill that explores until the time-optimal route is proven
    (:func:`floodfill` with ``prove="time"``; the other options as there).

    >>> run = floodfill_time(Maze.empty(3, 3, start=(2, 0), goals=[(0, 2)]))
    >>> run.method, run.proven, run.fast.cost_ms
    ('floodfill_time', True, 880.0)
    """
    from dataclasses import replace
    options.setdefault("prove", "time")
    return replace(floodfill(maze, **options), method="floodfill_time")
