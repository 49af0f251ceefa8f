"""``motion_poses`` (vectorised) against a plain per-move loop and a hand-computed case."""

import math

import numpy as np
import pytest

from robomaze.metrics.keyposes import motion_poses


def loop_reference(points, headings, resolution, keys=True):
    """The motion model written move by move: translate at heading i, then turn."""
    p = np.asarray(points, float).reshape(-1, 2)
    h = np.asarray(headings, float).reshape(-1)
    out = []
    for i in range(len(p) - 1):
        if keys:
            out.append((p[i, 0], p[i, 1], h[i]))
        seg = p[i + 1] - p[i]
        L = math.hypot(*seg)
        m = math.ceil(L / (0.25 * resolution))
        for j in range(1, m):
            xy = p[i] + (j / m) * seg
            out.append((xy[0], xy[1], h[i]))
        if keys and L > 0:
            out.append((p[i + 1, 0], p[i + 1, 1], h[i]))
        dh = math.remainder(h[i + 1] - h[i], 2 * math.pi)
        m = math.ceil(abs(dh) / math.radians(5.0))
        for j in range(1, m):
            out.append((p[i + 1, 0], p[i + 1, 1], h[i] + dh * j / m))
    if keys and len(p):
        out.append((p[-1, 0], p[-1, 1], h[-1]))
    return np.array(out, float).reshape(-1, 3)


def test_hand_computed_move_and_quarter_turn():
    out = motion_poses([[0.0, 0.0], [1.0, 0.0]], [0.0, math.pi / 2], 1.0)
    assert out.shape == (23, 3)
    np.testing.assert_allclose(out[:5, 0], [0.0, 0.25, 0.5, 0.75, 1.0])
    assert (out[:5, 2] == 0.0).all() and (out[4:, 0] == 1.0).all()
    np.testing.assert_allclose(out[5:22, 2], np.radians(np.arange(5, 90, 5)))
    assert out[-1, 2] == math.pi / 2
    # the turn goes the short way: from 350 degrees to 10 degrees through 0
    turn = motion_poses([[0.0, 0.0], [0.0, 0.0]], [math.radians(350), math.radians(10)], 1.0,
                        keys=False)
    np.testing.assert_allclose(turn[:, 2], np.radians([355.0, 360.0, 365.0]))


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("keys", [True, False])
def test_matches_the_loop(seed, keys):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 25))
    p = rng.integers(-4, 5, (n, 2)) * 0.1
    if seed % 2:
        p = np.cumsum(p, axis=0)      # a walk: mostly short moves, some repeated points
    h = rng.choice([0.0, math.pi / 2, math.pi, -math.pi / 2, 0.3, 6.27], n) + rng.random(n) * (seed % 3)
    for res in (0.05, 0.1, 1.0):
        np.testing.assert_array_equal(motion_poses(p, h, res, keys=keys),
                                      loop_reference(p, h, res, keys))
