"""Run MovingAI scenario problems and compare with the stored optimal lengths.

Each problem is planned with :func:`robomaze.plan.plan` (by default
``method="astar"``, 8-connected, diagonals cost sqrt(2), no corner cutting
-- the MovingAI convention) on one grid loaded once. ``method="batch"``
instead runs the core engine's lengths-only 8-connected A* over the whole
batch (:func:`robomaze._search.path_lengths`: buffers allocated once, no
``Path`` objects built, a landmark heuristic): the same answers, several
times faster. ``"batch"`` is the default of :func:`run_scen_file` and
``robomaze movingai``.

Agreement rule
--------------
Each line is judged at the precision its stored number was printed with:
a length *agrees* when ``|length - optimal| <= unit + rtol * max(optimal,
1)``, where ``unit`` is one unit in the last digit the file printed
(:attr:`ScenProblem.optimal_unit`: ``1e-8`` for the current files'
``%.8f``, ``0.01`` for an older file's ``1234.57`` with ~6 significant
digits, whose last digit may be rounded or cut) and ``rtol`` an extra
relative slack, 0 by default. :attr:`ScenReport.rule` states the rule and
the units met.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .._validate import check_float, check_int
from ..errors import NoPathError, ParameterError
from ..grid import OccupancyGrid
from .movingai import ScenProblem, read_movingai, read_scen

__all__ = ["ScenReport", "run_scenarios", "run_scen_file", "agreement_rule"]


@dataclass(frozen=True)
class ScenReport:
    """Outcome of a batch: per-problem arrays plus totals."""

    problems: list
    lengths: np.ndarray        # NaN where no path was found
    optimal: np.ndarray
    agree: np.ndarray
    seconds: float
    method: str
    tolerance: np.ndarray = None
    rule: str = ""

    @property
    def n(self) -> int:
        return len(self.problems)

    @property
    def n_agree(self) -> int:
        return int(np.count_nonzero(self.agree))

    def worst(self, k: int = 5) -> list[tuple[int, float, float]]:
        """The ``k`` largest disagreements as ``(index, length, optimal)``."""
        diff = np.abs(np.nan_to_num(self.lengths, nan=np.inf) - self.optimal)
        order = np.argsort(-diff)[:k]
        return [(int(i), float(self.lengths[i]), float(self.optimal[i]))
                for i in order if not self.agree[i]]

    def summary(self) -> dict:
        return {"problems": self.n, "agree": self.n_agree, "disagree": self.n - self.n_agree,
                "seconds": self.seconds, "per_problem_ms": 1000 * self.seconds / max(self.n, 1),
                "method": self.method, "rule": self.rule}


def agreement_rule(units: np.ndarray, rtol: float) -> str:
    """The sentence saying how lengths were judged.

    >>> agreement_rule(np.array([1e-8, 1e-8, 0.01]), 0.0)
    '|length - stored| <= one unit in the last printed digit of the stored length (1e-08: 2 lines, 0.01: 1 line)'
    """
    vals, counts = np.unique(np.asarray(units, float), return_counts=True)
    parts = ", ".join(f"{v:g}: {c} line{'s' if c != 1 else ''}" for v, c in zip(vals, counts))
    extra = f" + {rtol:g} x max(stored, 1)" if rtol else ""
    return (f"|length - stored| <= one unit in the last printed digit of the stored "
            f"length{extra} ({parts})")


def run_scenarios(grid: OccupancyGrid, problems, *, method: str = "batch",
                  connectivity: int = 8, rtol: float = 0.0, progress=None) -> ScenReport:
    """Plan every problem on ``grid`` and compare with its stored optimum.

    Parameters
    ----------
    grid : OccupancyGrid
        The scenario's map (one grid cell per map character).
    problems : list of ScenProblem
    method : str
        ``"batch"`` (default) for the lengths-only kernel (8-connected
        only), or a planner of :data:`robomaze.plan.PLANNERS`.
    connectivity : {4, 8}
    rtol : float
        Relative slack added to the printed-precision rule (module notes).
    progress : callable, optional
        Called as ``progress(done, total)`` every 500 problems.
    """
    from ..plan import plan

    rtol = check_float("rtol", rtol, min_value=0.0)
    problems = list(problems)
    for i, p in enumerate(problems):
        if not isinstance(p, ScenProblem):
            raise ParameterError(f"problems[{i}] must be a ScenProblem, got {type(p).__name__}")
        if (p.height, p.width) != grid.shape:
            raise ParameterError(
                f"problem {i} is for a {p.width}x{p.height} map but the grid is "
                f"{grid.cols}x{grid.rows} (width x height)")
    lengths = np.full(len(problems), np.nan)
    optimal = np.array([p.optimal for p in problems], float)
    t0 = time.perf_counter()
    if method == "batch":
        if connectivity != 8:
            raise ParameterError(f"method 'batch' is 8-connected only, got connectivity="
                                 f"{connectivity!r}")
        from .._search import path_lengths
        cols = grid.cols
        starts = np.array([p.start[0] * cols + p.start[1] for p in problems], np.int64)
        goals = np.array([p.goal[0] * cols + p.goal[1] for p in problems], np.int64)
        lengths = path_lengths(grid.free, starts, goals)
        problems_iter = []
    else:
        problems_iter = problems
    for i, p in enumerate(problems_iter):
        try:
            path = plan(grid, p.start, p.goal, method=method, connectivity=connectivity)
            lengths[i] = path.length / grid.resolution
        except NoPathError:
            pass  # length stays NaN: counted as a disagreement with the stored optimum
        if progress is not None and (i + 1) % 500 == 0:
            progress(i + 1, len(problems))
    seconds = time.perf_counter() - t0
    units = np.array([p.optimal_unit for p in problems], float)
    tolerance = units + rtol * np.maximum(optimal, 1.0)
    agree = np.abs(lengths - optimal) <= tolerance
    return ScenReport(problems, lengths, optimal, agree, seconds, method, tolerance,
                      agreement_rule(units, rtol))


def run_scen_file(scen_path, *, map_path=None, limit: int | None = None, every: int = 1,
                  method: str = "batch", rtol: float = 0.0, progress=None) -> ScenReport:
    """Read a ``.scen`` file and its map and run (a subset of) its problems.

    The map is ``map_path`` or the map named in the scenario, looked up next
    to the scenario file. ``every`` keeps every k-th problem and ``limit`` the
    first ``limit`` of those.
    """
    problems = read_scen(scen_path)
    if not problems:
        raise ParameterError(f"{scen_path}: the scenario has no problems")
    every = check_int("every", every, min_value=1)
    problems = problems[::every]
    if limit is not None:
        problems = problems[:check_int("limit", limit, min_value=1)]
    if map_path is None:
        names = {p.map for p in problems}
        if len(names) != 1:
            raise ParameterError(f"{scen_path}: problems use several maps {sorted(names)}; "
                                 "pass the map explicitly")
        name = Path(names.pop())
        map_path = Path(scen_path).parent / name.name
        if not map_path.exists():
            raise ParameterError(f"map {str(map_path)!r} named by {scen_path} does not exist; "
                                 "pass it with --map")
    grid = read_movingai(map_path)
    return run_scenarios(grid, problems, method=method, rtol=rtol, progress=progress)
