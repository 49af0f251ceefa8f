"""Regression gate: compare two result sets run by run.

Runs are matched on scenario id. For every run in the baseline:

- it must be present in the current results (a missing run is a
  regression: the sweep shrank or crashed);
- a run whose row is ``infra_timeout`` (the wall-clock safety net fired)
  is *inconclusive* only when the machine is the likely cause:
  :func:`compare_dirs` first re-runs such current runs once, serially, with
  their kernels warm and a CPU budget scaled from the baseline's own time
  for the run (:mod:`robomaze.bench.reexec`); a re-run that finishes is
  compared, one that hangs (spends the budget, or sits blocked as long) is
  a regression, one the machine starves stays inconclusive;
- at least ``min_share`` (95%) of the baseline's runs must actually be
  compared: with fewer (inconclusive runs) the verdict is *inconclusive*,
  never "no regression" -- exit codes 0 clean, 1 regression, 3
  inconclusive (:attr:`Comparison.exit_code`);
- its ``status``, ``outcome`` and every deterministic metric
  (:data:`robomaze.bench.run.DETERMINISTIC_METRICS`) must match: booleans and
  integers exactly, floats within ``rel_tol`` (default 1e-6) relative or
  ``abs_tol`` (default 1e-9 m) absolute, missing equals missing;
- its compute time is compared as the ratio current / baseline and
  reported; it fails only when ``fail_on_time`` is given and the
  geometric-mean ratio over all runs exceeds it (single fast runs are too
  noisy to gate on one by one).

Runs only in the current results are reported as new, not failed.

>>> base = [{"id": "a", "status": "ok", "metrics": {"length_m": 1.0}, "timings": {"compute_s": 1.0}}]
>>> cur = [{"id": "a", "status": "ok", "metrics": {"length_m": 1.5}, "timings": {"compute_s": 1.0}}]
>>> res = compare_rows(base, cur)
>>> res.ok, res.changes[0][:3]
(False, ('a', 'length_m', 1.0))
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from typing import Sequence

from ..errors import ParameterError, RecordFormatError
from .run import DETERMINISTIC_METRICS
from .store import results_path

__all__ = ["compare_rows", "compare_dirs", "load_rows", "check_gate", "check_share", "Comparison",
           "REL_TOL", "ABS_TOL", "MIN_SHARE", "EXIT_OK", "EXIT_REGRESSION", "EXIT_INCONCLUSIVE"]

REL_TOL = 1e-6
ABS_TOL = 1e-9
#: Compute times below this (s) are too small to ratio meaningfully.
MIN_TIME = 1e-4
#: The share of the baseline's runs that must actually be compared (not
#: missing, not inconclusive) for a verdict; below it compare is inconclusive.
MIN_SHARE = 0.95
#: Exit codes of ``robomaze bench compare`` (and ``bench rerun``).
EXIT_OK, EXIT_REGRESSION, EXIT_INCONCLUSIVE = 0, 1, 3


@dataclass
class Comparison:
    """The outcome of a comparison; ``ok`` is False on any regression."""

    changes: list = field(default_factory=list)   # (id, key, baseline, current)
    missing: list = field(default_factory=list)   # ids in baseline only
    new: list = field(default_factory=list)       # ids in current only
    matched: int = 0
    inconclusive: list = field(default_factory=list)   # (id, why)
    rerun: list = field(default_factory=list)          # ids re-run before deciding
    time_ratio: float | None = None               # geometric mean current/baseline
    slowest: list = field(default_factory=list)   # (ratio, id, method) worst first
    fail_on_time: float | None = None
    labels: dict = field(default_factory=dict)    # id -> "method corridor footprint"
    baseline_runs: int = 0
    min_share: float = MIN_SHARE
    hangs: list = field(default_factory=list)     # (id, why): re-runs that never finished
    missing_plugins: list = field(default_factory=list)   # plugins not given again
    skipped_plugins: int = 0                      # rows not re-run for want of them

    @property
    def time_regressed(self) -> bool:
        return (self.fail_on_time is not None and self.time_ratio is not None
                and self.time_ratio > self.fail_on_time)

    @property
    def regressed(self) -> bool:
        """A metric changed, a run is missing or hung, or runs got too slow."""
        return bool(self.changes or self.missing or self.time_regressed)

    @property
    def compared(self) -> int:
        """Baseline runs actually compared (matched and not inconclusive)."""
        return self.matched - len(self.inconclusive)

    @property
    def status(self) -> str:
        """``"regression"``, ``"inconclusive"`` (fewer than ``min_share`` of the
        baseline's runs compared) or ``"ok"``."""
        if self.regressed:
            return "regression"
        if self.compared < self.min_share * self.baseline_runs:
            return "inconclusive"
        return "ok"

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def exit_code(self) -> int:
        """0 clean, 1 regression, 3 inconclusive."""
        return {"ok": EXIT_OK, "regression": EXIT_REGRESSION}.get(self.status, EXIT_INCONCLUSIVE)

    def table(self) -> str:
        """Human-readable report of what changed."""
        lines = [f"compared {self.matched} runs: {len(self.changes)} metric changes, "
                 f"{len(self.missing)} missing, {len(self.new)} new"
                 + (f", {len(self.inconclusive)} inconclusive" if self.inconclusive else "")]
        if self.rerun:
            lines.append(f"re-ran {len(self.rerun)} run(s) serially that hit the wall-clock "
                         "safety net (infra_timeout) before deciding")
        if self.missing_plugins:
            from .rerun import plugins_message

            lines.append("not re-run: " + plugins_message(self.missing_plugins,
                                                          self.skipped_plugins))
        if self.hangs:
            lines.append("")
            lines.append("hung (re-run warm, serially: the method, not the machine):")
            for rid, why in self.hangs[:20]:
                lines.append(f"  {rid}  {self.labels.get(rid, '')}: {why}")
        if self.inconclusive:
            lines.append("")
            lines.append("inconclusive (not regressions: the machine, not the method):")
            for rid, why in self.inconclusive[:20]:
                lines.append(f"  {rid}  {self.labels.get(rid, '')}: {why}")
        if self.changes:
            lines.append("")
            lines.append(f"{'id':12}  {'run':40}  {'metric':20}  {'baseline':>14}  {'current':>14}")
            for rid, key, a, b in self.changes:
                lines.append(f"{rid:12}  {self.labels.get(rid, '')[:40]:40}  {key:20}  "
                             f"{_show(a):>14}  {_show(b):>14}")
        if self.missing:
            lines.append("")
            lines.append("missing from current: " + ", ".join(
                f"{i} ({self.labels.get(i, '')})" for i in self.missing[:20])
                + (" ..." if len(self.missing) > 20 else ""))
        if self.new:
            lines.append("new in current (not compared): " + ", ".join(self.new[:20])
                         + (" ..." if len(self.new) > 20 else ""))
        if self.time_ratio is not None:
            gate = (f" (limit {self.fail_on_time:g}: {'FAIL' if self.time_regressed else 'ok'})"
                    if self.fail_on_time is not None else " (reported, not gated)")
            lines.append("")
            lines.append(f"compute time current/baseline: geometric mean {self.time_ratio:.3f}{gate}")
            for ratio, rid, label in self.slowest[:5]:
                lines.append(f"  {ratio:7.2f}x  {rid}  {label}")
        lines.append("")
        status = self.status
        if status == "regression":
            lines.append("REGRESSION")
        elif status == "inconclusive":
            lines.append(f"INCONCLUSIVE: {self.compared} of {self.baseline_runs} baseline runs "
                         f"compared, at least {self.min_share:.0%} needed "
                         f"({len(self.inconclusive)} inconclusive)")
        else:
            lines.append("OK: no regression" + (f" ({len(self.inconclusive)} inconclusive)"
                                                if self.inconclusive else ""))
        return "\n".join(lines)


def _show(v) -> str:
    if isinstance(v, float):
        return f"{v:.9g}"
    return "-" if v is None else str(v)


def _same(a, b, rel_tol: float, abs_tol: float) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, bool) or isinstance(b, bool):
        return bool(a) == bool(b) and isinstance(a, bool) == isinstance(b, bool)
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return math.isclose(float(a), float(b), rel_tol=rel_tol, abs_tol=abs_tol)
    return a == b


def _label(r: dict) -> str:
    return f"{r.get('method', '?')} k={r.get('corridor', '?')} {r.get('footprint', '')}"


def compare_rows(baseline: Sequence[dict], current: Sequence[dict], *,
                 rel_tol: float = REL_TOL, abs_tol: float = ABS_TOL,
                 fail_on_time: float | None = None,
                 metrics: Sequence[str] = DETERMINISTIC_METRICS,
                 min_share: float = MIN_SHARE) -> Comparison:
    """Compare two lists of rows (see the module docstring for the rules)."""
    check_gate(rel_tol=rel_tol, abs_tol=abs_tol, fail_on_time=fail_on_time)
    check_share(min_share)
    for role, rows in (("baseline", baseline), ("current", current)):
        for i, r in enumerate(rows):
            _check_row(r, f"{role} row {i + 1}")
    if not baseline:
        raise RecordFormatError("baseline holds no result rows; nothing to compare")
    base = {r["id"]: r for r in baseline}
    cur = {r["id"]: r for r in current}
    res = Comparison(fail_on_time=fail_on_time, baseline_runs=len(base), min_share=min_share)
    res.labels = {i: _label(r) for i, r in {**cur, **base}.items()}
    res.missing = sorted(set(base) - set(cur))
    res.new = sorted(set(cur) - set(base))
    logs = []
    for rid in sorted(set(base) & set(cur)):
        a, b = base[rid], cur[rid]
        res.matched += 1
        timed_out = [role for role, r in (("baseline", a), ("current", b))
                     if r.get("status") in INFRA_STATUSES]
        if timed_out:
            res.inconclusive.append((rid, " and ".join(timed_out) + " hit the wall-clock "
                                     "safety net (infra_timeout)"))
            continue
        if a.get("status") != b.get("status"):
            res.changes.append((rid, "status", a.get("status"), b.get("status")))
        if "outcome" in a and "outcome" in b and a["outcome"] != b["outcome"]:
            res.changes.append((rid, "outcome", a["outcome"], b["outcome"]))
        if bool(a.get("success")) != bool(b.get("success")):
            res.changes.append((rid, "success", bool(a.get("success")), bool(b.get("success"))))
        ma, mb = a.get("metrics") or {}, b.get("metrics") or {}
        for key in metrics:
            if key == "success":
                continue
            if key not in ma and key not in mb:
                continue
            if not _same(ma.get(key), mb.get(key), rel_tol, abs_tol):
                res.changes.append((rid, key, ma.get(key), mb.get(key)))
        ta = (a.get("timings") or {}).get("compute_s")
        tb = (b.get("timings") or {}).get("compute_s")
        if ta and tb and ta >= MIN_TIME and tb >= MIN_TIME:
            ratio = tb / ta
            logs.append(math.log(ratio))
            res.slowest.append((ratio, rid, _label(b)))
    if logs:
        res.time_ratio = math.exp(sum(logs) / len(logs))
    res.slowest.sort(reverse=True)
    return res


def compare_dirs(baseline: str | os.PathLike, current: str | os.PathLike, *,
                 rerun_timeouts: bool = True, rerun_time_limit: float | None = None,
                 plugins=(), min_share: float = MIN_SHARE, **kw) -> Comparison:
    """:func:`compare_rows` on two result directories (or ``.jsonl`` files).

    Both are read strictly (:func:`load_rows`): a gate that cannot compare
    fails loudly instead of reporting "no regression". With
    ``rerun_timeouts``, current runs that hit the wall-clock safety net
    (``infra_timeout``) while their baseline run finished are re-run once,
    serially, each in a fresh process with its kernels warm
    (:func:`robomaze.bench.rerun.rerun`), under a CPU budget scaled from the
    *baseline's* own time for that run (the results directory is not
    modified). A re-run that finishes is compared; one that spends its
    budget, or sits blocked as long, is a hang: a regression; one the
    machine starves is inconclusive. ``rerun_time_limit`` replaces the
    re-runs' wall limit.

    Plugins named by the rows are imported only when the user passes them
    again (``plugins``, ``$ROBOMAZE_PLUGINS``); rows whose plugins are
    missing are not re-run, stay inconclusive, and
    :attr:`Comparison.missing_plugins` says which.
    """
    from .rerun import missing_plugins, rerun
    from .reexec import reference_time

    check_share(min_share)
    base = load_rows(baseline, "baseline")
    cur = load_rows(current, "current")
    by_id = {r["id"]: r for r in base}
    reran, hangs, starved, absent, skipped = [], {}, {}, set(), 0
    if rerun_timeouts:
        for i, row in enumerate(cur):
            b = by_id.get(row["id"])
            if row.get("status") not in INFRA_STATUSES or b is None \
                    or b.get("status") in INFRA_STATUSES:
                continue
            miss = missing_plugins(row, plugins)
            if miss:
                absent.update(miss)
                skipped += 1
                continue
            r = rerun(row, plugins=plugins, reference=reference_time(b),
                      wall_limit=rerun_time_limit)
            reran.append(row["id"])
            if r.verdict == "done":
                cur[i] = r.row
            elif r.verdict == "hang":
                hangs[row["id"]] = r.why
            else:
                starved[row["id"]] = r.why
    res = compare_rows(base, cur, min_share=min_share, **kw)
    res.rerun = reran
    res.missing_plugins = sorted(absent)
    res.skipped_plugins = skipped
    kept = []
    for rid, why in res.inconclusive:
        if rid in hangs:
            res.changes.append((rid, "status", by_id[rid].get("status"), "hang"))
            res.hangs.append((rid, hangs[rid]))
        else:
            kept.append((rid, f"re-run stopped: {starved[rid]}" if rid in starved else why))
    res.inconclusive = kept
    return res


def check_share(min_share: float) -> None:
    """``min_share`` must be a fraction in [0, 1].

    >>> check_share(1.5)
    Traceback (most recent call last):
    ...
    robomaze.errors.ParameterError: --min-share must be a number in [0, 1], got 1.5
    """
    if isinstance(min_share, bool) or not isinstance(min_share, (int, float)) \
            or not 0.0 <= min_share <= 1.0:
        raise ParameterError(f"--min-share must be a number in [0, 1], got {min_share!r}")


#: Row statuses of the wall-clock safety net ("timeout": rows before the taxonomy).
INFRA_STATUSES = ("infra_timeout", "timeout")
_STATUSES = ("ok", "error") + INFRA_STATUSES


def load_rows(path: str | os.PathLike, role: str = "results") -> list[dict]:
    """Every row of a results file, checked line by line; the last row per id wins.

    Raises
    ------
    RecordFormatError
        No file, an empty file, a torn or garbage line, a row of the wrong
        shape (``"metrics": null``, an id that is not a string...), naming
        the file and line.
    """
    from .files import file_problem, read_regular

    p = results_path(path)
    problem = file_problem(p)
    if problem == "no such file":
        raise RecordFormatError(f"{role} {p}: no results file; expected the results.jsonl a "
                                "sweep wrote (robomaze bench SWEEP -o DIR)")
    if problem is not None:
        raise RecordFormatError(f"{role} {p}: {problem}")
    data = read_regular(p, RecordFormatError)
    rows: dict[str, dict] = {}
    lines = data.split(b"\n")
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{role} {p}:{lineno}"
        if lineno == len(lines):
            raise RecordFormatError(f"{where}: torn last line (no newline: the sweep writing "
                                    "it was interrupted); rerun the sweep to complete it")
        try:
            row = json.loads(line.decode("utf-8"), parse_constant=_no_constant)
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            raise RecordFormatError(f"{where}: not a JSON result row "
                                    f"({type(exc).__name__})") from None
        _check_row(row, where)
        rows.pop(row["id"], None)
        rows[row["id"]] = row
    if not rows:
        raise RecordFormatError(f"{role} {p}: holds no result rows; nothing to compare")
    return list(rows.values())


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number robomaze writes")


def _check_row(row, where: str) -> None:
    """A row compare can use: an id string, a known status, metric and timing tables."""
    if not isinstance(row, dict):
        raise RecordFormatError(f"{where}: expected a result row (a JSON object), got "
                                f"{type(row).__name__}")
    if not isinstance(row.get("id"), str) or not row["id"]:
        raise RecordFormatError(f"{where}: expected a string 'id', got {row.get('id')!r}")
    if row.get("status") not in _STATUSES:
        raise RecordFormatError(f"{where}: expected 'status' one of {', '.join(_STATUSES)}, "
                                f"got {row.get('status')!r}")
    for key in ("metrics", "timings"):
        table = row.get(key, {})
        if not isinstance(table, dict):
            raise RecordFormatError(f"{where}: expected {key!r} to be an object, got {table!r}")
        for k, v in table.items():
            if v is not None and not (isinstance(v, (bool, int, float, str))):
                raise RecordFormatError(f"{where}: {key}.{k}: expected a number, got {v!r}")
            if isinstance(v, float) and not math.isfinite(v):
                raise RecordFormatError(f"{where}: {key}.{k}: expected a finite number, got {v}")


def check_gate(*, rel_tol: float = REL_TOL, abs_tol: float = ABS_TOL,
               fail_on_time: float | None = None) -> None:
    """Refuse tolerances that would make the gate meaningless (nan, negative, inf).

    >>> check_gate(fail_on_time=float("nan"))
    Traceback (most recent call last):
    ...
    robomaze.errors.ParameterError: --fail-on-time must be a finite number > 0, got nan
    """
    for name, v in (("--rel-tol", rel_tol), ("--abs-tol", abs_tol)):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) \
                or v < 0:
            raise ParameterError(f"{name} must be a finite number >= 0, got {v!r}")
    if fail_on_time is not None and (isinstance(fail_on_time, bool) or not isinstance(
            fail_on_time, (int, float)) or not math.isfinite(fail_on_time) or fail_on_time <= 0):
        raise ParameterError(f"--fail-on-time must be a finite number > 0, got {fail_on_time!r}")
