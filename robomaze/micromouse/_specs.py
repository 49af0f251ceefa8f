"""The micromouse solvers' and mouse profiles' declarations.

A solver is ``fn(maze, **options) -> MouseRun``; the mouse solvers share
their kernels with the route search, so one warm-up task (``"mouse"``)
compiles them all. A profile's spec names a :class:`MouseProfile` preset.

>>> from robomaze.registry import PROFILES, SOLVERS
>>> SOLVERS.spec("floodfill").option("diagonals").default, PROFILES["simple"].cell_mm
(False, 180.0)
"""

from __future__ import annotations

from ..registry import ANY, PROFILES, SOLVERS, Option, Spec, Warmup

__all__ = ["SPECS", "PROFILE_SPECS"]

_MOUSE = Warmup(task="mouse", cost=1.0)
_FLOODFILL = (
    Option("return_to_start", bool, True, "drive back to the start after the search"),
    Option("max_moves", int, None, "safety limit on cells driven (default 50 per cell)",
           low=1),
    Option("profile", ANY, None, "mouse profile of the fast run: a preset name, a TOML file "
           "or a MouseProfile (default kerikun)"),
    Option("diagonals", bool, False, "the fast run may use diagonals"),
)


def _mouse(name: str, module: str, description: str, *options: Option, **kw) -> Spec:
    return Spec("mouse solver", name, f"robomaze.micromouse.{module}:{name}", description,
                options=options, warmup=_MOUSE, needs=("contest_maze",), **kw)


SPECS = [
    _mouse("floodfill", "floodfill",
           "Run the modified flood-fill search (and plan the fast run) in ``maze``.",
           Option("prove", ANY, True, "keep exploring until the shortest route is proven "
                  "(true), the time-optimal one ('time'), or stop at the goal (false)"),
           *_FLOODFILL),
    _mouse("floodfill_time", "floodfill", "Flood fill that explores until the time-optimal "
           "route is proven (:func:`floodfill` with ``prove=\"time\"``; the other options "
           "as there).", *_FLOODFILL),
    _mouse("left_wall", "followers", "Left-hand wall follower."),
    _mouse("right_wall", "followers", "Right-hand wall follower."),
    _mouse("tremaux", "followers", "Trémaux's algorithm in the mouse world."),
]

PROFILE_SPECS = [
    Spec("mouse profile", "kerikun", "robomaze.micromouse.profile:KERIKUN",
         "half-size mouse, measured tables in micromouse-maze-library's units (90 mm cells)"),
    Spec("mouse profile", "simple", "robomaze.micromouse.profile:SIMPLE",
         "the earlier one-turn-speed model as slaloms (180 mm cells)"),
]

SOLVERS.declare(*SPECS)
PROFILES.declare(*PROFILE_SPECS)
