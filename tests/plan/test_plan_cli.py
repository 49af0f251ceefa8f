"""``robomaze plan`` end to end."""

import pytest

from robomaze import Maze
from robomaze.cli import main
from robomaze.cli.plan import parse_footprint
from robomaze.errors import ParameterError


def _maze_file(tmp_path):
    from robomaze.io.maze_json import write_maze_json
    # the route (0,0) (0,1) (0,2) (1,2) (1,1) (1,0): 5 moves, one junction-free snake
    m = Maze.from_edges(2, 3, [0, 1, 2, 4, 3], [1, 2, 5, 5, 4], goals=[(1, 0)])
    out = tmp_path / "m.json"
    write_maze_json(m, out)
    return out


def test_plan_file_prints_summary_and_draws(tmp_path, capsys):
    f = _maze_file(tmp_path)
    png = tmp_path / "p.png"
    rc = main(["plan", str(f), "--corridor", "3", "--resolution", "0.1", "--method", "astar",
               "--footprint", "disc:0.1", "-o", str(png)])
    out = capsys.readouterr().out
    assert rc == 0
    assert png.exists() and png.stat().st_size > 0
    # 5 maze moves of 4 grid cells, less the corners the 3-wide corridors let it cut
    assert out.startswith("astar: length 2.000 m (5.00 cells), min clearance at key poses 0.050 m")
    assert "collision-free yes" in out


def test_plan_generator_options(capsys):
    rc = main(["plan", "kruskal", "6x7", "--seed", "2", "--method", "collision_free",
               "--footprint", "rect:0.6x0.2", "--corridor", "5", "--resolution", "0.2",
               "--connectivity", "8"])
    out = capsys.readouterr().out
    assert rc == 0 and out.startswith("collision_free: length ") and "collision-free yes" in out


@pytest.mark.parametrize("argv, msg", [
    (["--method", "nope"], "unknown planner 'nope'; expected one of: "),
    (["--footprint", "disc:5"], "the robot fits nowhere on this grid"),
    (["--footprint", "disc:1.2", "--start", "2,1"], "start cell (2, 1) is free but blocked"),
    (["--footprint", "blob:1"], "--footprint must be disc:R"),
    (["--start", "0,0"], "start cell (0, 0) is on an occupied cell"),
    (["--option", "weight=2"], "planner 'astar' takes no option 'weight'"),
])
def test_plan_errors_are_one_line(tmp_path, capsys, argv, msg):
    f = _maze_file(tmp_path)
    rc = main(["plan", str(f)] + argv)
    err = capsys.readouterr().err
    assert rc == 2 and msg in err and len(err.strip().splitlines()) == 1


def test_parse_footprint_forms():
    assert parse_footprint("disc:0.25").radius == 0.25
    fp = parse_footprint("rect:0.6x0.4@0.1,0.05")
    assert fp.geometry.bounds == pytest.approx((-0.4, -0.25, 0.2, 0.15))
    fp = parse_footprint("poly:0,0;1,0;0,1")
    assert fp.kind == "polygon" and fp.geometry.area == pytest.approx(0.5)
    assert parse_footprint(None) is None
    with pytest.raises(ParameterError, match="not a valid polygon"):
        parse_footprint("poly:0,0;1,1;1,0;0,1")
