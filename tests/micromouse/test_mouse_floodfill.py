"""Flood fill search, proof and fast run on every sample maze; followers."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from robomaze.errors import UnknownNameError
from robomaze.io import read_maze
from robomaze.maze import Maze
from robomaze.micromouse import (SOLVERS, MouseWorld, floodfill, route_turns, solve, tremaux,
                                 wall_follower)

DATA = Path(__file__).resolve().parents[1] / "data" / "micromouse"


def _files():
    if not DATA.exists():
        return []
    return sorted(DATA.glob("*.maze")) + [DATA / "tiny-4x4.txt"]


def _check_route(maze, route):
    assert route[0] == maze.start and route[-1] in maze.goals
    for a, b in zip(route[:-1], route[1:]):
        assert b in maze.neighbors(a), f"route steps through a wall {a}->{b}"


def _shortest_known(run):
    from robomaze.micromouse import WallMap, known_route
    rows, cols = run.explored.shape
    wm = WallMap(rows, cols)
    wm.k = run.known.reshape(rows * cols, 4).copy()
    return len(known_route(wm, run.start, sorted(run.goals))) - 1


def test_floodfill_on_every_sample_maze():
    files = _files()
    if not files:
        pytest.fail("sample data not present")
    assert len(files) == 81
    failed = []
    for f in files:
        m = read_maze(f)
        best = m.solution_length()          # scipy BFS on the true maze: the reference
        run = floodfill(m)
        if best is None:
            assert not run.success and not run.reached_goal
            assert "unreachable" in run.reason
            failed.append(f.name)
            continue
        assert run.success and run.reached_goal and run.proven and run.returned, f.name
        # The proof: the shortest route on the learned walls is the true
        # shortest; the fast run is the time-optimal route on those walls,
        # never shorter in cells.
        assert _shortest_known(run) == best, f.name
        assert run.route_length >= best, f.name
        _check_route(m, run.route)
        # The proof: every edge of the fast run was seen open by the mouse.
        k = run.known
        for a, b in zip(run.route[:-1], run.route[1:]):
            side = {(-1, 0): 0, (0, 1): 1, (1, 0): 2, (0, -1): 3}[(b[0] - a[0], b[1] - a[1])]
            assert k[a[0], a[1], side] == 1
        # The search walk is a real walk through open passages.
        for a, b in zip(run.trace[:-1], run.trace[1:]):
            assert b in m.neighbors(a)
        assert run.trace[-1] == m.start
        assert run.moves == len(run.trace) - 1 and run.crashes == 0
        assert run.cells_explored == len(set(run.trace))
    # The two sealed mazes: a fake goal and one read with unknown walls as walls.
    assert failed == ["32_fake.maze", "32_unknown.maze"]


def test_unknown_walls_open_makes_32_unknown_solvable():
    f = DATA / "32_unknown.maze"
    if not f.exists():
        pytest.fail("sample data not present")
    m = read_maze(f, unknown="open")
    run = floodfill(m)
    assert run.success and run.route_length == m.solution_length()


def test_tiny_maze_route_and_turns():
    f = DATA / "tiny-4x4.txt"
    if not f.exists():
        pytest.fail("sample data not present")
    run = floodfill(read_maze(f))
    assert run.route_length == 9 and run.route_turns == 4
    assert run.route == [(3, 0), (3, 1), (3, 2), (3, 3), (2, 3), (1, 3), (0, 3), (0, 2),
                         (1, 2), (1, 1)]


def test_fast_run_prefers_fewer_turns():
    # Open 3x3 room from the SW corner to the NE corner: every 4-move route is
    # shortest; the fast run must take one with a single turn.
    run = floodfill(Maze.empty(3, 3, start=(2, 0), goals=[(0, 2)]))
    assert run.route_length == 4 and run.route_turns == 1


def test_search_without_proof_stops_at_the_goal_side():
    m = read_maze(DATA / "16MM2017CX.maze") if DATA.exists() else None
    if m is None:
        pytest.fail("sample data not present")
    quick = floodfill(m, prove=False, return_to_start=False)
    full = floodfill(m)
    assert quick.success and quick.moves == quick.moves_to_goal
    assert quick.moves_to_goal == full.moves_to_goal
    assert full.moves > quick.moves
    assert _shortest_known(full) == m.solution_length()
    assert quick.fast.cost_ms >= full.fast.cost_ms


def test_walled_off_goal_fails_fast_without_looping():
    east = np.zeros((5, 5), bool)
    south = np.zeros((5, 5), bool)
    # Seal the centre cell (2, 2).
    east[2, 1] = east[2, 2] = south[1, 2] = south[2, 2] = True
    m = Maze(east, south, start=(4, 0), goals=[(2, 2)])
    run = floodfill(m)
    assert not run.success and "unreachable" in run.reason
    assert run.moves <= 4 * 25
    assert run.route is None


def test_move_limit_is_reported():
    m = Maze.empty(8, 8, start=(7, 0), goals=[(0, 7)])
    run = floodfill(m, max_moves=3)
    assert not run.success and "move limit" in run.reason


@settings(deadline=None, max_examples=30)
@given(st.integers(2, 9), st.integers(2, 9), st.integers(0, 2 ** 32 - 1))
@example(9, 8, 5959)   # the time-optimal fast run is 14 cells where the shortest is 12
def test_floodfill_finds_the_true_shortest_route(rows, cols, seed):
    rng = np.random.default_rng(seed)
    m = Maze(rng.random((rows, cols)) < 0.35, rng.random((rows, cols)) < 0.35,
             start=(rows - 1, 0), goals=[(rows // 2, cols // 2)])
    if m.start in m.goals:
        return
    run = floodfill(m)
    best = m.solution_length()
    if best is None:
        assert not run.success
    else:
        # the shortest route is proven: over the walls it knows to be open the
        # mouse has a route of the true shortest length; its fast run is the
        # time-optimal route on those walls, so never shorter in cells
        assert run.success and run.proven
        assert _known_open_distance(run.known, m.start, set(m.goals)) == best
        assert run.route_length >= best
        _check_route(m, run.route)


def _known_open_distance(known, start, goals):
    """Plain BFS over the sides the mouse knows are open (N, E, S, W = 0..3)."""
    from collections import deque

    steps = ((-1, 0), (0, 1), (1, 0), (0, -1))
    dist = {tuple(start): 0}
    queue = deque([tuple(start)])
    while queue:
        r, c = queue.popleft()
        if (r, c) in goals:
            return dist[(r, c)]
        for side, (dr, dc) in enumerate(steps):
            nxt = (r + dr, c + dc)
            if known[r, c, side] == 1 and nxt not in dist:
                dist[nxt] = dist[(r, c)] + 1
                queue.append(nxt)
    return None


def test_followers_and_tremaux_on_sample_mazes():
    files = [DATA / n for n in ("16MM2012CX.maze", "16MM2019H_Kansai.maze", "tiny-4x4.txt")]
    if not all(f.exists() for f in files):
        pytest.fail("sample data not present")
    for f in files:
        m = read_maze(f)
        t = tremaux(m)
        assert t.success, f.name
        _check_route(m, t.route)
        # Trémaux drives each passage at most twice.
        a, _ = m.edges()
        assert t.moves <= 2 * a.size
        for hand in ("left", "right"):
            w = wall_follower(m, hand=hand)
            if w.success:
                _check_route(m, w.route)
                assert w.route_length >= m.solution_length()
            else:
                assert "circles" in w.reason
    # Real contest mazes are built to defeat wall followers (goal island).
    m = read_maze(DATA / "16MM2012CX.maze")
    assert not wall_follower(m, hand="left").success


def test_wall_follower_solves_a_perfect_maze():
    m = read_maze(DATA / "tiny-4x4.txt") if DATA.exists() else None
    if m is None:
        pytest.fail("sample data not present")
    assert m.is_perfect()
    for hand in ("left", "right"):
        run = wall_follower(m, hand=hand)
        assert run.success and run.route_length == 9


def test_tremaux_reports_unreachable():
    m = Maze.full(3, 3, start=(2, 0), goals=[(0, 2)])
    run = tremaux(m)
    assert not run.success and "unreachable" in run.reason


def test_registry_and_front_end():
    m = Maze.empty(3, 3, start=(2, 0), goals=[(0, 2)])
    for name in SOLVERS:
        assert solve(m, method=name).success
    with pytest.raises(UnknownNameError, match="floodfill"):
        solve(m, method="nope")


def test_world_senses_and_crashes():
    w = MouseWorld(Maze.from_edges(2, 2, [0, 0, 1], [1, 2, 3], start=(1, 0)))
    # Cells: 0=(0,0) 1=(0,1) 2=(1,0) 3=(1,1); start (1,0) facing north.
    assert (w.wall_front(), w.wall_left(), w.wall_right()) == (False, True, True)
    assert w.move_forward() and w.cell == (0, 0)
    assert not w.move_forward() and w.cell == (0, 0) and w.crashes == 1
    w.turn_right()
    assert not w.move_forward(2) and w.cell == (0, 0)     # a crash moves nothing
    assert w.move_forward(1) and w.cell == (0, 1)
    w.turn_right()
    assert w.move_forward() and w.cell == (1, 1)
    assert w.moves == 3 and w.turns == 2 and route_turns(w.trace) == 2


def test_floodfill_mms_score_counts_the_fast_run():
    from robomaze.micromouse import mms_stats, route_straights
    from robomaze.metrics.micromouse import effective_distance
    m = read_maze(DATA / "16MM2012CX.maze") if DATA.exists() else None
    if m is None:
        pytest.fail("sample data not present")
    run = floodfill(m)
    s = mms_stats(run.log, m.start, m.goals)
    assert s["runs_finished"] == 2                   # the search run and the fast run
    eff = sum(effective_distance(n) for n in route_straights(run.route))
    assert (s["best_run_turns"], s["best_run_effective_distance"]) == (run.route_turns, eff)
    # Totals: every search move was one cell (2 half cells, effective 2),
    # plus the fast run.
    assert s["total_effective_distance"] == 2 * run.moves + eff
    assert s["total_distance"] == 2 * run.moves + 2 * run.route_length
    assert run.summary()["mms_score"] == s["score"]
