"""Kinematics: limits and exact arc integration, checked by hand and by fine Euler steps."""

import math

import numpy as np
import pytest

from robomaze.errors import ParameterError
from robomaze.sim import Kinematics, wrap_angle


def euler(kin, pose, vel, dt, n=20000):
    x, y, th = pose
    h = dt / n
    for _ in range(n):
        if kin.holonomic:
            vx, vy, w = vel
        else:
            (vx, w), vy = vel, 0.0
        x += h * (math.cos(th) * vx - math.sin(th) * vy)
        y += h * (math.sin(th) * vx + math.cos(th) * vy)
        th += h * w
    return x, y, wrap_angle(th)


def test_limits_clip_speed_turn_rate_and_acceleration():
    k = Kinematics(v_max=1.0, omega_max=2.0, a_max=0.5, alpha_max=1.0)
    assert k.limit((5.0, 5.0), (0.0, 0.0), 0.1) == pytest.approx((0.05, 0.1))
    assert k.limit((5.0, -5.0), (1.0, -2.0), 0.1) == pytest.approx((1.0, -2.0))
    assert k.limit((-5.0, 0.0), (0.0, 0.0), 10.0) == pytest.approx((-0.5, 0.0))  # v_min = -v_max/2
    assert Kinematics(v_min=0.0).limit((-1.0, 0.0), (0.0, 0.0), 1.0)[0] == 0.0


def test_arc_integration_matches_fine_euler_and_closes_a_circle():
    k = Kinematics(v_max=2.0, omega_max=3.0)
    for vel in [(1.0, 0.0), (1.0, 0.7), (0.5, -2.5), (0.0, 1.0)]:
        got = k.integrate((0.3, -0.2, 0.4), vel, 0.5)
        want = euler(k, (0.3, -0.2, 0.4), vel, 0.5)
        assert got == pytest.approx(want, abs=1e-4)
    # A full turn at constant (v, omega) returns to the start.
    pose = (1.0, 2.0, 0.0)
    for _ in range(100):
        pose = k.integrate(pose, (1.0, 2 * math.pi / 10), 0.1)
    assert pose == pytest.approx((1.0, 2.0, 0.0), abs=1e-9)


def test_holonomic_moves_sideways():
    k = Kinematics(holonomic=True, v_max=1.0)
    assert k.n_controls == 3
    x, y, th = k.integrate((0.0, 0.0, math.pi / 2), (0.0, 1.0, 0.0), 1.0)
    assert (x, y, th) == pytest.approx((-1.0, 0.0, math.pi / 2))
    got = k.integrate((0.0, 0.0, 0.3), (0.4, -0.2, 0.9), 0.7)
    assert got == pytest.approx(euler(k, (0.0, 0.0, 0.3), (0.4, -0.2, 0.9), 0.7), abs=1e-4)


def test_bad_commands_and_parameters():
    k = Kinematics()
    with pytest.raises(ParameterError, match="action"):
        k.parse((1.0,))
    with pytest.raises(ParameterError, match="action"):
        k.parse((1.0, float("nan")))
    with pytest.raises(ParameterError, match="v_max"):
        Kinematics(v_max=0.0)
    assert wrap_angle(np.pi) == -np.pi
