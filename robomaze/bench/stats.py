"""Is a difference between two planners real? Paired tests across a sweep's runs.

Two planners (or two agents) are compared on the runs they share: the same
maze source, seed, widening level, footprint and every other swept setting,
so each *pair* of runs differs only in the method. A comparison family is
one run kind (planners with planners, agents with agents) and one footprint
(and setting); inside it:

- **paired test**: the Wilcoxon signed-rank test of the paired differences
  (``scipy.stats.wilcoxon``, two-sided, zero differences dropped as in
  Wilcoxon's original test), on ``length_ratio`` and on ``min_clearance``,
  over the pairs in which both runs reached the goal;
- **Holm correction** over *every* test the report makes (all families,
  pairs and metrics at once): ``p_holm`` is the step-down adjusted p-value,
  and a difference is called significant when ``p_holm < alpha`` (0.05);
- **effect size**: the matched-pairs rank-biserial correlation
  ``r = (W+ - W-) / (W+ + W-)`` over the non-zero differences (first
  method minus second; +1 when the first is larger in every pair);
- **bootstrap 95% intervals** of each method's median and of the median
  paired difference (percentile bootstrap, ``scipy.stats.bootstrap``, 2000
  resamples from a ``numpy.random.Generator`` seeded with ``seed``: same
  rows, same intervals);
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
[('a', 'b', 'length_ratio', 8, -1.0, True), ('a', 'b', 'min_clearance', 8, 0.0, False)]
"""

from __future__ import annotations

import math
import warnings
from collections import defaultdict
from itertools import combinations
from typing import Iterable, Sequence

import numpy as np

__all__ = ["METRICS", "INFRA_STATUSES", "ALPHA", "paired_tests", "success_rates",
           "median_intervals", "holm", "rank_biserial", "wilson", "bootstrap_median"]

#: Metrics compared pair by pair, and which way is better.
METRICS = {"length_ratio": "lower", "min_clearance": "higher"}
#: Row statuses that say the harness, not the method, failed.
INFRA_STATUSES = frozenset({"error", "timeout", "infra_timeout"})
ALPHA = 0.05
_N_BOOT = 2000


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
                     n_resamples: int = _N_BOOT) -> tuple[float, float]:
    """Percentile bootstrap 95% interval of the median (a constant sample: its value).

    >>> bootstrap_median([2.0, 2.0, 2.0])
    (2.0, 2.0)
    """
    from scipy.stats import bootstrap

    x = np.asarray(x, float)
    if x.size == 0:
        return (math.nan, math.nan)
    if np.all(x == x[0]):
        return (float(x[0]), float(x[0]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # few distinct values: percentile is still defined
        res = bootstrap((x,), np.median, n_resamples=n_resamples, method="percentile",
                        vectorized=True, axis=-1, random_state=np.random.default_rng(seed))
    return (float(res.confidence_interval.low), float(res.confidence_interval.high))


def _wilcoxon(d: np.ndarray) -> float:
    from scipy.stats import wilcoxon

    nz = d[d != 0]
    if nz.size == 0:
        return 1.0   # identical in every pair: no evidence of a difference
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # exact p with ties falls back to normal: fine
        return float(wilcoxon(nz, alternative="two-sided").pvalue)


def _by_family(rows: list[dict]):
    fams: dict[tuple, dict] = defaultdict(lambda: defaultdict(dict))
    for r, (fam, pair) in zip(rows, _keys(rows)):
        fams[fam][r.get("method", "")][pair] = r
    return fams


def paired_tests(rows: Iterable[dict], *, metrics: Sequence[str] = tuple(METRICS),
                 alpha: float = ALPHA, seed: int = 0) -> list[dict]:
    """Every paired comparison of two methods in a family, Holm-corrected together.

    Each dict: ``kind, footprint, setting, a, b, metric, n`` (pairs where
    both reached the goal), ``median_a, median_b, median_diff`` (a - b),
    ``diff_low, diff_high`` (bootstrap 95% of the median difference),
    ``p`` (Wilcoxon), ``p_holm``, ``effect`` (rank-biserial of a - b),
    ``significant``. Pairs with fewer than 2 shared successful runs are
    not tested.
    """
    rows = [r for r in rows if r.get("kind") in ("plan", "simulate")]
    out = []
    for fam, methods in sorted(_by_family(rows).items()):
        for a, b in combinations(sorted(methods), 2):
            shared = sorted(set(methods[a]) & set(methods[b]), key=repr)
            for metric in metrics:
                xa, xb = [], []
                for key in shared:
                    ra, rb = methods[a][key], methods[b][key]
                    va = (ra.get("metrics") or {}).get(metric)
                    vb = (rb.get("metrics") or {}).get(metric)
                    if ra.get("success") and rb.get("success") and va is not None and vb is not None:
                        xa.append(float(va))
                        xb.append(float(vb))
                if len(xa) < 2:
                    continue
                xa_, xb_ = np.array(xa), np.array(xb)
                d = xa_ - xb_
                lo, hi = bootstrap_median(d, seed=seed)
                out.append({"kind": fam[0], "footprint": fam[1], "setting": fam[2],
                            "a": a, "b": b, "metric": metric, "n": len(d),
                            "median_a": float(np.median(xa_)), "median_b": float(np.median(xb_)),
                            "median_diff": float(np.median(d)), "diff_low": lo, "diff_high": hi,
                            "p": _wilcoxon(d), "effect": rank_biserial(d)})
    adj = holm([c["p"] for c in out])
    for c, p in zip(out, adj):
        c["p_holm"] = float(p)
        c["significant"] = bool(p < alpha)
    return out


def median_intervals(rows: Iterable[dict], *, metrics: Sequence[str] = tuple(METRICS),
                     seed: int = 0) -> list[dict]:
    """Per family, method and metric: median of successful runs and its bootstrap 95% interval."""
    rows = [r for r in rows if r.get("kind") in ("plan", "simulate")]
    out = []
    for fam, methods in sorted(_by_family(rows).items()):
        for m in sorted(methods):
            for metric in metrics:
                x = [float(r["metrics"][metric]) for r in methods[m].values()
                     if r.get("success") and (r.get("metrics") or {}).get(metric) is not None]
                if not x:
                    continue
                lo, hi = bootstrap_median(x, seed=seed)
                out.append({"kind": fam[0], "footprint": fam[1], "setting": fam[2],
                            "method": m, "metric": metric, "n": len(x),
                            "median": float(np.median(x)), "low": lo, "high": hi})
    return out


def success_rates(rows: Iterable[dict]) -> list[dict]:
    """Per family and method: successes, runs counted, infrastructure failures, Wilson 95%."""
    rows = list(rows)
    counts: dict[tuple, list] = defaultdict(lambda: [0, 0, 0])
    for r, (fam, _) in zip(rows, _keys(rows)):
        c = counts[(*fam, r.get("method", ""))]
        if str(r.get("status", "ok")) in INFRA_STATUSES:
            c[2] += 1
            continue
        c[1] += 1
        c[0] += bool(r.get("success"))
    out = []
    for (kind, fp, setting, m), (k, n, infra) in sorted(counts.items()):
        lo, hi = wilson(k, n)
        out.append({"kind": kind, "footprint": fp, "setting": setting, "method": m,
                    "successes": k, "runs": n, "infra_failures": infra,
                    "rate": k / n if n else math.nan, "low": lo, "high": hi})
    return out
