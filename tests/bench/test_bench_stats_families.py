"""Like with like: identical methods merged, per-width and pooled families with
Holm stated, McNemar on paired success, sentences checked against their numbers,
intervals that no bootstrap seed moves."""

import json
import pathlib

import numpy as np
import pytest

from robomaze.bench import stats as S
from robomaze.bench.report_stats import (glance_sentences, sentence_contradictions, stats_csv,
                                         stats_section)
from robomaze.bench.stats_exact import signed_rank_test

ROOT = pathlib.Path(__file__).resolve().parents[2]


def make_rows(values: dict, *, corridors=(3, 5), seeds=6, success=None):
    """values: method -> f(corridor, i) giving length_ratio."""
    out = []
    for m, f in values.items():
        for c in corridors:
            for i in range(seeds):
                ok = (success or {}).get((m, c, i), True)
                out.append({"kind": "plan", "method": m, "footprint": "disc:0.1",
                            "generator": f"g{i % 3}", "seed": i // 3, "corridor": c,
                            "status": "ok", "success": ok, "scenario": {},
                            "metrics": {"length_ratio": f(c, i) if ok else None,
                                        "min_clearance": 0.1 if ok else None,
                                        "length_m": f(c, i) if ok else None}})
    return out


def test_identical_methods_are_merged_before_testing():
    rows = make_rows({"astar": lambda c, i: 1 + 0.01 * i, "dijkstra": lambda c, i: 1 + 0.01 * i,
                      "bfs": lambda c, i: 1.2 + 0.01 * i})
    tests = S.paired_tests(rows)
    names = {t["a"] for t in tests} | {t["b"] for t in tests}
    assert names == {"astar = dijkstra", "bfs"}
    assert all(t["a"] != t["b"] for t in tests)
    rates = {r["method"] for r in S.success_rates(rows)}
    assert rates == {"astar = dijkstra", "bfs"}


def test_not_merged_when_one_run_differs():
    rows = make_rows({"a": lambda c, i: 1.0 + 0.01 * i,
                      "b": lambda c, i: 1.0 + 0.01 * i + (0.5 if (c, i) == (5, 3) else 0)})
    assert {t["a"] for t in S.paired_tests(rows)} == {"a"}


def test_per_width_and_pooled_scopes_each_their_own_holm_family():
    rows = make_rows({"a": lambda c, i: 1.0 + 0.01 * i, "b": lambda c, i: 1.1 + 0.02 * i,
                      "c": lambda c, i: 1.05 + 0.03 * i})
    tests = [t for t in S.paired_tests(rows) if t["metric"] == "length_ratio"]
    scopes = sorted({t["scope"] for t in tests})
    assert scopes == ["all widths", "corridor 3", "corridor 5"]
    for sc in scopes:
        fam = [t for t in tests if t["scope"] == sc]
        assert {t["family_size"] for t in fam} == {3}
        assert len({t["family"] for t in fam}) == 1 and sc in fam[0]["family"]
        # Holm within the family, by hand
        p = sorted(t["p"] for t in fam)
        adj = np.maximum.accumulate([min(1, (3 - k) * pk) for k, pk in enumerate(p)])
        assert sorted(t["p_holm"] for t in fam) == pytest.approx(adj.tolist())
    pooled = [t for t in tests if t["scope"] == "all widths"]
    assert {t["n"] for t in pooled} == {12}
    assert {t["n"] for t in tests if t["scope"] == "corridor 3"} == {6}


def test_success_is_compared_with_mcnemar_on_paired_outcomes():
    fails = {("b", c, i): False for c in (3, 5) for i in range(6) if i != 0}
    rows = make_rows({"a": lambda c, i: 1.0, "b": lambda c, i: 1.0}, success=fails)
    t = [t for t in S.paired_tests(rows) if t["metric"] == "success" and t["scope"] == "all widths"][0]
    # 10 pairs where only a succeeded, none the other way: p = 2 * 0.5**10
    assert t["test"] == "McNemar exact" and t["n"] == 12
    assert t["p"] == pytest.approx(2 * 0.5 ** 10)
    assert t["median_a"] == 1.0 and t["median_b"] == pytest.approx(2 / 12)
    assert t["effect"] == 1.0 and t["significant"]
    lines = glance_sentences(S.paired_tests(rows), S.median_intervals(rows))
    assert any("success." in x and "McNemar" in x and "`a` over `b`" in x for x in lines)


def _many_methods_rows():
    """One method clearly shorter than another (18 of 18 pairs) in a family so large
    that Holm takes the significance away: the issue's "explore vs tremaux" case."""
    rng = np.random.default_rng(7)
    vals = {"explore": lambda c, i: 1.11 + 0.01 * i,
            "tremaux": lambda c, i: 3.52 + 0.1 * ((i * 7 + c) % 5)}
    for k in range(14):   # noise methods: the family grows to 120 tests
        noise = rng.normal(2.0, 1.0, 40)
        vals[f"m{k:02d}"] = lambda c, i, z=noise: float(z[i + 6 * (c == 5)])
    return make_rows(vals, corridors=(3, 5, 7), seeds=6)


def test_strong_raw_difference_is_never_called_no_difference():
    rows = _many_methods_rows()
    tests = S.paired_tests(rows, per_width=False)
    t = [t for t in tests if {t["a"], t["b"]} == {"explore", "tremaux"}
         and t["metric"] == "length_ratio"][0]
    assert t["n"] == 18 and t["p"] == pytest.approx(2 / 2 ** 18)
    lines = glance_sentences(tests, S.median_intervals(rows))
    assert sentence_contradictions(tests, lines) == []
    # force the case: a Holm family too large for this p
    for x in tests:
        if x is t:
            x["p"], x["p_holm"], x["significant"] = 2.4e-4, 0.07, False
    lines = glance_sentences(tests, S.median_intervals(rows))
    line = [x for x in lines if "length / optimal" in x][0]
    assert "`tremaux` differs before correction" in line
    assert "No significant difference from `tremaux`" not in line
    assert sentence_contradictions(tests, lines) == []


def test_contradiction_checker_catches_a_false_no_difference_sentence():
    rows = _many_methods_rows()
    tests = S.paired_tests(rows, per_width=False)
    for x in tests:
        x["significant"] = False
        if {x["a"], x["b"]} == {"explore", "tremaux"} and x["metric"] == "length_ratio":
            x["p"] = 1e-4
    fake = ["**planners, footprint disc:0.1, length / optimal.** Best median: `explore` (1.1). "
            "No significant difference from `m00`, `tremaux`."]
    bad = sentence_contradictions(tests, fake)
    assert "**planners, footprint disc:0.1, length / optimal.** explore vs tremaux" in bad
    # the same sentence without the contradicted names passes
    ok = [f.replace("`m00`, `tremaux`", "`m03`") for f in fake]
    assert all("m03" not in b for b in sentence_contradictions(tests, ok))


def test_printed_intervals_do_not_move_with_the_bootstrap_seed():
    # bimodal differences (the follow_plan - tremaux case swung with the seed)
    rows = [r for r in _many_methods_rows() if r["method"] in ("explore", "tremaux", "m00", "m01")]
    texts = {stats_csv(S.paired_tests(rows, seed=s)) for s in range(5)}
    assert len(texts) == 1
    sections = {stats_section(rows, tests=S.paired_tests(rows, seed=s),
                              medians=S.median_intervals(rows, seed=s, per_width=True),
                              glance=True) for s in range(5)}
    assert len(sections) == 1


def test_width_tables_exist_and_state_their_families():
    rows = _many_methods_rows()
    text = stats_section(rows)
    assert "### Per corridor width" in text
    assert "| 3 | 16 | 6 | 120 |" in text and "| 7 | 16 | 6 | 120 |" in text


def test_p_values_in_stats_are_the_exact_conditional_ones():
    rows = _many_methods_rows()
    by = {(t["a"], t["b"], t["scope"]): t for t in S.paired_tests(rows)
          if t["metric"] == "length_ratio"}
    grouped = {}
    for r in rows:
        grouped.setdefault(r["method"], {})[(r["generator"], r["seed"], r["corridor"])] = \
            r["metrics"]["length_ratio"]
    a, b = grouped["m00"], grouped["m01"]
    d = [a[k] - b[k] for k in sorted(a)]
    assert by[("m00", "m01", "all widths")]["p"] == signed_rank_test(d).p


@pytest.mark.parametrize("sweep", ["ci"])
def test_sentences_agree_with_their_numbers_on_the_shipped_baseline(sweep):
    path = ROOT / "benchmarks" / "baselines" / sweep / "results.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    tests = S.paired_tests(rows)
    lines = glance_sentences(tests, S.median_intervals(rows))
    assert lines
    assert sentence_contradictions(tests, lines) == []
