"""`robomaze play`, `robomaze replay`, `robomaze score` end to end (Agg backend)."""

import json

import pytest
from PIL import Image

from robomaze.cli import main
from robomaze.traverse.game import Game
from robomaze.traverse.record import TraversalRecord
from trav_mazes import ManualClock, comb, comb_detour_walk, keys_for, random_perfect


@pytest.fixture
def record_file(tmp_path):
    rec = TraversalRecord.from_cells(comb(2), comb_detour_walk(2), times=range(9))
    return rec.save(tmp_path / "walk.jsonl")


def test_play_without_display_fails_with_one_line(capsys, tmp_path):
    code = main(["play", "backtracker", "5x5", "--seed", "1", "--mode", "torch",
                 "-o", str(tmp_path / "x.jsonl")])
    err = capsys.readouterr().err
    assert code != 0
    assert err.count("\n") == 1 and err.startswith("robomaze play: error: no display")
    assert "--web" in err
    assert not (tmp_path / "x.jsonl").exists()


def test_play_argument_errors_are_one_line(capsys, tmp_path, record_file):
    assert main(["play", "backtracker"]) == 2
    assert "must be a generator name followed by SIZE" in capsys.readouterr().err
    assert main(["play", str(record_file), "5x5"]) == 2
    assert "only for generator names" in capsys.readouterr().err
    assert main(["play", str(record_file), "-o", str(tmp_path / "x.txt")]) == 2
    assert ".jsonl" in capsys.readouterr().err


def test_play_source_builds_the_world(tmp_path, record_file):
    from robomaze.cli import build_parser
    from robomaze.cli.play import world_from_args

    def build_parser_for_test(argv):
        return build_parser().parse_args(argv)

    args = build_parser_for_test(["play", str(record_file), "--corridor", "3", "--wall", "2"])
    world, source = world_from_args(args)
    assert world.shape == (3 * 5 + 2, 5 * 5 + 2) and world.maze == comb(2)
    import robomaze.generate as gen
    args = build_parser_for_test(["play", "kruskal", "4x6", "--seed", "9", "--braid", "0.5"])
    world, source = world_from_args(args)
    assert world == gen.generate("kruskal", 4, 6, rng=9, braid=0.5)
    assert source == {"generator": "kruskal", "size": [4, 6], "seed": 9, "braid": 0.5,
                      "placement": "corners"}


def test_replay_exports_gif_and_still(capsys, tmp_path, record_file):
    gif, png = tmp_path / "w.gif", tmp_path / "w.png"
    assert main(["replay", str(record_file), "-o", str(gif), "-o", str(png), "--fps", "8"]) == 0
    out = capsys.readouterr().out
    assert "9 frames" in out
    with Image.open(gif) as im:
        assert im.n_frames == 9
    assert Image.open(png).size[0] > 10


def test_replay_without_output_or_display_fails(capsys, record_file):
    assert main(["replay", str(record_file)]) == 2
    assert capsys.readouterr().err.startswith("robomaze replay: error: no display")


def test_score_prints_summary_table_and_writes_json_and_heatmap(capsys, tmp_path, record_file):
    js, heat = tmp_path / "r.json", tmp_path / "h.png"
    assert main(["score", str(record_file), "--json", str(js), "--heatmap", str(heat),
                 "--cells"]) == 0
    out = capsys.readouterr().out
    assert "moves 8 (optimal 4, extra 4" in out and "wrong turns 1" in out
    assert "dead ends entered 1" in out
    d = json.loads(js.read_text())
    assert d["summary"]["error"] == 4 and d["summary"]["wrong_turns"] == 1
    assert heat.stat().st_size > 0
    assert main(["score", str(record_file), "--json", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["summary"]["extra_moves"] == 4


def test_bad_record_gives_one_line_naming_the_line(capsys, tmp_path, record_file):
    lines = record_file.read_text().splitlines()
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines[:4]) + "\n")
    for cmd in (["score", str(bad)], ["replay", str(bad), "-o", str(tmp_path / "b.gif")]):
        assert main(cmd) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"{bad}:4: truncated record" in err


def test_grid_level_game_record_scores_through_cli(capsys, tmp_path):
    from robomaze.grid import widen

    maze = random_perfect(4, 4, seed=3)
    grid = widen(maze, corridor=2, wall=1)
    g = Game(grid, clock=ManualClock())
    route = [grid.maze_centre(c) for c in maze.solution()]
    cells = [route[0]]
    for a, b in zip(route[:-1], route[1:]):
        step = ((b[0] > a[0]) - (b[0] < a[0]), (b[1] > a[1]) - (b[1] < a[1]))
        cur = a
        while cur != b:
            cur = (cur[0] + step[0], cur[1] + step[1])
            cells.append(cur)
    for k in keys_for(cells):
        g.key(k)
    path = g.record().save(tmp_path / "g.jsonl")
    assert main(["score", str(path)]) == 0
    out = capsys.readouterr().out
    n = maze.solution_length()
    assert f"moves {n} (optimal {n}, extra 0" in out and "grid moves at pitch 3" in out


def test_play_on_plain_grid_needs_start_and_goal(capsys, tmp_path):
    import numpy as np

    grid_file = tmp_path / "room.npy"
    np.save(grid_file, np.pad(np.zeros((3, 4), bool), 1, constant_values=True))
    assert main(["play", str(grid_file)]) == 2
    assert "needs start= and goals=" in capsys.readouterr().err
    assert main(["play", str(grid_file), "--start", "1,1", "--goal", "3,4"]) == 2
    assert "no display" in capsys.readouterr().err      # got as far as the window
    with pytest.raises(SystemExit) as info:
        main(["play", str(grid_file), "--start", "1;1"])
    assert info.value.code == 2 and "ROW,COL" in capsys.readouterr().err


def test_game_on_plain_grid_records_and_scores(tmp_path):
    import numpy as np

    from robomaze.grid import OccupancyGrid
    from robomaze.traverse.record import read_record
    from robomaze.traverse.score import score

    occ = np.pad(np.zeros((1, 4), bool), 1, constant_values=True)
    g = Game(OccupancyGrid(occ), mode="torch", start=(1, 1), goals=[(1, 4)],
             clock=ManualClock())
    assert [g.key(k) for k in ["right", "left", "right", "right", "right"]][-1] == "goal"
    rec = read_record(g.record().save(tmp_path / "p.jsonl"))
    assert rec.maze is None and rec.goals == ((1, 4),)
    s = score(rec).summary
    assert (s["moves"], s["optimal"], s["extra_moves"], s["turnbacks"]) == (5, 3, 2, 1)


@pytest.mark.parametrize("command", ["play", "replay", "score"])
def test_help_of_traverse_commands(capsys, command):
    from robomaze.cli import COMMANDS

    assert command in COMMANDS
    with pytest.raises(SystemExit) as info:
        main([command, "--help"])
    out = capsys.readouterr().out
    assert info.value.code == 0 and f"usage: robomaze {command}" in out and "examples:" in out


@pytest.mark.parametrize("palette,right", [("paper", (0x1F, 0x4F, 0xFF)),
                                           (None, (0x00, 0x72, 0xB2))])
def test_replay_palette_option_colours_the_still(tmp_path, record_file, palette, right):
    import numpy as np

    out = tmp_path / "walk.png"
    extra = [] if palette is None else ["--palette", palette]
    assert main(["replay", str(record_file), "-o", str(out), "--cell-px", "30"] + extra) == 0
    px = np.asarray(Image.open(out).convert("RGB")).reshape(-1, 3).astype(int)
    assert (np.abs(px - right).sum(axis=1) < 12).sum() > 20   # the "right" moves


def test_unknown_palette_is_refused_in_one_line(capsys, record_file):
    with pytest.raises(SystemExit) as exc:
        main(["replay", str(record_file), "-o", "x.png", "--palette", "rainbow"])
    assert exc.value.code == 2
    assert "okabe-ito" in capsys.readouterr().err
