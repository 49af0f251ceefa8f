"""The window version on Agg: corridors walked both ways show both colours;
the hint key; the legend says what the drawing shows."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_rgb  # noqa: E402

from robomaze.maze import Maze  # noqa: E402
from robomaze.traverse.game import Game  # noqa: E402
from robomaze.traverse.palette import PALETTES  # noqa: E402
from robomaze.traverse.record import read_record  # noqa: E402
from robomaze.viz.render import _new_figure  # noqa: E402
from robomaze.viz.traverse import HINT_COLOR, PlayWindow, still  # noqa: E402
from trav_mazes import ManualClock  # noqa: E402

LINE = Maze.from_edges(1, 5, [0, 1, 2, 3], [1, 2, 3, 4], start=(0, 0), goals=[(0, 4)])


def _pixels(fig):
    fig.canvas.draw()
    return np.asarray(fig.canvas.buffer_rgba())[..., :3].astype(float) / 255


def _at(ax, img, x, y):
    """The pixel colour at data point (x, y) (matplotlib's y axis is up, images down)."""
    px, py = ax.transData.transform((x, y))
    return img[img.shape[0] - 1 - int(round(py)), int(round(px))]


def _close(rgb, hexcolor, tol=0.06):
    return np.abs(rgb - np.array(to_rgb(hexcolor))).max() < tol


def _across(ax, img, x, y0, y1, n=41):
    """Colours sampled across a horizontal corridor at x, from y0 to y1."""
    return [_at(ax, img, x, y) for y in np.linspace(y0, y1, n)]


@pytest.mark.parametrize("palette", sorted(PALETTES))
def test_a_corridor_walked_both_ways_shows_both_colours(tmp_path, palette):
    pal = PALETTES[palette]
    g = Game(LINE, clock=ManualClock())
    win = PlayWindow(g, fig=_new_figure(500, 160), palette=palette)
    for k in ("right", "right", "left"):     # (0,1)-(0,2) east then back west
        win.handle(k)
    img = _pixels(win.fig)
    both = _across(win.ax, img, 1.5, -0.3, 0.3)
    once = _across(win.ax, img, 0.5, -0.3, 0.3)
    assert any(_close(c, pal["right"]) for c in both) and \
        any(_close(c, pal["left"]) for c in both)
    # each on the right of its way: westward above (smaller y), eastward below
    assert _close(_at(win.ax, img, 1.5, -0.07), pal["left"])
    assert _close(_at(win.ax, img, 1.5, 0.07), pal["right"])
    # a passage walked one way only is one colour, full width
    assert not any(_close(c, pal["left"]) for c in once)
    assert _close(_at(win.ax, img, 0.5, 0.0), pal["right"])
    # walking on to the goal: the finish map keeps both colours
    for k in ("right", "right", "right"):
        win.handle(k)
    assert g.finished
    img = _pixels(win.fig)
    assert _close(_at(win.ax, img, 1.5, -0.07), pal["left"])
    assert _close(_at(win.ax, img, 1.5, 0.07), pal["right"])
    # the legend names what the drawing shows
    labels = [t.get_text() for t in win._legend.get_texts()]
    assert labels == ["right", "down", "left", "up", "walked both ways", "hint (h)"]


def test_still_picture_draws_both_ways_too(tmp_path):
    g = Game(LINE, clock=ManualClock())
    for a in "EEWEEE":
        g.act(a)
    fig = still(g.record(), tmp_path / "s.png", palette="paper")
    ax = fig.axes[0]
    img = _pixels(fig)
    pal = PALETTES["paper"]
    assert _close(_at(ax, img, 1.5, -0.07), pal["left"])
    assert _close(_at(ax, img, 1.5, 0.07), pal["right"])


def test_hint_key_in_the_window(tmp_path):
    g = Game(LINE, clock=ManualClock())
    win = PlayWindow(g, fig=_new_figure(500, 160), out=tmp_path / "w.jsonl")
    win.handle("right")
    assert win.handle("h") == "hint"
    assert win.hint_cells == [(0, 2), (0, 3), (0, 4)] and g.hints == 1 and g.moves == 1
    xs, ys = win._hint.get_data()
    assert list(xs) == [1.0, 2.0, 3.0, 4.0] and list(ys) == [0.0] * 4
    img = _pixels(win.fig)
    assert _close(_at(win.ax, img, 3.0, 0.0), HINT_COLOR, tol=0.1)
    assert "hints 1" in win._title.get_text()
    win.handle("right")                     # the next key takes the hint away
    assert list(win._hint.get_data()[0]) == []
    for k in ("right", "right"):
        win.handle(k)
    rec = read_record(tmp_path / "w.jsonl")
    assert rec.n_hints == 1 and rec.events[0][2:4] == (0, 1) and rec.n_moves == 4
    assert "hints 1" in win._score.get_text()
    assert win.handle("h") == "ignored"      # at the goal


def test_replay_frames_equal_the_trail_of_each_prefix():
    """TwoWayTrail.upto(k) (masks on one pass) against the trail built from scratch
    on positions[:k + 1], for every frame of random walks with many retraced passages."""
    from robomaze.viz._trail import TwoWayTrail, two_way_trail

    rng = np.random.default_rng(7)
    steps = np.array([(0, 1), (1, 0), (0, -1), (-1, 0), (0, 0)])
    for _ in range(5):
        pos = np.cumsum(np.r_[[[2, 2]], steps[rng.integers(0, 5, 60)]], axis=0)
        trail = TwoWayTrail(pos, "paper")
        for k in range(len(pos)):
            a, b = trail.upto(k), two_way_trail(pos[:k + 1], "paper")
            assert np.array_equal(a[0], b[0]) and a[1] == b[1] and np.array_equal(a[2], b[2])
        assert (trail.upto(None)[2] == 0.5).any()


def test_replay_halves_a_passage_only_once_walked_back(tmp_path):
    from robomaze.viz.traverse import Replay

    g = Game(LINE, clock=ManualClock())
    for a in "EEWEEE":
        g.act(a)
    rp = Replay(g.record(), palette="paper")
    rp.draw_frame(2)              # east twice: full strokes
    assert np.allclose(rp._lines.get_linewidths(), rp._width)
    rp.draw_frame(3)              # back west over (0,1)-(0,2): two half strokes there
    w = np.asarray(rp._lines.get_linewidths())
    assert list(np.isclose(w, rp._width / 2)) == [False, True, True]
