"""The figures the micromouse community compares, with documented formulas.

Part of :mod:`robomaze.metrics`: the route and run-time figures of
:mod:`robomaze.micromouse` runs and the rules of mms's statistics panel
(:class:`MmsStats`), which the hosted mms world
(:mod:`robomaze.micromouse.mms`) and :func:`mms_stats` both keep.

Route shape
-----------
A route is a list of cells. Its *length* is the number of moves (cells
driven); its *turns* are the direction changes between consecutive moves;
its *straights* are the lengths (in cells) of the maximal straight runs.

Run-time estimate (:func:`run_time`)
------------------------------------
The mouse drives each straight with a trapezoidal speed profile: it
accelerates at ``a`` from its entry speed ``v_in`` towards ``v_max`` and
brakes at ``a`` to its exit speed ``v_out``. A straight of length ``s``
takes, with ``d = (2 v_max^2 - v_in^2 - v_out^2) / (2a)`` the distance
needed to touch ``v_max``::

    s >= d:  t = (v_max - v_in)/a + (v_max - v_out)/a + (s - d)/v_max
    s <  d:  v_p = sqrt(a s + (v_in^2 + v_out^2)/2)
             t = (v_p - v_in)/a + (v_p - v_out)/a

(if ``v_p`` would be below an end speed the segment is driven at constant
acceleration: ``t = 2 s / (v_in + v_out)``). The route is driven from the
centre of the start cell to the centre of the last cell and starts and ends
at rest. Every corner cell (where the direction changes) is driven as a
smooth 90-degree turn from its entry edge to its exit edge, at
``turn_speed``, costing ``turn_time`` seconds (a U-turn costs two); the
straights between corner cells are measured edge to edge (the first from the
start cell's centre, the last to the final cell's centre), so they start and
end at ``turn_speed``.

With ``diagonals=True`` every staircase of ``m >= 2`` consecutive corner
cells turning alternately (left, right, left, ...) is driven as one
45-degree diagonal straight through the corner cells' edge midpoints, of
length ``m * cell_size / sqrt(2)``, entered and left by 45-degree turns
costing ``turn45_time`` each (replacing the ``m`` 90-degree turns).

Scores
------
:func:`mms_stats` reproduces the statistics panel of the mms simulator from
the mouse's command log, as mms's source computes it (the rules, computed by
:class:`MmsStats` as for hosted mice): distances
are in half cells -- a command ``moveForward n`` counts ``2n`` and an
*effective distance* of ``2n`` if ``n = 1`` else ``n + 1`` (long straights
are cheap); every turn command counts one turn. A *run* starts when a move
starts in the start cell and finishes when a movement ends in a goal cell;
the best run is the one with the least ``turns + effective distance``; a
reset adds 15 to the next run's effective distance. Then::

    mms score = best_run_turns + best_run_effective_distance
                + 0.1 * (total_turns + total_effective_distance)

(2000 while no run has finished), lower is better.

:func:`contest_score` is a time-based contest score in seconds, lower is
better (the classic rule with a search penalty):
``fast_run_time + search_time / 30 + 10 * crashes``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._validate import check_float
from ..errors import ParameterError

__all__ = ["MotionProfile", "route_turns", "route_straights", "run_time", "contest_score",
           "route_moves", "mms_stats", "effective_distance", "route_commands", "segment_time",
           "MmsStats", "STAT_NAMES", "RESET_PENALTY", "effective_half_steps"]


#: getStat names and whether mms reports them as integers.
STAT_NAMES = {
    "total-distance": True, "total-turns": True, "best-run-distance": True,
    "best-run-turns": True, "current-run-distance": True, "current-run-turns": True,
    "total-effective-distance": False, "best-run-effective-distance": False,
    "current-run-effective-distance": False, "score": False,
}

RESET_PENALTY = 15.0
_F = np.float32
_FLT_MAX = np.finfo(np.float32).max


def effective_half_steps(half: int) -> float:
    """mms's effective distance of one move of ``half`` half cells.

    >>> effective_half_steps(1), effective_half_steps(2), effective_half_steps(4)
    (1.0, 2.0, 3.0)
    >>> effective_half_steps(10)          # moveForward 5
    6.0
    """
    return float(half) if half <= 2 else half / 2.0 + 1.0


def _text(v) -> str:
    """``QString::number`` of a float stat: ``%.6g``."""
    return "%.6g" % float(v)


class MmsStats:
    """mms's statistics panel (the rules in :mod:`robomaze.micromouse.mms`'s notes): half
    cells, 32-bit floats.

    >>> s = MmsStats()
    >>> s.start_run(); s.add_distance(6); s.finish_run()     # moveForward 3
    >>> s.get("total-distance"), s.get("best-run-effective-distance"), s.get("score")
    ('6', '4', '4.4')
    """

    def __init__(self) -> None:
        self.v = {name: _F(0) for name in STAT_NAMES if name != "score"}
        self.v["best-run-turns"] = _F(_FLT_MAX)
        self.shown = {name: True for name in self.v}
        for name in ("best-run-turns", "best-run-distance", "best-run-effective-distance"):
            self.shown[name] = False      # mms shows no value until a run is recorded
        self.started = False
        self.solved = False
        self.penalty = _F(0)
        self.runs_finished = 0

    def _inc(self, name: str, x) -> None:
        self.v[name] = _F(self.v[name] + _F(x))

    def start_run(self) -> None:
        for name in ("current-run-turns", "current-run-distance",
                     "current-run-effective-distance"):
            self.v[name] = _F(0)
        self._inc("current-run-effective-distance", self.penalty)
        self._inc("total-effective-distance", self.penalty)
        self.penalty = _F(0)
        self.started = True

    def add_distance(self, half: int) -> None:
        eff = _F(effective_half_steps(half))
        self._inc("total-distance", half)
        self._inc("total-effective-distance", eff)
        if self.started:
            self._inc("current-run-distance", half)
            self._inc("current-run-effective-distance", eff)

    def add_turn(self) -> None:
        self._inc("total-turns", 1)
        if self.started:
            self._inc("current-run-turns", 1)

    def finish_run(self) -> None:
        # mms calls this after every movement that ends in the goal; the
        # current run's figures stop growing once it is finished, so a second
        # call finds nothing better.
        if self.started:
            self.runs_finished += 1
        self.started = False
        self.solved = True
        v = self.v
        current = _F(v["current-run-turns"] + v["current-run-effective-distance"])
        best = _F(v["best-run-turns"] + v["best-run-effective-distance"])
        if current < best:
            for what in ("turns", "distance", "effective-distance"):
                v[f"best-run-{what}"] = v[f"current-run-{what}"]
                self.shown[f"best-run-{what}"] = True

    def end_unfinished_run(self) -> None:
        self.started = False

    def penalize_for_reset(self) -> None:
        self.penalty = _F(RESET_PENALTY)

    @property
    def score(self) -> float:
        if not self.solved:
            return 2000.0
        v = self.v
        best = _F(v["best-run-effective-distance"] + v["best-run-turns"])
        total = _F(v["total-effective-distance"] + v["total-turns"])
        return float(_F(float(best) + 0.1 * float(total)))

    def values(self) -> dict:
        """Every stat as a number (None where mms shows no value yet)."""
        out = {name: (float(x) if self.shown[name] else None) for name, x in self.v.items()}
        out["score"] = self.score
        return out

    def get(self, name: str) -> str:
        """The answer to ``getStat name`` (``-1`` while there is no value)."""
        if name == "score":
            return _text(_F(self.score))
        if not self.shown[name]:
            return "-1"
        text = _text(self.v[name])
        if STAT_NAMES[name]:
            try:
                return str(int(text))         # QString::toInt of the shown text
            except ValueError:
                return "-1"
        return text


@dataclass(frozen=True)
class MotionProfile:
    """Motion limits for the run-time estimate (SI units; classic 18 cm cells).

    >>> MotionProfile().cell_size
    0.18
    """

    cell_size: float = 0.18
    max_speed: float = 3.0
    acceleration: float = 6.0
    turn_speed: float = 0.7
    turn_time: float = 0.25
    diagonals: bool = False
    turn45_time: float = 0.15

    def __post_init__(self) -> None:
        for name in ("cell_size", "max_speed", "acceleration", "turn_speed"):
            check_float(name, getattr(self, name), min_value=0.0, strict_min=True)
        for name in ("turn_time", "turn45_time"):
            check_float(name, getattr(self, name), min_value=0.0)
        if self.turn_speed > self.max_speed:
            raise ParameterError(f"turn_speed {self.turn_speed} must be <= max_speed "
                                 f"{self.max_speed}")


def route_moves(route) -> list[tuple[int, int]]:
    """Unit moves ``(dr, dc)`` between consecutive cells (waits dropped)."""
    out = []
    for (r0, c0), (r1, c1) in zip(route[:-1], route[1:]):
        d = (int(r1) - int(r0), int(c1) - int(c0))
        if d != (0, 0):
            out.append(d)
    return out


def route_turns(route) -> int:
    """Direction changes along a route (a U-turn counts as 2).

    >>> route_turns([(3, 0), (3, 1), (2, 1), (2, 2), (2, 3)])
    2
    """
    moves = route_moves(route)
    t = 0
    for a, b in zip(moves[:-1], moves[1:]):
        if a != b:
            t += 2 if (a[0] == -b[0] and a[1] == -b[1]) else 1
    return t


def route_straights(route) -> list[int]:
    """Lengths (cells) of the maximal straight runs.

    >>> route_straights([(0, 0), (0, 1), (0, 2), (1, 2)])
    [2, 1]
    """
    moves = route_moves(route)
    if not moves:
        return []
    runs = [1]
    for a, b in zip(moves[:-1], moves[1:]):
        if a == b:
            runs[-1] += 1
        else:
            runs.append(1)
    return runs


def _segment_time(s: float, v_in: float, v_out: float, p: MotionProfile) -> float:
    if s <= 0:
        return 0.0
    a, vm = p.acceleration, p.max_speed
    d = (2 * vm * vm - v_in * v_in - v_out * v_out) / (2 * a)
    if s >= d:
        return (vm - v_in) / a + (vm - v_out) / a + (s - d) / vm
    vp = math.sqrt(a * s + (v_in * v_in + v_out * v_out) / 2)
    if vp < max(v_in, v_out):
        return 2 * s / (v_in + v_out)
    return (vp - v_in) / a + (vp - v_out) / a


def segment_time(s: float, v_in: float, v_out: float,
                 profile: MotionProfile | None = None) -> float:
    """Seconds to drive one straight of ``s`` metres from ``v_in`` to ``v_out``
    (the trapezoidal profile of the module notes; the building block of
    :func:`run_time`).

    >>> segment_time(2.0, 0.0, 0.0, MotionProfile(max_speed=1.0, acceleration=1.0))
    3.0
    """
    return _segment_time(float(s), float(v_in), float(v_out), profile or MotionProfile())


def run_time(route, profile: MotionProfile | None = None, *,
             stop_at_turns: bool = False) -> float:
    """Estimated seconds to drive ``route`` (see the module notes).

    ``stop_at_turns=True`` models a search run: the mouse stops for every
    turn (an in-place turn of ``turn_time``), so straights start and end at
    rest and U-turns cost two turns.

    >>> p = MotionProfile(max_speed=1.0, acceleration=1.0, cell_size=1.0)
    >>> run_time([(0, 0), (0, 1), (0, 2)], p)   # 2 m: 1 s up, 1 s cruise, 1 s down
    3.0
    """
    p = profile or MotionProfile()
    moves = route_moves(route)
    if not moves:
        return 0.0
    if stop_at_turns:
        runs = route_straights(route)
        t = sum(_segment_time(n * p.cell_size, 0.0, 0.0, p) for n in runs)
        return t + route_turns(route) * p.turn_time
    # Corner cells: the move direction changes entering vs leaving the cell.
    kinds = []                                 # per turn: +1 right, -1 left
    for a, b in zip(moves[:-1], moves[1:]):
        if a == b:
            kinds.append(0)
        else:
            cross = a[1] * b[0] - a[0] * b[1]  # row-down frame: >0 is a right turn
            kinds.append(2 if a == (-b[0], -b[1]) else (1 if cross > 0 else -1))
    # Split into pieces: straight lengths (half-cell units) and turn costs.
    time = 0.0
    half = p.cell_size / 2
    straight = half                            # from the start cell's centre
    v_in = 0.0
    i = 0
    n = len(kinds)
    while i < n:
        k = kinds[i]
        if k == 0:
            straight += 2 * half
            i += 1
            continue
        if p.diagonals and k in (1, -1):
            j = i
            while j + 1 < n and kinds[j + 1] == -kinds[j]:
                j += 1
            m = j - i + 1
            if m >= 2:
                time += _segment_time(straight, v_in, p.turn_speed, p)
                time += 2 * p.turn45_time
                diag = m * p.cell_size / math.sqrt(2)
                time += _segment_time(diag, p.turn_speed, p.turn_speed, p)
                v_in = p.turn_speed
                straight = 0.0
                i = j + 1
                continue
        time += _segment_time(straight, v_in, p.turn_speed, p)
        time += p.turn_time * (2 if k == 2 else 1)
        v_in = p.turn_speed
        straight = 0.0
        i += 1
    straight += half                           # into the last cell's centre
    time += _segment_time(straight, v_in, 0.0, p)
    return time


def contest_score(fast_run_time: float, search_time: float, crashes: int = 0) -> float:
    """Time-based contest score: ``fast_run_time + search_time / 30 + 10 * crashes``.

    >>> contest_score(10.0, 60.0, 1)
    22.0
    """
    return float(fast_run_time) + float(search_time) / 30.0 + 10.0 * int(crashes)


def effective_distance(n: int) -> float:
    """mms's effective distance of one ``moveForward n`` (``2n`` half cells).

    >>> effective_distance(1), effective_distance(2), effective_distance(6)
    (2.0, 3.0, 7.0)
    """
    return effective_half_steps(2 * n)


def route_commands(route, heading: int) -> list[tuple]:
    """The command log of driving ``route`` with one ``moveForward n`` per straight.

    ``heading`` (0 N, 1 E, 2 S, 3 W) is the mouse's heading at the first
    cell; turns are 90-degree commands (a U-turn is two). Log entries are
    ``("T",)`` for a turn and ``("F", cells)`` for a move through ``cells``.

    >>> route_commands([(1, 0), (0, 0), (0, 1), (0, 2)], 0)
    [('F', [(0, 0)]), ('T',), ('F', [(0, 1), (0, 2)])]
    """
    dirs = {(-1, 0): 0, (0, 1): 1, (1, 0): 2, (0, -1): 3}
    log: list[tuple] = []
    h = heading
    cells = [tuple(map(int, c)) for c in route]
    i = 0
    while i < len(cells) - 1:
        d = dirs[(cells[i + 1][0] - cells[i][0], cells[i + 1][1] - cells[i][1])]
        log.extend([("T",)] * (0, 1, 2, 1)[(d - h) % 4])
        h = d
        j = i + 1
        while j < len(cells) - 1 and dirs[(cells[j + 1][0] - cells[j][0],
                                          cells[j + 1][1] - cells[j][1])] == d:
            j += 1
        log.append(("F", cells[i + 1:j + 1]))
        i = j
    return log


def mms_stats(log, start, goals) -> dict:
    """mms's statistics and score from a command log (see the module notes).

    ``log`` holds ``("T",)`` per turn, ``("F", cells)`` per successful
    ``moveForward`` (``cells``: the cells entered, in order) and ``("R",)``
    for a reset to the start. The rules are those of the hosted mms world
    (:class:`MmsStats`): a run starts with a move
    from the start cell and finishes when a movement ends in a goal cell.

    >>> log = [("F", [(1, 0)]), ("T",), ("F", [(1, 1), (1, 2), (1, 3)])]
    >>> s = mms_stats(log, start=(0, 0), goals={(1, 3)})
    >>> s["total_distance"], s["best_run_turns"], s["best_run_effective_distance"]
    (8, 1, 6.0)
    >>> s["score"]                       # 1 + 6 + 0.1 * (1 + 6)
    7.7

    ``stats`` holds every ``getStat`` answer, as mms would print it:

    >>> s["stats"]["total-distance"], s["stats"]["score"]
    ('8', '7.7')
    """
    goals = {tuple(g) for g in goals}
    start = tuple(start)
    stats = MmsStats()
    pos = start
    for entry in log:
        if entry[0] == "R":                 # ackReset: back on the start, penalty due
            stats.penalize_for_reset()
            stats.end_unfinished_run()
            pos = start
            continue
        if entry[0] == "T":
            stats.add_turn()
        else:
            cells = [tuple(c) for c in entry[1]]
            if not cells:
                continue
            if pos == start:
                stats.start_run()
            stats.add_distance(2 * len(cells))
            pos = cells[-1]
        if pos in goals:                    # every movement's end is checked, as mms does
            stats.finish_run()
        elif pos == start:
            stats.end_unfinished_run()
    v = stats.values()
    return {
        "stats": {name: stats.get(name) for name in STAT_NAMES},
        "total_turns": int(v["total-turns"]), "total_distance": int(v["total-distance"]),
        "total_effective_distance": v["total-effective-distance"],
        "runs_finished": stats.runs_finished,
        "best_run_turns": None if v["best-run-turns"] is None else int(v["best-run-turns"]),
        "best_run_effective_distance": v["best-run-effective-distance"],
        "best_run_distance": None if v["best-run-distance"] is None
        else int(v["best-run-distance"]),
        "score": float(stats.get("score")),
    }
