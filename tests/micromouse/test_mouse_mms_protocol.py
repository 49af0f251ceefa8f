"""Today's mms command set, replayed from scripts whose answers were worked
out by hand on a 3 x 3 maze (the half-cell geometry of the mms README)."""

import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robomaze.errors import ParameterError
from robomaze.io import read_maze
from robomaze.maze import Maze
from robomaze.micromouse.host import host_mouse
from robomaze.micromouse.mms import MmsMouse, MmsStats

MICE = Path(__file__).resolve().parent / "mice"

# The maze, micromouse (x, y) with y north; S start, G the centre (mms's goal):
#
#   +---+---+---+
#   |           |      y = 2
#   +   +---+   +
#   |   | G     |      y = 1
#   +   +   +---+
#   | S     |   |      y = 0
#   +---+---+---+
#   x=0  x=1  x=2
EAST = np.zeros((3, 3), bool)
SOUTH = np.zeros((3, 3), bool)
EAST[2, 1] = True      # between (1, 0) and (2, 0)
EAST[1, 0] = True      # between (0, 1) and (1, 1)
SOUTH[1, 2] = True     # between (2, 1) and (2, 0)
SOUTH[0, 1] = True     # between (1, 2) and (1, 1)


def maze3(goals=((1, 1),), start=(2, 0)):
    return Maze(east=EAST, south=SOUTH, start=start, goals=list(goals))


def run_script(tmp_path, maze, script, *, read_log=True, **kw):
    log = tmp_path / "transcript.json"
    env = dict(os.environ, MOUSE_SCRIPT=";".join(script), MOUSE_LOG=str(log),
               **kw.pop("env", {}))
    run = host_mouse(maze, [sys.executable, str(MICE / "script_mouse.py")], env=env,
                     stop_after=kw.pop("stop_after", "exit"), command_timeout=5,
                     total_timeout=30, **kw)
    # A run the host ends (a protocol error) kills the mouse, maybe while it
    # writes its transcript: such tests do not read it.
    answers = ([a for _, a in json.loads(log.read_text())] if read_log and log.exists()
               else None)
    return run, answers


# (command, answer) from the start cell (0, 0), semi position (1, 1), facing north.
SCRIPT = [
    ("mazeWidth", "3"), ("mazeHeight", "3"),
    ("wallFront", "false"),          # (0, 0) north side open
    ("wallLeft", "true"),            # west boundary
    ("wallRight", "false"),          # (0, 0) east side open
    ("wallBack", "true"),            # south boundary
    ("wallFront 1", "false"),        # 1 half cell == no argument
    ("wallFront 3", "false"),        # through (0, 1): its north side is open
    ("wallFront 5", "true"),         # (0, 2): the north boundary
    ("wallRight 3", "true"),         # across (1, 0) to its east wall
    ("wallFrontRight", "true"),      # from a cell centre a diagonal meets a post
    ("wallFrontLeft", "true"), ("wallBackLeft", "true"), ("wallBackRight", "true"),
    ("moveForwardHalf", "ack"),      # to the edge between (0, 0) and (0, 1): semi (1, 2)
    ("wallFrontRight", "true"),      # NE from that edge crosses (0, 1)'s east wall
    ("wallBackRight", "false"),      # SE crosses (0, 0)'s east side: open
    ("wallLeft", "true"),            # along the edge: the corner post
    ("turnRight45", "ack"),          # heading NE
    ("moveForwardHalf", "crash"),    # (0, 1)'s east wall: no motion
    ("turnRight90", "ack"),          # heading SE
    ("moveForwardHalf", "ack"),      # diagonally to semi (2, 1), the edge (0, 0)|(1, 0)
    ("wallFront", "true"),           # SE from there: (1, 0)'s south boundary
    ("moveForwardHalf", "crash"),
    ("turnLeft45", "ack"),           # heading E
    ("moveForwardHalf", "ack"),      # centre of (1, 0), semi (3, 1)
    ("turnLeft", "ack"),             # heading N
    ("moveForward 2", "crash"),      # one cell to the goal (1, 1), then its north wall
    ("getStat best-run-turns", "4"),  # turns since leaving (0, 0): R45 R90 L45 L90
    ("getStat best-run-distance", "7"),     # 1 + 1 + 1 + 4 half cells asked for
    ("getStat best-run-effective-distance", "6"),   # 1 + 1 + 1 + (4 / 2 + 1)
    ("getStat total-distance", "7"), ("getStat total-turns", "4"),
    ("getStat current-run-turns", "4"),
    ("getStat score", "11"),         # 4 + 6 + 0.1 * (4 + 6)
    ("wasReset", "false"),
    ("ackReset", "ack"),             # back to (0, 0) facing north, 15 to pay
    ("getStat total-effective-distance", "6"),
    ("moveForward", "ack"),          # a new run: the penalty is charged now
    ("getStat current-run-effective-distance", "17"),   # 15 + 2
    ("getStat total-effective-distance", "23"),
    ("getStat current-run-distance", "2"), ("getStat total-distance", "9"),
    ("getStat score", "12.7"),       # 10 + 0.1 * (4 + 23)
    ("setWall 0 0 e", None), ("clearWall 0 0 n", None), ("setColor 1 1 G", None),
    ("setText 2 2 hi there you", None), ("setText 0 2 a\tb", None), ("clearText 0 2", None),
]


def test_hand_worked_script(tmp_path):
    run, answers = run_script(tmp_path, maze3(), [c for c, _ in SCRIPT])
    assert answers == [a for _, a in SCRIPT]
    assert run.goal_rule == "mms" and run.goals == ((1, 1),)
    assert run.reached_goal and run.success, run.reason
    # Cells entered (row, col): (0, 1), (1, 0) diagonally, the goal (1, 1);
    # after the reset the start and (0, 1) again.
    assert run.trace[:4] == [(2, 0), (1, 0), (2, 1), (1, 1)]
    assert run.moves_to_goal == 3 and run.crashes == 3
    assert run.extra["turns45"] == 2
    stats = run.extra["mms_stats"]
    assert stats["score"] == pytest.approx(12.7) and stats["best-run-turns"] == 4
    d = run.extra["display"]
    assert d.walls == {(0, 0, "e"): True, (0, 0, "n"): False}
    assert d.colors == {(1, 1): "G"} and d.texts == {(2, 2): "hi there y"}


def test_file_goal_rule(tmp_path):
    # The same moves with the file's goal in the north-east corner: the run
    # through the centre finishes nothing, so there is no best run yet.
    maze = maze3(goals=[(0, 2)])
    script = [c for c, _ in SCRIPT[:28]] + ["getStat best-run-turns", "getStat score"]
    run, answers = run_script(tmp_path, maze, script, goal="file")
    assert answers[-2:] == ["-1", "2000"]
    assert run.goal_rule == "file" and run.goals == ((0, 2),)
    assert not run.reached_goal and not run.success
    mms_run, answers = run_script(tmp_path, maze, script, goal="mms")
    assert answers[-2:] == ["4", "11"] and mms_run.reached_goal


def test_half_steps_move_and_stop_at_walls():
    # moveForward 3 northwards from (0, 0) in a 1 x 3 corridor of 3 cells: it
    # drives 2 cells and crashes into the north boundary (as mms does).
    m = MmsMouse(Maze.empty(3, 1), goals=[(0, 0)])
    assert m.move(6) == (False, 4) and m.cell == (0, 2)
    assert m.stats.get("total-distance") == "6"          # half cells asked for
    assert m.stats.get("best-run-distance") == "6"       # the move ended in the goal
    assert m.move(0) == (False, 0) and m.stats.get("total-distance") == "6"


def test_stats_count_half_cells_as_mms_source_does():
    # mms's Window::moveForward passes 2n half steps to Stats::addDistance, whose
    # effective distance is d > 2 ? d / 2 + 1 : d: moveForward 5 adds 10 and 6.
    s = MmsStats()
    s.add_distance(10)
    assert s.get("total-distance") == "10" and s.get("total-effective-distance") == "6"
    assert s.get("best-run-turns") == "-1" and s.get("score") == "2000"
    assert s.get("best-run-effective-distance") == "-1"
    s.add_distance(1)                                   # moveForwardHalf: 1, effective 1
    s.add_distance(2)                                   # moveForward 1: 2, effective 2
    assert s.get("total-distance") == "13" and s.get("total-effective-distance") == "9"


def test_a_mouse_moving_three_cells_has_total_distance_six(tmp_path):
    # north 2 cells (4 half cells, effective 3), about turn, 1 cell back (2, 2)
    script = ["moveForward 2", "turnRight", "turnRight", "moveForward",
              "getStat total-distance", "getStat total-effective-distance",
              "getStat total-turns"]
    run, answers = run_script(tmp_path, maze3(), script)
    assert answers == ["ack", "ack", "ack", "ack", "6", "5", "2"]


@pytest.mark.parametrize("k", ["0", "-3"])
def test_zero_half_step_wall_queries_are_answered_as_mms(tmp_path, k):
    # mms: halfStepsAhead = k - 1 < 0 checks only the wall right ahead, as k = 1.
    names = ["wallFront", "wallLeft", "wallRight", "wallBack", "wallFrontLeft"]
    script = [f"{n} {k}" for n in names] + names
    run, answers = run_script(tmp_path, maze3(), script)
    assert answers[:len(names)] == answers[len(names):]
    assert answers[:len(names)] == ["false", "true", "false", "true", "true"]
    assert "protocol error" not in run.reason


@pytest.mark.parametrize("line, error", [
    ("wallFront x", "not an integer"),
    ("moveForward two", "not an integer"), ("getStat speed", "unknown stat"),
    ("turnLeft 2", "wrong number of arguments"), ("setColor 0 0 Z", "bad colour"),
    ("setWall 0 9 n", "outside the maze"), ("fly", "unknown command"),
])
def test_malformed_commands_are_protocol_errors(tmp_path, line, error):
    run, _ = run_script(tmp_path, maze3(), ["mazeWidth", "!" + line, "mazeHeight"],
                        read_log=False)
    assert not run.success and "protocol error" in run.reason and error in run.reason


def test_lenient_host_behaves_like_mms(tmp_path):
    # mms drops invalid commands unanswered; a distance it cannot read counts as 1.
    script = ["!getStat speed", "!fly", "wallFront 0", "wallLeft x", "moveForward 0",
              "setColor 0 0 Z", "setWall 7 7 n", "setColor 0 0 r", "mazeWidth"]
    run, answers = run_script(tmp_path, maze3(), script, lenient=True)
    assert answers == [None, None, "false", "true", "crash", None, None, None, "3"]
    d = run.extra["display"]
    assert d.colors == {(0, 0): "r"} and d.walls == {}
    assert run.crashes == 1 and "never reached the goal" in run.reason


def test_start_is_south_west_facing_north_for_every_source(tmp_path):
    # A JSON maze whose own start is the north-west cell: the host still
    # starts the mouse at micromouse (0, 0), the south-west cell, facing north.
    from robomaze.io import write_maze
    path = tmp_path / "m.json"
    write_maze(maze3(start=(0, 0)), path)
    maze = read_maze(path)
    assert maze.start == (0, 0)
    script = ["wallLeft", "wallBack", "wallFront", "wallRight 3", "moveForward"]
    run, answers = run_script(tmp_path, maze, script)
    assert answers == ["true", "true", "false", "true", "ack"]
    assert run.trace == [(2, 0), (1, 0)] and run.start == (2, 0)
    assert run.extra["file_start"] == (0, 0)


def test_bad_goal_rule():
    with pytest.raises(ParameterError, match="goal must be"):
        host_mouse(maze3(), [sys.executable, "-c", "pass"], goal="centre")


def _ray_wall(maze, x, y, side, cells):
    """Independent reference: a wall on ``side`` (0 N, 1 E, 2 S, 3 W) of any
    of ``cells`` consecutive cells from micromouse (x, y), from the raw arrays."""
    rows, cols = maze.shape
    dx, dy = ((0, 1), (1, 0), (0, -1), (-1, 0))[side]
    for _ in range(cells):
        r, c = rows - 1 - y, x
        if side == 0:
            wall = r == 0 or maze.south[r - 1, c]
        elif side == 1:
            wall = c == cols - 1 or maze.east[r, c]
        elif side == 2:
            wall = r == rows - 1 or maze.south[r, c]
        else:
            wall = c == 0 or maze.east[r, c - 1]
        if wall:
            return True
        x, y = x + dx, y + dy
    return False


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.lists(st.integers(0, 5), max_size=25))
def test_cardinal_queries_and_moves_agree_with_the_wall_arrays(seed, steps):
    from robomaze.generate import generate
    maze = generate("backtracker", 5, 6, rng=seed)
    m = MmsMouse(maze, goals=[])
    for step in steps:
        x, y = m.cell
        h = m.heading // 2
        for rel in range(4):                 # k = 2j + 1 half cells reach j cells on
            for j in range(3):
                assert m.wall(2 * rel, 2 * j + 1) == _ray_wall(maze, x, y, (h + rel) % 4,
                                                               j + 1)
        if step < 3:
            n = step + 1
            blocked = [_ray_wall(maze, x, y, h, i + 1) for i in range(n)]
            free = blocked.index(True) if True in blocked else n
            dx, dy = ((0, 1), (1, 0), (0, -1), (-1, 0))[h]
            assert m.move(2 * n) == (free == n, 2 * free)
            assert m.cell == (x + dx * free, y + dy * free)
        else:
            m.turn((-2, 2, 4)[step - 3])


def _mirror(maze):
    """The maze mirrored east-west (micromouse x -> width - 1 - x)."""
    east = np.ones_like(maze.east)
    east[:, :-1] = maze.east[:, :-1][:, ::-1]
    return Maze(east=east, south=maze.south[:, ::-1], start=maze.start, goals=[])


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), x=st.integers(0, 4), y=st.integers(0, 3),
       half=st.integers(0, 3), heading=st.integers(0, 7), k=st.integers(1, 6))
def test_diagonal_geometry_is_mirror_symmetric(seed, x, y, half, heading, k):
    # Metamorphic check of every diagonal branch: in the east-west mirror of
    # the maze, at the mirrored pose, left and right swap and nothing else changes.
    from robomaze.generate import generate
    maze = generate("backtracker", 4, 5, rng=seed)
    a, b = MmsMouse(maze, goals=[]), MmsMouse(_mirror(maze), goals=[])
    a.sx, a.sy = 2 * x + 1, 2 * y + 1
    if half < 3 and not a.wall(2 * half - a.heading):   # step half a cell N, E or S
        a.sx += (0, 1, 0)[half]
        a.sy += (1, 0, -1)[half]
    a.heading = heading
    b.sx, b.sy, b.heading = 2 * a.cols - a.sx, a.sy, (-heading) % 8
    for rel in range(8):
        assert a.wall(rel, k) == b.wall(-rel, k)
    assert a.move(k) == b.move(k)
    assert (b.sx, b.sy) == (2 * a.cols - a.sx, a.sy)
