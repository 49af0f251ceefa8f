"""--marks paper: the paper's red start square and blue end square on replay
and score pictures; the default marks are unchanged."""

import numpy as np
import pytest
from PIL import Image

from robomaze.cli import main
from robomaze.errors import ParameterError
from robomaze.grid import widen
from robomaze.maze import Maze
from robomaze.traverse.game import Game
from robomaze.traverse.record import read_record
from robomaze.traverse.score import score
from robomaze.viz import traverse as vt
from trav_mazes import ManualClock, keys_for

# a 1x6 corridor walked from (0,0) to (0,5): start at the left end, end at the right
LINE = Maze.from_edges(1, 6, [0, 1, 2, 3, 4], [1, 2, 3, 4, 5], start=(0, 0), goals=[(0, 5)])
ROUTE = [(0, c) for c in range(6)]


def _record(tmp_path, world=LINE, route=ROUTE):
    g = Game(world, clock=ManualClock())
    for k in keys_for(route):
        g.key(k)
    return g.record().save(tmp_path / "walk.jsonl")


def _xs(png, colour, tol=10):
    """Column fractions (0 = left edge, 1 = right) of the pixels of one colour."""
    img = np.asarray(Image.open(png).convert("RGB")).astype(int)
    target = np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)])
    hit = np.abs(img - target).max(axis=-1) <= tol
    return np.nonzero(hit)[1] / img.shape[1]


def test_still_paper_marks_start_red_end_blue(tmp_path):
    rec = read_record(_record(tmp_path))
    vt.still(rec, tmp_path / "paper.png", cell_px=30, marks="paper")
    red, blue = _xs(tmp_path / "paper.png", vt.PAPER_START_COLOR), \
        _xs(tmp_path / "paper.png", vt.PAPER_END_COLOR)
    assert red.size > 30 and blue.size > 30
    assert red.max() < 1 / 6 and blue.min() > 5 / 6  # the first and the last cell
    # the default keeps robomaze's green start square and orange dot, no paper marks
    vt.still(rec, tmp_path / "plain.png", cell_px=30)
    assert _xs(tmp_path / "plain.png", vt.PAPER_START_COLOR).size == 0
    assert _xs(tmp_path / "plain.png", vt.PAPER_END_COLOR).size == 0
    assert _xs(tmp_path / "plain.png", vt.START_COLOR).max() < 1 / 6
    assert _xs(tmp_path / "plain.png", vt._HERE).min() > 5 / 6


def test_replay_frames_carry_the_blue_square_along(tmp_path):
    rec = read_record(_record(tmp_path))
    rp = vt.Replay(rec, cell_px=30, marks="paper")
    rp.draw_frame(2)
    assert rp._here.get_color() == vt.PAPER_END_COLOR and rp._here.get_marker() == "s"
    assert list(rp._here.get_data()[0]) == [2]
    rp.save(tmp_path / "a.gif", fps=5)
    with Image.open(tmp_path / "a.gif") as im:
        im.seek(3)
        im.convert("RGB").save(tmp_path / "f3.png")
    blue = _xs(tmp_path / "f3.png", vt.PAPER_END_COLOR, tol=40)
    assert blue.size > 20 and 3 / 6 < blue.mean() < 4 / 6  # over cell (0, 3)
    assert _xs(tmp_path / "f3.png", vt.PAPER_START_COLOR, tol=40).max() < 1 / 6


def test_cli_replay_and_score_take_marks(tmp_path, capsys):
    path = _record(tmp_path)
    assert main(["replay", str(path), "-o", str(tmp_path / "s.png"), "--marks", "paper",
                 "--cell-px", "30"]) == 0
    assert _xs(tmp_path / "s.png", vt.PAPER_START_COLOR).size > 30
    assert main(["score", str(path), "--heatmap", str(tmp_path / "h.png"),
                 "--marks", "paper"]) == 0
    red, blue = _xs(tmp_path / "h.png", vt.PAPER_START_COLOR), \
        _xs(tmp_path / "h.png", vt.PAPER_END_COLOR)
    assert red.size > 30 and blue.size > 30 and red.mean() < blue.mean()
    assert main(["score", str(path), "--heatmap", str(tmp_path / "d.png")]) == 0
    assert _xs(tmp_path / "d.png", vt.PAPER_START_COLOR).size == 0
    capsys.readouterr()
    with pytest.raises(SystemExit) as info:
        main(["replay", str(path), "-o", str(tmp_path / "x.png"), "--marks", "fig13"])
    assert info.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_widened_record_heatmap_marks_maze_cells(tmp_path):
    grid = widen(LINE, corridor=3, wall=1)
    g = Game(grid, clock=ManualClock())
    for _ in range(20):
        g.key("right")
    path = g.record().save(tmp_path / "wide.jsonl")
    assert main(["score", str(path), "--heatmap", str(tmp_path / "h.png"),
                 "--marks", "paper"]) == 0
    red, blue = _xs(tmp_path / "h.png", vt.PAPER_START_COLOR), \
        _xs(tmp_path / "h.png", vt.PAPER_END_COLOR)
    assert red.size > 30 and blue.size > 30 and red.mean() < blue.mean()


def test_bad_marks_are_one_clear_error(tmp_path):
    rec = read_record(_record(tmp_path))
    with pytest.raises(ParameterError, match="marks must be one of"):
        vt.still(rec, marks="fig13")
    with pytest.raises(ParameterError, match="needs ends="):
        vt.section_heatmap(score(rec), LINE, marks="paper")
