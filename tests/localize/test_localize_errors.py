"""ATE, RPE, lost time and map IoU against hand-computed cases and plain ports."""

import math

import numpy as np
import pytest

from robomaze.errors import ParameterError
from robomaze.localize import ate_rmse, lost_time, map_iou, rpe_per_metre


def _rpe_port(truth, est, delta=1.0):
    s = [0.0]
    for a, b in zip(truth[:-1], truth[1:]):
        s.append(s[-1] + math.hypot(b[0] - a[0], b[1] - a[1]))
    errs = []
    for i in range(len(truth)):
        j = next((j for j in range(i, len(truth)) if s[j] >= s[i] + delta - 1e-12), None)
        if j is None:
            continue

        def rel(p, q):
            c, sn = math.cos(p[2]), math.sin(p[2])
            dx, dy = q[0] - p[0], q[1] - p[1]
            return (c * dx + sn * dy, -sn * dx + c * dy, q[2] - p[2])

        rt, re = rel(truth[i], truth[j]), rel(est[i], est[j])
        # (rt)^-1 (+) re, translation part
        c, sn = math.cos(-rt[2]), math.sin(-rt[2])
        dx, dy = re[0] - rt[0], re[1] - rt[1]
        errs.append(math.hypot(c * dx - sn * dy, sn * dx + c * dy))
    return math.sqrt(sum(e * e for e in errs) / len(errs)) / delta


def test_ate_is_the_rms_of_position_errors():
    t = np.zeros((4, 3))
    e = np.array([[3.0, 4, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0]])
    assert ate_rmse(t, e) == pytest.approx(math.sqrt((25 + 0 + 1 + 1) / 4))


@pytest.mark.parametrize("seed", range(3))
def test_rpe_matches_a_plain_port(seed):
    rng = np.random.default_rng(seed)
    steps = rng.normal(0, 0.1, (200, 3)) + [0.05, 0, 0]
    truth = np.cumsum(steps, axis=0)
    est = truth + rng.normal(0, 0.02, truth.shape)
    assert rpe_per_metre(truth, est) == pytest.approx(_rpe_port(truth, est), rel=1e-9)


def test_rpe_ignores_a_constant_offset_and_sees_a_scale_error():
    truth = np.column_stack([np.linspace(0, 3, 31), np.zeros(31), np.zeros(31)])
    assert rpe_per_metre(truth, truth + [0.5, -0.2, 0]) == pytest.approx(0, abs=1e-12)
    assert rpe_per_metre(truth, truth * [1.1, 1, 1]) == pytest.approx(0.1, rel=1e-9)
    assert math.isnan(rpe_per_metre(truth[:3], truth[:3]))


def test_lost_time_counts_steps_over_the_threshold():
    t = np.zeros((5, 3))
    e = np.array([[1.0, 0, 0], [0.1, 0, 0], [0.2, 0, 0], [0.3, 0, 0], [0, 0, 0]])
    assert lost_time(t, e, 0.5, threshold=0.15) == 1.0   # rows 2 and 3 (row 0 is the start)


def test_map_iou_by_hand_and_bad_shapes():
    truth = np.array([[True, True, False, False]])
    occ = np.array([[True, False, False, False]])
    free = np.array([[False, False, True, False]])
    assert map_iou(occ, free, truth) == (0.5, 0.5)
    with pytest.raises(ParameterError, match="shape"):
        map_iou(occ, free, truth[:, :2])
    with pytest.raises(ParameterError, match="matching"):
        ate_rmse(np.zeros((3, 3)), np.zeros((2, 3)))
