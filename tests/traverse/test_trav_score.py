"""Deviation analysis: exact figures on hand-built walks, invariants on random ones."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

from robomaze.grid import widen
from robomaze.maze import Maze
from robomaze.traverse.record import TraversalRecord
from robomaze.traverse.score import SUMMARY_KEYS, score, score_walk, sections
from trav_mazes import comb, comb_detour_walk, random_perfect


def _goal_dist(maze):
    """Independent BFS distances to the nearest goal (scipy, flat indices)."""
    idx = [r * maze.cols + c for r, c in maze.goals]
    return csgraph.shortest_path(maze.adjacency(), unweighted=True, indices=idx).min(axis=0)


@pytest.mark.parametrize("seed", range(4))
def test_optimal_walk_scores_zero_error(seed):
    maze = random_perfect(7, 9, seed=seed, start=(0, 0), goals=[(6, 8)])
    rep = score(TraversalRecord.from_cells(maze, maze.solution()))
    s = rep.summary
    assert s["moves"] == s["optimal"] == maze.solution_length()
    assert s["extra_moves"] == s["error"] == s["revisits"] == s["wrong_turns"] == 0
    assert s["turnbacks"] == s["dead_ends_entered"] == s["sections_with_error"] == 0
    assert s["efficiency"] == 1.0 and s["reached_goal"]
    assert all(r["error"] == 0 and r["moves"] == r["optimal"] for r in rep.table_rows)


@pytest.mark.parametrize("length", [1, 2, 3, 5])
def test_detour_into_dead_end_costs_2L_and_one_wrong_turn(length):
    maze = comb(length)
    rep = score(TraversalRecord.from_cells(maze, comb_detour_walk(length)))
    s = rep.summary
    assert s["optimal"] == 4 and s["moves"] == 4 + 2 * length
    assert s["extra_moves"] == s["error"] == 2 * length
    assert s["wrong_turns"] == 1 and s["turnbacks"] == 0
    assert s["dead_ends_entered"] == 1 and s["revisits"] == length
    # the branch is the one section with error; it holds the wrong turn
    bad = [r for r in rep.table_rows if r["error"]]
    assert len(bad) == 1
    assert bad[0]["error"] == 2 * length and bad[0]["wrong_turns"] == 1
    assert bad[0]["kind"] == "dead_end" and bad[0]["length"] == length
    assert not bad[0]["on_route"] and bad[0]["moves"] == 2 * length
    branch = {(r, 2) for r in range(length + 1)}
    assert {divmod(int(v), 5) for v in rep.sections.cells[bad[0]["section"]]} == branch
    assert rep.cell_error[1:, 2].sum() == 2 * length - 1 and rep.cell_error[0, 2] == 1


def _branch_off_route(maze, route):
    """A junction on the route and a simple dead-end branch leaving it (or None)."""
    on = set(route)
    deg = maze.degrees()
    for j in route[1:-1]:
        for nb in maze.neighbors(j):
            if nb in on:
                continue
            chain, prev, cur = [nb], j, nb
            while deg[cur] == 2:
                nxt = [c for c in maze.neighbors(cur) if c != prev][0]
                prev, cur = cur, nxt
                chain.append(cur)
            if deg[cur] == 1:
                return j, chain
    return None


@pytest.mark.parametrize("seed", range(6))
def test_detour_in_random_perfect_maze(seed):
    maze = random_perfect(8, 8, seed=seed, start=(0, 0), goals=[(7, 7)])
    route = maze.solution()
    found = _branch_off_route(maze, route)
    assert found is not None
    j, chain = found
    k = route.index(j)
    walk = route[:k + 1] + chain + chain[-2::-1] + route[k:]
    rep = score(TraversalRecord.from_cells(maze, walk))
    L = len(chain)
    assert rep.summary["extra_moves"] == rep.summary["error"] == 2 * L
    assert rep.summary["wrong_turns"] == 1 and rep.summary["dead_ends_entered"] == 1
    rows = [r for r in rep.table_rows if r["error"]]
    assert [(r["error"], r["wrong_turns"], r["length"]) for r in rows] == [(2 * L, 1, L)]


def test_sections_partition_every_passage():
    for seed in range(3):
        maze = random_perfect(9, 7, seed=seed)
        secs = sections(maze)
        a, b = maze.edges()
        ids = [secs.of_edge(int(x), int(y)) for x, y in zip(a, b)]
        assert min(ids) == 0 and sum(secs.length(i) for i in range(len(secs))) == a.size
        assert np.bincount(ids).tolist() == [secs.length(i) for i in range(len(secs))]
        deg = maze.degrees().ravel()
        for chain in secs.cells:
            assert (deg[chain[1:-1]] == 2).all() and deg[chain[0]] != 2 and deg[chain[-1]] != 2
        # a tree's reduced graph has (sum of node degrees) / 2 edges
        assert len(secs) == deg[deg != 2].sum() // 2
    ring = sections(Maze.empty(2, 2))
    assert ring.kinds == ["cycle"] and ring.length(0) == 4


def test_sections_of_a_braid_maze_with_junction_loops():
    # 2x3 room without interior walls: corners degree 2, middles degree 3
    secs = sections(Maze.empty(2, 3))
    assert sorted(secs.length(i) for i in range(len(secs))) == [1, 3, 3]
    assert set(secs.kinds) == {"corridor"}


@settings(deadline=None, max_examples=25)
@given(seed=st.integers(0, 10_000), braid=st.booleans())
def test_random_walk_invariants(seed, braid):
    rng = np.random.default_rng(seed)
    maze = random_perfect(5, 6, seed=seed, start=(0, 0), goals=[(4, 5)])
    if braid:   # knock out some walls to make loops
        east = maze.east.copy()
        east[rng.integers(0, 5, 3), rng.integers(0, 5, 3)] = False
        maze = maze.replace(east=east)
    cur, walk = maze.start, [maze.start]
    while cur not in maze.goals and len(walk) < 400:
        nb = maze.neighbors(cur)
        cur = nb[rng.integers(len(nb))]
        walk.append(cur)
    rep = score(TraversalRecord.from_cells(maze, walk, times=np.arange(len(walk)) * 0.5))
    s = rep.summary
    dist = _goal_dist(maze)
    flat = [r * maze.cols + c for r, c in walk]
    d = dist[flat]
    # independent: progress = new minima of the distance; error = the rest
    progress = int(sum(d[i] < d[:i].min() for i in range(1, len(d))))
    assert s["error"] == s["moves"] - progress
    if s["reached_goal"]:
        assert s["error"] == s["extra_moves"] == s["moves"] - s["optimal"]
    away = np.diff(d) > 0
    runs = int(away[0]) + int(np.sum(away[1:] & ~away[:-1])) if len(away) else 0
    assert s["wrong_turns"] + s["turnbacks"] == runs
    assert s["revisits"] == len(walk) - len(set(walk))
    assert sum(r["error"] for r in rep.table_rows) == s["error"]
    assert sum(r["moves"] for r in rep.table_rows) == s["moves"]
    assert rep.cell_visits.sum() == len(walk)
    assert np.isclose(rep.cell_time.sum(), s["duration"])
    assert np.isclose(rep.region_time.sum(), s["duration"])
    assert np.isclose(sum(r["time"] for r in rep.table_rows), s["duration"])
    assert set(s) == set(SUMMARY_KEYS)


@pytest.mark.parametrize("corridor, wall", [(1, 1), (3, 1), (2, 3)])
def test_widened_walk_scores_like_the_cell_walk(corridor, wall):
    maze = comb(3)
    walk = comb_detour_walk(3)
    cell_rep = score(TraversalRecord.from_cells(maze, walk))
    grid = widen(maze, corridor=corridor, wall=wall)
    gcells = [grid.maze_centre(walk[0])]
    for a, b in zip(walk[:-1], walk[1:]):
        ga, gb = np.array(grid.maze_centre(a)), np.array(grid.maze_centre(b))
        step = np.sign(gb - ga)
        for i in range(1, grid.widening.pitch + 1):
            gcells.append(tuple(ga + i * step))
    pitch = corridor + wall
    grid_rep = score(TraversalRecord.from_cells(grid, gcells,
                                                times=np.arange(len(gcells)) / pitch))
    keep = {k: v for k, v in cell_rep.summary.items() if k not in ("level", "level_moves", "pitch")}
    assert {k: grid_rep.summary[k] for k in keep} == keep
    assert grid_rep.summary["level_moves"] == cell_rep.summary["moves"] * (corridor + wall)
    assert grid_rep.summary["pitch"] == corridor + wall and grid_rep.summary["level"] == "grid"
    assert np.array_equal(grid_rep.cell_visits, cell_rep.cell_visits)
    assert np.array_equal(grid_rep.cell_error, cell_rep.cell_error)
    strip = [{k: v for k, v in r.items() if k != "time"} for r in cell_rep.table_rows]
    assert [{k: v for k, v in r.items() if k != "time"} for r in grid_rep.table_rows] == strip
    # a maze cell is entered when its block (or the band it owns) is, not at
    # its centre, so times per section shift by less than one maze move
    gt = np.array([r["time"] for r in grid_rep.table_rows])
    ct = np.array([r["time"] for r in cell_rep.table_rows])
    assert gt.sum() <= ct.sum() + 1e-9 and np.all(np.abs(gt - ct) < 1.0)
    assert np.isclose(grid_rep.cell_time.sum(), cell_rep.cell_time.sum())


def test_unreached_goal_and_plain_grid():
    maze = comb(2)
    rep = score(TraversalRecord.from_cells(maze, [(0, 0), (0, 1), (0, 2), (1, 2)]))
    s = rep.summary
    assert not s["reached_goal"] and s["moves"] == 3 and s["error"] == 1
    from robomaze.grid import OccupancyGrid

    grid = OccupancyGrid(np.pad(np.zeros((1, 4), bool), 1, constant_values=True))
    rep = score_walk(grid, [(1, 1), (1, 2), (1, 1), (1, 2), (1, 3), (1, 4)], goals=[(1, 4)])
    assert rep.summary["extra_moves"] == 2 and rep.summary["turnbacks"] == 1
    assert rep.summary["wrong_turns"] == 0


def test_table_and_dict_output():
    rep = score(TraversalRecord.from_cells(comb(2), comb_detour_walk(2)))
    text = rep.table()
    assert text.splitlines()[0].split() == ["section", "kind", "length", "on_route", "moves",
                                            "optimal", "error", "wrong_turns", "time"]
    assert len(text.splitlines()) == 1 + 3
    d = rep.to_dict()
    assert d["summary"]["error"] == 4 and len(d["sections"]) == 3
    assert np.asarray(d["cell_visits"]).shape == (3, 5)
    m = rep.section_map()
    assert m[2, 2] == 4 and m[0, 2] == 4 and m[0, 0] == 0 and np.isnan(m[1, 0])
