"""Odometry noise: what the robot *believes* it did, not what it did.

Without noise the simulator reports the true pose and velocity as odometry.
With an :class:`OdometryNoise` the robot dead-reckons instead: every step
the velocity it really reached is *measured* with an error, ::

    v_measured     = v     + N(0, sigma_v)                 (each linear component)
    omega_measured = omega + N(0, sigma_omega) + drift

and the measured velocity is integrated from the start pose with the same
kinematics as the true motion (:meth:`Kinematics.integrate`). The error
therefore accumulates as on a real robot (encoder noise, a gyro bias),
while the true pose -- which collisions, sensors, the goal test and every
metric use -- is untouched. ``sigma_v`` (m/s) and ``sigma_omega`` (rad/s)
are per step; ``drift`` (rad/s) is a constant bias of the measured turn
rate, which turns the believed path steadily.

Spec strings (sweep files ``[robot] odometry_noise``, ``robomaze simulate
--odometry-noise``), read by :func:`parse_odometry_noise` and written by
:meth:`OdometryNoise.to_spec`:

===============================  ==========================================
``none``                         ideal odometry (the true pose)
``gaussian:S``                   ``sigma_v = sigma_omega = S``
``gaussian:SV,SW``               ``sigma_v = SV``, ``sigma_omega = SW``
``drift:D``                      ``drift = D`` rad/s
``gaussian:S+drift:D``           both
===============================  ==========================================

>>> n = parse_odometry_noise("gaussian:0.02+drift:0.01")
>>> n, n.to_spec()
(OdometryNoise(sigma_v=0.02, sigma_omega=0.02, drift=0.01), 'gaussian:0.02+drift:0.01')
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._validate import check_float
from ..errors import ParameterError

__all__ = ["OdometryNoise", "parse_odometry_noise", "as_odometry_noise", "ODOMETRY_FORMS"]

#: The accepted spellings, for error messages and help texts.
ODOMETRY_FORMS = "none, gaussian:S, gaussian:SV,SW, drift:D or gaussian:S+drift:D"


def _num_text(v: float) -> str:
    text = repr(float(v))
    return text[:-2] if text.endswith(".0") else text


@dataclass(frozen=True)
class OdometryNoise:
    """Per-step Gaussian error of the measured velocity plus a turn-rate drift.

    Parameters
    ----------
    sigma_v : float
        Standard deviation (m/s) of the error of each measured linear
        velocity component, drawn every step.
    sigma_omega : float
        Standard deviation (rad/s) of the error of the measured turn rate.
    drift : float
        Constant bias (rad/s) added to the measured turn rate.
    """

    sigma_v: float = 0.0
    sigma_omega: float = 0.0
    drift: float = 0.0

    def __post_init__(self) -> None:
        check_float("sigma_v", self.sigma_v, min_value=0.0)
        check_float("sigma_omega", self.sigma_omega, min_value=0.0)
        check_float("drift", self.drift)

    @property
    def is_zero(self) -> bool:
        return self.sigma_v == 0.0 and self.sigma_omega == 0.0 and self.drift == 0.0

    def measure(self, velocity, rng: np.random.Generator) -> tuple:
        """The measured velocity (same layout: linear components, then omega).

        >>> OdometryNoise(drift=0.5).measure((1.0, 0.0), np.random.default_rng(0))
        (1.0, 0.5)
        """
        vel = [float(v) for v in velocity]
        e = rng.normal(0.0, 1.0, size=len(vel))
        out = [v + self.sigma_v * d for v, d in zip(vel[:-1], e[:-1])]
        out.append(vel[-1] + self.sigma_omega * e[-1] + self.drift)
        return tuple(out)

    def to_spec(self) -> str:
        """The spec string that :func:`parse_odometry_noise` reads back."""
        parts = []
        if self.sigma_v or self.sigma_omega:
            parts.append(f"gaussian:{_num_text(self.sigma_v)}" if self.sigma_v == self.sigma_omega
                         else f"gaussian:{_num_text(self.sigma_v)},{_num_text(self.sigma_omega)}")
        if self.drift:
            parts.append(f"drift:{_num_text(self.drift)}")
        return "+".join(parts) or "none"


def _finite(text: str, spec: str) -> float:
    try:
        v = float(text)
    except ValueError:
        v = math.nan
    if not math.isfinite(v):
        raise ParameterError(f"odometry noise {spec!r}: expected a finite number, got {text!r}")
    return v


def parse_odometry_noise(spec: str | None) -> OdometryNoise | None:
    """An :class:`OdometryNoise` from its spec string (``None``/``"none"``: ideal odometry).

    Raises
    ------
    ParameterError
        Naming the spec and the accepted forms.

    Examples
    --------
    >>> parse_odometry_noise("gaussian:0.01,0.05")
    OdometryNoise(sigma_v=0.01, sigma_omega=0.05, drift=0.0)
    >>> parse_odometry_noise("none") is None
    True
    """
    if spec is None:
        return None
    if not isinstance(spec, str):
        raise ParameterError(f"odometry noise must be a spec string ({ODOMETRY_FORMS}), "
                             f"got {spec!r}")
    if spec.strip().lower() == "none":
        return None
    kw: dict[str, float] = {}
    for part in spec.split("+"):
        kind, sep, body = part.strip().partition(":")
        kind = kind.strip().lower()
        if kind == "gaussian" and sep and "sigma_v" not in kw:
            vals = [_finite(v, spec) for v in body.split(",")]
            if len(vals) not in (1, 2):
                raise ParameterError(f"odometry noise {spec!r}: gaussian takes S or SV,SW")
            kw["sigma_v"], kw["sigma_omega"] = vals[0], vals[-1]
        elif kind == "drift" and sep and "drift" not in kw:
            kw["drift"] = _finite(body, spec)
        else:
            raise ParameterError(f"odometry noise must be {ODOMETRY_FORMS} (each part once); "
                                 f"got {spec!r}")
    try:
        noise = OdometryNoise(**kw)
    except ParameterError as exc:
        raise ParameterError(f"odometry noise {spec!r}: {exc}") from None
    return None if noise.is_zero else noise


def as_odometry_noise(value) -> OdometryNoise | None:
    """``None``, a spec string or an :class:`OdometryNoise` -> a model or None."""
    if value is None or isinstance(value, OdometryNoise):
        return None if value is not None and value.is_zero else value
    return parse_odometry_noise(value)
