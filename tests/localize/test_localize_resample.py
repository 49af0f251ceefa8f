"""Low-variance resampling, the KLD bound (against scipy's chi-square) and the adaptive cut."""

import math

import numpy as np
import pytest
from scipy.stats import chi2, norm

from robomaze.localize.resample import kld_count, low_variance_indices, resample


@pytest.mark.parametrize("seed", range(5))
def test_low_variance_copies_each_particle_floor_or_ceil_of_m_w(seed):
    rng = np.random.default_rng(seed)
    w = rng.random(37)
    w /= w.sum()
    m = 200
    counts = np.bincount(low_variance_indices(w, m, float(rng.random())), minlength=37)
    assert counts.sum() == m
    assert np.all(counts >= np.floor(m * w) - 1e-9) and np.all(counts <= np.ceil(m * w) + 1e-9)


@pytest.mark.parametrize("k", [2, 5, 30, 300])
def test_kld_bound_is_wilson_hilferty_of_the_chi_square_quantile(k):
    eps, delta = 0.05, 0.01
    exact = chi2.ppf(1 - delta, k - 1) / (2 * eps)
    approx = float(kld_count(k, eps, norm.ppf(1 - delta)))
    assert abs(approx - exact) / exact < 0.02


def test_count_adapts_to_the_spread_of_the_weights():
    rng = np.random.default_rng(1)
    spread = np.column_stack([rng.uniform(0, 5, 2000), rng.uniform(0, 5, 2000),
                              rng.uniform(-3, 3, 2000)])
    w = np.full(2000, 1 / 2000)
    wide = resample(spread, w, rng, n_min=50, n_max=2000, p_random=0.0, random_poses=None)
    peak = np.zeros(2000)
    peak[:3] = 1 / 3
    narrow = resample(spread, peak, rng, n_min=50, n_max=2000, p_random=0.0, random_poses=None)
    # three particles in three bins: the KLD bound of k = 3; the uniform cloud needs all
    assert len(narrow) == math.ceil(kld_count(3)) and len(wide) == 2000


def test_resampled_mean_is_unbiased_and_injection_rate_is_p_random():
    rng = np.random.default_rng(2)
    p = np.column_stack([np.linspace(0, 1, 1000), np.zeros(1000), np.zeros(1000)])
    w = p[:, 0] / p[:, 0].sum()          # mean of x under w: E[x^2]/E[x] = 2/3
    means, injected = [], []
    for _ in range(200):
        out = resample(p, w, rng, n_min=100, n_max=100, p_random=0.25,
                       random_poses=lambda n: np.full((n, 3), 99.0))
        real = out[out[:, 0] != 99.0]
        means.append(real[:, 0].mean())
        injected.append(np.mean(out[:, 0] == 99.0))
    assert abs(np.mean(means) - 2 / 3) < 0.005
    assert abs(np.mean(injected) - 0.25) < 3 * math.sqrt(0.25 * 0.75 / 20000)


@pytest.mark.parametrize("seed", range(3))
def test_dense_kld_kernel_and_the_sorting_fallback_cut_alike(monkeypatch, seed):
    from robomaze.localize import resample as mod

    rng = np.random.default_rng(seed)
    p = np.column_stack([rng.normal(0, 0.05, 800), rng.normal(0, 0.05, 800),
                         rng.uniform(-0.3, 0.3, 800)])
    w = rng.random(800)
    w /= w.sum()
    dense = resample(p, w, np.random.default_rng(9), n_min=20, n_max=800, p_random=0.0,
                     random_poses=None)
    monkeypatch.setattr(mod, "DENSE_BINS", 0)
    sparse = resample(p, w, np.random.default_rng(9), n_min=20, n_max=800, p_random=0.0,
                      random_poses=None)
    assert 20 < len(dense) < 800 and np.array_equal(dense, sparse)
