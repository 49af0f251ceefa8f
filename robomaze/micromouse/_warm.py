"""A cold ``robomaze mouse solve``'s kernels, compiled on two cores.

The command compiles 11 kernels (5.4 s of CPU on one core, round 8b in
benchmarks/README.md): flood fill's (``flood_edges`` and the wave under it)
and the route search's (:func:`._route_kernels.dial_entry` and the three
kernels it calls: ``prepare``, ``slalom_dial``, ``runs_dial``). The tasks
of :data:`TASKS` compile them in pieces, so that
:func:`robomaze._compile.warm` can share them between the command and a
fork: each of the entry's kernels is compiled on its own, for the argument
types the entry passes it (:func:`entry_types`), and the entry, compiled
last, loads them from the cache. Results never depend on it: the command
runs the same code whether the tasks ran or not.
"""

from __future__ import annotations

import types

import numpy as np

#: The entry's kernels, each a task of its own; "route" (the entry) needs them.
PARTS = ("slalom_dial", "runs_dial", "prepare")
#: Kernel files the tasks cache (the route's, flood fill's): no fork while they hold kernels.
PROBES = ("micromouse/_route_kernels.py", "_search/__init__.py")


def _search(diagonals: bool):
    """A 3x3 search object (kerikun's integer costs: Dial's kernels; without
    diagonals the runs model, with them the slalom graph), start and goal set."""
    from .route import RouteSearch

    s = RouteSearch(3, 3, diagonals=diagonals, profile="kerikun")
    s._cells_of((2, 0), [(0, 2)])
    return s


def entry_types(diagonals: bool) -> dict:
    """The numba argument types :func:`._route_kernels.dial_entry` passes
    ``prepare`` and the search it calls (``runs_dial`` without diagonals,
    ``slalom_dial`` with them): the entry's own body run in Python on a
    search's scratch, with recorders in the kernels' places.

    >>> sorted(entry_types(False)), len(entry_types(True)["slalom_dial"])
    (['prepare', 'runs_dial'], 25)
    """
    from numba import typeof

    from . import _route_kernels as rk

    seen: dict = {}

    def recorder(name, result):
        def record(*args):
            seen[name] = tuple(typeof(a) for a in args)
            return result
        return record

    # prepare returns (search number, start states): int64 both, as compiled
    env = dict(rk.dial_entry.py_func.__globals__,
               prepare=recorder("prepare", (np.int64(1), np.int64(1))),
               runs_dial=recorder("runs_dial", -1), slalom_dial=recorder("slalom_dial", -1))
    body = types.FunctionType(rk.dial_entry.py_func.__code__, env)
    s = _search(diagonals)
    body(np.zeros(3 * 3 * 4, bool), s._ws.copy(), s._wl.copy())
    return seen


def compile_part(name: str) -> None:
    """Compile (or load) the entry's kernel ``name`` for the entry's argument types."""
    from . import _route_kernels as rk

    sig = {**entry_types(False), **entry_types(True)}[name]
    getattr(rk, name).compile(sig)


def compile_route(profile) -> None:
    """The entry (its kernels loaded from the cache once :data:`PARTS` ran), as
    ``mouse solve``'s best-possible times call it, and any heap search ``profile`` takes."""
    from ..maze import Maze
    from .route import fastest_route

    m = Maze.empty(3, 3, start=(2, 0), goals=[(0, 2)])
    for diagonals in (False, True):
        fastest_route(m, diagonals=diagonals, profile=profile)


def compile_flood() -> None:
    """Flood fill's distance kernel, as :class:`.floodfill.WallMap` calls it."""
    from .floodfill import WallMap

    WallMap(3, 3).flood([(0, 0)])


def tasks(profile, *, flood: bool) -> tuple[list[str], dict]:
    """The task names of a ``mouse solve`` run and what each needs: the entry
    its kernels. Flood fill's is last: it shares nothing with the others, so
    whichever process is free first takes it. A profile whose costs are not
    integers takes no Dial kernel.

    >>> tasks("kerikun", flood=True)
    (['slalom_dial', 'runs_dial', 'prepare', 'route', 'flood'], {'route': ('slalom_dial', 'runs_dial', 'prepare')})
    """
    from .route import RouteSearch

    flood_task = ["flood"] if flood else []
    if not any(RouteSearch(3, 3, diagonals=d, profile=profile).dial for d in (False, True)):
        return ["route", *flood_task], {}     # heap searches only: no Dial kernel
    return [*PARTS, "route", *flood_task], {"route": PARTS}


def run(task: str, profile) -> None:
    """Run one task of :func:`tasks`."""
    if task == "route":
        compile_route(profile)
    elif task == "flood":
        compile_flood()
    else:
        compile_part(task)


def warm_up(profile, *, flood: bool) -> None:
    """Compile (or load) the route search's kernels, and flood fill's if
    ``flood``, on two cores when the cache lacks them: what a command runs
    before its work, so its first run waits less. Results never depend on it.
    """
    from .. import _compile

    names, needs = tasks(profile, flood=flood)
    _compile.warm(names, lambda task: run(task, profile),
                  needs=lambda task: needs.get(task, ()),
                  probes=PROBES if flood else PROBES[:1], cap=2)
