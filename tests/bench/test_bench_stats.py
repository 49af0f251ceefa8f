"""Paired statistics against independent references: scipy's own tests on
hand-built samples, a plain-Python Holm, the rank-biserial by hand, Wilson's
formula, and the report's sentences stating only significant differences."""

import math

import numpy as np
import pytest
from scipy import stats as ss

from robomaze.bench import stats as S
from robomaze.bench.report_stats import glance_sentences, stats_csv, stats_section


def rows_for(values: dict, *, footprint="disc:0.1", kind="plan", metric="length_ratio",
             success=None, status=None):
    out = []
    for m, xs in values.items():
        for i, x in enumerate(xs):
            out.append({"kind": kind, "method": m, "footprint": footprint,
                        "generator": f"g{i % 3}", "seed": i // 3, "corridor": 3,
                        "status": (status or {}).get((m, i), "ok"),
                        "success": (success or {}).get((m, i), True), "scenario": {},
                        "metrics": {metric: x, "min_clearance": 0.1}})
    return out


def test_wilcoxon_p_is_scipys_on_the_paired_differences():
    rng = np.random.default_rng(3)
    a = rng.normal(1.2, 0.1, 20)
    b = a + rng.normal(0.05, 0.05, 20)
    t = [c for c in S.paired_tests(rows_for({"a": a, "b": b})) if c["metric"] == "length_ratio"][0]
    assert t["n"] == 20
    assert t["p"] == pytest.approx(ss.wilcoxon(a - b).pvalue, rel=1e-12)
    assert t["median_diff"] == pytest.approx(np.median(a - b))
    assert t["diff_low"] <= t["median_diff"] <= t["diff_high"]


def plain_holm(p):
    order = sorted(range(len(p)), key=lambda i: p[i])
    adj, running = [0.0] * len(p), 0.0
    for k, i in enumerate(order):
        running = max(running, min(1.0, (len(p) - k) * p[i]))
        adj[i] = running
    return adj


def test_holm_matches_a_plain_python_port_and_ignores_nan():
    p = [0.001, 0.2, 0.013, 0.04, 0.0101]
    assert S.holm(p).tolist() == pytest.approx(plain_holm(p))
    got = S.holm([0.01, math.nan, 0.02])
    assert math.isnan(got[1]) and got[0] == pytest.approx(0.02) and got[2] == pytest.approx(0.02)


def test_rank_biserial_by_hand():
    # |d| ranks: 0.5 -> 1, 1 -> 2, 2 -> 3, 3 -> 4; positive 2 + 3 + 4 = 9, negative 1
    assert S.rank_biserial([1.0, 2.0, 3.0, -0.5, 0.0]) == pytest.approx((9 - 1) / 10)
    assert S.rank_biserial([0.0, 0.0]) == 0.0


def test_wilson_interval_by_formula():
    k, n, z = 7, 20, ss.norm.ppf(0.975)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    lo, hi = S.wilson(k, n)
    assert lo == pytest.approx(centre - half, rel=1e-9) and hi == pytest.approx(centre + half, rel=1e-9)


def test_bootstrap_interval_covers_the_median_and_no_seed_moves_it():
    x = np.random.default_rng(5).exponential(1.0, 40)
    a = S.bootstrap_median(x, seed=1)
    assert a[0] <= np.median(x) <= a[1]
    assert all(S.bootstrap_median(x, seed=s) == a for s in range(2, 7))


def test_identical_methods_are_never_significant_and_infra_failures_leave_the_denominator():
    same = np.linspace(1.0, 2.0, 12)
    rows = rows_for({"astar": same, "dijkstra": same.copy()},
                    status={("dijkstra", 0): "infra_timeout", ("dijkstra", 1): "error"},
                    success={("dijkstra", 0): False, ("dijkstra", 1): False,
                             ("astar", 2): False})
    t = S.paired_tests(rows)
    assert all(not c["significant"] for c in t)
    assert all(c["effect"] == 0.0 for c in t if c["metric"] != "success")
    rates = {r["method"]: r for r in S.success_rates(rows)}
    assert (rates["astar"]["successes"], rates["astar"]["runs"]) == (11, 12)
    assert (rates["dijkstra"]["successes"], rates["dijkstra"]["runs"],
            rates["dijkstra"]["infra_failures"]) == (10, 10, 2)
    # a status this code has never seen counts as the method's outcome
    odd = rows_for({"a": [1.0, 1.1]}, status={("a", 0): "gave_up"}, success={("a", 0): False})
    assert S.success_rates(odd)[0]["runs"] == 2


def test_sentences_state_only_significant_differences_with_numbers_and_method():
    rng = np.random.default_rng(0)
    base = rng.normal(1.1, 0.05, 24)
    rows = rows_for({"good": base, "bad": base + 0.5 + rng.normal(0, 0.01, 24),
                     "twin": base + rng.normal(0, 0.02, 24)})
    tests = S.paired_tests(rows)
    text = stats_section(rows, tests=tests, glance=True)
    sig = {(c["a"], c["b"]) for c in tests if c["significant"] and c["metric"] == "length_ratio"}
    assert ("bad", "good") in sig and ("good", "twin") not in sig
    lines = glance_sentences(tests, S.median_intervals(rows))
    length_line = [x for x in lines if "length / optimal" in x][0]
    assert "significantly shorter than 1 of the 2 others" in length_line
    assert "Wilcoxon signed-rank" in length_line and "adjusted p" in length_line
    assert "Holm over the family's 3 tests" in length_line
    # good and twin differ by noise: whichever has the lower median is best, the other tied
    assert "`bad`" in length_line
    assert ("Best median: `good`" in length_line and "No significant difference from `twin`"
            in length_line) or ("Best median: `twin`" in length_line
                                and "No significant difference from `good`" in length_line)
    # clearance is equal everywhere: no "significantly" about it
    clear_line = [x for x in lines if "minimum clearance" in x][0]
    assert "significantly" not in clear_line
    assert "Wilson" in text and stats_csv(tests).count("\n") == len(tests) + 1


def test_planners_and_agents_are_never_paired_and_footprints_are_separate_families():
    rows = rows_for({"a": [1.0, 1.2, 1.3]}) + rows_for({"b": [1.5, 1.6, 1.7]}, kind="simulate") \
        + rows_for({"c": [1.0, 1.2, 1.3]}, footprint="disc:0.2")
    assert S.paired_tests(rows) == []


def test_no_difference_is_claimed_for_a_family_where_a_non_best_pair_differs():
    rng = np.random.default_rng(1)
    base = rng.normal(1.1, 0.05, 24)
    # best and mid tie; mid and worst differ, best and worst do not reach significance
    rows = rows_for({"best": base, "mid": base + rng.normal(0.0, 0.02, 24),
                     "far": base + 0.6 + rng.normal(0.0, 0.01, 24)})
    tests = S.paired_tests(rows)
    lines = glance_sentences(tests, S.median_intervals(rows))
    line = [x for x in lines if "length / optimal" in x][0]
    assert "No significant difference between any two" not in line
