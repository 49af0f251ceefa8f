"""Every registry of robomaze, each entry one declaration: a :class:`Spec`.

A spec names its method, the ``"module:attr"`` of its entry (imported on
first use, as Gymnasium's ``EnvSpec``), its typed options with defaults,
ranges and a line of documentation each (as OMPL's ``declareParam``),
whether it takes an ``rng``, its capabilities (``uses_map``, ``explorer``,
what it needs from the world) and its warm-up. Option checking and casting
(the CLI, the sweep checker), ``robomaze list`` and ``list --json``, the
documentation's option tables and the bench warm-up all read them.

================  ======================  =================================
registry          kind                    entry point group (plugins)
================  ======================  =================================
``PLANNERS``      planner                 ``robomaze.planners``
``GENERATORS``    generator               ``robomaze.generators``
``AGENTS``        agent                   ``robomaze.agents``
``SENSORS``       sensor                  ``robomaze.sensors``
``SOLVERS``       mouse solver            ``robomaze.mouse_solvers``
``MAPF_SOLVERS``  MAPF solver             ``robomaze.mapf_solvers``
``FORMATS``       format                  ``robomaze.formats``
``PROFILES``      mouse profile           ``robomaze.mouse_profiles``
================  ======================  =================================

The package that owns a registry's methods declares their specs (its
``_specs`` module); this package imports none of them -- a registry
imports its provider by name on the first lookup -- so it sits below
every layer (``lint-imports`` checks it).

>>> PLANNERS.spec("astar").entry
'robomaze.plan.search:astar'
>>> check_options("planner", "max_clearance", {"weight": "5"})
{'weight': 5.0}
>>> check_options("agent", "wall_follow", {"sied": "left"})
Traceback (most recent call last):
...
robomaze.errors.ParameterError: agent 'wall_follow' takes no option 'sied'; did you mean 'side'? its options are: side, distance, speed, kp, ki, kd, loop_check
"""

from __future__ import annotations

from typing import Any

from ..errors import ParameterError
from .core import ObjectRegistry, Registry
from .spec import ANY, SEED, Option, Spec, Warmup, load_entry, refuse, spec_from_callable

__all__ = ["Spec", "Option", "Warmup", "Registry", "ANY", "SEED", "PLANNERS", "GENERATORS",
           "AGENTS", "SENSORS", "SOLVERS", "MAPF_SOLVERS", "FORMATS", "PROFILES", "REGISTRIES",
           "get", "check_name", "check_options", "describe", "load_entry", "refuse",
           "spec_from_callable", "RUNNER_ARGS"]

#: Arguments a planner's caller (CLI, sweep runner) passes itself: never options.
RUNNER_ARGS = ("grid", "start", "goal", "footprint", "connectivity", "rng", "ctx")

PLANNERS = Registry("planner", "robomaze.planners", provider="robomaze.plan",
                    runner_args=RUNNER_ARGS)
GENERATORS = Registry("generator", "robomaze.generators", provider="robomaze.generate",
                      runner_args=("rows", "cols", "rng"))
AGENTS = Registry("agent", "robomaze.agents", provider="robomaze.sim.agents",
                  runner_args=("ctx",))
SENSORS = Registry("sensor", "robomaze.sensors", provider="robomaze.sense",
                   runner_args=("rng",))
SOLVERS = Registry("mouse solver", "robomaze.mouse_solvers", provider="robomaze.micromouse",
                   runner_args=("maze",))
MAPF_SOLVERS = Registry("MAPF solver", "robomaze.mapf_solvers", provider="robomaze.mapf",
                        runner_args=("inst", "instance", "max_work", "seed"))
FORMATS = ObjectRegistry("format", "robomaze.formats", provider="robomaze.io")
PROFILES = ObjectRegistry("mouse profile", "robomaze.mouse_profiles",
                          provider="robomaze.micromouse")

#: Every registry by the name ``robomaze list`` and the sweep checker use.
REGISTRIES: dict[str, Registry] = {
    "generator": GENERATORS, "planner": PLANNERS, "agent": AGENTS, "sensor": SENSORS,
    "mouse": SOLVERS, "mapf": MAPF_SOLVERS, "format": FORMATS, "profile": PROFILES,
}


def get(kind: str) -> Registry:
    """The registry of ``kind`` (a key of :data:`REGISTRIES`)."""
    try:
        return REGISTRIES[kind]
    except KeyError:
        raise ParameterError(f"no registry of {kind!r}; expected one of: "
                             f"{', '.join(REGISTRIES)}") from None


def check_name(kind: str, name: str) -> None:
    """Raise UnknownNameError unless ``name`` is registered in ``kind``'s
    registry (the message lists the valid names and suggests close ones).

    >>> check_name("planner", "astar")
    >>> check_name("planner", "astr")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    robomaze.errors.UnknownNameError: unknown planner 'astr'; expected one of: ...
    """
    get(kind).spec(name)


def check_options(kind: str, name: str, options: dict, *, keep: tuple = ()) -> dict:
    """``options`` of method ``name`` checked and cast by its spec.

    An unknown name, an option the method does not take or a value of the
    wrong type or out of range is one :class:`~robomaze.errors.ParameterError`
    line naming them. A method that hands the options it does not take to a
    planner (``follow_plan``'s ``method``) has those checked against that
    planner's spec. ``keep``: runner arguments the caller lets the user set
    (the CLI's ``rng``).
    """
    spec = get(kind).spec(name)
    out = spec.check(options, keep=keep)
    if spec.hands_to is None:
        return out
    declared = set(spec.option_names) | set(keep)
    rest = {k: v for k, v in out.items() if k not in declared}
    method = out.get(spec.hands_to, spec.option(spec.hands_to).default)
    if not isinstance(method, str):
        raise ParameterError(f"{kind} {name!r}: option {spec.hands_to!r} must be a planner name, "
                             f"got {method!r}")
    PLANNERS.spec(method)
    if not rest:
        return out
    try:
        out.update(check_options("planner", method, rest))
    except ParameterError as exc:   # name both: the agent's options and its planner's
        wrapped = ParameterError(f"{kind} {name!r} takes the options "
                                 f"{', '.join(spec.option_names)} and hands the rest to its "
                                 f"planner: {exc}")
        if hasattr(exc, "option"):
            wrapped.option = exc.option
        raise wrapped from None
    return out


def describe(kinds=None) -> dict[str, Any]:
    """Kind -> list of spec dicts (what ``robomaze list --json`` prints);
    a registry whose package cannot be imported maps to None."""
    out: dict[str, Any] = {}
    for kind in kinds or REGISTRIES:
        try:
            out[kind] = get(kind).to_list()
        except ImportError:
            out[kind] = None
    return out
