"""A simulated robot and a person walking the same maze give comparable reports.

The robot is the real simulator (:class:`robomaze.sim.SimEnv`, a disc robot
on a widened maze) steered through the centres of the maze cells of a walk;
its trajectory goes through the ``.npz`` file format and
:func:`from_trajectory`. The person walks the same cells with arrow keys in
the :class:`Game`.
"""

import math

import numpy as np
import pytest

from robomaze.grid import widen
from robomaze.traverse.game import Game
from robomaze.traverse.record import from_trajectory, read_record
from robomaze.traverse.score import SUMMARY_KEYS, score
from trav_mazes import ManualClock, comb, keys_for

sim = pytest.importorskip("robomaze.sim")
geometry = pytest.importorskip("robomaze.geometry")

MAZE = comb(2, cols=4, junction=1)
# start -> junction -> into the 2-cell dead end and back -> goal
WALK = [(0, 0), (0, 1), (1, 1), (2, 1), (1, 1), (0, 1), (0, 2), (0, 3)]


def _drive(grid, cells, tmp_path):
    """Steer a disc robot through the block centres of ``cells``; return the trajectory."""
    env = sim.SimEnv(grid, sim.Robot(geometry.Footprint.disc(0.15)), dt=0.1, max_steps=2000)
    env.reset(seed=0)
    waypoints = [grid.cell_to_world(grid.maze_centre(c)) for c in cells[1:]]
    i, done = 0, False
    while not done:
        x, y, th = env.pose
        tx, ty = waypoints[i]
        d = math.hypot(tx - x, ty - y)
        if d < 0.03 and i < len(waypoints) - 1:
            i += 1
            continue
        err = sim.wrap_angle(math.atan2(ty - y, tx - x) - th)
        act = (0.0, max(-1.5, min(1.5, 4 * err))) if abs(err) > 0.08 else (min(0.5, 2 * d), 3 * err)
        _, _, terminated, truncated, info = env.step(act)
        done = terminated or truncated
    assert terminated and info["goal_reached"] and info["collisions"] == 0
    path = tmp_path / "run.npz"
    env.trajectory(meta={"agent": "waypoints"}).save(path)
    return sim.Trajectory.load(path)


def test_robot_and_person_reports_agree(tmp_path):
    grid = widen(MAZE, corridor=5, wall=1, resolution=0.1)
    traj = _drive(grid, WALK, tmp_path)
    robot = from_trajectory(traj, grid, walker={"kind": "agent", "name": "waypoints",
                                                "settings": {"footprint": "disc 0.15"}})
    robot = read_record(robot.save(tmp_path / "robot.jsonl"))
    assert robot.level == "grid" and robot.reached_goal
    assert robot.duration == pytest.approx(traj.t[-1])
    cells, _ = robot.maze_walk()
    assert [tuple(c) for c in cells.tolist()] == WALK

    game = Game(MAZE, clock=ManualClock())
    for k in keys_for(WALK):
        game.key(k)
    person = read_record(game.record().save(tmp_path / "person.jsonl"))

    r, p = score(robot).summary, score(person).summary
    assert set(r) == set(p) == set(SUMMARY_KEYS)
    assert r["optimal"] == p["optimal"] == MAZE.solution_length() == 3
    same = ("moves", "extra_moves", "error", "revisits", "wrong_turns", "turnbacks",
            "dead_ends_entered", "reached_goal", "sections", "sections_with_error")
    assert {k: r[k] for k in same} == {k: p[k] for k in same}
    assert r["extra_moves"] == 4 and r["wrong_turns"] == 1
    assert r["level"] == "grid" and r["pitch"] == 6 and r["level_moves"] >= 7 * 6 - 6
    assert np.array_equal(score(robot).cell_visits, score(person).cell_visits)
