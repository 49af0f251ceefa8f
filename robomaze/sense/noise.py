"""Composable range-noise models.

A noise model is a callable ``model(ranges, *, rng, range_min, range_max)``
that takes the *exact* ranges (any shape, metres) and returns noisy ones of
the same shape; it never modifies its input. Models compose left to right
with :func:`compose` (or by passing a list as a sensor's ``noise``); the
sensor finishes the readings once, after all noise (REP 117: ``range_max``
or beyond reads ``+inf``, "no return"; below ``range_min`` reads
``range_min``; NaN stays), so the models themselves may return out-of-range
values.

Models
------
:class:`Gaussian` ``r + N(0, sigma)``; :class:`Proportional`
``r + N(0, fraction * r)``; :class:`Dropout` replaces each reading with
probability ``p`` by ``value`` -- by default ``+inf``, i.e. "no return",
which is what a real scanner reports for a lost echo (REP 117); and
:class:`BeamModel`, the four-part mixture of Thrun, Burgard & Fox,
*Probabilistic Robotics* (2005), sec. 6.3: each reading is drawn from
``hit`` (``N(r, sigma_hit)``), ``short`` (exponential with rate
``lambda_short`` truncated to ``[0, r]``: unexpected objects in front),
``max`` (exactly ``range_max``: a missed echo) or ``rand`` (uniform on
``[0, range_max]``), with probabilities proportional to ``z_hit, z_short,
z_max, z_rand``.

>>> import numpy as np
>>> noisy = Gaussian(0.01)(np.full(4, 2.0), rng=np.random.default_rng(0),
...                         range_min=0.0, range_max=10.0)
>>> bool(np.all(np.abs(noisy - 2.0) < 0.05))
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from .._validate import check_float, check_fraction
from ..errors import ParameterError

__all__ = ["Gaussian", "Proportional", "Dropout", "BeamModel", "Compose", "compose",
           "as_noise", "NoiseModel"]

NoiseModel = Callable[..., np.ndarray]


@dataclass(frozen=True)
class Gaussian:
    """Additive zero-mean Gaussian noise of standard deviation ``sigma`` metres."""

    sigma: float

    def __post_init__(self) -> None:
        check_float("sigma", self.sigma, min_value=0.0)

    def __call__(self, ranges, *, rng, range_min, range_max):
        r = np.asarray(ranges, float)
        return r + rng.normal(0.0, self.sigma, size=r.shape)


@dataclass(frozen=True)
class Proportional:
    """Zero-mean Gaussian noise whose spread grows with range: ``sigma = fraction * r``."""

    fraction: float

    def __post_init__(self) -> None:
        check_float("fraction", self.fraction, min_value=0.0)

    def __call__(self, ranges, *, rng, range_min, range_max):
        r = np.asarray(ranges, float)
        return r + rng.normal(0.0, 1.0, size=r.shape) * (self.fraction * r)


@dataclass(frozen=True)
class Dropout:
    """Each reading is lost with probability ``p`` and reported as ``value``.

    ``value=None`` (the default) reports a lost reading as ``+inf`` ("no
    return", REP 117); pass ``float('nan')`` to mark it as invalid instead
    (NaN survives the sensor's finishing).
    """

    p: float
    value: float | None = None

    def __post_init__(self) -> None:
        check_fraction("p", self.p)

    def __call__(self, ranges, *, rng, range_min, range_max):
        r = np.array(ranges, float, copy=True)
        lost = rng.random(r.shape) < self.p
        r[lost] = math.inf if self.value is None else self.value
        return r


@dataclass(frozen=True)
class BeamModel:
    """The beam-model mixture (hit / short / max / random) of *Probabilistic Robotics*.

    Weights need not sum to 1; they are normalised.
    """

    z_hit: float = 0.85
    z_short: float = 0.05
    z_max: float = 0.05
    z_rand: float = 0.05
    sigma_hit: float = 0.02
    lambda_short: float = 1.0

    def __post_init__(self) -> None:
        for name in ("z_hit", "z_short", "z_max", "z_rand"):
            check_float(name, getattr(self, name), min_value=0.0)
        if self.z_hit + self.z_short + self.z_max + self.z_rand <= 0:
            raise ParameterError("BeamModel weights must not all be 0")
        check_float("sigma_hit", self.sigma_hit, min_value=0.0)
        check_float("lambda_short", self.lambda_short, min_value=0.0, strict_min=True)

    @property
    def weights(self) -> np.ndarray:
        """Normalised ``(hit, short, max, rand)`` probabilities."""
        w = np.array([self.z_hit, self.z_short, self.z_max, self.z_rand], float)
        return w / w.sum()

    def __call__(self, ranges, *, rng, range_min, range_max):
        r = np.asarray(ranges, float)
        comp = rng.choice(4, size=r.shape, p=self.weights)
        u = rng.random(r.shape)
        hit = r + rng.normal(0.0, 1.0, size=r.shape) * self.sigma_hit
        # Inverse CDF of the exponential truncated to [0, r].
        lam = self.lambda_short
        short = -np.log1p(-u * (1.0 - np.exp(-lam * r))) / lam
        rand = u * range_max
        out = np.where(comp == 0, hit, short)
        out = np.where(comp == 2, range_max, out)
        return np.where(comp == 3, rand, out)


@dataclass(frozen=True)
class Compose:
    """Apply several noise models in order."""

    models: tuple

    def __call__(self, ranges, *, rng, range_min, range_max):
        r = np.asarray(ranges, float)
        for m in self.models:
            r = m(r, rng=rng, range_min=range_min, range_max=range_max)
        return r


def compose(*models: NoiseModel) -> Compose:
    """Chain noise models left to right.

    >>> m = compose(Gaussian(0.0), Dropout(1.0))
    >>> m(np.array([1.0]), rng=np.random.default_rng(1), range_min=0.0, range_max=5.0)
    array([inf])
    """
    for m in models:
        if not callable(m):
            raise ParameterError(f"noise models must be callables, got {m!r}")
    return Compose(tuple(models))


def as_noise(noise) -> NoiseModel | None:
    """``None``, a model, or a sequence of models (composed) -> a model or None."""
    if noise is None:
        return None
    if isinstance(noise, Sequence) and not isinstance(noise, str):
        return compose(*noise) if len(noise) else None
    if not callable(noise):
        raise ParameterError(
            f"noise must be None, a noise model or a list of them, got {noise!r}")
    return noise
