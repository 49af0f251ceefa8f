"""Noise spec strings: parse_noise / noise_spec round trip and clear errors."""

import numpy as np
import pytest

from robomaze.errors import ParameterError
from robomaze.sense.noise import (BeamModel, Compose, Dropout, Gaussian, Proportional,
                                  noise_spec, parse_noise)


@pytest.mark.parametrize("spec, model", [
    ("gaussian:0.01", Gaussian(0.01)),
    ("proportional:0.02", Proportional(0.02)),
    ("dropout:0.05", Dropout(0.05)),
    ("mixture", BeamModel()),
    ("mixture:z_hit=0.7,sigma_hit=0.05", BeamModel(z_hit=0.7, sigma_hit=0.05)),
])
def test_each_model_round_trips(spec, model):
    assert parse_noise(spec) == model
    assert noise_spec(model) == spec


def test_composition_keeps_order():
    m = parse_noise("dropout:1+gaussian:0")
    assert isinstance(m, Compose) and m.models == (Dropout(1.0), Gaussian(0.0))
    assert noise_spec(m) == "dropout:1+gaussian:0"
    # dropout first loses every reading (+inf, no return, as REP 117 says);
    # Gaussian noise after it cannot invent an echo
    out = m(np.array([1.0, 2.0]), rng=np.random.default_rng(0), range_min=0.0, range_max=4.0)
    assert np.isposinf(out).all()


def test_none_is_no_noise():
    assert parse_noise("none") is None and parse_noise(None) is None
    assert noise_spec(None) == "none"


def test_parsed_gaussian_has_the_asked_spread():
    m = parse_noise("gaussian:0.1")
    r = m(np.full(20000, 2.0), rng=np.random.default_rng(1), range_min=0.0, range_max=9.0)
    assert np.std(r) == pytest.approx(0.1, rel=0.03) and np.mean(r) == pytest.approx(2.0, abs=0.003)


@pytest.mark.parametrize("bad, word", [
    ("gauss:0.1", "noise must be"), ("gaussian:", "sigma"), ("gaussian:x", "sigma"),
    ("gaussian:-0.1", "sigma"), ("dropout:1.5", "p"), ("mixture:z_hot=1", "KEY=VALUE"),
    ("mixture:z_hit", "KEY=VALUE"), ("mixture:z_hit=1,z_hit=2", "twice"),
    ("gaussian:0.1+", "noise must be"), ("proportional:inf", "fraction"), (0.1, "spec string"),
])
def test_bad_specs_raise_one_clear_error(bad, word):
    with pytest.raises(ParameterError, match=word) as err:
        parse_noise(bad)
    assert repr(bad) in str(err.value)
