"""robomaze: robot path planning on mazes.

Generate or load a maze, widen it into an occupancy grid, plan or simulate a
robot with a real footprint in it, measure length and safety, and benchmark
planners over widening levels. Subpackages are imported on demand so that
``import robomaze`` stays cheap.

>>> from robomaze import Maze, widen
>>> widen(Maze.empty(2, 3), corridor=3, wall=1).shape
(9, 13)
"""

from ._validate import limit_cells
from .errors import RobomazeError
from .grid import OccupancyGrid, widen
from .maze import Maze

__version__ = "0.1.0"

__all__ = ["Maze", "OccupancyGrid", "widen", "RobomazeError", "limit_cells", "__version__"]

# gymnasium ids (robomaze/Maze-v0): registered here when gymnasium is already
# imported -- the usual `import gymnasium; import robomaze` order -- so that
# plain `import robomaze` (the CLI, the library) never pays for gymnasium.
# Otherwise `import robomaze.sim.gym_env` registers them.
import sys as _sys

if _sys.modules.get("gymnasium") is not None:  # (None: import blocked)
    from .sim import gym_env as _gym_env  # noqa: F401,E402
