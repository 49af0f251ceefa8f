"""The agents' declarations: one :class:`~robomaze.registry.Spec` each.

Flags: ``uses_map`` (the agent is given the occupancy grid; otherwise only
the map frame) and ``explorer`` (its runs report the fraction of the maze
seen). ``needs``: ``"sensor:range"`` (it reads distances), ``"widened"``
(it moves on a maze lattice), ``"ompl"``.

>>> from robomaze.registry import AGENTS
>>> AGENTS.spec("explore").flags == {"explorer"}, AGENTS.spec("follow_plan").hands_to
(True, 'method')
"""

from __future__ import annotations

from ...registry import AGENTS, Option, Spec, Warmup

__all__ = ["SPECS"]

# The agents share their kernels: one warm-up task simulates them all.
# follow_plan plans with max_clearance; every run's clearance at points is
# compiled by "common" (round 13: it waited for the "metrics" task for it),
# the range sensors' scans and marks by "sense" (round 14)
_SIMULATE = Warmup(task="simulate", cost=0.9,
                   needs=("common", "heap", "plan:max_clearance", "sense"))
_SPEED = Option("speed", float, None, "cruise speed (m/s); default the kinematics' limit",
                low=0.0)


def _agent(name: str, description: str, *options: Option, flags=(), needs=(), **kw) -> Spec:
    return Spec("agent", name, f"robomaze.sim.agents.{name}:{name}", description,
                options=options, flags=frozenset(flags), needs=needs, warmup=_SIMULATE, **kw)


SPECS = [
    _agent("wall_follow", "Build a :class:`WallFollower` (options: side, distance, speed, kp, "
           "ki, kd, loop_check).",
           Option("side", str, "right", "the wall followed", choices=("right", "left")),
           Option("distance", float, None, "distance (m) kept from the wall", low=0.0),
           _SPEED,
           Option("kp", float, 2.5, "proportional gain of the distance controller"),
           Option("ki", float, 0.0, "integral gain"),
           Option("kd", float, 0.3, "derivative gain"),
           Option("loop_check", bool, True, "give up when the robot circles an island"),
           needs=("sensor:range",)),
    _agent("follow_plan", "Build a :class:`PlanFollower` (options: method, lookahead, speed, "
           "replan_after, max_replans, margin, off_path, backup_s, and planner options).",
           Option("method", str, "max_clearance", "the planner (its options pass through)"),
           Option("lookahead", float, None, "pure-pursuit lookahead (m)", low=0.0),
           _SPEED,
           Option("replan_after", int, 3, "blocked steps before it replans", low=1),
           Option("max_replans", int, 20, "replans before it gives up", low=0),
           Option("margin", float, None, "growth (m) of the footprint it plans for; default a "
                  "quarter cell", low=0.0),
           Option("off_path", float, 0.5, "metres its believed pose may lie off the path "
                  "before it replans", low=0.0),
           Option("backup_s", float, 0.5, "seconds it backs up after a refused step before "
                  "it replans (0: push on, replan after replan_after refused steps)", low=0.0),
           flags=("uses_map",), hands_to="method"),
    _agent("explore", "Build an :class:`Explorer` (options: margin, speed, lookahead, "
           "guard_s, stall_s, max_futile).",
           Option("margin", float, None, "growth (m) of the footprint it plans for; default a "
                  "quarter cell", low=0.0),
           _SPEED,
           Option("lookahead", int, 2, "path cells ahead it steers to", low=0),
           Option("guard_s", float, 0.25, "seconds of the next arc checked on the believed map",
                  low=0.0),
           Option("stall_s", float, 3.0, "seconds without a quarter cell of progress that "
                  "start a recovery", low=0.0),
           Option("max_futile", int, 5, "recoveries in a row without a cell of progress "
                  "before it stands still", low=1),
           flags=("explorer",), needs=("sensor:range",)),
    _agent("tremaux", "Build a :class:`TremauxAgent` (option: speed).", _SPEED,
           flags=("explorer",), needs=("sensor:range", "widened")),
    _agent("car_pursuit", "Build a :class:`CarPursuit` (options: turning_radius, lookahead, "
           "speed, max_checks, time_limit and planner options).",
           Option("turning_radius", float, None, "the car's minimum turning radius (m)",
                  low=0.0),
           Option("lookahead", float, None, "pure-pursuit lookahead (m)", low=0.0),
           _SPEED,
           Option("max_checks", int, 100_000, "OMPL budget in validity checks", low=1),
           Option("time_limit", float, 10.0, "OMPL wall-clock safety net (s)", low=0.0),
           flags=("uses_map",), needs=("ompl",), open_options=True),
]

AGENTS.declare(*SPECS)
