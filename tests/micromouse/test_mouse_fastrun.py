"""Fast runs on learned walls, the time proof, and why the wall followers tie."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from robomaze.errors import ParameterError
from robomaze.generate import generate
from robomaze.io import read_maze
from robomaze.maze import Maze
from robomaze.micromouse import fastest_route, floodfill, solve

SAMPLES = Path(__file__).resolve().parents[2] / "robomaze" / "data" / "samples" / "micromouse"
CONTEST = ["16MM2016CX", "16MM2017CX", "16MM2018CX", "16MM2019CX", "32MM2019HX"]


@pytest.mark.parametrize("name", CONTEST)
@pytest.mark.parametrize("diagonals", [False, True])
def test_time_proof_reaches_the_true_optimum(name, diagonals):
    # Proven means: the fastest route on the learned walls (unknown closed)
    # is as fast as the fastest with unknown walls open, hence as fast as the
    # fastest route of the true maze -- which is checked here directly.
    maze = read_maze(SAMPLES / f"{name}.maze")
    run = floodfill(maze, prove="time", diagonals=diagonals)
    assert run.success and run.proven and run.returned
    truth = fastest_route(maze, diagonals=diagonals)
    assert run.fast.cost_ms == truth.cost_ms
    assert run.route == [tuple(c) for c in run.fast.cells]
    # the fast run drives only passages the mouse saw open
    k = run.known
    for (r0, c0), (r1, c1) in zip(run.route[:-1], run.route[1:]):
        side = {(-1, 0): 0, (0, 1): 1, (1, 0): 2, (0, -1): 3}[(r1 - r0, c1 - c0)]
        assert k[r0, c0, side] == 1


def test_shortest_proof_can_leave_a_slower_fast_run():
    # 16MM2018CX: the shortest route is proven before the fastest one is
    # known; the time proof explores on and finds a faster fast run.
    maze = read_maze(SAMPLES / "16MM2018CX.maze")
    short = floodfill(maze, prove=True)
    timed = floodfill(maze, prove="time")
    best = fastest_route(maze).cost_ms
    assert short.fast.cost_ms > best == timed.fast.cost_ms


def test_fast_run_is_never_faster_than_the_truth():
    for name in CONTEST[:4]:
        maze = read_maze(SAMPLES / f"{name}.maze")
        for prove in (False, True):
            run = floodfill(maze, prove=prove)
            s = run.summary()
            assert s["fast_run_time"] >= fastest_route(maze).cost_ms / 1000
            assert s["fast_run_time_diagonal"] >= \
                fastest_route(maze, diagonals=True).cost_ms / 1000


def test_prove_must_be_known():
    with pytest.raises(ParameterError, match="prove"):
        floodfill(Maze.empty(2, 2), prove="fast")


def test_cli_solve_reports_best_possible(tmp_path, capsys):
    from robomaze.cli import main
    out = tmp_path / "s.json"
    rc = main(["mouse", "solve", str(SAMPLES / "16MM2019CX.maze"), "--prove-time",
               "--diagonals", "--json", str(out)])
    assert rc == 0
    data = json.loads(out.read_text())
    assert data["proven"] and data["profile"] == "kerikun"
    assert data["fast_run_time_diagonal"] == data["best_possible_time_diagonal"] == 9.804
    assert data["search_distance_m"] == pytest.approx(data["search_moves"] * 0.09)


# ---------------------------------------------------------------- followers
@pytest.mark.parametrize("name", ["16MM2016CX", "16MM2017CX", "16MM2018CX", "16MM2019CX"])
def test_followers_tie_on_contest_mazes_because_they_walk_one_tour(name):
    # The goal of a contest maze is an island: no wall connected to the outer
    # wall touches it, so both followers walk the same closed tour around the
    # outer wall's component, in opposite directions, back to the start.
    maze = read_maze(SAMPLES / f"{name}.maze")
    left, right = solve(maze, method="left_wall"), solve(maze, method="right_wall")
    assert not left.success and not right.success
    # each walk is the closed tour plus the first step again (where the
    # follower sees its state repeat and stops)
    tour_l, tour_r = left.trace[:-1], right.trace[:-1]
    assert tour_l[0] == tour_l[-1] == maze.start
    assert tour_l == tour_r[::-1]
    assert left.trace[-1] == right.trace[-1] == left.trace[1]
    assert left.moves == right.moves and left.cells_explored == right.cells_explored


def test_followers_differ_where_the_goal_is_on_the_outer_wall():
    # A perfect maze: every wall is connected to the outer wall, so both
    # followers reach the goal, by different walks.
    maze = generate("backtracker", 12, 12, rng=3)
    left, right = solve(maze, method="left_wall"), solve(maze, method="right_wall")
    assert left.success and right.success
    assert left.moves != right.moves
    assert left.trace[-1] in set(maze.goals) and right.trace[-1] in set(maze.goals)
    # each walk is the shortest route plus dead ends explored, never shorter
    assert min(left.moves, right.moves) >= maze.solution_length()
    assert not np.array_equal(left.explored, right.explored)
