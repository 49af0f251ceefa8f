"""The record of one mouse run (search and fast run), shared by all solvers."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["MouseRun"]


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
        :func:`~robomaze.micromouse.metrics.mms_stats`.
    start, goals
        The start and goal cells the run used (for scoring the log).
    goal_rule : {"file", "mms"}
        Where the goals came from: the maze file's goal cells, or mms's rule
        (the maze's centre cells).
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
        from .metrics import route_turns
        return None if self.route is None else route_turns(self.route)

    def summary(self, profile=None) -> dict:
        """The community's comparison figures, run-time estimates and scores.

        ``contest_score`` (seconds) and ``mms_score`` (mms's panel score,
        when the run has a command log) are defined in
        :mod:`robomaze.micromouse.metrics`.
        """
        from .metrics import MotionProfile, contest_score, mms_stats, run_time
        profile = profile or MotionProfile()
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
        d["fast_run_time"] = run_time(self.route, profile) if self.route else None
        d["contest_score"] = (contest_score(d["fast_run_time"], d["search_time"], self.crashes)
                              if d["fast_run_time"] is not None else None)
        if self.log is not None and self.start is not None and self.goals:
            stats = mms_stats(self.log, self.start, self.goals)
            d["mms_score"] = stats["score"]
            d["mms_best_run_turns"] = stats["best_run_turns"]
            d["mms_best_run_effective_distance"] = stats["best_run_effective_distance"]
        d.update(self.extra)
        return d
