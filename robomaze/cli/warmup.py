"""``robomaze warmup``: compile every numba kernel once, into the disk cache.

A fresh install compiles its kernels on first use (minutes on a loaded
machine). Run this once where a cache can be kept -- a CI image, a cached
CI folder (``docs/ci.md``), a shared workstation -- and later commands load
their kernels instead. The cache is keyed by the content of robomaze's
sources (:mod:`robomaze._compile.cache`), so reinstalling the same version
reuses it; ``NUMBA_CACHE_DIR`` moves it. ``--default-sweep`` compiles only
the default sweep's kernels (what a wheel build compiles and ships in the
package by default, :mod:`robomaze._compile.shipped`); ``--first-runs`` also
runs the default sweep's warm-up and every command once (:mod:`._first_runs`;
what ``ROBOMAZE_BUILD_KERNELS=all`` ships).
"""

from __future__ import annotations

import argparse
import json

from ._args import add_command, positive_int

EPILOG = """\
examples:
  robomaze warmup                       # every planner, agent, sensor, shape and generator
  robomaze warmup --processes 1         # compile in this process only
  NUMBA_CACHE_DIR=.numba robomaze warmup --json
  robomaze warmup --default-sweep       # only the default sweep's kernels (what a wheel ships)
  robomaze warmup --first-runs          # also every command's first run (ROBOMAZE_BUILD_KERNELS=all)
"""


def register(subparsers) -> None:
    p = add_command(subparsers, "warmup",
                    help="compile every numba kernel once (CI images, first use)",
                    description="Compile every numba kernel robomaze has (planners, agents, "
                                "sensors, footprint shapes, generators) into the disk cache, "
                                "in parallel, so later commands start without compiling.",
                    epilog=EPILOG)
    p.add_argument("--processes", type=positive_int, default=None, metavar="N",
                   help="processes that compile (default: one per core, at most 4)")
    p.add_argument("--json", action="store_true",
                   help="print what was compiled as one JSON object")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--first-runs", action="store_true",
                       help="also the default sweep's warm-up and every command's first run "
                            "(what ROBOMAZE_BUILD_KERNELS=all builds into a wheel; minutes)")
    which.add_argument("--default-sweep", action="store_true",
                       help="only the default sweep's warm-up (what a wheel build compiles "
                            "and ships by default; about 30 s of CPU)")
    p.set_defaults(func=run)


def everything() -> str:
    """The warm-up list (``ROBOMAZE_WARM``) naming every kernel family.

    >>> "plan:astar" in everything().split(",")
    True
    """
    from ..generate import GENERATORS
    from ..plan import PLANNERS
    from ..sense import SENSORS
    from ..sim import AGENTS

    items = [f"plan:{n}" for n in PLANNERS if not n.startswith("ompl:")]
    items += [f"simulate:{n}" for n in AGENTS]
    items += [f"sensor:{n}" for n in SENSORS]
    items += [f"shape:{n}" for n in ("disc", "rectangle", "polygon")]
    items += [f"generate:{n}" for n in GENERATORS]
    return ",".join(sorted(items))


def every_kind() -> str:
    """:func:`everything` and every micromouse solver and localiser (``--first-runs``).

    >>> items = every_kind().split(",")
    >>> "mouse:floodfill" in items and "localize:mcl" in items and "plan:astar" in items
    True
    """
    from ..localize import LOCALIZERS
    from ..registry import SOLVERS

    items = everything().split(",") + [f"mouse:{n}" for n in SOLVERS]
    return ",".join(items + [f"localize:{n}" for n in LOCALIZERS])


def _extras() -> None:
    """Kernels no sweep task reaches.

    The 8-connected searches (sweeps plan 4-connected) and the closed-form
    wavefront field (taken on widened grids of 2^14 cells or more).
    """
    from .._search import maze_field
    from ..generate import generate
    from ..maze import Maze
    from ..plan import astar, dijkstra, wavefront
    from ..world import widen_maze

    grid = widen_maze(Maze.empty(2, 2), corridor=3, wall=1)
    start, goal = grid.start_goal()
    for planner in (astar, dijkstra, wavefront):
        planner(grid, start, goal, connectivity=8).collision_free  # noqa: B018 -- measured on read
    maze_field(grid, goal)  # a loop: the minimum-of-forms variant
    tree = widen_maze(generate("backtracker", 3, 3, rng=0), corridor=3, wall=1)
    maze_field(tree, tree.start_goal()[1])


def run(args: argparse.Namespace) -> int:
    from .. import _compile
    from ..bench import warm_up

    if getattr(args, "default_sweep", False):
        from ._first_runs import default_sweep_list

        stats = warm_up(default_sweep_list(), processes=args.processes)
        return _report(args, stats, _compile.compiled() + stats.get("compiled_helpers", 0))
    items = everything()
    if args.first_runs:
        items = every_kind()
    stats = warm_up(items, processes=args.processes)
    _extras()
    compiled = _compile.compiled() + stats.get("compiled_helpers", 0)
    if args.first_runs:
        from ._first_runs import default_sweep_list, run_all

        more = warm_up(default_sweep_list(), processes=args.processes)
        runs = run_all(args.processes)
        compiled = (_compile.compiled() + stats.get("compiled_helpers", 0)
                    + more.get("compiled_helpers", 0) + runs.get("compiled_helpers", 0))
        stats["tasks"] = stats.get("tasks", 0) + more.get("tasks", 0) + len(runs["tasks"])
        stats["seconds"] = stats.get("seconds", 0.0) + more.get("seconds", 0.0) + runs["seconds"]
        stats["errors"] = [f"{task}: {error}" for _, task, error in runs["errors"]]
    return _report(args, stats, compiled)


def _report(args: argparse.Namespace, stats: dict, compiled: int) -> int:
    if args.json:
        print(json.dumps({"tasks": stats.get("tasks", 0), "processes": stats.get("processes", 1),
                          "compiled": compiled, "seconds": round(stats.get("seconds", 0.0), 2),
                          **({"errors": stats["errors"]} if "errors" in stats else {})}))
    else:
        print(f"robomaze warmup: {stats.get('tasks', 0)} tasks, {compiled} kernels compiled "
              f"in {stats.get('processes', 1)} process(es), {stats.get('seconds', 0.0):.1f} s")
    return 0
