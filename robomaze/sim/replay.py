"""Re-execute a recorded trajectory's commands in the simulator.

Kept apart from :mod:`robomaze.sim.trajectory` (the data type and its file
format) because it runs the simulator, which itself produces trajectories.
"""

from __future__ import annotations

from .env import SimEnv
from .kinematics import Kinematics
from .robot import Robot
from .trajectory import Trajectory

__all__ = ["replay"]


def replay(trajectory: Trajectory, grid, *, footprint, kinematics=None, dt: float | None = None
           ) -> Trajectory:
    """Re-execute a trajectory's commands from its first pose; returns the new trajectory.

    The simulator is deterministic, so replaying a recorded run on the same
    grid with the same robot reproduces its poses and collision flags
    exactly. ``kinematics`` and ``dt`` default to those stored in ``meta``.
    """
    meta = trajectory.meta
    if kinematics is None:
        kinematics = Kinematics(**meta["kinematics"]) if "kinematics" in meta else Kinematics()
    if dt is None:
        dt = float(meta.get("dt", trajectory.t[1] - trajectory.t[0] if len(trajectory) > 1 else 0.05))
    env = SimEnv(grid, Robot(footprint, kinematics), start=tuple(trajectory.poses[0]),
                 dt=dt, max_steps=max(trajectory.steps, 1),
                 goal=tuple(float(v) for v in trajectory.poses[0][:2]), stop_at_goal=False)
    env.reset()
    for cmd in trajectory.commands[1:]:
        env.step(cmd)
    return env.trajectory(meta=meta)
