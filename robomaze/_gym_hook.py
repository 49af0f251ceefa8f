"""Register ``robomaze/Maze-v0`` with gymnasium whichever is imported first.

gymnasium >= 1.0 no longer loads the ``gymnasium.envs`` entry points, and
``import robomaze`` must stay cheap (no gymnasium import for the CLI or the
library). So:

- gymnasium already imported: register now;
- not yet: a one-shot import hook registers right after gymnasium's own
  module has run, whenever (and if ever) the program imports it.

Registration names the env by string (``robomaze.envs.gym_env:MazeEnv``), so
it imports nothing of robomaze's simulator until ``gymnasium.make`` runs.
"""

from __future__ import annotations

from ._import_hook import after_import

ENV_ID = "robomaze/Maze-v0"


def register(gym) -> None:
    """Register the env with the gymnasium module ``gym`` (idempotent)."""
    if ENV_ID not in gym.envs.registry:
        gym.register(id=ENV_ID, entry_point="robomaze.envs.gym_env:MazeEnv",
                     vector_entry_point="robomaze.envs.gym_vector:MazeVectorEnv",
                     disable_env_checker=False)


def install() -> None:
    """Register now if gymnasium is imported, else when it is."""
    after_import("gymnasium", register)
