"""A simulated robot and a person walking the same maze give comparable reports.

The robot is the real simulator: :func:`robomaze.sim.simulate` with the
``wall_follow`` agent, a disc robot on the widened maze; its trajectory goes
through the ``.npz`` file format and :func:`from_trajectory`. The person
walks the same maze with arrow keys in the :class:`Game`, once along the
robot's cells and once along the shortest route.
"""

import numpy as np
import pytest

from robomaze.grid import widen
from robomaze.traverse.game import Game
from robomaze.traverse import from_trajectory
from robomaze.traverse.record import read_record
from robomaze.traverse.score import SUMMARY_KEYS, score
from trav_mazes import ManualClock, comb, keys_for

import robomaze.geometry as geometry
import robomaze.sim as sim

MAZE = comb(2, cols=4, junction=1)


def _person(cells, tmp_path, name):
    game = Game(MAZE, clock=ManualClock())
    for k in keys_for(cells):
        game.key(k)
    return read_record(game.record().save(tmp_path / name))


def test_wall_follower_and_person_reports_agree(tmp_path):
    grid = widen(MAZE, corridor=5, wall=1, resolution=0.1)
    res = sim.simulate(grid, footprint=geometry.Footprint.disc(0.12), agent="wall_follow",
                       rng=0, dt=0.1, max_steps=5000)
    assert res.success
    res.trajectory.save(tmp_path / "run.npz")
    traj = sim.Trajectory.load(tmp_path / "run.npz")
    robot = from_trajectory(traj, grid, walker={"kind": "agent", "name": "wall_follow",
                                                "settings": {"footprint": "disc 0.12"}})
    robot = read_record(robot.save(tmp_path / "robot.jsonl"))
    assert robot.level == "grid" and robot.reached_goal
    assert robot.duration == pytest.approx(traj.t[-1] - traj.t[0])
    cells, _ = robot.maze_walk()
    walk = [tuple(c) for c in cells.tolist()]
    assert walk[0] == MAZE.start and walk[-1] == MAZE.goals[0]

    person = _person(walk, tmp_path, "person.jsonl")
    r, p = score(robot), score(person)
    assert set(r.summary) == set(p.summary) == set(SUMMARY_KEYS)
    assert r.summary["optimal"] == p.summary["optimal"] == MAZE.solution_length() == 3
    same = ("moves", "extra_moves", "error", "revisits", "wrong_turns", "turnbacks",
            "dead_ends_entered", "reached_goal", "sections", "sections_with_error")
    assert {k: r.summary[k] for k in same} == {k: p.summary[k] for k in same}
    assert np.array_equal(r.cell_visits, p.cell_visits)
    assert [row["error"] for row in r.table_rows] == [row["error"] for row in p.table_rows]
    assert r.summary["level"] == "grid" and r.summary["pitch"] == 6
    # a right/left-hand wall follower takes the dead end here or not: either way
    # its extra moves are exactly twice the dead-end cells it entered and left
    assert r.summary["extra_moves"] in (0, 4)

    best = score(_person(MAZE.solution(), tmp_path, "best.jsonl")).summary
    assert best["optimal"] == r.summary["optimal"] and best["extra_moves"] == 0
    assert set(best) == set(r.summary)
