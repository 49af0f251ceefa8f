"""The resource limits of reading and writing: cells a header announces, the memory budget.

Memory budget
-------------
A cell limit alone lets a small file ask for a lot (an 8000x8000 image is
inside the cell limit, but an RGBA float copy of it is 2 GB). Readers and
writers therefore also estimate the peak bytes they will allocate and call
:func:`check_memory` *before* allocating; past :func:`memory_budget` they
refuse, naming the file and the size. The budget defaults to a quarter of
the machine's physical memory; ``ROBOMAZE_MAX_MEMORY`` (e.g. ``2G``),
:func:`limit_memory` or ``robomaze --max-memory 2G`` set another.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import re
from typing import Iterator

from .._validate import cell_limit
from ..errors import ParameterError
from ._reading import fail

__all__ = ["check_size", "memory_budget", "limit_memory", "check_memory", "parse_bytes",
           "format_bytes", "physical_memory", "MEMORY_ENV"]


def check_size(what: str, n: int, path=None, line: int | None = None,
               column: int | None = None) -> int:
    """Refuse ``n`` cells (announced by a header) above the cell limit in force.

    Raised as a :class:`MazeFormatError` naming the file and line, before
    anything of that size is allocated.

    >>> from robomaze import limit_cells
    >>> with limit_cells(100):
    ...     check_size("a 20x20 map", 400, "m.map", 2)
    Traceback (most recent call last):
    ...
    robomaze.errors.MazeFormatError: m.map:2: a 20x20 map has 400 cells, more than the limit of 100 cells (raise the limit with --max-cells or robomaze.limit_cells)
    """
    limit = cell_limit()
    if n > limit:
        count = f"{n}" if n < 10 ** 18 else "over 10^18"
        raise fail(f"{what} has {count} cells, more than the limit of {limit} cells (raise "
                   "the limit with --max-cells or robomaze.limit_cells)", path, line, column)
    return n


#: Environment variable that sets the default memory budget (``2G``, ``512M``, bytes).
MEMORY_ENV = "ROBOMAZE_MAX_MEMORY"
#: Without a setting, the budget is this fraction of physical memory.
MEMORY_FRACTION = 0.25
#: The budget when the machine does not say how much memory it has.
FALLBACK_MEMORY = 4 << 30
_MEMORY_LIMIT: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "robomaze_memory_limit", default=None)
_UNITS = {"": 1, "B": 1, "K": 1 << 10, "KB": 1000, "KIB": 1 << 10, "M": 1 << 20,
          "MB": 1000 ** 2, "MIB": 1 << 20, "G": 1 << 30, "GB": 1000 ** 3, "GIB": 1 << 30,
          "T": 1 << 40, "TB": 1000 ** 4, "TIB": 1 << 40}
_BYTES_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*$")


def parse_bytes(text: str) -> int:
    """A size in bytes from ``"2G"``, ``"512M"``, ``"1.5GiB"``, ``"3GB"`` or ``"1000"``.

    Single letters (K, M, G, T) and ``KiB``... are powers of 1024, ``KB``...
    powers of 1000.

    >>> parse_bytes("2G"), parse_bytes("1.5k"), parse_bytes("3GB"), parse_bytes("100")
    (2147483648, 1536, 3000000000, 100)
    """
    m = _BYTES_RE.match(str(text))
    unit = m and _UNITS.get(m.group(2).upper())
    if not m or unit is None or len(m.group(1)) > 20:
        raise ParameterError(f"memory size must be a number of bytes with an optional unit "
                             f"K, M, G, T (e.g. 2G or 512M), got {str(text)[:40]!r}")
    n = int(float(m.group(1)) * unit) if "." in m.group(1) else int(m.group(1)) * unit
    if n < 1:
        raise ParameterError(f"memory size must be at least 1 byte, got {text!r}")
    return n


def format_bytes(n: int) -> str:
    """A byte count for people: ``"1.91 GiB"``, ``"512.0 MiB"``, ``"300 bytes"``.

    >>> format_bytes(2 * 1024 ** 3), format_bytes(300)
    ('2.00 GiB', '300 bytes')
    """
    if n < 1024:
        return f"{n} bytes"
    for unit, size in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20)):
        if n >= size:
            return f"{n / size:.2f} {unit}" if n < 1000 * size else f"{n / size:.3g} {unit}"
    return f"{n / 1024:.1f} KiB"


def physical_memory() -> int | None:
    """Bytes of physical memory (``os.sysconf``), or None where unknown."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):
        return None


def _default_budget() -> int:
    env = os.environ.get(MEMORY_ENV)
    if env:
        try:
            return parse_bytes(env)
        except ParameterError as exc:
            raise ParameterError(f"{MEMORY_ENV}: {exc}") from None
    phys = physical_memory()
    return int(phys * MEMORY_FRACTION) if phys else FALLBACK_MEMORY


def memory_budget() -> int:
    """Bytes a reader, writer or renderer may allocate at its peak: the
    :func:`limit_memory` in force, else ``ROBOMAZE_MAX_MEMORY``, else a
    quarter of physical memory.

    >>> with limit_memory("64M"):
    ...     memory_budget()
    67108864
    """
    n = _MEMORY_LIMIT.get()
    return _default_budget() if n is None else n


@contextlib.contextmanager
def limit_memory(n: int | str) -> Iterator[int]:
    """Within the block, readers, writers and renderers refuse to allocate
    more than ``n`` bytes (an int or a size such as ``"2G"``)."""
    if isinstance(n, bool) or not isinstance(n, (int, str)):
        raise ParameterError(f"max_memory must be a number of bytes or a size like '2G', "
                             f"got {n!r}")
    value = parse_bytes(n) if isinstance(n, str) else n
    if value < 1:
        raise ParameterError(f"max_memory must be at least 1 byte, got {n!r}")
    token = _MEMORY_LIMIT.set(value)
    try:
        yield value
    finally:
        _MEMORY_LIMIT.reset(token)


def check_memory(what: str, nbytes: int, path=None, line: int | None = None,
                 column: int | None = None, *, verb: str = "reading") -> int:
    """Refuse an allocation of about ``nbytes`` past :func:`memory_budget`.

    ``what`` says what would be built. Reading a file (``path`` given,
    ``verb`` "reading") fails with a :class:`MazeFormatError` naming the
    file; anything else (writing, drawing) with a ``ParameterError`` that
    names ``path`` when there is one.

    >>> with limit_memory("1M"):
    ...     check_memory("a 2000x2000 float grid", 32_000_000, "m.png")
    Traceback (most recent call last):
    ...
    robomaze.errors.MazeFormatError: m.png: reading a 2000x2000 float grid needs about 30.52 MiB of memory, more than the budget of 1.00 MiB (raise it with --max-memory, ROBOMAZE_MAX_MEMORY or robomaze.io.limit_memory)
    """
    budget = memory_budget()
    if nbytes > budget:
        msg = (f"{verb} {what} needs about {format_bytes(int(nbytes))} of memory, more than "
               f"the budget of {format_bytes(budget)} (raise it with --max-memory, "
               f"{MEMORY_ENV} or robomaze.io.limit_memory)")
        if path is not None and verb == "reading":
            raise fail(msg, path, line, column)
        where = f"{os.fspath(path)}: " if path is not None else ""
        raise ParameterError(where + msg)
    return int(nbytes)
