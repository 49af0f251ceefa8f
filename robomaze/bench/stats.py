"""Is a difference between two planners real? Paired tests across a sweep's runs.

Two planners (or two agents) are compared on the runs they share: the same
maze source, seed, widening level, footprint and every other swept setting,
so each *pair* of runs differs only in the method. A comparison family is
one run kind (planners with planners, agents with agents) and one footprint
(and setting); inside it:

- **identical methods merged**: methods that agree in every run (same
  success, status, metrics and length; e.g. ``astar`` and ``dijkstra``
  on a unit-cost grid) are one method ``"astar = dijkstra"`` before any
  test, as the report's figures draw them as one line;
- **paired test**: the Wilcoxon signed-rank test of the paired differences,
  two-sided, zero differences dropped as in Wilcoxon's original test, with
  its *exact* p-value conditional on the observed mid-ranks (ties are the
  rule in sweeps; :func:`robomaze.bench.stats_exact.signed_rank_test`, a
  seeded sign-flip permutation test where enumeration is too large), on
  ``length_ratio`` and on ``min_clearance``, over the pairs in which
  *both* runs reached the goal;
- **paired success**: McNemar's exact test on the pairs' outcomes
  (``metric = "success"``), so a method that fails more often is not
  hidden by comparing only its successes;
- **scope**: every comparison pooled over the group's corridor widths
  and, when there are several, at each width alone;
- **Holm correction** within a stated family: every test of one kind,
  footprint, setting, scope and metric (``family``, ``family_size``);
  ``p_holm`` is the step-down adjusted p-value, and a difference is
  called significant when ``p_holm < alpha`` (0.05);
- **effect size**: the matched-pairs rank-biserial correlation
  ``r = (W+ - W-) / (W+ + W-)`` over the non-zero differences (first
  method minus second; +1 when the first is larger in every pair);
- **95% intervals** of each method's median and of the median paired
  difference: percentile bootstrap intervals computed from the *exact*
  bootstrap distribution of the median
  (:func:`robomaze.bench.stats_exact.bootstrap_median_exact`), so they do
  not depend on a bootstrap seed;
- **success rates** with Wilson score 95% intervals
  (``scipy.stats.binomtest(...).proportion_ci(method="wilson")``) over the
  runs whose outcome belongs to the method (a run whose ``status`` is an
  infrastructure failure -- ``error``, ``timeout``, ``infra_timeout`` -- is
  left out of the denominator; any other status, known or not, counts as
  the method's outcome).

>>> rows = [{"kind": "plan", "method": m, "footprint": "disc:0.1", "generator": "g",
...          "seed": s, "corridor": 3, "status": "ok", "success": True, "scenario": {},
...          "metrics": {"length_ratio": 1.0 + (0.5 if m == "b" else 0.0) + s / 100,
...                      "min_clearance": 0.1}} for m in ("a", "b") for s in range(8)]
>>> t = paired_tests(rows)
>>> [(c["a"], c["b"], c["metric"], c["n"], round(c["effect"], 2), c["significant"]) for c in t]
[('a', 'b', 'length_ratio', 8, -1.0, True), ('a', 'b', 'min_clearance', 8, 0.0, False), \
('a', 'b', 'success', 8, 0.0, False)]
"""

from __future__ import annotations

import math
import warnings
from collections import defaultdict
from itertools import combinations
from typing import Iterable, Sequence

import numpy as np

__all__ = ["METRICS", "INFRA_STATUSES", "ALPHA", "POOLED", "paired_tests", "success_rates",
           "median_intervals", "holm", "rank_biserial", "wilson", "bootstrap_median",
           "merge_identical", "strong_but_not_significant"]

#: Metrics compared pair by pair, and which way is better.
METRICS = {"length_ratio": "lower", "min_clearance": "higher"}
#: Row statuses that say the harness, not the method, failed.
INFRA_STATUSES = frozenset({"error", "timeout", "infra_timeout"})
ALPHA = 0.05


def _axes(rows) -> list[str]:
    from .report import swept_axes

    return swept_axes(rows)


def _keys(rows: list[dict]):
    """(family, pairing key) of each row: family + setting, and the run it pairs with."""
    from .report import _flat, _setting

    axes = _axes(rows)
    out = []
    for r in rows:
        flat = _flat(r.get("scenario") or {})
        values = tuple(flat.get(k) for k in axes)
        fam = (r.get("kind", ""), r.get("footprint", ""), _setting(axes, values))
        pair = (str(r.get("generator", "")), r.get("seed"), r.get("corridor"))
        out.append((fam, pair))
    return out


def holm(p: Sequence[float]) -> np.ndarray:
    """Holm's step-down adjusted p-values (NaN stays NaN, not counted in the family).

    >>> holm([0.01, 0.04, 0.03]).round(3).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(p, float)
    out = np.full(p.shape, math.nan)
    ok = np.flatnonzero(np.isfinite(p))
    m = len(ok)
    order = ok[np.argsort(p[ok], kind="stable")]
    running = 0.0
    for i, j in enumerate(order):
        running = max(running, min(1.0, (m - i) * p[j]))
        out[j] = running
    return out


def rank_biserial(d: Sequence[float]) -> float:
    """Matched-pairs rank-biserial correlation of paired differences (0 if all are zero).

    >>> rank_biserial([1.0, 2.0, -0.5])
    0.6666666666666666
    """
    from scipy.stats import rankdata

    d = np.asarray(d, float)
    d = d[d != 0]
    if d.size == 0:
        return 0.0
    ranks = rankdata(np.abs(d))
    plus, minus = ranks[d > 0].sum(), ranks[d < 0].sum()
    return float((plus - minus) / (plus + minus))


def wilson(successes: int, n: int, *, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a success rate ((NaN, NaN) for no runs).

    >>> [round(v, 4) for v in wilson(8, 10)]
    [0.4902, 0.9433]
    """
    if n <= 0:
        return (math.nan, math.nan)
    from scipy.stats import binomtest

    ci = binomtest(int(successes), int(n)).proportion_ci(confidence_level=confidence,
                                                          method="wilson")
    return (float(ci.low), float(ci.high))


def bootstrap_median(x: Sequence[float], *, seed: int = 0,
                     n_resamples: int | None = None) -> tuple[float, float]:
    """Percentile bootstrap 95% interval of the median, from its exact bootstrap distribution.

    ``seed`` and ``n_resamples`` are accepted for compatibility and have no
    effect: the interval is the limit of infinitely many resamples
    (:func:`robomaze.bench.stats_exact.bootstrap_median_exact`), so no
    bootstrap seed can move a printed digit.

    >>> bootstrap_median([2.0, 2.0, 2.0])
    (2.0, 2.0)
    >>> bootstrap_median([1.0, 5.0, 2.0], seed=1) == bootstrap_median([1.0, 5.0, 2.0], seed=2)
    True
    """
    from .stats_exact import bootstrap_median_exact

    return bootstrap_median_exact(x)


def _wilcoxon(d: np.ndarray) -> tuple[float, str]:
    from .stats_exact import signed_rank_test

    t = signed_rank_test(d)
    return t.p, {"exact": "signed-rank exact", "permutation": "signed-rank permutation",
                 "none": "signed-rank (all pairs equal)"}[t.method]


def _by_family(rows: list[dict]):
    fams: dict[tuple, dict] = defaultdict(lambda: defaultdict(dict))
    for r, (fam, pair) in zip(rows, _keys(rows)):
        fams[fam][r.get("method", "")][pair] = r
    return fams


def _same_rows(ra: dict, rb: dict, metrics: Sequence[str]) -> bool:
    if bool(ra.get("success")) != bool(rb.get("success")) or ra.get("status") != rb.get("status"):
        return False
    ma, mb = ra.get("metrics") or {}, rb.get("metrics") or {}
    for k in (*metrics, "length_m"):
        va, vb = ma.get(k), mb.get(k)
        if (va is None) != (vb is None):
            return False
        if va is not None and abs(float(va) - float(vb)) > 1e-12 * max(1.0, abs(float(va))):
            return False
    return True


def merge_identical(methods: dict, *, metrics: Sequence[str] = tuple(METRICS)) -> dict:
    """Methods with the same runs and the same outcome and metrics in every run, merged.

    ``methods`` maps a method name to ``{pairing key: row}``; two methods
    are identical when they ran the same pairs and, in every pair, agree on
    success, status and every compared metric (and the path length) to
    1e-12 relative -- as the report's figures draw them as one line. The
    result maps ``"a = b"`` (names sorted) to the first method's runs, so a
    test never compares a method with itself under another name.

    >>> r = lambda v: {"success": True, "status": "ok", "metrics": {"length_ratio": v}}
    >>> sorted(merge_identical({"astar": {1: r(1.0)}, "dijkstra": {1: r(1.0)},
    ...                         "bfs": {1: r(2.0)}}))
    ['astar = dijkstra', 'bfs']
    """
    names = sorted(methods)
    out, done = {}, set()
    for i, a in enumerate(names):
        if a in done:
            continue
        same = [a]
        for b in names[i + 1:]:
            if b in done or set(methods[a]) != set(methods[b]):
                continue
            if all(_same_rows(methods[a][k], methods[b][k], metrics) for k in methods[a]):
                same.append(b)
        done.update(same)
        out[" = ".join(same)] = methods[a]
    return out


#: The scope of pooled tests (every corridor width of the family at once).
POOLED = "all widths"


def _scopes(methods: dict, per_width: bool):
    """``(scope, {method: {pair: row}})``: pooled, then one per corridor width."""
    yield POOLED, methods
    if not per_width:
        return
    widths = sorted({k[2] for runs in methods.values() for k in runs},
                    key=lambda c: (c is None, c if isinstance(c, (int, float)) else 0, str(c)))
    if len(widths) < 2:
        return
    for c in widths:
        yield f"corridor {c}", {m: {k: r for k, r in runs.items() if k[2] == c}
                                for m, runs in methods.items()}


def _family_label(kind: str, footprint: str, setting: str, scope: str, metric: str) -> str:
    return (f"{kind} {footprint}" + (f" {setting}" if setting else "") + f", {scope}, {metric}")


def _counted(r: dict) -> bool:
    return str(r.get("status", "ok")) not in INFRA_STATUSES


def paired_tests(rows: Iterable[dict], *, metrics: Sequence[str] = tuple(METRICS),
                 alpha: float = ALPHA, seed: int = 0, per_width: bool = True,
                 success: bool = True) -> list[dict]:
    """Every paired comparison of two methods, Holm-corrected within its stated family.

    Methods identical in every run are merged first (:func:`merge_identical`).
    Each comparison is made pooled over every corridor width of its
    (kind, footprint, setting) group (``scope`` = :data:`POOLED`) and, when
    the group has several widths, at each width alone (``scope`` =
    ``"corridor K"``). The Holm family of a test is every test of the same
    kind, footprint, setting, scope and metric (``family``,
    ``family_size``): all pairwise comparisons of the methods on one
    metric, pooled or at one width.

    Each dict: ``kind, footprint, setting, scope, a, b, metric, n`` (for a
    metric: the pairs where *both* reached the goal; for ``"success"``: the
    pairs where both runs count, infrastructure failures left out),
    ``median_a, median_b, median_diff`` (a - b; for success the two rates
    and their difference), ``diff_low, diff_high`` (bootstrap 95% of the
    median difference), ``p`` (exact conditional signed-rank, or McNemar's
    exact test for success), ``test``, ``p_holm``, ``effect``
    (rank-biserial of a - b; for success ``(b - c) / (b + c)`` of the
    discordant pairs), ``family``, ``family_size``, ``significant``.
    Comparisons with fewer than 2 pairs are not made.
    """
    from .stats_exact import mcnemar

    rows = [r for r in rows if r.get("kind") in ("plan", "simulate")]
    out = []
    for fam, methods in sorted(_by_family(rows).items()):
        methods = merge_identical(methods, metrics=metrics)
        for scope, meths in _scopes(methods, per_width):
            for a, b in combinations(sorted(meths), 2):
                shared = sorted(set(meths[a]) & set(meths[b]), key=repr)
                base = {"kind": fam[0], "footprint": fam[1], "setting": fam[2], "scope": scope,
                        "a": a, "b": b}
                for metric in metrics:
                    xa, xb = [], []
                    for key in shared:
                        ra, rb = meths[a][key], meths[b][key]
                        va = (ra.get("metrics") or {}).get(metric)
                        vb = (rb.get("metrics") or {}).get(metric)
                        if (ra.get("success") and rb.get("success") and va is not None
                                and vb is not None):
                            xa.append(float(va))
                            xb.append(float(vb))
                    if len(xa) < 2:
                        continue
                    xa_, xb_ = np.array(xa), np.array(xb)
                    d = xa_ - xb_
                    lo, hi = bootstrap_median(d, seed=seed)
                    p, test = _wilcoxon(d)
                    out.append({**base, "metric": metric, "n": len(d),
                                "median_a": float(np.median(xa_)),
                                "median_b": float(np.median(xb_)),
                                "median_diff": float(np.median(d)), "diff_low": lo,
                                "diff_high": hi, "p": p, "test": test,
                                "effect": rank_biserial(d)})
                if not success:
                    continue
                pairs = [(bool(meths[a][k].get("success")), bool(meths[b][k].get("success")))
                         for k in shared if _counted(meths[a][k]) and _counted(meths[b][k])]
                if len(pairs) < 2:
                    continue
                sa = sum(x for x, _ in pairs) / len(pairs)
                sb = sum(y for _, y in pairs) / len(pairs)
                bc = sum(x and not y for x, y in pairs)
                cb = sum(y and not x for x, y in pairs)
                mc = mcnemar(bc, cb)
                out.append({**base, "metric": "success", "n": len(pairs), "median_a": sa,
                            "median_b": sb, "median_diff": sa - sb, "diff_low": math.nan,
                            "diff_high": math.nan, "p": mc.p, "test": "McNemar exact",
                            "effect": (bc - cb) / (bc + cb) if bc + cb else 0.0})
    groups: dict[tuple, list] = defaultdict(list)
    for i, c in enumerate(out):
        groups[(c["kind"], c["footprint"], c["setting"], c["scope"], c["metric"])].append(i)
    for key, idx in groups.items():
        adj = holm([out[i]["p"] for i in idx])
        for i, p in zip(idx, adj):
            c = out[i]
            c["p_holm"] = float(p)
            c["family"] = _family_label(*key)
            c["family_size"] = len(idx)
            c["significant"] = bool(p < alpha)
    return out


def median_intervals(rows: Iterable[dict], *, metrics: Sequence[str] = tuple(METRICS),
                     seed: int = 0, per_width: bool = False) -> list[dict]:
    """Per family, (merged) method and metric: median of successful runs and its 95% interval.

    ``scope`` is :data:`POOLED`; with ``per_width`` also one entry per
    corridor width (``"corridor K"``), as :func:`paired_tests` scopes them.
    """
    rows = [r for r in rows if r.get("kind") in ("plan", "simulate")]
    out = []
    for fam, methods in sorted(_by_family(rows).items()):
        methods = merge_identical(methods, metrics=metrics)
        for scope, meths in _scopes(methods, per_width):
            for m in sorted(meths):
                for metric in metrics:
                    x = [float(r["metrics"][metric]) for r in meths[m].values()
                         if r.get("success") and (r.get("metrics") or {}).get(metric) is not None]
                    if not x:
                        continue
                    lo, hi = bootstrap_median(x, seed=seed)
                    out.append({"kind": fam[0], "footprint": fam[1], "setting": fam[2],
                                "scope": scope, "method": m, "metric": metric, "n": len(x),
                                "median": float(np.median(x)), "low": lo, "high": hi})
    return out


def success_rates(rows: Iterable[dict]) -> list[dict]:
    """Per family and (merged) method: successes, runs counted, infrastructure failures, Wilson 95%."""
    rows = [r for r in rows if r.get("kind") in ("plan", "simulate")]
    out = []
    for fam, methods in sorted(_by_family(rows).items()):
        for m, runs in sorted(merge_identical(methods).items()):
            counted = [r for r in runs.values() if _counted(r)]
            k, n = sum(bool(r.get("success")) for r in counted), len(counted)
            lo, hi = wilson(k, n)
            out.append({"kind": fam[0], "footprint": fam[1], "setting": fam[2], "method": m,
                        "successes": k, "runs": n, "infra_failures": len(runs) - n,
                        "rate": k / n if n else math.nan, "low": lo, "high": hi})
    return out


def strong_but_not_significant(t: dict, *, p_raw: float = 1e-3, effect: float = 0.5) -> bool:
    """A test whose raw p and effect size speak for a difference that Holm does not confirm.

    The report never calls such a difference "not significant" without
    saying so (``p < p_raw`` and ``|r| > effect`` before the correction).

    >>> strong_but_not_significant({"p": 2.4e-4, "effect": -0.8, "significant": False})
    True
    """
    return (not t.get("significant") and t.get("p") is not None and t["p"] < p_raw
            and abs(t.get("effect") or 0.0) > effect)
