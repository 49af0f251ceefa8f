"""Noise models: statistics with fixed seeds, documented dropout value, mixture proportions."""

import math

import numpy as np
import pytest

from robomaze.errors import ParameterError
from robomaze.grid import OccupancyGrid
from robomaze.sense import BeamModel, Dropout, Gaussian, Proportional, RangeSensor, compose

KW = dict(range_min=0.0, range_max=10.0)
N = 200_000


def test_gaussian_mean_and_spread():
    r = Gaussian(0.05)(np.full(N, 3.0), rng=np.random.default_rng(0), **KW)
    # Standard error of the mean is 0.05 / sqrt(N) ~ 1.1e-4.
    assert abs(r.mean() - 3.0) < 5e-4
    assert r.std() == pytest.approx(0.05, rel=0.01)


def test_proportional_spread_grows_with_range():
    rng = np.random.default_rng(1)
    near = Proportional(0.02)(np.full(N, 1.0), rng=rng, **KW)
    far = Proportional(0.02)(np.full(N, 5.0), rng=rng, **KW)
    assert near.std() == pytest.approx(0.02, rel=0.01)
    assert far.std() == pytest.approx(0.10, rel=0.01)
    assert abs(far.mean() - 5.0) < 2e-3


def test_dropout_fraction_and_documented_value():
    r = Dropout(0.2)(np.full(N, 3.0), rng=np.random.default_rng(2), **KW)
    lost = np.isposinf(r)                 # documented: a lost reading is +inf (no return)
    assert lost.mean() == pytest.approx(0.2, abs=0.005)
    assert np.all(r[~lost] == 3.0)
    r = Dropout(0.5, value=float("nan"))(np.full(1000, 3.0), rng=np.random.default_rng(2), **KW)
    assert 400 < np.isnan(r).sum() < 600


def test_beam_model_mixture_proportions():
    model = BeamModel(z_hit=0.6, z_short=0.2, z_max=0.1, z_rand=0.1, sigma_hit=0.01,
                      lambda_short=2.0)
    true = 4.0
    r = model(np.full(N, true), rng=np.random.default_rng(3), **KW)
    is_max = r == 10.0
    assert is_max.mean() == pytest.approx(0.1, abs=0.004)
    # Beyond the hit band and below range_max only the uniform part lives:
    # z_rand * (10 - 4.05) / 10 of the readings.
    upper = (r > true + 0.05) & ~is_max
    assert upper.mean() == pytest.approx(0.1 * 5.95 / 10, abs=0.004)
    # Near the true range: hits plus a sliver of uniform and short readings.
    short_cdf = lambda x: (1 - math.exp(-2 * x)) / (1 - math.exp(-2 * true))
    band = np.abs(r - true) <= 0.05
    expect = 0.6 * 1.0 + 0.1 * 0.1 / 10 + 0.2 * (1 - short_cdf(true - 0.05))
    assert band.mean() == pytest.approx(expect, abs=0.005)
    # Short readings follow the truncated exponential: mean below the true range.
    lower = r < true - 0.05
    assert lower.mean() == pytest.approx(0.2 * short_cdf(true - 0.05) + 0.1 * 3.95 / 10,
                                         abs=0.005)


def test_compose_order_and_rep117_finishing():
    # 20x20 empty grid, robot in the middle: the 4 axis beams see the border
    # at exactly 10 m, the 4 diagonal ones at 14.1 m (beyond range_max = 12).
    g = OccupancyGrid(np.zeros((20, 20), bool))
    s = RangeSensor(8, 2 * math.pi, 9.0, 12.0, noise=[Gaussian(2.0), Dropout(0.3)], rng=4)
    r = s.scan_many(g, np.array([[10.0, 10.0, 0.0]] * 4000))
    axis, diag = r[:, 0::2], r[:, 1::2]
    assert np.all(np.isposinf(diag))          # no return: +inf, noise cannot make an echo
    finite = axis[np.isfinite(axis)]
    assert finite.min() == 9.0 and finite.max() < 12.0
    # Lost: dropout (0.3) or Gaussian noise pushing 10 m to >= 12 m (P(Z >= 1)).
    p_inf = 0.3 + 0.7 * 0.5 * math.erfc(1 / math.sqrt(2))
    assert np.isposinf(axis).mean() == pytest.approx(p_inf, abs=0.02)
    # Below range_min (P(Z < -0.5)) reads range_min.
    p_min = 0.7 * 0.5 * math.erfc(0.5 / math.sqrt(2))
    assert (axis == 9.0).mean() == pytest.approx(p_min, abs=0.02)


def test_same_seed_same_bytes_and_no_global_state():
    g = OccupancyGrid(np.random.default_rng(0).random((30, 30)) < 0.2, resolution=0.1)
    poses = np.array([[1.5, 1.5, 0.3], [0.7, 2.1, -1.0]])
    noise = compose(Gaussian(0.01), Proportional(0.01), Dropout(0.1), BeamModel())
    a = RangeSensor(60, 2 * math.pi, 0.0, 3.0, noise=noise, rng=9).scan_many(g, poses)
    np.random.seed(123)  # global state must not matter
    b = RangeSensor(60, 2 * math.pi, 0.0, 3.0, noise=noise, rng=9).scan_many(g, poses)
    assert a.tobytes() == b.tobytes()
    c = RangeSensor(60, 2 * math.pi, 0.0, 3.0, noise=noise, rng=10).scan_many(g, poses)
    assert a.tobytes() != c.tobytes()


def test_bad_parameters_are_named():
    with pytest.raises(ParameterError, match="sigma"):
        Gaussian(-1.0)
    with pytest.raises(ParameterError, match="p must be"):
        Dropout(1.5)
    with pytest.raises(ParameterError, match="range_max"):
        RangeSensor(3, 1.0, 2.0, 1.0)
    with pytest.raises(ParameterError, match="noise"):
        RangeSensor(3, 1.0, 0.0, 1.0, noise=3)
