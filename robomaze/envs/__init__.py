"""Learning environments over robomaze's worlds (the ``gym`` extra).

* :mod:`robomaze.envs.gym_env` -- :class:`~robomaze.envs.gym_env.MazeEnv`,
  the ``gymnasium.Env`` ``robomaze/Maze-v0`` over :class:`robomaze.sim.SimEnv`;
* :mod:`robomaze.envs.gym_vector` --
  :class:`~robomaze.envs.gym_vector.MazeVectorEnv`, N robots stepped in one
  numba call;
* :mod:`robomaze.envs.multi_maze` --
  :class:`~robomaze.envs.multi_maze.MultiMazeEnv`, the PettingZoo
  ``ParallelEnv`` over a :mod:`robomaze.traffic` world (the ``pettingzoo``
  extra): every robot observes its scan, odometry and goal.

They live above the simulator: an environment builds its world from a
:class:`robomaze.world.WorldSpec` (the generators) and renders through
:mod:`robomaze.viz`, neither of which :mod:`robomaze.sim` may import.
Importing this package imports neither gymnasium nor the simulator; the
modules do.
"""
