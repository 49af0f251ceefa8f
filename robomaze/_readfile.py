"""The one guarded way robomaze reads a file someone else may have made.

Sweeps, mouse profiles, result rows, traversal records, maze and grid files
and the files of a ROS 2 bag folder all come through :func:`read_guarded`:

* only a **regular file** is opened: a FIFO, a device (``/dev/zero``), a
  socket or a directory is refused from ``stat`` before ``open`` (it could
  block for ever or never end), and the file is opened non-blocking and
  checked again on its descriptor, so one swapped in between cannot block;
* its **size** is capped (:func:`max_file_bytes`, which follows the cell
  limit; a caller may pass a smaller cap) before a byte is read, and a file
  that grows while read is cut off at the cap;
* :func:`read_guarded_text` decodes **UTF-8** and names the line and column
  of the first bad byte;
* :func:`load_toml` also caps the **nesting depth** of arrays and tables
  (:data:`MAX_DEPTH`), so a file of ``[[[[...`` is one line of error, not a
  ``RecursionError``.

Each failure is one exception of the caller's choosing (``error``) whose
message names the file and the problem.

>>> import tempfile, os
>>> d = tempfile.mkdtemp()
>>> p = os.path.join(d, "a.toml")
>>> _ = open(p, "w").write("x = [[[1]]]\\n")
>>> load_toml(p, expected="a test file")
{'x': [[[1]]]}
>>> load_toml(p, expected="a test file", max_depth=2)
Traceback (most recent call last):
...
robomaze.errors.ParameterError: ...a.toml: arrays or tables nested more than 2 deep; expected a test file
>>> read_guarded("/dev/zero")
Traceback (most recent call last):
...
robomaze.errors.ParameterError: /dev/zero: is a character device; expected a regular file
"""

from __future__ import annotations

import os
import stat
from typing import Any, Callable

from ._validate import cell_limit
from .errors import ParameterError

__all__ = ["MAX_DEPTH", "BYTES_PER_CELL", "MIN_FILE_BYTES", "max_file_bytes", "file_problem",
           "stat_problem", "read_guarded", "read_guarded_text", "decode_utf8", "load_toml",
           "nesting_depth", "make_error"]

#: Deepest nesting of arrays and tables a TOML or JSON file may have (a real
#: sweep or profile has 4).
MAX_DEPTH = 32
#: Bytes a file may hold per cell of the cell limit: the most verbose format
#: (an ASCII P2 PGM at 16 bits, ``"65535 "`` per pixel; an mms ``.num`` line
#: per cell) stays well under it.
BYTES_PER_CELL = 24
#: Floor of the file size limit, for small cell limits.
MIN_FILE_BYTES = 1 << 20


def max_file_bytes() -> int:
    """Largest file robomaze reads: :data:`BYTES_PER_CELL` bytes per cell of
    the cell limit in force (at least 1 MiB).

    >>> from robomaze import limit_cells
    >>> with limit_cells(1_000_000):
    ...     max_file_bytes()
    24000000
    """
    return max(MIN_FILE_BYTES, BYTES_PER_CELL * cell_limit())


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def stat_problem(st: os.stat_result, limit: int | None = None) -> str | None:
    """Why a file with this ``os.stat`` is refused (None when it is not)."""
    if not stat.S_ISREG(st.st_mode):
        return f"is {_kind(st.st_mode)}; expected a regular file"
    cap = max_file_bytes() if limit is None else limit
    if st.st_size > cap:
        how = ("" if limit is not None else f" ({BYTES_PER_CELL} per cell of the cell limit; "
               "raise it with --max-cells or robomaze.limit_cells)")
        return f"is a file of {st.st_size} bytes, larger than the limit of {cap} bytes{how}"
    return None


def file_problem(path: str | os.PathLike, limit: int | None = None) -> str | None:
    """Why ``path`` cannot be read: ``"no such file"``, ``"is a FIFO (named
    pipe); expected a regular file"``, too large..., or None (a regular file
    within the size limit; a symbolic link is judged by its target).

    >>> file_problem("/dev/zero")
    'is a character device; expected a regular file'
    """
    try:
        st = os.stat(os.fspath(path))
    except FileNotFoundError:
        return "no such file"
    except OSError as exc:
        return f"cannot read it: {exc.strerror}"
    except ValueError:          # an embedded NUL byte
        return "is not a valid path"
    return stat_problem(st, limit)


def make_error(error: Callable[..., Exception], path, message: str,
               line: int | None = None, column: int | None = None) -> Exception:
    """``error`` for a problem of the file ``path``: a format error (which
    places the file itself) gets the path, any other the text ``PATH: ...``."""
    from .errors import MazeFormatError

    if isinstance(error, type) and issubclass(error, MazeFormatError):
        return error(message, path=path, line=line, column=column)
    where = os.fspath(path) if path is not None else ""
    if line is not None:
        where += f":{line}" + (f":{column}" if column is not None else "")
    return error(f"{where}: {message}" if where else message)


def read_guarded(path: str | os.PathLike, error: Callable[..., Exception] = ParameterError, *,
                 limit: int | None = None, missing: bool = False) -> bytes:
    """The bytes of ``path``: a regular file of at most ``limit`` bytes
    (default :func:`max_file_bytes`), read without blocking.

    Raises ``error`` naming the file and the problem; with ``missing`` a
    missing file stays a ``FileNotFoundError`` (the CLI reports it in one line).
    """
    cap = max_file_bytes() if limit is None else int(limit)
    if missing:
        os.stat(os.fspath(path))          # FileNotFoundError as it is
    problem = file_problem(path, cap)
    if problem is None:
        try:
            fd = os.open(os.fspath(path), os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                         | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0))
        except OSError as exc:
            problem = f"cannot read it: {exc.strerror}"
        else:
            with os.fdopen(fd, "rb") as fh:
                st = os.fstat(fd)
                problem = stat_problem(st, cap)
                if problem is None:
                    # read(n) allocates n bytes up front: ask for what the file
                    # holds (+1 to notice growth), never for the whole cap
                    data = fh.read(st.st_size + 1)
                    if len(data) > st.st_size:
                        data += fh.read(max(0, cap - len(data)) + 1)
                    if len(data) <= cap:
                        return data
                    problem = f"grew past the limit of {cap} bytes while read"
    raise make_error(error, path, problem)


def decode_utf8(data: bytes, path, error: Callable[..., Exception] = ParameterError, *,
                expected: str = "UTF-8 text") -> str:
    """UTF-8 text of ``data`` (a leading byte-order mark dropped), or ``error``
    naming the line and column of the first byte that is not UTF-8."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise make_error(error, path, f"not UTF-8 text (byte 0x{data[exc.start]:02x}); "
                         f"expected {expected}", line, column) from None
    return text[1:] if text.startswith("\ufeff") else text


def read_guarded_text(path: str | os.PathLike, error: Callable[..., Exception] = ParameterError,
                      *, expected: str = "UTF-8 text", limit: int | None = None,
                      missing: bool = False) -> str:
    """:func:`read_guarded`, decoded as UTF-8 (:func:`decode_utf8`)."""
    return decode_utf8(read_guarded(path, error, limit=limit, missing=missing), path, error,
                       expected=expected)


def nesting_depth(value: Any, cap: int = MAX_DEPTH) -> int:
    """Nesting depth of lists and dicts, counted without recursion (stops
    looking past ``cap``).

    >>> nesting_depth({"a": [[1], 2]}), nesting_depth(3)
    (3, 0)
    """
    deepest, todo = 0, [(value, 1)]
    while todo:
        v, d = todo.pop()
        items = v.values() if isinstance(v, dict) else v if isinstance(v, (list, tuple)) \
            else None
        if items is None:
            continue
        deepest = max(deepest, d)
        if d <= cap:
            todo.extend((x, d + 1) for x in items)
    return deepest


def load_toml(path: str | os.PathLike, error: Callable[..., Exception] = ParameterError, *,
              expected: str = "a TOML file", max_depth: int = MAX_DEPTH,
              limit: int | None = None) -> dict:
    """The table of a TOML file read by :func:`read_guarded_text`, nested at
    most ``max_depth`` deep; every failure one ``error`` naming the file."""
    import tomllib  # here: most commands read no TOML

    text = read_guarded_text(path, error, expected=expected, limit=limit)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise make_error(error, path, f"not valid TOML: {' '.join(str(exc).split())}") \
            from None
    except RecursionError:
        data = None
    if data is None or nesting_depth(data, max_depth) > max_depth:
        raise make_error(error, path, f"arrays or tables nested more than {max_depth} deep; "
                         f"expected {expected}")
    return data
