"""Reading files safely and locating their errors: what every reader shares.

The resource limits a reader checks (cells a header announces, the memory
budget) are :mod:`robomaze.io._limits`.

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
the sizes a header announces with :func:`robomaze.io._limits.check_size`
before allocating, so a small file cannot ask for gigabytes. Both limits follow the cell limit in
force (:func:`robomaze.limit_cells`, ``robomaze --max-cells N``).
"""

from __future__ import annotations

import os
from typing import Union

from .._readfile import BYTES_PER_CELL, MIN_FILE_BYTES, max_file_bytes  # noqa: F401
from .._readfile import read_guarded as _read_guarded
from .._readfile import stat_problem as _stat_problem
from ..errors import MazeFormatError

PathLike = Union[str, "os.PathLike[str]"]

__all__ = ["fail", "read_text", "read_bytes", "decode_text", "text_lines", "check_regular_file",
           "file_problem", "max_file_bytes", "line_col", "describe", "PathLike"]

# The file-size limit and the guarded read are robomaze._readfile's (one
# reader for every file robomaze reads); re-exported here for the readers.


def fail(message: str, path=None, line: int | None = None,
         column: int | None = None) -> MazeFormatError:
    """Build (not raise) a format error pointing at ``path:line:column``."""
    return MazeFormatError(message, path=path, line=line, column=column)


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
