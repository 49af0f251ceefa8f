"""simulate(localize=...): the agents drive on the estimate; none is dead reckoning unchanged."""

import pytest

from robomaze import widen
from robomaze.errors import ParameterError, UnknownNameError
from robomaze.generate import generate
from robomaze.geometry import Footprint
from robomaze.localize import ate_rmse, make_localizer
from robomaze.sim import simulate

NOISE = "gaussian:0.02+drift:0.02"


def _grid(seed):
    return widen(generate("kruskal", 6, 6, rng=seed), corridor=5, wall=1, resolution=0.1)


def _run(seed, agent, localize, **kw):
    return simulate(_grid(seed), footprint=Footprint.disc(0.15), agent=agent, rng=seed,
                    odometry_noise=NOISE, localize=localize, **kw)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_follow_plan_with_mcl_reaches_the_goal_without_collision(seed):
    r = _run(seed, "follow_plan", "mcl")
    m = r.metrics
    assert r.success and m["collisions"] == 0 and m["ate_rmse"] < 0.05
    assert m["ate_rmse"] == pytest.approx(ate_rmse(r.trajectory.poses, r.estimate), abs=0)
    assert r.estimate.shape == r.trajectory.poses.shape and m["lost_time"] == 0.0
    # dead reckoning on the same run drifts far: the filter is doing the work
    assert m["odometry_error"] > 5 * m["ate_rmse"]


def test_dead_reckoning_fails_where_mcl_succeeds():
    r = _run(1, "follow_plan", "none")
    assert not r.success and r.metrics["collisions"] > 0
    assert r.estimate is None and "ate_rmse" not in r.metrics and "localize" not in r.trajectory.meta


@pytest.mark.parametrize("seed", [1, 2])
def test_explore_with_slam_reaches_the_goal_and_maps_the_maze(seed):
    r = _run(seed, "explore", "slam")
    m = r.metrics
    assert r.success and m["collisions"] == 0
    assert m["map_iou_occupied"] > 0.5 and m["map_iou_free"] > 0.5 and m["ate_rmse"] < 0.05


def test_none_is_the_run_without_the_option():
    # this noisy explore run never finds the goal: uncapped it drives the default
    # 20000 steps (about 45 s of CPU per run) with a replan nearly every step; 1000
    # steps hold the same replans, turns and contacts the comparison is about
    g = _grid(4)
    a = simulate(g, footprint=Footprint.disc(0.15), agent="explore", rng=4, odometry_noise=NOISE,
                 max_steps=1000)
    b = simulate(g, footprint=Footprint.disc(0.15), agent="explore", rng=4, odometry_noise=NOISE,
                 max_steps=1000, localize="none")
    assert len(a.trajectory.poses) == 1001 and a.metrics["collisions"] > 0
    assert a.trajectory.poses.tobytes() == b.trajectory.poses.tobytes()
    assert a.metrics == b.metrics


def test_same_seed_same_bytes():
    a, b = _run(2, "follow_plan", "mcl"), _run(2, "follow_plan", "mcl")
    assert a.estimate.tobytes() == b.estimate.tobytes()
    assert a.trajectory.poses.tobytes() == b.trajectory.poses.tobytes()


def test_unknown_localizer_is_one_clear_error():
    with pytest.raises(ParameterError, match="localize"):
        _run(1, "follow_plan", "ekf")
    with pytest.raises(UnknownNameError, match="localizer"):
        make_localizer("ekf", _grid(1), None, (0, 0, 0))


def test_figure_needs_a_localizer_and_draws_the_cloud(tmp_path):
    from robomaze.viz.localize import localization_figure

    g = _grid(1)
    plain = simulate(g, footprint=Footprint.disc(0.15), agent="follow_plan", rng=1)
    with pytest.raises(ParameterError, match="localizer"):
        localization_figure(g, plain)
    r = _run(1, "follow_plan", "mcl")
    fig = localization_figure(g, r, tmp_path / "f.png")
    right = fig.axes[1]
    cloud = right.collections[0].get_offsets()
    assert len(cloud) == r.localizer.n_particles
    assert (tmp_path / "f.png").read_bytes()[:4] == b"\x89PNG"
