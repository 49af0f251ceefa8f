"""What a method declares once: its entry, its typed options and its capabilities.

A :class:`Spec` is to robomaze what Gymnasium's ``EnvSpec`` is to its
environments and OMPL's ``declareParam`` to its planners: the one place a
method (a planner, generator, agent, sensor, solver, file format or mouse
profile) says what it is, and what every tool reads -- option checking and
casting (the CLI and the sweep checker), ``robomaze list`` and ``list
--json``, the documentation's option tables and the bench warm-up.

The entry is a ``"module:attr"`` string, imported on first use, so the
registries sit low in the layers and never import the packages they list.

>>> weight = Option("weight", float, 1.0, "heuristic weight", low=1.0)
>>> spec = Spec("planner", "astar", "robomaze.plan.search:astar", "A*", options=(weight,))
>>> spec.check({"weight": "2.5"})
{'weight': 2.5}
>>> spec.check({"wieght": 2})
Traceback (most recent call last):
...
robomaze.errors.ParameterError: planner 'astar' takes no option 'wieght'; did you mean 'weight'? its options are: weight
>>> spec.check({"weight": 0.5})
Traceback (most recent call last):
...
robomaze.errors.ParameterError: planner 'astar' option weight=0.5: expected a number >= 1.0
>>> spec.load().__name__
'astar'
"""

from __future__ import annotations

import difflib
import importlib
import math
import numbers
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np

from ..errors import ParameterError

__all__ = ["Option", "Spec", "Warmup", "ANY", "SEED", "load_entry", "refuse"]

#: Option type of a value robomaze does not check (an object, a callable).
ANY = "any"
#: Option type of a seed: an integer >= 0, a numpy Generator or None.
SEED = "seed"

_TYPES = (int, float, bool, str, ANY, SEED)
_TRUE = {"1": True, "true": True, "yes": True, "on": True,
         "0": False, "false": False, "no": False, "off": False}
_TYPE_NAMES = {int: "int", float: "float", bool: "bool", str: "str", ANY: "any", SEED: "seed"}


def _is_none(v: Any) -> bool:
    return v is None or (isinstance(v, str) and v.strip().lower() == "none")


def load_entry(entry: str) -> Any:
    """Import ``"package.module:attr"`` (``attr`` may be dotted) and return it.

    >>> load_entry("math:pi") > 3
    True
    """
    module, sep, attr = str(entry).partition(":")
    if not sep or not module or not attr:
        raise ParameterError(f"entry must be 'module:attr', got {entry!r}")
    obj = importlib.import_module(module)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


def refuse(kind: str, name: str, opt: str, valid) -> ParameterError:
    """The error for an option ``opt`` that method ``name`` does not take."""
    valid = list(valid)
    close = difflib.get_close_matches(str(opt), valid, n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    exc = ParameterError(f"{kind} {name!r} takes no option {opt!r}; {hint}its options are: "
                         f"{', '.join(valid) or 'none'}")
    exc.option = opt  # for callers that name where the option was typed
    return exc


@dataclass(frozen=True)
class Option:
    """One typed option of a method (OMPL's ``declareParam``).

    Parameters
    ----------
    name : str
    type : {int, float, bool, str, "seed", "any"}
        ``float`` accepts integers; ``bool`` accepts 0/1 and true/false
        words; ``"any"`` is passed through unchecked (objects, callables).
    default
        The method's own default (``None``: the method picks one).
    doc : str
        One line for listings, tables and ``--help``.
    low, high : float, optional
        Inclusive bounds of a number.
    choices : tuple, optional
        The accepted values of a string.
    nullable : bool
        None (``"none"`` on the command line) is accepted too; true by
        default when ``default`` is None.
    """

    name: str
    type: Any
    default: Any = None
    doc: str = ""
    low: float | None = None
    high: float | None = None
    choices: tuple | None = None
    nullable: bool | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.isidentifier():
            raise ParameterError(f"option name must be an identifier, got {self.name!r}")
        if self.type not in _TYPES:
            raise ParameterError(f"option {self.name!r}: type must be one of int, float, bool, "
                                 f"str, 'seed', 'any', got {self.type!r}")
        if self.nullable is None:
            object.__setattr__(self, "nullable", self.default is None)
        if self.choices is not None:
            object.__setattr__(self, "choices", tuple(self.choices))

    @property
    def expected(self) -> str:
        """What the option accepts, in words.

        >>> Option("n", int, 3, low=1).expected
        'an integer >= 1'
        >>> Option("side", str, "right", choices=("left", "right")).expected
        "one of 'left', 'right'"
        """
        t = self.type
        if t is bool:
            text = "true/false (or 1/0)"
        elif t is SEED:
            text = "a seed: an integer >= 0 or a numpy Generator"
        elif t is str:
            text = ("one of " + ", ".join(repr(c) for c in self.choices) if self.choices
                    else "a string")
        elif t in (int, float):
            text = "an integer" if t is int else "a number"
            if self.low is not None and self.high is not None:
                text += f" in [{self.low}, {self.high}]"
            elif self.low is not None:
                text += f" >= {self.low}"
            elif self.high is not None:
                text += f" <= {self.high}"
        else:
            text = "anything"
        return text + (", or none" if self.nullable and t is not ANY else "")

    def cast(self, value: Any) -> Any:
        """``value`` checked against the type, range and choices, and cast where
        the command line typed it as text (``"2.5"``, ``"true"``, ``"none"``).
        Numbers that already have an accepted type are returned unchanged (an
        ``int`` for a ``float`` option stays an ``int``).

        Raises ValueError naming what is expected (:meth:`Spec.check` turns
        it into a one-line ParameterError).
        """
        t = self.type
        if t is ANY:
            return value
        if _is_none(value):
            if self.nullable:
                return None
            raise ValueError(self.expected)
        if t is bool:
            if isinstance(value, (bool, np.bool_)):
                return bool(value)
            if isinstance(value, numbers.Integral) and value in (0, 1):
                return bool(value)
            if isinstance(value, str) and value.strip().lower() in _TRUE:
                return _TRUE[value.strip().lower()]
            raise ValueError(self.expected)
        if t is str:
            if not isinstance(value, str) or (self.choices and value not in self.choices):
                raise ValueError(self.expected)
            return value
        if t is SEED:
            if isinstance(value, np.random.Generator):
                return value
            value = self._number(value, integer=True)
            if value < 0:
                raise ValueError(self.expected)
            return value
        value = self._number(value, integer=t is int)
        if (self.low is not None and value < self.low) or (self.high is not None
                                                           and value > self.high):
            raise ValueError(self.expected)
        return value

    def _number(self, value: Any, *, integer: bool):
        if isinstance(value, str):
            try:
                value = int(value) if integer else float(value)
            except ValueError:
                raise ValueError(self.expected) from None
        if isinstance(value, (bool, np.bool_)):
            raise ValueError(self.expected)
        if integer:
            if isinstance(value, numbers.Integral):
                return value
            if isinstance(value, numbers.Real) and float(value).is_integer():
                return int(value)
            raise ValueError(self.expected)
        if not isinstance(value, numbers.Real) or (isinstance(value, float)
                                                   and not math.isfinite(value)):
            raise ValueError(self.expected)
        return value

    def to_dict(self) -> dict:
        """JSON-friendly: name, type, default, doc, and low/high/choices when set.

        >>> Option("mix", float, 0.5, "p", low=0, high=1).to_dict()
        {'name': 'mix', 'type': 'float', 'default': 0.5, 'doc': 'p', 'nullable': False, 'low': 0, 'high': 1}
        """
        d = {"name": self.name, "type": _TYPE_NAMES[self.type], "default": _jsonable(self.default),
             "doc": self.doc, "nullable": bool(self.nullable)}
        for key in ("low", "high", "choices"):
            v = getattr(self, key)
            if v is not None:
                d[key] = list(v) if key == "choices" else v
        return d


def _jsonable(v: Any) -> Any:
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (tuple, list)):
        return [_jsonable(x) for x in v]
    return repr(v)


@dataclass(frozen=True)
class Warmup:
    """How the bench warm-up compiles a method's kernels before a sweep.

    Parameters
    ----------
    task : str, optional
        The warm-up task that compiles them; methods that share kernels
        share a task (``"classic"``, ``"simulate"``). Default: ``kind:name``.
    cost : float
        Compile seconds of the task with an empty cache (the warm-up runs
        the longest chains first; a wrong figure costs time, never results).
    needs : tuple of str
        Tasks compiling kernels this one shares: it waits for them.
    options : mapping
        Options of the small warm-up call (a generator that needs some).
    alone : float, optional
        Compile seconds when a method task it ``needs`` is not in the
        warm-up, so that it compiles the kernels it shares with it itself
        (default ``cost``).
    """

    task: str | None = None
    cost: float = 1.0
    needs: tuple[str, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    alone: float | None = None


@dataclass(frozen=True)
class Spec:
    """One registry entry.

    Parameters
    ----------
    kind : str
        ``"planner"``, ``"generator"``, ``"agent"``, ``"sensor"``, ``"mouse
        solver"``, ``"MAPF solver"``, ``"format"``, ``"mouse profile"``, ...
    name : str
        The registry key.
    entry : str or object
        ``"module:attr"``, imported on the first :meth:`load` (or the object
        itself, for entries made at run time).
    description : str
        One line for listings.
    options : tuple of Option
        Every option the method takes.
    open_options : bool
        The method also takes options it checks itself (an agent that hands
        the rest to its planner, a planner family); unknown names pass.
    hands_to : str, optional
        The option naming a planner that receives the options this method
        does not take (``follow_plan``'s ``method``).
    takes_rng : bool
        The runner passes a seeded ``rng``.
    flags : frozenset of str
        Capabilities: ``uses_map`` (an agent is given the occupancy grid),
        ``explorer`` (its runs report the fraction of the maze seen),
        ``range`` (a sensor measuring distances), ...
    needs : tuple of str
        What the method needs from the world (``"footprint"``, ``"sensor"``,
        ``"ompl"``, ``"contest_maze"``).
    warmup : Warmup, optional
        Its warm-up task (None: nothing to compile).
    validate : str, optional
        ``"module:attr"`` of ``check(name, options) -> options`` that checks
        the options in place of the typed checks: a family with rules
        between its options and messages of its own (the OMPL planners';
        their options are still declared, for listings and tables).
    """

    kind: str
    name: str
    entry: Any
    description: str = ""
    options: tuple[Option, ...] = ()
    open_options: bool = False
    hands_to: str | None = None
    takes_rng: bool = False
    flags: frozenset = frozenset()
    needs: tuple[str, ...] = ()
    warmup: Warmup | None = None
    validate: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise ParameterError(f"{self.kind} name must be a non-empty string, got {self.name!r}")
        if isinstance(self.entry, str) and ":" not in self.entry:
            raise ParameterError(f"{self.kind} {self.name!r}: entry must be 'module:attr' or an "
                                 f"object, got {self.entry!r}")
        for key in ("flags", "needs"):
            if isinstance(getattr(self, key), str):   # "uses_map" is no set of letters
                raise ParameterError(f"{self.kind} {self.name!r}: {key} must be a collection "
                                     f"of strings, got {getattr(self, key)!r}")
        object.__setattr__(self, "options", tuple(self.options))
        if not all(isinstance(o, Option) for o in self.options):
            raise ParameterError(f"{self.kind} {self.name!r}: options must be Option "
                                 f"declarations, got {self.options!r}")
        object.__setattr__(self, "flags", frozenset(self.flags))
        object.__setattr__(self, "needs", tuple(self.needs))
        names = [o.name for o in self.options]
        if len(set(names)) != len(names):
            raise ParameterError(f"{self.kind} {self.name!r} declares an option twice: {names}")

    # ------------------------------------------------------------ entry
    def load(self) -> Any:
        """The entry itself (imported on first use, then kept)."""
        cached = self.__dict__.get("_loaded", _MISSING)
        if cached is _MISSING:
            cached = load_entry(self.entry) if isinstance(self.entry, str) else self.entry
            object.__setattr__(self, "_loaded", cached)
        return cached

    @property
    def loaded(self) -> bool:
        """Whether :meth:`load` has imported the entry."""
        return not isinstance(self.entry, str) or "_loaded" in self.__dict__

    # ------------------------------------------------------------ options
    @property
    def option_names(self) -> list[str]:
        return [o.name for o in self.options]

    def option(self, name: str) -> Option:
        """The declared option ``name`` (ParameterError if none)."""
        for o in self.options:
            if o.name == name:
                return o
        raise refuse(self.kind, self.name, name, self.option_names)

    @property
    def defaults(self) -> dict:
        """Option name -> default."""
        return {o.name: o.default for o in self.options}

    def flag(self, name: str) -> bool:
        """Whether the capability ``name`` is declared."""
        return name in self.flags

    def check(self, options: Mapping[str, Any], *, keep: tuple = ()) -> dict:
        """``options`` checked (names, types, ranges) and cast; the one-line
        ParameterError names the method, the option, the value and what is
        accepted. Names in ``keep`` (runner arguments the caller lets the
        user set, like the CLI's ``rng``) pass unchecked.
        """
        if self.validate is not None:
            kept = {k: v for k, v in dict(options).items() if k in keep}
            out = load_entry(self.validate)(
                self.name, {k: v for k, v in dict(options).items() if k not in keep})
            return {**out, **kept}
        out = {}
        rest = {}
        declared = {o.name: o for o in self.options}
        for key, value in dict(options).items():
            opt = declared.get(key)
            if opt is None:
                if key in keep and (key != "rng" or self.takes_rng):
                    out[key] = value
                elif self.open_options or self.hands_to:
                    rest[key] = value
                else:
                    raise refuse(self.kind, self.name, key, self.option_names)
                continue
            try:
                out[key] = opt.cast(value)
            except ValueError as exc:
                err = ParameterError(f"{self.kind} {self.name!r} option {key}={value!r}: "
                                     f"expected {exc}")
                err.option = key
                raise err from None
        out.update(rest)
        return out

    # ------------------------------------------------------------ output
    def to_dict(self) -> dict:
        """JSON-friendly description (what ``robomaze list --json`` prints)."""
        d = {"kind": self.kind, "name": self.name,
             "entry": self.entry if isinstance(self.entry, str) else _qualname(self.entry),
             "description": self.description, "takes_rng": self.takes_rng,
             "flags": sorted(self.flags), "needs": list(self.needs),
             "options": [o.to_dict() for o in self.options]}
        if self.open_options:
            d["open_options"] = True
        if self.hands_to:
            d["hands_to"] = self.hands_to
        return d


_MISSING = object()


def _qualname(obj: Any) -> str:
    if not callable(obj) and callable(getattr(obj, "read", None)):
        obj = getattr(obj.read, "__wrapped__", obj.read)   # a format: its reader
    mod = getattr(obj, "__module__", None) or type(obj).__module__
    name = getattr(obj, "__qualname__", None) or type(obj).__qualname__
    return f"{mod}:{name}"


def spec_from_callable(kind: str, name: str, fn: Callable, *, runner_args: tuple = (),
                       description: str = "") -> Spec:
    """A :class:`Spec` read from a plain function's signature: how entries
    registered the old way (a bare callable) join a registry. Keyword
    parameters with defaults become options (typed by their default), a
    ``**kwargs`` makes the options open.

    >>> def f(grid, start, goal, *, footprint=None, weight=1.0, rng=None): ...
    >>> s = spec_from_callable("planner", "f", f, runner_args=("grid", "start", "goal", "footprint", "rng"))
    >>> s.option_names, s.takes_rng, s.open_options
    (['weight'], True, False)
    """
    import inspect

    options, open_ = [], False
    takes_rng = False
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        params, open_ = {}, True
    for key, p in params.items():
        if key == "rng":
            takes_rng = True
        if p.kind is p.VAR_KEYWORD:
            open_ = True
            continue
        if key in runner_args or p.kind not in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD):
            continue
        if p.default is p.empty and p.kind is not p.KEYWORD_ONLY:
            continue  # a positional argument the runner passes
        default = None if p.default is p.empty else p.default
        typ = next((t for t in (bool, int, float, str) if type(default) is t), ANY)
        options.append(Option(key, typ, default, nullable=True if typ is ANY else None))
    if not description:
        doc = (inspect.getdoc(fn) or "").strip()
        description = " ".join(doc.split("\n\n")[0].split())
    return Spec(kind, name, fn, description, options=tuple(options), open_options=open_,
                takes_rng=takes_rng)
