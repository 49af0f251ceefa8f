"""Register ``robomaze/Maze-v0`` with gymnasium whichever is imported first.

gymnasium >= 1.0 no longer loads the ``gymnasium.envs`` entry points, and
``import robomaze`` must stay cheap (no gymnasium import for the CLI or the
library). So:

- gymnasium already imported: register now;
- not yet: a one-shot import hook registers right after gymnasium's own
  module has run, whenever (and if ever) the program imports it.

Registration names the env by string (``robomaze.sim.gym_env:MazeEnv``), so
it imports nothing of robomaze's simulator until ``gymnasium.make`` runs.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys

ENV_ID = "robomaze/Maze-v0"


def register(gym) -> None:
    """Register the env with the gymnasium module ``gym`` (idempotent)."""
    if ENV_ID not in gym.envs.registry:
        gym.register(id=ENV_ID, entry_point="robomaze.sim.gym_env:MazeEnv",
                     vector_entry_point="robomaze.sim.gym_vector:MazeVectorEnv",
                     disable_env_checker=False)


class _AfterGymnasium(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path, target=None):
        if fullname != "gymnasium":
            return None
        try:
            sys.meta_path.remove(self)  # one shot, and no recursion below
        except ValueError:
            pass
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            try:
                register(module)
            except Exception:  # a registry change in gymnasium must not break its import
                pass

        spec.loader.exec_module = exec_module
        return spec


def install() -> None:
    """Register now if gymnasium is imported, else when it is."""
    if "gymnasium" in sys.modules:
        gym = sys.modules["gymnasium"]
        if gym is not None:  # (None: its import is blocked)
            try:
                register(gym)
            except Exception:
                pass
        return
    if not any(isinstance(f, _AfterGymnasium) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterGymnasium())
