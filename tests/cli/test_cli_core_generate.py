"""`robomaze generate`: outputs by extension, summary line, one-line errors."""

import json

import matplotlib.image as mpimg
import numpy as np
import pytest

from robomaze.cli import main
from robomaze.generate import GENERATORS, generate
from robomaze.grid import widen


def cli(argv, capsys):
    """Run the command in-process: (exit code, stdout, stderr)."""
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse usage errors and --help
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def test_npy_is_the_widened_grid_of_the_same_seed(tmp_path, capsys):
    out = tmp_path / "g.npy"
    code, stdout, _ = cli(["generate", "kruskal", "6x9", "--seed", "4", "--corridor", "3",
                           "--wall", "2", "-o", str(out)], capsys)
    assert code == 0
    grid = np.load(out)
    assert grid.dtype == bool and grid.shape == (6 * 5 + 2, 9 * 5 + 2)
    expected = widen(generate("kruskal", 6, 9, rng=4), corridor=3, wall=2)
    np.testing.assert_array_equal(grid, expected.occupied)
    assert str(out) in stdout


def test_same_seed_same_bytes_different_seed_different_maze(tmp_path, capsys):
    paths = [tmp_path / f"{i}.npy" for i in range(3)]
    for p, seed in zip(paths, ["7", "7", "8"]):
        assert cli(["generate", "wilson", "12x12", "--seed", seed, "-o", str(p)], capsys)[0] == 0
    assert paths[0].read_bytes() == paths[1].read_bytes()
    assert paths[0].read_bytes() != paths[2].read_bytes()


def test_txt_is_micromouse_text_that_read_maze_reads_back(tmp_path, capsys):
    # .txt is a maze format (micromouse text), like .maze: issue 10 §4
    out = tmp_path / "m.txt"
    assert cli(["generate", "prim", "4x5", "--seed", "1", "-o", str(out)], capsys)[0] == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 2 * 4 + 1 and all(len(ln) == 4 * 5 + 1 for ln in lines)
    assert lines[0][0] == "o"
    from robomaze.io import read_maze
    assert read_maze(out) == generate("prim", 4, 5, rng=1)


def test_json_round_trips_with_provenance(tmp_path, capsys):
    out = tmp_path / "m.json"
    code, _, _ = cli(["generate", "backtracker", "5x7", "--seed", "3", "--braid", "0.5",
                      "--placement", "centre", "-o", str(out)], capsys)
    assert code == 0
    from robomaze.io import read_maze

    expected = generate("backtracker", 5, 7, rng=3, braid=0.5, placement="centre")
    assert read_maze(out) == expected
    d = json.loads(out.read_text())
    assert d["generator"]["algorithm"] == "backtracker"
    assert d["generator"]["seed"] == 3 and d["generator"]["braid"] == 0.5
    assert d["generator"]["placement"] == "centre"


@pytest.mark.parametrize("ext", [".png", ".svg"])
def test_pictures(tmp_path, capsys, ext):
    out = tmp_path / f"m{ext}"
    code, _, _ = cli(["generate", "eller", "10x20", "--seed", "2", "--solution",
                      "-o", str(out)], capsys)
    assert code == 0
    if ext == ".png":
        # widened k=t=1 grid is 21x41 cells; fitted to 1000 px: 24 px per cell
        assert mpimg.imread(out).shape[:2] == (21 * 24, 41 * 24)
    else:
        assert out.read_text().lstrip().startswith("<?xml")


def test_summary_line_reports_the_maze(capsys):
    code, out, _ = cli(["generate", "binary_tree", "15x15", "--seed", "5"], capsys)
    assert code == 0
    m = generate("binary_tree", 15, 15, rng=5)
    line = out.strip()
    assert "\n" not in line
    assert line.startswith("binary_tree 15x15 seed=5")
    assert f"dead_ends={int(m.dead_ends().sum())} " in line
    assert f"solution={m.solution_length()}" in line


def test_seed_is_drawn_and_printed_when_not_given(capsys, tmp_path):
    code, out, _ = cli(["generate", "sidewinder", "6x6", "-o", str(tmp_path / "a.npy")], capsys)
    assert code == 0
    seed = int(out.split("seed=")[1].split()[0])
    again = tmp_path / "b.npy"
    assert cli(["generate", "sidewinder", "6x6", "--seed", str(seed), "-o", str(again)],
               capsys)[0] == 0
    assert (tmp_path / "a.npy").read_bytes() == again.read_bytes()


def test_generator_options_pass_through(capsys):
    code, out, _ = cli(["generate", "growing_tree", "8x8", "--seed", "1",
                        "--option", "selection=random"], capsys)
    assert code == 0
    m = generate("growing_tree", 8, 8, rng=1, selection="random")
    assert f"dead_ends={int(m.dead_ends().sum())} " in out


@pytest.mark.parametrize("argv, needle", [
    (["generate", "nosuch", "5x5"], "backtracker"),          # lists the valid names
    (["generate", "prim", "20by30"], "20by30"),
    (["generate", "prim", "0x5"], "0x5"),
    (["generate", "prim", "5x-5"], "5x-5"),
    (["generate", "prim", "100000x100000"], "100000x100000"),
    (["generate", "prim", "5x5", "--braid", "1.5"], "--braid"),
    (["generate", "prim", "5x5", "--braid", "half"], "--braid"),
    (["generate", "prim", "5x5", "--placement", "middle"], "middle"),
    (["generate", "prim", "5x5", "--corridor", "0"], "--corridor"),
    (["generate", "prim", "5x5", "--wall", "x"], "--wall"),
    (["generate", "prim", "5x5", "--seed", "-1"], "--seed"),
    (["generate", "prim", "5x5", "-o", "maze.jpg"], "maze.jpg"),
    (["generate", "prim", "5x5", "--option", "nonsense"], "nonsense"),
    (["generate", "growing_tree", "5x5", "--option", "bogus=1"], "bogus"),
    (["generate", "prim"], "SIZE"),
    (["generate", "prim", "5x5", "--bogus"], "--bogus"),
    (["generate", "prim", "5x5", "extra"], "extra"),
])
def test_bad_input_is_one_line_and_nonzero(capsys, tmp_path, argv, needle, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(argv, capsys)
    assert code != 0
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("robomaze generate: error: ")
    assert needle in lines[0]
    assert "Traceback" not in err and out == ""
    assert list(tmp_path.iterdir()) == []


def test_every_registered_generator_runs_from_the_cli(capsys):
    for name in GENERATORS:
        code, out, _ = cli(["generate", name, "4x6", "--seed", "0"], capsys)
        assert code == 0 and out.startswith(f"{name} 4x6 seed=0")
