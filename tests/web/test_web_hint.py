"""Hints in the browser game: what the server answers, what it records."""

import json

import numpy as np
import pytest

from robomaze.grid import widen
from robomaze.maze import Maze
from robomaze.traverse import read_record, score
from robomaze.web import PlaySession
from web_helpers import SNAKE, SNAKE_ACTIONS, SNAKE_ROUTE, ServerThread, get_json

BIG = Maze.from_edges(4, 4, [0, 1, 2, 1, 5, 6, 7, 5, 9, 10, 9, 13, 14, 12, 8],
                      [1, 2, 3, 5, 6, 7, 11, 9, 10, 11, 13, 14, 15, 13, 12],
                      start=(0, 0), goals=[(3, 3)])


def _pic(cells):
    return [[2 * r + 1, 2 * c + 1] for r, c in cells]


@pytest.mark.parametrize("mode", ["explorer", "torch", "trail", "theseus"])
def test_a_hint_reveals_only_the_hinted_cells(tmp_path, mode):
    s = PlaySession(lambda i: (SNAKE, None), tmp_path, mode=mode, clock=lambda: 0.0)
    s.act("E", 0.5)
    before = s.state()
    st = s.hint(1.0)
    # the hint: the next five cells of the snake, in picture coordinates
    assert st["hint"] == _pic(SNAKE_ROUTE[2:7])
    # nothing else changes in what the page learns: no square, no trail step
    assert st["delta"] and st["base"] == before["seq"]
    assert st["squares"] == [] and st["trail_add"] == [] and \
        st["trail_keep"] == len(before["trail"])
    assert "picture" not in st
    assert s.state()["walls"] == before["walls"]
    same = ("position", "heading", "moves", "bumps", "mode", "finished")
    assert {k: st[k] for k in same} == {k: before[k] for k in same}
    assert st["hints"] == before["hints"] + 1 == 1
    json.dumps(st, allow_nan=False)


def test_hints_go_to_the_record_and_the_finish_score(tmp_path):
    s = PlaySession(lambda i: (SNAKE, None), tmp_path, clock=lambda: 0.0)
    s.hint(0.2)
    path = tmp_path / "walk-001.jsonl"
    assert read_record(path).n_hints == 1   # on disk at once, a valid record
    for i, a in enumerate(SNAKE_ACTIONS):
        s.act(a, 0.5 + i)
        if i == 3:
            s.hint(4.0)
    st = s.state()
    assert st["finished"] and st["score"]["summary"]["hints"] == 2
    rec = read_record(path)
    assert [(e.t, e.event, e.row, e.col) for e in rec.events] == \
        [(0.2, "hint", 0, 0), (4.0, "hint", 1, 1)]
    assert score(rec).summary["hints"] == 2 and score(rec).summary["extra_moves"] == 0
    assert s.hint(9.0)["hint"] == [] and read_record(path).n_hints == 2  # finished: ignored
    assert st["record"]["hints"] == 2 and s.shelf.listing()[0]["hints"] == 2
    from robomaze.web.session import record_payload
    assert record_payload(s.shelf.record(0))["summary"]["hints"] == 2


def test_hint_on_a_widened_grid_points_at_block_centres(tmp_path):
    grid = widen(BIG, corridor=3, wall=1)
    s = PlaySession(lambda i: (grid, None), tmp_path, clock=lambda: 0.0)
    st = s.hint(0.1)
    route = [tuple(p) for p in score(read_record(tmp_path / "walk-001.jsonl")).route]
    assert st["hint"] == [list(grid.maze_centre(c)) for c in route[1:6]]
    assert all(not grid.occupied[r, c] for r, c in st["hint"])


def test_hint_endpoint_and_its_bad_bodies(tmp_path):
    s = PlaySession(lambda i: (SNAKE, None), tmp_path, mode="explorer", clock=lambda: 0.0)
    srv = ServerThread(s)
    try:
        status, st = get_json(srv.url + "api/hint", {"t": 0.5})
        assert status == 200 and st["hint"] == _pic(SNAKE_ROUTE[1:6]) and st["hints"] == 1
        for bad in ({"t": "soon"}, {"t": -1}, {"action": "H"}):
            status, err = get_json(srv.url + "api/hint", bad)
            assert status == 400 and "t" in err["error"]
        assert s.game.hints == 1 and s.game.moves == 0
    finally:
        srv.stop()
