"""MovingAI maps and scenarios, ROS map_server maps, PNG/PGM images, .npy."""

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robomaze.grid import OccupancyGrid
from robomaze.io import (read_grid, read_movingai, read_rosmap, read_scen, write_grid,
                         write_rosmap)
from robomaze.io.movingai import format_movingai, parse_movingai
from robomaze.bench.movingai import run_scen_file, run_scenarios
from robomaze.io.rosmap import interpret_pixels, parse_map_yaml

DATA = Path(__file__).resolve().parents[1] / "data"


def parse_pgm(data: bytes) -> np.ndarray:
    """Pixels as Pillow decodes them (independent of robomaze's reader)."""
    import io

    from PIL import Image
    return np.asarray(Image.open(io.BytesIO(data)))


def _need(path):
    if not path.exists():
        pytest.fail(f"sample data {path} not present")
    return path


# ----------------------------------------------------------------- MovingAI
def test_movingai_sample_map_round_trips_exactly():
    f = _need(DATA / "movingai" / "maze512-1-0.map")
    g = read_movingai(f)
    assert g.shape == (512, 512)
    text = f.read_text()
    lines = text.splitlines()
    # (x, y) = (0, 0) is the upper-left character = grid row 0, col 0.
    assert g.occupied[0, 0] == (lines[4][0] != ".")
    assert g.occupied[1, 1] == (lines[5][1] not in ".G")
    assert format_movingai(g) == text


def test_movingai_terrain_classes():
    g = parse_movingai("type octile\nheight 1\nwidth 7\nmap\n.G@OTSW\n")
    assert g.occupied.tolist() == [[False, False, True, True, True, True, True]]


def test_scenario_sample():
    probs = read_scen(_need(DATA / "movingai" / "maze512-1-0.map.scen"))
    assert len(probs) == 12120
    p = probs[0]    # "0 maze512-1-0.map 512 512 477 130 476 131 2.00000000"
    assert (p.bucket, p.width, p.height) == (0, 512, 512)
    assert p.start == (130, 477) and p.goal == (131, 476) and p.optimal == 2.0


def test_movingai_runner_agrees_on_300_problems():
    rep = run_scen_file(_need(DATA / "movingai" / "maze512-1-0.map.scen"), limit=300)
    assert rep.n == 300 and rep.n_agree == 300
    assert np.allclose(rep.lengths, rep.optimal, rtol=1e-6)


def test_movingai_runner_octile_and_corner_cutting(tmp_path):
    from robomaze.io.movingai import ScenProblem
    # 3x3 open room: corner to corner is 2 diagonals. With the centre
    # blocked, corner cutting is forbidden, so the path goes round: 4 moves.
    open_room = OccupancyGrid(np.zeros((3, 3), bool))
    blocked = OccupancyGrid(np.array([[0, 0, 0], [0, 1, 0], [0, 0, 0]], bool))
    prob = ScenProblem(0, "m.map", 3, 3, (0, 0), (2, 2), 2 * math.sqrt(2))
    assert run_scenarios(open_room, [prob]).n_agree == 1
    rep = run_scenarios(blocked, [prob])
    assert rep.n_agree == 0 and rep.lengths[0] == pytest.approx(4.0)
    assert rep.worst() == [(0, pytest.approx(4.0), pytest.approx(2 * math.sqrt(2)))]


# ----------------------------------------------------------------- ROS maps
def test_room_map_follows_map_server_rules():
    f = _need(DATA / "ros" / "room.yaml")
    grid, unknown = read_rosmap(f)
    raw = parse_pgm((DATA / "ros" / "room.pgm").read_bytes())
    assert grid.shape == raw.shape == (10, 12)
    assert grid.resolution == 0.05 and grid.origin == (-0.3, -0.25, 0.0)
    # p = (255 - v) / 255: 0 -> 1.0 occupied; 254 -> 0.0039 free;
    # 205 -> 50/255 = 0.196 < free_thresh 0.25 -> free (map_server's rule).
    assert np.array_equal(grid.occupied, raw == 0)
    assert not unknown.any()
    assert (raw == 205).sum() == 4


def test_negated_room_map():
    f = _need(DATA / "ros" / "room-negate.yaml")
    grid, unknown = read_rosmap(f)
    raw = parse_pgm((DATA / "ros" / "room-negate.pgm").read_bytes())
    # negate: p = v / 255: 255 -> occupied, 1 -> free,
    # 50 -> 0.196078 > free_thresh 0.196 and < 0.65 -> unknown.
    assert np.array_equal(unknown, raw == 50) and unknown.sum() == 4
    assert np.array_equal(grid.occupied, (raw == 255) | (raw == 50))
    plain, _ = read_rosmap(DATA / "ros" / "room.yaml")
    # The two samples draw the same walls.
    assert np.array_equal(grid.occupied & ~unknown, plain.occupied)


def test_orientation_top_row_is_north_and_origin_is_lower_left(tmp_path):
    occ = np.zeros((3, 4), bool)
    occ[0, 0] = True                         # north-west corner
    g = OccupancyGrid(occ, resolution=0.5, origin=(10.0, 20.0, 0.0))
    write_rosmap(g, tmp_path / "m.yaml")
    raw = parse_pgm((tmp_path / "m.pgm").read_bytes())
    assert raw[0, 0] == 0 and raw[2, 3] == 254   # image top-left pixel is occupied
    back, _ = read_rosmap(tmp_path / "m.yaml")
    # The lower-left pixel (row 2, col 0) has its corner at the origin.
    assert back.cell_to_world((2, 0)) == (10.25, 20.25)
    assert back.cell_to_world((0, 0)) == (10.25, 21.25)


def test_saved_yaml_is_what_map_saver_writes(tmp_path):
    g = OccupancyGrid(np.eye(3, dtype=bool), resolution=0.1 + 0.2, origin=(-1.5, 0.1, 0.0))
    write_rosmap(g, tmp_path / "m.yaml")
    text = (tmp_path / "m.yaml").read_text()
    assert text == ("image: m.pgm\nmode: trinary\nresolution: 0.30000000000000004\n"
                    "origin: [-1.5, 0.1, 0.0]\nnegate: 0\noccupied_thresh: 0.65\n"
                    "free_thresh: 0.25\n")
    raw = parse_pgm((tmp_path / "m.pgm").read_bytes())
    assert set(np.unique(raw)) == {0, 254}
    keys = parse_map_yaml(text)
    assert keys["resolution"][0] == 0.1 + 0.2      # strtod/float() read the exact double


@settings(deadline=None, max_examples=25)
@given(st.integers(1, 9), st.integers(1, 9), st.integers(0, 2 ** 32 - 1),
       st.floats(0.001, 10, allow_nan=False), st.floats(-1e3, 1e3), st.floats(-1e3, 1e3))
def test_grid_ros_grid_round_trip(tmp_path_factory, rows, cols, seed, res, ox, oy):
    rng = np.random.default_rng(seed)
    g = OccupancyGrid(rng.random((rows, cols)) < 0.4, resolution=res, origin=(ox, oy, 0.0))
    d = tmp_path_factory.mktemp("ros")
    write_grid(g, d / "m.yaml")
    back = read_grid(d / "m.yaml")
    assert back == g
    assert back.resolution == g.resolution and back.origin == g.origin


def test_unknown_cells_round_trip_and_png(tmp_path):
    rng = np.random.default_rng(1)
    occ = rng.random((6, 7)) < 0.3
    unk = (rng.random((6, 7)) < 0.2) & ~occ
    g = OccupancyGrid(occ, resolution=0.05)
    for image in ("m.pgm", "m.png"):
        write_rosmap(g, tmp_path / "m.yaml", image=tmp_path / image, unknown=unk)
        back, back_unk = read_rosmap(tmp_path / "m.yaml")
        assert np.array_equal(back_unk, unk)
        assert np.array_equal(back.occupied, occ | unk)
        free_read = read_grid(tmp_path / "m.yaml", unknown="free")
        assert np.array_equal(free_read.occupied, occ)
    # With unknown cells the writer uses ROS 1 map_saver's free_thresh.
    assert "free_thresh: 0.196\n" in (tmp_path / "m.yaml").read_text()


def test_interpret_pixels_modes():
    v = np.array([[0, 50, 100, 200, 254, 255]], np.uint8) / 255
    occ, unk = interpret_pixels(v, negate=False, occupied_thresh=0.65, free_thresh=0.25)
    # p = (255-v)/255 = 1, .80, .61, .216, .004, 0
    assert occ.tolist() == [[True, True, False, False, False, False]]
    assert unk.tolist() == [[False, False, True, False, False, False]]
    occ, unk = interpret_pixels(v, negate=True, occupied_thresh=0.65, free_thresh=0.25)
    # p = v/255 = 0, .196, .392, .784, .996, 1
    assert occ.tolist() == [[False, False, False, True, True, True]]
    assert unk.tolist() == [[False, False, True, False, False, False]]
    occ, unk = interpret_pixels(v, negate=False, occupied_thresh=0.65, free_thresh=0.25,
                                mode="raw")
    # raw: the value is the occupancy 0..100; > 100 unknown
    assert occ.tolist() == [[False, False, True, False, False, False]]
    assert unk.tolist() == [[False, True, False, True, True, True]]


def test_yaml_subset_parser_details():
    d = parse_map_yaml("# header\n---\nimage: 'my map.pgm'  # comment\n"
                       "origin: [ -1 , 2.5e-1, 0 ]\nnegate: false\nmode: trinary\n")
    assert d["image"][0] == "my map.pgm"
    assert d["origin"][0] == [-1, 0.25, 0]
    assert d["negate"][0] is False
    assert d["mode"][1:] == (6, 7)


# ------------------------------------------------------------ images, npy
@pytest.mark.parametrize("name", ["g.png", "g.pgm", "g.npy", "g.map"])
def test_plain_grid_round_trips(tmp_path, name):
    rng = np.random.default_rng(7)
    g = OccupancyGrid(rng.random((9, 13)) < 0.5)
    write_grid(g, tmp_path / name)
    assert read_grid(tmp_path / name) == g


def test_png_dark_is_blocked_and_colour_is_averaged(tmp_path):
    from PIL import Image
    rgb = np.zeros((2, 2, 3), np.uint8)
    rgb[0, 0] = (255, 255, 255)
    rgb[0, 1] = (200, 100, 0)      # mean 100 -> dark -> blocked
    rgb[1, 0] = (250, 200, 0)      # mean 150 -> light -> free
    Image.fromarray(rgb, "RGB").save(tmp_path / "c.png")
    g = read_grid(tmp_path / "c.png")
    assert g.occupied.tolist() == [[False, True], [False, True]]


def test_read_grid_sniffs_content_not_extension(tmp_path):
    g = OccupancyGrid(np.array([[0, 1], [1, 0]], bool))
    write_grid(g, tmp_path / "a.bin", format="movingai")
    write_grid(g, tmp_path / "b.bin", format="npy")
    write_grid(g, tmp_path / "c.bin", format="image")
    for n in ("a.bin", "b.bin", "c.bin"):
        assert read_grid(tmp_path / n) == g


def test_widened_maze_exports_with_scale_and_orientation(tmp_path):
    from robomaze.grid import widen
    from robomaze.maze import Maze
    # A 2x3 maze whose only interior wall is east of the north-west cell.
    east = np.zeros((2, 3), bool)
    east[0, 0] = True
    m = Maze(east, np.zeros((2, 3), bool), start=(1, 0), goals=[(0, 2)])
    g = widen(m, corridor=3, wall=1, resolution=0.05, origin=(-1.0, 2.0, 0.0))
    write_rosmap(g, tmp_path / "maze.yaml")
    back, unknown = read_rosmap(tmp_path / "maze.yaml")
    assert back == g and not unknown.any()
    raw = parse_pgm((tmp_path / "maze.pgm").read_bytes())
    # 2x3 cells of 3 px plus 1 px walls: (2*4+1) x (3*4+1) pixels at 5 cm.
    assert raw.shape == (9, 13)
    assert back.resolution * raw.shape[1] == pytest.approx(0.65)
    # The wall east of the NORTH-west cell is the image column 4, rows 1-3
    # (top of the image), not rows 5-7.
    assert (raw[1:4, 4] == 0).all() and (raw[5:8, 4] == 254).all()
    # World positions survive: the start block centre is the same point.
    r, c = g.maze_centre(m.start)
    assert back.cell_to_world((r, c)) == g.cell_to_world((r, c))
    assert back.cell_to_world((r, c))[1] < back.cell_to_world(g.maze_centre((0, 2)))[1]


def _scipy_octile_lengths(free, pairs):
    """Reference: scipy Dijkstra on the 8-connected no-corner-cutting graph."""
    import scipy.sparse as sp
    from scipy.sparse import csgraph
    rows, cols = free.shape
    a, b, w = [], [], []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                rr, cc = r + dr, c + dc
                if not (0 <= rr < rows and 0 <= cc < cols) or not (free[r, c] and free[rr, cc]):
                    continue
                if dr and dc and not (free[r, cc] and free[rr, c]):
                    continue
                a.append(r * cols + c)
                b.append(rr * cols + cc)
                w.append(math.sqrt(2) if dr and dc else 1.0)
    n = rows * cols
    g = sp.csr_matrix((w + w, (a + b, b + a)), shape=(n, n))
    d = csgraph.dijkstra(g, directed=False)
    return [d[s[0] * cols + s[1], t[0] * cols + t[1]] for s, t in pairs]


@settings(deadline=None, max_examples=20)
@given(st.integers(2, 12), st.integers(2, 12), st.integers(0, 2 ** 32 - 1))
def test_batch_and_astar_match_scipy_on_random_grids(rows, cols, seed):
    from robomaze.io.movingai import ScenProblem
    rng = np.random.default_rng(seed)
    occ = rng.random((rows, cols)) < 0.3
    free_cells = np.argwhere(~occ)
    if len(free_cells) < 2:
        return
    grid = OccupancyGrid(occ)
    pairs = [(tuple(free_cells[i]), tuple(free_cells[j]))
             for i, j in rng.integers(0, len(free_cells), size=(8, 2))]
    ref = _scipy_octile_lengths(~occ, pairs)
    probs = [ScenProblem(0, "m", cols, rows, tuple(map(int, s)), tuple(map(int, t)),
                         float(d) if np.isfinite(d) else -1.0) for (s, t), d in zip(pairs, ref)]
    for method in ("batch", "astar"):
        rep = run_scenarios(grid, probs, method=method)
        for length, d in zip(rep.lengths, ref):
            if np.isfinite(d):
                assert length == pytest.approx(d, rel=1e-9)
            else:
                assert np.isnan(length)


def test_batch_runner_on_the_sample():
    rep = run_scen_file(_need(DATA / "movingai" / "maze512-1-0.map.scen"), every=120,
                        method="batch")
    assert rep.n == 101 and rep.n_agree == 101
