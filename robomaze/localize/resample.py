"""Low-variance resampling with a KLD-adaptive sample count and random injection.

:func:`low_variance_indices` is the systematic resampler of Probabilistic
Robotics (table 4.4): one uniform offset ``r`` in ``[0, 1/M)`` and ``M``
equally spaced pointers into the cumulative weights, so a particle of
weight ``w`` is copied ``floor(M w)`` or ``ceil(M w)`` times.

:func:`kld_count` is the bound of KLD sampling (Fox 2003) on the number of
samples needed so that, with probability ``1 - delta`` (``z`` its upper
quantile), the K-L divergence between the sample-based and the true
posterior stays below ``epsilon`` when the posterior occupies ``k`` bins.

:func:`resample` combines them as Nav2 AMCL's KLD loop does, without its
multinomial draws: a low-variance sample of ``n_max`` particles is visited
in a random order, each copy replaced with probability ``p_random`` by a
random pose (augmented MCL), and the set is cut at the first size ``m``
with ``m >= max(n_min, kld_count(k(m)))``, ``k(m)`` the bins occupied by
the first ``m``. A uniformly random subset of a systematic sample is an
unbiased sample, so the cut keeps the low variance.
"""

from __future__ import annotations

import math

import numpy as np

from . import _kernels

__all__ = ["low_variance_indices", "kld_count", "resample", "flat_keys"]

#: Largest histogram (bins in the particles' bounding box) counted in a dense table.
DENSE_BINS = 4_000_000


def flat_keys(bins: np.ndarray) -> np.ndarray:
    """One int64 per row of integer bin indices ``(n, d)``, equal exactly when the rows are.

    (A 1-D ``np.unique`` is many times faster than ``np.unique(axis=0)``.)

    >>> flat_keys(np.array([[0, 1], [2, -1], [0, 1]])).tolist()
    [2, 6, 2]
    """
    lo = bins.min(axis=0)
    span = bins.max(axis=0) - lo + 1
    key = np.zeros(len(bins), np.int64)
    for j in range(bins.shape[1]):
        key = key * span[j] + (bins[:, j] - lo[j])
    return key


def low_variance_indices(weights: np.ndarray, m: int, r: float) -> np.ndarray:
    """Indices of ``m`` systematic draws from normalised ``weights`` with offset ``r`` in [0, 1).

    >>> low_variance_indices(np.array([0.5, 0.25, 0.25]), 4, 0.5).tolist()
    [0, 0, 1, 2]
    """
    c = np.cumsum(weights)
    c[-1] = 1.0   # guard against rounding below the last pointer
    u = (r + np.arange(m)) / m
    return np.searchsorted(c, u, side="right").clip(0, len(weights) - 1)


def kld_count(k, epsilon: float = 0.05, z: float = 2.326) -> np.ndarray:
    """KLD-sampling bound for ``k`` occupied bins (array or scalar; 0 for ``k <= 1``).

    ``n = (k - 1) / (2 epsilon) * (1 - 2 / (9 (k - 1)) + sqrt(2 / (9 (k - 1))) z)^3``

    >>> round(float(kld_count(2)), 2), int(kld_count(1))
    (65.84, 0)
    """
    k = np.asarray(k, float)
    km = np.maximum(k - 1.0, 1.0)
    a = 2.0 / (9.0 * km)
    n = km / (2.0 * epsilon) * (1.0 - a + np.sqrt(a) * z) ** 3
    return np.where(k > 1, n, 0.0)


def resample(particles: np.ndarray, weights: np.ndarray, rng: np.random.Generator, *,
             n_min: int, n_max: int, p_random: float, random_poses, bin_size=(0.1, 0.1,
             math.radians(10)), epsilon: float = 0.05, z: float = 2.326) -> np.ndarray:
    """The next particle set (see the module docstring); ``random_poses(n)`` draws ``(n, 3)``.

    >>> rng = np.random.default_rng(0)
    >>> p = np.array([[0.0, 0.0, 0.0], [5.0, 5.0, 0.0]])
    >>> out = resample(p, np.array([1.0, 0.0]), rng, n_min=10, n_max=50, p_random=0.0,
    ...                random_poses=None)
    >>> out.shape, bool((out == 0).all())
    ((10, 3), True)
    """
    idx = low_variance_indices(weights, n_max, float(rng.random()))
    order = rng.permutation(n_max)
    cand = particles[idx[order]].copy()
    if p_random > 0.0:
        swap = rng.random(n_max) < p_random
        n_swap = int(np.count_nonzero(swap))
        if n_swap:
            cand[swap] = random_poses(n_swap)
    bins = np.floor(cand / np.asarray(bin_size, float)).astype(np.int64)
    lo = bins.min(axis=0)
    span = bins.max(axis=0) - lo + 1
    if int(np.prod(span)) <= DENSE_BINS:
        keys = flat_keys(bins)
        n = int(_kernels.kld_cut(keys, np.zeros(int(np.prod(span)), bool), int(n_min),
                                 float(epsilon), float(z)))
    else:                                       # bins spread too far for a dense table
        _, first = np.unique(flat_keys(bins), return_index=True)
        new_bin = np.zeros(n_max, bool)
        new_bin[first] = True
        k = np.cumsum(new_bin)                  # bins occupied by the first m+1 samples
        need = np.maximum(kld_count(k, epsilon, z), n_min)
        m = np.arange(1, n_max + 1)
        ok = np.flatnonzero(m >= need)
        n = int(m[ok[0]]) if len(ok) else n_max
    return np.ascontiguousarray(cand[:n])
