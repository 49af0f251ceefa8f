"""follow_plan backs up after a refused step instead of pushing on (issue 34 item 6)."""

import numpy as np
import pytest

from robomaze import widen
from robomaze.errors import ParameterError
from robomaze.generate import generate
from robomaze.geometry import Footprint
from robomaze.sim import simulate


@pytest.fixture(scope="module")
def grid():
    return widen(generate("kruskal", 4, 4, rng=1), corridor=3, wall=1, resolution=0.1)


def _run(grid, seed, **options):
    # dead reckoning with a strong gyro drift in 0.3 m corridors: it bumps into walls
    return simulate(grid, footprint=Footprint.disc(0.1), agent="follow_plan", rng=seed,
                    odometry_noise="gaussian:0.05+drift:0.1", max_steps=1500, **options)


@pytest.mark.parametrize("seed", [0, 1])
def test_a_refused_step_starts_a_straight_back_up(grid, seed):
    r = _run(grid, seed)
    col, cmd = r.trajectory.collisions, r.trajectory.commands
    first = int(np.flatnonzero(col)[0])
    n = int(round(0.5 / 0.05))
    # the next commands back up straight at half speed until one is refused or 0.5 s pass
    back = cmd[first + 1:first + n]
    stop = np.flatnonzero(col[first + 1:first + n])
    upto = stop[0] + 1 if len(stop) else len(back)
    assert np.all(back[:upto, 0] < 0) and np.all(back[:upto, 1] == 0)
    assert r.agent.backups >= 1


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_backing_up_refuses_far_fewer_steps_than_pushing_on(grid, seed):
    backed = _run(grid, seed)
    pushed = _run(grid, seed, backup_s=0.0)
    refused_b = int(backed.trajectory.collisions.sum())
    refused_p = int(pushed.trajectory.collisions.sum())
    assert refused_b * 4 < refused_p
    # without a back-up it pushes on, as before the option
    first = int(np.flatnonzero(pushed.trajectory.collisions)[0])
    assert pushed.trajectory.commands[first + 1, 0] > 0


def test_negative_backup_names_the_option(grid):
    with pytest.raises(ParameterError, match="backup_s"):
        _run(grid, 0, backup_s=-1.0)
