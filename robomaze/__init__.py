"""robomaze: robot path planning on mazes.

Generate or load a maze, widen it into an occupancy grid, plan or simulate a
robot with a real footprint in it, measure length and safety, and benchmark
planners over widening levels. Subpackages are imported on demand so that
``import robomaze`` stays cheap.

>>> from robomaze import Maze, widen
>>> widen(Maze.empty(2, 3), corridor=3, wall=1).shape
(9, 13)
"""

from . import _compile as _compile

_compile.install_locator()  # before any kernel module is imported

from ._validate import limit_cells  # noqa: E402
from .errors import RobomazeError  # noqa: E402
from .grid import OccupancyGrid, widen  # noqa: E402
from .maze import Maze  # noqa: E402

__version__ = "0.1.0"

__all__ = ["Maze", "OccupancyGrid", "widen", "RobomazeError", "limit_cells", "__version__"]

# gymnasium ids (robomaze/Maze-v0): registered in any import order, without
# importing gymnasium (see robomaze._gym_hook).
from . import _gym_hook as _gym_hook  # noqa: E402

_gym_hook.install()
