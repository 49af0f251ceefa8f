"""Micromouse text, mms .num and JSON mazes: hand-checked samples, round trips."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robomaze.errors import ParameterError
from robomaze.io import (cell_to_mm, centre_goals, format_micromouse, mm_to_cell,
                         parse_micromouse, read_maze, read_micromouse, read_num, write_maze)
from robomaze.io.maze_json import maze_from_json, maze_to_json
from robomaze.io.mms_num import format_num, parse_num
from robomaze.maze import Maze

DATA = Path(__file__).resolve().parents[1] / "data"
MM = DATA / "micromouse"


def _need(path):
    if not path.exists():
        pytest.fail(f"sample data {path} not present")
    return path


def _route_turns(route):
    d = [(b[0] - a[0], b[1] - a[1]) for a, b in zip(route[:-1], route[1:])]
    return sum(1 for a, b in zip(d[:-1], d[1:]) if a != b)


def test_tiny_4x4_by_hand():
    m = read_micromouse(_need(MM / "tiny-4x4.txt"))
    assert m.shape == (4, 4)
    # S is micromouse (0, 0), the south-west cell = robomaze (3, 0);
    # G is micromouse (1, 2) = robomaze (4-1-2, 1) = (1, 1).
    assert m.start == (3, 0) == mm_to_cell(0, 0, 4)
    assert m.goals == ((1, 1),) and cell_to_mm((1, 1), 4) == (1, 2)
    # Walls read off the text by hand.
    assert m.wall((0, 1), "E")          # '|' at column 8 of line 2
    assert not m.wall((0, 0), "E")
    assert m.wall((0, 1), "S")          # '---' under cell (0, 1)
    assert m.wall((1, 0), "E")          # '|   | G' : wall west of G
    assert not m.wall((3, 0), "E")      # '| S      ' : open to the east
    assert m.wall((2, 0), "S")          # 'o---o---o   o' first gap
    assert not m.wall((2, 2), "S")
    # The README's figures: 9 moves, 4 turns, no loops.
    route = m.solution()
    assert len(route) - 1 == 9 == m.solution_length()
    assert _route_turns(route) == 4
    assert m.is_perfect()


def test_all_sample_mazes_load_strictly_and_round_trip():
    files = sorted(_need(MM).glob("*.maze"))
    assert len(files) == 80
    for f in files:
        p = parse_micromouse(f.read_text(), path=f, strict=True)
        m = p.maze
        assert m.rows == m.cols and m.rows in (4, 8, 9, 16, 21, 32, 64)
        assert m.start == (m.rows - 1, 0)
        assert m.goals and not m.openings
        text = format_micromouse(m, post="+", unknown_east=p.unknown_east,
                                 unknown_south=p.unknown_south)
        q = parse_micromouse(text, strict=True)
        assert q.maze == m
        assert np.array_equal(q.unknown_east, p.unknown_east)
        assert np.array_equal(q.unknown_south, p.unknown_south)


def test_sample_text_is_reproduced_byte_for_byte():
    # A file with '+' posts, no unknown marks: writing it back gives the same text.
    f = _need(MM / "16MM2019CX.maze")
    m = read_micromouse(f)
    assert format_micromouse(m, post="+") == f.read_text().replace("\r\n", "\n")


def test_unknown_walls_policy():
    f = _need(MM / "32_unknown.maze")
    walls = read_micromouse(f)
    opened = read_micromouse(f, unknown="open")
    assert walls.solution_length() is None          # unknown read as wall: sealed
    assert opened.solution_length() is not None     # unknown read as open: reachable
    assert walls.east.sum() > opened.east.sum()
    with pytest.raises(ParameterError):
        read_micromouse(f, unknown="maybe")


def test_crlf_trailing_blank_lines_and_o_posts():
    text = "o---o---o\r\n| G     |\r\no   o---o\r\n| S     |\r\no---o---o\r\n\r\n\r\n"
    m = parse_micromouse(text).maze
    assert m.shape == (2, 2) and m.start == (1, 0) and m.goals == ((0, 0),)
    assert m.wall((0, 1), "S") and not m.wall((0, 0), "S")


def test_other_characters_at_wall_positions_are_walls():
    text = "o---o---o\n|   X   |\no   o*##o\n|       |\no---o---o\n"
    m = parse_micromouse(text).maze
    assert m.wall((0, 0), "E") and m.wall((0, 1), "S") and not m.wall((0, 0), "S")


def test_default_goals_are_the_centre():
    assert centre_goals(16, 16) == ((7, 7), (7, 8), (8, 7), (8, 8))
    assert centre_goals(9, 9) == ((4, 4),)
    text = "o---o---o---o---o\n" + ("|               |\no   o   o   o   o\n" * 3) + \
        "|               |\no---o---o---o---o\n"
    m = parse_micromouse(text).maze
    assert set(m.goals) == {(1, 1), (1, 2), (2, 1), (2, 2)}
    assert m.start == (3, 0)


def test_open_boundary_becomes_an_opening():
    text = "o   o---o\n|       |\no---o---o\n"
    m = parse_micromouse(text).maze
    assert m.openings == ((0, 0, "N"),)
    assert parse_micromouse(format_micromouse(m)).maze == m


def test_mms_num_readme_example():
    # The mms README's .num example and the 3x2 maze it draws:
    #   +---+---+---+
    #   |       |   |
    #   +   +   +   +
    #   |   |       |
    #   +---+---+---+
    text = ("0 0 0 1 1 1\n0 1 1 0 0 1\n1 0 0 0 1 1\n1 1 1 1 0 0\n"
            "2 0 0 1 1 0\n2 1 1 1 0 1\n")
    m = parse_num(text, strict=True)
    drawn = parse_micromouse("+---+---+---+\n|       |   |\n+   +   +   +\n"
                             "|   |       |\n+---+---+---+\n").maze
    assert m.shape == (2, 3)
    assert np.array_equal(m.east, drawn.east) and np.array_equal(m.south, drawn.south)
    assert parse_num(format_num(m), strict=True) == m


def test_num_agrees_with_text_on_a_real_maze(tmp_path):
    m = read_micromouse(_need(MM / "16MM2017CX.maze"))
    write_maze(m, tmp_path / "m.num")
    back = read_num(tmp_path / "m.num", strict=True)
    assert np.array_equal(back.east, m.east) and np.array_equal(back.south, m.south)
    assert back.start == m.start and set(back.goals) == set(m.goals)


def _random_maze(data, rows, cols):
    n = rows * cols
    east = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    south = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    cells = st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1))
    start = data.draw(cells)
    goals = [g for g in data.draw(st.lists(cells, min_size=1, max_size=4)) if g != start]
    openings = []
    if data.draw(st.booleans()):
        openings.append((0, data.draw(st.integers(0, cols - 1)), "N"))
    if data.draw(st.booleans()):
        openings.append((data.draw(st.integers(0, rows - 1)), cols - 1, "E"))
    return Maze(east.reshape(rows, cols), south.reshape(rows, cols), start=start,
                goals=goals, openings=openings)


@settings(deadline=None, max_examples=40)
@given(st.data(), st.integers(1, 6), st.integers(1, 6))
def test_round_trips_text_num_json(data, rows, cols):
    m = _random_maze(data, rows, cols)
    assert maze_from_json(maze_to_json(m)) == m
    back = parse_num(format_num(m), strict=True)
    assert np.array_equal(back.east, m.east) and np.array_equal(back.south, m.south)
    assert set(back.openings) == set(m.openings)
    if m.start in m.goals:          # Maze() defaulted the goal onto the start
        with pytest.raises(ParameterError):
            format_micromouse(m)
        return
    assert parse_micromouse(format_micromouse(m)).maze == m
    assert parse_micromouse(format_micromouse(m, post="+"), strict=True).maze == m


def test_read_maze_by_content(tmp_path):
    m = read_micromouse(_need(MM / "tiny-4x4.txt"))
    # Misleading extensions: dispatch looks at the content.
    for name, fmt in (("a.json", "micromouse"), ("b.maze", "json"), ("c.txt", "num")):
        write_maze(m, tmp_path / name, format=fmt)
        back = read_maze(tmp_path / name)
        assert np.array_equal(back.east, m.east) and np.array_equal(back.south, m.south)
    assert read_maze(tmp_path / "b.maze") == m       # JSON keeps start and goals
    with pytest.raises(ParameterError):
        write_maze(m, tmp_path / "x.unknown")
