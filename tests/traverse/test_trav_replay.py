"""Replay animation, GIF/MP4 export, still image and heat map (Agg, no window)."""

import numpy as np
import pytest
from PIL import Image

from robomaze.errors import ParameterError
from robomaze.grid import widen
from robomaze.traverse.game import Game
from robomaze.traverse.record import TraversalRecord, read_record
from robomaze.traverse.score import score
from robomaze.viz import traverse as vt
from trav_mazes import ManualClock, comb, comb_detour_walk, keys_for, random_perfect


def _recorded(tmp_path, controls="arrows"):
    maze = random_perfect(5, 5, seed=7)
    g = Game(maze, controls=controls, clock=ManualClock())
    if controls == "arrows":
        for k in keys_for(maze.solution()):
            g.key(k)
    else:
        for k in "wadwdwaa":
            g.key(k)
    return read_record(g.record().save(tmp_path / "r.jsonl"))


def test_replay_reproduces_recorded_positions_and_gif_frame_count(tmp_path):
    rec = _recorded(tmp_path)
    rp = vt.Replay(rec, cell_px=12)
    assert rp.n_frames == rec.n_moves + 1
    out = rp.save(tmp_path / "walk.gif", fps=10)
    with Image.open(out) as im:
        assert im.n_frames == rec.n_moves + 1
    assert rp.shown == [tuple(p) for p in rec.positions.tolist()]


def test_every_kth_position_frames(tmp_path):
    rec = TraversalRecord.from_cells(comb(2), comb_detour_walk(2))     # 8 moves
    rp = vt.Replay(rec, cell_px=8, every=3)
    assert rp.n_frames == 4 and rp.frame_index.tolist() == [0, 3, 6, 8]
    with Image.open(rp.save(tmp_path / "k.gif")) as im:
        assert im.n_frames == 4
    assert rp.shown == [tuple(rec.positions[k]) for k in (0, 3, 6, 8)]
    with pytest.raises(ParameterError, match="every"):
        vt.Replay(rec, every=0)


def test_replay_of_turns_in_place_keeps_one_frame_per_move(tmp_path):
    rec = _recorded(tmp_path, controls="robot")
    assert any(s.move in "LR" for s in rec.executed)
    out = vt.Replay(rec, cell_px=10).save(tmp_path / "turns.gif")
    with Image.open(out) as im:
        assert im.n_frames == rec.n_moves + 1


@pytest.mark.parametrize("palette,want", [
    ("paper", {"E": "#1f4fff", "S": "#c00000", "W": "#00b8d4", "N": "#5ad75a"}),
    (None, {"E": "#0072b2", "S": "#d55e00", "W": "#56b4e9", "N": "#009e73"}),  # Okabe-Ito
])
def test_replay_colours_moves_by_direction(tmp_path, palette, want):
    rec = TraversalRecord.from_cells(comb(2), comb_detour_walk(2))
    rp = vt.Replay(rec, cell_px=10, **({} if palette is None else {"palette": palette}))
    rp.draw_frame(rec.n_moves)
    from matplotlib.colors import to_hex

    got = [to_hex(c) for c in rp._lines.get_colors()]
    # one stroke per passage and way, in the order first walked
    firsts, prev = {}, rec.start
    for s in rec.executed:
        firsts.setdefault((prev, (s.row, s.col)), s.move)
        prev = (s.row, s.col)
    assert got == [want[m] for m in firsts.values()]
    # the dead end (2 passages) was walked both ways: 4 half-width strokes
    widths = np.asarray(rp._lines.get_linewidths())
    assert np.isclose(widths, widths.max() / 2).sum() == 4 and (widths == widths.max()).sum() == 4
    assert rp._here.get_data()[0][0] == 4 and rp._here.get_data()[1][0] == 0


def test_play_pause_and_speed_keys(tmp_path):
    rp = vt.Replay(_recorded(tmp_path), interval=200)
    rp.handle(" ")
    assert rp.paused
    rp.handle(" ")
    assert not rp.paused
    rp.handle("+")
    assert rp.anim.event_source.interval == 100
    rp.handle("-")
    rp.handle("-")
    assert rp.anim.event_source.interval == 400
    with Image.open(rp.save(tmp_path / "after.gif")) as im:   # still exports every frame
        assert im.n_frames == rp.n_frames


def test_mp4_needs_ffmpeg(tmp_path, monkeypatch):
    rec = _recorded(tmp_path)
    if vt.ffmpeg_available():
        out = vt.Replay(rec, cell_px=8).save(tmp_path / "w.mp4")
        assert out.stat().st_size > 0
    monkeypatch.setattr(vt, "ffmpeg_available", lambda: False)
    with pytest.raises(ParameterError, match="ffmpeg"):
        vt.Replay(rec).save(tmp_path / "w.mp4")
    with pytest.raises(ParameterError, match=".gif or .mp4"):
        vt.Replay(rec).save(tmp_path / "w.avi")


@pytest.mark.parametrize("palette,colours", [
    ("paper", ("#1f4fff", "#c00000", "#00b8d4", "#5ad75a")),
    ("okabe-ito", ("#0072b2", "#d55e00", "#56b4e9", "#009e73")),
])
def test_still_image_shows_each_direction_colour(tmp_path, palette, colours):
    from robomaze.maze import Maze

    loop = [(0, 0), (0, 1), (1, 1), (1, 0), (0, 0)]          # E, S, W, N
    rec = TraversalRecord.from_cells(Maze.empty(2, 2), loop)
    out = tmp_path / "still.png"
    vt.still(rec, out, cell_px=30, palette=palette)
    px = np.asarray(Image.open(out).convert("RGB")).reshape(-1, 3)
    for hexcol in colours:
        rgb = np.array([int(hexcol[i:i + 2], 16) for i in (1, 3, 5)])
        assert (np.abs(px.astype(int) - rgb).sum(axis=1) < 12).sum() > 20, hexcol


def test_still_and_replay_on_grid_level_record(tmp_path):
    maze = comb(1, cols=3, junction=1)
    grid = widen(maze, corridor=2, wall=1)
    g = Game(grid, clock=ManualClock())
    for k in ["right"] * 6:
        g.key(k)
    rec = g.record()
    assert rec.reached_goal
    vt.still(rec, tmp_path / "g.svg")
    rp = vt.Replay(rec, cell_px=8)
    with Image.open(rp.save(tmp_path / "g.gif")) as im:
        assert im.n_frames == rec.n_moves + 1


def test_section_heatmap_paints_the_detour(tmp_path):
    maze = comb(3)
    rep = score(TraversalRecord.from_cells(maze, comb_detour_walk(3)))
    out = tmp_path / "heat.png"
    fig = vt.section_heatmap(rep, maze, out, cell_px=30)
    assert out.stat().st_size > 0
    im = fig.axes[0].images[0]
    data = im.get_array()
    assert data[3, 2] == 6 and data[0, 0] == 0 and np.ma.is_masked(data[1, 0])
    with pytest.raises(ParameterError, match="shape"):
        vt.section_heatmap(rep, widen(maze), tmp_path / "x.png")
