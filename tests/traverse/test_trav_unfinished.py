"""An unfinished walk is scored as unfinished (issue 38): no efficiency above 1,
no negative extra moves -- in the library and in ``robomaze score``."""

import json

import numpy as np
import pytest
from scipy.sparse import csgraph

from robomaze.cli import main
from robomaze.maze import Maze
from robomaze.traverse import TraversalRecord, score
from robomaze.traverse.score import score_walk

# a 1x6 corridor: start (0, 0), goal (0, 5); optimal 5
LINE = Maze.from_edges(1, 6, [0, 1, 2, 3, 4], [1, 2, 3, 4, 5], start=(0, 0), goals=[(0, 5)])


@pytest.mark.parametrize("cells, remaining, progress", [
    ([(0, 0), (0, 1), (0, 2)], 3, 2),                          # "extra -3, efficiency 2.5" before
    ([(0, 0), (0, 1), (0, 2), (0, 1)], 4, 2),                  # walked back: progress stays
    ([(0, 0)], 5, 0),
])
def test_unfinished_walks_have_no_extra_or_efficiency(cells, remaining, progress):
    s = score(TraversalRecord.from_cells(LINE, cells)).summary
    assert not s["reached_goal"]
    assert s["extra_moves"] is None and s["efficiency"] is None
    assert (s["remaining"], s["progress"]) == (remaining, progress)


def test_remaining_and_progress_against_csgraph_on_a_random_walk():
    rng = np.random.default_rng(3)
    from robomaze.generate import generate

    m = generate("backtracker", 8, 9, rng=np.random.default_rng(1))
    cur, cells = m.start, [m.start]
    for _ in range(60):
        nb = list(m.neighbors(cur))
        cur = nb[rng.integers(len(nb))]
        cells.append(cur)
        if cur in m.goals:
            cells.pop()
            break
    cols = m.shape[1]
    d = csgraph.shortest_path(m.adjacency(), unweighted=True,
                              indices=[r * cols + c for r, c in m.goals]).min(axis=0)
    walk_d = [int(d[r * cols + c]) for r, c in cells]
    s = score_walk(m, cells).summary
    assert s["remaining"] == walk_d[-1]
    assert s["progress"] == walk_d[0] - min(walk_d)
    # progress moves never exceed the moves made: an efficiency would be <= 1
    assert 0 <= s["progress"] <= s["moves"]


def test_finished_walks_keep_extra_and_efficiency():
    s = score(TraversalRecord.from_cells(LINE, [(0, c) for c in range(6)])).summary
    assert (s["extra_moves"], s["efficiency"], s["remaining"], s["progress"]) == (0, 1.0, 0, 5)


def test_score_cli_on_an_unfinished_walk(tmp_path, capsys):
    path = TraversalRecord.from_cells(LINE, [(0, 0), (0, 1), (0, 2)]).save(tmp_path / "u.jsonl")
    assert main(["score", str(path)]) == 0
    out = capsys.readouterr().out
    assert "did NOT reach the goal" in out
    assert "unfinished: 3 cells from the goal, progress 2 of 5" in out
    assert "efficiency" not in out and "extra -" not in out
    assert main(["score", str(path), "--json", "-"]) == 0
    s = json.loads(capsys.readouterr().out)["summary"]
    assert s["efficiency"] is None and s["extra_moves"] is None
