"""Seed features from the CLI: --graph, PDF/SVG, start colour, footprints, simulate
--gif, metre axes in the ROS map frame."""

import json

import matplotlib.image as mpimg
import numpy as np
import pytest
from PIL import Image

from robomaze import Maze, OccupancyGrid, widen
from robomaze.cli import main
from robomaze.errors import ParameterError
from robomaze.geometry import Footprint
from robomaze.viz import render
from robomaze.viz.graph import EDGE_COLOR, JUNCTION_COLOR, cell_graph
from robomaze.viz.robot import (FOOTPRINT_COLOR, HIT_COLOR, footprint_polygons, path_poses)


def _rgb_count(png, colour, tol=12):
    img = mpimg.imread(png)[..., :3]
    target = np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)]) / 255
    return int((np.abs(img - target).max(axis=-1) * 255 < tol).sum())


def _run(argv, capsys):
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture()
def maze_file(tmp_path):
    path = tmp_path / "m.json"
    assert main(["generate", "backtracker", "6x7", "--seed", "3", "-o", str(path)]) == 0
    return path


# ---------------------------------------------------------------- graph
def test_cell_graph_edges_are_the_mazes_passages():
    m = Maze.from_edges(2, 3, [0, 1, 1, 3], [1, 2, 4, 4])  # hand-made: 4 passages
    nodes, edges = cell_graph(m)
    assert len(nodes) == 6
    got = {tuple(map(tuple, e)) for e in edges}
    assert got == {((0, 0), (0, 1)), ((0, 1), (0, 2)), ((1, 0), (1, 1)), ((0, 1), (1, 1))}
    # reference: a passage is a pair of cells the maze says are neighbours
    rnd = Maze.from_matrix(np.array([[1, 1, 1, 1, 1], [1, 0, 0, 0, 1], [1, 0, 1, 0, 1],
                                     [1, 0, 0, 0, 1], [1, 1, 1, 1, 1]], np.uint8))
    n_ref = sum(len(rnd.neighbors((r, c))) for r in range(rnd.rows) for c in range(rnd.cols)) // 2
    assert len(cell_graph(rnd)[1]) == n_ref == 4


def test_render_graph_from_the_cli(maze_file, tmp_path, capsys):
    out = tmp_path / "g.png"
    code, _, _ = _run(["render", str(maze_file), "-o", str(out), "--graph", "--cell-px", "40"],
                      capsys)
    assert code == 0
    assert _rgb_count(out, EDGE_COLOR) > 500 and _rgb_count(out, JUNCTION_COLOR) > 100
    plain = tmp_path / "p.png"
    assert main(["render", str(maze_file), "-o", str(plain), "--cell-px", "40"]) == 0
    assert _rgb_count(plain, EDGE_COLOR) == 0
    # widened: the graph sits on the block centres
    wide = tmp_path / "w.png"
    assert main(["render", str(maze_file), "-o", str(wide), "--graph", "--corridor", "3"]) == 0
    assert _rgb_count(wide, EDGE_COLOR) > 500


def test_render_graph_of_a_bare_grid_fails_in_one_line(tmp_path, capsys):
    grid = tmp_path / "g.npy"
    np.save(grid, np.zeros((4, 4), bool))
    code, _, err = _run(["render", str(grid), "-o", str(tmp_path / "x.png"), "--graph"], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "maze" in err


# ---------------------------------------------------------------- PDF / SVG
@pytest.mark.parametrize("ext,magic", [(".pdf", b"%PDF"), (".svg", b"<?xml")])
def test_vector_output_is_reproducible(maze_file, tmp_path, ext, magic):
    a, b = tmp_path / f"a{ext}", tmp_path / f"b{ext}"
    assert main(["render", str(maze_file), "-o", str(a), "--solution"]) == 0
    assert main(["render", str(maze_file), "-o", str(b), "--solution"]) == 0
    assert a.read_bytes().startswith(magic) and a.read_bytes() == b.read_bytes()


def test_pdf_wherever_png_is_written(tmp_path, capsys):
    from robomaze.traverse import TraversalRecord

    m = Maze.from_edges(1, 3, [0, 1], [1, 2])
    rec = TraversalRecord.from_cells(m, [(0, 0), (0, 1), (0, 2)])
    walk = rec.save(tmp_path / "w.jsonl")
    cmds = {
        "replay": ["replay", str(walk), "-o", str(tmp_path / "still.pdf")],
        "score": ["score", str(walk), "--heatmap", str(tmp_path / "heat.pdf")],
        "plan": ["plan", "backtracker", "3x3", "--seed", "1", "-o", str(tmp_path / "plan.pdf")],
        "simulate": ["simulate", "backtracker", "3x3", "--seed", "1", "--agent", "follow_plan",
                     "--image", str(tmp_path / "sim.pdf")],
    }
    for name, argv in cmds.items():
        code, _, err = _run(argv, capsys)
        assert code == 0, (name, err)
    for f in ("still", "heat", "plan", "sim"):
        assert (tmp_path / f"{f}.pdf").read_bytes().startswith(b"%PDF")


# ---------------------------------------------------------------- start colour
def test_start_color_option(tmp_path, capsys):
    m = Maze.empty(3, 3, start=(0, 0), goals=[(2, 2)])
    path = tmp_path / "m.json"
    from robomaze.io.maze_json import write_maze_json

    write_maze_json(m, path)
    red, green = tmp_path / "red.png", tmp_path / "green.png"
    assert main(["render", str(path), "-o", str(red), "--cell-px", "40",
                 "--start-color", "red"]) == 0
    assert main(["render", str(path), "-o", str(green), "--cell-px", "40"]) == 0
    assert tuple(np.round(mpimg.imread(red)[20, 20, :3] * 255)) == (255, 0, 0)
    assert tuple(np.round(mpimg.imread(green)[20, 20, :3] * 255)) == (0, 176, 0)  # #00b000
    code, _, err = _run(["render", str(path), "-o", str(red), "--start-color", "notacolour"],
                        capsys)
    assert code == 2 and "--start-color" in err


# ---------------------------------------------------------------- footprints
def test_footprint_polygons_have_the_shapes_area_in_cells():
    g = OccupancyGrid(np.zeros((20, 20), bool), resolution=0.1)
    fp = Footprint.rectangle(0.4, 0.2)
    polys = footprint_polygons(g, fp, [[1.0, 1.0, 0.0], [1.0, 1.0, np.pi / 2],
                                       [1.2, 1.0, 0.3]], every=2)
    assert len(polys) == 2  # poses 0 and 2 (the last is always drawn)

    def area(p):
        x, y = p[:, 0], p[:, 1]
        return 0.5 * abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1)))
    # 0.4 m x 0.2 m at 0.1 m per cell = 4 x 2 cells
    assert area(polys[0]) == pytest.approx(8.0) and area(polys[1]) == pytest.approx(8.0)
    assert np.ptp(polys[0][:, 0]) == pytest.approx(4.0) and np.ptp(polys[0][:, 1]) == \
        pytest.approx(2.0)


def test_path_poses_face_the_next_point():
    poses = path_poses(np.array([[0.0, 0.0], [0.0, 1.0], [-1.0, 1.0]]))
    assert np.allclose(poses[:, 2], [np.pi / 2, np.pi, np.pi])


def test_plan_and_simulate_draw_footprints(tmp_path, capsys):
    plan = tmp_path / "plan.png"
    code, _, err = _run(["plan", "backtracker", "4x4", "--seed", "2", "--corridor", "5",
                         "--resolution", "0.1", "--footprint", "rect:0.3x0.2", "--method",
                         "collision_free", "-o", str(plan), "--footprints", "2"], capsys)
    assert code == 0, err
    without = tmp_path / "plain.png"
    assert main(["plan", "backtracker", "4x4", "--seed", "2", "--corridor", "5", "--resolution",
                 "0.1", "--footprint", "rect:0.3x0.2", "--method", "collision_free",
                 "-o", str(without)]) == 0
    assert _rgb_count(plan, FOOTPRINT_COLOR, tol=40) > 50
    assert _rgb_count(without, FOOTPRINT_COLOR, tol=40) == 0
    code, _, err = _run(["plan", "backtracker", "4x4", "--seed", "2", "-o",
                         str(tmp_path / "x.png"), "--footprints", "2"], capsys)
    assert code == 2 and "--footprint" in err
    sim = tmp_path / "sim.png"
    code, _, err = _run(["simulate", "backtracker", "3x3", "--seed", "1", "--agent",
                         "follow_plan", "--image", str(sim), "--footprints", "5"], capsys)
    assert code == 0, err
    assert _rgb_count(sim, FOOTPRINT_COLOR, tol=40) > 50


def test_simulate_gif_has_footprint_and_beams(tmp_path, capsys):
    gif = tmp_path / "run.gif"
    code, out, err = _run(["simulate", "backtracker", "3x3", "--seed", "1", "--agent",
                           "follow_plan", "--sensor", "ir", "--gif", str(gif),
                           "--gif-every", "10", "-o", str(tmp_path / "run.npz")], capsys)
    assert code == 0, err
    n_poses = len(np.load(tmp_path / "run.npz")["t"])
    with Image.open(gif) as im:
        assert im.format == "GIF"
        # one frame per 10 poses plus the last pose
        assert im.n_frames == len(range(0, n_poses, 10)) + ((n_poses - 1) % 10 != 0)
        im.seek(im.n_frames // 2)
        frame = np.asarray(im.convert("RGB")).reshape(-1, 3).astype(int)
    hit = np.array([int(HIT_COLOR[i:i + 2], 16) for i in (1, 3, 5)])
    assert (np.abs(frame - hit).max(axis=1) < 60).sum() > 5
    code, _, err = _run(["simulate", "backtracker", "3x3", "--gif", str(tmp_path / "x.png")],
                        capsys)
    assert code == 2 and "--gif" in err


# ---------------------------------------------------------------- metres, ROS frame
def test_metre_axes_ticks_are_world_metres():
    g = OccupancyGrid(np.zeros((20, 40), bool), resolution=0.05, origin=(-1.0, -0.5, 0.0))
    fig = render(g, metres=True, cell_px=10)
    ax = fig.axes[0]
    xt = [float(t.get_text().replace("\u2212", "-")) for t in ax.get_xticklabels()]
    pos = ax.get_xticks()
    # a tick label v sits where the world x = v: plot x = (v - ox)/res - 0.5
    assert np.allclose(pos, (np.array(xt) + 1.0) / 0.05 - 0.5)
    assert 0.0 in xt and ax.get_xlabel() == "x [m]" and ax.get_ylabel() == "y [m]"
    w, h = (fig.get_size_inches() * fig.dpi).round().astype(int)
    assert (w, h) == (400 + 64, 200 + 44)
    with pytest.raises(ParameterError, match="metres"):
        render(Maze.empty(2, 2), metres=True)


def test_ros_map_renders_in_metres_by_default(tmp_path, capsys):
    auto, cells = tmp_path / "auto.png", tmp_path / "cells.png"
    assert main(["render", "pkg:ros/room.yaml", "-o", str(auto), "--cell-px", "20"]) == 0
    assert main(["render", "pkg:ros/room.yaml", "-o", str(cells), "--cell-px", "20",
                 "--cells"]) == 0
    a, c = Image.open(auto).size, Image.open(cells).size
    assert (a[0] - c[0], a[1] - c[1]) == (64, 44)
    # the map frame's x axis (red) is drawn at the world origin
    assert _rgb_count(auto, "#ff0000", tol=30) > 20 and _rgb_count(cells, "#ff0000") == 0
    m = tmp_path / "m.json"
    main(["generate", "backtracker", "3x3", "--seed", "1", "-o", str(m)])
    code, _, err = _run(["render", str(m), "-o", str(tmp_path / "x.png"), "--metres"], capsys)
    assert code == 2 and "--metres" in err


def test_plan_metres_option(tmp_path):
    a, b = tmp_path / "a.png", tmp_path / "b.png"
    argv = ["plan", "pkg:ros/room.yaml", "--start", "-0.15,-0.1", "--goal", "0.15,0.1",
            "--footprint", "disc:0.02"]
    assert main([*argv, "-o", str(a), "--metres"]) == 0
    assert main([*argv, "-o", str(b)]) == 0
    (wa, ha), (wb, hb) = Image.open(a).size, Image.open(b).size
    assert (wa - wb, ha - hb) == (64, 44)
