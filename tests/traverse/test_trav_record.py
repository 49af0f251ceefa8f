"""The traversal record: round trips, references, trajectory conversion, bad files."""

import json
from types import SimpleNamespace

import numpy as np
import pytest

from robomaze.errors import ParameterError, RecordFormatError
from robomaze.grid import widen
from robomaze.maze import Maze
from robomaze.traverse.game import Game
from robomaze.traverse import from_trajectory
from robomaze.traverse.record import FORMAT_NAME, TraversalRecord, dumps, loads, read_record
from trav_mazes import ManualClock, comb, comb_detour_walk, keys_for, random_perfect


def _game_record():
    clock = ManualClock()
    g = Game(comb(2), clock=clock, walker={"kind": "person", "name": "ada", "settings": {}})
    for i, k in enumerate(["down"] + keys_for(comb_detour_walk(2)), 1):
        clock.now = 0.25 * i
        g.key(k)
    return g.record()


def test_roundtrip_keeps_every_field(tmp_path):
    rec = _game_record()
    assert rec.n_bumps == 1 and rec.reached_goal
    back = read_record(rec.save(tmp_path / "r.jsonl"))
    assert back.steps == rec.steps
    assert back.maze == rec.maze and back.level == "cell" and back.grid is None
    assert back.walker == rec.walker and back.walker["name"] == "ada"
    assert (back.start, back.goals, back.heading) == (rec.start, rec.goals, rec.heading)
    assert (back.reached_goal, back.duration) == (True, rec.duration)
    assert np.array_equal(back.positions, rec.positions)


def test_file_layout_is_header_moves_end(tmp_path):
    rec = _game_record()
    lines = rec.save(tmp_path / "r.jsonl").read_text().splitlines()
    objs = [json.loads(s) for s in lines]
    head, moves, end = objs[0], objs[1:-1], objs[-1]
    assert head["format"] == FORMAT_NAME and head["version"] == 1 and head["level"] == "cell"
    assert head["maze"]["matrix"][0] == "#" * 11 and head["start"] == [0, 0]
    assert len(moves) == rec.n_moves + rec.n_bumps
    assert set(moves[1]) == {"t", "move", "row", "col", "heading"}
    assert moves[0]["bump"] is True
    assert end == {"end": True, "moves": rec.n_moves, "bumps": 1, "reached_goal": True,
                   "duration": rec.duration, "row": 0, "col": 4, "heading": 0.0}


def test_grid_record_roundtrip_rebuilds_the_widened_grid(tmp_path):
    maze = random_perfect(4, 5, seed=2)
    grid = widen(maze, corridor=3, wall=2, resolution=0.1, origin=(1.0, -2.0, 0.0))
    rec = TraversalRecord.from_cells(grid, [grid.maze_centre(maze.start),
                                            np.add(grid.maze_centre(maze.start), (0, 1))])
    back = loads(dumps(rec))
    assert back.grid == grid and back.grid.widening == grid.widening
    assert back.maze == maze and back.positions.tolist() == rec.positions.tolist()


def test_plain_grid_record_roundtrip():
    from robomaze.grid import OccupancyGrid

    grid = OccupancyGrid(np.pad(np.zeros((2, 3), bool), 1, constant_values=True))
    rec = TraversalRecord.from_cells(grid, [(1, 1), (1, 2), (2, 2)])
    back = loads(dumps(rec))
    assert back.maze is None and back.grid == grid
    assert back.goals == ((2, 2),) and back.reached_goal


def test_reference_header_resolves_through_the_generator():
    import robomaze.generate as gen
    maze = gen.generate("kruskal", 5, 6, rng=11, braid=0.5, placement="sides")
    src = {"generator": "kruskal", "size": [5, 6], "seed": 11, "braid": 0.5,
           "placement": "sides"}
    rec = TraversalRecord.from_cells(maze, [maze.start], source=src)
    text = dumps(rec).splitlines()
    head = json.loads(text[0])
    head["maze"] = None                     # keep only the reference
    back = loads("\n".join([json.dumps(head)] + text[1:]) + "\n")
    assert back.maze == maze and back.source == src


def test_from_trajectory_fills_jumps_and_maps_to_maze_cells():
    maze = comb(1, cols=3, junction=1)
    grid = widen(maze, corridor=3, wall=1, resolution=0.5)      # pitch 4, 9x13 grid
    pts = [grid.maze_centre((0, 0)), grid.maze_centre((0, 1)), grid.maze_centre((1, 1)),
           grid.maze_centre((0, 1)), grid.maze_centre((0, 2))]
    xy = grid.cells_to_world(np.array(pts))
    traj = SimpleNamespace(t=np.arange(5) * 2.0 + 10.0,
                           poses=np.c_[xy, np.radians([0, 0, -90, 90, 0])])
    rec = from_trajectory(traj, grid, walker={"kind": "agent", "name": "bug", "settings": {}})
    pos = rec.positions
    assert pos[0].tolist() == list(pts[0]) and pos[-1].tolist() == list(pts[-1])
    assert np.abs(np.diff(pos, axis=0)).sum(axis=1).tolist() == [1] * (len(pos) - 1)
    assert grid.free[pos[:, 0], pos[:, 1]].all()
    assert rec.n_moves == 4 + 4 + 4 + 4
    assert rec.times[0] == 0.0 and rec.times[-1] == 8.0 and rec.duration == 8.0
    assert rec.headings[0] == 0.0 and set(rec.headings[5:9]) == {270.0}
    cells, _ = rec.maze_walk()
    assert cells.tolist() == [[0, 0], [0, 1], [1, 1], [0, 1], [0, 2]]
    assert rec.reached_goal and loads(dumps(rec)).steps == rec.steps


def test_from_trajectory_diagonal_jump_goes_through_free_cell():
    maze = Maze.from_edges(2, 2, [0, 1], [1, 3], goals=[(1, 1)])     # L-shape, (1,0) closed
    grid = widen(maze, corridor=1, wall=1)
    # (1,3) -> (3,3) passing the corner: a sample jump (1,2) -> (2,3) must go via (1,3)
    xy = grid.cells_to_world(np.array([[1, 1], [1, 2], [2, 3], [3, 3]]))
    rec = from_trajectory(SimpleNamespace(t=[0, 1, 2, 3], poses=np.c_[xy, np.zeros(4)]), grid)
    assert rec.positions.tolist() == [[1, 1], [1, 2], [1, 3], [2, 3], [3, 3]]
    with pytest.raises(ParameterError, match="poses"):
        from_trajectory(SimpleNamespace(t=[], poses=np.zeros((0, 3))), grid)
    with pytest.raises(ParameterError, match="one time per pose"):
        from_trajectory(SimpleNamespace(t=[0.0], poses=np.zeros((2, 3))), grid)


# ------------------------------------------------------------------ bad files
def _lines():
    return dumps(_game_record()).splitlines()


def _write(tmp_path, lines, newline=True):
    p = tmp_path / "bad.jsonl"
    p.write_text("\n".join(lines) + ("\n" if newline else ""))
    return p


def _err(p):
    with pytest.raises(RecordFormatError) as info:
        read_record(p)
    return str(info.value)


def test_truncated_without_end_line_names_last_line(tmp_path):
    lines = _lines()
    p = _write(tmp_path, lines[:5])
    msg = _err(p)
    assert msg.startswith(f"{p}:5: truncated record")


def test_truncated_mid_line_names_that_line(tmp_path):
    lines = _lines()
    cut = lines[:4] + [lines[4][: len(lines[4]) // 2]]
    p = _write(tmp_path, cut, newline=False)
    msg = _err(p)
    assert f"{p}:5: malformed JSON" in msg and "truncated" in msg


@pytest.mark.parametrize("line, edit, needle", [
    (1, lambda d: d.update(format="other"), "'format' must be"),
    (1, lambda d: d.update(version=7), "'version'"),
    (1, lambda d: d.update(level="pixel"), "'level'"),
    (1, lambda d: d.update(walker={"kind": "cat"}), "'walker'"),
    (1, lambda d: d.update(start=[9, 9]), "outside"),
    (1, lambda d: d.pop("maze"), "needs 'maze'"),
    (3, lambda d: d.pop("heading"), "lacks heading"),
    (3, lambda d: d.update(move="jump"), "'move' must be one of"),
    (3, lambda d: d.update(row=0, col=3), "jumps from"),
    (3, lambda d: d.update(t=-1), "'t' must be"),
    (3, lambda d: d.update(row="0"), "integers"),
    (2, lambda d: d.update(row=0, col=1), "a bump leaves the position unchanged"),
    (-1, lambda d: d.update(moves=99), "end line says 99 moves"),
    (-1, lambda d: d.update(col=0), "end position"),
    (-1, lambda d: d.update(reached_goal="yes"), "'reached_goal'"),
])
def test_bad_lines_are_named(tmp_path, line, edit, needle):
    lines = _lines()
    i = line - 1 if line > 0 else len(lines) - 1
    d = json.loads(lines[i])
    edit(d)
    lines[i] = json.dumps(d)
    p = _write(tmp_path, lines)
    msg = _err(p)
    assert msg.startswith(f"{p}:{i + 1}: "), msg
    assert needle in msg


def test_other_structural_errors(tmp_path):
    lines = _lines()
    assert ":1: empty record" in _err(_write(tmp_path, [], newline=False))
    assert ":3: blank line" in _err(_write(tmp_path, lines[:2] + [""] + lines[2:]))
    assert f":{len(lines)}: end line is followed" in _err(_write(tmp_path, lines + [lines[1]]))
    assert ":2: expected a JSON object" in _err(_write(tmp_path, [lines[0], "[1, 2]"]))
    p = tmp_path / "bin.jsonl"
    p.write_bytes(b"\xff\xfe\x00")
    assert "not UTF-8" in _err(p)


def test_grid_record_from_reference_only():
    import robomaze.generate as gen
    maze = gen.generate("prim", 4, 4, rng=5)
    grid = widen(maze, corridor=3, wall=1)
    src = {"generator": "prim", "size": [4, 4], "seed": 5, "braid": 0.0,
           "placement": "corners", "corridor": 3, "wall": 1}
    rec = TraversalRecord.from_cells(grid, [grid.maze_centre(maze.start)], source=src)
    lines = dumps(rec).splitlines()
    head = json.loads(lines[0])
    head["maze"] = None
    head["grid"] = {"resolution": 1.0, "origin": [0, 0, 0]}   # widening from the reference
    back = loads("\n".join([json.dumps(head)] + lines[1:]) + "\n")
    assert back.grid == grid and back.grid.widening == grid.widening and back.maze == maze
