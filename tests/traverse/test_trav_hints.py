"""Hints: the route they show, how records keep them, how the score counts them."""

import json
from collections import deque
from pathlib import Path

import numpy as np
import pytest

from robomaze.errors import RecordFormatError
from robomaze.grid import widen
from robomaze.maze import DIRECTIONS, Maze
from robomaze.traverse.game import Game
from robomaze.traverse.hint import HINT_CELLS, hint_cells
from robomaze.traverse.record import (RecordWriter, TraversalRecord, dumps, loads,
                                      read_record)
from robomaze.traverse.score import score
from trav_mazes import random_perfect

DATA = Path(__file__).resolve().parents[1] / "data" / "traverse"
SAMPLE = Path(__file__).resolve().parents[2] / "robomaze" / "data" / "samples" / "walks"


def _bfs_route(maze, cell, n):
    """Plain-Python reference: BFS distances from the goals, then downhill,
    ties to the smallest flat index (the score's documented rule)."""
    rows, cols = maze.shape
    dist = {tuple(g): 0 for g in maze.goals}
    queue = deque(dist)
    while queue:
        r, c = queue.popleft()
        for side, (dr, dc) in DIRECTIONS.items():
            nxt = (r + dr, c + dc)
            if 0 <= nxt[0] < rows and 0 <= nxt[1] < cols and not maze.wall((r, c), side) \
                    and nxt not in dist:
                dist[nxt] = dist[(r, c)] + 1
                queue.append(nxt)
    out, cur = [], tuple(cell)
    while dist[cur] > 0 and len(out) < n:
        r, c = cur
        nbrs = [(r + dr, c + dc) for side, (dr, dc) in DIRECTIONS.items()
                if 0 <= r + dr < rows and 0 <= c + dc < cols and not maze.wall((r, c), side)]
        cur = min((p for p in nbrs if dist[p] == dist[cur] - 1), key=lambda p: p[0] * cols + p[1])
        out.append(cur)
    return out


def _braided(rows, cols, seed):
    """A maze with loops (ties between shortest routes): a perfect maze plus open walls."""
    base = random_perfect(rows, cols, seed=seed, start=(0, 0), goals=[(rows - 1, cols - 1)])
    rng = np.random.default_rng(seed)
    a, b = [], []
    for r in range(rows):
        for c in range(cols):
            for side, (dr, dc) in (("E", (0, 1)), ("S", (1, 0))):
                rr, cc = r + dr, c + dc
                if rr < rows and cc < cols and (not base.wall((r, c), side) or rng.random() < .3):
                    a.append(r * cols + c)
                    b.append(rr * cols + cc)
    return Maze.from_edges(rows, cols, a, b, start=(0, 0), goals=[(rows - 1, cols - 1)])


@pytest.mark.parametrize("seed", range(3))
def test_hint_matches_a_plain_bfs_port_on_mazes_with_ties(seed):
    maze = _braided(6, 7, seed)
    for r in range(6):
        for c in range(7):
            for n in (1, HINT_CELLS, 50):
                assert hint_cells(maze, maze.goals, (r, c), n=n) == _bfs_route(maze, (r, c), n)


def test_hint_from_the_start_is_the_head_of_the_score_route():
    maze = _braided(8, 8, 4)
    route = [tuple(p) for p in score(TraversalRecord.from_cells(maze, [maze.start])).route]
    assert hint_cells(maze, maze.goals, maze.start) == route[1:1 + HINT_CELLS]
    # and from any cell on it, the rest of the same route
    for i, cell in enumerate(route):
        assert hint_cells(maze, maze.goals, cell, n=3) == route[i + 1:i + 4]


def test_game_hint_is_recorded_as_an_event_not_a_move(tmp_path):
    maze = random_perfect(5, 5, seed=1, start=(0, 0), goals=[(4, 4)])
    g = Game(maze, clock=lambda: 0.0)
    first = g.hint(0.25)
    assert first == _bfs_route(maze, (0, 0), HINT_CELLS)
    side = next(k for k, (dr, dc) in DIRECTIONS.items() if (dr, dc) == (first[0][0], first[0][1]))
    g.act(side, 0.5)
    g.hint(0.75)
    assert g.moves == 1 and g.hints == 2
    rec = g.record()
    text = dumps(rec)
    lines = [json.loads(x) for x in text.splitlines()]
    assert lines[0]["version"] == 2
    assert [x.get("event") for x in lines[1:-1]] == ["hint", None, "hint"]
    assert lines[1] == {"t": 0.25, "event": "hint", "row": 0, "col": 0}
    assert lines[3]["row"] == first[0][0] and lines[-1]["hints"] == 2
    back = loads(text)
    assert back.n_hints == 2 and back.n_moves == 1 and dumps(back).splitlines()[1:] == \
        text.splitlines()[1:]
    assert score(back).summary["hints"] == 2
    s_plain = score(TraversalRecord.from_cells(maze, back.positions)).summary
    assert {k: v for k, v in score(back).summary.items() if k not in ("hints", "walker", "duration")} == \
        {k: v for k, v in s_plain.items() if k not in ("hints", "walker", "duration")}


def test_hint_at_the_goal_records_nothing():
    g = Game(Maze.from_edges(1, 2, [0], [1]), clock=lambda: 0.0)
    g.act("E")
    assert g.hint() == [] and g.hints == 0


def test_writer_turns_version_1_into_2_and_stays_valid(tmp_path):
    maze = Maze.from_edges(1, 4, [0, 1, 2], [1, 2, 3])
    g = Game(maze, clock=lambda: 0.0)
    path = tmp_path / "w.jsonl"
    w = RecordWriter(path, g.record().header())
    assert json.loads(path.read_text().splitlines()[0])["version"] == 1
    g.act("E", 0.1)
    w.append(g.steps[-1])
    g.hint(0.2)
    w.append_event(g.events[-1])
    rec = read_record(path)   # valid after the event, unfinished
    assert rec.n_hints == 1 and not rec.reached_goal and rec.n_moves == 1
    assert json.loads(path.read_text().splitlines()[0])["version"] == 2
    g.act("E", 0.3)
    w.append(g.steps[-1])
    g.act("E", 0.4)
    w.append(g.steps[-1])
    w.finish(True, 0.4)
    assert path.read_text() == dumps(g.record())


@pytest.mark.parametrize("edit, msg", [
    (lambda ls: ls.__setitem__(0, ls[0].replace('"version":2', '"version":1')),
     "need a version 2 header"),
    (lambda ls: ls.__setitem__(-1, ls[-1].replace('"hints":1', '"hints":3')), "3 hints"),
    (lambda ls: ls.__setitem__(-1, ls[-1].replace('"hints":1', '"hints":true')), "true hints"),
    (lambda ls: ls.__setitem__(2, ls[2].replace('"row":0,"col":1', '"row":0,"col":3')),
     "where the walker is"),
    (lambda ls: ls.__setitem__(2, ls[2].replace('"hint"', '"teleport"')), "'event' must be"),
    (lambda ls: ls.__setitem__(2, ls[2].replace('"t":0.2', '"t":0.05')), "'t' must be"),
])
def test_bad_event_lines_are_one_clear_error(edit, msg):
    g = Game(Maze.from_edges(1, 4, [0, 1, 2], [1, 2, 3]), clock=lambda: 0.0)
    g.act("E", 0.1)
    g.hint(0.2)
    lines = dumps(g.record()).splitlines()
    edit(lines)
    with pytest.raises(RecordFormatError, match=msg):
        loads("\n".join(lines) + "\n", name="r.jsonl")


@pytest.mark.parametrize("record, stored", [
    (SAMPLE / "sample-walk.jsonl", DATA / "sample-walk-score-v1.json"),
    (DATA / "old-grid-walk-v1.jsonl", DATA / "old-grid-walk-score-v1.json"),
])
def test_old_records_score_exactly_as_before_hints(record, stored):
    """The stored scores were made by robomaze before hints existed."""
    before = json.loads(stored.read_text())
    rec = read_record(record)
    now = json.loads(json.dumps(score(rec).to_dict()))
    assert now["summary"].pop("hints") == 0
    # issue 38: an unfinished walk has no extra moves or efficiency any more
    # (it was "extra -20, efficiency 2.67"), and every walk says how far it got
    remaining, progress = now["summary"].pop("remaining"), now["summary"].pop("progress")
    if rec.reached_goal:
        assert remaining == 0 and progress == now["summary"]["optimal"]
    else:
        assert remaining > 0 and 0 <= progress <= now["summary"]["optimal"]
        assert now["summary"]["extra_moves"] is None and now["summary"]["efficiency"] is None
        for k in ("extra_moves", "efficiency"):
            now["summary"].pop(k), before["summary"].pop(k)
    assert now == before
    # an old record written again is the same bytes (still version 1)
    assert dumps(rec).splitlines()[1:] == record.read_text().splitlines()[1:]
    assert json.loads(dumps(rec).splitlines()[0])["version"] == 1


def test_widened_grid_hint_is_in_maze_cells():
    maze = random_perfect(4, 5, seed=2, start=(0, 0), goals=[(3, 4)])
    grid = widen(maze, corridor=3, wall=1)
    g = Game(grid, clock=lambda: 0.0)
    assert g.hint() == _bfs_route(maze, (0, 0), HINT_CELLS)
    assert g.record().events[0][2:4] == g.start


def test_score_command_prints_and_writes_hints(tmp_path, capsys):
    from robomaze.cli import main

    g = Game(Maze.from_edges(1, 4, [0, 1, 2], [1, 2, 3]), clock=lambda: 0.0)
    g.hint(0.1)
    g.act("E", 0.2)
    g.hint(0.3)
    path = g.record().save(tmp_path / "h.jsonl")
    assert main(["score", str(path), "--json", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["summary"]["hints"] == 2
    assert main(["score", str(path)]) == 0
    assert ", hints 2" in capsys.readouterr().out
    assert main(["score", str(SAMPLE / "sample-walk.jsonl")]) == 0
    assert "hints" not in capsys.readouterr().out     # the old text, unchanged
