"""What every agent gets to know, and small helpers they share.

An agent is built by a factory ``factory(ctx, **options)`` from an
:class:`AgentContext` and is then called once per step with the
simulator's observation, returning an action. The context deliberately
carries the *map frame* (size, resolution, origin and, for widened mazes,
the lattice of maze cells -- what a micromouse knows before it starts)
but the occupancy itself only for agents whose spec has the flag ``uses_map``
(:data:`robomaze.registry.AGENTS`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ...grid import Frame, OccupancyGrid, Widening
from ...sense.sensor import RangeSensor
from ..env import GoalRegion
from ..kinematics import Kinematics, wrap_angle

__all__ = ["AgentContext", "beam_index", "beam_range", "front_range", "pursue",
           "world_to_cell_units"]


@dataclass(frozen=True, eq=False)
class AgentContext:
    """Everything an agent may know before the run starts."""

    footprint: object
    kinematics: Kinematics
    sensor: RangeSensor | None
    dt: float
    start: tuple
    goal: GoalRegion
    shape: tuple
    resolution: float
    origin: tuple
    widening: Widening | None
    grid: OccupancyGrid | None
    rng: np.random.Generator

    @property
    def frame(self) -> Frame:
        """The map frame (shape, resolution, origin) as a :class:`~robomaze.grid.Frame`."""
        return Frame(tuple(self.shape), self.resolution, tuple(self.origin))

    @property
    def corridor(self) -> float | None:
        """Corridor width in metres for widened mazes, else None."""
        if self.widening is None:
            return None
        return self.widening.corridor * self.resolution


def beam_index(scan, angle: float) -> int | None:
    """Index of the beam pointing closest to ``angle``, or None if none is within half a step."""
    n = len(scan.ranges)
    inc = scan.angle_increment
    if n == 1 or inc == 0.0:
        return 0 if abs(wrap_angle(angle - scan.angle_min)) < 1e-6 else None
    full = n * inc >= 2 * math.pi - 1e-9
    if full:
        i = int(round(wrap_angle(angle - scan.angle_min) / inc)) % n
        return i
    i = int(round((angle - scan.angle_min) / inc))
    if i < 0 or i >= n:
        return None
    if abs(scan.angle_min + i * inc - angle) > inc / 2 + 1e-9:
        return None
    return i


def beam_range(scan, angle: float) -> tuple[float, float]:
    """``(range, actual_angle)`` of the beam nearest ``angle`` (``(nan, nan)`` if none)."""
    i = beam_index(scan, angle)
    if i is None:
        return math.nan, math.nan
    return float(scan.ranges[i]), scan.angle_min + i * scan.angle_increment


def front_range(scan, half_angle: float) -> float:
    """Smallest reading among beams within ``half_angle`` of straight ahead."""
    ang = scan.angle_min + scan.angle_increment * np.arange(len(scan.ranges))
    sel = np.abs((ang + math.pi) % (2 * math.pi) - math.pi) <= half_angle + 1e-9
    if not sel.any():
        r, _ = beam_range(scan, 0.0)
        return r
    return float(np.min(scan.ranges[sel]))


def pursue(pose, target, *, speed: float, omega_max: float,
           turn_in_place: float = math.radians(50)) -> tuple[float, float]:
    """Pure pursuit towards ``target``: ``(v, omega)``; turns in place when far off-heading.

    >>> pursue((0.0, 0.0, 0.0), (1.0, 0.0), speed=0.5, omega_max=2.0)
    (0.5, 0.0)
    """
    x, y, th = pose
    dx, dy = target[0] - x, target[1] - y
    dist = math.hypot(dx, dy)
    if dist < 1e-9:
        return 0.0, 0.0
    alpha = wrap_angle(math.atan2(dy, dx) - th)
    if abs(alpha) > turn_in_place:
        return 0.0, math.copysign(omega_max, alpha)
    ell = max(dist, 1e-9)
    v = speed * max(math.cos(alpha), 0.0)
    omega = 2.0 * v * math.sin(alpha) / ell
    if abs(omega) > omega_max:
        v *= omega_max / abs(omega)
        omega = math.copysign(omega_max, omega)
    return v, omega


def world_to_cell_units(ctx: AgentContext, x: float, y: float) -> tuple[float, float]:
    """World point to continuous ``(a, b)`` cell units of the map frame."""
    return ctx.frame.to_units(x, y)
