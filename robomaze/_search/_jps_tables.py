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

* **what is built at that query** (round 8): where a row sample shows
  most free cells thin (:func:`._jps_peel.thin_share`), the dead ends are
  peeled (:mod:`._jps_peel`, 8 bytes per padded cell) and the peel kept if
  its core is at most half the free cells -- a 1-wide perfect maze is all
  tree, so its queries become walks and no tables are built at all; else
  the tables, and where the grid's stacks form a tree of >= 16 stacks (a
  widened perfect maze of any width) the stack labels that confine JPS+
  to each query's route (:mod:`._jps_stacks`, 4 bytes per padded cell).
  Every later query uses what was kept; the budget counts all of it, so
  at 8001^2 a 1-wide maze's peel (489 MB) fits where its tables do not.
  The peel and the route answer with the same length but may pick another
  path of that length and count ``expanded`` otherwise, so the policy
  builds them only for callers that pass ``peel=None`` / ``route=None``
  (lengths-only batches); the planners' default keeps JPS+, whose cells
  and expansions are plain JPS's, so a plan never depends on how many
  queries its grid had before.

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
from ._jps_peel import peel_nbytes, thin_share
from ._jps_plus import build_tables, table_dtype, table_nbytes
from ._jps_stacks import build_route

__all__ = ["tables_for", "prepared_for", "free_tables", "tables_budget", "build_after", "kept_bytes"]

_LOCK = threading.Lock()
#: id(mask) -> _Entry, least recently used first
_ENTRIES: "OrderedDict[int, _Entry]" = OrderedDict()
#: the peel is kept when its core (the cells a search still needs) is at
#: most this share of the free cells: on a perfect maze of 1-wide corridors
#: it is 0, on random maps and wider mazes 0.9-1
PEEL_KEEP = 0.5
#: the peel is tried only when at least this share of sampled free cells
#: has at most two moves (:func:`._jps_peel.thin_share`, numpy, ~2 ms at
#: 1001^2): a 1-wide maze 0.95; mazes of corridor 3 and 9 0.0; random
#: 10/30/40/45% obstacles 0.02/0.23/0.39/0.48, whose cores hold
#: 0.996/0.89/0.72/0.60 of the free cells, so the peel would be dropped
PEEL_TRY = 0.5
#: the route (:mod:`._jps_stacks`) is kept on trees of at least this many
#: stacks: on fewer (an open rectangle is one) a route is most of the grid
ROUTE_MIN_STACKS = 16
_MAX_COUNTERS = 256               # masks counted but without tables (a few bytes each)


class _Entry:
    __slots__ = ("ref", "queries", "table", "peel", "route", "decided")

    def __init__(self, ref):
        self.ref, self.queries, self.table, self.peel, self.route = ref, 0, None, None, None
        self.decided = False            # the policy has built (and kept or dropped) its choice

    def nbytes(self) -> int:
        return sum(a.nbytes for a in (self.table, self.peel, self.route) if a is not None)

    def built(self) -> bool:
        return self.table is not None or self.peel is not None or self.route is not None


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
        return sum(e.nbytes() for e in _ENTRIES.values())


def free_tables() -> int:
    """Drop every kept table and query count; returns the bytes released.

    >>> free_tables() >= 0
    True
    """
    with _LOCK:
        out = sum(e.nbytes() for e in _ENTRIES.values())
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


def _build_peel(fp: np.ndarray, cols: int):
    """The peel of ``fp`` (:mod:`._jps_peel`) and its core's share of the free cells."""
    from ._jps_peel import peel

    n = fp.shape[0]
    pt = np.empty(2 * n, np.int32)
    # scratch: 5 bytes per padded cell, freed on return
    core = peel(fp, cols, pt, np.empty(n, np.uint8), np.empty(n, np.int32))
    nfree = int(np.count_nonzero(fp))
    pt.setflags(write=False)
    return pt, (core / nfree if nfree else 1.0)


def tables_for(fp: np.ndarray, rows: int, cols: int, want: bool | None = None):
    """The JPS+ tables for this query on the padded mask ``fp``, or None for plain JPS.

    ``want``: None applies the policy above (counting the query), True
    forces tables (built now if not kept; kept if ``fp`` is read-only and
    they fit the budget), False forces plain JPS. (:func:`prepared_for`
    also returns the peel.)

    >>> fp = np.zeros(16, np.uint8); fp[5] = fp[6] = 1; fp.setflags(write=False)
    >>> t = tables_for(fp, 2, 2, want=True)
    >>> t.reshape(-1, 8)[5].tolist()      # E: one free cell, then the wall
    [-1, 0, 0, 0, 0, 0, 0, 0]
    >>> tables_for(fp, 2, 2, want=False) is None
    True
    """
    return prepared_for(fp, rows, cols, want)[0]


def prepared_for(fp: np.ndarray, rows: int, cols: int, want: bool | None = None,
                 peel: bool | None = None, route: bool | None = None):
    """``(tables, peel, route)`` for this query on the padded mask ``fp``; any may be None.

    ``want`` as :func:`tables_for`. ``peel`` (:mod:`._jps_peel`): None
    returns the peel the policy keeps -- built with the tables at the
    ``ROBOMAZE_JPS_PLUS_AFTER``-th query and kept when its core is at most
    ``PEEL_KEEP`` of the free cells (then the tables are built only if the
    core is not empty); True forces it (built now if not kept); False
    never. ``route`` (:mod:`._jps_stacks`, JPS+ confined to the stacks of
    the query's route), likewise: the policy keeps it where the peel is not
    kept and the grid's stacks form a tree (a widened perfect maze); it
    needs the tables. The budget counts all three.

    >>> fp = np.zeros(16, np.uint8); fp[5] = fp[6] = 1; fp.setflags(write=False)
    >>> t, pt, r = prepared_for(fp, 2, 2, want=False, peel=True)
    >>> t is None, r is None, pt.reshape(-1, 2)[5].tolist(), pt.reshape(-1, 2)[6].tolist()
    (True, True, [-1, 1], [5, 0])
    """
    if want is False and not peel:
        return None, None, None
    need = table_nbytes(rows, cols)
    pneed = peel_nbytes(rows, cols)
    budget = tables_budget()
    if fp.flags.writeable:                         # may change: built for this query only
        t = _build(fp, rows, cols) if want is True else None
        return (t, (_build_peel(fp, cols)[0] if peel else None),
                (build_route(fp, cols) if route and t is not None else None))
    if want is True and need > budget:
        raise ParameterError(
            f"tables=True: JPS+ tables of a {rows}x{cols} grid take {need / 2**20:.0f} MB, "
            f"over ROBOMAZE_JPS_TABLES_MB={budget / 2**20:g}; raise the budget or pass "
            "tables=False")
    # the tables are the policy's when not forced; the peel and the route only when
    # the caller lets the policy choose them (None): False keeps a query's answer
    # independent of the grid's query count
    policy = want is None and peel is not True and route is not True
    if policy and need > budget and pneed > budget:
        return None, None, None
    after = build_after() if policy else 1
    if after == 0:
        return None, None, None
    key = id(fp)
    with _LOCK:
        e = _ENTRIES.get(key)
        if e is not None and e.ref() is not fp:    # a dead mask's id reused
            del _ENTRIES[key]
            e = None
        if e is None:
            e = _Entry(weakref.ref(fp, _forget(key)))
            _ENTRIES[key] = e
            counters = [k for k, v in _ENTRIES.items() if not v.decided]
            for k in counters[:max(0, len(counters) - _MAX_COUNTERS)]:
                del _ENTRIES[k]
        _ENTRIES.move_to_end(key)
        e.queries += 1
        table, pt, rt = e.table, e.peel, e.route
        if policy:
            if e.decided:
                return (table, (pt if peel is None else None),
                        (rt if route is None and table is not None else None))
            if e.queries < after:
                return None, None, None
    # build what is missing, outside the lock (others keep searching)
    if policy:
        if peel is None and pneed <= budget and thin_share(fp, rows, cols) >= PEEL_TRY:
            pt, share = _build_peel(fp, cols)
            if share > PEEL_KEEP:
                pt = None                          # the core is most of the grid: no use
            elif share == 0.0:
                need = budget + 1                  # a forest: no query needs the search
        if need + (pneed if pt is not None else 0) <= budget:
            table = _build(fp, rows, cols)
            if pt is None and route is None:
                rt = build_route(fp, cols)             # None unless the stacks form a tree
                if rt is not None and (rt.nstacks < ROUTE_MIN_STACKS
                                       or need + rt.nbytes > budget):
                    rt = None                          # a route would be the whole grid
    else:
        if peel and pt is None:
            pt = _build_peel(fp, cols)[0]
        if want and table is None:
            table = _build(fp, rows, cols)
        if route and rt is None and table is not None:
            rt = build_route(fp, cols)
    with _LOCK:
        if _ENTRIES.get(key) is e:
            if policy:
                e.decided = True
            if e.table is None and table is not None and table.nbytes <= budget:
                e.table = table
            if e.peel is None and pt is not None and pt.nbytes <= budget:
                e.peel = pt
            if e.route is None and rt is not None and rt.nbytes <= budget:
                e.route = rt
            if e.built():
                _evict(budget, keep=key)
            table = e.table if e.table is not None else table
            pt = e.peel if e.peel is not None else pt
            rt = e.route if e.route is not None else rt
    table = None if want is False else table
    return (table, (None if peel is False else pt),
            (None if (route is False or table is None) else rt))


def _evict(budget: int, keep: int) -> None:
    """Drop the least recently used grids' builds (not ``keep``'s) until the rest fit ``budget``."""
    total = sum(v.nbytes() for v in _ENTRIES.values())
    for k in list(_ENTRIES):
        if total <= budget:
            break
        v = _ENTRIES[k]
        if k != keep and v.built():
            total -= v.nbytes()
            v.table = None
            v.peel = None
            v.route = None
            v.queries = 0
            v.decided = False
