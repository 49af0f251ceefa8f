"""Exact statistics against brute-force enumeration and independent references."""

import itertools
import math

import numpy as np
import pytest
from scipy.stats import binom, rankdata, wilcoxon

from robomaze.bench import stats_exact as E
from robomaze.errors import ParameterError


def _brute_signed_rank(d):
    """Every sign pattern of the non-zero differences, mid-ranks, two-sided."""
    d = np.asarray(d, float)
    nz = d[d != 0]
    r = rankdata(np.abs(nz))
    e = r.sum() / 2
    obs = abs(r[nz > 0].sum() - e)
    hits = 0
    for signs in itertools.product((0, 1), repeat=len(r)):
        w = sum(ri for ri, s in zip(r, signs) if s)
        hits += abs(w - e) >= obs - 1e-9
    return hits / 2 ** len(r)


@pytest.mark.parametrize("seed", range(12))
def test_signed_rank_matches_brute_force_with_ties_and_zeros(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 13))
    # few distinct magnitudes: many ties, some zeros
    d = rng.integers(-3, 4, size=n).astype(float) * 0.25
    if not np.any(d):
        d[0] = 0.5
    t = E.signed_rank_test(d)
    assert t.method == "exact"
    assert t.n == int(np.count_nonzero(d))
    assert t.p == pytest.approx(_brute_signed_rank(d), abs=1e-12)


def test_signed_rank_without_ties_is_scipys_exact_test():
    rng = np.random.default_rng(3)
    for n in (5, 9, 14, 20):
        d = rng.normal(size=n) + 0.3
        ref = wilcoxon(d, method="exact").pvalue
        assert E.signed_rank_test(d).p == pytest.approx(ref, rel=1e-9)


def test_ties_change_the_p_value_from_the_normal_approximation():
    # 18 of 18 pairs shorter, all tied at two magnitudes: exact p = 2 / 2**18
    d = np.array([-0.1] * 9 + [-0.2] * 9)
    assert E.signed_rank_test(d).p == pytest.approx(2 / 2 ** 18, rel=1e-12)
    approx = wilcoxon(d, method="approx").pvalue
    assert approx > 10 * E.signed_rank_test(d).p


def test_permutation_fallback_agrees_with_exact_within_monte_carlo_error(monkeypatch):
    d = np.array([1, -1, 2, 2, 3, -0.5, 4, 1, 2, 5, -3, 0.5, 1.5, 2.5, 3.5, 0.75])
    exact = E.signed_rank_test(d)
    monkeypatch.setattr(E, "MAX_CELLS", 0)
    perm = E.signed_rank_test(d, seed=1)
    assert perm.method == "permutation"
    sd = math.sqrt(exact.p * (1 - exact.p) / E.PERMUTATIONS)
    assert abs(perm.p - exact.p) < 4 * sd + 1 / E.PERMUTATIONS
    assert E.signed_rank_test(d, seed=1) == perm   # seeded: same bytes


def test_all_zero_differences_and_bad_input():
    assert E.signed_rank_test([0.0, 0.0]).p == 1.0
    with pytest.raises(ParameterError, match="finite"):
        E.signed_rank_test([1.0, math.nan])


@pytest.mark.parametrize("b,c", [(0, 0), (5, 0), (7, 2), (3, 9), (10, 10), (1, 12)])
def test_mcnemar_is_the_two_sided_binomial_of_discordant_pairs(b, c):
    n = b + c
    if n == 0:
        assert E.mcnemar(b, c).p == 1.0
        return
    probs = binom.pmf(np.arange(n + 1), n, 0.5)
    ref = probs[probs <= probs[b] * (1 + 1e-7)].sum()
    assert E.mcnemar(b, c).p == pytest.approx(min(1.0, ref), rel=1e-9)


@pytest.mark.parametrize("x", [[3.0, 1.0, 2.0], [1.0, 2.0, 2.0, 5.0], [0.0, 1.0, 4.0, 9.0, 16.0],
                               [1.0, 1.0, 3.0, 7.0, 7.0, 8.0]])
def test_bootstrap_median_distribution_matches_all_resamples(x):
    n = len(x)
    ref: dict[float, float] = {}
    for idx in itertools.product(range(n), repeat=n):
        m = float(np.median([x[i] for i in idx]))
        ref[m] = ref.get(m, 0.0) + 1.0 / n ** n
    vals, probs = E.median_bootstrap_distribution(x)
    assert sorted(ref) == pytest.approx(vals.tolist())
    assert [ref[v] for v in sorted(ref)] == pytest.approx(probs.tolist(), abs=1e-12)


@pytest.mark.parametrize("n", [11, 12])
def test_bootstrap_interval_is_the_limit_of_the_random_bootstrap(n):
    rng = np.random.default_rng(n)
    x = np.concatenate([rng.normal(0, 0.01, n // 2), rng.normal(-0.8, 0.01, n - n // 2)])
    lo, hi = E.bootstrap_median_exact(x)
    meds = np.median(x[rng.integers(0, n, size=(200_000, n))], axis=1)
    # the empirical 2.5% / 97.5% quantiles land on (or next to) the exact ends
    vals, _ = E.median_bootstrap_distribution(x)
    for end, q in ((lo, 0.025), (hi, 0.975)):
        emp = np.quantile(meds, q, method="inverted_cdf")
        assert abs(np.searchsorted(vals, emp) - np.searchsorted(vals, end)) <= 1
