"""Every reader rejects malformed files with a MazeFormatError naming the
file, the line and the column, and saying what was expected."""

from functools import partial
from pathlib import Path

import pytest

from robomaze import io as rio
from robomaze.errors import MazeFormatError

CORPUS = Path(__file__).resolve().parent / "corpus"

# file -> (reader, file named in the error, line, column, words in the message)
CASES = {
    "mm_ragged.maze": (rio.read_micromouse, None, 4, 16, "ragged"),
    "mm_truncated.maze": (rio.read_micromouse, None, 8, 1, "2*H+1"),
    "mm_bad_post.maze": (rio.read_micromouse, None, 5, 9, "post"),
    "mm_strict_char.maze": (partial(rio.read_micromouse, strict=True), None, 6, 5, "undefined"),
    "mm_empty.maze": (rio.read_micromouse, None, 1, 1, "empty"),
    "mm_wrong_format.maze": (rio.read_micromouse, None, 1, 1, "expected a post"),
    "mm_unknown.maze": (partial(rio.read_micromouse, unknown="error"), None, 3, 15, "unknown"),
    "mm_first_line_width.maze": (rio.read_micromouse, None, 1, 15, "4*W+1"),
    "num_missing_cell.num": (rio.read_num, None, 5, 1, "missing"),
    "num_bad_flag.num": (rio.read_num, None, 3, 7, "0 or 1"),
    "num_fields.num": (rio.read_num, None, 4, 1, "expected 6"),
    "num_duplicate.num": (rio.read_num, None, 5, 1, "twice"),
    "num_disagree.num": (partial(rio.read_num, strict=True), None, 1, 1, "disagrees"),
    "num_not_int.num": (rio.read_num, None, 2, 3, "integer"),
    "map_missing_height.map": (rio.read_movingai, None, 3, 1, "'height'"),
    "map_ragged.map": (rio.read_movingai, None, 6, 4, "ragged"),
    "map_truncated.map": (rio.read_movingai, None, 7, 1, "truncated"),
    "map_too_many_rows.map": (rio.read_movingai, None, 8, 1, "size mismatch"),
    "map_bad_char.map": (partial(rio.read_movingai, strict=True), None, 6, 3, "terrain"),
    "map_bad_height.map": (rio.read_movingai, None, 2, 8, "positive integer"),
    "map_no_map_line.map": (rio.read_movingai, None, 3, 1, "'map'"),
    "map_wrong_format.map": (rio.read_movingai, None, 1, 1, "MovingAI"),
    "scen_no_version.scen": (rio.read_scen, None, 1, 1, "version 1"),
    "scen_fields.scen": (rio.read_scen, None, 2, 1, "expected 9"),
    "scen_out_of_range.scen": (rio.read_scen, None, 3, 1, "outside"),
    "scen_bad_optimal.scen": (rio.read_scen, None, 2, 21, "number"),
    "ros_missing_key.yaml": (rio.read_rosmap, None, 6, 1, "'free_thresh'"),
    "ros_bad_origin.yaml": (rio.read_rosmap, None, 3, 9, "[x, y, yaw]"),
    "ros_missing_image.yaml": (rio.read_rosmap, None, 1, 8, "does not exist"),
    "ros_truncated_pgm.yaml": (rio.read_rosmap, "truncated.pgm", 1, 1, "truncated"),
    "ros_bad_negate.yaml": (rio.read_rosmap, None, 4, 9, "0 or 1"),
    "ros_dup_key.yaml": (rio.read_rosmap, None, 7, 1, "duplicate"),
    "ros_bad_mode.yaml": (rio.read_rosmap, None, 7, 7, "trinary"),
    "ros_bad_resolution.yaml": (rio.read_rosmap, None, 2, 13, "number"),
    "ros_thresholds.yaml": (rio.read_rosmap, None, 6, 14, "free_thresh <= occupied_thresh"),
    "ros_bad_pgm.yaml": (rio.read_rosmap, "bad_header.pgm", 1, 1, "header"),
    "json_syntax.json": (rio.read_maze_json, None, 3, 12, "invalid JSON"),
    "json_size_mismatch.json": (rio.read_maze_json, None, 6, 2, "size mismatch"),
    "json_wrong_format.json": (rio.read_maze_json, None, 2, 2, "robomaze.maze"),
    "json_bad_row.json": (rio.read_maze_json, None, 9, 2, "0/1"),
    "npy_3d.npy": (rio.read_npy, None, 1, 1, "2-D"),
    "npy_truncated.npy": (rio.read_npy, None, 1, 1, "truncated"),
    "npy_values.npy": (rio.read_npy, None, 1, 1, "0/1"),
    "not_a_maze.txt": (rio.read_maze, None, 1, 1, "unrecognised"),
    "binary.bin": (rio.read_grid, None, 1, 1, "unrecognised"),
    # the generic front-ends report the specific reader's error
    "mm_ragged.maze#read_maze": (rio.read_maze, "mm_ragged.maze", 4, 16, "ragged"),
    "map_ragged.map#read_grid": (rio.read_grid, "map_ragged.map", 6, 4, "ragged"),
    "num_fields.num#read_maze": (rio.read_maze, "num_fields.num", 4, 1, "expected 6"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_malformed_file_is_rejected_with_location(case):
    reader, named, line, column, words = CASES[case]
    path = CORPUS / case.split("#")[0]
    with pytest.raises(MazeFormatError) as info:
        reader(path)
    err = info.value
    expected_file = CORPUS / named if named else path
    assert Path(err.path).name == expected_file.name
    assert (err.line, err.column) == (line, column)
    msg = str(err)
    assert msg.startswith(f"{err.path}:{line}:{column}: ")
    assert words in msg
    assert "expected" in msg or "does not exist" in msg or "outside" in msg \
        or "twice" in msg or "duplicate" in msg


def test_every_corpus_file_is_exercised():
    # ros_nested.yaml is valid (extra nested keys are allowed): test_io_rosmap_yaml.py
    files = {p.name for p in CORPUS.iterdir()} - {"good.pgm", "truncated.pgm", "bad_header.pgm",
                                                  "ros_nested.yaml"}
    used = {c.split("#")[0] for c in CASES}
    assert files == used


@pytest.mark.parametrize("name, reader", [
    ("mm_strict_char.maze", rio.read_micromouse),
    ("num_disagree.num", rio.read_num),
    ("map_bad_char.map", rio.read_movingai),
])
def test_lenient_mode_accepts_what_strict_mode_rejects(name, reader):
    # Without strict=True an undefined character at a wall position is a
    # wall, a one-sided wall is a wall, unknown terrain is blocked.
    out = reader(CORPUS / name)
    assert out is not None


def test_lenient_readings_are_walls():
    m = rio.read_micromouse(CORPUS / "mm_strict_char.maze")
    # '#' replaced the west boundary '|' of text line 6 (robomaze row 2).
    assert m.wall((2, 0), "W")
    m = rio.read_num(CORPUS / "num_disagree.num")
    # (0, 0) says no east wall, (1, 0) says a west wall: the wall wins.
    assert m.wall((1, 0), "E")
    g = rio.read_movingai(CORPUS / "map_bad_char.map")
    assert bool(g.occupied[1, 2]) and not bool(g.occupied[1, 1])
