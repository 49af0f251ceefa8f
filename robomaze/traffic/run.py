"""Run a traffic world to its end and measure it: :func:`run_traffic`.

A run ends when every robot is at its goal (``success``), when every
unfinished robot is stalled (``deadlock``, :mod:`robomaze.traffic.stall`),
or at the step budget (``budget``). Metrics (names in :data:`ROBOT_METRICS`
and :data:`RUN_METRICS`):

>>> from robomaze.world import WorldSpec
>>> from robomaze.traffic import TrafficSpec, RobotSpec
>>> spec = TrafficSpec(world=WorldSpec(generator="kruskal", rows=1, cols=3, corridor=16,
...                    resolution=0.1, seed=0), robots=RobotSpec(footprint="disc:0.3"), count=2)
>>> r = run_traffic(spec)
>>> r.outcome, r.metrics["arrived"], r.metrics["collisions"]
('success', 2, 0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..errors import NoPathError, RobomazeError
from . import _step
from .spec import TrafficSpec
from .stall import StallDetector
from .world import TrafficWorld, build

__all__ = ["run_traffic", "TrafficResult", "ROBOT_METRICS", "RUN_METRICS", "OUTCOMES"]

#: Outcomes of a traffic run.
OUTCOMES = ("success", "deadlock", "budget")

#: Per-robot metrics (``TrafficResult.robots``): name -> meaning.
ROBOT_METRICS = {
    "success": "reached its goal (within goal_radius) during the run",
    "length": "metres driven (arc length)",
    "time": "arrival time (s), NaN if it never arrived",
    "clearance_wall": "minimum distance from its footprint to the walls (m)",
    "clearance_robot": "minimum distance to another robot's footprint (m)",
    "clearance_obstacle": "minimum distance to a moving obstacle (m)",
    "ttc_min": "minimum time to collision with any body, circumscribed discs at constant "
               "velocity (s)",
    "collisions_robot": "contacts with other robots",
    "collisions_obstacle": "contacts with moving obstacles",
    "collisions_wall": "contacts with walls",
    "stalled": "stalled at the end (no progress for stall_time)",
}

#: Per-run metrics (``TrafficResult.metrics``).
RUN_METRICS = {
    "robots": "number of robots",
    "obstacles": "number of moving obstacles",
    "arrived": "robots that reached their goal",
    "success_rate": "arrived / robots",
    "makespan": "time (s) the last robot arrived; NaN unless all arrived",
    "sum_of_costs": "sum of arrival times (s); NaN unless all arrived",
    "throughput": "arrivals per minute of simulated time",
    "collisions": "all robot contacts (robot-robot counted once per pair)",
    "collisions_robot": "robot-robot contacts (once per pair)",
    "collisions_obstacle": "robot-obstacle contacts",
    "collisions_wall": "robot-wall contacts",
    "clearance_wall": "minimum over robots",
    "clearance_robot": "minimum inter-robot clearance (m)",
    "clearance_obstacle": "minimum robot-obstacle clearance (m)",
    "ttc_min": "minimum time to collision (s)",
    "sim_time": "simulated seconds",
    "steps": "steps run",
    "stall": "none, deadlock or livelock",
}


@dataclass(frozen=True, eq=False)
class TrafficResult:
    """A run's ``outcome`` (:data:`OUTCOMES`), per-robot and run metrics and the poses.

    ``poses`` is ``(steps + 1, n_bodies, 3)`` when recorded (robots first),
    ``scans`` ``(steps + 1, n_robots, n_beams)`` when scans were recorded.
    """

    outcome: str
    metrics: dict
    robots: list
    world: TrafficWorld
    poses: np.ndarray | None = None
    scans: np.ndarray | None = None
    info: dict = field(default_factory=dict)


class _PyAgents:
    """Python agents (robomaze.sim.AGENTS) whose commands become ORCA's preferred velocities."""

    def __init__(self, world: TrafficWorld, name: str) -> None:
        from ..sim.agents import AGENTS, AgentContext
        from ..sim.env import GoalRegion
        from ..sim.kinematics import Kinematics
        from .spec import child_rng

        g = world.grid
        factory = AGENTS.lookup(name)
        uses_map = AGENTS.spec(name).flag("uses_map")
        self.world = world
        self.agents = []
        self.failed = np.zeros(world.n_robots, bool)
        for i, r in enumerate(world.robots):
            kin = Kinematics(v_max=r.v_max, omega_max=r.omega_max, a_max=r.a_max,
                             alpha_max=r.alpha_max)
            ctx = AgentContext(footprint=r.shape, kinematics=kin, sensor=world.sensors[i],
                               dt=world.spec.dt, start=tuple(world.pose[i]),
                               goal=GoalRegion(g, world.goal[i], world.goal_radius[i]),
                               shape=g.shape, resolution=g.resolution, origin=g.origin,
                               widening=g.widening,
                               grid=g if uses_map else None,
                               rng=child_rng(world.spec.world.seed, 100 + i))
            try:
                self.agents.append(factory(ctx))
            except NoPathError:
                self.agents.append(None)
                self.failed[i] = True

    def commands(self, scans: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        w = self.world
        nr = w.n_robots
        cmd = np.zeros((nr, 3))
        pref = np.zeros((nr, 2))
        odom = w.odometry()
        for i, a in enumerate(self.agents):
            if a is None or self.failed[i]:
                continue
            obs = {"scan": w.sensors[i].wrap(scans[i], w.time), "odom": odom[i].copy(),
                   "collision": False}
            obs["scans"] = (obs["scan"],)
            try:
                v, om = (float(x) for x in a(obs))
            except NoPathError:
                self.failed[i] = True
                continue
            cmd[i] = (v, 0.0, om)
            th = w.pose[i, 2]
            pref[i] = (v * math.cos(th), v * math.sin(th))
        return cmd, pref


def run_traffic(spec: TrafficSpec | dict, *, record: bool = False, record_scans: bool = False,
                world: TrafficWorld | None = None) -> TrafficResult:
    """Run ``spec`` until success, deadlock or the step budget (see the module docstring).

    Parameters
    ----------
    spec : TrafficSpec or dict
    record : bool
        Keep every step's poses (``result.poses``).
    record_scans : bool
        Keep every step's scans too (for bags and figures).
    world : TrafficWorld, optional
        A world already built from ``spec`` (it is reset first).
    """
    w = world if world is not None else build(spec)
    if world is not None:
        w.reset_state()
    sp = w.spec
    nr = w.n_robots
    stall_d = sp.stall_distance if sp.stall_distance is not None else \
        max(2.0 * w.grid.resolution, 0.05)
    det = StallDetector(nr, window=sp.stall_time, distance=stall_d)
    agents = None
    if sp.agent != "follow_plan":
        agents = _PyAgents(w, sp.agent)
        w.mode[:] = _step.PREF
    poses = [w.pose.copy()] if record else None
    scans = [w.scan()] if record_scans else None
    outcome = "budget"
    to_go = np.full(nr, np.inf)
    for _ in range(sp.max_steps):
        if agents is not None:
            cmd, pref = agents.commands(scans[-1] if scans else w.scan())
            w.step(command=cmd, pref=pref)
            # Python agents' distance to go: the same goal fields
            _step.distances_to_go(w.fields, w.field_id, w.pose, nr, *w._gargs(), to_go)
        else:
            w.step()
            to_go = w.progress.copy()
        if record:
            poses.append(w.pose.copy())
        if record_scans:
            scans.append(w.scan())
        done = ~np.isnan(w.arrival)
        moved = np.hypot(w.twist[:nr, 0], w.twist[:nr, 1]) * w.frac[:nr] * sp.dt
        det.update(w.time, to_go, moved, w.at_goal)
        if bool(w.at_goal.all()) and bool(done.all()):
            outcome = "success"
            break
        if det.all_stalled(w.at_goal):
            outcome = "deadlock"
            break
    return _result(w, outcome, det, poses, scans)


def _result(w: TrafficWorld, outcome: str, det: StallDetector, poses, scans) -> TrafficResult:
    nr = w.n_robots
    done = ~np.isnan(w.arrival)
    robots = []
    for i in range(nr):
        robots.append({
            "success": bool(done[i]), "length": float(w.length[i]),
            "time": float(w.arrival[i]), "clearance_wall": float(w.clear_wall[i]),
            "clearance_robot": float(w.clear_robot[i]),
            "clearance_obstacle": float(w.clear_obst[i]), "ttc_min": float(w.ttc[i]),
            "collisions_robot": int(w.hits[i, _step.HIT_ROBOT]),
            "collisions_obstacle": int(w.hits[i, _step.HIT_OBSTACLE]),
            "collisions_wall": int(w.hits[i, _step.HIT_WALL]),
            "stalled": bool(det.stalled[i]),
        })
    all_in = bool(done.all())
    # a robot-robot contact is counted by both robots: once per pair here
    c_rr = int(w.hits[:, _step.HIT_ROBOT].sum()) // 2
    c_ro = int(w.hits[:, _step.HIT_OBSTACLE].sum())
    c_rw = int(w.hits[:, _step.HIT_WALL].sum())

    def _min(a):
        return float(np.min(a)) if len(a) else math.inf

    m = {
        "robots": nr, "obstacles": w.n_obstacles, "arrived": int(done.sum()),
        "success_rate": float(done.mean()) if nr else 0.0,
        "makespan": float(np.max(w.arrival)) if all_in else math.nan,
        "sum_of_costs": float(np.sum(w.arrival)) if all_in else math.nan,
        "throughput": float(done.sum()) / w.time * 60.0 if w.time > 0 else 0.0,
        "collisions": c_rr + c_ro + c_rw, "collisions_robot": c_rr,
        "collisions_obstacle": c_ro, "collisions_wall": c_rw,
        "clearance_wall": _min(w.clear_wall), "clearance_robot": _min(w.clear_robot),
        "clearance_obstacle": _min(w.clear_obst), "ttc_min": _min(w.ttc),
        "sim_time": float(w.time), "steps": int(w.steps),
        "stall": det.kind() if outcome == "deadlock" else "none",
    }
    return TrafficResult(outcome, m, robots, w,
                         np.stack(poses) if poses is not None else None,
                         np.stack(scans) if scans is not None else None)
