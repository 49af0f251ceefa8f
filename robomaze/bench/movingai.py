"""Run MovingAI scenario problems and compare with the stored optimal lengths.

Each problem is planned with :func:`robomaze.plan.plan` (by default
``method="astar"``, 8-connected, diagonals cost sqrt(2), no corner cutting
-- the MovingAI convention) on one grid loaded once. ``method="batch"``
instead runs the core engine's lengths-only 8-connected A* over the whole
batch (:func:`robomaze._search.path_lengths`: buffers allocated once, no
``Path`` objects built; tree distances when the free graph is a forest, as
on perfect mazes of corridor 1, a min-plus sweep along the tree path when
the free space is a tree of rectangles, as on widened perfect mazes of any
corridor and wall width, else A* with a landmark heuristic): the
same answers, several times faster. ``"batch"`` is the default of :func:`run_scen_file` and
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

Older files computed their lengths with a rounded sqrt(2) (9 digits, say)
and printed them to 8 decimals: a diagonal-heavy length of 1000 is then
off by up to ~3e-7, far beyond its last digit. No tolerance needs guessing:
each planned length is ``a + b sqrt(2)`` for whole ``a`` straight and ``b``
diagonal moves (:func:`octile_counts`), so the file's own constant is
fitted -- the value of sqrt(2) that the most lines' ``(stored - a) / b``
allow, within half a printed unit (:func:`fit_sqrt2`) -- and a line also
agrees when ``|a + b s - stored| <= unit`` for that fitted ``s``. The fit is
used only when it lies within :data:`SQRT2_FIT_BOUND` of sqrt(2) (a
rounded sqrt(2), not another diagonal cost); :attr:`ScenReport.sqrt2`
reports it and :attr:`ScenReport.rule` says how many lines each rule
accepted. A length wrong by more than a unit still disagrees under both.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .._validate import check_float, check_int
from ..errors import NoPathError, ParameterError
from ..grid import OccupancyGrid
from ..io.movingai import ScenProblem, read_scen
from ..world import load_file

__all__ = ["ScenReport", "run_scenarios", "run_scen_file", "agreement_rule", "octile_counts",
           "fit_sqrt2", "SQRT2_FIT_BOUND"]

SQRT2 = 2.0 ** 0.5
#: A constant fitted from a file counts as "its sqrt(2)" only this close to
#: sqrt(2) (six correct decimals or better).
SQRT2_FIT_BOUND = 1e-6
#: |L - (a + b sqrt 2)| below which a planned length is taken as ``a + b sqrt 2``
#: (distinct pairs of move counts differ by far more for any grid path).
_COUNT_TOL = 1e-7


@dataclass(frozen=True)
class ScenReport:
    """Outcome of a batch: per-problem arrays plus totals."""

    problems: list
    lengths: np.ndarray        # NaN where no path was found
    optimal: np.ndarray
    agree: np.ndarray
    seconds: float             # CPU time of the searches, compilation excluded
    method: str
    tolerance: np.ndarray = None
    rule: str = ""
    #: The sqrt(2) fitted from the file when some lines agree only by it.
    sqrt2: float | None = None
    #: Lines that agree only for the fitted sqrt(2).
    n_by_fit: int = 0
    #: Seconds numba spent compiling during the batch (not in ``seconds``).
    compile_seconds: float = 0.0

    @property
    def n(self) -> int:
        return len(self.problems)

    @property
    def n_agree(self) -> int:
        return int(np.count_nonzero(self.agree))

    def worst(self, k: int = 5) -> list[tuple[int, float, float]]:
        """The ``k`` largest disagreements as ``(index, length, optimal)``."""
        diff = np.abs(np.nan_to_num(self.lengths, nan=np.inf) - self.optimal)
        bad = np.flatnonzero(~self.agree)
        order = bad[np.argsort(-diff[bad], kind="stable")][:k]
        return [(int(i), float(self.lengths[i]), float(self.optimal[i])) for i in order]

    def summary(self) -> dict:
        return {"problems": self.n, "agree": self.n_agree, "disagree": self.n - self.n_agree,
                "seconds": self.seconds, "per_problem_ms": 1000 * self.seconds / max(self.n, 1),
                "method": self.method, "rule": self.rule, "sqrt2": self.sqrt2,
                "agree_by_fitted_sqrt2": self.n_by_fit, "compile_seconds": self.compile_seconds}


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


def octile_counts(lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Whole straight and diagonal move counts ``(a, b)`` with ``a + b sqrt(2)``
    equal to each length (-1, -1 where none is, e.g. NaN for no path).

    >>> a, b = octile_counts(np.array([3 + 4 * 2 ** 0.5, 7.0, 0.5]))
    >>> a.tolist(), b.tolist()
    ([3, 7, -1], [4, 0, -1])
    """
    lengths = np.asarray(lengths, float)
    a = np.full(lengths.shape, -1, np.int64)
    b = np.full(lengths.shape, -1, np.int64)
    for i, L in enumerate(lengths):
        if not np.isfinite(L) or L < 0 or L > 1e7:
            continue
        bs = np.arange(int(L / SQRT2 + 1e-9) + 1)
        rest = L - bs * SQRT2
        near = np.abs(rest - np.rint(rest)) <= _COUNT_TOL * max(1.0, L)
        if near.any():
            k = int(np.argmax(near))
            a[i], b[i] = int(np.rint(rest[k])), int(bs[k])
    return a, b


def fit_sqrt2(a: np.ndarray, b: np.ndarray, stored: np.ndarray,
              units: np.ndarray) -> tuple[float | None, int]:
    """The sqrt(2) a file's lengths were computed with: the value inside the
    most intervals ``[(stored - a - unit/2) / b, (stored - a + unit/2) / b]``
    (lines with ``b > 0``), and how many lines allow it; ``(None, 0)`` if no
    line has a diagonal move.

    >>> s = 1.41421356
    >>> b = np.array([10, 250, 999]); a = np.array([3, 0, 7])
    >>> stored = np.round(a + b * s, 8)
    >>> value, n = fit_sqrt2(a, b, stored, np.full(3, 1e-8))
    >>> abs(value - s) < 1e-11, n
    (True, 3)
    """
    m = b > 0
    if not m.any():
        return None, 0
    lo = (stored[m] - a[m] - units[m] / 2) / b[m]
    hi = (stored[m] - a[m] + units[m] / 2) / b[m]
    # sweep: +1 at each lower end, -1 after each upper end; the deepest point wins
    ends = np.concatenate([lo, hi])
    kind = np.concatenate([np.zeros(len(lo), np.int8), np.ones(len(hi), np.int8)])
    order = np.lexsort((kind, ends))
    depth = np.cumsum(np.where(kind[order] == 0, 1, -1))
    best = int(np.argmax(depth))
    left = ends[order][best]
    right = ends[order][best + 1] if best + 1 < len(order) else left
    return float((left + right) / 2), int(depth[best])


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
    from .._compile import method_clock

    # the reported time is the searches' CPU time: numba compiling on a cold
    # cache is measured apart (compile_seconds), never per problem
    clock = method_clock().__enter__()
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
    clock.__exit__(None, None, None)
    seconds = clock.cpu_s
    units = np.array([p.optimal_unit for p in problems], float)
    tolerance = units + rtol * np.maximum(optimal, 1.0)
    agree = np.abs(lengths - optimal) <= tolerance
    sqrt2, by_fit = None, 0
    if not agree.all():
        a, b = octile_counts(lengths)              # lengths are in cells
        value, _ = fit_sqrt2(a, b, optimal, units)
        if value is not None and abs(value - SQRT2) <= SQRT2_FIT_BOUND:
            fitted = (a >= 0) & (np.abs(a + b * value - optimal) <= tolerance)
            extra = fitted & ~agree
            if extra.any():
                sqrt2, by_fit = value, int(extra.sum())
                agree = agree | fitted
    rule = agreement_rule(units, rtol)
    if sqrt2 is not None:
        rule += (f"; or exact for sqrt(2) = {sqrt2:.11f} fitted from the file's lengths "
                 f"({by_fit} line{'s' if by_fit != 1 else ''} agree only by it)")
    return ScenReport(problems, lengths, optimal, agree, seconds, method, tolerance, rule,
                      sqrt2, by_fit, clock.compile_s)


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
    grid = load_file(map_path, kind="grid")   # the world's one reading rule
    return run_scenarios(grid, problems, method=method, rtol=rtol, progress=progress)
