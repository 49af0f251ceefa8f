"""Helpers shared by the readers: reading files safely, locating errors, limits.

Readers report problems through :func:`fail`, which builds a
:class:`robomaze.errors.MazeFormatError` naming the file, the 1-based line and
column and what was expected. Messages describe what was found in words
(a count, a position, a kind of token) and never quote the file's bytes, so
an error about a file that is not a maze at all does not leak its content.

Hostile files
-------------
:func:`read_bytes` accepts only regular files (a FIFO, ``/dev/zero`` or a
directory is refused before any read, so it can neither hang nor fill
memory) and refuses files larger than :func:`max_file_bytes`. Readers check
the sizes a header announces with :func:`check_size` before allocating, so
a small file cannot ask for gigabytes. Both limits follow the cell limit in
force (:func:`robomaze.limit_cells`, ``robomaze --max-cells N``).

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
from typing import Iterator, Union

from .._readfile import BYTES_PER_CELL, MIN_FILE_BYTES, max_file_bytes  # noqa: F401
from .._readfile import read_guarded as _read_guarded
from .._readfile import stat_problem as _stat_problem
from .._validate import cell_limit
from ..errors import MazeFormatError, ParameterError

PathLike = Union[str, "os.PathLike[str]"]

__all__ = ["fail", "read_text", "read_bytes", "decode_text", "text_lines", "check_size",
           "check_regular_file", "file_problem", "max_file_bytes", "line_col", "describe", "PathLike",
           "memory_budget", "limit_memory", "check_memory", "parse_bytes", "format_bytes",
           "physical_memory", "MEMORY_ENV"]

# The file-size limit and the guarded read are robomaze._readfile's (one
# reader for every file robomaze reads); re-exported here for the readers.


def fail(message: str, path=None, line: int | None = None,
         column: int | None = None) -> MazeFormatError:
    """Build (not raise) a format error pointing at ``path:line:column``."""
    return MazeFormatError(message, path=path, line=line, column=column)


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


def check_regular_file(path: PathLike) -> os.stat_result:
    """``os.stat`` of ``path``, which must be a regular file within the size limit.

    A missing file stays a ``FileNotFoundError`` (the CLI reports it in one
    line); anything else that is not a regular file is a format error.
    """
    st = os.stat(os.fspath(path))
    _check_stat(st, path)
    return st


def file_problem(st: os.stat_result) -> str | None:
    """Why a file with this ``os.stat`` is refused (None when it is not)."""
    return _stat_problem(st)


def _check_stat(st: os.stat_result, path) -> None:
    problem = file_problem(st)
    if problem is not None:
        raise fail(problem, path)


def read_bytes(path: PathLike) -> bytes:
    """The whole file, which must be a regular file within :func:`max_file_bytes`
    (:func:`robomaze._readfile.read_guarded`: refused before open if it is not,
    opened non-blocking and checked again on its descriptor, so a FIFO
    swapped in after the first check cannot block the read).
    """
    return _read_guarded(path, MazeFormatError, missing=True)


def describe(value) -> str:
    """Say what kind of value a file held without repeating its content.

    Short numbers and literals are shown (they say what was wrong); strings,
    lists and objects only by their size.

    >>> describe(-1), describe(True), describe("secret"), describe([1, 2]), describe(10**40)
    ('-1', 'true', 'a string of 6 characters', 'a list of 2 items', 'a number of 41 digits')
    """
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, (int, float)):
        r = repr(value)
        return r if len(r) <= 20 else f"a number of {len(r)} digits"
    if isinstance(value, str):
        return f"a string of {len(value)} characters"
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value)} items"
    if isinstance(value, dict):
        return f"an object with {len(value)} keys"
    return f"a {type(value).__name__}"


def line_col(data, pos: int) -> tuple[int, int]:
    """1-based ``(line, column)`` of offset ``pos`` in bytes or text.

    >>> line_col(b"ab\\ncd", 4)
    (2, 2)
    """
    nl = b"\n" if isinstance(data, (bytes, bytearray)) else "\n"
    return data.count(nl, 0, pos) + 1, pos - (data.rfind(nl, 0, pos) + 1) + 1


def decode_text(data: bytes, path=None, expected: str = "ASCII text") -> str:
    """Decode UTF-8 (a leading byte-order mark is dropped), naming the bad byte's place."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = line_col(data, exc.start)
        raise fail(f"not a text file: a byte that is not UTF-8; expected {expected}",
                   path, line, col) from None
    return text[1:] if text.startswith("\ufeff") else text


def read_text(path: PathLike) -> str:
    """Read and decode a text file (see :func:`decode_text`)."""
    return decode_text(read_bytes(path), path)


def text_lines(text: str) -> list[str]:
    """Split on LF / CRLF / CR and drop trailing blank lines.

    >>> text_lines("a\\r\\nb\\r\\n\\r\\n")
    ['a', 'b']
    """
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    return lines
