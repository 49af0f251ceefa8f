"""The contract every registered planner meets, as a check plugin authors can run.

>>> from robomaze.plan import astar
>>> check_planner(astar)
'planner astar: 4 checks passed'
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from ..errors import ContractError, NoPathError
from ..geometry import Footprint
from ..maze import Maze
from ..plan.path import Path
from ..registry import Spec
from ..world import widen_maze

__all__ = ["check_planner"]


def _maze() -> Maze:
    # a fixed 3x4 perfect maze: the route from (0,0) to (2,3) bends four times
    return Maze.from_edges(3, 4, [0, 1, 2, 3, 7, 6, 5, 4, 8, 9, 10],
                           [1, 2, 3, 7, 6, 5, 4, 8, 9, 10, 11])


def check_planner(fn: Callable[..., Path], *, name: str | None = None, **options) -> str:
    """Run a planner on small known problems and check what it returns.

    The planner is called as ``fn(grid, start, goal, footprint=...,
    connectivity=4, **options)`` on a widened 3x4 maze (corridors 3 cells,
    0.1 m) for a point and for a disc of radius 0.12 m, then on a grid
    whose goal is walled off. It must return a :class:`~robomaze.plan.Path`
    from the start cell to the goal cell that is collision-free, whose
    length is the length of its points and no shorter than the straight
    line, and must raise :class:`~robomaze.errors.NoPathError` (not return
    a path, not raise anything else) when there is no path.

    Parameters
    ----------
    fn : callable or Spec
        The planner, or its :class:`robomaze.registry.Spec` (whose typed
        options check ``options``).
    name : str, optional
        Used in messages; default ``fn.__name__``.
    **options
        Passed to every call (e.g. a budget).

    Returns
    -------
    str
        A one-line summary.

    Raises
    ------
    ContractError
        Listing every check that failed.
    """
    if isinstance(fn, Spec):   # a declaration: its options are checked, then it runs
        spec, fn = fn, fn.load()
        options = spec.check(options)
        name = name or spec.name
    label = name or getattr(fn, "__name__", repr(fn))
    failures: list[str] = []
    g = widen_maze(_maze(), corridor=3, wall=1, resolution=0.1)
    s, goal = g.start_goal()
    for fp in (None, Footprint.disc(0.12)):
        what = "point" if fp is None else "disc r=0.12"
        try:
            p = fn(g, s, goal, footprint=fp, connectivity=4, **options)
        except Exception as exc:  # the report says what was raised
            failures.append(f"{what}: raised {type(exc).__name__}: {exc}")
            continue
        if not isinstance(p, Path):
            failures.append(f"{what}: returned {type(p).__name__}, expected robomaze.plan.Path")
            continue
        if tuple(p.cells[0]) != tuple(s) or tuple(p.cells[-1]) != tuple(goal):
            failures.append(f"{what}: path runs {tuple(p.cells[0])} -> {tuple(p.cells[-1])}, "
                            f"expected {tuple(s)} -> {tuple(goal)}")
        if not p.collision_free:
            failures.append(f"{what}: path is not collision-free")
        seg = np.diff(np.asarray(p.points, float), axis=0)
        poly = float(np.hypot(seg[:, 0], seg[:, 1]).sum()) if len(seg) else 0.0
        if not math.isclose(poly, p.length, rel_tol=1e-9, abs_tol=1e-9):
            failures.append(f"{what}: length {p.length} is not the length of its points {poly}")
        a, b = g.cell_to_world(s), g.cell_to_world(goal)
        if p.length < math.dist(a, b) - 1e-6:
            failures.append(f"{what}: length {p.length} is shorter than the straight line")
    # the goal block walled off: (2, 3) has no open wall
    walled = Maze.from_edges(3, 4, [0, 1, 2, 3, 7, 6, 5, 4, 8, 9],
                             [1, 2, 3, 7, 6, 5, 4, 8, 9, 10])
    gw = widen_maze(walled, corridor=3, wall=1, resolution=0.1)
    try:
        p = fn(gw, s, goal, footprint=None, connectivity=4, **options)
        failures.append(f"no path: returned a path ({type(p).__name__}) to a walled-off goal")
    except NoPathError:
        pass
    except Exception as exc:
        failures.append(f"no path: raised {type(exc).__name__} ({exc}), expected NoPathError")
    if failures:
        raise ContractError(f"planner {label} breaks the planner contract:\n  "
                            + "\n  ".join(failures))
    return f"planner {label}: 4 checks passed"
