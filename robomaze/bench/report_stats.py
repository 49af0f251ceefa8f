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

__all__ = ["stats_section", "stats_csv", "STATS_COLUMNS", "glance_sentences"]

STATS_COLUMNS = ("kind", "footprint", "setting", "metric", "a", "b", "n", "median_a", "median_b",
                 "median_diff", "diff_low", "diff_high", "p", "p_holm", "effect", "significant")
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


def glance_sentences(tests: list[dict], medians: list[dict]) -> list[str]:
    """Per family and metric: the best method by median and who is significantly worse.

    Only Holm-significant differences are stated; methods not
    significantly different from the best are named as such.
    """
    med = {(m["kind"], m["footprint"], m["setting"], m["method"], m["metric"]): m for m in medians}
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
            beaten, tied = [], []
            for t in part:
                if best not in (t["a"], t["b"]):
                    continue
                other = t["b"] if t["a"] == best else t["a"]
                diff = t["median_diff"] if t["a"] == best else -t["median_diff"]
                eff = t["effect"] if t["a"] == best else -t["effect"]
                lo, hi = ((t["diff_low"], t["diff_high"]) if t["a"] == best
                          else (-t["diff_high"], -t["diff_low"]))
                if t["significant"] and sign * diff <= 0 and sign * eff <= 0:
                    beaten.append((other, diff, lo, hi, t["p_holm"], eff, t["n"]))
                elif not t["significant"]:
                    tied.append(other)
            label, good, _ = _WORDS[metric]
            b = meds[best]
            if not any(t["significant"] for t in part):
                ns = sorted({t["n"] for t in part})
                out.append(f"**{_family_name(*fam)}, {label}.** No significant difference "
                           f"between any two of the {len(names)} methods (Wilcoxon signed-rank "
                           f"on {_span(ns)} paired runs, Holm-corrected).")
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
                         f"{len(names) - 1} others (Wilcoxon signed-rank on paired runs, "
                         f"Holm-adjusted p {'<=' if worst_p >= 1e-12 else '<'} "
                         f"{max(worst_p, 1e-12):.2g}; matched-pairs rank-biserial r "
                         f"{_span([round(e, 2) for e in effs], '.2f')}): {detail}.")
            if tied:
                head += (" No significant difference from " + ", ".join(f"`{o}`" for o in sorted(tied))
                         + ".")
            others = sum(t["significant"] for t in part if best not in (t["a"], t["b"]))
            if others:
                head += (f" {others} other pair{'s' if others > 1 else ''} of methods differ "
                         "significantly (`stats.csv`).")
            out.append(head)
    return out


def _success_table(rates: list[dict], medians: list[dict]) -> str:
    med = {(m["kind"], m["footprint"], m["setting"], m["method"], m["metric"]): m for m in medians}
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
    medians = S.median_intervals(rows) if medians is None else medians
    n_sig = sum(t["significant"] for t in tests)
    out = ["## Statistics: which differences are real\n",
           "Two methods of the same kind (planner or agent) are compared on the runs they "
           "share -- same maze source, seed, widening level, footprint and setting -- over "
           "the pairs in which both reached the goal: the Wilcoxon signed-rank test on the "
           "paired differences of length / optimal and of minimum clearance, Holm-corrected "
           f"over all {len(tests)} tests of this report (alpha = {S.ALPHA}); effect size "
           "is the matched-pairs rank-biserial correlation r (-1 to 1; negative when the "
           "first-named method has the smaller values in most pairs); intervals are "
           "percentile bootstrap 95% intervals (2000 resamples, seeded) of medians; success "
           "rates carry Wilson score 95% intervals. Identical methods (the same path in "
           "every pair) are never called different. "
           f"{n_sig} of the {len(tests)} comparisons are significant; every test is in "
           "`stats.csv`. Where the reference is `theta_star` itself (rectangles and "
           "polygons) its own ratio is 1 by construction.\n"]
    sentences = glance_sentences(tests, medians) if glance else []
    if sentences:
        out.append("### At a glance (significant differences only)\n")
        out.extend(f"- {s}" for s in sentences)
        out.append("")
    out.append("### Success rates and medians\n")
    out.append(_success_table(rates, medians))
    return "\n".join(out) + "\n"
