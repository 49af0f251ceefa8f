"""The results store: one JSON line per finished run in ``DIR/results.jsonl``.

Rows are appended as runs finish, each flushed and ``fsync``'d, so a crash
or Ctrl-C loses at most the run in flight. A crash mid-write can leave a
truncated last line; :func:`read_rows` ignores it and :class:`ResultStore`
cuts it off before appending, so a resumed sweep never writes after garbage.
A malformed line anywhere else is corruption and raises.

>>> import tempfile
>>> d = tempfile.mkdtemp()
>>> with ResultStore(d) as store:
...     store.append({"id": "a1", "status": "ok"})
>>> [r["id"] for r in read_rows(d)]
['a1']
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Iterable

from ..errors import RecordFormatError
from .files import read_regular

__all__ = ["ResultStore", "read_rows", "write_rows", "results_path", "RESULTS_NAME", "row_poses"]

RESULTS_NAME = "results.jsonl"


#: Metrics whose value is a label, not a number (the reference a ratio used).
LABEL_METRICS = ("optimal_reference",)


def row_poses(row: dict):
    """The continuous path a row stores: an ``(n, 3)`` float64 array of
    ``x, y, heading`` (metres, radians), or None when the run did not move.

    Decoded from the row alone, so a length, clearance or collision check
    needs no re-run:

    >>> import numpy as np
    >>> from robomaze.bench.run import encode_poses
    >>> p = row_poses({"poses": encode_poses([[0, 0, 0], [3, 4, 0]])})
    >>> float(np.hypot(*np.diff(p[:, :2], axis=0).T).sum())
    5.0
    """
    import base64
    import zlib

    import numpy as np

    from ..errors import RecordFormatError

    enc = row.get("poses")
    if enc is None:
        return None
    try:
        n = int(enc["n"])
        if not 0 <= n <= 10**8:
            raise ValueError(f"pose count {n} out of range")
        # bounded: a crafted row cannot inflate past the size it declares
        inflate = zlib.decompressobj()
        raw = inflate.decompress(base64.b64decode(enc["zlib_base64"], validate=True), 24 * n)
        if len(raw) != 24 * n or inflate.unconsumed_tail:
            raise ValueError(f"expected {24 * n} bytes of poses")
        a = np.frombuffer(raw, dtype="<f8").reshape(n, 3)
    except (KeyError, TypeError, ValueError, zlib.error) as exc:
        raise RecordFormatError(f"row {row.get('id')!r}: 'poses' is not an encoded pose "
                                f"array ({type(exc).__name__}: {exc})") from None
    return a.astype(float)


def results_path(path: str | os.PathLike) -> Path:
    """``DIR/results.jsonl`` for a directory, or the path itself for a file."""
    p = Path(path)
    return p if p.suffix == ".jsonl" else p / RESULTS_NAME


_TEXT = ("status", "kind", "method", "footprint", "generator", "sweep", "reason", "error",
         "noise", "odometry_noise", "base_dir")
_INTS = ("corridor", "wall", "seed")
_TABLES = ("metrics", "timings", "provenance", "scenario")


def _is_num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def check_row_shape(row: dict) -> None:
    """Raise ValueError unless the fields a report or a resume reads have the
    types robomaze writes (text, integers, numbers, flags, tables of numbers).

    >>> check_row_shape({"id": "a", "corridor": 3, "metrics": {"length_m": 1.5}})
    >>> check_row_shape({"id": "a", "corridor": [3]})
    Traceback (most recent call last):
    ...
    ValueError: field 'corridor': expected an integer, got list
    """
    def bad(key, expected, v):
        raise ValueError(f"field {key!r}: expected {expected}, got {type(v).__name__}")

    for key in _TEXT:
        if row.get(key) is not None and not isinstance(row[key], str):
            bad(key, "text", row[key])
    for key in _INTS:
        if row.get(key) is not None and not (isinstance(row[key], int)
                                             and not isinstance(row[key], bool)):
            bad(key, "an integer", row[key])
    if row.get("resolution") is not None and not _is_num(row["resolution"]):
        bad("resolution", "a number", row["resolution"])
    if row.get("success") is not None and not isinstance(row["success"], bool):
        bad("success", "true or false", row["success"])
    for key in _TABLES:
        if row.get(key) is not None and not isinstance(row[key], dict):
            bad(key, "a table", row[key])
    from .run import DETERMINISTIC_METRICS

    numeric = set(DETERMINISTIC_METRICS) - set(LABEL_METRICS)
    for name, v in (row.get("metrics") or {}).items():
        # robomaze's metrics are numbers or flags (a few are labels); a
        # planner's own figures may also be text (OMPL's stopped_by: "checks")
        if v is None or _is_num(v) or isinstance(v, bool):
            continue
        if name in numeric or not isinstance(v, str):
            bad(f"metrics.{name}", "a number", v)
    for name, v in (row.get("timings") or {}).items():
        if v is not None and not _is_num(v):
            bad(f"timings.{name}", "a number", v)


def _scan(path: Path) -> tuple[list[dict], int]:
    """Rows and the byte offset just after the last complete, valid line."""
    rows: list[dict] = []
    good_end = 0
    if not path.exists() and not path.is_symlink():
        return rows, 0
    data = read_regular(path, RecordFormatError)
    pos = 0
    lineno = 0
    while pos < len(data):
        nl = data.find(b"\n", pos)
        end = len(data) if nl < 0 else nl + 1
        line = data[pos:end]
        lineno += 1
        last = nl < 0 or end == len(data)
        text = line.strip()
        if text:
            try:
                row = json.loads(text)
                if not isinstance(row, dict) or not isinstance(row.get("id"), str):
                    raise ValueError("not a result row (an object with a string 'id')")
                check_row_shape(row)
            except RecursionError:
                raise RecordFormatError(f"{path}:{lineno}: corrupt result row: JSON nested "
                                        "too deeply") from None
            except ValueError as exc:
                if last:  # a crash mid-write: drop the partial line
                    break
                raise RecordFormatError(f"{path}:{lineno}: corrupt result row: {exc}") from None
            if nl < 0:  # complete JSON but no newline yet: keep it, newline added on append
                rows.append(row)
                good_end = -len(data)  # marker: needs a newline
                break
            rows.append(row)
        good_end = end
        pos = end
    return rows, good_end


def read_rows(path: str | os.PathLike, *, dedupe: bool = True) -> list[dict]:
    """All rows of a result directory (or ``.jsonl`` file), in file order.

    With ``dedupe`` the last row per id wins (there is only one unless rows
    were appended by hand).
    """
    p = results_path(path)
    if not p.exists():
        raise RecordFormatError(f"{p}: no results file (run a sweep into this directory first)")
    rows, _ = _scan(p)
    if not dedupe:
        return rows
    by_id: dict[str, dict] = {}
    for row in rows:
        by_id.pop(row["id"], None)
        by_id[row["id"]] = row
    return list(by_id.values())


def write_rows(path: str | os.PathLike, rows: Iterable[dict]) -> Path:
    """Write rows to a fresh results file (replacing any), atomically."""
    p = results_path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    from .files import replace_file

    def write(tmp: Path) -> None:
        with open(tmp, "w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(row, sort_keys=True, allow_nan=False) + "\n")

    replace_file(p, write)
    return p


class ResultStore:
    """Append-only writer for ``DIR/results.jsonl`` (single writer).

    Opening repairs a truncated last line; :attr:`done` holds the ids already
    present, which a resumed sweep skips.
    """

    def __init__(self, directory: str | os.PathLike) -> None:
        self.path = results_path(directory)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        rows, good_end = _scan(self.path)
        self.done: set[str] = {r["id"] for r in rows}
        if self.path.exists():
            size = self.path.stat().st_size
            if good_end < 0:
                with open(self.path, "ab") as fh:
                    fh.write(b"\n")
            elif good_end < size:
                with open(self.path, "r+b") as fh:
                    fh.truncate(good_end)
        self._fh = open(self.path, "a", encoding="utf-8")

    def append(self, row: dict) -> None:
        """Write one row durably (flush + fsync) and remember its id."""
        self._fh.write(json.dumps(row, sort_keys=True, allow_nan=False) + "\n")
        self._fh.flush()
        os.fsync(self._fh.fileno())
        self.done.add(row["id"])

    def close(self) -> None:
        if not self._fh.closed:
            self._fh.close()

    def __enter__(self) -> "ResultStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
