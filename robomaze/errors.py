"""The robomaze exception hierarchy.

Every error robomaze raises on purpose derives from :class:`RobomazeError`,
so a caller (and the CLI) can catch one type. The subclasses also derive
from the matching built-in (``ValueError``, ``LookupError``...) so generic
code that catches those keeps working.
"""

from __future__ import annotations

import difflib

__all__ = [
    "RobomazeError",
    "ParameterError",
    "UnknownNameError",
    "MazeFormatError",
    "ScenarioError",
    "NoPathError",
    "CollisionError",
    "RecordFormatError",
    "OptionalDependencyError",
    "ContractError",
    "ResultsDirError",
]


class RobomazeError(Exception):
    """Base class of every error raised by robomaze on purpose."""


class ParameterError(RobomazeError, ValueError):
    """A function argument has a bad value (names the parameter and value)."""


class UnknownNameError(RobomazeError, KeyError):
    """A name looked up in a registry does not exist; lists the valid names."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class MazeFormatError(RobomazeError, ValueError):
    """A maze or grid file is malformed (names the file, line and column)."""

    def __init__(self, message: str, *, path: object = None, line: int | None = None,
                 column: int | None = None) -> None:
        where = ""
        if path is not None:
            where = str(path)
            if line is not None:
                where += f":{line}"
                if column is not None:
                    where += f":{column}"
            where += ": "
        super().__init__(where + message)
        self.path = path
        self.line = line
        self.column = column


class ScenarioError(RobomazeError, ValueError):
    """A scenario or sweep file is invalid (names the file and key path)."""


class NoPathError(RobomazeError):
    """No (collision-free) path exists; ``reason`` says why."""

    def __init__(self, message: str, *, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason or message


class CollisionError(RobomazeError):
    """A pose or path collides where the caller required it not to."""


class RecordFormatError(RobomazeError, ValueError):
    """A trajectory or traversal record file is malformed (names the line)."""


class ResultsDirError(RobomazeError):
    """A benchmark results directory cannot be written safely: another writer
    holds its lock, it is not robomaze's, or a path in it is a symbolic link."""


def unknown_name(kind: str, name: object, valid) -> UnknownNameError:
    """Build the error for an unknown registry entry, listing valid names.

    >>> str(unknown_name("generator", "foo", ["kruskal", "prim"]))
    "unknown generator 'foo'; expected one of: kruskal, prim"
    >>> str(unknown_name("planner", "a_star", ["astar", "dijkstra"]))
    "unknown planner 'a_star'; expected one of: astar, dijkstra (did you mean 'astar'?)"
    """
    names = sorted(str(v) for v in valid)
    close = difflib.get_close_matches(str(name), names, n=3, cutoff=0.6)
    hint = f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""
    return UnknownNameError(f"unknown {kind} {name!r}; expected one of: {', '.join(names)}{hint}")


class OptionalDependencyError(RobomazeError, ImportError):
    """An optional extra is not installed; the message says which (``pip install 'robomaze[...]'``)."""


class ContractError(RobomazeError, AssertionError):
    """A plugin (planner, agent) breaks the contract its registry promises; lists what failed."""
