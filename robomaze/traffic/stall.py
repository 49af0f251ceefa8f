"""Deadlock and livelock: robots that stop getting closer to their goals.

A robot is *stalled* when its distance to go (its goal field, metres along
the maze) has not dropped ``distance`` below its best for ``window``
seconds. A run whose unfinished robots are all stalled cannot end by
itself: it is reported as a ``deadlock`` -- of kind ``deadlock`` when those
robots (nearly) stand still over the window, ``livelock`` when they keep
moving without progress -- instead of running into the step budget.

>>> s = StallDetector(1, window=1.0, distance=0.1)
>>> for t in range(30):
...     s.update(t * 0.1, [5.0], [0.0], [False])
>>> s.stalled.tolist(), s.kind()
([True], 'deadlock')
"""

from __future__ import annotations

import numpy as np

__all__ = ["StallDetector"]


class StallDetector:
    """Per-robot progress bookkeeping (see the module docstring).

    ``moving_speed``: a stalled robot whose mean speed over its window is
    above this (m/s) is live-locked rather than dead-locked.
    """

    def __init__(self, n: int, *, window: float, distance: float,
                 moving_speed: float = 0.02) -> None:
        self.window = float(window)
        self.distance = float(distance)
        self.moving_speed = float(moving_speed)
        self.best = np.full(n, np.inf)
        self.since = np.zeros(n)
        self.travel = np.zeros(n)
        self.stalled = np.zeros(n, bool)
        self._t = 0.0

    def update(self, time: float, to_go, moved, done) -> None:
        """Record the state at ``time``: distance to go, metres moved this step, arrived flags."""
        to_go = np.asarray(to_go, float)
        done = np.asarray(done, bool)
        better = to_go < self.best - self.distance
        self.best = np.where(better, to_go, self.best)
        self.since = np.where(better | done, time, self.since)
        self.travel = np.where(better | done, 0.0, self.travel + np.asarray(moved, float))
        self.stalled = ~done & (time - self.since >= self.window)
        self._t = time

    def all_stalled(self, done) -> bool:
        """Whether at least one robot is unfinished and every unfinished one is stalled."""
        open_ = ~np.asarray(done, bool)
        return bool(open_.any() and self.stalled[open_].all())

    def kind(self) -> str:
        """``deadlock`` or ``livelock`` for the stalled robots (mean speed over the window)."""
        sel = self.stalled
        if not sel.any():
            return "none"
        speed = self.travel[sel] / np.maximum(self._t - self.since[sel], 1e-12)
        return "livelock" if float(np.mean(speed)) > self.moving_speed else "deadlock"
