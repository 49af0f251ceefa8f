"""Work-counted budgets and anytime progress for the OMPL planners.

A run's budget is a number of validity checks: OMPL evaluates the
termination condition between its iterations, in the solving thread, and
the condition compares the lookup's check counter with the budget, so the
same seed stops at the same iteration on any machine under any load. A
wall-clock ``time_limit`` is only a safety net: when it fires before the
check budget the result would depend on the machine, so the planner
raises :class:`WallClockLimitError` instead of returning a path (the
benchmark turns it into ``infra_timeout``). Without a check budget the
clock *is* the budget and the result says so (``stopped_by="time"``).

:class:`Progress` records the anytime curve: one sample ``(time, best
cost, validity checks)`` whenever the planner's best cost falls, probed at
every evaluation of the termination condition (the bindings cannot pass
a Python intermediate-solution callback), or when the first solution
ends the search.
The time column is the solving thread's CPU time since the budget
started (:func:`robomaze._compile.cpu_now`, numba compiles taken out): the
clock of the run's own ``compute_s``, so no sample and no first solution
lies past the run's time. It is measured (it varies a little from run to
run); the check column and the cost are reproducible. Only the safety net
reads the wall clock, and it is never reported as a time.

Validity checks are not the only work: a planner may iterate, or check
motions, while hardly ever checking a state (a car of a tiny turning radius
whose distances overflow finds no neighbour to extend). So the budget also
ends a run after ``max_checks`` checked motions (each motion checks at least
its end state, so this never ends a normal run first) or
:data:`ITERATIONS_PER_CHECK` ``* max_checks`` evaluations of the
termination condition (about one per planner iteration; BIT* makes 1.25
per check on a maze): ``stopped_by`` says ``"motions"`` or ``"iterations"``.

>>> b = WorkBudget(max_checks=10, time_limit=None)
>>> counter = type("Look", (), {"checks": 0})()
>>> b.start(counter)
>>> b.stop(), b.stopped_by
(False, None)
>>> counter.checks = 10
>>> b.stop(), b.stopped_by
(True, 'checks')
"""

from __future__ import annotations

import math
import time as _time

from ..._compile import cpu_now
from ...errors import ParameterError, RobomazeError

__all__ = ["WorkBudget", "Progress", "WallClockLimitError", "PROGRESS_PROPERTIES",
           "ITERATIONS_PER_CHECK"]

#: Evaluations of the termination condition a run may make per validity
#: check of its budget (see the module notes).
ITERATIONS_PER_CHECK = 16

#: Name and OMPL log type of each column of a progress sample.
PROGRESS_PROPERTIES = (("time", "REAL"), ("best cost", "REAL"), ("validity checks", "INTEGER"))


class WallClockLimitError(RobomazeError, TimeoutError):
    """The wall-clock safety net fired before the work budget was spent.

    Not a planning result (not a :class:`~robomaze.errors.NoPathError`):
    the same seed and budget on an idle machine would have run on, so a
    benchmark records it as an infrastructure timeout. ``checks`` and
    ``elapsed`` say how far it got.
    """

    def __init__(self, message: str, *, checks: int = 0, elapsed: float = 0.0) -> None:
        super().__init__(message)
        self.checks = checks
        self.elapsed = elapsed


class WorkBudget:
    """Stop when ``max_checks`` validity checks are spent (or the safety net fires).

    Parameters
    ----------
    max_checks : int or None
        The budget in validity checks; None: the clock is the budget.
    time_limit : float or None
        Seconds; a safety net when ``max_checks`` is given. At least one
        of the two is required.
    """

    def __init__(self, *, max_checks: int | None, time_limit: float | None) -> None:
        if max_checks is None and time_limit is None:
            raise ParameterError("an OMPL run needs a budget: max_checks (validity checks) or "
                                 "time_limit (seconds), got neither")
        self.max_checks = max_checks
        self.time_limit = time_limit
        self.stopped_by: str | None = None
        self.counter = None
        self.t0 = 0.0
        self.wall0 = 0.0
        self.cap = max_checks
        #: called at every evaluation (the anytime planners' best-cost probe)
        self.poll = None
        #: evaluations of the termination condition so far
        self.iterations = 0
        #: a callable returning the motions checked so far (None: not counted)
        self.motions = None

    def start(self, counter) -> None:
        """Start the clocks; ``counter.checks`` is the work done so far."""
        self.counter = counter
        self.t0 = cpu_now()
        self.wall0 = _time.perf_counter()
        self.stopped_by = None
        self.iterations = 0

    def elapsed(self) -> float:
        """CPU seconds of the solving thread since :meth:`start` (the reported clock)."""
        return cpu_now() - self.t0

    def wall_elapsed(self) -> float:
        """Wall seconds since :meth:`start`: only the safety net reads this."""
        return _time.perf_counter() - self.wall0

    def stop(self) -> bool:
        """The termination condition: True once the budget is spent."""
        if self.poll is not None:
            self.poll()
        self.iterations += 1
        if self.cap is not None and self.counter.checks >= self.cap:
            self.stopped_by = "checks"
            return True
        if self.max_checks is not None:
            if self.iterations >= ITERATIONS_PER_CHECK * self.max_checks:
                self.stopped_by = "iterations"
                return True
            if self.motions is not None and self.motions() >= self.max_checks:
                self.stopped_by = "motions"
                return True
        if self.time_limit is not None and self.wall_elapsed() >= self.time_limit:
            self.stopped_by = "time" if self.max_checks is None else "time_limit"
            return True
        return False

    def spent(self) -> bool:
        """The budget is spent (without recording why)."""
        return ((self.cap is not None and self.counter.checks >= self.cap)
                or (self.max_checks is not None and (
                    self.iterations >= ITERATIONS_PER_CHECK * self.max_checks
                    or (self.motions is not None and self.motions() >= self.max_checks)))
                or (self.time_limit is not None and self.wall_elapsed() >= self.time_limit))

    def raise_if_wall_clock(self, what: str) -> None:
        """Raise :class:`WallClockLimitError` when the safety net ended the run."""
        if self.stopped_by == "time_limit":
            raise WallClockLimitError(
                f"{what}: the wall-clock safety net time_limit={self.time_limit:g} s fired after "
                f"{self.counter.checks} of max_checks={self.max_checks} validity checks; the "
                f"result would depend on the machine's load, so none is returned (raise "
                f"time_limit or lower max_checks)", checks=self.counter.checks,
                elapsed=self.wall_elapsed())


class Progress:
    """Best cost over the run: samples ``[time_s, best_cost, checks]``, cost strictly falling.

    ``time_s`` is thread CPU time since ``t0`` (a :func:`~robomaze._compile.cpu_now`
    reading, the budget's start).

    >>> p = Progress(type("Look", (), {"checks": 5})(), t0=0.0)
    >>> p.add(3.0, t=0.1); p.add(3.0, t=0.2); p.add(2.5, t=0.3)
    >>> [s[1:] for s in p.samples]
    [[3.0, 5], [2.5, 5]]
    """

    def __init__(self, counter, *, t0: float) -> None:
        self.counter = counter
        self.t0 = t0
        self.samples: list[list] = []

    @property
    def best(self) -> float:
        return self.samples[-1][1] if self.samples else math.inf

    def add(self, cost: float, *, t: float | None = None) -> None:
        """Record a solution of ``cost`` if it beats the best so far."""
        cost = float(cost)
        if not math.isfinite(cost) or cost >= self.best:
            return
        now = cpu_now() - self.t0 if t is None else t
        # the clock has a finite tick: keep the column non-decreasing
        if self.samples and now < self.samples[-1][0]:
            now = self.samples[-1][0]
        self.samples.append([float(now), cost, int(self.counter.checks)])

    def as_dict(self) -> dict:
        """JSON-ready: ``{"properties": [...], "samples": [[t, cost, checks], ...]}``."""
        return {"properties": [f"{n} {t}" for n, t in PROGRESS_PROPERTIES],
                "samples": [list(s) for s in self.samples]}
