"""The record of one mouse run (search and fast run), shared by all solvers."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["MouseRun", "search_time"]


def search_time(trace, profile=None) -> float:
    """Seconds to drive a search walk under a mouse profile.

    Every straight of ``n`` cells takes ``t(n cell)`` along the walls (the
    profile's straight-time formula, from and back to its turn speed) and
    every 90-degree turn one ``small_turn`` (a U-turn two): the search mouse
    turns inside cells, as in the library's ``runs`` model.

    >>> from robomaze.micromouse.profile import get_profile, straight_time
    >>> p = get_profile("simple")
    >>> t = search_time([(2, 0), (1, 0), (0, 0), (0, 1)], p)
    >>> t == straight_time(360, 700, 6000, 3000) + 0.25 + straight_time(180, 700, 6000, 3000)
    True
    """
    from ..metrics.micromouse import route_straights, route_turns
    from .profile import get_profile, straight_time
    p = get_profile(profile)
    if len(trace) < 2:
        return 0.0
    t = sum(straight_time(n * p.cell_mm, p.turn_speed, p.along_accel, p.along_max_speed)
            for n in route_straights(trace))
    return t + route_turns(trace) * p.small_turn / 1000.0


@dataclass(frozen=True, eq=False)
class MouseRun:
    """What a mouse did in a maze and what it learned.

    Attributes
    ----------
    method : str
        Solver name (or ``"external"`` for a hosted program).
    success : bool
        The mouse reached the goal (and, when asked, proved the best route
        and came back).
    reason : str
        Why the run failed ("" on success).
    reached_goal, proven, returned : bool
        Search milestones: the goal was reached; the best route was proven
        optimal (the best route with unknown walls open equals the best one
        on known walls only); the mouse came back to the start.
    moves, turns, crashes : int
        Cells driven, 90-degree turns and crashes during the search.
    moves_to_goal : int or None
        Cells driven until the goal was first reached.
    explored : ndarray of bool, shape (rows, cols)
        Cells the mouse visited.
    trace : list of (row, col)
        Every cell in visiting order (the search walk).
    known : ndarray of int8, shape (rows, cols, 4) or None
        Wall knowledge (0 unknown, 1 open, 2 wall; sides N, E, S, W).
    route : list of (row, col) or None
        The fast-run route, start to goal, on known walls only.
    extra : dict
        Solver-specific figures (the host's exit status, stderr...).
    log : list or None
        Command log (``("T",)``, ``("F", cells)``, ``("R",)``) of the search
        and, where the solver drives it, the fast run; scored by
        :func:`~robomaze.metrics.micromouse.mms_stats`.
    start, goals
        The start and goal cells the run used (for scoring the log).
    goal_rule : {"file", "mms"}
        Where the goals came from: the maze file's goal cells, or mms's rule
        (the maze's centre cells).
    fast : FastRoute or None
        The fast run the solver drove (flood fill: the time-optimal route on
        the walls it learned, :func:`~robomaze.micromouse.fastest_route`).
    """

    method: str
    success: bool
    reason: str
    reached_goal: bool
    proven: bool
    returned: bool
    moves: int
    turns: int
    crashes: int
    moves_to_goal: int | None
    explored: np.ndarray
    trace: list
    known: np.ndarray | None = None
    route: list | None = None
    extra: dict = field(default_factory=dict)
    log: list | None = None
    start: tuple | None = None
    goals: tuple = ()
    goal_rule: str = "file"
    fast: object = None

    @property
    def cells_explored(self) -> int:
        """Distinct cells visited during the search."""
        return int(np.count_nonzero(self.explored))

    @property
    def route_length(self) -> int | None:
        """Moves (cells driven) of the fast run, or None."""
        return None if self.route is None else len(self.route) - 1

    @property
    def route_turns(self) -> int | None:
        """Direction changes along the fast-run route, or None."""
        from ..metrics.micromouse import route_turns
        return None if self.route is None else route_turns(self.route)

    def fast_route(self, *, diagonals: bool = False, profile=None):
        """The time-optimal route on the walls the mouse learned (unknown walls
        closed), or None (goal not reached, nothing known, no known route).

        A hosted mouse reports no wall map: its own fast-run route is driven
        as fast as the profile allows inside that route's cells.
        """
        from ..errors import NoPathError
        from .route import fastest_route
        if not self.reached_goal or self.start is None:
            return None
        known = self.known
        if known is None:
            if not self.route:
                return None
            known = np.ones(self.explored.shape + (4,), bool)
            for (r0, c0), (r1, c1) in zip(self.route[:-1], self.route[1:]):
                side = {(-1, 0): 0, (0, 1): 1, (1, 0): 2, (0, -1): 3}.get((r1 - r0, c1 - c0))
                if side is not None:
                    known[r0, c0, side] = known[r1, c1, (side + 2) % 4] = False
        try:
            return fastest_route(known, start=self.start, goals=self.goals,
                                 diagonals=diagonals, profile=profile, unknown_open=False)
        except NoPathError:
            return None

    def summary(self, profile=None, *, mouse_profile=None) -> dict:
        """The community's comparison figures, run-time estimates and scores.

        ``search_time`` is the search walk under ``profile`` (a
        :class:`~robomaze.micromouse.MotionProfile`, stopping for every turn),
        ``search_time_profile`` and ``search_distance_m`` the same walk under
        the mouse profile (:func:`search_time`);
        ``fast_run_time`` / ``fast_run_time_diagonal`` are the time-optimal
        routes on the learned walls under ``mouse_profile`` (a
        :class:`~robomaze.micromouse.MouseProfile`, preset name or TOML file;
        default ``kerikun``), without and with diagonals, in seconds.
        ``contest_score`` (seconds) and ``mms_score`` (mms's panel score,
        when the run has a command log) are defined in
        :mod:`robomaze.metrics.micromouse`.
        """
        from ..metrics.micromouse import MotionProfile, contest_score, mms_stats, run_time
        from .profile import get_profile
        profile = profile or MotionProfile()
        mouse = get_profile(mouse_profile)
        d = {
            "method": self.method, "success": self.success, "reason": self.reason,
            "goal_rule": self.goal_rule,
            "reached_goal": self.reached_goal, "proven": self.proven,
            "returned": self.returned, "cells_explored": self.cells_explored,
            "search_moves": self.moves, "search_turns": self.turns,
            "moves_to_goal": self.moves_to_goal, "crashes": self.crashes,
            "route_length": self.route_length, "route_turns": self.route_turns,
        }
        d["search_time"] = run_time(self.trace, profile, stop_at_turns=True) \
            if len(self.trace) > 1 else 0.0
        d["search_distance_m"] = self.moves * mouse.cell_mm / 1000.0
        d["search_time_profile"] = search_time(self.trace, mouse)
        d["profile"] = mouse.name
        ortho = self.fast_route(diagonals=False, profile=mouse)
        diag = self.fast_route(diagonals=True, profile=mouse)
        d["fast_run_time"] = None if ortho is None else ortho.cost_ms / 1000.0
        d["fast_run_time_diagonal"] = None if diag is None else diag.cost_ms / 1000.0
        d["fast_run_route"] = None if ortho is None else " ".join(ortho.route)
        d["fast_run_route_diagonal"] = None if diag is None else " ".join(diag.route)
        d["contest_score"] = (contest_score(d["fast_run_time"], d["search_time"], self.crashes)
                              if d["fast_run_time"] is not None else None)
        if self.log is not None and self.start is not None and self.goals:
            stats = mms_stats(self.log, self.start, self.goals)
            d["mms_score"] = stats["score"]
            d["mms_best_run_turns"] = stats["best_run_turns"]
            d["mms_best_run_effective_distance"] = stats["best_run_effective_distance"]
        d.update(self.extra)
        return d
