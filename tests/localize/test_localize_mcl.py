"""MCL on a known maze: tracking, the kidnapped robot, determinism and bad options."""

import math

import numpy as np
import pytest

from robomaze import widen
from robomaze.errors import ParameterError
from robomaze.generate import generate
from robomaze.localize import MCL
from robomaze.sense import lidar


@pytest.fixture(scope="module")
def grid():
    return widen(generate("kruskal", 4, 4, rng=3), corridor=5, wall=1, resolution=0.1)


def _kidnap_run(grid, seed, **options):
    """Turn in place at block (0, 0); at update 100 be carried to block (2, 3) unseen."""
    s = lidar()
    a = grid.cell_to_world(grid.maze_centre((0, 0)))
    b = grid.cell_to_world(grid.maze_centre((2, 3)))
    f = MCL(grid, s, (a[0], a[1], 0.0), rng=seed, **options)
    errs = []
    for k in range(600):
        th = 0.1 * k
        truth = (*(a if k < 100 else b), th)
        est = f.update((a[0], a[1], th), s.readings(grid, truth))
        errs.append(math.hypot(est[0] - truth[0], est[1] - truth[1]))
    return np.array(errs), f


def test_nav2_filter_tracks_and_adapts_its_particle_count(grid):
    errs, f = _kidnap_run(grid, 0, relocalize=False)
    assert errs[:100].max() < 0.1
    assert f.min_particles <= f.n_particles <= f.max_particles
    assert errs[-1] > 0.5          # Nav2's single injection burst does not find it again


@pytest.mark.parametrize("seed", range(4))
def test_global_relocalisation_finds_the_kidnapped_robot(grid, seed):
    errs, f = _kidnap_run(grid, seed)
    assert errs[:100].max() < 0.1 and f.relocalizations >= 1
    found = np.flatnonzero(errs[100:] < 0.1)
    assert found.size and found[0] < 150          # within 150 updates of the carry
    assert errs[-100:].max() < 0.1                # and it stays found
    assert f.ambiguity < 0.2


def test_no_relocalisation_while_tracking(grid):
    s = lidar()
    a = grid.cell_to_world(grid.maze_centre((0, 0)))
    f = MCL(grid, s, (a[0], a[1], 0.0), rng=2)
    for k in range(400):
        f.update((a[0], a[1], 0.1 * k), s.readings(grid, (a[0], a[1], 0.1 * k)))
    assert f.relocalizations == 0 and max(f.ambiguity_history) < 0.05


def test_ambiguity_is_the_weight_outside_the_estimates_cluster(grid):
    s = lidar()
    a = grid.cell_to_world(grid.maze_centre((0, 0)))
    b = grid.cell_to_world(grid.maze_centre((3, 3)))
    f = MCL(grid, s, (a[0], a[1], 0.0), rng=1, relocalize=False)
    # hand-made cloud: 70% of the weight near a, 30% near b, equal scans
    f.particles = np.vstack([np.tile([a[0], a[1], 0.0], (70, 1)),
                             np.tile([b[0], b[1], 0.0], (30, 1))])
    f.weights = np.full(100, 0.01)
    f._filter((a[0], a[1], 0.0), (a[0] + 0.0, a[1], 0.0), s.readings(grid, (a[0], a[1], 0.0)))
    assert math.hypot(f._pose[0] - a[0], f._pose[1] - a[1]) < 0.1
    # b's particles see a different scan: their share of the posterior is small
    assert 0.0 <= f.ambiguity < 0.3


@pytest.mark.parametrize("seed", range(4))
def test_without_injection_a_kidnapped_robot_stays_lost(grid, seed):
    errs, f = _kidnap_run(grid, seed, alpha_slow=0.0, alpha_fast=0.0, relocalize=False)
    assert f.injected == 0 and errs[-100:].min() > 0.5


def test_injection_bursts_with_restart_and_keeps_going_without(grid):
    _, nav2 = _kidnap_run(grid, 0, relocalize=False)
    _, book = _kidnap_run(grid, 0, recovery_reset=False, relocalize=False)
    assert 0 < nav2.injected <= 10          # a burst when the weights dropped
    assert book.injected > 0.3 * book.updates


def test_same_seed_same_particles(grid):
    s = lidar(n_beams=36)
    start = (*grid.cell_to_world(grid.maze_centre((0, 0))), 0.0)
    runs = []
    for _ in range(2):
        f = MCL(grid, s, start, rng=5)
        for k in range(30):
            f.update((start[0], start[1], 0.05 * k), s.readings(grid, (start[0], start[1], 0.05 * k)))
        runs.append(f.particles.tobytes())
    assert runs[0] == runs[1]


@pytest.mark.parametrize("opt,match", [({"min_particles": 0}, "min_particles"),
                                       ({"max_particles": 5}, "max_particles"),
                                       ({"sigma_hit": 0.0}, "sigma_hit"),
                                       ({"alphas": (1, 2)}, "alphas"),
                                       ({"relocalize_mismatch": 1.5}, "relocalize_mismatch"),
                                       ({"global_particles": 0}, "global_particles")])
def test_bad_options_name_the_parameter(grid, opt, match):
    with pytest.raises(ParameterError, match=match):
        MCL(grid, lidar(), (0.35, 0.35, 0.0), **opt)
