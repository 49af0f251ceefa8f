"""The options a method takes, read from its signature, and the one-line refusal.

Shared by the registries' owners (``plan`` checks a planner's options
before any kernel compiles) and by :mod:`robomaze._names` (the CLI's and
the sweep loader's checks of every kind), so the rule lives below both and
``plan`` needs nothing from above it.

>>> def planner(grid, start, goal, *, footprint=None, weight=1.0, decay=0.5): ...
>>> keywords(planner)
(['weight', 'decay'], False)
>>> str(refuse("planner", "p", "wieght", ["weight", "decay"]))
"planner 'p' takes no option 'wieght'; did you mean 'weight'? its options are: weight, decay"
"""

from __future__ import annotations

import difflib
import inspect

from .errors import ParameterError

__all__ = ["RUNNER_ARGS", "keywords", "refuse"]

#: Arguments the caller (CLI, sweep runner) passes itself: never options.
RUNNER_ARGS = ("grid", "start", "goal", "footprint", "connectivity", "rng", "ctx")


def keywords(fn, keep: tuple = ()) -> tuple[list[str], bool]:
    """Keyword parameter names of ``fn`` (runner arguments left out unless in
    ``keep``) and whether it also takes ``**kwargs``."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return [], True
    names = [k for k, p in params.items() if (k not in RUNNER_ARGS or k in keep)
             and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return names, any(p.kind is p.VAR_KEYWORD for p in params.values())


def refuse(kind: str, name: str, opt: str, valid: list[str]) -> ParameterError:
    """The error for an option ``opt`` that method ``name`` does not take."""
    close = difflib.get_close_matches(opt, valid, n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    exc = ParameterError(f"{kind} {name!r} takes no option {opt!r}; {hint}its options are: "
                         f"{', '.join(valid) or 'none'}")
    exc.option = opt  # for callers that name where the option was typed
    return exc
