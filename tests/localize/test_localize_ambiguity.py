"""Ambiguity that survives resampling, and relocalisation that finds a kidnapped robot fast.

Fixed seeds, statistical assertions: a square room has four look-alike
poses for every pose, so a globally started filter must say so in every
run (whichever copy its estimate is on); an asymmetric maze must not.
"""

import math

import numpy as np
import pytest

from robomaze import OccupancyGrid, widen
from robomaze.generate import generate
from robomaze.localize import MCL
from robomaze.sense import lidar


def _room(n: int = 30) -> OccupancyGrid:
    occ = np.zeros((n, n), bool)
    occ[0, :] = occ[-1, :] = occ[:, 0] = occ[:, -1] = True
    return OccupancyGrid(occ, resolution=0.1)


def _turn_in_place(grid, pose, seed, updates=120, **options):
    s = lidar()
    f = MCL(grid, s, pose, rng=seed, **options)
    for k in range(updates):
        p = (pose[0], pose[1], pose[2] + 0.1 * k)
        f.update(p, s.readings(grid, p))
    return f


@pytest.mark.parametrize("seed", range(4))
def test_symmetric_room_reports_its_copies(seed):
    g = _room()
    rng = np.random.default_rng(seed)
    truth = (float(rng.uniform(0.7, 1.2)), float(rng.uniform(0.7, 1.2)), 0.3)
    f = _turn_in_place(g, truth, seed, global_start=True, global_particles=1000,
                       global_candidates=20_000)
    # the room turned by a quarter turn about its centre looks the same: at
    # least one copy is still tracked, and the ambiguity says the estimate
    # holds at most about half the belief
    assert f.modes >= 2
    assert f.ambiguity > 0.4
    copies = [h for h in f.hypotheses]
    c = (g.width / 2, g.height / 2)
    # every tracked copy is the estimate turned about the centre by a multiple of 90 degrees
    for h in copies:
        a0 = math.atan2(f._pose[1] - c[1], f._pose[0] - c[0])
        a1 = math.atan2(h[1] - c[1], h[0] - c[0])
        turn = (a1 - a0) % (math.pi / 2)
        assert min(turn, math.pi / 2 - turn) < 0.15
        assert math.hypot(f._pose[0] - c[0], f._pose[1] - c[1]) == pytest.approx(
            math.hypot(h[0] - c[0], h[1] - c[1]), abs=0.1)


@pytest.fixture(scope="module")
def maze():
    return widen(generate("kruskal", 4, 4, rng=3), corridor=5, wall=1, resolution=0.1)


@pytest.mark.parametrize("seed", range(3))
def test_an_asymmetric_maze_is_not_called_ambiguous(maze, seed):
    a = maze.cell_to_world(maze.maze_centre((1, 2)))
    # 250 updates: with the wall depth in the field (issue 34, third pass) seed 2 keeps
    # a look-alike holding 7% of the weight at update 150; it is gone by update 200
    f = _turn_in_place(maze, (a[0], a[1], 0.0), seed, updates=250, global_start=True)
    assert math.hypot(f._pose[0] - a[0], f._pose[1] - a[1]) < 0.1
    assert f.ambiguity < 0.05 and f.modes == 1


@pytest.mark.parametrize("seed", range(4))
def test_sensor_reset_finds_a_kidnapped_robot_within_40_updates(maze, seed):
    s = lidar()
    a = maze.cell_to_world(maze.maze_centre((0, 0)))
    b = maze.cell_to_world(maze.maze_centre((2, 3)))
    f = MCL(maze, s, (a[0], a[1], 0.0), rng=seed)
    errs = []
    for k in range(250):
        th = 0.1 * k
        truth = (*(a if k < 100 else b), th)
        est = f.update((a[0], a[1], th), s.readings(maze, truth))
        errs.append(math.hypot(est[0] - truth[0], est[1] - truth[1]))
    errs = np.array(errs)
    found = np.flatnonzero(errs[100:] < 0.1)
    assert f.relocalizations == 1
    assert found.size and found[0] < 40
    assert errs[-50:].max() < 0.1 and f.ambiguity < 0.05


def test_uniform_global_particles_are_slower_than_the_sensor_reset(maze):
    """The same kidnapping without the scored candidates: found later in total over 4 seeds."""
    s = lidar()
    a = maze.cell_to_world(maze.maze_centre((0, 0)))
    b = maze.cell_to_world(maze.maze_centre((2, 3)))
    first = {0: [], 50_000: []}
    for cand in first:
        for seed in range(4):
            f = MCL(maze, s, (a[0], a[1], 0.0), rng=seed, global_candidates=cand)
            k_found = 400
            for k in range(400):
                th = 0.1 * k
                truth = (*(a if k < 100 else b), th)
                est = f.update((a[0], a[1], th), s.readings(maze, truth))
                if k >= 100 and math.hypot(est[0] - truth[0], est[1] - truth[1]) < 0.1:
                    k_found = k
                    break
            first[cand].append(k_found - 100)
    assert sum(first[50_000]) < sum(first[0])


@pytest.mark.parametrize("opt, match", [({"global_candidates": -1}, "global_candidates"),
                                        ({"mode_weight": 0.0}, "mode_weight"),
                                        ({"mode_memory": 1.0}, "mode_memory"),
                                        ({"max_modes": -2}, "max_modes")])
def test_bad_tracker_options_name_the_parameter(maze, opt, match):
    from robomaze.errors import ParameterError

    with pytest.raises(ParameterError, match=match):
        MCL(maze, lidar(), (0.35, 0.35, 0.0), **opt)
