"""Small input checks shared by every public function.

They raise :class:`robomaze.errors.ParameterError` with a message that names
the parameter, the value received and what was expected.
"""

from __future__ import annotations

import contextlib
import contextvars
import numbers
import re
from typing import Iterator

import numpy as np

from .errors import ParameterError

__all__ = ["check_int", "check_float", "check_fraction", "check_choice",
           "MAX_CELLS", "cell_limit", "limit_cells", "check_cells"]

#: Largest number of cells (maze cells or grid cells) the library agrees to
#: allocate unless told otherwise (:func:`limit_cells`). The command line
#: sets a lower default (``robomaze --max-cells``).
MAX_CELLS = 400_000_000
_CELL_LIMIT: contextvars.ContextVar[int] = contextvars.ContextVar("robomaze_cell_limit",
                                                                  default=MAX_CELLS)


def cell_limit() -> int:
    """The cell limit in force (:data:`MAX_CELLS` unless :func:`limit_cells` set one)."""
    return _CELL_LIMIT.get()


@contextlib.contextmanager
def limit_cells(n: int) -> Iterator[int]:
    """Within the block, refuse mazes and grids of more than ``n`` cells.

    >>> from robomaze.maze import Maze
    >>> with limit_cells(100):
    ...     Maze.full(20, 20)
    Traceback (most recent call last):
    ...
    robomaze.errors.ParameterError: a 20x20 maze has 400 cells, more than the limit of 100 cells; expected rows*cols <= 100 (raise the limit with --max-cells or robomaze.limit_cells)
    """
    token = _CELL_LIMIT.set(check_int("max_cells", n, min_value=1))
    try:
        yield n
    finally:
        _CELL_LIMIT.reset(token)


def check_cells(what: str, n: int, expected: str) -> None:
    """Raise if ``n`` cells exceed the limit in force; ``what`` describes them."""
    limit = cell_limit()
    if n > limit:
        raise ParameterError(
            f"{what} has {n} cells, more than the limit of {limit} cells; expected "
            f"{expected} <= {limit} (raise the limit with --max-cells or robomaze.limit_cells)")


def check_int(name: str, value, *, min_value: int | None = None,
              max_value: int | None = None) -> int:
    """Return ``value`` as an int, or raise naming ``name``.

    >>> check_int("rows", 3, min_value=1)
    3
    >>> check_int("rows", 0, min_value=1)
    Traceback (most recent call last):
    ...
    robomaze.errors.ParameterError: rows must be an integer >= 1, got 0
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ParameterError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if min_value is not None and value < min_value:
        raise ParameterError(f"{name} must be an integer >= {min_value}, got {value}")
    if max_value is not None and value > max_value:
        raise ParameterError(f"{name} must be an integer <= {max_value}, got {value}")
    return value


def check_float(name: str, value, *, min_value: float | None = None,
                max_value: float | None = None, strict_min: bool = False) -> float:
    """Return ``value`` as a finite float, or raise naming ``name``.

    >>> check_float("resolution", 0.05, min_value=0, strict_min=True)
    0.05
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ParameterError(f"{name} must be a number, got {value!r}")
    value = float(value)
    if not np.isfinite(value):
        raise ParameterError(f"{name} must be finite, got {value}")
    if min_value is not None:
        if strict_min and value <= min_value:
            raise ParameterError(f"{name} must be > {min_value}, got {value}")
        if not strict_min and value < min_value:
            raise ParameterError(f"{name} must be >= {min_value}, got {value}")
    if max_value is not None and value > max_value:
        raise ParameterError(f"{name} must be <= {max_value}, got {value}")
    return value


def check_fraction(name: str, value) -> float:
    """A number in [0, 1].

    >>> check_fraction("fraction", 1.5)
    Traceback (most recent call last):
    ...
    robomaze.errors.ParameterError: fraction must be <= 1.0, got 1.5
    """
    return check_float(name, value, min_value=0.0, max_value=1.0)


def check_choice(name: str, value, choices) -> str:
    """``value`` must be one of ``choices``.

    >>> check_choice("hand", "left", ("left", "right"))
    'left'
    """
    if value not in choices:
        raise ParameterError(
            f"{name} must be one of {', '.join(map(repr, choices))}, got {value!r}")
    return value


_UNSAFE = re.compile(r"[^A-Za-z0-9._+-]+")


def safe_name(text: str, *, limit: int = 80) -> str:
    """A file name made from data (a method, a footprint label...).

    Only letters, digits and ``._+-`` are kept (runs of anything else become
    ``_``), no leading dot, at most ``limit`` characters; a name that had to
    change gets a short hash of the original so two values never share a file.

    >>> safe_name("astar"), safe_name("disc-0.04")
    ('astar', 'disc-0.04')
    >>> safe_name("a/b") != safe_name("a_b")
    True
    """
    text = str(text)
    clean = _UNSAFE.sub("_", text).lstrip("._") or "_"
    if clean == text and len(clean) <= limit:
        return clean
    import hashlib  # here: only a name that had to change needs it (most commands: none)

    digest = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:6]
    return f"{clean[:limit - 7].rstrip('_')}-{digest}"
