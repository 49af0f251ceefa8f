"""Pictures: exact pixel sizes, formats, what shows up where in the pixels."""

import subprocess
import sys
import xml.etree.ElementTree as ET

import matplotlib.image as mpimg
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure

from robomaze import Maze, OccupancyGrid, widen
from robomaze.errors import ParameterError
from robomaze.viz import (GOAL_COLOR, PALETTE, PATH_COLOR, START_COLOR, export_bitmap,
                          render)


def serpentine(rows=4, cols=5, **kw):
    """A perfect maze whose single corridor snakes row by row."""
    a, b = [], []
    for r in range(rows):
        for c in range(cols - 1):
            a.append(r * cols + c)
            b.append(r * cols + c + 1)
        if r < rows - 1:
            c = cols - 1 if r % 2 == 0 else 0
            a.append(r * cols + c)
            b.append((r + 1) * cols + c)
    return Maze.from_edges(rows, cols, a, b, **kw)


def pixel(img, y, x):
    """8-bit RGB of one pixel of an image read by matplotlib (floats in [0, 1])."""
    return tuple(int(v) for v in np.round(np.asarray(img[y, x, :3], float) * 255))


def rgb(colour):
    return tuple(int(v) for v in np.round(np.asarray(to_rgb(colour)) * 255))


WHITE = (255, 255, 255)
BLACK = (0, 0, 0)


@pytest.mark.parametrize("cell_px", [1, 3, 10])
def test_png_size_is_cells_times_cell_px(tmp_path, cell_px):
    g = widen(serpentine(), corridor=2, wall=1)
    out = tmp_path / "g.png"
    render(g, out, cell_px=cell_px)
    img = mpimg.imread(out)
    assert img.shape[:2] == (g.rows * cell_px, g.cols * cell_px)


def test_maze_png_size_and_requested_size(tmp_path):
    m = serpentine(3, 7)
    render(m, tmp_path / "a.png", cell_px=12)
    assert mpimg.imread(tmp_path / "a.png").shape[:2] == (36, 84)
    render(m, tmp_path / "b.png", size=(321, 123))
    assert mpimg.imread(tmp_path / "b.png").shape[:2] == (123, 321)
    render(m, tmp_path / "c.png", size=(321, 123), title="hello")
    assert mpimg.imread(tmp_path / "c.png").shape[:2] == (123, 321)
    render(m, tmp_path / "d.png", cell_px=12, title="hello")
    assert mpimg.imread(tmp_path / "d.png").shape[:2] == (36 + 28, 84)


def test_default_fit_targets_1000px_and_keeps_one_pixel_per_cell(tmp_path):
    fig = render(OccupancyGrid(np.zeros((50, 200), bool)))
    assert [round(v) for v in fig.get_size_inches() * fig.dpi] == [1000, 250]
    fig = render(OccupancyGrid(np.zeros((1500, 3), bool)))
    assert [round(v) for v in fig.get_size_inches() * fig.dpi] == [3, 1500]


def test_svg_is_xml_with_svg_root(tmp_path):
    out = tmp_path / "m.svg"
    render(serpentine(), out, path=serpentine().solution(), title="t")
    root = ET.parse(out).getroot()
    assert root.tag.endswith("svg")
    out = tmp_path / "g.SVG"
    render(widen(serpentine()), out)
    assert ET.parse(out).getroot().tag.endswith("svg")


@pytest.mark.parametrize("bad", ["x.jpg", "x", "x.png.txt"])
def test_unknown_extension_names_out_and_writes_nothing(tmp_path, bad):
    with pytest.raises(ParameterError, match="out"):
        render(Maze.empty(2, 2), tmp_path / bad)
    assert list(tmp_path.iterdir()) == []


def test_bad_arguments():
    with pytest.raises(ParameterError, match="obj"):
        render(np.zeros((3, 3), bool))
    with pytest.raises(ParameterError, match="cell_px"):
        render(Maze.empty(2, 2), cell_px=0)
    with pytest.raises(ParameterError, match="either"):
        render(Maze.empty(2, 2), cell_px=3, size=(10, 10))
    with pytest.raises(ParameterError, match="size"):
        render(Maze.empty(2, 2), size=(0, 10))
    with pytest.raises(ParameterError, match="path"):
        render(Maze.empty(2, 2), path=[1, 2, 3])


def test_grid_pixels_match_occupancy_and_path_colour_shows(tmp_path):
    m = serpentine()
    g = widen(m, corridor=3, wall=1)
    cells = np.array([g.maze_centre(c) for c in m.solution()])
    out = tmp_path / "p.png"
    render(g, out, cell_px=10, path=cells[1:-1])
    img = mpimg.imread(out)
    r, c = cells[2]
    assert pixel(img, r * 10 + 5, c * 10 + 5) == rgb(PATH_COLOR)
    assert pixel(img, 5, 5) == BLACK                     # corner post
    r, c = g.maze_centre((0, 0))
    assert pixel(img, r * 10 + 5, c * 10 + 5) == rgb(START_COLOR)
    r, c = g.maze_centre(m.goals[0])
    assert pixel(img, r * 10 + 5, c * 10 + 5) == rgb(GOAL_COLOR)
    # a free cell off the path and away from the markers stays white
    assert pixel(img, 1 * 10 + 5, 7 * 10 + 5) == WHITE


def test_maze_walls_openings_and_markers_in_pixels(tmp_path):
    px = 20
    m = Maze.full(2, 3, start=(0, 0), goals=[(1, 2)], openings=[(1, 0, "W")])
    out = tmp_path / "m.png"
    render(m, out, cell_px=px)
    img = mpimg.imread(out)
    # the wall between (0, 1) and (0, 2) is a line at x = 2 * px
    assert pixel(img, px // 2, 2 * px) == BLACK
    # the opening west of (1, 0) is a gap, the west wall of (0, 0) is not
    assert pixel(img, px + px // 2, 0) == WHITE
    assert pixel(img, px // 2, 0) == BLACK
    assert pixel(img, px // 2, px // 2) == rgb(START_COLOR)
    assert pixel(img, px + px // 2, 2 * px + px // 2) == rgb(GOAL_COLOR)
    render(Maze.empty(2, 3), out, cell_px=px)
    img = mpimg.imread(out)
    assert pixel(img, px // 2, 2 * px) == WHITE


def test_maze_path_in_maze_cells(tmp_path):
    m = serpentine(3, 4)
    out = tmp_path / "m.png"
    render(m, out, cell_px=20, path=m.solution())
    img = mpimg.imread(out)
    assert pixel(img, 10, 2 * 20 + 10) == rgb(PATH_COLOR)       # cell (0, 2)
    assert pixel(img, 2 * 20 + 10, 1 * 20 + 10) == rgb(PATH_COLOR)  # cell (2, 1)


class FakePath:
    """Quacks like robomaze.plan.Path for drawing purposes."""

    def __init__(self, cells, points=None):
        self.cells = np.asarray(cells)
        self.points = points


def test_marks_paths_legend_and_path_objects(tmp_path):
    g = OccupancyGrid(np.zeros((6, 8), bool), resolution=0.5, origin=(1.0, 2.0, 0.0))
    a = FakePath([(1, 1), (1, 6)])
    world = g.cells_to_world(np.array([(4, 1), (4, 6)]))
    b = FakePath([(4, 1), (4, 6)], points=world)
    out = tmp_path / "o.png"
    # large cells so the legend (upper right) covers none of the probed pixels
    fig = render(g, out, cell_px=40, paths={"a": a, "b": b}, marks={"m": [(2, 2)]})
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert labels == ["a", "b", "m"]
    img = mpimg.imread(out)
    assert pixel(img, 1 * 40 + 20, 2 * 40 + 20) == rgb(PALETTE[0])
    assert pixel(img, 4 * 40 + 20, 2 * 40 + 20) == rgb(PALETTE[1])
    assert pixel(img, 2 * 40 + 20, 2 * 40 + 20) == rgb(PALETTE[2])
    assert pixel(img, 5 * 40 + 20, 7 * 40 + 20) == WHITE


def test_draws_into_given_axes():
    fig = Figure(figsize=(3, 2))
    ax = fig.add_subplot(1, 2, 2)
    got = render(serpentine(), ax=ax, title="right")
    assert got is fig
    assert ax.get_title() == "right"
    assert ax.get_xlim() == (-0.5, 4.5) and ax.get_ylim() == (3.5, -0.5)


@settings(deadline=None, max_examples=15)
@given(arrays(bool, st.tuples(st.integers(1, 12), st.integers(1, 12))))
def test_cell_centres_show_occupancy(occ):
    """Sampling each cell's centre pixel gives back the occupancy exactly."""
    import io

    buf = io.BytesIO()
    fig = render(OccupancyGrid(occ), cell_px=4)
    fig.savefig(buf, format="png", dpi=fig.dpi)
    buf.seek(0)
    img = mpimg.imread(buf)
    centres = img[2::4, 2::4, 0]
    assert centres.shape == occ.shape
    np.testing.assert_array_equal(centres == 0, occ)


def test_export_bitmap_is_one_pixel_per_cell(tmp_path):
    g = widen(serpentine(5, 7), corridor=3, wall=2)
    out = tmp_path / "b.png"
    export_bitmap(g, out)
    img = mpimg.imread(out)
    grey = img if img.ndim == 2 else img[..., 0]
    assert grey.shape == g.shape
    np.testing.assert_array_equal(grey == 0, g.occupied)
    np.testing.assert_array_equal(grey == 1, g.free)


def test_export_bitmap_of_maze_is_its_matrix(tmp_path):
    m = serpentine(3, 4, openings=[(0, 0, "N")])
    out = tmp_path / "m.png"
    export_bitmap(m, out)
    img = mpimg.imread(out)
    grey = img if img.ndim == 2 else img[..., 0]
    np.testing.assert_array_equal((grey == 0).astype(np.uint8), m.to_matrix())


def test_export_bitmap_rejects_other_formats(tmp_path):
    with pytest.raises(ParameterError, match="out"):
        export_bitmap(Maze.empty(2, 2), tmp_path / "m.svg")
    with pytest.raises(ParameterError, match="grid"):
        export_bitmap(np.zeros((2, 2)), tmp_path / "m.png")


def test_no_pyplot_and_no_window():
    code = ("import sys; from robomaze import Maze; from robomaze.viz import render; "
            "render(Maze.empty(3, 3), path=[(0, 0), (0, 1)]); "
            "print('matplotlib.pyplot' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={"MPLBACKEND": "", "PATH": ""})
    assert out.stdout.strip() == "False"


def test_world_points_follow_the_grid_frame():
    """World points map to grid coordinates through resolution, origin and yaw."""
    from robomaze.viz import path_xy

    cells = np.array([(0, 0), (2, 3), (4, 1)])
    for origin in [(0.0, 0.0, 0.0), (1.5, -2.0, 0.0), (0.3, 0.7, 0.6)]:
        g = OccupancyGrid(np.zeros((5, 4), bool), resolution=0.25, origin=origin)
        xy = path_xy(g, g.cells_to_world(cells), world=True)
        np.testing.assert_allclose(xy, cells[:, ::-1], atol=1e-12)


def test_draw_primitives_on_user_axes():
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from robomaze.viz import draw_grid, draw_maze, draw_path, draw_points

    fig = Figure(figsize=(2, 2), dpi=50)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0, 0, 1, 1))
    g = widen(serpentine(2, 2))
    img = draw_grid(ax, g)
    # one uint8 RGBA image pixel per cell (never a float array)
    assert img.get_array().shape == g.shape + (4,) and img.get_array().dtype == np.uint8
    assert ax.get_ylim() == (g.rows - 0.5, -0.5)               # y inverted, row 0 on top
    line = draw_path(ax, g, [(1, 1), (1, 3), (3, 3)], color="#123456")
    assert list(line.get_xdata()) == [1, 3, 3] and list(line.get_ydata()) == [1, 1, 3]
    pts = draw_points(ax, g, [(3, 1)])
    assert pts.get_offsets().tolist() == [[1.0, 3.0]]
    ax2 = fig.add_axes((0, 0, 0.5, 0.5))
    walls = draw_maze(ax2, Maze.full(2, 2))
    # a full 2x2 maze: 3 horizontal and 3 vertical straight runs
    assert len(walls.get_path().vertices) == 12
    fig.canvas.draw()
