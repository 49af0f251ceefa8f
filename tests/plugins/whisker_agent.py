"""An agent with a new, non-range sensor, in one module plus their specs.

``whiskers`` is a contact sensor: ``n`` feelers of length ``length`` around
the robot, each reading True when its tip is in a wall (or off the map).
``bumper`` steers for the goal and, when a feeler touches, turns away from
the side that touches. The sensor meets the sensor protocol
(:mod:`robomaze.sense.protocol`: ``observe`` and ``describe``); the agent's
spec says it needs a sensor with the ``contact`` flag.
"""

from __future__ import annotations

import math

import numpy as np

from robomaze.registry import AGENTS, SENSORS, Option, Spec
from robomaze.sim.agents.base import pursue


class Whiskers:
    """``n`` feelers evenly spread around the robot, ``length`` metres long."""

    def __init__(self, *, n: int = 8, length: float = 0.15, rng=None) -> None:
        self.n, self.length = int(n), float(length)
        self.angles = np.arange(self.n) * (2 * math.pi / self.n)

    def observe(self, grid, pose, *, rng=None, time: float = 0.0) -> np.ndarray:
        x, y, th = (float(v) for v in pose[:3])
        tips = np.column_stack([x + self.length * np.cos(th + self.angles),
                                y + self.length * np.sin(th + self.angles)])
        cells = grid.world_to_cells(tips)
        rows, cols = grid.shape
        inside = ((cells[:, 0] >= 0) & (cells[:, 0] < rows)
                  & (cells[:, 1] >= 0) & (cells[:, 1] < cols))
        touch = np.ones(self.n, bool)
        touch[inside] = grid.occupied[cells[inside, 0], cells[inside, 1]]
        return touch

    def describe(self) -> dict:
        return {"type": "whiskers", "n": self.n, "length": self.length}


def whiskers(*, n: int = 8, length: float = 0.15, rng=None) -> Whiskers:
    """Contact whiskers: True where a feeler's tip is in a wall."""
    return Whiskers(n=n, length=length, rng=rng)


class Bumper:
    """Steer for the goal; when a front whisker touches, turn away from the
    side that touches, then drive straight for a while before steering again."""

    def __init__(self, ctx, *, speed: float = 0.3, turn: float = 1.5,
                 escape: int = 15) -> None:
        self.ctx, self.speed, self.turn, self.escape = ctx, float(speed), float(turn), escape
        self.straight = 0

    def __call__(self, obs):
        pose = tuple(float(v) for v in obs["odom"][:3])
        touch = np.asarray(obs["scan"], bool)
        n = len(touch)
        ahead = [i for i in range(n) if i <= n // 4 or i >= n - n // 4]   # within 90 degrees
        if any(touch[i] for i in ahead) or obs.get("collision"):
            left = sum(touch[i] for i in ahead if 0 < i <= n // 4)
            right = sum(touch[i] for i in ahead if i >= n - n // 4)
            self.straight = self.escape
            return (0.0, -self.turn if left > right else self.turn)
        if self.straight > 0:
            self.straight -= 1
            return (self.speed, 0.0)
        return pursue(pose, self.ctx.goal.centre, speed=self.speed,
                      omega_max=self.ctx.kinematics.omega_max)


def bumper(ctx, *, speed: float = 0.3, turn: float = 1.5, escape: int = 15) -> Bumper:
    """Steer for the goal; turn away from a touching whisker (needs ``whiskers``)."""
    return Bumper(ctx, speed=speed, turn=turn, escape=escape)


SENSOR_SPEC = Spec(
    "sensor", "whiskers", "tests.plugins.whisker_agent:whiskers",
    "Contact whiskers: True where a feeler's tip is in a wall.",
    options=(Option("n", int, 8, "feelers, evenly spread around the robot", low=1),
             Option("length", float, 0.15, "feeler length from the robot's centre (m)",
                    low=0.0)),
    takes_rng=True, flags=frozenset({"contact"}))
AGENT_SPEC = Spec(
    "agent", "bumper", "tests.plugins.whisker_agent:bumper",
    "Steer for the goal; turn away from a touching whisker (needs whiskers).",
    options=(Option("speed", float, 0.3, "forward speed (m/s)", low=0.0),
             Option("turn", float, 1.5, "turning rate when a whisker touches (rad/s)",
                    low=0.0),
             Option("escape", int, 15, "steps driven straight after a touch", low=0)),
    needs=("sensor:contact",))
SENSORS.register(SENSOR_SPEC, replace=True)
AGENTS.register(AGENT_SPEC, replace=True)
