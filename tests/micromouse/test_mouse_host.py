"""The mms-protocol host with small mouse programs written for the tests."""

import json
import os
import sys
import time
from pathlib import Path

import pytest

from robomaze.errors import ParameterError
from robomaze.io import mm_to_cell, read_maze
from robomaze.maze import Maze
from robomaze.micromouse import floodfill
from robomaze.micromouse.host import host_mouse

MICE = Path(__file__).resolve().parent / "mice"
DATA = Path(__file__).resolve().parents[1] / "data" / "micromouse"


def mouse(name):
    return [sys.executable, str(MICE / f"{name}.py")]


def _sample(name):
    f = DATA / name
    if not f.exists():
        pytest.fail("sample data not present")
    return read_maze(f)


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie still answers kill(0); read its state.
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("name", ["16MM2019CX.maze", "16MM2017H_Tashiro.maze"])
def test_floodfill_mouse_end_to_end(name):
    maze = _sample(name)
    run = host_mouse(maze, mouse("floodfill_mouse"), command_timeout=5, total_timeout=60)
    assert run.success, run.reason
    assert run.reached_goal and run.returned
    assert run.extra["ended_by"] == "fast run complete"
    # Its fast run is a true shortest route here, checked against scipy BFS.
    assert run.route_length == maze.solution_length()
    assert run.route[0] == maze.start and run.route[-1] in maze.goals
    # Same algorithm as the built-in flood fill (straight, right, left, back
    # tie-breaking), independently written: the searches agree move for move.
    assert run.moves_to_goal == floodfill(maze, prove=False).moves_to_goal
    assert run.crashes == 0
    # Display commands were understood and recorded in mms coordinates.
    assert run.extra["display"].walls and run.extra["display"].texts


def test_protocol_answers():
    maze = _sample("tiny-4x4.txt")
    log = Path(os.environ.get("TMPDIR", "/tmp")) / f"mouse-log-{os.getpid()}.json"
    script = ("mazeWidth;mazeHeight;wallFront;wallLeft;wallRight;moveForward;"
              "turnRight;wallFront 1;moveForward 3;turnLeft90;turnRight45;moveForward;"
              "turnLeft45;wasReset;setColor 0 0 G;setText 1 1 hi there;clearAllText;"
              "ackReset;turnLeft;moveForward 2;wallBack")
    env = dict(os.environ, MOUSE_SCRIPT=script, MOUSE_LOG=str(log))
    run = host_mouse(maze, mouse("script_mouse"), env=env, stop_after="exit")
    answers = dict((i, a) for i, (_, a) in enumerate(json.loads(log.read_text())))
    log.unlink()
    # tiny-4x4 from the south-west cell facing north: a wall ahead (the text
    # line above S is 'o---o---o   o   o', gap closed at x=0), the west
    # boundary on the left, no wall on the right ('| S             |').
    assert [answers[i] for i in range(6)] == ["4", "4", "true", "true", "false", "crash"]
    assert answers[6] == "ack"                 # now facing east
    assert answers[7] == "false"               # 1 half cell == no argument: (1, 0)'s east side
    assert answers[8] == "ack"                 # three cells east to (3, 0)
    assert answers[9] == "ack" and answers[10] == "ack"
    assert answers[11] == "crash"              # 45 degrees off the grid: no move
    assert answers[12] == "ack" and answers[13] == "false"
    assert answers[14] is None and answers[16] is None
    assert answers[17] == "ack"                # back to the start, facing north
    assert answers[18] == "ack" and answers[19] == "crash"   # west boundary
    assert answers[20] == "false"              # behind (east of) the start: open
    assert run.extra["display"].colors == {(0, 0): "G"}
    assert run.extra["display"].texts == {}
    assert run.crashes == 3
    assert not run.success and "never reached the goal" in run.reason
    assert run.trace[:4] == [mm_to_cell(0, 0, 4), mm_to_cell(1, 0, 4), mm_to_cell(2, 0, 4),
                             mm_to_cell(3, 0, 4)]


def test_crashing_program_is_a_clear_failure():
    maze = _sample("16MM2019CX.maze")
    run = host_mouse(maze, mouse("crashing_mouse"), command_timeout=5, total_timeout=30)
    assert not run.success
    assert "crashed (exit status 1)" in run.reason
    assert "this mouse program has a bug" in run.extra["stderr"]


def test_silent_program_hits_the_command_time_limit():
    maze = _sample("16MM2019CX.maze")
    run = host_mouse(maze, mouse("silent_mouse"), command_timeout=0.5, total_timeout=30)
    assert not run.success and "command time limit" in run.reason


def test_total_time_limit():
    maze = _sample("16MM2019CX.maze")
    run = host_mouse(maze, mouse("silent_mouse"), command_timeout=30, total_timeout=0.5)
    assert not run.success and "total time limit" in run.reason


def test_garbage_is_a_protocol_error_unless_lenient():
    maze = _sample("16MM2019CX.maze")
    run = host_mouse(maze, mouse("garbage_mouse"), command_timeout=2, total_timeout=30)
    assert not run.success and "protocol error: unknown command 'hello world 0" in run.reason
    lenient = host_mouse(maze, mouse("garbage_mouse"), command_timeout=2, total_timeout=30,
                         lenient=True)
    assert not lenient.success and "never reached the goal" in lenient.reason
    assert lenient.extra["ended_by"] == "mouse exited"


def test_wall_banger_counts_crashes():
    maze = _sample("16MM2019CX.maze")
    run = host_mouse(maze, mouse("wall_banger_mouse"), command_timeout=2, total_timeout=30)
    assert not run.success
    # From (0, 0) northwards the first wall is some cells up; every later
    # attempt crashes and does not move.
    assert run.moves + run.crashes == 20 and run.crashes > 0


def test_pipe_closer_and_its_child_are_killed(tmp_path):
    maze = _sample("16MM2019CX.maze")
    pidfile = tmp_path / "pids"
    env = dict(os.environ, MOUSE_PIDFILE=str(pidfile))
    run = host_mouse(maze, mouse("closing_mouse"), command_timeout=1, total_timeout=20,
                     env=env)
    assert not run.success
    pids = [int(p) for p in pidfile.read_text().split()]
    assert len(pids) == 2
    deadline = time.monotonic() + 5
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(p) for p in pids), "a mouse process was left behind"


def test_bad_program_and_arguments():
    m = Maze.empty(2, 2)
    with pytest.raises(ParameterError, match="cannot start"):
        host_mouse(m, ["/nonexistent/mouse-program"])
    with pytest.raises(ParameterError):
        host_mouse(m, [])
    with pytest.raises(ParameterError):
        host_mouse(m, mouse("silent_mouse"), command_timeout=0)


def test_mouse_that_closes_its_input_is_a_clear_failure():
    maze = _sample("16MM2019CX.maze")
    run = host_mouse(maze, mouse("deaf_mouse"), command_timeout=5, total_timeout=20)
    assert not run.success and "closed its input" in run.reason


def test_hosted_run_is_scored_like_mms():
    maze = _sample("16MM2012CX.maze")
    run = host_mouse(maze, mouse("floodfill_mouse"))
    s = run.summary()
    # The test mouse drives one cell per command: 2 half cells, effective 2.
    assert s["mms_best_run_effective_distance"] == 2 * run.route_length
    assert s["mms_best_run_turns"] <= run.extra["fast_run_turns"]
    assert s["mms_score"] < 2000
