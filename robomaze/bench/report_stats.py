"""The report's statistics: significant differences in words, medians with intervals.

:func:`stats_section` writes the Markdown section and :func:`stats_csv` the
table of every paired test (``stats.csv``); the numbers come from
:mod:`robomaze.bench.stats`. The sentences name only differences that are
significant after the Holm correction, each with its medians, the paired
test, the adjusted p-value and the effect size.
"""

from __future__ import annotations

import csv
import io
import math

from . import stats as S

__all__ = ["stats_section", "stats_csv", "STATS_COLUMNS", "glance_sentences",
           "sentence_contradictions", "width_tables"]

STATS_COLUMNS = ("kind", "footprint", "setting", "scope", "metric", "a", "b", "n", "median_a",
                 "median_b", "median_diff", "diff_low", "diff_high", "test", "p", "family",
                 "family_size", "p_holm", "effect", "significant")
_WORDS = {"length_ratio": ("length / optimal", "shorter", "longer"),
          "min_clearance": ("minimum clearance (m)", "safer (more clearance)", "closer to walls")}
_KIND = {"plan": "planners", "simulate": "agents"}


def _g(v, digits: int = 3) -> str:
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return "n/a"
    return f"{v:.{digits}g}"


def _p(p: float) -> str:
    return "< 1e-12" if p < 1e-12 else f"= {p:.2g}"


def _span(values, spec: str = "") -> str:
    """``"a to b"`` of a list of numbers, or ``"a"`` when they are all equal.

    >>> _span([30, 30]), _span([12, 18]), _span([-1.0, -0.5], ".2f")
    ('30', '12 to 18', '-1.00 to -0.50')
    """
    lo, hi = min(values), max(values)
    return format(lo, spec) if lo == hi else f"{format(lo, spec)} to {format(hi, spec)}"


def _family_name(kind: str, fp: str, setting: str) -> str:
    return f"{_KIND.get(kind, kind)}, footprint {fp}" + (f" ({setting})" if setting else "")


def _strong(t: dict, flip: bool) -> str:
    """A raw-strong, Holm-non-significant comparison, said as such (never "no difference")."""
    other = t["a"] if flip else t["b"]
    eff = -t["effect"] if flip else t["effect"]
    return (f"`{other}` differs before correction (raw p {_p(t['p'])}, r = {eff:.2f}, "
            f"n = {t['n']}) but not after Holm over its family's {t['family_size']} tests")


def glance_sentences(tests: list[dict], medians: list[dict], *,
                     scope: str = S.POOLED) -> list[str]:
    """Per family and metric: the best method by median and who is significantly worse.

    Only Holm-significant differences are called differences. A method is
    said to show "no significant difference" from the best only when the
    raw test does not speak for one (:func:`robomaze.bench.stats.
    strong_but_not_significant`); otherwise the sentence gives its raw p
    and effect and says the correction is what removes it. ``scope``
    picks the pooled tests (default) or one corridor width's.
    """
    tests = [t for t in tests if t.get("scope", S.POOLED) == scope]
    med = {(m["kind"], m["footprint"], m["setting"], m["method"], m["metric"]): m for m in medians
           if m.get("scope", S.POOLED) == scope}
    fams = sorted({(t["kind"], t["footprint"], t["setting"]) for t in tests})
    out = []
    for fam in fams:
        for metric, better in S.METRICS.items():
            part = [t for t in tests if (t["kind"], t["footprint"], t["setting"]) == fam
                    and t["metric"] == metric]
            if not part:
                continue
            names = sorted({t["a"] for t in part} | {t["b"] for t in part})
            meds = {n: med.get((*fam, n, metric)) for n in names}
            ranked = [n for n in names if meds[n] is not None]
            if not ranked:
                continue
            sign = 1 if better == "lower" else -1
            best = min(ranked, key=lambda n: (sign * meds[n]["median"], n))
            size = part[0].get("family_size", len(part))
            beaten, tied, strong = [], [], []
            for t in part:
                if best not in (t["a"], t["b"]):
                    continue
                flip = t["b"] == best
                other = t["a"] if flip else t["b"]
                diff = -t["median_diff"] if flip else t["median_diff"]
                eff = -t["effect"] if flip else t["effect"]
                lo, hi = ((-t["diff_high"], -t["diff_low"]) if flip
                          else (t["diff_low"], t["diff_high"]))
                if t["significant"] and sign * diff <= 0 and sign * eff <= 0:
                    beaten.append((other, diff, lo, hi, t["p_holm"], eff, t["n"]))
                elif S.strong_but_not_significant(t):
                    strong.append(_strong(t, flip))
                elif not t["significant"]:
                    tied.append(other)
            label, good, _ = _WORDS[metric]
            b = meds[best]
            where = (f"Wilcoxon signed-rank, exact with ties, on the pairs where both reached "
                     f"the goal; Holm over the family's {size} tests")
            if not any(t["significant"] for t in part) and not any(
                    S.strong_but_not_significant(t) for t in part):
                ns = sorted({t["n"] for t in part})
                out.append(f"**{_family_name(*fam)}, {label}.** No significant difference "
                           f"between any two of the {len(names)} methods ({where}; "
                           f"{_span(ns)} paired runs).")
                continue
            head = (f"**{_family_name(*fam)}, {label}.** Best median: `{best}` "
                    f"({_g(b['median'])}, bootstrap 95% CI {_g(b['low'])}-{_g(b['high'])}, "
                    f"{b['n']} successful runs).")
            if beaten:
                beaten.sort(key=lambda x: x[4])
                worst_p = max(x[4] for x in beaten)
                effs = [x[5] for x in beaten]
                if len(beaten) <= 3:
                    detail = "; ".join(
                        f"`{o}` (paired median difference {_g(d)}, 95% CI {_g(lo)} to {_g(hi)}, "
                        f"n = {n}, r = {e:.2f})" for o, d, lo, hi, _, e, n in beaten)
                else:
                    diffs = [x[1] for x in beaten]
                    detail = (", ".join(f"`{x[0]}`" for x in sorted(beaten)) + " (paired median "
                              f"differences {_g(min(diffs))} to {_g(max(diffs))}, "
                              f"{_span([x[6] for x in beaten])} pairs each; "
                              "per-pair intervals in `stats.csv`)")
                head += (f" It is significantly {good} than {len(beaten)} of the "
                         f"{len(names) - 1} others ({where}, adjusted p "
                         f"{'<=' if worst_p >= 1e-12 else '<'} {max(worst_p, 1e-12):.2g}; "
                         f"matched-pairs rank-biserial r "
                         f"{_span([round(e, 2) for e in effs], '.2f')}): {detail}.")
            if strong:
                head += " " + "; ".join(strong) + "."
            if tied:
                head += (" No significant difference from " + ", ".join(f"`{o}`" for o in sorted(tied))
                         + ".")
            others = sum(t["significant"] for t in part if best not in (t["a"], t["b"]))
            if others:
                head += (f" {others} other pair{'s' if others > 1 else ''} of methods differ "
                         "significantly (`stats.csv`).")
            out.append(head)
        succ = [t for t in tests if (t["kind"], t["footprint"], t["setting"]) == fam
                and t["metric"] == "success" and t["significant"]]
        if succ:
            parts = []
            for t in sorted(succ, key=lambda t: t["p_holm"]):
                hi_, lo_ = (t["a"], t["b"]) if t["median_diff"] > 0 else (t["b"], t["a"])
                ra, rb = max(t["median_a"], t["median_b"]), min(t["median_a"], t["median_b"])
                parts.append(f"`{hi_}` over `{lo_}` ({ra:.0%} vs {rb:.0%} of {t['n']} paired "
                             f"runs, adjusted p {_p(t['p_holm'])})")
            out.append(f"**{_family_name(*fam)}, success.** Reached the goal significantly "
                       f"more often (McNemar's exact test on paired outcomes, Holm over the "
                       f"family's {succ[0]['family_size']} tests): " + "; ".join(parts) + ".")
    return out


def sentence_contradictions(tests: list[dict], sentences: list[str]) -> list[str]:
    """Claims of "no significant difference" that a test's raw numbers contradict.

    For every sentence, each method it says shows "no significant
    difference" from the best -- and every pair of a family it says has
    none -- is looked up among ``tests``; a claim is contradicted when that
    test has raw ``p < 1e-3`` and ``|r| > 0.5`` (:func:`robomaze.bench.stats.
    strong_but_not_significant`). The report's generator must return an
    empty list on any sweep (checked by the tests and by
    ``benchmarks/check_report_sentences.py`` on the shipped sweeps).
    """
    import re

    bad = []
    by_fam: dict[str, list] = {}
    for t in tests:
        if t.get("scope", S.POOLED) == S.POOLED and t["metric"] in _WORDS:
            label = f"**{_family_name(t['kind'], t['footprint'], t['setting'])}, " \
                    f"{_WORDS[t['metric']][0]}.**"
            by_fam.setdefault(label, []).append(t)
    for s in sentences:
        label = next((lab for lab in by_fam if s.startswith(lab)), None)
        if label is None:
            continue
        part = by_fam[label]
        if "No significant difference between any two" in s:
            bad += [f"{label} {t['a']} vs {t['b']}" for t in part
                    if S.strong_but_not_significant(t)]
            continue
        m = re.search(r"Best median: `([^`]+)`", s)
        tied = re.search(r"No significant difference from (.*?)\.(?: |$)", s)
        if not m or not tied:
            continue
        best = m.group(1)
        for other in re.findall(r"`([^`]+)`", tied.group(1)):
            bad += [f"{label} {best} vs {other}" for t in part
                    if {t["a"], t["b"]} == {best, other} and S.strong_but_not_significant(t)]
    return bad


def width_tables(tests: list[dict], medians_by_width: list[dict]) -> str:
    """Per family and metric: one row per corridor width (each width its own Holm family)."""
    per = [t for t in tests if t.get("scope", S.POOLED) != S.POOLED and t["metric"] in _WORDS]
    if not per:
        return ""
    med = {(m["kind"], m["footprint"], m["setting"], m["scope"], m["method"], m["metric"]): m
           for m in medians_by_width}
    out = ["### Per corridor width\n",
           "The same comparisons at each corridor width alone (the pairs of one width: "
           "generators x seeds). Each width and metric is its own Holm family (its size in "
           "the table); the best median's 95% interval is the exact percentile bootstrap. "
           "With few pairs per width the smallest possible exact p-value is 2 / 2^n, so a "
           "width with few pairs can show no significant difference even where the pooled "
           "test does.\n"]
    fams = sorted({(t["kind"], t["footprint"], t["setting"]) for t in per})
    for fam in fams:
        for metric, better in S.METRICS.items():
            part = [t for t in per if (t["kind"], t["footprint"], t["setting"]) == fam
                    and t["metric"] == metric]
            if not part:
                continue
            out.append(f"**{_family_name(*fam)}, {_WORDS[metric][0]}**\n")
            out.append("| width | methods | pairs | tests (Holm family) | significant | "
                       "best median (95% CI) | significantly worse than the best | "
                       "raw p < 1e-3, abs(r) > 0.5, not significant |")
            out.append("|---|---|---|---|---|---|---|---|")
            scopes = sorted({t["scope"] for t in part}, key=_scope_key)
            sign = 1 if better == "lower" else -1
            for sc in scopes:
                ts = [t for t in part if t["scope"] == sc]
                names = sorted({t["a"] for t in ts} | {t["b"] for t in ts})
                meds = {n: med.get((*fam, sc, n, metric)) for n in names}
                ranked = [n for n in names if meds[n] is not None]
                best = min(ranked, key=lambda n: (sign * meds[n]["median"], n)) if ranked else None
                worse = sorted((t["b"] if t["a"] == best else t["a"]) for t in ts
                               if best in (t["a"], t["b"]) and t["significant"]
                               and sign * (t["median_diff"] if t["a"] == best
                                           else -t["median_diff"]) <= 0)
                strong = sorted(f"{t['a']} vs {t['b']}" for t in ts
                                if S.strong_but_not_significant(t))
                bm = meds.get(best) if best else None
                out.append(f"| {sc.replace('corridor ', '')} | {len(names)} | "
                           f"{_span([t['n'] for t in ts])} | {len(ts)} | "
                           f"{sum(t['significant'] for t in ts)} | "
                           + (f"`{best}` {_g(bm['median'])} ({_g(bm['low'])}-{_g(bm['high'])})"
                              if bm else "") + " | "
                           + ", ".join(f"`{w}`" for w in worse) + " | "
                           + ", ".join(strong) + " |")
            out.append("")
    return "\n".join(out) + "\n"


def _scope_key(scope: str):
    tail = scope.rsplit(" ", 1)[-1]
    try:
        return (0, float(tail), scope)
    except ValueError:
        return (1, 0.0, scope)


def _success_table(rates: list[dict], medians: list[dict]) -> str:
    med = {(m["kind"], m["footprint"], m["setting"], m["method"], m["metric"]): m for m in medians
           if m.get("scope", S.POOLED) == S.POOLED}
    lines = []
    fams = sorted({(r["kind"], r["footprint"], r["setting"]) for r in rates})
    for fam in fams:
        lines.append(f"**{_family_name(*fam)}**\n")
        lines.append("| method | success (Wilson 95%) | median length / optimal (95% CI) | "
                     "median min clearance, m (95% CI) |")
        lines.append("|---|---|---|---|")
        for r in (r for r in rates if (r["kind"], r["footprint"], r["setting"]) == fam):
            cells = [f"{r['successes']}/{r['runs']} = {_g(r['rate'], 2)} "
                     f"({_g(r['low'], 2)}-{_g(r['high'], 2)})"
                     + (f", {r['infra_failures']} infrastructure failures" if r["infra_failures"]
                        else "")]
            for metric in S.METRICS:
                m = med.get((*fam, r["method"], metric))
                cells.append(f"{_g(m['median'])} ({_g(m['low'])}-{_g(m['high'])})" if m else "")
            lines.append(f"| {r['method']} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines) + "\n"


def stats_csv(tests: list[dict]) -> str:
    """Every paired test as CSV (``stats.csv``)."""
    fh = io.StringIO(newline="")
    w = csv.DictWriter(fh, fieldnames=STATS_COLUMNS, extrasaction="ignore")
    w.writeheader()
    for t in tests:
        w.writerow(t)
    return fh.getvalue()


def stats_section(rows: list[dict], *, tests: list[dict] | None = None,
                  medians: list[dict] | None = None, glance: bool = False) -> str:
    """The "Statistics" section of ``report.md`` ("" when nothing can be paired).

    ``glance``: also list the sentences of :func:`glance_sentences` (the
    report puts them under "At a glance" instead).
    """
    tests = S.paired_tests(rows) if tests is None else tests
    rates = S.success_rates([r for r in rows if r.get("kind") in ("plan", "simulate")])
    if not rates:
        return ""
    medians = S.median_intervals(rows, per_width=True) if medians is None else medians
    n_sig = sum(t["significant"] for t in tests)
    pooled = [t for t in tests if t.get("scope", S.POOLED) == S.POOLED]
    n_fam = len({t.get("family") for t in tests})
    merged = sorted({m for t in tests for m in (t["a"], t["b"]) if " = " in m})
    out = ["## Statistics: which differences are real\n",
           "Two methods of the same kind (planner or agent) are compared on the runs they "
           "share -- same maze source, seed, widening level, footprint and setting. Methods "
           "that are identical in every run (same outcome, metrics and length) are merged "
           "first and named together"
           + (f" ({', '.join(f'`{m}`' for m in merged)})" if merged else "")
           + ", as the figures draw them. Length / optimal and minimum clearance are "
           "compared over the pairs in which *both* runs reached the goal, with the Wilcoxon "
           "signed-rank test and its exact p-value conditional on the observed mid-ranks "
           "(ties and zero differences are common; zeros are dropped); whether a run reached "
           "the goal is compared separately, over every pair, with McNemar's exact test. "
           "Every comparison is made pooled over the corridor widths and at each width "
           "alone. Holm's correction runs within a stated family: all pairwise tests of one "
           f"kind, footprint, setting, scope (pooled or one width) and metric (alpha = "
           f"{S.ALPHA}; {n_fam} families, the family and its size on every row of "
           "`stats.csv`). Effect size is the matched-pairs rank-biserial correlation r (-1 to "
           "1; negative when the first-named method has the smaller values in most pairs); "
           "intervals of medians are percentile bootstrap 95% intervals computed from the "
           "exact bootstrap distribution of the median (no resampling seed, so re-running "
           "the report cannot move them); success rates carry Wilson score 95% intervals. "
           "A difference whose raw test is strong (p < 1e-3, |r| > 0.5) but does not "
           "survive the correction is said so, never called \"no difference\". "
           f"{n_sig} of the {len(tests)} comparisons are significant ({len(pooled)} pooled, "
           f"{len(tests) - len(pooled)} per width); every test is in `stats.csv`. Where the "
           "reference is `theta_star` itself (rectangles and polygons) its own ratio is 1 by "
           "construction.\n"]
    sentences = glance_sentences(tests, medians) if glance else []
    if sentences:
        out.append("### At a glance (significant differences only)\n")
        out.extend(f"- {s}" for s in sentences)
        out.append("")
    out.append("### Success rates and medians\n")
    out.append(_success_table(rates, medians))
    out.append(width_tables(tests, [m for m in medians if m.get("scope", S.POOLED) != S.POOLED]))
    return "\n".join(out) + "\n"
