"""Names and options a user typed, resolved before any work starts.

The CLI and the sweep loader call these before a maze is generated or read
and before any kernel runs, so a typo costs one line and exit 2, not a
generated maze, compiled kernels and a traceback from deep inside:

* :func:`check_name` -- a generator, planner, agent, sensor or mouse name is
  registered (the error lists the valid names and suggests close ones);
* :func:`check_options` -- every option is one the method takes: a
  planner's or agent's keyword parameters; an agent that passes the rest to
  a planner (``follow_plan``) has them checked against that planner, whose
  name (its ``method`` option) is checked too; OMPL planners against
  :func:`ompl_option_names`.

>>> check_name("planner", "astar")
>>> check_name("planner", "astr")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
robomaze.errors.UnknownNameError: unknown planner 'astr'; expected one of: ...
>>> check_options("planner", "max_clearance", {"wieght": 2})
Traceback (most recent call last):
...
robomaze.errors.ParameterError: planner 'max_clearance' takes no option 'wieght'; did you mean 'weight'? its options are: weight, decay, inflation_radius
"""

from __future__ import annotations

import inspect
import typing

from ._options import RUNNER_ARGS, keywords as _keywords, refuse as _refuse
from .errors import ParameterError, unknown_name

__all__ = ["registry", "check_name", "check_options", "option_names", "ompl_option_names"]

def registry(kind: str):
    """The registry of ``kind``: generator, planner, agent, sensor or mouse."""
    if kind == "generator":
        from .generate import GENERATORS as reg
    elif kind == "planner":
        from .plan import PLANNERS as reg
    elif kind == "agent":
        from .sim import AGENTS as reg
    elif kind == "sensor":
        from .sense import SENSORS as reg
    elif kind == "mouse":
        from .micromouse import SOLVERS as reg
    else:
        raise ValueError(f"no registry of {kind!r}")
    return reg


def check_name(kind: str, name: str) -> None:
    """Raise UnknownNameError unless ``name`` is a registered ``kind``."""
    reg = registry(kind)
    if name not in reg:
        raise unknown_name(kind, name, reg)


def ompl_option_names(method: str, keep: tuple = ()) -> list[str]:
    """The options an OMPL planner (``ompl:NAME``) takes: ``ompl_plan``'s
    keyword parameters that are not the runner's own.

    The one stand-in for ``robomaze.plan.sampling.check_options``: where that
    exists, :func:`check_options` defers to it instead.
    """
    from .plan.sampling import ompl_plan

    return [k for k, p in inspect.signature(ompl_plan).parameters.items()
            if p.kind is p.KEYWORD_ONLY and (k not in RUNNER_ARGS or k in keep)]


def option_names(kind: str, name: str, keep: tuple = ()) -> tuple[list[str] | None, str | None]:
    """``(names, planner)``: the options ``name`` takes (None: any), and for
    an agent that hands the rest to a planner, that planner's option
    ``"method"`` default (None otherwise). Runner arguments in ``keep`` (the
    CLI's ``rng``) count as options."""
    fn = registry(kind)[name]
    if kind == "planner":
        if name.startswith("ompl:"):
            return ompl_option_names(name, keep), None
        names, anything = _keywords(fn, keep)
        return (None if anything else names), None
    names, anything = _keywords(fn)
    if anything and kind == "agent":
        # Agent factories are ``fn(ctx, **options) -> Class``: the class says.
        try:
            cls = typing.get_type_hints(fn).get("return")
        except Exception:  # an unresolvable annotation: nothing to go on
            cls = None
        if isinstance(cls, type):
            names, anything = _keywords(cls)
            method = inspect.signature(cls).parameters.get("method")
            if anything and method is not None and isinstance(method.default, str):
                return names, method.default
    return (None if anything else names), None


def check_options(kind: str, name: str, options: dict, *, keep: tuple = ()) -> None:
    """Raise ParameterError for an option ``name`` (a registered ``kind``)
    does not take, naming it and the accepted ones. ``keep``: runner
    arguments the caller lets the user set (``("rng",)`` on the CLI, which
    does not pass a generator itself)."""
    if not options:
        return
    if kind == "planner":                     # the planner package's own rule
        from .plan import check_planner_options

        check_planner_options(name, options, keep=keep)
        return
    valid, planner = option_names(kind, name, keep)
    if valid is None:
        return                                # it takes anything and checks it itself
    rest = {k: v for k, v in options.items() if k not in valid}
    if planner is None:
        for opt in rest:
            raise _refuse(kind, name, opt, valid)
        return
    method = options.get("method", planner)
    if not isinstance(method, str):
        raise ParameterError(f"{kind} {name!r}: option 'method' must be a planner name, "
                             f"got {method!r}")
    check_name("planner", method)
    try:
        check_options("planner", method, rest)
    except ParameterError as exc:             # name both: the agent's options and its planner's
        wrapped = ParameterError(f"{kind} {name!r} takes the options {', '.join(valid)} and "
                                 f"hands the rest to its planner: {exc}")
        if hasattr(exc, "option"):
            wrapped.option = exc.option
        raise wrapped from None
