"""The packaged example mouse, written against today's mms API, run the way
the README shows it."""

import os
import subprocess
import sys
from pathlib import Path

from robomaze.data import sample_path as data_path
from robomaze.io import read_maze
from robomaze.micromouse.host import host_mouse
from robomaze.micromouse.mms import mms_centre

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "robomaze", *args], env=env,
                          capture_output=True, text=True, timeout=120)


def _figures(stdout):
    return dict(line.split(None, 1) for line in stdout.splitlines() if len(line.split()) > 1)


def test_readme_usage_line_reaches_the_centre():
    path = _cli("data", "path", "mice/floodfill_mouse.py").stdout.strip()
    assert Path(path).is_file()
    done = _cli("mouse", "run", "pkg:micromouse/16MM2019CX.maze", "--", "python", path)
    assert done.returncode == 0, done.stderr
    f = _figures(done.stdout)
    assert f["success"] == "True" and f["goal_rule"] == "mms"
    assert f["ended_by"] == "fast run complete"
    # Its fast run is a shortest route to the centre (scipy BFS reference).
    assert f["route_length"] == f["reference_route_length"] == "75"


def test_goal_rule_on_a_maze_whose_goal_is_off_centre():
    # 32MM2019HX's own goal is a 3 x 3 block off the centre; an mms mouse
    # heads for the centre, so only mms's rule can see it arrive.
    maze = read_maze(data_path("micromouse/32MM2019HX.maze"))
    assert set(maze.goals).isdisjoint(mms_centre(32, 32))
    mouse = [sys.executable, str(data_path("mice/floodfill_mouse.py"))]
    run = host_mouse(maze, mouse, total_timeout=120)
    assert run.success and run.goal_rule == "mms"
    assert run.route[-1] in mms_centre(32, 32) and run.route[0] == (31, 0)
    off = host_mouse(maze, mouse, total_timeout=120, goal="file")
    assert off.goal_rule == "file" and not off.reached_goal
    assert "never reached the goal" in off.reason
    # The mouse asked mms's statistics at its end: no finished run to the file's goal.
    assert "best-run-distance: -1" in off.extra["stderr"]
