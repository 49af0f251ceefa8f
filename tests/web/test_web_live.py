"""PlaySession for people: records written move by move, the player's own
times, undo, queued keys, only what the player may see, tabs, named mazes."""

import json
from pathlib import Path

import numpy as np
import pytest

from robomaze.errors import ParameterError
from robomaze.maze import Maze
from robomaze.traverse import read_record, score
from robomaze.web import PlaySession
from robomaze.web.session import ElsewhereError
from web_helpers import SNAKE, SNAKE_ACTIONS, SNAKE_ROUTE, PageView, ServerThread, get_json


def _session(tmp_path, **kw):
    return PlaySession(lambda i: (SNAKE, None), tmp_path / "walks", clock=lambda: 100.0, **kw)


def test_every_move_is_on_disk_as_a_complete_unfinished_record(tmp_path):
    s = _session(tmp_path)
    path = tmp_path / "walks" / "walk-001.jsonl"
    assert not path.exists()  # nothing is written before the first move
    for i, a in enumerate(SNAKE_ACTIONS, 1):
        s.act(a, t=0.5 * i)
        rec = read_record(path)  # valid after every move, as a killed server leaves it
        assert rec.positions.tolist() == [list(c) for c in SNAKE_ROUTE[:i + 1]]
        assert rec.reached_goal == (i == len(SNAKE_ACTIONS))
        assert rec.duration == 0.5 * i
    assert score(rec).summary["extra_moves"] == 0


def test_an_abandoned_walk_keeps_its_moves_and_a_bump(tmp_path):
    s = _session(tmp_path)
    s.act("E", t=1.0)
    s.act("N", t=2.0)  # a bump
    s.new_walk(advance=True)
    rec = read_record(tmp_path / "walks" / "walk-001.jsonl")
    assert [(st.move, st.bump) for st in rec.steps] == [("E", False), ("N", True)]
    assert not rec.reached_goal and rec.duration == 2.0
    assert s.shelf.listing()[0]["bumps"] == 1


def test_the_record_holds_the_players_times_not_arrival_times(tmp_path):
    s = _session(tmp_path)  # the server clock says 100 s all along
    times = [0.0, 0.25, 0.3, 1.0, 1.0, 2.5, 2.75, 3.0]
    for a, t in zip(SNAKE_ACTIONS, times):
        s.act(a, t=t)
    rec = read_record(tmp_path / "walks" / "walk-001.jsonl")
    assert rec.times.tolist() == [0.0] + times and rec.duration == 3.0
    # a time running backwards (a clock jump) is held at the previous one
    s2 = _session(tmp_path / "b")
    s2.act("E", t=2.0)
    s2.act("E", t=1.0)
    assert [st.t for st in s2.game.steps] == [2.0, 2.0]
    with pytest.raises(ParameterError, match="t must be"):
        s2.act("S", t=float("nan"))


def test_undo_is_a_move_in_the_record_and_the_score(tmp_path):
    s = _session(tmp_path)
    out = [s.act(a)["outcome"] for a in ["E", "U", "U"]]
    assert out == ["moved", "undone", "ignored"]
    assert s.state()["moves"] == 2 and s.game.position == (0, 0)
    for a in SNAKE_ACTIONS:
        s.act(a)
    rec = read_record(tmp_path / "walks" / "walk-001.jsonl")
    assert [st.move for st in rec.steps][:2] == ["E", "W"]
    # optimal 8; the step and its undo are 2 extra moves
    assert score(rec).summary["moves"] == 10 and score(rec).summary["extra_moves"] == 2


def test_undo_with_robot_controls_restores_the_heading(tmp_path):
    s = _session(tmp_path, controls="robot")
    s.act("F")      # east to (0, 1)
    s.act("R")      # face south
    assert s.game.heading == 270.0
    s.act("U")      # undo the turn: a left turn
    assert s.game.heading == 0.0
    s.act("U")      # undo the step: back west, still facing east
    assert s.game.position == (0, 0) and s.game.heading == 0.0
    assert [st.move for st in s.game.steps] == ["F", "R", "L", "W"]


def test_queued_keys_in_one_request(tmp_path):
    s = _session(tmp_path)
    out = s.act_many([[a, 0.1 * i] for i, a in enumerate(SNAKE_ACTIONS)])
    assert out["outcomes"] == ["moved"] * 7 + ["goal"] and out["finished"]


def _visited_blocks(trail, shape):
    ok = np.zeros(shape, bool)
    for r, c in trail:  # picture coordinates of visited cells: their 3x3 block
        ok[r - 1:r + 2, c - 1:c + 2] = True
    return ok


@pytest.mark.parametrize("mode", ["explorer", "torch", "trail", "theseus"])
def test_hidden_modes_send_only_what_the_player_sees(tmp_path, mode):
    big = Maze.from_edges(3, 3, [0, 1, 2, 5, 4, 3, 6, 7], [1, 2, 5, 4, 3, 6, 7, 8],
                          start=(0, 0), goals=[(2, 2)])
    s = PlaySession(lambda i: (big, None), tmp_path, mode=mode)
    st = s.state(full=True)
    assert st["picture"]["walls"] is None
    view = PageView(st)
    truth = [list(r) for r in s.picture["walls"]]
    for a in SNAKE_ACTIONS[:-1]:
        st = view.update(s.act(a))
        assert "picture" not in st and st["delta"]
        st = {"walls": view.walls, "trail": view.trail}
        known = np.array([[ch != "?" for ch in row] for row in st["walls"]])
        assert np.array_equal(known, s.game.picture_visible())
        for i, row in enumerate(st["walls"]):  # what is sent is the truth
            assert all(ch in ("?", truth[i][j]) for j, ch in enumerate(row))
        if mode == "explorer":
            assert not (known & ~_visited_blocks(st["trail"], known.shape)).any()
    st = s.act(SNAKE_ACTIONS[-1])
    assert st["finished"] and st["picture"]["walls"] == s.picture["walls"]
    assert "walls" not in st  # the fog is off at the finish
    json.dumps(st, allow_nan=False)


def test_a_second_tab_takes_the_game_and_the_first_is_told(tmp_path):
    s = _session(tmp_path)
    srv = ServerThread(s)
    try:
        assert get_json(srv.url + "api/state?tab=tabA")[0] == 200
        assert get_json(srv.url + "api/move", {"action": "E", "tab": "tabA"})[0] == 200
        assert get_json(srv.url + "api/state?tab=tabB")[0] == 200
        status, data = get_json(srv.url + "api/move", {"action": "E", "tab": "tabA"})
        assert status == 409 and data["elsewhere"] and s.game.moves == 1
        status, data = get_json(srv.url + "api/new", {"next": True, "tab": "tabA"})
        assert status == 409 and s.walk == 0
        status, st = get_json(srv.url + "api/move", {"action": "E", "tab": "tabB"})
        assert status == 200 and st["moves"] == 2
    finally:
        srv.stop()
    with pytest.raises(ElsewhereError):
        s.check_tab("tabA")


@pytest.mark.parametrize("body", [
    {"moves": [["E", 0.1]] * 65}, {"moves": []}, {"moves": [["E", -1]]},
    {"moves": [["E"]]}, {"action": "E", "moves": [["E", 0]]}, {"action": "E", "t": "1"},
    {"action": "E", "tab": "../x"}, {"action": "E", "t": True},
])
def test_bad_move_batches_are_refused(tmp_path, body):
    s = _session(tmp_path)
    srv = ServerThread(s)
    try:
        assert get_json(srv.url + "api/move", body)[0] == 400
        assert s.game.moves == 0
    finally:
        srv.stop()


def test_a_named_maze_and_next_is_the_next_seed(tmp_path):
    calls = []

    def maker(spec):
        gen, (rows, cols), seed = spec["gen"], spec["size"], spec["seed"]
        calls.append((gen, rows, cols, seed))
        return Maze.empty(rows, cols, start=(0, 0), goals=[(rows - 1, cols - 1)]), \
            {"generator": gen, "size": [rows, cols], "seed": seed}

    s = PlaySession(lambda i: pytest.fail("worlds() is not used with a spec"), tmp_path,
                    maker=maker, spec={"gen": "kruskal", "size": [3, 4], "seed": 9},
                    generators=["kruskal", "wilson"])
    assert calls == [("kruskal", 3, 4, 9)]
    st = s.new_walk(gen="wilson", size="5x6", seed=5, mode="torch")
    assert calls[-1] == ("wilson", 5, 6, 5)
    assert st["spec"] == {"gen": "wilson", "size": [5, 6], "seed": 5, "braid": 0.0,
                          "placement": "corners", "corridor": None, "wall": None}
    assert st["world"]["generator"] == "wilson" and st["world"]["seed"] == 5
    assert st["mode"] == "torch"
    s.new_walk(advance=True)
    assert calls[-1] == ("wilson", 5, 6, 6)
    s.new_walk(advance=False)  # the same maze again
    assert calls[-1] == ("wilson", 5, 6, 6) and len(calls) == 3
    for bad in ("5", "0x3", "3x999", "axb"):
        with pytest.raises(ParameterError, match="size|rows|cols"):
            s.new_walk(size=bad)
    with pytest.raises(ParameterError, match="one maze file"):
        _session(tmp_path / "f").new_walk(gen="wilson", size="4x4", seed=1)


def test_a_refused_new_maze_leaves_the_walk_in_progress(tmp_path):
    def maker(spec):
        return SNAKE, {"generator": spec["gen"], "size": spec["size"], "seed": spec["seed"]}

    s = PlaySession(None, tmp_path, maker=maker, spec={"gen": "ok", "size": [3, 3], "seed": 1},
                    generators=["ok"])
    s.act("E")
    for bad in ({"gen": "nosuch"}, {"mode": "dark"}, {"radius": 99}, {"controls": "mouse"}):
        with pytest.raises(ParameterError):
            s.new_walk(**bad)
        assert s.game.moves == 1 and s.saved is None and s.spec["gen"] == "ok"
        assert s.mode == "full" and s.walk == 0
    s.act("E")   # the walk goes on, in the same record
    s.new_walk(advance=True)
    rec = read_record(tmp_path / "walk-001.jsonl")
    assert rec.n_moves == 2 and s.spec["seed"] == 2


def test_the_pages_largest_batch_fits_the_body_limit(tmp_path):
    # play.js sends at most 40 queued moves per request
    s = _session(tmp_path)
    srv = ServerThread(s)
    try:
        body = {"moves": [["N", 86399.999]] * 40, "tab": "f" * 18}
        status, st = get_json(srv.url + "api/move", body)
        assert status == 200 and st["bumps"] == 40 and len(st["outcomes"]) == 40
    finally:
        srv.stop()
    play_js = Path(__file__).parents[2] / "robomaze" / "web" / "static" / "play.js"
    assert "queue.splice(0, 40)" in play_js.read_text()
