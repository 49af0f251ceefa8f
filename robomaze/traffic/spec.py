"""The traffic world spec: one :class:`~robomaze.world.WorldSpec` plus robots and moving obstacles.

A :class:`TrafficSpec` is data (``to_dict``/``from_dict`` round-trip, TOML
tables in sweep files); :func:`robomaze.traffic.build` turns it into a
:class:`robomaze.traffic.TrafficWorld`. The maze, its widening and the seed
come from the embedded :class:`~robomaze.world.WorldSpec`, so a traffic row
with ``seed = 3`` runs in the maze of ``robomaze generate ... --seed 3``.

Seeds (the one seed rule, :func:`robomaze.world.stage_rng`): the maze stage
builds the maze; the method stage's seed sequence is split into children
``(1, 0)`` start/goal assignment and obstacle routes, ``(1, 1)`` sensor and
odometry noise, ``(1, 2 + k)`` the draws of moving obstacle ``k``.

>>> spec = TrafficSpec(world=WorldSpec(generator="kruskal", rows=3, cols=3, corridor=8,
...                                    resolution=0.1, seed=1),
...                    robots=RobotSpec(footprint="disc:0.15"), count=2)
>>> TrafficSpec.from_dict(spec.to_dict()) == spec
True
>>> spec.robot_list()[1].footprint
'disc:0.15'
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

import numpy as np

from .._validate import check_choice, check_float, check_int
from ..errors import ParameterError
from ..geometry import Footprint
from ..world import WorldSpec, parse_footprint

__all__ = ["RobotSpec", "ObstacleSpec", "OrcaParams", "TrafficSpec", "KINEMATICS", "BEHAVIOURS",
           "ASSIGNMENTS", "AGENT_CHOICES", "child_rng"]

#: Robot kinematics: a differential drive (unicycle), a car (bicycle with a
#: turning radius) and a holonomic robot (what ORCA's agents are).
KINEMATICS = ("differential", "car", "omni")
#: Moving obstacle behaviours.
BEHAVIOURS = ("waypoints", "wander", "pedestrian")
#: Start/goal assignment rules: ``swap`` (half the robots at the maze's start
#: end, half at its goal end, each to the other end), ``random`` (random
#: pairs), ``one_goal`` (random starts, every robot to the goal end) and
#: ``explicit`` (every robot's own ``start``/``goal``).
ASSIGNMENTS = ("swap", "random", "one_goal", "explicit")
#: Controllers: ``follow_plan`` (the compiled plan follower, one call for all
#: robots) or any name of :data:`robomaze.sim.AGENTS` (a Python agent per
#: robot whose commands become ORCA's preferred velocities).
AGENT_CHOICES = ("follow_plan", "explore", "wall_follow", "tremaux")


def child_rng(seed: int | None, child: int) -> np.random.Generator:
    """Child ``child`` of the method stage's seed sequence (see the module docstring).

    >>> from robomaze.world import stage_rng
    >>> a = child_rng(5, 0).integers(1 << 30)
    >>> b = np.random.default_rng(np.random.SeedSequence(5, spawn_key=(1,)).spawn(1)[0])
    >>> bool(a == b.integers(1 << 30))
    True
    """
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(1, int(child))))


def _point(name, v):
    if v is None:
        return None
    try:
        a, b = (float(x) for x in v)
    except (TypeError, ValueError):
        raise ParameterError(f"{name} must be a pair of numbers, got {v!r}") from None
    if not (math.isfinite(a) and math.isfinite(b)):
        raise ParameterError(f"{name} must be finite, got {v!r}")
    return (a, b)


def _body(spec, name: str) -> Footprint:
    """A robot's or an obstacle's shape: the world's footprint reading, a point refused.

    Shapes read are kept by their canonical spec string (specs store the
    string: they are compared, hashed and serialised by their fields), so a
    spec's ``shape`` is read once per process, not on every access."""
    if isinstance(spec, str) and spec in _SHAPES:
        return _SHAPES[spec]
    fp = parse_footprint(spec, name) if not isinstance(spec, (dict, Footprint)) \
        else Footprint.from_spec(spec)
    if fp is None:
        raise ParameterError(f"{name} must be a shape (disc:R, rect:LxW[@RX,RY] or "
                             f"poly:X,Y;...): traffic has no point robots, got {spec!r}")
    return _SHAPES.setdefault(fp.to_spec(), fp)


#: canonical spec string -> its Footprint (see :func:`_body`)
_SHAPES: dict[str, Footprint] = {}


@dataclass(frozen=True)
class RobotSpec:
    """One robot (or the template of ``count`` robots).

    ``start``/``goal`` (``explicit`` assignment) are world points in metres.
    ``sensor`` is a preset of :data:`robomaze.sense.SENSORS`, ``beams`` its
    beam count (None: the preset's), ``noise`` a range noise spec string.
    """

    footprint: str = "disc:0.2"
    kinematics: str = "differential"
    v_max: float = 0.5
    omega_max: float = 2.0
    a_max: float = 1.0
    alpha_max: float = 6.0
    turning_radius: float = 0.5
    sensor: str = "lidar"
    beams: int | None = 64
    noise: str | None = None
    start: tuple | None = None
    goal: tuple | None = None

    def __post_init__(self):
        fp = _body(self.footprint, "robot footprint")
        object.__setattr__(self, "footprint", fp.to_spec())
        check_choice("kinematics", self.kinematics, KINEMATICS)
        for k in ("v_max", "omega_max", "a_max", "alpha_max", "turning_radius"):
            object.__setattr__(self, k, check_float(k, getattr(self, k), min_value=0.0,
                                                    strict_min=True))
        if self.beams is not None:
            object.__setattr__(self, "beams", check_int("beams", self.beams, min_value=1))
        object.__setattr__(self, "start", _point("robot start", self.start))
        object.__setattr__(self, "goal", _point("robot goal", self.goal))
        if self.noise is not None:
            from ..sense.noise import parse_noise

            parse_noise(self.noise)

    @property
    def shape(self) -> Footprint:
        return _body(self.footprint, "robot footprint")


@dataclass(frozen=True)
class ObstacleSpec:
    """A moving obstacle: ``shape`` (a footprint spec: ``disc:R``, ``rect:LxW``,
    ``poly:...``), ``behaviour`` (:data:`BEHAVIOURS`), ``speed`` (m/s) and
    ``waypoints`` (world points; None: a random route through the maze).
    ``body`` is the shape read once, as a :class:`~robomaze.geometry.Footprint`."""

    shape: str = "disc:0.25"
    behaviour: str = "pedestrian"
    speed: float = 0.5
    waypoints: tuple | None = None
    start: tuple | None = None

    def __post_init__(self):
        fp = _body(self.shape, "obstacle shape")
        object.__setattr__(self, "shape", fp.to_spec())
        check_choice("obstacle behaviour", self.behaviour, BEHAVIOURS)
        object.__setattr__(self, "speed", check_float("obstacle speed", self.speed,
                                                      min_value=0.0))
        if self.waypoints is not None:
            wp = tuple(_point("obstacle waypoint", p) for p in self.waypoints)
            if not wp:
                raise ParameterError("obstacle waypoints must not be empty (use None)")
            object.__setattr__(self, "waypoints", wp)
        object.__setattr__(self, "start", _point("obstacle start", self.start))

    @property
    def body(self) -> Footprint:
        return _body(self.shape, "obstacle shape")


@dataclass(frozen=True)
class OrcaParams:
    """ORCA's parameters (RVO2's names): on/off, horizons (s), neighbour search, margin (m).

    The agent radius is the footprint's circumscribed radius plus ``margin``;
    ``bias`` (radians) turns the plan follower's preferred velocity clockwise
    so robots meeting head-on keep right (see ``_step.robot_twists``).
    """

    enabled: bool = True
    neighbor_dist: float = 3.0
    max_neighbors: int = 10
    time_horizon: float = 2.0
    time_horizon_obst: float = 1.0
    margin: float = 0.005
    bias: float = 0.05

    def __post_init__(self):
        object.__setattr__(self, "enabled", bool(self.enabled))
        for k in ("neighbor_dist", "time_horizon", "time_horizon_obst"):
            object.__setattr__(self, k, check_float(k, getattr(self, k), min_value=0.0,
                                                    strict_min=True))
        object.__setattr__(self, "max_neighbors",
                           check_int("max_neighbors", self.max_neighbors, min_value=0))
        object.__setattr__(self, "margin", check_float("margin", self.margin, min_value=0.0))
        object.__setattr__(self, "bias", check_float("bias", self.bias, min_value=-1.0,
                                                     max_value=1.0))


def _tuple_of(cls, name, v):
    if v is None:
        return ()
    if isinstance(v, (cls, dict)):
        v = [v]
    out = []
    for item in v:
        if isinstance(item, dict):
            item = _from_table(cls, name, item)
        if not isinstance(item, cls):
            raise ParameterError(f"{name} must be {cls.__name__} tables, got {item!r}")
        out.append(item)
    return tuple(out)


def _from_table(cls, name, d):
    names = {f.name for f in fields(cls)}
    bad = sorted(set(d) - names)
    if bad:
        raise ParameterError(f"unknown {name} key(s) {', '.join(bad)}; expected "
                             f"{', '.join(sorted(names))}")
    return cls(**d)


@dataclass(frozen=True)
class TrafficSpec:
    """A world with several robots and moving obstacles (see the module docstring).

    Parameters
    ----------
    world : WorldSpec
        Maze source, widening and seed (its ``footprint`` is not used).
    robots : RobotSpec or tuple of RobotSpec
        The robots; with ``count`` set, the first one is the template of
        ``count`` robots.
    count : int or None
        Number of robots (the sweep axis ``robots.count``).
    assignment : str
        Start/goal rule, :data:`ASSIGNMENTS`.
    obstacles : tuple of ObstacleSpec
        Moving obstacles; with ``obstacle_count`` set the first (or a
        default pedestrian) is the template, its ``speed`` and ``behaviour``
        overridden by ``obstacle_speed``/``obstacle_behaviour`` when given.
    agent : str
        :data:`AGENT_CHOICES`.
    dt, max_steps : float, int
        Step length (s) and step budget.
    stall_time : float
        A robot that has not come ``stall_distance`` metres closer to its
        goal (along the maze) for this long is stalled; a run whose unfinished
        robots are all stalled ends as a ``deadlock``.
    goal_radius : float or None
        Arrival tolerance (m); None: the robot's circumscribed radius / 2.
    """

    world: WorldSpec
    robots: tuple = ()
    count: int | None = None
    assignment: str = "swap"
    obstacles: tuple = ()
    obstacle_count: int | None = None
    obstacle_speed: float | None = None
    obstacle_behaviour: str | None = None
    agent: str = "follow_plan"
    orca: OrcaParams = field(default_factory=OrcaParams)
    dt: float = 0.1
    max_steps: int = 3000
    stall_time: float = 10.0
    stall_distance: float | None = None
    goal_radius: float | None = None
    lookahead: float = 0.6

    def __post_init__(self):
        if isinstance(self.world, dict):
            object.__setattr__(self, "world", WorldSpec.from_dict(self.world))
        if not isinstance(self.world, WorldSpec):
            raise ParameterError(f"traffic world must be a WorldSpec, got {self.world!r}")
        object.__setattr__(self, "robots", _tuple_of(RobotSpec, "robots", self.robots))
        object.__setattr__(self, "obstacles", _tuple_of(ObstacleSpec, "obstacles",
                                                        self.obstacles))
        if isinstance(self.orca, dict):
            object.__setattr__(self, "orca", _from_table(OrcaParams, "orca", self.orca))
        if self.count is not None:
            object.__setattr__(self, "count", check_int("robots.count", self.count,
                                                        min_value=1))
        if not self.robots:
            object.__setattr__(self, "robots", (RobotSpec(),))
        if self.count is None and self.assignment != "explicit" and len(self.robots) < 1:
            raise ParameterError("a traffic world needs at least one robot")
        check_choice("assignment", self.assignment, ASSIGNMENTS)
        if self.assignment == "explicit":
            for k, r in enumerate(self.robot_list()):
                if r.start is None or r.goal is None:
                    raise ParameterError(f"robot {k} needs start and goal with the explicit "
                                         "assignment")
        if self.obstacle_count is not None:
            object.__setattr__(self, "obstacle_count",
                               check_int("obstacles.count", self.obstacle_count, min_value=0))
        if self.obstacle_speed is not None:
            object.__setattr__(self, "obstacle_speed",
                               check_float("obstacles.speed", self.obstacle_speed,
                                           min_value=0.0))
        if self.obstacle_behaviour is not None:
            check_choice("obstacles.behaviour", self.obstacle_behaviour, BEHAVIOURS)
        if not isinstance(self.agent, str):
            raise ParameterError(f"agent must be a name, got {self.agent!r}")
        from ..sim.agents import AGENTS

        if self.agent != "follow_plan" and self.agent not in AGENTS:
            from ..errors import unknown_name

            raise unknown_name("agent", self.agent, ["follow_plan", *AGENTS])
        object.__setattr__(self, "dt", check_float("dt", self.dt, min_value=0.0,
                                                   strict_min=True))
        object.__setattr__(self, "max_steps", check_int("max_steps", self.max_steps,
                                                        min_value=1))
        object.__setattr__(self, "stall_time", check_float("stall_time", self.stall_time,
                                                           min_value=0.0, strict_min=True))
        for k in ("stall_distance", "goal_radius"):
            if getattr(self, k) is not None:
                object.__setattr__(self, k, check_float(k, getattr(self, k), min_value=0.0,
                                                        strict_min=True))
        object.__setattr__(self, "lookahead", check_float("lookahead", self.lookahead,
                                                          min_value=0.0, strict_min=True))

    # ------------------------------------------------------------ the lists
    def robot_list(self) -> list[RobotSpec]:
        """Every robot (the template repeated ``count`` times when ``count`` is set)."""
        if self.count is None:
            return list(self.robots)
        return [self.robots[k % len(self.robots)] for k in range(self.count)]

    def obstacle_list(self) -> list[ObstacleSpec]:
        """Every moving obstacle (the template repeated ``obstacle_count`` times when set)."""
        obs = list(self.obstacles)
        if self.obstacle_count is not None:
            tmpl = obs or [ObstacleSpec()]
            obs = [tmpl[k % len(tmpl)] for k in range(self.obstacle_count)]
        out = []
        for o in obs:
            if self.obstacle_speed is not None:
                o = replace(o, speed=self.obstacle_speed)
            if self.obstacle_behaviour is not None:
                o = replace(o, behaviour=self.obstacle_behaviour)
            out.append(o)
        return out

    # ------------------------------------------------------------ dicts
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; :meth:`from_dict` gives back an equal spec."""
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["world"] = self.world.to_dict()
        d["robots"] = [_plain(asdict(r)) for r in self.robots]
        d["obstacles"] = [_plain(asdict(o)) for o in self.obstacles]
        d["orca"] = asdict(self.orca)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "TrafficSpec":
        """The spec of a :meth:`to_dict` dict (unknown keys are refused)."""
        if not isinstance(d, dict):
            raise ParameterError(f"a traffic spec must be a table, got {type(d).__name__}")
        return _from_table(cls, "traffic spec", d)


def _plain(d):
    if isinstance(d, dict):
        return {k: _plain(v) for k, v in d.items()}
    if isinstance(d, tuple):
        return [_plain(v) for v in d]
    return d
