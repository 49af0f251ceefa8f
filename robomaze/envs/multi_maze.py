"""A PettingZoo ``ParallelEnv`` of a traffic world: every robot an agent (extra ``pettingzoo``).

Agents are ``robot_0 .. robot_{n-1}``. Each observes a dict: ``scan`` (its
finished readings, ``float32``, no-return and invalid readings as
``range_max``), ``odom`` (``x, y, theta, v, omega``, world frame) and
``goal`` (the goal in its own frame, metres: ahead, left). Actions are
``(v, omega)`` (``(vx, vy, omega)`` for ``omni`` robots), limited by the
robot's kinematics; with ``orca=True`` an action is first turned into a
preferred velocity and filtered by ORCA (the reactive layer). All robots
move in one compiled call per step (:meth:`robomaze.traffic.TrafficWorld.step`
with ``sense``), scans included.

Rewards: metres of progress along the maze towards the goal, ``-1`` per new
contact, ``+10`` on arrival. A robot terminates on arrival (it then stands,
still a body the others must avoid); every robot is truncated at
``max_steps``. ``reset(seed=s)`` rebuilds the world of seed ``s`` (maze,
placements and obstacle draws all follow the one seed rule).

>>> from robomaze.world import WorldSpec
>>> from robomaze.traffic import TrafficSpec, RobotSpec
>>> env = MultiMazeEnv(TrafficSpec(world=WorldSpec(generator="kruskal", rows=2, cols=2,
...     corridor=12, resolution=0.1, seed=0), robots=RobotSpec(footprint="disc:0.15"), count=2))
>>> obs, infos = env.reset(seed=3)
>>> sorted(obs), obs["robot_0"]["scan"].shape
(['robot_0', 'robot_1'], (64,))
>>> obs, rew, term, trunc, info = env.step({a: env.action_space(a).sample() * 0 for a in env.agents})
>>> sorted(rew), info["robot_0"]["collisions"]
(['robot_0', 'robot_1'], 0)
"""

from __future__ import annotations

import functools
import math
from dataclasses import replace

import numpy as np

from ..errors import OptionalDependencyError, ParameterError
from ..traffic.spec import TrafficSpec
from ..traffic.world import COMMAND, PREF, TrafficWorld, build, distances_to_go

try:
    from gymnasium import spaces
    from pettingzoo import ParallelEnv
except ImportError as e:  # pragma: no cover - the extra is part of the test set
    raise OptionalDependencyError("robomaze.envs.multi_maze needs pettingzoo "
                                  "(pip install 'robomaze[pettingzoo]')") from e

__all__ = ["MultiMazeEnv", "parallel_env"]


class MultiMazeEnv(ParallelEnv):
    """PettingZoo parallel environment of a :class:`~robomaze.traffic.TrafficSpec` (module docstring)."""

    metadata = {"name": "robomaze_multimaze_v0", "render_modes": ["rgb_array"],
                "is_parallelizable": True}

    def __init__(self, spec: TrafficSpec | dict, *, max_steps: int | None = None,
                 orca: bool = False, render_mode: str | None = None) -> None:
        if isinstance(spec, dict):
            spec = TrafficSpec.from_dict(spec)
        if not isinstance(spec, TrafficSpec):
            raise ParameterError(f"spec must be a TrafficSpec, got {type(spec).__name__}")
        if render_mode not in (None, "rgb_array"):
            raise ParameterError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        self.spec = spec
        self.render_mode = render_mode
        self.orca = bool(orca)
        self.max_steps = int(max_steps if max_steps is not None else spec.max_steps)
        self._world: TrafficWorld = build(spec)
        n = self._world.n_robots
        self.possible_agents = [f"robot_{i}" for i in range(n)]
        self.agents = list(self.possible_agents)
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        w = self._world
        self._obs_spaces = {}
        self._act_spaces = {}
        for a, i in self._index.items():
            r = w.robots[i]
            nb = w._cos_b.shape[1]
            self._obs_spaces[a] = spaces.Dict({
                "scan": spaces.Box(0.0, float(w._rmax[w.sensor_id[i]]), (nb,), np.float32),
                "odom": spaces.Box(-np.inf, np.inf, (5,), np.float32),
                "goal": spaces.Box(-np.inf, np.inf, (2,), np.float32),
            })
            if r.kinematics == "omni":
                hi = np.array([r.v_max, r.v_max, r.omega_max], np.float32)
                self._act_spaces[a] = spaces.Box(-hi, hi, dtype=np.float32)
            else:
                lo = np.array([w.kin[i, 2], -r.omega_max], np.float32)
                hi = np.array([r.v_max, r.omega_max], np.float32)
                self._act_spaces[a] = spaces.Box(lo, hi, dtype=np.float32)

    # PettingZoo asks for the same space object each time
    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent):
        return self._obs_spaces[agent]

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent):
        return self._act_spaces[agent]

    @property
    def world(self) -> TrafficWorld:
        """The :class:`~robomaze.traffic.TrafficWorld` being stepped."""
        return self._world

    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
                raise ParameterError(f"seed must be an integer >= 0, got {seed!r}")
            world_spec = replace(self.spec.world, seed=int(seed))
            self._world = build(replace(self.spec, world=world_spec))
        else:
            self._world.reset_state()
        for a in self.possible_agents:
            self._action_spaces_seed(a, seed)
        w = self._world
        self.agents = list(self.possible_agents)
        self._steps = 0
        self._to_go = self._distance_to_go()
        self._hits = w.hits.sum(axis=1).copy()
        w._exact_fresh = False
        obs = self._observe()
        return obs, {a: {} for a in self.agents}

    def _action_spaces_seed(self, agent, seed) -> None:
        if seed is not None:
            self._act_spaces[agent].seed(int(seed) + self._index[agent])

    def _distance_to_go(self) -> np.ndarray:
        w = self._world
        out = np.empty(w.n_robots)
        distances_to_go(w.fields, w.field_id, w.pose, w.n_robots, *w._gargs(), out)
        return out

    def _observe(self) -> dict:
        w = self._world
        scan = w.scan()
        scan = np.where(np.isfinite(scan), scan,
                        w._rmax[w.sensor_id][:, None]).astype(np.float32)
        odom = w.odometry().astype(np.float32)
        d = w.goal - w.pose[:w.n_robots, :2]
        c, s = np.cos(w.pose[:w.n_robots, 2]), np.sin(w.pose[:w.n_robots, 2])
        goal = np.stack([c * d[:, 0] + s * d[:, 1], -s * d[:, 0] + c * d[:, 1]],
                        axis=1).astype(np.float32)
        return {a: {"scan": scan[i], "odom": odom[i], "goal": goal[i]}
                for a, i in ((a, self._index[a]) for a in self.agents)}

    def step(self, actions: dict):
        w = self._world
        nr = w.n_robots
        cmd = np.zeros((nr, 3))
        for a, act in actions.items():
            if a not in self._index:
                raise ParameterError(f"unknown agent {a!r}; agents are {self.possible_agents}")
            if a not in self.agents:
                continue
            i = self._index[a]
            v = np.asarray(act, float).reshape(-1)
            if w.robots[i].kinematics == "omni":
                if v.shape != (3,):
                    raise ParameterError(f"{a}: an omni action is (vx, vy, omega), got {act!r}")
                cmd[i] = v
            else:
                if v.shape != (2,):
                    raise ParameterError(f"{a}: an action is (v, omega), got {act!r}")
                cmd[i] = (v[0], 0.0, v[1])
        if not np.all(np.isfinite(cmd)):
            raise ParameterError("actions must be finite numbers")
        if self.orca:
            th = w.pose[:nr, 2]
            c, s = np.cos(th), np.sin(th)
            pref = np.stack([c * cmd[:, 0] - s * cmd[:, 1], s * cmd[:, 0] + c * cmd[:, 1]], 1)
            w.step(mode=PREF, command=cmd, pref=pref, measure=False, sense=True)
        else:
            w.step(mode=COMMAND, command=cmd, measure=False, sense=True)
        self._steps += 1
        to_go = self._distance_to_go()
        hits = w.hits.sum(axis=1)
        at = w.at_goal
        obs = self._observe()
        rewards, terms, truncs, infos = {}, {}, {}, {}
        for a in self.agents:
            i = self._index[a]
            prog = self._to_go[i] - to_go[i]
            r = prog if math.isfinite(prog) else 0.0
            r -= float(hits[i] - self._hits[i])
            if at[i]:
                r += 10.0
            rewards[a] = float(r)
            terms[a] = bool(at[i])
            truncs[a] = self._steps >= self.max_steps
            infos[a] = {"collisions": int(hits[i]), "distance_to_go": float(to_go[i])}
        self._to_go = to_go
        self._hits = hits.copy()
        self.agents = [a for a in self.agents if not (terms[a] or truncs[a])]
        return obs, rewards, terms, truncs, infos

    def render(self):
        if self.render_mode != "rgb_array":
            return None
        from ..viz.traffic import frame_rgb

        return frame_rgb(self._world)

    def close(self) -> None:
        return None


def parallel_env(spec: TrafficSpec | dict, **kwargs) -> MultiMazeEnv:
    """PettingZoo's constructor convention: ``parallel_env(...)`` is :class:`MultiMazeEnv`."""
    return MultiMazeEnv(spec, **kwargs)
