"""ROS map YAML as real tools write it, 16-bit images with maxval honoured,
map_server's modes, and ROS int8 occupancy data (issue 10 §4)."""

import io
import shutil
from pathlib import Path

import numpy as np
import pytest
import yaml
from PIL import Image

from robomaze.errors import MazeFormatError, ParameterError
from robomaze.grid import OccupancyGrid
from robomaze.io import from_ros_data, read_grid, read_rosmap, to_ros_data, write_rosmap

DATA = Path(__file__).resolve().parents[1] / "data"
CORPUS = Path(__file__).resolve().parent / "corpus"

ROOM = {"image": "room.pgm", "resolution": 0.05, "origin": [-0.3, -0.25, 0.0], "negate": 0,
        "occupied_thresh": 0.65, "free_thresh": 0.25}


@pytest.fixture()
def room(tmp_path):
    shutil.copy(DATA / "ros" / "room.pgm", tmp_path / "room.pgm")
    return tmp_path


def _expected_room():
    pix = np.asarray(Image.open(DATA / "ros" / "room.pgm"))
    return pix == 0       # map_server: 0 -> occupied; 205 and 254 -> free at 0.25


def test_yaml_written_by_pyyaml_safe_dump_loads(room):
    # safe_dump writes origin as a block list, one item per line
    text = yaml.safe_dump(ROOM)
    assert "origin:\n- -0.3\n" in text
    (room / "m.yaml").write_text(text)
    grid, unknown = read_rosmap(room / "m.yaml")
    assert np.array_equal(grid.occupied, _expected_room()) and not unknown.any()
    assert grid.origin == (-0.3, -0.25, 0.0) and grid.resolution == 0.05


@pytest.mark.parametrize("text", [
    # flow mapping on one line
    "{image: room.pgm, resolution: 0.05, origin: [-0.3, -0.25, 0.0], negate: 0, "
    "occupied_thresh: 0.65, free_thresh: 0.25}\n",
    # multi-line flow list, extra nested keys, comments, document markers
    "%YAML 1.1\n---\nimage: room.pgm   # the picture\nresolution: 0.05\norigin: [-0.3,\n"
    "  -0.25,\n  0.0]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.25\nmode: trinary\n"
    "extra:\n  nested:\n    deeper: [1, {a: 2}]\n  list:\n    - x\n    - y\n...\n",
    # indented block list, quoted image, exponent written the C++ way
    "image: \"room.pgm\"\nresolution: 5e-2\norigin:\n  - -0.3\n  - -0.25\n  - 0\n"
    "negate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.25\n",
])
def test_hand_written_yaml_variants_load(room, text):
    (room / "m.yaml").write_text(text)
    grid, _ = read_rosmap(room / "m.yaml")
    assert np.array_equal(grid.occupied, _expected_room())
    assert grid.origin == (-0.3, -0.25, 0.0) and grid.resolution == 0.05


def test_corpus_file_with_an_extra_nested_key_loads():
    grid, _ = read_rosmap(CORPUS / "ros_nested.yaml")
    assert grid.shape == np.asarray(Image.open(CORPUS / "good.pgm")).shape


@pytest.mark.parametrize("text, line, column, words", [
    ("image: room.pgm\nresolution: 0.05\norigin:\n- 1\n- 2\nnegate: 0\noccupied_thresh: 0.65\n"
     "free_thresh: 0.25\n", 4, 1, "[x, y, yaw]"),
    ("image: room.pgm\nresolution: [1]\norigin: [0, 0, 0]\nnegate: 0\noccupied_thresh: 0.65\n"
     "free_thresh: 0.25\n", 2, 13, "resolution"),
    ("image: room.pgm\nresolution: 0.05\norigin: [0, 0, 0]\nnegate: 0\n"
     "occupied_thresh: 0.65\n", 6, 1, "'free_thresh'"),
    ("image: room.pgm\nresolution: 0.05\norigin: [0, 0, .inf]\nnegate: 0\n"
     "occupied_thresh: 0.65\nfree_thresh: 0.25\n", 3, 9, "finite"),
    ("image: room.pgm\nresolution: 0.05\norigin: [0, 0\n", 4, 1, "invalid YAML"),
    ("- image\n- room.pgm\n", 1, 1, "not a mapping"),
    ("image: {a: 1}\nresolution: 0.05\norigin: [0, 0, 0]\nnegate: 0\noccupied_thresh: 0.65\n"
     "free_thresh: 0.25\n", 1, 8, "file name"),
    ("image: room.pgm\nresolution: 0.05\norigin: [0, 0, 0]\nnegate: 2\noccupied_thresh: 0.65\n"
     "free_thresh: 0.25\nmode: scale\n", 4, 9, "0 or 1"),
])
def test_bad_keys_name_file_line_and_column(room, text, line, column, words):
    (room / "m.yaml").write_text(text)
    with pytest.raises(MazeFormatError) as info:
        read_rosmap(room / "m.yaml")
    assert (info.value.line, info.value.column) == (line, column)
    assert words in str(info.value) and str(info.value).startswith(str(room / "m.yaml"))


def _yaml(d, name, **over):
    keys = dict(ROOM, image=name, origin=[0.0, 0.0, 0.0])
    keys.update(over)
    return yaml.safe_dump(keys)


def test_16_bit_pgm_honours_maxval(tmp_path):
    # 40000/65535: p = 1 - 0.61 = 0.39, between free 0.25 and occupied 0.65:
    # unknown in map_server; divided by the image's own maximum 50000 instead
    # it would read as 0.8 bright, free. 50000/65535: p = 0.24, free.
    pix = np.array([[0, 40000, 50000]], ">u2")
    (tmp_path / "m.pgm").write_bytes(b"P5\n3 1\n65535\n" + pix.tobytes())
    (tmp_path / "m.yaml").write_text(_yaml({}, "m.pgm"))
    grid, unknown = read_rosmap(tmp_path / "m.yaml")
    assert unknown.tolist() == [[False, True, False]]
    assert grid.occupied.tolist() == [[True, True, False]]


def test_pgm_maxval_other_than_255_and_16_bit_png(tmp_path):
    # P2 with maxval 1000: 700/1000 -> p = 0.3 -> unknown; 800 -> p = 0.2 free;
    # 0 -> occupied (by the image maximum 800, 700 would be p = 0.125, free)
    (tmp_path / "a.pgm").write_text("P2\n3 1\n1000\n0 700 800\n")
    (tmp_path / "a.yaml").write_text(_yaml({}, "a.pgm"))
    _, unknown = read_rosmap(tmp_path / "a.yaml")
    assert unknown.tolist() == [[False, True, False]]
    Image.fromarray(np.array([[0, 40000, 50000]], np.uint16)).save(tmp_path / "b.png")
    (tmp_path / "b.yaml").write_text(_yaml({}, "b.png"))
    grid, unknown = read_rosmap(tmp_path / "b.yaml")
    assert unknown.tolist() == [[False, True, False]]
    assert grid.occupied.tolist() == [[True, True, False]]


def test_modes_as_map_server_documents(tmp_path):
    # grey levels 0, 60, 128, 200, 250 (+ 255 - v for p): p = 1, .765, .498, .216, .020
    (tmp_path / "m.pgm").write_bytes(b"P5\n5 1\n255\n" + bytes([0, 60, 128, 200, 250]))
    (tmp_path / "t.yaml").write_text(_yaml({}, "m.pgm", mode="trinary"))
    occ, unk = read_rosmap(tmp_path / "t.yaml")
    assert occ.occupied.tolist() == [[True, True, True, False, False]]
    assert unk.tolist() == [[False, False, True, False, False]]
    # raw: the value is the occupancy in percent against the thresholds x 100
    # (50 lies between 25 and 65: unknown); above 100 is unknown
    (tmp_path / "m.pgm").write_bytes(b"P5\n5 1\n255\n" + bytes([0, 50, 70, 100, 101]))
    (tmp_path / "r.yaml").write_text(_yaml({}, "m.pgm", mode="raw"))
    occ, unk = read_rosmap(tmp_path / "r.yaml")
    assert (occ.occupied & ~unk).tolist() == [[False, False, True, True, False]]
    assert unk.tolist() == [[False, True, False, False, True]]


def test_16_bit_grey_read_grid_default_is_occupied(tmp_path):
    pix = np.array([[40000]], ">u2")
    (tmp_path / "m.pgm").write_bytes(b"P5\n1 1\n65535\n" + pix.tobytes())
    (tmp_path / "m.yaml").write_text(_yaml({}, "m.pgm"))
    assert read_grid(tmp_path / "m.yaml").occupied.tolist() == [[True]]
    assert read_grid(tmp_path / "m.yaml", unknown="free").occupied.tolist() == [[False]]


# ------------------------------------------------------------ ROS int8 data
def test_from_ros_data_rule_and_orientation():
    # a 3x2 message, bottom row first: row y=0 is [0, 100, -1], row y=1 [64, 65, 99]
    data = [0, 100, -1, 64, 65, 99]
    g = from_ros_data(data, width=3, height=2, resolution=0.1, origin=(1.0, 2.0, 0.0))
    assert g.occupied.tolist() == [[False, True, True], [False, True, True]]
    assert g.resolution == 0.1 and g.origin == (1.0, 2.0, 0.0)
    free = from_ros_data(data, 3, 2, unknown="free")
    assert free.occupied.tolist() == [[False, True, True], [False, True, False]]
    strict = from_ros_data(data, 3, 2, occupied=100)
    assert strict.occupied.tolist() == [[False, False, False], [False, True, True]]
    # cell (x, y) = (1, 0) of the message is the bottom row of the grid
    assert g.cell_to_world((1, 1)) == pytest.approx((1.15, 2.05))


def test_ros_data_round_trip_with_unknown():
    rng = np.random.default_rng(3)
    occ = rng.random((5, 7)) < 0.4
    unk = (rng.random((5, 7)) < 0.2) & ~occ
    data = to_ros_data(OccupancyGrid(occ), unknown=unk)
    assert data.dtype == np.int8 and set(np.unique(data)) <= {-1, 0, 100}
    # the first value of the message is the grid's bottom-left cell
    assert data[0] == (-1 if unk[4, 0] else 100 * occ[4, 0])
    back = from_ros_data(data, 7, 5, unknown="free")
    assert np.array_equal(back.occupied, occ)
    assert np.array_equal(from_ros_data(data, 7, 5).occupied, occ | unk)


@pytest.mark.parametrize("kwargs, words", [
    (dict(data=[0, 101], width=2, height=1), "data[1] is 101"),
    (dict(data=[0, -2], width=2, height=1), "data[1] is -2"),
    (dict(data=[0, 0, 0], width=2, height=1), "width*height = 2"),
    (dict(data=[0.5, 0], width=2, height=1), "integers"),
    (dict(data=[0, 0], width=2, height=1, unknown="maybe"), "unknown"),
    (dict(data=[0, 0], width=2, height=1, occupied=0), "occupied"),
])
def test_from_ros_data_rejects_bad_input(kwargs, words):
    with pytest.raises(ParameterError) as info:
        from_ros_data(**kwargs)
    assert words in str(info.value)


def test_written_map_reads_back_with_pyyaml_too(tmp_path):
    g = OccupancyGrid(np.eye(3, dtype=bool), resolution=0.05, origin=(-1.5, 1e-06, 0.0))
    write_rosmap(g, tmp_path / "m.yaml")
    d = yaml.safe_load((tmp_path / "m.yaml").read_text())
    assert d["image"] == "m.pgm" and d["negate"] == 0
    assert read_grid(tmp_path / "m.yaml") == g
    pix = np.asarray(Image.open(io.BytesIO((tmp_path / "m.pgm").read_bytes())))
    assert pix.tolist() == [[0, 254, 254], [254, 0, 254], [254, 254, 0]]


def test_flow_mapping_yaml_is_sniffed_as_a_ros_map_not_json(room):
    from robomaze.cli._world import load
    (room / "m.yaml").write_text("{image: room.pgm, resolution: 0.05, origin: [-0.3, -0.25, 0.0],"
                                 " negate: 0, occupied_thresh: 0.65, free_thresh: 0.25}\n")
    grid = load(room / "m.yaml")
    assert isinstance(grid, OccupancyGrid) and np.array_equal(grid.occupied, _expected_room())
