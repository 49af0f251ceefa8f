"""The contest program's rule: entry at a random left-border cell, exit = the first
right-border cell the depth-first solver reaches."""

import sys

import numpy as np
import pytest

from robomaze.cli import main
from robomaze.errors import ParameterError
from robomaze.generate import generate, place
from robomaze.generate.placement import contest_exit
from robomaze.maze import Maze

ORDER = [(-1, 0, "N"), (0, 1, "E"), (1, 0, "S"), (0, -1, "W")]


def reference_exit(maze, start):
    """Recursive DFS written out independently: the first right-border cell entered."""
    sys.setrecursionlimit(10_000)
    seen = {start}

    def go(cell):
        if cell[1] == maze.cols - 1:
            return cell
        for dr, dc, side in ORDER:
            nxt = (cell[0] + dr, cell[1] + dc)
            if 0 <= nxt[0] < maze.rows and 0 <= nxt[1] < maze.cols and nxt not in seen \
                    and not maze.wall(cell, side):
                seen.add(nxt)
                found = go(nxt)
                if found:
                    return found
        return None
    return go(start)


def test_hand_case_exit_is_the_dfs_one_not_the_nearest():
    # open 3x3 from (1,0): DFS goes north first, then east along row 0 -> (0,2),
    # although (1,2) is nearer (2 moves against 3)
    assert contest_exit(Maze.empty(3, 3), (1, 0)) == (0, 2)
    # walls north of (1,0) and (1,1) send the DFS east along row 1
    m = Maze.empty(3, 3)
    east, south = m.east.copy(), m.south.copy()
    south[0, 0] = south[0, 1] = True
    assert contest_exit(Maze(east, south), (1, 0)) == (1, 2)


@pytest.mark.parametrize("gen", ["backtracker", "kruskal", "prim"])
def test_contest_placement_matches_the_reference_dfs(gen):
    for seed in range(12):
        m = generate(gen, 7, 9, rng=seed, braid=0.3 if seed % 2 else 0.0,
                     placement="contest")
        assert m.start[1] == 0 and len(m.goals) == 1 and m.goals[0][1] == 8
        assert m.goals[0] == reference_exit(m, m.start)
        assert set(m.openings) == {(m.start[0], 0, "W"), (m.goals[0][0], 8, "E")}
        assert m.solution() is not None


def test_contest_start_row_is_uniform_over_seeds():
    rows = [generate("kruskal", 5, 5, rng=s, placement="contest").start[0] for s in range(500)]
    counts = np.bincount(rows, minlength=5)
    # chi-square with 4 degrees of freedom; 18.47 is the 0.1% critical value
    chi2 = ((counts - 100) ** 2 / 100).sum()
    assert chi2 < 18.47, counts


def test_contest_placement_same_seed_same_maze():
    a = generate("backtracker", 8, 8, rng=4, placement="contest")
    b = generate("backtracker", 8, 8, rng=4, placement="contest")
    assert a == b and a.start == b.start and a.goals == b.goals


def test_unreachable_right_border_is_an_error():
    with pytest.raises(ParameterError, match="right border"):
        place(Maze.full(3, 3), "contest", rng=1)


def test_contest_from_the_cli_drawn_with_the_solution(tmp_path, capsys):
    out = tmp_path / "c.json"
    assert main(["generate", "backtracker", "10x10", "--seed", "4", "--placement", "contest",
                 "-o", str(out)]) == 0
    assert "placement=contest" in capsys.readouterr().out
    png = tmp_path / "c.png"
    assert main(["render", str(out), "-o", str(png), "--solution", "--cell-px", "10"]) == 0
    assert png.stat().st_size > 0
