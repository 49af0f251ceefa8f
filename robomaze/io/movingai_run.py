"""Run MovingAI scenario problems and compare with the stored optimal lengths.

Each problem is planned with :func:`robomaze.plan.plan` (by default
``method="astar"``, 8-connected, diagonals cost sqrt(2), no corner cutting
-- the MovingAI convention) on one grid loaded once. ``method="batch"``
instead runs the core engine's lengths-only 8-connected A* over the whole
batch (:func:`robomaze._search.path_lengths`: buffers allocated once, no
``Path`` objects built, a landmark heuristic): the same answers, several
times faster. A length *agrees* when ``|length - optimal| <= rtol *
max(optimal, 1)``; the files store 8 decimals, far finer than the default
``rtol = 1e-6``.
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

__all__ = ["ScenReport", "run_scenarios", "run_scen_file"]


@dataclass(frozen=True)
class ScenReport:
    """Outcome of a batch: per-problem arrays plus totals."""

    problems: list
    lengths: np.ndarray        # NaN where no path was found
    optimal: np.ndarray
    agree: np.ndarray
    seconds: float
    method: str

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
                "method": self.method}


def run_scenarios(grid: OccupancyGrid, problems, *, method: str = "astar",
                  connectivity: int = 8, rtol: float = 1e-6, progress=None) -> ScenReport:
    """Plan every problem on ``grid`` and compare with its stored optimum.

    Parameters
    ----------
    grid : OccupancyGrid
        The scenario's map (one grid cell per map character).
    problems : list of ScenProblem
    method : str
        A planner of :data:`robomaze.plan.PLANNERS`, or ``"batch"`` for the
        lengths-only kernel (8-connected only).
    connectivity : {4, 8}
    rtol : float
        Relative tolerance of the comparison.
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
    agree = np.abs(lengths - optimal) <= rtol * np.maximum(optimal, 1.0)
    return ScenReport(problems, lengths, optimal, agree, seconds, method)


def run_scen_file(scen_path, *, map_path=None, limit: int | None = None, every: int = 1,
                  method: str = "astar", rtol: float = 1e-6, progress=None) -> ScenReport:
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
