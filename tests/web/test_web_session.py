"""PlaySession: the server-side game of the browser pages, its records and payloads."""

import json

import numpy as np
import pytest

from robomaze.errors import ParameterError
from robomaze.grid import widen
from robomaze.maze import Maze
from robomaze.traverse import MODES, read_record, score
from robomaze.web import PlaySession, picture_of, record_payload
from web_helpers import SNAKE, SNAKE_ACTIONS, SNAKE_ROUTE, PageView


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def _session(tmp_path, world=SNAKE, **kw):
    calls = []

    def worlds(i):
        calls.append(i)
        return world, {"generator": "hand", "walk": i}
    s = PlaySession(worlds, tmp_path / "walks", clock=Clock(), **kw)
    return s, calls


@pytest.mark.parametrize("mode", MODES)
def test_walk_to_goal_in_each_mode_writes_the_record_and_scores_it(tmp_path, mode):
    s, _ = _session(tmp_path, mode=mode)
    outcomes = []
    for i, a in enumerate(SNAKE_ACTIONS, 1):
        s.clock.now = 2.0 * i
        outcomes.append(s.act(a)["outcome"])
    assert outcomes == ["moved"] * 7 + ["goal"]
    path = tmp_path / "walks" / "walk-001.jsonl"
    rec = read_record(path)
    assert rec.positions.tolist() == [list(c) for c in SNAKE_ROUTE]
    assert rec.reached_goal and rec.walker["settings"]["mode"] == mode
    # the clock started at the first action (t=2), so the walk took 14 s
    assert rec.duration == 14.0 and rec.times[-1] == 14.0
    st = s.state()
    assert st["finished"] and st["record"]["name"] == "walk-001.jsonl"
    assert st["score"]["summary"] == score(rec).summary
    assert st["score"]["summary"]["extra_moves"] == 0
    assert st["position"] == [5, 5]  # cell (2, 2) on the 7x7 wall matrix
    json.dumps(st, allow_nan=False)  # what the server sends must be strict JSON


def test_visible_strings_are_the_games_picture_mask(tmp_path):
    s, _ = _session(tmp_path, mode="explorer")
    s.act("E")
    vis = np.array([[ch == "1" for ch in row] for row in s.state()["visible"]])
    assert np.array_equal(vis, s.game.picture_visible())
    # explorer after (0,0) -> (0,1): matrix columns 0..4 of rows 0..2 only
    expect = np.zeros((7, 7), bool)
    expect[0:3, 0:5] = True
    assert np.array_equal(vis, expect)
    full, _ = _session(tmp_path / "b", mode="full")
    assert full.state()["visible"] is None


def test_theseus_trail_is_the_thread(tmp_path):
    s, _ = _session(tmp_path, mode="theseus")
    view = PageView(s.state(full=True))
    for a in "EEW":
        view.update(s.act(a))
    assert view.trail == [[1, 1], [1, 3]]            # the thread wound back: a cut trail
    t, _ = _session(tmp_path / "t", mode="trail")
    view = PageView(t.state(full=True))
    for a in "EEW":
        view.update(t.act(a))
    assert view.trail == [[1, 1], [1, 3], [1, 5], [1, 3]]
    assert view.trail == t.state()["trail"]


def test_next_maze_advances_and_same_maze_repeats_and_unfinished_walks_are_saved(tmp_path):
    s, calls = _session(tmp_path)
    s.act("E")
    s.new_walk(advance=False, mode="torch", radius=2)
    assert calls == [0] and s.walk == 0 and s.game.mode == "torch" and s.game.radius == 2
    abandoned = read_record(tmp_path / "walks" / "walk-001.jsonl")
    assert not abandoned.reached_goal and abandoned.n_moves == 1
    st = s.new_walk(advance=True)  # nothing walked: nothing saved
    assert calls == [0, 1] and st["walk"] == 2 and "picture" in st
    assert len(s.shelf) == 1 and st["mode"] == "torch"
    assert sorted(p.name for p in (tmp_path / "walks").iterdir()) == ["walk-001.jsonl"]


def test_existing_records_are_never_overwritten(tmp_path):
    (tmp_path / "walks").mkdir()
    (tmp_path / "walks" / "walk-001.jsonl").write_text("keep me")
    s, _ = _session(tmp_path)
    for a in SNAKE_ACTIONS:
        s.act(a)
    assert (tmp_path / "walks" / "walk-001.jsonl").read_text() == "keep me"
    assert read_record(tmp_path / "walks" / "walk-002.jsonl").reached_goal


def test_bad_input_is_refused(tmp_path):
    s, _ = _session(tmp_path)
    with pytest.raises(ParameterError, match="action"):
        s.act("X")
    with pytest.raises(ParameterError, match="mode"):
        s.new_walk(mode="dark")
    with pytest.raises(ParameterError, match="radius"):
        s.new_walk(radius=10_000)
    assert s.game.moves == 0


def test_picture_of_a_widened_grid_places_cells_on_blocks():
    grid = widen(SNAKE, corridor=3, wall=1)
    p = picture_of(grid)
    assert (p["rows"], p["cols"]) == grid.shape
    assert p["cell"] == {"scale": 4, "offset": 1, "size": 3} and p["pos"]["scale"] == 1
    occ = np.array([[ch == "#" for ch in row] for row in p["walls"]])
    assert np.array_equal(occ, grid.occupied)


def test_record_payload_route_is_the_mazes_solution(tmp_path):
    maze = Maze.from_edges(1, 4, [0, 1, 2], [1, 2, 3], start=(0, 1), goals=[(0, 3)])
    s, _ = _session(tmp_path, world=maze)
    for a in "WEEE":
        s.act(a)
    pay = record_payload(s.shelf.record(0))
    # the maze's own solver is the reference: (0,1) (0,2) (0,3) -> squares 2c+1
    assert pay["route"] == [[1, 2 * c + 1] for _, c in maze.solution()]
    assert [st["pos"] for st in pay["steps"]] == [[1, 1], [1, 3], [1, 5], [1, 7]]
    assert pay["start"] == [1, 3] and pay["summary"]["extra_moves"] == 2
    json.dumps(pay, allow_nan=False)


def test_grid_level_session_on_a_widened_maze(tmp_path):
    grid = widen(SNAKE, corridor=1, wall=1)
    s, _ = _session(tmp_path, world=grid, mode="explorer")
    route = [grid.maze_centre(c) for c in SNAKE_ROUTE]
    # walk the grid: two grid steps per maze step at pitch 2
    for (r0, c0), (r1, c1) in zip(route, route[1:]):
        a = {(0, 1): "E", (0, -1): "W", (1, 0): "S", (-1, 0): "N"}[
            (int(np.sign(r1 - r0)), int(np.sign(c1 - c0)))]
        s.act(a), s.act(a)
    assert s.state()["finished"]
    pay = record_payload(s.shelf.record(0))
    assert pay["route"] == [list(c) for c in route]
    assert s.state()["score"]["summary"]["extra_moves"] == 0
