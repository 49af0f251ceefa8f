"""Render caps: matplotlib is never asked for a raster past the caps, grids
are handed over as uint8 RGBA (block-averaged when larger than the picture),
and lattices that cannot show are refused in one line."""

import os
import resource
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from robomaze import Maze, OccupancyGrid
from robomaze.cli import main
from robomaze.errors import ParameterError
from robomaze.io import limit_memory
from robomaze.viz import render
from robomaze.viz.draw import block_factors, grid_rgba
from robomaze.viz.render import MAX_AUTO_SIDE_PX, MAX_PIXELS, MAX_SIDE_PX, figure_size

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("rows, cols, want", [
    (8000, 8000, (2048, 2048)), (100_000, 50_000, (1024, 2048)), (1500, 1000, (1000, 1500)),
    (10, 20, (1000, 500))])
def test_automatic_size_is_capped(rows, cols, want):
    assert figure_size(rows, cols) == want
    assert max(figure_size(rows, cols)) <= MAX_AUTO_SIDE_PX


@pytest.mark.parametrize("kwargs, words", [
    ({"size": (MAX_SIDE_PX + 1, 10)}, "size width"),
    ({"size": (10, MAX_SIDE_PX + 1)}, "size height"),
    ({"size": (10000, 10000)}, "64,000,000 pixels"),
    ({"cell_px": 20}, "at most 16384 pixels on a side"),
])
def test_explicit_sizes_past_the_caps_are_refused(kwargs, words):
    with pytest.raises(ParameterError, match=words):
        figure_size(1000, 1000, **kwargs)
    assert MAX_PIXELS == 64_000_000


@pytest.mark.parametrize("rows, cols", [(1, 9_000_000), (60_000_000, 1), (3, 18_000_001)])
def test_lattice_thinner_than_a_pixel_is_refused(rows, cols):
    with pytest.raises(ParameterError, match="expected at least 1 pixel"):
        figure_size(rows, cols)


def test_grid_rgba_block_mean_matches_a_plain_reference():
    rng = np.random.default_rng(7)
    occ = rng.random((23, 37)) < 0.3
    fr, fc = block_factors(23, 37, (10, 6))
    assert (fr, fc) == (4, 4)
    got = grid_rgba(occ, "#000000", (10, 6))
    assert got.dtype == np.uint8 and got.shape == (6, 10, 4)
    for i in range(6):
        for j in range(10):
            block = occ[i * fr:(i + 1) * fr, j * fc:(j + 1) * fc]
            share = int(block.sum() * 255 * 2 + block.size) // (2 * block.size)
            assert got[i, j, 0] == 255 - (share * 255 + 127) // 255
    assert (got[..., 3] == 255).all()
    # coloured ink: white where free, the ink where occupied
    red = grid_rgba(np.array([[True, False]]), "#ff0000")
    assert red[0, 0, :3].tolist() == [255, 0, 0] and red[0, 1, :3].tolist() == [255, 255, 255]


def test_render_hands_matplotlib_uint8_no_larger_than_the_picture():
    occ = np.zeros((5000, 3000), bool)
    occ[::7] = True
    fig = render(OccupancyGrid(occ))
    (img,) = fig.axes[0].images
    a = img.get_array()
    assert a.dtype == np.uint8 and a.shape[2] == 4
    assert a.shape[0] <= 2048 and a.shape[1] <= 2048
    # the striped grid is drawn grey (about 1 in 7 rows occupied per block)
    assert 200 < a[..., 0].mean() < 230


def test_big_maze_walls_are_an_image_small_maze_walls_are_lines():
    from matplotlib.image import AxesImage
    from matplotlib.patches import PathPatch

    big = render(Maze.full(400, 400), size=(300, 300))
    assert any(isinstance(a, AxesImage) for a in big.axes[0].get_children())
    small = render(Maze.full(10, 10))
    assert any(isinstance(a, PathPatch) for a in small.axes[0].get_children())


def test_render_memory_estimate_is_checked(tmp_path):
    with limit_memory("1M"), pytest.raises(ParameterError, match="drawing a 1000x1000 pixel"):
        render(OccupancyGrid(np.zeros((1000, 1000), bool)), tmp_path / "x.png")
    assert not (tmp_path / "x.png").exists()


# VmHWM, not ru_maxrss: Linux keeps ru_maxrss across execve, so a child of a
# large pytest-xdist worker would report the worker's own peak
PEAK = ("import sys\nfrom robomaze.cli import main\nrc = main(sys.argv[1:])\n"
        "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM:')]\n"
        "print(hwm[0].split()[1])\nsys.exit(rc)\n")


def _peak_bytes(argv, cwd):
    """Run the CLI in a child; its own peak resident size, in bytes."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", PEAK, *argv], cwd=cwd, env=env,
                          capture_output=True, text=True)
    return proc, int(proc.stdout.split()[-1]) * 1024


@pytest.mark.parametrize("out", ["x.png", "x.svg"])
def test_8000_square_png_renders_under_1_gb(tmp_path, out):
    Image.fromarray(np.full((8000, 8000), 255, np.uint8)).save(tmp_path / "bomb.png")
    assert (tmp_path / "bomb.png").stat().st_size < 200_000
    proc, peak = _peak_bytes(["render", "bomb.png", "-o", out], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert peak < 1 << 30
    if out.endswith(".png"):
        assert Image.open(tmp_path / out).size == (2048, 2048)


def test_one_row_maze_picture_is_refused_in_one_line(tmp_path, capsys):
    assert main(["generate", "backtracker", "1x200000", "--seed", "1", "-o",
                 str(tmp_path / "g1.png")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "expected at least 1 pixel" in err
    assert not (tmp_path / "g1.png").exists()


def test_render_size_option_has_an_upper_bound(tmp_path, capsys):
    Image.fromarray(np.zeros((4, 4), np.uint8)).save(tmp_path / "g.png")
    assert main(["render", str(tmp_path / "g.png"), "-o", str(tmp_path / "o.png"),
                 "--size", "20000x100"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "16384" in err
