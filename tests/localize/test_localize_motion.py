"""The odometry motion model against a plain-Python port of Probabilistic Robotics table 5.6."""

import math

import numpy as np
import pytest

from robomaze.errors import ParameterError
from robomaze.localize.motion import sample_motion_odometry


def _wrap(a):
    return (a + math.pi) % (2 * math.pi) - math.pi


def _port(p, o0, o1, alphas, n):
    """Nav2's DifferentialMotionModel, written again from its source, one particle."""
    a1, a2, a3, a4 = alphas
    dx, dy = o1[0] - o0[0], o1[1] - o0[1]
    trans = math.hypot(dx, dy)
    rot1 = 0.0 if trans < 0.01 else _wrap(math.atan2(dy, dx) - o0[2])
    rot2 = _wrap(_wrap(o1[2] - o0[2]) - rot1)
    r1n = min(abs(_wrap(rot1)), abs(_wrap(rot1 - math.pi)))
    r2n = min(abs(_wrap(rot2)), abs(_wrap(rot2 - math.pi)))
    r1h = _wrap(rot1 - math.sqrt(a1 * r1n ** 2 + a2 * trans ** 2) * n[0])
    th = trans - math.sqrt(a3 * trans ** 2 + a4 * r1n ** 2 + a4 * r2n ** 2) * n[1]
    r2h = _wrap(rot2 - math.sqrt(a1 * r2n ** 2 + a2 * trans ** 2) * n[2])
    return (p[0] + th * math.cos(p[2] + r1h), p[1] + th * math.sin(p[2] + r1h),
            _wrap(p[2] + r1h + r2h))


@pytest.mark.parametrize("o0,o1", [((0, 0, 0), (0.3, 0.1, 0.4)), ((1, 2, 3), (1.005, 2, -3)),
                                   ((0, 0, 1), (-0.2, -0.1, 1.2))])
def test_kernel_matches_the_port_draw_for_draw(o0, o1):
    alphas = (0.1, 0.05, 0.2, 0.3)
    rng = np.random.default_rng(4)
    p = rng.normal(size=(20, 3))
    before = p.copy()
    sample_motion_odometry(p, o0, o1, alphas=alphas, rng=7)
    normals = np.random.default_rng(7).standard_normal((20, 3))
    want = np.array([_port(q, o0, o1, alphas, n) for q, n in zip(before, normals)])
    np.testing.assert_allclose(p, want, atol=1e-12)


def test_noise_free_step_is_the_odometry_step_in_the_particle_frame():
    p = np.array([[1.0, 1.0, math.pi / 2]])
    sample_motion_odometry(p, (0, 0, 0), (0.5, 0.0, 0.2), alphas=(0, 0, 0, 0), rng=0)
    np.testing.assert_allclose(p, [[1.0, 1.5, math.pi / 2 + 0.2]], atol=1e-12)


def test_translation_spread_follows_alpha3():
    # A straight 1 m step: trans ~ N(1, alpha3); check mean and variance with a fixed seed.
    p = np.zeros((20000, 3))
    sample_motion_odometry(p, (0, 0, 0), (1.0, 0, 0), alphas=(0, 0, 0.04, 0), rng=3)
    assert abs(p[:, 0].mean() - 1.0) < 3 * 0.2 / math.sqrt(20000)
    assert abs(p[:, 0].std() - 0.2) < 0.005
    assert np.all(p[:, 1] == 0)


def test_bad_input_names_the_parameter():
    with pytest.raises(ParameterError, match="alpha3"):
        sample_motion_odometry(np.zeros((2, 3)), (0, 0, 0), (1, 0, 0), alphas=(0, 0, -1, 0))
    with pytest.raises(ParameterError, match="particles"):
        sample_motion_odometry(np.zeros((2, 2)), (0, 0, 0), (1, 0, 0))
