"""robomaze: robot path planning on mazes.

Generate or load a maze, widen it into an occupancy grid, plan or simulate a
robot with a real footprint in it, measure length and safety, and benchmark
planners over widening levels. Subpackages are imported on demand, and so
are the names below (numpy with them): ``import robomaze`` imports neither
numpy nor numba, so that ``python -m robomaze`` can size numpy's thread
pools before numpy loads (:mod:`robomaze._threads`).

>>> from robomaze import Maze, widen
>>> widen(Maze.empty(2, 3), corridor=3, wall=1).shape
(9, 13)
"""

from typing import TYPE_CHECKING

from . import _compile as _compile

_compile.install_locator()  # before any kernel module is imported

__version__ = "0.1.0"

__all__ = ["Maze", "OccupancyGrid", "widen", "RobomazeError", "limit_cells", "__version__"]

#: The public names and the module each comes from, imported at first use.
_LAZY = {"Maze": ".maze", "OccupancyGrid": ".grid", "widen": ".grid",
         "RobomazeError": ".errors", "limit_cells": "._validate"}

if TYPE_CHECKING:
    from ._validate import limit_cells
    from .errors import RobomazeError
    from .grid import OccupancyGrid, widen
    from .maze import Maze


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name], __name__), name)
        globals()[name] = value  # the next lookup is an ordinary one
        return value
    raise AttributeError(f"module 'robomaze' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


# gymnasium ids (robomaze/Maze-v0): registered in any import order, without
# importing gymnasium (see robomaze._gym_hook).
from . import _gym_hook as _gym_hook  # noqa: E402

_gym_hook.install()
