"""The planners' declarations: one :class:`~robomaze.registry.Spec` each.

What a planner takes (its typed options), whether the runner seeds it and
how the bench warm-up compiles it are said here once; the CLI, the sweep
checker, ``robomaze list`` and the warm-up read them from
:data:`robomaze.registry.PLANNERS`.

>>> from robomaze.registry import PLANNERS
>>> [o.name for o in PLANNERS.spec("max_clearance").options]
['weight', 'decay', 'inflation_radius']
>>> PLANNERS.spec("ompl:dubins").needs
('ompl',)
"""

from __future__ import annotations

from ..registry import PLANNERS, Option, Spec, Warmup
from .sampling import CAR_SPACES, OMPL_PLANNERS

__all__ = ["SPECS"]

_HEADING = "required world heading (radians) at the {} (non-disc shapes)"

# The classic maze walkers share their kernels (the walker, the route through
# the cells seen): one warm-up task compiles them all. Costs: the task's
# compile CPU in the default sweep's warm-up (issue 40 round 14,
# benchmarks/README.md), the warm-up's order only.
_CLASSIC = Warmup(task="classic", cost=2.1, needs=("common",))
_SIGHT = Option("sight", bool, True, "walk straight to the goal once it is in line of sight")
_ROUTE = Option("route", str, "shortest_known", "the path returned: the walk with its loops "
                "erased, or the shortest route through the cells it saw",
                choices=("loop_erased", "shortest_known"))
_THREAD = Option("route", str, "shortest_known", "the path returned: Ariadne's thread (the "
                 "walk with its dead ends cut), or the shortest route through the cells it "
                 "saw", choices=("thread", "shortest_known"))
_HAND = Option("hand", str, "right", "which hand stays on the wall", choices=("right", "left"))


def _planner(name: str, entry: str, description: str, *options: Option, cost: float,
             needs=("common",), task: str | None = None, alone: float | None = None,
             **kw) -> Spec:
    warm = _CLASSIC if task == "classic" else Warmup(cost=cost, needs=needs, alone=alone)
    return Spec("planner", name, entry, description, options=options, warmup=warm, **kw)


SPECS = [
    _planner("wavefront", "robomaze.plan.wavefront:wavefront",
             "Shortest path (fewest moves) by the Lee/Moore wavefront.",
             Option("fewest_bends", bool, False, "Lee's rule: among the fewest-move paths, one "
                    "with the fewest bends"), cost=0.2, needs=("common", "field")),
    _planner("dijkstra", "robomaze.plan.search:dijkstra", "Shortest path by Dijkstra's algorithm.",
             cost=0.4, needs=("common", "heap")),
    _planner("astar", "robomaze.plan.search:astar",
             "Shortest path by A* (Manhattan / octile heuristic, both admissible).", cost=0.1,
             # the 4-connected A* is collision_free's for a disc: compiled once, there;
             # without collision_free it compiles it itself (1.5 s, round 10)
             needs=("common", "plan:collision_free"), alone=1.5),
    _planner("collision_free", "robomaze.plan.footprint_planner:collision_free",
             "Shortest collision-free path for a footprint (translations and turns on the spot).",
             Option("headings", int, 16, "heading bins for non-disc footprints", low=1),
             Option("rotation_cost", float, None, "cost (metres of travel) of one rotation "
                    "between neighbouring heading bins", low=0.0),
             Option("start_heading", float, None, _HEADING.format("start")),
             Option("goal_heading", float, None, _HEADING.format("goal")),
             # a disc's 4-connected A* only: the other shapes' heading search is the
             # bench warm-up's "shapes" task (round 14); a shape's search takes its
             # heuristic from the wave field
             cost=1.2, needs=("common", "field")),
    _planner("max_clearance", "robomaze.plan.clearance_planner:max_clearance",
             "Path minimising length weighted by proximity to obstacles.",
             Option("weight", float, 50.0, "weight of the proximity cost", low=0.0, high=1e12),
             Option("decay", float, None, "decay rate of the proximity cost (1/m); default one "
                    "cell", low=0.0),
             Option("inflation_radius", float, None, "distance (m) beyond which obstacles cost "
                    "nothing", low=0.0),
             # its search is Theta*'s compiled engine (one specialisation, round 9)
             cost=0.1, needs=("common", "heap", "plan:theta_star"), alone=1.8),
    _planner("theta_star", "robomaze.plan.anyangle:theta_star",
             "Any-angle shortest path by Theta* (Nash et al. 2007, basic variant).",
             cost=1.5, needs=("common", "heap")),
    # the classic solvers take **options and refuse the ones they do not take
    _planner("wall_follower", "robomaze.plan.classic:wall_follower",
             "Solve by keeping one hand on the wall.", _HAND,
             Option("heading", str, None, "first run straight this way to a wall",
                    choices=("N", "E", "S", "W")), _SIGHT, _ROUTE,
             cost=0, task="classic", open_options=True),
    _planner("pledge", "robomaze.plan.classic:pledge",
             "Solve with the Pledge algorithm (escape to an exit on the outer boundary).", _HAND,
             Option("direction", str, None, "the preferred direction (default: the axis "
                    "direction pointing most nearly at the goal)", choices=("N", "E", "S", "W")),
             _SIGHT, _ROUTE, cost=0, task="classic", open_options=True),
    _planner("tremaux", "robomaze.plan.classic:tremaux",
             "Solve with Trémaux's algorithm (Ariadne's thread and chalk marks).",
             Option("hand", str, "right", "which unmarked passage to prefer",
                    choices=("right", "left")), _SIGHT, _THREAD,
             cost=0, task="classic", open_options=True),
    _planner("dfs_backtracking", "robomaze.plan.classic:dfs_backtracking",
             "Solve by depth-first search with backtracking in a random neighbour order.",
             _SIGHT, _ROUTE, cost=0, task="classic", open_options=True, takes_rng=True),
    # its own task since round 14 (the classic block was 2.4 s): it waits for
    # "classic", which compiles the route search both use; alone it compiles
    # that too
    _planner("dead_end_filling", "robomaze.plan.classic:dead_end_filling",
             "Solve by filling dead ends on the whole map, then walking what is left.",
             cost=0.4, needs=("common", "classic"), alone=0.9, open_options=True),
    _planner("random_mouse", "robomaze.plan.classic:random_mouse",
             "Solve by random walk: at every cell pick an open direction at random.",
             Option("max_steps", int, None, "give up after this many random moves (default "
                    "100 times the free cells)", low=1), _SIGHT, _ROUTE,
             cost=0, task="classic", open_options=True, takes_rng=True),
]

# OMPL's planners: no numba kernel to warm (they run for their budget), their
# options checked by robomaze.plan.sampling.typed_options (rules between them,
# its own messages); declared here for the listings and tables.
_OMPL_OPTIONS = (
    Option("max_checks", int, 200_000, "budget in validity checks (machine-independent); none: "
           "time_limit is the budget", low=1),
    Option("time_limit", float, None, "wall-clock safety net, seconds", low=0.0),
    Option("simplify", bool, True, "shortcut and smooth the solution with OMPL's simplifier"),
    Option("stop_at_first", bool, False, "stop at the first exact solution"),
    Option("start_heading", float, None, "heading (radians) at the start, SE(2) and cars"),
    Option("goal_heading", float, None, "heading (radians) at the goal, SE(2) and cars"),
    Option("space", str, None, "a car's state space", choices=tuple(CAR_SPACES)),
    Option("turning_radius", float, None, "a car's minimum turning radius (m)", low=0.0),
    Option("step", float, None, "motion checking resolution (m); default a quarter cell",
           low=0.0),
    Option("planner_range", float, None, "the planner's maximum motion length (m)", low=0.0),
)
for _name, _cls in OMPL_PLANNERS.items():
    SPECS.append(Spec("planner", "ompl:" + _name, f"robomaze.plan.sampling:ompl_{_name}",
                      f"OMPL's {_cls} (robomaze.plan.sampling.ompl_plan; needs robomaze[ompl]).",
                      options=_OMPL_OPTIONS, takes_rng=True, needs=("ompl",),
                      validate="robomaze.plan.sampling:typed_options"))
for _space, _cls in CAR_SPACES.items():
    SPECS.append(Spec("planner", "ompl:" + _space, f"robomaze.plan.sampling:ompl_{_space}",
                      f"OMPL's RRTConnect in the {_cls} (robomaze.plan.sampling.ompl_plan; needs "
                      f"robomaze[ompl]).",
                      options=_OMPL_OPTIONS + (Option("planner", str, "rrt_connect",
                                                      "the OMPL planner run in the car's space",
                                                      choices=tuple(OMPL_PLANNERS)),),
                      takes_rng=True, needs=("ompl",),
                      validate="robomaze.plan.sampling:typed_options"))

PLANNERS.declare(*SPECS)
