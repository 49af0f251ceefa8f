"""The kidnapped robot: carried unseen, odometry untouched, recovery timed."""

import math

import numpy as np
import pytest

from robomaze import widen
from robomaze.errors import ParameterError
from robomaze.generate import generate
from robomaze.geometry import Footprint
from robomaze.sim import simulate
from robomaze.sim.kidnap import parse_kidnap, recovery_time


@pytest.fixture(scope="module")
def grid():
    return widen(generate("kruskal", 6, 6, rng=2), corridor=5, wall=1, resolution=0.1)


def test_kidnap_moves_the_truth_not_the_odometry(grid):
    r = simulate(grid, footprint=Footprint.disc(0.15), agent="follow_plan", rng=2, dt=0.1,
                 max_steps=400, kidnap="5,2,0")
    p = r.trajectory.poses
    jumps = np.hypot(*np.diff(p[:, :2], axis=0).T)
    k = int(np.argmax(jumps))
    # the recorded jump: the carry plus that step's own motion (at most v * dt)
    assert jumps[k] == pytest.approx(r.metrics["kidnap_distance"], abs=0.05)
    assert 1.0 <= r.metrics["kidnap_distance"] <= 3.0
    assert r.metrics["kidnap_time"] == pytest.approx(5.0)
    # the executed length leaves the carry out
    assert r.metrics["length"] == pytest.approx(jumps.sum() - r.metrics["kidnap_distance"],
                                                abs=1e-9)
    assert math.isnan(r.metrics["optimality_ratio"])


def test_same_run_without_kidnap_is_unchanged_by_the_option(grid):
    a = simulate(grid, footprint=Footprint.disc(0.15), agent="follow_plan", rng=3, dt=0.1,
                 max_steps=300)
    b = simulate(grid, footprint=Footprint.disc(0.15), agent="follow_plan", rng=3, dt=0.1,
                 max_steps=300, kidnap=None)
    assert a.trajectory.poses.tobytes() == b.trajectory.poses.tobytes()


def test_mcl_recovers_from_a_kidnapping_and_reports_when(grid):
    r = simulate(grid, footprint=Footprint.disc(0.15), agent="follow_plan", rng=2, dt=0.1,
                 max_steps=3000, odometry_noise="gaussian:0.02+drift:0.02", localize="mcl",
                 kidnap="15,2,0")
    m = r.metrics
    assert m["relocalizations"] >= 1
    rec = m["kidnap_recovery_s"]
    assert rec == rec and 0 <= rec <= 30
    # independent check of the recovery time from the two trajectories
    t = r.trajectory.poses
    e = r.estimate
    i = int(round((m["kidnap_time"] + rec) / 0.1))
    assert math.hypot(t[i, 0] - e[i, 0], t[i, 1] - e[i, 1]) <= 0.3


@pytest.mark.parametrize("bad", ["1,2", "a,b,c", "-1,0,0", "1,nan,0"])
def test_bad_kidnap_spec_is_one_clear_error(bad):
    with pytest.raises(ParameterError, match="kidnap"):
        parse_kidnap(bad)


def test_recovery_time_by_hand():
    truth = np.zeros((200, 3))
    est = truth.copy()
    est[100:130, 0] = 1.0        # lost for 3 s after the kidnap at 10 s
    est[140:141, 1] = 0.5        # a blip that breaks the first hold
    assert recovery_time(truth, est, 0.1, 10.0) == pytest.approx(4.1)
    est[150:, 2] = 1.0           # wrong heading from 15 s: never recovered for good
    assert math.isnan(recovery_time(truth, est, 0.1, 10.0))


@pytest.mark.parametrize("seed", [1, 9])
def test_a_robot_relocalised_onto_a_look_alike_backs_off_and_is_found(seed):
    """The kidnap benchmark's seeds 1 and 9 (kruskal 6x6, carried 2 m at 15 s): the sensor
    reset first settles on a look-alike dead end and the follower drives into a wall.
    Backing up after the refused step gives the filter new scans: relocalised within 30 s.
    Pushing on against the wall (``backup_s=0``) it stays lost for the whole run."""
    from robomaze.world import WorldSpec, stage_rng

    maze = WorldSpec(generator="kruskal", rows=6, cols=6, seed=seed,
                     placement="corners").build_maze()
    g = widen(maze, corridor=5, wall=1, resolution=0.1)
    kw = dict(footprint=Footprint.disc(0.15), agent="follow_plan", max_steps=1500,
              odometry_noise="gaussian:0.02+drift:0.02", localize="mcl", kidnap="15,2,0")
    r = simulate(g, rng=stage_rng(seed, "method"), **kw)
    rec = r.metrics["kidnap_recovery_s"]
    assert rec == rec and rec <= 30 and r.success
    pushed = simulate(g, rng=stage_rng(seed, "method"), backup_s=0.0, **kw)
    rec0 = pushed.metrics["kidnap_recovery_s"]
    assert not (rec0 <= 30) and not pushed.success
