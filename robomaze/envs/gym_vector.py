"""A batched ``gymnasium.vector.VectorEnv``: N robots stepped in one numba call.

:class:`MazeVectorEnv` holds ``num_envs`` copies of
:class:`~robomaze.envs.gym_env.MazeEnv`'s robot in one maze and steps them
all at once -- kinematics, exact collision checks and the lidar cast for
every robot in a single numba call -- with gymnasium's next-step autoreset.
Same actions give the same observations, rewards and flags as
``gymnasium.vector.SyncVectorEnv`` over N ``MazeEnv`` (tested bit for bit).

It takes ``MazeEnv``'s keyword arguments, with two limits: one fixed maze
for all robots (``maze_seed`` must be an int, or pass ``grid``) and a
noise-free sensor (noise models are Python code). Use
``gymnasium.make_vec("robomaze/Maze-v0", num_envs=N, ...)`` or build it
directly.

>>> import numpy as np
>>> envs = MazeVectorEnv(4, size=3, footprint=0.1)
>>> obs, info = envs.reset(seed=0)
>>> obs["scan"].shape, obs["odom"].shape
((4, 36), (4, 5))
>>> obs, rew, term, trunc, info = envs.step(np.ones((4, 2), np.float32))
>>> rew.tolist()
[-0.1, -0.1, -0.1, -0.1]
"""

from __future__ import annotations

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .._validate import check_int
from ..errors import ParameterError
from ..sense.sensor import RangeSensor
from . import _vector_kernels
from .gym_env import MazeEnv

__all__ = ["MazeVectorEnv"]


class MazeVectorEnv(VectorEnv):
    """``num_envs`` robots in one maze, stepped together (see the module docstring).

    Parameters
    ----------
    num_envs : int
        Number of robots.
    **kwargs
        As :class:`~robomaze.envs.gym_env.MazeEnv` (``render_mode`` aside).
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs: int, **kwargs) -> None:
        self.num_envs = check_int("num_envs", num_envs, min_value=1)
        if kwargs.get("render_mode") is not None:
            raise ParameterError("MazeVectorEnv does not render; render a single MazeEnv")
        kwargs.pop("render_mode", None)
        if kwargs.get("grid") is None and kwargs.get("maze_seed", 0) is None:
            raise ParameterError("MazeVectorEnv steps all robots in one maze: maze_seed must be "
                                 "an int (or pass grid)")
        env = MazeEnv(**kwargs)
        sensors = env.robot.sensors
        if sensors and not isinstance(sensors[0], RangeSensor):
            raise ParameterError(f"MazeVectorEnv casts range sensors in one numba call, got a "
                                 f"{type(sensors[0]).__name__}; use SyncVectorEnv over MazeEnv "
                                 f"for other sensors")
        if sensors and sensors[0].noise is not None:
            raise ParameterError("MazeVectorEnv needs a noise-free sensor (noise models run in "
                                 "Python); use SyncVectorEnv over MazeEnv for noisy sensors")
        env.reset(seed=0)                       # resolves start and goal, checks the start pose
        self.template = env
        self.single_observation_space = env.observation_space
        self.single_action_space = env.action_space
        self.observation_space = batch_space(env.observation_space, self.num_envs)
        self.action_space = batch_space(env.action_space, self.num_envs)
        self._setup(env)

    def _setup(self, env: MazeEnv) -> None:
        grid, sim, kin = env.grid, env.sim, env.robot.kinematics
        res, rows, cols, ox, oy, yaw = grid.frame.kernel_args
        occ, clear, _, _, _, _, _, cyaw, syaw, *fp = sim.collider.kernel_args()
        if env.robot.sensors:
            s = env.robot.sensors[0]
            mount, cos_b, sin_b, rmin, rmax = s.kernel_args
        else:
            mount, cos_b, sin_b, rmin, rmax = np.zeros(3), np.zeros(0), np.zeros(0), 0.0, 1.0
        goal = sim.goal
        if goal.block is None:
            gkind, gr, blk = 0, float(goal.radius), np.zeros(4)
        else:
            rs, cs = goal.block
            gkind, gr = 1, 0.0
            blk = np.array([rs.start, rs.stop, cs.start, cs.stop], dtype=float)
        self._static = (occ, clear, rows, cols, res, ox, oy, yaw, cyaw, syaw, *fp,
                        mount, cos_b, sin_b, rmin, rmax,
                        kin.v_min, kin.v_max, kin.omega_max, kin.a_max, kin.alpha_max,
                        sim.dt, sim.max_steps, sim.on_collision == "stop",
                        np.array(sim.start, dtype=float), gkind, goal.centre[0], goal.centre[1],
                        gr, blk)
        n = self.num_envs
        self._poses = np.zeros((n, 3))
        self._vels = np.zeros((n, 2))
        self._steps = np.zeros(n, np.int64)
        self._prev = np.zeros(n, np.bool_)
        self._needs_reset = np.ones(n, np.bool_)
        self._n_beams = len(cos_b)
        self._has_scan = bool(env.robot.sensors)

    def _outputs(self):
        n = self.num_envs
        return (np.empty((n, self._n_beams), np.float32), np.empty((n, 5)), np.empty((n, 2)),
                np.empty((n, 1), np.float32), np.empty(n), np.empty(n, np.bool_),
                np.empty(n, np.bool_), np.empty(n, np.bool_))

    def _run(self, actions: np.ndarray):
        out = self._outputs()
        _vector_kernels.step_batch(actions, self._poses, self._vels, self._steps, self._prev,
                                   self._needs_reset, *self._static, *out)
        scan, odom, goal, col, rew, term, trunc, reached = out
        obs = {"odom": odom, "goal": goal, "collision": col}
        if self._has_scan:
            obs["scan"] = scan
        return obs, rew, term, trunc, reached

    def reset(self, *, seed=None, options: dict | None = None):
        """Put every robot at the start; returns ``(observations, infos)``."""
        if isinstance(seed, (list, tuple)):
            seed = seed[0] if seed else None
        super().reset(seed=seed)
        if options:
            raise ParameterError("MazeVectorEnv.reset takes no options (start and goal are fixed "
                                 "at construction)")
        self._needs_reset[:] = True
        obs, *_ = self._run(np.zeros((self.num_envs, 2)))
        return obs, {}

    def step(self, actions):
        """Step every robot; robots whose episode ended on the last call are reset instead."""
        a = np.asarray(actions, dtype=np.float64)
        if a.shape != (self.num_envs, 2) or not np.all(np.isfinite(a)):
            raise ParameterError(f"actions must be a finite ({self.num_envs}, 2) array in "
                                 f"[-1, 1], got shape {a.shape}")
        obs, rew, term, trunc, reached = self._run(np.ascontiguousarray(a))
        infos = {"goal_reached": reached, "_goal_reached": np.ones(self.num_envs, np.bool_)}
        return obs, rew, term, trunc, infos
