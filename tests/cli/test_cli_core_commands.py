"""`robomaze render`, `stats`, `list`, `--help` and the installed console script."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import matplotlib.image as mpimg
import numpy as np
import pytest
from matplotlib.colors import to_rgb

from robomaze import Maze
from robomaze.cli import COMMANDS, main
from robomaze.cli import list as list_cmd
from robomaze.cli._world import load
from robomaze.io.maze_json import write_maze_json
from robomaze.viz import PATH_COLOR

DATA = Path(__file__).resolve().parents[1] / "data"


def cli(argv, capsys):
    """Run the command in-process: (exit code, stdout, stderr)."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def corridor_maze():
    """Hand-built 2x3: (0,0)-(0,1)-(0,2)-(1,2)-(1,1)-(1,0), entrance west of (0,0)."""
    return Maze.from_edges(2, 3, [0, 1, 2, 4, 3], [1, 2, 5, 5, 4], start=(0, 0),
                           goals=[(1, 0)], openings=[(0, 0, "W")])


@pytest.fixture
def maze_json(tmp_path):
    p = tmp_path / "m.json"
    write_maze_json(corridor_maze(), p, {"algorithm": "hand"})
    return p


def rgb255(img, y, x):
    return tuple(int(v) for v in np.round(np.asarray(img[y, x, :3], float) * 255))


RED = tuple(int(round(v * 255)) for v in to_rgb(PATH_COLOR))


# ------------------------------------------------------------------ render
def test_render_maze_with_cell_px_and_solution(tmp_path, capsys, maze_json):
    out = tmp_path / "m.png"
    code, stdout, _ = cli(["render", str(maze_json), "-o", str(out), "--cell-px", "30",
                           "--solution"], capsys)
    assert code == 0 and "(90x60 px)" in stdout
    img = mpimg.imread(out)
    assert img.shape[:2] == (60, 90)
    # the solution runs through every cell; (0, 2) and (1, 1) are on it
    assert rgb255(img, 15, 75) == RED
    assert rgb255(img, 45, 45) == RED


def test_render_widened_to_svg_with_size(tmp_path, capsys, maze_json):
    out = tmp_path / "g.svg"
    code, stdout, _ = cli(["render", str(maze_json), "-o", str(out), "--corridor", "3",
                           "--size", "400x300", "--title", "hi"], capsys)
    assert code == 0 and "9x13 grid" in stdout and "(400x300 px)" in stdout
    import xml.etree.ElementTree as ET

    assert ET.parse(out).getroot().tag.endswith("svg")


def test_render_npy_grid_and_bitmap_round_trip(tmp_path, capsys, maze_json):
    occ = np.zeros((5, 7), bool)
    occ[0], occ[:, 3] = True, True
    npy = tmp_path / "g.npy"
    np.save(npy, occ)
    out = tmp_path / "g.png"
    assert cli(["render", str(npy), "-o", str(out), "--cell-px", "4"], capsys)[0] == 0
    assert mpimg.imread(out).shape[:2] == (20, 28)
    bmp = tmp_path / "b.png"
    assert cli(["render", str(maze_json), "-o", str(bmp), "--bitmap"], capsys)[0] == 0
    img = mpimg.imread(bmp)
    grey = img if img.ndim == 2 else img[..., 0]
    np.testing.assert_array_equal((grey == 0).astype(np.uint8), corridor_maze().to_matrix())


def test_txt_matrix_loads_as_maze_else_grid(tmp_path, capsys):
    m = corridor_maze()
    p = tmp_path / "m.txt"
    p.write_text("\n".join("".join(map(str, row)) for row in m.to_matrix()) + "\n")
    loaded = load(p)
    assert isinstance(loaded, Maze)
    np.testing.assert_array_equal(loaded.to_matrix(), m.to_matrix())
    q = tmp_path / "g.txt"
    q.write_text("0110\n0000\n")
    assert load(q).occupied.tolist() == [[False, True, True, False], [False] * 4]


def test_widened_txt_stays_a_grid(tmp_path, capsys):
    # k = 3: odd sizes and free (odd, odd) cells, but free "posts" inside blocks
    # (generate -o .txt writes the maze itself now; the 0/1 matrix is io's grid format)
    from robomaze.generate import generate
    from robomaze.grid import widen
    from robomaze.io import write_grid

    out = tmp_path / "w.txt"
    write_grid(widen(generate("kruskal", 3, 4, rng=1), corridor=3, wall=1), out)
    loaded = load(out)
    expected = widen(generate("kruskal", 3, 4, rng=1), corridor=3, wall=1).occupied
    assert not isinstance(loaded, Maze)
    np.testing.assert_array_equal(loaded.occupied, expected)


@pytest.mark.parametrize("argv, needle", [
    (["render", "missing.json", "-o", "x.png"], "missing.json"),
    (["render", "{maze}", "-o", "x.jpg"], "x.jpg"),
    (["render", "{maze}", "-o", "x.svg", "--bitmap"], "x.svg"),
    (["render", "{maze}", "-o", "x.png", "--size", "800by600"], "800by600"),
    (["render", "{maze}", "-o", "x.png", "--cell-px", "0"], "--cell-px"),
    (["render", "{maze}", "-o", "x.png", "--cell-px", "3", "--size", "3x3"], "--size"),
    (["render", "{grid}", "-o", "x.png", "--solution"], "grid"),
    (["render", "{bad}", "-o", "x.png"], "bad.json"),
    (["render", "{unknown}", "-o", "x.png"], ".xyz"),
    (["render", "{maze}"], "-o"),
])
def test_render_bad_input_is_one_line(tmp_path, capsys, maze_json, monkeypatch, argv, needle):
    np.save(tmp_path / "g.npy", np.zeros((3, 3), bool))
    (tmp_path / "bad.json").write_text("{not json")
    (tmp_path / "u.xyz").write_text("?")
    subst = {"{maze}": str(maze_json), "{grid}": str(tmp_path / "g.npy"),
             "{bad}": str(tmp_path / "bad.json"), "{unknown}": str(tmp_path / "u.xyz")}
    monkeypatch.chdir(tmp_path)
    before = set(tmp_path.iterdir())
    code, out, err = cli([subst.get(a, a) for a in argv], capsys)
    assert code != 0 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("robomaze render: error: "), err
    assert needle in lines[0]
    assert set(tmp_path.iterdir()) == before


# ------------------------------------------------------------------ stats
def test_stats_of_a_file_aligned_and_json(capsys, maze_json):
    code, out, _ = cli(["stats", str(maze_json)], capsys)
    assert code == 0
    rows = dict(line.split(None, 1) for line in out.strip().splitlines())
    # hand-computed: a single corridor through all 6 cells, start (0,0) to goal (1,0)
    assert rows["cells"] == "6" and rows["dead_ends"] == "2" and rows["loops"] == "0"
    assert rows["perfect"] == "True" and rows["solution_length"] == "5"
    starts = {line.index(v.split()[0]) for line, v in
              ((ln, ln.split(None, 1)[1]) for ln in out.strip().splitlines())}
    assert len(starts) == 1                                  # values in one column
    code, out, _ = cli(["stats", str(maze_json), "--json"], capsys)
    d = json.loads(out)
    assert d["solution_length"] == 5 and d["junctions"] == 0 and d["corridors"] == 4


def test_stats_generated_matches_published_fingerprint(capsys):
    # Kruskal on a large grid has ~30% dead ends (uniform-ish spanning trees).
    code, out, _ = cli(["stats", "kruskal", "60x60", "--seed", "11", "--json"], capsys)
    d = json.loads(out)
    assert code == 0 and d["algorithm"] == "kruskal" and d["seed"] == 11
    assert d["perfect"] is True and d["cells"] == 3600
    assert 0.26 < d["dead_end_fraction"] < 0.34


def test_stats_of_grid_and_of_sample_micromouse(tmp_path, capsys):
    npy = tmp_path / "g.npy"
    np.save(npy, np.eye(4, dtype=bool))
    d = json.loads(cli(["stats", str(npy), "--json"], capsys)[1])
    # the diagonal splits the free cells into two 4-connected triangles
    assert d["occupied"] == 4 and d["free_components"] == 2
    tiny = DATA / "micromouse" / "tiny-4x4.txt"
    if not tiny.exists():
        pytest.fail("shared sample data not present")
    d = json.loads(cli(["stats", str(tiny), "--json"], capsys)[1])
    assert d["solution_length"] == 9 and d["loops"] == 0      # per the data README


@pytest.mark.parametrize("argv, needle", [
    (["stats", "nosuch", "5x5"], "wilson"),
    (["stats", "prim", "5by5"], "5by5"),
    (["stats", "nofile.json"], "nofile.json"),
    (["stats", "prim", "5x5", "--braid", "-0.1"], "--braid"),
])
def test_stats_bad_input(capsys, tmp_path, monkeypatch, argv, needle):
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(argv, capsys)
    lines = err.strip().splitlines()
    assert code != 0 and out == "" and len(lines) == 1
    assert lines[0].startswith("robomaze stats: error: ") and needle in lines[0]


# ------------------------------------------------------------------ list
def test_list_generators_with_descriptions(capsys):
    from robomaze.generate import GENERATORS

    code, out, _ = cli(["list", "generators"], capsys)
    assert code == 0
    lines = out.strip().splitlines()
    assert lines[0] == "generators:"
    names = [ln.split()[0] for ln in lines[1:]]
    assert names == sorted(GENERATORS)
    assert all(len(ln.split(None, 1)) == 2 for ln in lines[1:])   # each has a description


def test_list_all_and_unavailable_registry(capsys, monkeypatch):
    from robomaze import registry

    # a registry whose declaring package cannot be imported
    monkeypatch.setitem(registry.REGISTRIES, "agent",
                        registry.Registry("agent", None, provider="robomaze.no_such_package"))
    code, out, _ = cli(["list"], capsys)
    assert code == 0
    for header in ("generators:", "planners:", "agents:", "sensors:", "mapf_solvers:"):
        assert header in out
    assert out.split("agents:")[1].split("\n\n")[0].strip() == "(not available)"
    code, out, _ = cli(["list", "--json"], capsys)
    assert code == 0 and json.loads(out)["agents"] is None
    code, _, err = cli(["list", "robots"], capsys)
    assert code == 2 and err.startswith("robomaze list: error: ") and "planners" in err


# ------------------------------------------------------------------ help
@pytest.mark.parametrize("command", ["generate", "render", "stats", "list"])
def test_help_of_every_core_command(capsys, command):
    assert command in COMMANDS
    code, out, _ = cli([command, "--help"], capsys)
    assert code == 0 and f"usage: robomaze {command}" in out and "examples:" in out


def test_installed_console_script_runs():
    exe = shutil.which("robomaze") or str(Path(sys.executable).parent / "robomaze")
    assert Path(exe).exists(), "the robomaze console script is not installed (pip install -e .)"
    out = subprocess.run([exe, "--help"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0
    for name in ("generate", "render", "stats", "list"):
        assert name in out.stdout
