"""Helpers shared by the readers: reading text, locating errors, sniffing.

Readers report problems through :func:`fail`, which builds a
:class:`robomaze.errors.MazeFormatError` naming the file, the 1-based line and
column and what was expected.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Union

from ..errors import MazeFormatError

PathLike = Union[str, "os.PathLike[str]"]

__all__ = ["fail", "read_text", "read_bytes", "text_lines", "PathLike"]


def fail(message: str, path=None, line: int | None = None,
         column: int | None = None) -> MazeFormatError:
    """Build (not raise) a format error pointing at ``path:line:column``."""
    return MazeFormatError(message, path=path, line=line, column=column)


def read_bytes(path: PathLike) -> bytes:
    """The whole file; a missing file stays an ``OSError`` (the CLI reports it)."""
    return Path(path).read_bytes()


def read_text(path: PathLike) -> str:
    """Decode a text file as UTF-8 (ASCII in practice), naming the bad byte."""
    data = read_bytes(path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise fail(f"not a text file: undecodable byte 0x{data[exc.start]:02x}; "
                   "expected ASCII text", path, line, col) from None


def text_lines(text: str) -> list[str]:
    """Split on LF / CRLF / CR and drop trailing blank lines.

    >>> text_lines("a\\r\\nb\\r\\n\\r\\n")
    ['a', 'b']
    """
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    return lines
