"""Contract checks plugin authors run: does a planner or an agent behave as the registries expect.

``check_planner`` and ``check_agent`` build their small test worlds through
:mod:`robomaze.world` (the one door to widening), so they sit above both
the planners and the simulator they exercise, as ``numpy.testing`` sits
above numpy.

>>> from robomaze.testing import check_planner
>>> from robomaze.plan import PLANNERS
>>> check_planner(PLANNERS.spec("astar"))
'planner astar: 4 checks passed'
"""

from .agent import check_agent
from .planner import check_planner

__all__ = ["check_planner", "check_agent"]
