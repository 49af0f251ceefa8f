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

Spec strings
------------
Sweep files and the CLI name a model by a spec string, read by
:func:`parse_noise` and written back by :func:`noise_spec` (round trip):

=====================================  =====================================
``none``                               no noise
``gaussian:SIGMA``                     :class:`Gaussian` (metres)
``proportional:FRACTION``              :class:`Proportional`
``dropout:P``                          :class:`Dropout` (lost -> ``range_max``)
``mixture``                            :class:`BeamModel` with its defaults
``mixture:z_hit=0.7,sigma_hit=0.05``   :class:`BeamModel`, any of its fields
``A+B``                                ``A`` then ``B`` (:func:`compose`)
=====================================  =====================================

>>> noise_spec(parse_noise("gaussian:0.01+dropout:0.05"))
'gaussian:0.01+dropout:0.05'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from .._validate import check_float, check_fraction
from ..errors import ParameterError

__all__ = ["Gaussian", "Proportional", "Dropout", "BeamModel", "Compose", "compose",
           "as_noise", "NoiseModel", "parse_noise", "noise_spec", "NOISE_FORMS"]

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


# ------------------------------------------------------------- spec strings
#: The accepted spellings, for error messages and help texts.
NOISE_FORMS = ("none, gaussian:SIGMA, proportional:FRACTION, dropout:P, mixture or "
               "mixture:KEY=VALUE,... (BeamModel fields), joined with '+'")

_BEAM_FIELDS = ("z_hit", "z_short", "z_max", "z_rand", "sigma_hit", "lambda_short")


def _num_text(v: float) -> str:
    text = repr(float(v))
    return text[:-2] if text.endswith(".0") else text


def _finite(text: str, spec: str, name: str) -> float:
    try:
        v = float(text)
    except ValueError:
        v = float("nan")
    if not np.isfinite(v):
        raise ParameterError(f"noise {spec!r}: {name} must be a finite number, got {text!r}")
    return v


def _one(part: str, spec: str) -> NoiseModel:
    kind, sep, body = part.strip().partition(":")
    kind = kind.strip().lower()
    try:
        if kind == "gaussian" and sep:
            return Gaussian(_finite(body, spec, "sigma"))
        if kind == "proportional" and sep:
            return Proportional(_finite(body, spec, "fraction"))
        if kind == "dropout" and sep:
            return Dropout(_finite(body, spec, "p"))
        if kind == "mixture":
            kw = {}
            for item in (body.split(",") if sep else []):
                key, eq, val = item.partition("=")
                key = key.strip()
                if not eq or key not in _BEAM_FIELDS:
                    raise ParameterError(
                        f"noise {spec!r}: mixture takes KEY=VALUE items with KEY one of "
                        f"{', '.join(_BEAM_FIELDS)}, got {item!r}")
                if key in kw:
                    raise ParameterError(f"noise {spec!r}: {key} given twice")
                kw[key] = _finite(val, spec, key)
            return BeamModel(**kw)
    except ParameterError as exc:
        msg = str(exc)
        raise ParameterError(msg if msg.startswith("noise") else f"noise {spec!r}: {msg}") \
            from None
    raise ParameterError(f"noise must be {NOISE_FORMS}; got {spec!r}")


def parse_noise(spec: str | None) -> NoiseModel | None:
    """A noise model from its spec string (``None`` or ``"none"``: no noise).

    Raises
    ------
    ParameterError
        Naming the spec, the bad part and the accepted forms.

    Examples
    --------
    >>> parse_noise("gaussian:0.02")
    Gaussian(sigma=0.02)
    >>> parse_noise("mixture:z_hit=0.7,sigma_hit=0.05").weights.round(3).tolist()
    [0.824, 0.059, 0.059, 0.059]
    >>> parse_noise("none") is None
    True
    """
    if spec is None:
        return None
    if not isinstance(spec, str):
        raise ParameterError(f"noise must be a spec string ({NOISE_FORMS}), got {spec!r}")
    if spec.strip().lower() == "none":
        return None
    parts = spec.split("+")
    if any(not p.strip() for p in parts):
        raise ParameterError(f"noise must be {NOISE_FORMS}; got {spec!r}")
    models = [_one(p, spec) for p in parts]
    return models[0] if len(models) == 1 else compose(*models)


def noise_spec(model) -> str:
    """The canonical spec string of a model built from specs (inverse of :func:`parse_noise`).

    >>> noise_spec(BeamModel(z_hit=0.7)), noise_spec(None)
    ('mixture:z_hit=0.7', 'none')
    """
    if model is None:
        return "none"
    if isinstance(model, Compose):
        return "+".join(noise_spec(m) for m in model.models)
    if isinstance(model, Gaussian):
        return f"gaussian:{_num_text(model.sigma)}"
    if isinstance(model, Proportional):
        return f"proportional:{_num_text(model.fraction)}"
    if isinstance(model, Dropout) and model.value is None:
        return f"dropout:{_num_text(model.p)}"
    if isinstance(model, BeamModel):
        default = BeamModel()
        items = [f"{k}={_num_text(getattr(model, k))}" for k in _BEAM_FIELDS
                 if getattr(model, k) != getattr(default, k)]
        return "mixture" + (":" + ",".join(items) if items else "")
    raise ParameterError(f"noise model {model!r} has no spec string")
