"""The options an ``ompl:`` planner takes, checked before any maze is built.

:func:`typed_options` is what the CLI (``--option KEY=VALUE``) and a
sweep's validation call: one :class:`~robomaze.errors.ParameterError`
naming the planner, the option, the value and what is accepted, and the
options normalised (``simplify=0`` -> ``False``, ``"none"`` -> ``None``).

>>> typed_options("ompl:rrtstar", {"max_checks": 40000, "rng": 1, "simplify": 0})
{'max_checks': 40000, 'rng': 1, 'simplify': False}
>>> typed_options("ompl:rrtstar", {"max_check": 10})
Traceback (most recent call last):
...
robomaze.errors.ParameterError: unknown option 'max_check' for ompl:rrtstar (did you mean
'max_checks'?); accepted: goal_heading, max_checks, planner_range, rng, simplify, ...
>>> typed_options("ompl:kpiece", {"max_checks": -3})
Traceback (most recent call last):
...
robomaze.errors.ParameterError: option max_checks=-3 for ompl:kpiece: expected an integer
>= 1, or none
"""

from __future__ import annotations

import difflib
import math
from typing import Any, Callable

import numpy as np

from ...errors import ParameterError, unknown_name
from .solve import CAR_SPACES, OMPL_PLANNERS

__all__ = ["typed_options", "option_names", "OPTION_RULES"]


def _number(v: Any, *, integer: bool) -> float | int | None:
    if isinstance(v, str):
        try:
            v = float(v) if not integer else int(v)
        except ValueError:
            return None
    if isinstance(v, (bool, np.bool_)):
        return None
    if integer:
        return int(v) if isinstance(v, (int, np.integer)) else None
    if not isinstance(v, (int, float, np.integer, np.floating)):
        return None
    try:
        return float(v)
    except OverflowError:       # an integer of hundreds of digits: no float holds it
        return None


def _none(v: Any) -> bool:
    return v is None or (isinstance(v, str) and v.strip().lower() in ("none", ""))


def _positive_int(optional: bool) -> tuple[Callable, str]:
    def conv(v):
        if optional and _none(v):
            return None, True
        n = _number(v, integer=True)
        return n, n is not None and n >= 1
    return conv, "an integer >= 1" + (", or none" if optional else "")


def _positive_float(optional: bool) -> tuple[Callable, str]:
    def conv(v):
        if optional and _none(v):
            return None, True
        x = _number(v, integer=False)
        return x, x is not None and math.isfinite(x) and x > 0
    return conv, "a number > 0" + (", or none" if optional else "")


def _heading() -> tuple[Callable, str]:
    def conv(v):
        if _none(v):
            return None, True
        x = _number(v, integer=False)
        return x, x is not None and math.isfinite(x)
    return conv, "a heading in radians, or none"


def _flag() -> tuple[Callable, str]:
    words = {"1": True, "true": True, "yes": True, "0": False, "false": False, "no": False}

    def conv(v):
        if isinstance(v, (bool, np.bool_)):
            return bool(v), True
        if isinstance(v, (int, np.integer)) and v in (0, 1):
            return bool(v), True
        if isinstance(v, str) and v.strip().lower() in words:
            return words[v.strip().lower()], True
        return None, False
    return conv, "true/false (or 1/0)"


def _seed() -> tuple[Callable, str]:
    def conv(v):
        if _none(v) or isinstance(v, np.random.Generator):
            return (None if _none(v) else v), True
        n = _number(v, integer=True)
        return n, n is not None and n >= 0
    return conv, "a seed: an integer >= 0, a numpy Generator, or none"


def _choice(names) -> tuple[Callable, str]:
    def conv(v):
        if _none(v):
            return None, True
        return v, v in names
    return conv, "one of: " + ", ".join(sorted(names)) + ", or none"


#: option name -> (converter returning ``(value, ok)``, what is accepted).
OPTION_RULES: dict[str, tuple[Callable, str]] = {
    "max_checks": _positive_int(True),
    "time_limit": _positive_float(True),
    "simplify": _flag(),
    "stop_at_first": _flag(),
    "rng": _seed(),
    "start_heading": _heading(),
    "goal_heading": _heading(),
    "space": _choice(CAR_SPACES),
    "turning_radius": _positive_float(True),
    "step": _positive_float(True),
    "planner_range": _positive_float(True),
}
# the car planners choose the OMPL planner that runs in their space
_CAR_ONLY = {"planner": _choice(OMPL_PLANNERS)}


def option_names(method: str) -> list[str]:
    """The options ``method`` (``"ompl:<name>"``) accepts, sorted.

    >>> "max_checks" in option_names("ompl:prmstar"), "planner" in option_names("ompl:dubins")
    (True, True)
    """
    name = method[5:] if method.startswith("ompl:") else method
    if name not in OMPL_PLANNERS and name not in CAR_SPACES:
        raise unknown_name("OMPL planner", method,
                           [f"ompl:{n}" for n in (*OMPL_PLANNERS, *CAR_SPACES)])
    names = set(OPTION_RULES)
    if name in CAR_SPACES:
        names |= set(_CAR_ONLY)
    return sorted(names)


def typed_options(method: str, options: dict) -> dict:
    """Check and normalise the options of an ``ompl:`` planner.

    Parameters
    ----------
    method : str
        The registry name, e.g. ``"ompl:rrtstar"`` or ``"ompl:dubins"``.
    options : dict
        Option name -> value (numbers, or strings as typed on the CLI).

    Returns
    -------
    dict
        The options with normalised values, in the given order.

    Raises
    ------
    ParameterError
        An unknown option (naming the accepted ones) or a bad value
        (naming what the option accepts).
    UnknownNameError
        ``method`` is not an OMPL planner.
    """
    accepted = option_names(method)
    rules = {**OPTION_RULES, **_CAR_ONLY}
    out = {}
    for key, value in dict(options).items():
        if key not in accepted:
            close = difflib.get_close_matches(str(key), accepted, n=2, cutoff=0.6)
            hint = f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""
            raise ParameterError(f"unknown option {key!r} for {method}{hint}; "
                                 f"accepted: {', '.join(accepted)}")
        conv, expected = rules[key]
        v, ok = conv(value)
        if not ok:
            raise ParameterError(f"option {key}={value!r} for {method}: expected {expected}")
        out[key] = v
    if out.get("max_checks", 1) is None and out.get("time_limit") is None:
        raise ParameterError(f"options of {method}: max_checks=none needs a time_limit "
                             f"(seconds): a run needs a budget")
    return out
