"""The ``robomaze mouse`` / ``robomaze movingai`` commands and the micromouse drawing."""

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from robomaze.cli import movingai as movingai_cli
from robomaze.cli import mouse as mouse_cli
from robomaze.maze import Maze
from robomaze.micromouse import floodfill

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
MICE = Path(__file__).resolve().parent / "mice"


def _run(module, argv):
    # Only our sub-command is registered, so other commands' state cannot
    # interfere; RobomazeError handling is the dispatcher's, tested there.
    parser = argparse.ArgumentParser(prog="robomaze")
    sub = parser.add_subparsers(dest="command")
    module.register(sub)
    args = parser.parse_args(argv)
    return args.func(args)


def _need(p):
    if not p.exists():
        pytest.fail("sample data not present")
    return p


def test_mouse_solve_cli(tmp_path, capsys):
    maze = _need(DATA / "micromouse" / "tiny-4x4.txt")
    out = tmp_path / "s.json"
    png = tmp_path / "s.png"
    rc = _run(mouse_cli, ["mouse", "solve", str(maze), "--json", str(out), "--render", str(png)])
    assert rc == 0
    data = json.loads(out.read_text())
    assert data["route_length"] == 9 and data["route_turns"] == 4 and data["proven"]
    assert data["reference_route_length"] == 9
    assert png.stat().st_size > 1000
    assert "route_length" in capsys.readouterr().out


def test_mouse_solve_cli_fails_on_sealed_goal(capsys):
    maze = _need(DATA / "micromouse" / "32_fake.maze")
    assert _run(mouse_cli, ["mouse", "solve", str(maze)]) == 1
    assert "unreachable" in capsys.readouterr().err


def test_mouse_run_cli_with_options_after_the_maze(tmp_path):
    maze = _need(DATA / "micromouse" / "16MM2019CX.maze")
    out = tmp_path / "r.json"
    rc = _run(mouse_cli, ["mouse", "run", str(maze), "--command-timeout", "5", "--json",
                          str(out), "--", sys.executable, str(MICE / "floodfill_mouse.py")])
    assert rc == 0
    data = json.loads(out.read_text())
    assert data["success"] and data["route_length"] == 75 and data["mms_score"] > 0
    rc = _run(mouse_cli, ["mouse", "run", str(maze), "--command-timeout", "0.3", "--",
                          sys.executable, str(MICE / "silent_mouse.py")])
    assert rc == 1


def test_movingai_cli(tmp_path, capsys):
    scen = _need(DATA / "movingai" / "maze512-1-0.map.scen")
    out = tmp_path / "m.json"
    rc = _run(movingai_cli, ["movingai", str(scen), "--limit", "50", "--json", str(out),
                             "--quiet"])
    assert rc == 0
    assert json.loads(out.read_text())["agree"] == 50
    assert "50 problems, 50 agree" in capsys.readouterr().out


def test_render_micromouse_pixels(tmp_path):
    from PIL import Image

    from robomaze.viz import PATH_COLOR
    from robomaze.viz.micromouse import EXPLORED_COLOR, render_micromouse
    m = Maze.empty(4, 4, start=(3, 0), goals=[(3, 3)])
    run = floodfill(m)
    assert not run.explored[0].any()     # a straight dash along the south row
    render_micromouse(m, tmp_path / "m.png", run=run, cell_px=40, ticks=False)
    img = np.asarray(Image.open(tmp_path / "m.png").convert("RGB"))
    assert img.shape == (160, 160, 3)

    def has(colour):
        rgb = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
        return bool((np.abs(img.astype(int) - rgb).sum(axis=2) < 30).any())

    assert has(PATH_COLOR) and has(EXPLORED_COLOR) and has("#000000")
    # A cell the route does not touch and the mouse never explored stays white.
    assert tuple(img[0 * 40 + 20, 1 * 40 + 20]) == (255, 255, 255)


@pytest.mark.parametrize("rule, length", [("file", 15), ("mms", 5)])
def test_mouse_solve_goal_rule(tmp_path, rule, length):
    # 04_test_01's own goal is (row 3, col 1); mms's is the 2 x 2 centre.
    maze = _need(DATA / "micromouse" / "04_test_01.maze")
    out = tmp_path / "s.json"
    assert _run(mouse_cli, ["mouse", "solve", str(maze), "--goal", rule,
                            "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["goal_rule"] == rule
    assert data["route_length"] == data["reference_route_length"] == length


def test_mouse_run_cli_reports_goal_rule_and_mms_stats(tmp_path):
    maze = _need(DATA / "micromouse" / "16MM2019CX.maze")
    out = tmp_path / "r.json"
    rc = _run(mouse_cli, ["mouse", "run", str(maze), "--goal", "file", "--json", str(out),
                          "--", sys.executable, str(MICE / "floodfill_mouse.py")])
    assert rc == 0
    data = json.loads(out.read_text())
    assert data["goal_rule"] == "file"
    # The test mouse moves one cell per command: each is 2 half cells of
    # effective distance 2 (mms's source), so the best run's effective
    # distance is twice its length in cells (mms's panel, read at the end).
    assert data["route_length"] == 75
    assert data["mms_stats"]["best-run-effective-distance"] == 2 * 75
    assert data["mms_stats"]["best-run-distance"] == 2 * 75


def test_render_shows_the_goals_the_run_used(tmp_path):
    # 04_test_01's file goal is (3, 1); a run under mms's rule aimed at the
    # 2 x 2 centre, and the drawing marks those cells, not the file's.
    from PIL import Image

    from robomaze.io import read_maze
    from robomaze.micromouse.mms import mms_centre
    from robomaze.viz import GOAL_COLOR
    from robomaze.viz.micromouse import render_micromouse
    maze = read_maze(_need(DATA / "micromouse" / "04_test_01.maze"))
    run = floodfill(maze.replace(goals=list(mms_centre(4, 4))))
    render_micromouse(maze, tmp_path / "g.png", run=run, cell_px=40, ticks=False)
    img = np.asarray(Image.open(tmp_path / "g.png").convert("RGB")).astype(int)
    goal = np.array([int(GOAL_COLOR[i:i + 2], 16) for i in (1, 3, 5)])

    def is_goal(r, c):
        return np.abs(img[r * 40 + 20, c * 40 + 20] - goal).sum() < 40

    assert all(is_goal(r, c) for r, c in mms_centre(4, 4))
    assert not is_goal(3, 1)
