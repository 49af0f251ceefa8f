"""Execute a MAPF plan in the traffic simulator, reactive layer off, and see if its timing held.

A plan (:mod:`robomaze.mapf`) is a schedule on a grid: agent ``i`` is on cell
``cells[t, i]`` at step ``t``. Here every agent becomes a holonomic disc
robot (``omni`` kinematics, its acceleration bounded) in a traffic world on
the same map, each plan step lasting ``step_time`` seconds. ORCA is off
and the robots take body commands directly (the traffic step's
``COMMAND`` mode): each tracks its own schedule -- the planned position,
moving in a straight line between cell centres at constant speed, with a
proportional correction -- and nothing else. Whatever the simulator then
reports (its exact continuous contact check: robot-robot and robot-wall
contacts) is what the plan's timing implies for bodies that must
accelerate.

Reported per agent: the *lateness*, for each planned arrival at a new
cell, of the first time the robot came within ``tol`` of that cell's
centre after leaving the previous one, against the planned time (its
maximum over the plan, seconds; ``inf`` if never reached), and contacts
with robots and walls. The plan's timing *held* if no robot was later than
``max_late`` plan steps and nobody touched anything.

The MAPF grid is drawn ``upsample`` times finer for the simulator (the
traffic world keeps goal fields only on cells a disc clears with half a
cell to spare; at the map's own resolution a one-cell corridor has none).
An agent whose body is ``k x k`` cells is a disc of radius
``radius * k`` cells centred on its body.
"""

from __future__ import annotations

import math
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .._validate import check_float, check_int
from ..grid import OccupancyGrid
from ..mapf import Instance, Plan

__all__ = ["ExecResult", "execute_plan"]


@dataclass(frozen=True)
class ExecResult:
    """What the simulator made of a plan (see the module docstring)."""

    lateness: np.ndarray            # (n,) seconds, max over the agent's planned arrivals
    robot_contacts: np.ndarray      # (n,) simulator steps in contact with another robot
    wall_contacts: np.ndarray       # (n,) steps in contact with a wall
    step_time: float
    max_late: float
    finished: bool                  # every robot within tol of its goal at the end
    sim_time: float
    min_robot_clearance: float      # metres between robot discs (inf: never near)
    extra: dict = field(default_factory=dict)

    @property
    def collisions(self) -> int:
        """Robots that touched another robot or a wall."""
        return int(((self.robot_contacts > 0) | (self.wall_contacts > 0)).sum())

    @property
    def held(self) -> bool:
        """Whether every robot kept its schedule (lateness within ``max_late``
        steps) and nothing touched."""
        return bool(self.finished and self.collisions == 0
                    and np.all(self.lateness <= self.max_late * self.step_time))

    def summary(self) -> dict:
        late = self.lateness
        fin = np.isfinite(late)
        return {"held": self.held, "collisions": self.collisions,
                "robot_contacts": int(self.robot_contacts.sum()),
                "wall_contacts": int(self.wall_contacts.sum()),
                "max_lateness_s": float(late.max()) if len(late) else 0.0,
                "max_lateness_steps": float(late.max() / self.step_time) if len(late) else 0.0,
                "late_agents": int((late > self.max_late * self.step_time).sum()),
                "unreached": int((~fin).sum()), "finished": self.finished,
                "step_time_s": self.step_time, "sim_time_s": self.sim_time,
                "min_robot_clearance_m": self.min_robot_clearance}


def _schedule(centres: np.ndarray, s: float, tau: float):
    """Planned positions and velocities of every agent at time ``s``."""
    T = centres.shape[0] - 1
    u = s / tau
    t = min(int(math.floor(u)), T)
    if t >= T:
        return centres[T], np.zeros_like(centres[T])
    a = u - t
    p = centres[t] * (1 - a) + centres[t + 1] * a
    v = (centres[t + 1] - centres[t]) / tau
    return p, v


def execute_plan(instance: Instance, plan: Plan, *, step_time: float = 1.0,
                 resolution: float = 1.0, radius: float = 0.3, v_max: float | None = None,
                 a_max: float | None = None, gain: float = 3.0, dt: float | None = None,
                 tol: float = 0.1, max_late: float = 0.25, upsample: int = 5,
                 settle_steps: int = 3) -> ExecResult:
    """Run ``plan`` in a traffic world on ``instance``'s grid (see the module docstring).

    Parameters
    ----------
    step_time : float
        Seconds per plan step (a move of one cell: ``resolution / step_time`` m/s).
    resolution : float
        Metres per MAPF cell.
    radius : float
        Disc radius per cell of body side (0.3: a point agent's disc is 0.6
        of its cell wide).
    v_max, a_max : float or None
        Robot limits; default twice the plan's speed and four times the
        plan's speed per step time.
    gain : float
        Proportional correction towards the planned position (1/s).
    dt : float or None
        Simulator step (default ``step_time / 20``).
    tol : float
        Arrival tolerance, in cells.
    max_late : float
        Lateness allowed, in plan steps, for the timing to have held.
    upsample : int
        Simulator cells per MAPF cell side.
    settle_steps : int
        Plan steps simulated after the makespan.
    """
    step_time = check_float("step_time", step_time, min_value=0.0, strict_min=True)
    resolution = check_float("resolution", resolution, min_value=0.0, strict_min=True)
    radius = check_float("radius", radius, min_value=0.0, max_value=0.5, strict_min=True)
    upsample = check_int("upsample", upsample, min_value=1)
    gain = check_float("gain", gain, min_value=0.0)
    tol = check_float("tol", tol, min_value=0.0, strict_min=True)
    speed = resolution / step_time
    v_max = 2.0 * speed if v_max is None else check_float("v_max", v_max, min_value=0.0,
                                                          strict_min=True)
    a_max = 4.0 * speed / step_time if a_max is None else \
        check_float("a_max", a_max, min_value=0.0, strict_min=True)
    dt = step_time / 20.0 if dt is None else check_float("dt", dt, min_value=0.0,
                                                         strict_min=True)
    from ..io import write_grid
    from ..world import WorldSpec
    from .spec import OrcaParams, RobotSpec, TrafficSpec
    from .world import COMMAND, build

    cells = plan.trimmed().cells
    n = cells.shape[1]
    k = instance.size
    occ = instance.occupied
    grid = OccupancyGrid(occ, resolution=resolution)
    off = (k - 1) / 2.0
    centres = np.stack([grid.cells_to_world(cells[t] + off) for t in range(cells.shape[0])])
    rc = radius * k * resolution
    fine = OccupancyGrid(np.kron(occ, np.ones((upsample, upsample), bool)),
                         resolution=resolution / upsample)
    T = cells.shape[0] - 1
    steps = int(math.ceil((T + settle_steps) * step_time / dt))
    robots = tuple(RobotSpec(footprint=f"disc:{rc!r}", kinematics="omni", v_max=v_max,
                             a_max=a_max, omega_max=1.0, alpha_max=1.0, beams=4,
                             start=tuple(centres[0, i]), goal=tuple(centres[-1, i]))
                   for i in range(n))
    s0 = fine.world_to_cell(centres[0, 0])
    g0 = fine.world_to_cell(centres[-1, 0])
    with tempfile.TemporaryDirectory(prefix="robomaze-mapf-exec-") as tmp:
        path = Path(tmp) / "map.yaml"
        write_grid(fine, path)
        spec = TrafficSpec(world=WorldSpec(grid=str(path), start=s0, goal=g0, seed=0),
                           robots=robots, assignment="explicit",
                           orca=OrcaParams(enabled=False, bias=0.0), dt=dt,
                           max_steps=steps + 1, goal_radius=tol * resolution)
        w = build(spec)
    w.pose[:n, 2] = 0.0
    pos = np.empty((steps + 1, n, 2))
    pos[0] = w.pose[:n, :2]
    command = np.zeros((n, 3))
    for s in range(steps):
        p_ref, v_ref = _schedule(centres, (s + 1) * dt, step_time)
        u = v_ref + gain * (p_ref - w.pose[:n, :2])
        sp = np.hypot(u[:, 0], u[:, 1])
        scale = np.where(sp > v_max, v_max / np.maximum(sp, 1e-300), 1.0)
        u = u * scale[:, None]
        th = w.pose[:n, 2]
        c, si = np.cos(th), np.sin(th)
        command[:, 0] = c * u[:, 0] + si * u[:, 1]
        command[:, 1] = -si * u[:, 0] + c * u[:, 1]
        command[:, 2] = 0.0
        w.step(mode=COMMAND, command=command)
        pos[s + 1] = w.pose[:n, :2]
    late = _lateness(cells, centres, pos, dt, step_time, tol * resolution)
    end = np.hypot(*(pos[-1] - centres[-1]).T)
    return ExecResult(lateness=late, robot_contacts=w.hits[:, 0].copy(),
                      wall_contacts=w.hits[:, 2].copy(), step_time=step_time,
                      max_late=max_late, finished=bool((end <= tol * resolution).all()),
                      sim_time=steps * dt, min_robot_clearance=float(w.clear_robot.min())
                      if n else math.inf, extra={"radius_m": rc, "v_max": v_max,
                                                  "a_max": a_max, "dt": dt})


def _lateness(cells, centres, pos, dt, tau, tol) -> np.ndarray:
    """Per agent: max over planned arrivals of (first time within ``tol`` of the
    new cell's centre after the planned departure) - (planned arrival time)."""
    n = cells.shape[1]
    times = np.arange(pos.shape[0]) * dt
    late = np.zeros(n)
    for i in range(n):
        moved = np.flatnonzero((cells[1:, i] != cells[:-1, i]).any(axis=1)) + 1
        for t in moved:
            depart = (t - 1) * tau
            d = np.hypot(*(pos[:, i] - centres[t, i]).T)
            ok = np.flatnonzero((d <= tol) & (times >= depart - 1e-9))
            if not len(ok):
                late[i] = math.inf
                break
            late[i] = max(late[i], times[ok[0]] - t * tau)
    return late
