"""Route figures and the motion-profile run-time estimate, by hand."""

import math

import pytest

from robomaze.errors import ParameterError
from robomaze.micromouse import (MotionProfile, contest_score, mms_stats, route_commands,
                                 route_straights, route_turns, run_time)

P = MotionProfile(cell_size=1.0, max_speed=1.0, acceleration=1.0, turn_speed=0.5,
                  turn_time=2.0, turn45_time=0.5)


def test_turns_and_straights():
    route = [(3, 0), (3, 1), (3, 2), (2, 2), (1, 2), (1, 1), (1, 0), (1, 1)]
    assert route_straights(route) == [2, 2, 2, 1]
    assert route_turns(route) == 2 + 2          # two 90-degree turns and a U-turn
    assert route_turns([(0, 0)]) == 0 and route_straights([(0, 0)]) == []


def test_straight_trapezoid_and_triangle():
    # 3 cells from rest to rest: d = (2*1 - 0 - 0) / 2 = 1 m < 3 m -> cruise:
    # 1 s up + 1 s down + 2 m at 1 m/s = 4 s.
    assert run_time([(0, 0), (0, 1), (0, 2), (0, 3)], P) == pytest.approx(4.0)
    # 0.5 m (one cell at cell_size 0.5): triangle, v_p = sqrt(a*s) = sqrt(0.5).
    p = MotionProfile(cell_size=0.5, max_speed=1.0, acceleration=1.0, turn_speed=0.5)
    assert run_time([(0, 0), (0, 1)], p) == pytest.approx(2 * math.sqrt(0.5))


def test_one_turn_route():
    # (0,0) -> (0,1) -> (1,1): straight 0.5 m from rest to turn speed 0.5,
    # the corner cell (turn_time 2 s), then 0.5 m from 0.5 m/s to rest.
    # Segment 1: d = (2 - 0 - 0.25)/2 = 0.875 > 0.5 -> v_p = sqrt(0.5 + 0.125)
    vp = math.sqrt(0.5 + 0.125)
    seg1 = vp / 1 + (vp - 0.5) / 1
    seg2 = (vp - 0.5) + vp
    assert run_time([(0, 0), (0, 1), (1, 1)], P) == pytest.approx(seg1 + 2.0 + seg2)


def test_diagonals_shorten_a_staircase():
    stairs = [(6, 0), (5, 0), (5, 1), (4, 1), (4, 2), (3, 2), (3, 3), (2, 3), (2, 4)]
    orth = run_time(stairs, P)
    diag = run_time(stairs, MotionProfile(**{**P.__dict__, "diagonals": True}))
    assert diag < orth
    # 7 corner cells alternate L/R: one diagonal of 7 * 1/sqrt(2) m at turn speed
    # bounds, two 45-degree turns, and half-cell ends.
    vp_end = math.sqrt(0.5 + 0.125)
    ends = 2 * (vp_end + (vp_end - 0.5))
    s = 7 / math.sqrt(2)
    d = (2 * 1 - 0.25 - 0.25) / 2
    mid = (1 - 0.5) * 2 + (s - d) / 1
    assert diag == pytest.approx(ends + 2 * 0.5 + mid)


def test_search_time_stops_at_turns():
    route = [(0, 0), (0, 1), (1, 1)]
    # two 1-cell straights from rest to rest (triangles, v_p = 1 at a = 1,
    # s = 1: v_p = sqrt(1) = 1 -> 2 s each) + one in-place turn of 2 s.
    assert run_time(route, P, stop_at_turns=True) == pytest.approx(2 + 2 + 2)


def test_score_and_profile_validation():
    assert contest_score(10.0, 60.0, 1) == pytest.approx(22.0)
    with pytest.raises(ParameterError):
        MotionProfile(max_speed=-1)
    with pytest.raises(ParameterError):
        MotionProfile(turn_speed=5.0, max_speed=1.0)


def test_mms_stats_by_hand():
    start, goals = (2, 0), {(0, 0)}
    log = [
        ("T",),                              # before leaving: not in a run
        ("F", [(2, 1)]),                     # run 1 starts (left the start): 2 half cells
        ("F", [(2, 0)]),                     # back home: run 1 unfinished
        ("F", [(1, 0), (0, 0)]),             # run 2: 4 half cells, eff 4/2+1 = 3 -> goal
        ("T",), ("T",),
        ("F", [(1, 0), (2, 0)]),             # home again, no run
        ("F", [(1, 0)]), ("R",),             # run 3 abandoned by a reset
        ("F", [(1, 0), (0, 0)]),             # run 4: eff 15 (reset penalty) + 3 -> goal
    ]
    s = mms_stats(log, start, goals)
    assert s["total_turns"] == 3
    assert s["total_distance"] == 2 + 2 + 4 + 4 + 2 + 4
    assert s["total_effective_distance"] == 2 + 2 + 3 + 3 + 2 + 3 + 15
    assert s["runs_finished"] == 2
    assert (s["best_run_turns"], s["best_run_effective_distance"]) == (0, 3.0)
    assert s["best_run_distance"] == 4
    assert s["score"] == pytest.approx(0 + 3 + 0.1 * (3 + 30))
    assert s["stats"]["score"] == "6.3" and s["stats"]["total-distance"] == "18"
    # A move that passes through the goal without stopping there finishes nothing.
    assert mms_stats([("F", [(1, 0), (0, 0), (0, 1)])], start, goals)["score"] == 2000.0
    assert mms_stats([("F", [(1, 0)])], start, goals)["score"] == 2000.0


def test_route_commands_and_effective_distance():
    route = [(3, 0), (2, 0), (1, 0), (0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (1, 4)]
    log = route_commands(route, heading=1)            # facing east at the start
    kinds = [e[0] for e in log]
    assert kinds == ["T", "F", "T", "F", "T", "F"]
    assert [len(e[1]) for e in log if e[0] == "F"] == [3, 4, 1]
    s = mms_stats(log, (3, 0), {(1, 4)})
    # turns inside the run: 2; effective of 6, 8 and 2 half cells: 4 + 5 + 2
    assert (s["best_run_turns"], s["best_run_effective_distance"]) == (2, 11.0)
