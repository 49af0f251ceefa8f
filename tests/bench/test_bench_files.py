"""Maze and grid files as sweep sources (sample data beside the repository)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from robomaze.bench import load_sweep, read_rows, run_sweep

DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.fixture(scope="module")
def data():
    if not (DATA / "micromouse" / "tiny-4x4.txt").exists() or not (DATA / "ros" / "room.yaml").exists():
        pytest.fail("sample data missing from tests/data")
    return DATA.resolve()


def test_maze_file_and_grid_file_sources(tmp_path, data):
    (tmp_path / "m.toml").write_text(f"""
[maze]
file = "{(data / 'micromouse' / 'tiny-4x4.txt').as_posix()}"
[widen]
corridor = 1
wall = 1
resolution = 0.1
[robot]
footprint = "disc:0.04"
[run]
planner = "astar"
""")
    # the grid file is named relative to the sweep file, as users write them
    depth = len(tmp_path.resolve().parts) - 1
    (tmp_path / "g.toml").write_text(f"""
[maze]
grid = "{'/'.join(['..'] * depth)}/{(data / 'ros' / 'room.yaml').as_posix().lstrip('/')}"
start = [1, 1]
goal = [8, 10]
[robot]
footprint = "disc:0.02"
[run]
planner = ["astar", "wavefront"]
""")
    scenarios = load_sweep(tmp_path / "m.toml").scenarios + load_sweep(tmp_path / "g.toml").scenarios
    run_sweep(scenarios, tmp_path / "out", workers=1, progress=False)
    rows = {(r["generator"], r["method"]): r for r in read_rows(tmp_path / "out")}
    maze = rows[("tiny-4x4.txt", "astar")]
    assert maze["status"] == "ok" and maze["success"], maze["reason"]
    # the sample data's README: the shortest route takes 9 moves; with corridor = wall = 1
    # (the 2r+1 matrix) each is 2 grid cells, with no room to cut a corner
    assert math.isclose(maze["metrics"]["length_m"], 9 * 2 * 0.1, rel_tol=1e-9)
    assert math.isclose(maze["metrics"]["length_cells"], 9.0, rel_tol=1e-9)
    for method in ("astar", "wavefront"):
        grid = rows[("room.yaml", method)]
        assert grid["status"] == "ok" and grid["success"], grid["reason"]
        assert grid["path"][0] == [1, 1] and grid["path"][-1] == [8, 10]
