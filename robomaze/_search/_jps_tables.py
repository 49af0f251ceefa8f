"""When JPS+ tables are built, and how many are kept.

A JPS+ query (:mod:`._jps_plus`) is up to 4x cheaper than a plain JPS
query (1.1-1.3x on corridor-1 mazes and random grids), but its tables cost
a pass over the grid and 16 bytes per padded cell (int16; 245 MB at
4001^2). They pay off only on a static grid queried several times, so the
policy is:

* **static grids only**: tables are kept per padded mask *object* (the
  read-only mask an :class:`~robomaze.grid.OccupancyGrid` caches, or the
  one a :class:`~robomaze._search.Padded` carries). A writable mask may
  change, so it is never counted or cached;
* **lazily, after a few queries**: a mask's first queries run plain JPS;
  the query that reaches ``ROBOMAZE_JPS_PLUS_AFTER`` (default 16) builds
  the tables, and every later query uses them. One-off queries never pay
  for preprocessing. Measured at 4001^2 (benchmarks/README.md, round 7): a
  build costs 2.6-16 plain queries and JPS+ saves 11-74% of a query, so it
  repays itself after 12-73 queries (12-25 on widened mazes). Building at
  about the break-even is the ski-rental rule: whatever the number of
  queries, the total stays within about twice the better of "never" and
  "from the start";
* **a byte budget**: all kept tables together stay within
  ``ROBOMAZE_JPS_TABLES_MB`` (default 768); the least recently used are
  dropped to make room, and a grid whose tables alone exceed the budget runs
  plain JPS (0 disables JPS+). :func:`free_tables` drops everything;
* entries follow their mask: when the mask is garbage collected, its
  tables go with it (a weak reference).

A caller may force the choice per query (``jump_point_path(...,
tables=True / False)``); forcing tables that exceed the budget is a
:class:`~robomaze.errors.ParameterError`, as is a malformed variable.
"""

from __future__ import annotations

import os
import threading
import weakref
from collections import OrderedDict

import numpy as np

from ..errors import ParameterError
from ._jps_plus import build_tables, table_dtype, table_nbytes

__all__ = ["tables_for", "free_tables", "tables_budget", "build_after", "kept_bytes"]

_LOCK = threading.Lock()
#: id(mask) -> _Entry, least recently used first
_ENTRIES: "OrderedDict[int, _Entry]" = OrderedDict()
_MAX_COUNTERS = 256               # masks counted but without tables (a few bytes each)


class _Entry:
    __slots__ = ("ref", "queries", "table")

    def __init__(self, ref):
        self.ref, self.queries, self.table = ref, 0, None


def _env_number(name: str, default: str, *, integer: bool) -> float:
    raw = os.environ.get(name, default).strip()
    try:
        v = int(raw) if integer else float(raw)
    except ValueError:
        v = -1
    if not (v >= 0):                   # also NaN
        kind = "a whole number" if integer else "a number"
        raise ParameterError(f"environment variable {name}={raw!r}: expected {kind} >= 0")
    return v


def tables_budget() -> int:
    """Bytes all kept JPS+ tables may use together (``ROBOMAZE_JPS_TABLES_MB``, default 768).

    >>> tables_budget() >= 0
    True
    """
    return int(_env_number("ROBOMAZE_JPS_TABLES_MB", "768", integer=False) * 2**20)


def build_after() -> int:
    """The query on one static grid that builds its tables (``ROBOMAZE_JPS_PLUS_AFTER``: 16).

    1 builds them on the first query; 0 never builds them.

    >>> build_after() >= 0
    True
    """
    return int(_env_number("ROBOMAZE_JPS_PLUS_AFTER", "16", integer=True))


def kept_bytes() -> int:
    """Bytes of the tables kept now.

    >>> kept_bytes() >= 0
    True
    """
    with _LOCK:
        return sum(e.table.nbytes for e in _ENTRIES.values() if e.table is not None)


def free_tables() -> int:
    """Drop every kept table and query count; returns the bytes released.

    >>> free_tables() >= 0
    True
    """
    with _LOCK:
        out = sum(e.table.nbytes for e in _ENTRIES.values() if e.table is not None)
        _ENTRIES.clear()
    return out


def _forget(key: int):
    def drop(_ref):
        with _LOCK:
            e = _ENTRIES.get(key)
            if e is not None and e.ref is _ref:
                del _ENTRIES[key]
    return drop


def _build(fp: np.ndarray, rows: int, cols: int) -> np.ndarray:
    # numpy backs large arrays with huge pages: no TLB miss per jump on big grids
    t = build_tables(fp, rows, cols, np.zeros(8 * fp.shape[0], table_dtype(rows, cols)))
    t.setflags(write=False)          # shared by concurrent queries; kernels see one type
    return t


def tables_for(fp: np.ndarray, rows: int, cols: int, want: bool | None = None):
    """The JPS+ tables for this query on the padded mask ``fp``, or None for plain JPS.

    ``want``: None applies the policy above (counting the query), True
    forces tables (built now if not kept; kept if ``fp`` is read-only and
    they fit the budget), False forces plain JPS.

    >>> fp = np.zeros(16, np.uint8); fp[5] = fp[6] = 1; fp.setflags(write=False)
    >>> t = tables_for(fp, 2, 2, want=True)
    >>> t.reshape(-1, 8)[5].tolist()      # E: one free cell, then the wall
    [-1, 0, 0, 0, 0, 0, 0, 0]
    >>> tables_for(fp, 2, 2, want=False) is None
    True
    """
    if want is False:
        return None
    need = table_nbytes(rows, cols)
    budget = tables_budget()
    static = not fp.flags.writeable
    if want is True:
        if not static:
            return _build(fp, rows, cols)          # may change: built for this query only
        if need > budget:
            raise ParameterError(
                f"tables=True: JPS+ tables of a {rows}x{cols} grid take {need / 2**20:.0f} MB, "
                f"over ROBOMAZE_JPS_TABLES_MB={budget / 2**20:g}; raise the budget or pass "
                "tables=False")
    elif not static or need > budget:
        return None
    after = build_after() if want is None else 1
    if after == 0:
        return None
    key = id(fp)
    with _LOCK:
        e = _ENTRIES.get(key)
        if e is not None and e.ref() is not fp:    # a dead mask's id reused
            del _ENTRIES[key]
            e = None
        if e is None:
            e = _Entry(weakref.ref(fp, _forget(key)))
            _ENTRIES[key] = e
            counters = [k for k, v in _ENTRIES.items() if v.table is None]
            for k in counters[:max(0, len(counters) - _MAX_COUNTERS)]:
                del _ENTRIES[k]
        _ENTRIES.move_to_end(key)
        e.queries += 1
        if e.table is not None:
            return e.table
        if e.queries < after:
            return None
    t = _build(fp, rows, cols)                     # outside the lock: others keep searching
    with _LOCK:
        if _ENTRIES.get(key) is e:
            if e.table is None:
                e.table = t
                _evict(budget, keep=key)
            t = e.table
    return t


def _evict(budget: int, keep: int) -> None:
    """Drop least recently used tables (not ``keep``'s) until the kept ones fit ``budget``."""
    total = sum(v.table.nbytes for v in _ENTRIES.values() if v.table is not None)
    for k in list(_ENTRIES):
        if total <= budget:
            break
        v = _ENTRIES[k]
        if k != keep and v.table is not None:
            total -= v.table.nbytes
            v.table = None
            v.queries = 0
