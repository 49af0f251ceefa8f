"""``robomaze data``, ``pkg:`` names, ``python -m robomaze`` and argument limits."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from robomaze.cli import main
from robomaze.data import SAMPLES_DIR, list_samples, resolve, sample_path
from robomaze.errors import ParameterError
from robomaze.io import read_maze


def test_samples_named_by_the_readme_are_shipped():
    names = set(list_samples())
    for n in ("micromouse/tiny-4x4.txt", "micromouse/16MM2019CX.maze",
              "micromouse/16MM2013CX.maze", "micromouse/LICENSE-kerikun11.txt",
              "movingai/maze512-1-0.map", "movingai/maze512-1-0.map.scen",
              "ros/room.yaml", "ros/room.pgm", "walks/sample-walk.jsonl",
              "scenarios/ci.toml", "scenarios/micromouse.toml", "scenarios/default.toml"):
        assert n in names, n
        assert sample_path(n).is_file()


def test_sample_mazes_read_back():
    # the tiny maze: 4x4, goal (1, 2) as its README says
    m = read_maze(sample_path("tiny-4x4.txt"))
    assert m.shape == (4, 4)
    assert m.solution_length() == 9


def test_unknown_and_ambiguous_names():
    with pytest.raises(ParameterError, match="did you mean '16MM2019CX.maze'"):
        sample_path("16MM2019CY.maze")
    with pytest.raises(ParameterError, match="no packaged sample"):
        resolve("pkg:nothing/here")
    assert resolve("plain.json") == Path("plain.json")


def test_data_list_path_copy(tmp_path, capsys):
    assert main(["data", "list", "ros"]) == 0
    out = capsys.readouterr().out
    assert "ros/room.yaml" in out and "micromouse" not in out
    assert main(["data", "path", "room.yaml"]) == 0
    assert Path(capsys.readouterr().out.strip()) == SAMPLES_DIR / "ros" / "room.yaml"
    assert main(["data", "copy", "ros", str(tmp_path)]) == 0
    assert (tmp_path / "ros" / "room.pgm").read_bytes() == sample_path("ros/room.pgm").read_bytes()
    # never overwrites
    assert main(["data", "copy", "ros/room.yaml", str(tmp_path / "ros" / "room.yaml")]) == 2
    assert "exists" in capsys.readouterr().err
    assert main(["data", "list", "nope"]) == 2
    assert "expected one of" in capsys.readouterr().err


def test_pkg_names_work_as_file_arguments(capsys, tmp_path):
    assert main(["mouse", "solve", "pkg:micromouse/tiny-4x4.txt"]) == 0
    assert "floodfill" in capsys.readouterr().out
    out = tmp_path / "r.png"
    assert main(["render", f"--output={out}", "pkg:ros/room.yaml"]) == 0
    assert out.is_file()
    assert main(["render", "pkg:micromouse/nope.maze", "-o", str(out)]) == 2
    assert "no packaged sample named" in capsys.readouterr().err


def test_pkg_names_in_a_sweep(tmp_path):
    sweep = tmp_path / "s.toml"
    sweep.write_text('name = "pkg"\n[maze]\nfile = "pkg:micromouse/tiny-4x4.txt"\n'
                     '[widen]\ncorridor = 1\n[robot]\nfootprint = "disc:0.01"\n[run]\nplanner = "wavefront"\n', encoding="utf-8")
    assert main(["bench", str(sweep), "-o", str(tmp_path / "out"), "--no-report", "-q"]) == 0
    import json
    rows = [json.loads(x) for x in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    assert len(rows) == 1 and rows[0]["status"] == "ok"
    # the best route of the tiny maze is 9 moves (its README, counted by hand)
    assert rows[0]["metrics"]["length_cells"] == pytest.approx(9)


def test_negative_world_coordinates(tmp_path, capsys):
    out = tmp_path / "room.png"
    assert main(["plan", "pkg:ros/room.yaml", "--start", "-0.15,-0.1", "--goal", "0.15,0.1",
                 "--footprint", "disc:0.02", "--method", "astar", "-o", str(out)]) == 0
    line = capsys.readouterr().out
    assert line.startswith("astar: length") and out.is_file()


def test_python_dash_m():
    proc = subprocess.run([sys.executable, "-m", "robomaze", "--version"], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.startswith("robomaze ")


@pytest.mark.parametrize("argv, message", [
    (["generate", "backtracker", "20000x20000", "-o", "m.png"], "more than the limit of 67108864"),
    (["--max-cells", "100", "generate", "backtracker", "5x5", "--corridor", "3", "-o", "m.npy"],
     "21x21 grid, which has 441 cells"),
    (["simulate", "kruskal", "4x4", "--dt", "1e300"], "--dt: must be > 0 and <= 1.0"),
    (["simulate", "kruskal", "4x4", "--seed", "1", "--start", "1e308,1e308"],
     "--start must be finite coordinates"),
    (["render", "pkg:tiny-4x4.txt", "--size", "100000x100000", "-o", "x.png"],
     "--size must be between"),
])
def test_abusive_arguments_get_one_line(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own type errors exit from parse_args
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not list(tmp_path.iterdir())  # nothing written


def test_title_is_plain_text(tmp_path):
    out = tmp_path / "t.png"
    assert main(["render", "pkg:tiny-4x4.txt", "--title", "$x^$", "-o", str(out)]) == 0
    assert out.stat().st_size > 0
