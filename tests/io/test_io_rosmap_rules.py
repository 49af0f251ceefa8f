"""ROS map pixels read by Nav2's and ROS 1's exact rules, checked pixel by
pixel against independent ports of map_io.cpp and image_loader.cpp
(tests/io/ros_rules_reference.py) on generated maps of every image kind,
mode and negate value."""

import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from robomaze.errors import MazeFormatError
from robomaze.io import read_grid, read_rosmap
from robomaze.io.image import decode_raster, read_raster
from robomaze.io.rosmap import map_values

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ros_rules_reference as ref  # noqa: E402

CASES = list(ref.cases())


def test_every_kind_mode_and_negate_is_generated():
    assert len(CASES) == len(ref.KINDS) * 3 * 2 * len(ref.THRESHOLDS) == 180
    assert {(k, m, n) for k, m, n, *_ in CASES} == {
        (k, m, n) for k in ref.KINDS for m in ref.MODES for n in (0, 1)}


def _reference(rules, px, kind, maxval, has_alpha, mode, negate, occ_t, free_t):
    if rules == "nav2":
        return [[ref.nav2_value(p, maxval, has_alpha, mode, negate, occ_t, free_t)
                 for p in row] for row in px]
    return [[ref.ros1_value(p, kind, maxval, has_alpha, mode, negate, occ_t, free_t)
             for p in row] for row in px]


@pytest.mark.parametrize("rules", ["nav2", "ros1"])
@pytest.mark.parametrize("kind, mode, negate, occ_t, free_t, seed", CASES,
                         ids=[f"{c[0]}-{c[1]}-n{c[2]}-{c[4]}" for c in CASES])
def test_generated_map_matches_the_reference_port(tmp_path, rules, kind, mode, negate,
                                                  occ_t, free_t, seed):
    yaml, px, maxval, has_alpha = ref.write_map(tmp_path, kind, mode, negate, occ_t, free_t,
                                                seed)
    if rules == "ros1" and maxval > 255 and not kind.startswith("png"):
        with pytest.raises(MazeFormatError, match=f"maxval {maxval}; ROS 1 map_server"):
            read_rosmap(yaml, rules=rules)
        return
    want = _reference(rules, px, kind, maxval, has_alpha, mode, negate, occ_t, free_t)
    image = yaml.with_suffix(".png" if kind.startswith("png") else ".pgm")
    got = map_values(read_raster(image), negate=negate, occupied_thresh=occ_t,
                     free_thresh=free_t, mode=mode, rules=rules)
    assert got.tolist() == want
    grid, unknown = read_rosmap(yaml, rules=rules)
    cls = [[ref.classify(v, mode, occ_t, free_t) for v in row] for row in want]
    assert unknown.tolist() == [[c == "unknown" for c in row] for row in cls]
    assert (grid.occupied & ~unknown).tolist() == [[c == "occupied" for c in row]
                                                   for row in cls]
    assert read_grid(yaml, unknown="free", rules=rules).occupied.tolist() == [
        [c == "occupied" for c in row] for row in cls]


def test_the_issue_pixels(tmp_path):
    def one(kind, px, mode="trinary", negate=0, occ_t=0.65, free_t=0.25):
        (tmp_path / "i.png").write_bytes(ref.encode(kind, [[px]]))
        (tmp_path / "i.yaml").write_text(
            f"image: i.png\nmode: {mode}\nresolution: 1\norigin: [0, 0, 0]\nnegate: {negate}\n"
            f"occupied_thresh: {occ_t}\nfree_thresh: {free_t}\n")
        grid, unk = read_rosmap(tmp_path / "i.yaml")
        return "unknown" if unk[0, 0] else ("occupied" if grid.occupied[0, 0] else "free")

    # exact mean 89.33: occ = 0.6497 < 0.65 (a floored 89 would be 0.651, occupied)
    assert one("png-rgb", (89, 89, 90)) == "unknown"
    # alpha averaged in (trinary): (3 * 248 + 0) / 4 = 186 -> occ 0.27: unknown, not free
    assert one("png-grey-alpha", (248, 0)) == "unknown"
    assert one("png-rgba", (248, 248, 248, 0)) == "unknown"
    # scale: a non-opaque pixel is unknown even if it would be free
    assert one("png-rgba", (255, 255, 255, 254), mode="scale") == "unknown"
    # scale rounds: occ just above free_thresh rounds to 0 = free
    assert one("png-grey", (191,), mode="scale", free_t=0.25, occ_t=0.65) == "free"
    assert one("png-grey", (190,), mode="scale", free_t=0.25, occ_t=0.65) == "unknown"
    # raw ignores negate: 20 is 20 either way (< 25: free)
    assert one("png-grey", (20,), mode="raw", negate=1) == "free"
    # grey 51 with negate: occ = 0.2 exactly, not below free_thresh 0.2
    assert one("png-grey", (51,), negate=1, free_t=0.2) == "unknown"


def test_ascii_pgm_maxval_1000_is_exact():
    r = decode_raster(b"P2\n2 1\n1000\n650 1000\n")
    assert r.maxval == 1000 and r.shade.tolist() == [[0.65, 1.0]]
    # negate 1: occ = 0.65 exactly -> not above occupied_thresh 0.65 -> unknown
    v = map_values(r, negate=True, occupied_thresh=0.65, free_thresh=0.25)
    assert v.tolist() == [[-1, 100]]


@pytest.mark.parametrize("data, words", [
    (b"P5\n2 2\n255\n\x00", "bytes of pixel data"),
    (b"P2\n2 1\n255\n1\n", "1 of 2 samples"),
    (b"P2\n2 1\n255\n1 2 3\n", "more than 2 samples"),
    (b"P2\n2 1\n100\n1 200\n", "above maxval 100"),
    (b"P2\n2 1\n255\n1 x\n", "not a digit"),
    (b"P5\n2 1\n70000\n\x00\x00\x00\x00", "maxval 1..65535"),
    (b"P5\n0 1\n255\n", "width and height >= 1"),
    (b"P5\n2 x\n255\n", "height is not a whole number"),
])
def test_malformed_pgm_is_one_format_error(tmp_path, data, words):
    p = tmp_path / "bad.pgm"
    p.write_bytes(data)
    with pytest.raises(MazeFormatError, match=words) as info:
        read_raster(p)
    assert info.value.path == p


def _palette_png(n_colours: int, trns: bytes) -> bytes:
    import struct
    import zlib

    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(
            ">I", zlib.crc32(tag + data))
    ihdr = struct.pack(">IIBBBBB", 2, 1, 8, 3, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
            + chunk(b"PLTE", bytes(3 * n_colours)) + chunk(b"tRNS", trns)
            + chunk(b"IDAT", zlib.compress(b"\x00\x00\x01")) + chunk(b"IEND", b""))


def test_palette_png_with_transparency_index_out_of_range(tmp_path, capfd):
    # a tRNS chunk naming 301 palette entries: Pillow's convert raises
    # "palette index out of range"; robomaze says so in one error naming the file
    p = tmp_path / "pal.png"
    p.write_bytes(_palette_png(2, b"\xff" * 300 + b"\x00"))
    with pytest.raises(MazeFormatError, match="palette") as info:
        read_grid(p)
    assert info.value.path == p
    assert capfd.readouterr().err == ""


def test_palette_png_with_transparency_reads_alpha(tmp_path):
    img = Image.new("P", (2, 1))
    img.putpalette([0, 0, 0, 255, 255, 255])
    img.putdata([0, 1])
    p = tmp_path / "pal.png"
    img.save(p, transparency=1)
    r = read_raster(p)
    assert r.has_alpha and r.channels[0, :, 3].tolist() == [255, 0]


def test_render_cli_reads_a_ros_map_by_either_rule_set(tmp_path, capsys):
    from robomaze.cli import main

    # raw mode with negate 1: Nav2 ignores negate (20 free, 235 unknown),
    # ROS 1 applies it (20 -> 235 unknown, 235 -> 20 free)
    (tmp_path / "m.png").write_bytes(ref.encode("png-grey", [[(20,), (235,)]]))
    (tmp_path / "m.yaml").write_text("image: m.png\nmode: raw\nresolution: 1\n"
                                     "origin: [0, 0, 0]\nnegate: 1\noccupied_thresh: 0.65\n"
                                     "free_thresh: 0.25\n")
    for rules, dark in (("nav2", 15), ("ros1", 5)):
        out = tmp_path / f"{rules}.png"
        assert main(["render", str(tmp_path / "m.yaml"), "-o", str(out), "--cells",
                     "--ros-rules", rules, "--cell-px", "10"]) == 0
        px = np.asarray(Image.open(out).convert("L"))
        light = 20 - dark
        assert px[5, dark] < 50 and px[5, light] > 200
    assert main(["render", str(tmp_path / "m.png"), "-o", str(tmp_path / "x.png"),
                 "--ros-rules", "ros1"]) == 2
    assert "applies to ROS map YAML" in capsys.readouterr().err


def test_ppm_colour_files_keep_their_maxval():
    r = decode_raster(b"P3\n2 1\n1000\n650 650 650  0 0 3\n")
    assert r.maxval == 1000 and r.channels.shape == (1, 2, 3)
    assert r.shade.tolist() == [[0.65, 0.001]]
    wide = np.array([[[40000, 40000, 40001]]], ">u2")
    r = decode_raster(b"P6\n1 1\n65535\n" + wide.tobytes())
    assert r.channels.dtype == np.uint16 and r.channels.tolist() == [[[40000, 40000, 40001]]]
    # Nav2: exact mean 40000.33 of 65535 -> occ 0.38966 -> unknown
    assert map_values(r, negate=False, occupied_thresh=0.65, free_thresh=0.25).tolist() == [[-1]]
    r = decode_raster(b"P6\n1 1\n255\n" + bytes([89, 89, 90]))
    assert map_values(r, negate=False, occupied_thresh=0.65, free_thresh=0.25).tolist() == [[-1]]
