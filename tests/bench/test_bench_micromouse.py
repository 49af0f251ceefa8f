"""The micromouse run kind: cell-level mice in the sweep, checked against
independent references (scipy BFS on the cell graph, hand-computed times)."""

import math

import numpy as np
import pytest
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import shortest_path

from robomaze.bench.micromouse import MOUSE_METRICS, shortest_route
from robomaze.bench.run import DETERMINISTIC_METRICS, run_scenario
from robomaze.bench.scenario import parse_sweep
from robomaze.data import resolve
from robomaze.errors import ScenarioError
from robomaze.io import read_maze
from robomaze.maze import Maze
from robomaze.micromouse import wall_array

MAZES = ["pkg:micromouse/16MM2016CX.maze", "pkg:micromouse/16MM2018CX.maze"]


def bfs_distance(maze: Maze) -> int:
    """Moves from start to the nearest goal, by scipy on the open cell edges."""
    rows, cols = maze.shape
    w = wall_array(maze)
    idx = np.arange(rows * cols).reshape(rows, cols)
    a = np.r_[idx[:, :-1][~w[:, :-1, 1]], idx[:-1, :][~w[:-1, :, 2]]]
    b = np.r_[idx[:, 1:][~w[:, :-1, 1]], idx[1:, :][~w[:-1, :, 2]]]
    g = coo_matrix((np.ones(len(a)), (a, b)), shape=(rows * cols,) * 2)
    d = shortest_path(g, directed=False, unweighted=True, indices=idx[maze.start])
    return int(min(d[idx[goal]] for goal in maze.goals))


def mouse_sweep(mice, files=MAZES, **extra):
    data = {"maze": {"file": files}, "run": {"mouse": mice}}
    for k, v in extra.items():
        data.setdefault(k, {}).update(v)
    return parse_sweep(data, base_dir=".", check_names=True)


def test_mice_join_the_method_axis_and_ignore_widening_and_robot():
    sw = mouse_sweep(["floodfill", "tremaux"], widen={"corridor": [7, 14]},
                     robot={"footprint": "disc:0.03", "noise": ["none", "gaussian:0.01"]},
                     run={"planner": ["astar"]})
    mice = [s for s in sw.scenarios if s.kind == "mouse"]
    assert len(mice) == 4                      # 2 mazes x 2 mice, not x corridors x noise
    assert len(sw.scenarios) == 4 + 4          # + astar on 2 mazes x 2 corridors
    assert {s.footprint for s in mice} == {"mouse"}
    assert all(s.spec["widen"]["corridor"] == 1 for s in mice)


def test_mouse_only_sweep_needs_no_footprint_and_rejects_grids_and_unknown_names():
    assert len(mouse_sweep(["floodfill"]).scenarios) == 2
    with pytest.raises(ScenarioError, match="unknown mouse 'teleport'.*floodfill"):
        mouse_sweep(["teleport"])
    with pytest.raises(ScenarioError, match="run.mouse: expected a maze"):
        parse_sweep({"maze": {"grid": "x.map", "start": [0, 0], "goal": [1, 1]},
                     "run": {"mouse": "floodfill"}}, check_names=False)
    with pytest.raises(ScenarioError, match="robot.footprint"):
        parse_sweep({"maze": {"generator": "prim"}, "run": {"mouse": "floodfill",
                                                            "agent": "explore"}},
                    check_names=False)


@pytest.mark.parametrize("name", MAZES)
def test_floodfill_row_on_contest_mazes_matches_references(name):
    maze = read_maze(resolve(name))
    row = run_scenario(mouse_sweep(["floodfill"], files=[name]).scenarios[0])
    m = row["metrics"]
    ref = bfs_distance(maze)
    assert row["kind"] == "mouse" and row["success"] and row["status"] == "ok"
    assert m["shortest_route_length"] == ref
    # the fast run is the time-optimal route on the learned walls: never
    # shorter than the shortest route, often longer but straighter
    assert m["route_length"] >= ref
    assert m["length_ratio"] >= 1.0 and m["optimal_length_m"] == pytest.approx(ref * 0.18)
    # best possible: the same search on the true maze (kerikun by default)
    from robomaze.micromouse import fastest_route
    assert m["fastest_route_time"] == fastest_route(maze).cost_ms / 1000
    assert m["fastest_route_time_diagonal"] == fastest_route(maze, diagonals=True).cost_ms / 1000
    assert 0 < m["cells_explored"] <= 256 and m["search_moves"] >= 2 * ref
    assert m["contest_score"] == pytest.approx(m["fast_run_time"] + m["search_time"] / 30
                                               + 10 * m["crashes"])
    assert m["fast_run_ratio"] == pytest.approx(m["fast_run_time"] / m["fastest_route_time"])
    assert m["mms_score"] < 2000
    # the route is drawn on the k = t = 1 grid: cell (r, c) -> (2r + 1, 2c + 1)
    assert row["path"][0] == [2 * maze.start[0] + 1, 2 * maze.start[1] + 1]
    assert set(MOUSE_METRICS) <= set(DETERMINISTIC_METRICS)


def test_wall_follower_circles_the_island_and_scores_as_unfinished():
    row = run_scenario(mouse_sweep(["left_wall"], files=MAZES[:1]).scenarios[0])
    assert not row["success"] and "circles forever" in row["reason"]
    m = row["metrics"]
    assert m["fast_run_time"] is None and m["contest_score"] is None
    assert m["mms_score"] == 2000               # mms: 2000 while no run has finished


def test_times_on_a_straight_corridor_are_hand_computed():
    # 1 x 4 corridor: the route is 3 cells straight, centre to centre 0.54 m;
    # with a = 6 m/s^2 the mouse never reaches 3 m/s: peak v = sqrt(a s) and
    # t = 2 v / a = 2 sqrt(0.54 / 6) = 0.6 s, diagonals or not
    maze = Maze.empty(1, 4, start=(0, 0), goals=[(0, 3)])
    assert shortest_route(maze) == [(0, 0), (0, 1), (0, 2), (0, 3)]
    sw = parse_sweep({"maze": {"generator": "prim", "rows": 1, "cols": 4, "start": [0, 0],
                               "goal": [0, 3]}, "run": {"mouse": "floodfill"}},
                     check_names=False)
    m = run_scenario(sw.scenarios[0])["metrics"]
    # kerikun (90 mm cells), no diagonals: one run of 3 cells = 2 ms x
    # int((287 + int(t(180 mm))) / 2), t(180) = 2 (sqrt(420^2 + 4200 * 180) - 420) / 4200 s
    # = 259.8 ms -> 259, (287 + 259) / 2 = 273 -> 546 ms; with diagonals the slalom
    # graph's S3 = 2 x int(2 (sqrt(840^2 + 16800 * 270) - 840) / 16800 s = 172.0 ms) = 344 ms
    assert m["shortest_route_time"] == pytest.approx(0.546)
    assert m["shortest_route_time_diagonal"] == pytest.approx(0.344)
    assert m["fastest_route_time"] == pytest.approx(0.546)
    assert m["shortest_route_turns"] == 0 and m["route_length"] == 3
    # the simple profile (180 mm, 0.7 m/s, 6 m/s^2): 540 mm never reach 3 m/s:
    # t = 2 (sqrt(0.7^2 + 6 * 0.54) - 0.7) / 6, diagonals or not
    sw = parse_sweep({"maze": {"generator": "prim", "rows": 1, "cols": 4, "start": [0, 0],
                               "goal": [0, 3]}, "run": {"mouse": "floodfill",
                                                        "profile": "simple"}},
                     check_names=False)
    m = run_scenario(sw.scenarios[0])["metrics"]
    t = 2 * (math.sqrt(0.7 ** 2 + 6 * 0.54) - 0.7) / 6
    assert m["shortest_route_time"] == pytest.approx(t)
    assert m["shortest_route_time_diagonal"] == pytest.approx(t)


def test_shortest_route_prefers_fewer_turns_among_equal_lengths():
    # open 3x3 room, start bottom-left, goal top-right: every monotone route
    # has 4 moves; the fewest-turn ones turn once
    from robomaze.micromouse import route_turns
    r = shortest_route(Maze.empty(3, 3, start=(2, 0), goals=[(0, 2)]))
    assert len(r) - 1 == 4 and route_turns(r) == 1


def test_mouse_runs_are_deterministic():
    sc = mouse_sweep(["tremaux"], files=MAZES[1:]).scenarios[0]
    assert run_scenario(sc)["metrics"] == run_scenario(sc)["metrics"]


def brute_force_fastest(maze):
    """Minimum run_time over every simple path from the start to its first goal."""
    from robomaze.micromouse import run_time
    from robomaze.micromouse.world import DC, DR

    w = wall_array(maze)
    goals = set(maze.goals)
    best = [math.inf]

    def walk(path, seen):
        r, c = path[-1]
        if (r, c) in goals:
            best[0] = min(best[0], run_time(path))
            return
        for d in range(4):
            if not w[r, c, d]:
                nxt = (r + DR[d], c + DC[d])
                if nxt not in seen:
                    seen.add(nxt)
                    walk(path + [nxt], seen)
                    seen.discard(nxt)

    walk([maze.start], {maze.start})
    return best[0]


@pytest.mark.parametrize("seed", range(12))
def test_fastest_route_is_the_minimum_over_all_simple_paths(seed):
    from robomaze.bench.micromouse import fastest_route
    from robomaze.generate import generate
    from robomaze.micromouse import run_time

    maze = generate("kruskal", 4, 4, rng=seed, braid=0.6)
    route, t = fastest_route(maze)
    assert t == pytest.approx(brute_force_fastest(maze), rel=1e-12)
    assert run_time(route) == pytest.approx(t, rel=1e-12)     # the route it returns
    assert route[0] == maze.start and route[-1] in set(maze.goals)
    assert t <= run_time(shortest_route(maze)) + 1e-12


def test_mouse_fast_run_is_never_faster_than_the_fastest_route():
    sw = mouse_sweep(["floodfill", "tremaux"], files=MAZES)
    for sc in sw.scenarios:
        m = run_scenario(sc)["metrics"]
        assert m["fast_run_ratio"] >= 1 - 1e-12
        assert m["fast_run_ratio_diagonal"] >= 1 - 1e-12
        assert m["fastest_route_time"] <= m["shortest_route_time"] + 1e-12
        assert m["fastest_route_time_diagonal"] <= m["shortest_route_time_diagonal"] + 1e-12


def test_profiles_are_a_sweep_axis_of_mice_only(tmp_path):
    (tmp_path / "slow.toml").write_text("cell_mm = 180\nturn_speed = 300\n"
                                        "along = {accel = 2000, max_speed = 1000}\n"
                                        "diagonal = {accel = 2000, max_speed = 1000}\n")
    sw = parse_sweep({"maze": {"file": MAZES[:1]},
                      "run": {"mouse": ["floodfill"], "planner": ["astar"],
                              "profile": ["kerikun", "simple", "slow.toml"]},
                      "robot": {"footprint": "disc:0.03"}},
                     base_dir=str(tmp_path), check_names=True)
    mice = [s for s in sw.scenarios if s.kind == "mouse"]
    assert len(mice) == 3 and len(sw.scenarios) == 4      # astar once, not per profile
    times = {}
    for sc in mice:
        m = run_scenario(sc)["metrics"]
        times[sc.spec["run"]["profile"]] = m["fastest_route_time"]
        # on one slalom graph diagonals never make the optimum slower
        if sc.spec["run"]["profile"] != "kerikun":
            assert m["fastest_route_time_diagonal"] <= m["fastest_route_time"]
    assert times["slow.toml"] > times["simple"]
    assert len(set(times.values())) == 3


def test_report_labels_in_words_and_the_followers_note():
    from robomaze.bench.report_research import _mouse_section

    def row(method, i, **metrics):
        return {"kind": "mouse", "method": method, "id": f"r{i}", "generator": "m.maze",
                "success": False, "status": "ok", "reason": "circles",
                "scenario": {"maze": {}, "run": {"profile": "simple", "options": {}}},
                "metrics": {"cells_explored": 10, "search_moves": 12, **metrics}}

    tied = [row("left_wall", 1), row("right_wall", 2)]
    text = _mouse_section(tied)
    assert "| m.maze | left-hand wall follower (simple profile) | failed (circles) |" in text
    assert "identical figures on every maze here" in text
    apart = [row("left_wall", 1), row("right_wall", 2, search_moves=14)]
    assert "identical figures" not in _mouse_section(apart)
    ff = row("floodfill", 3, fast_run_ratio=1.25)
    ff["scenario"]["run"]["options"] = {"prove": "time"}
    line = next(x for x in _mouse_section([ff]).splitlines() if x.startswith("| m.maze"))
    assert "flood fill, fastest route proven (simple profile)" in line and "| 25.0% |" in line


def test_report_compares_the_two_proofs():
    from robomaze.bench.report_research import _mouse_section

    def row(i, prove, search, fast):
        return {"kind": "mouse", "method": "floodfill", "id": f"r{i}", "generator": "m.maze",
                "success": True, "status": "ok",
                "scenario": {"maze": {}, "run": {"options": {"prove": prove}}},
                "metrics": {"search_time_profile": search, "fast_run_time": fast,
                            "fastest_route_time": 9.5}}

    text = _mouse_section([row(1, True, 80.0, 11.0), row(2, "time", 95.0, 9.5)])
    assert "### Proving the fastest route instead of the shortest" in text
    assert "| m.maze | kerikun | 80 | 95 | 11 | 9.5 | 9.5 |" in text
    assert "Proving the fastest" not in _mouse_section([row(1, True, 80.0, 11.0)])


def test_bad_profiles_fail_when_the_sweep_loads(tmp_path):
    with pytest.raises(ScenarioError, match="run.profile: unknown mouse profile 'kerikunn'"):
        parse_sweep({"maze": {"file": MAZES[:1]}, "run": {"mouse": "floodfill",
                                                           "profile": "kerikunn"}},
                    base_dir=str(tmp_path), check_names=True)
    (tmp_path / "bad.toml").write_text("cell_mm = 0\n")
    with pytest.raises(ScenarioError, match="run.profile: .*bad.toml.*cell_mm"):
        parse_sweep({"maze": {"file": MAZES[:1]}, "run": {"mouse": "floodfill",
                                                           "profile": "bad.toml"}},
                    base_dir=str(tmp_path), check_names=True)
