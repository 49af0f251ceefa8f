"""The grid core's search engine: one heap, one best-first loop, one FIFO wave.

Every grid search of robomaze runs here -- Dijkstra, A*, Theta*, the
MovingAI batch, the agents' distance fields (:func:`best_first`), the
footprint planner's (cell, heading) search (``_bins.py``: the HEADING rule
with one queue entry per cell; :func:`best_first` above 64 bins), and the
BFS waves of the wavefront planner, the classic solvers and the micromouse
flood fill (:func:`wave`).
Callers in other packages use the small public functions at the bottom of
this module; the kernels stay private.

Grids are searched **padded**: the free mask gets a one-cell blocked border
(:func:`pad`), so a neighbour is ``node + offset`` with no bounds check and
no row/column division in the hot loop (a sentinel border, the textbook C
trick). Flat indices in padded space are ``(row + 1) * (cols + 2) + col +
1``; the public functions translate at the boundary.

Neighbour rules (``rule``):

* ``GRID``: the 4 orthogonal moves N, E, S, W and, with ``conn8``, the
  diagonals NE, SE, SW, NW, a diagonal only when both orthogonal cells
  beside it are free (no corner cutting, the MovingAI convention). Move
  length 1 or sqrt(2).
* ``HEADING``: states ``cell * nbins + bin`` of a heading-binned C-space; the
  GRID moves inside one bin, allowed by that bin's free mask alone (a
  one-cell axis translation sweeps exactly the cells covered at its two
  ends; a diagonal one no cell outside those and the two side cells'
  kernels, which the no-corner-cut rule already requires free), plus
  rotations in place to the neighbouring bins at cost ``rot_cost``.
* ``ANYANGLE``: GRID moves whose parent may be any earlier cell in line of
  sight (basic Theta*, Nash et al. 2007).

Costs: unit lengths, or with a non-empty ``cost`` array ``length * (cost[u]
+ cost[v]) / 2``. Heuristics (``hmode``): 0 none (Dijkstra), 1 Manhattan,
2 octile, 3 Euclidean.

The heap is one preallocated binary heap of ``(key, g, node)`` in three
arrays, sifted with a hole (no swaps); it is ordered on the key and, among
equal keys, larger ``g`` first (the deeper node). It grows by doubling in the
rare case a search outgrows its first allocation.
"""

from __future__ import annotations

import mmap

import numpy as np
from numba import njit

from .._compile.kernels import NO_CFUNC, noalloc
from ._engine import (WAVE_EDGES, WAVE_GRID, _astar4, _expand, _from_pad, _to_pad,
                      best_first, line_of_sight, offsets, wave)
from ._bins import bin_search
from ._heap import heap_grow, heap_pop, heap_push

__all__ = ["Padded", "shortest_path", "jump_point_path", "any_angle_path", "shortcut", "heading_path", "heading_path_packed",
           "distance_field",
           "path_lengths", "bfs_field", "bfs_path", "flood_edges", "heap_push", "heap_pop",
           "heap_grow", "best_first", "line_of_sight", "wave", "maze_field", "detected_maze_field"]


# ---------------------------------------------------------------- public core calls
@njit(cache=True, **NO_CFUNC)
def _chain(parent, last, cols):
    """Parent chain from the root (parent -1) to ``last``.

    With ``cols`` > 0 the states are cells of a padded grid of ``cols``
    columns and come back unpadded; with 0 they come back as they are.
    """
    n = 0
    cur = last
    while cur >= 0:
        n += 1
        cur = parent[cur]
    out = np.empty(n, np.int64)
    cur = last
    pc = cols + 2
    for i in range(n - 1, -1, -1):
        if cols > 0:
            r = cur // pc                   # unpadded (_from_pad written out)
            out[i] = (r - 1) * cols + (cur - r * pc) - 1
        else:
            out[i] = cur
        cur = parent[cur]
    return out


def _padded(mask, rows: int, cols: int) -> np.ndarray:
    """Flat uint8 mask(s) of ``rows*cols`` cells with a blocked one-cell border (read-only)."""
    m = np.asarray(mask).reshape(-1, rows, cols)
    # not np.pad: its Python set-up is ~0.1 ms a call, most of a small grid's
    # search (an exploring agent replans every few steps: 25 % of its run)
    out = np.zeros((m.shape[0], rows + 2, cols + 2), np.uint8)
    out[:, 1:-1, 1:-1] = m                # the cast np.pad's astype(uint8) made
    return _readonly(out.ravel())


def _readonly(a: np.ndarray) -> np.ndarray:
    """``a`` as a read-only array (a view if it was writable).

    The engine's masks are always passed read-only, so the kernels compile
    once for them whether they come from a grid's cache or a fresh pad.
    """
    if a.flags.writeable:
        a = a.view()
        a.setflags(write=False)
    return a


class Padded:
    """A mask padded already (flat uint8, blocked one-cell border) and its unpadded shape.

    Passed as ``free`` to the searches, it is walked as it is (no per-call pad).
    """

    __slots__ = ("mask", "rows", "cols")

    def __init__(self, mask: np.ndarray, rows: int, cols: int):
        self.mask, self.rows, self.cols = mask, rows, cols

    def padded_free(self) -> np.ndarray:
        return self.mask


def _free_padded(free):
    """``(padded mask, rows, cols)`` of a 2-D mask, or of an OccupancyGrid's free cells (cached)."""
    if hasattr(free, "padded_free"):
        return free.padded_free(), free.rows, free.cols
    rows, cols = free.shape
    return _padded(free, rows, cols), rows, cols


def _to_padded(idx, rows: int, cols: int):
    """Unpadded states ``layer * N + cell`` -> padded ones."""
    idx = np.asarray(idx, np.int64)
    b, cell = np.divmod(idx, rows * cols)
    r, c = np.divmod(cell, cols)
    return b * ((rows + 2) * (cols + 2)) + (r + 1) * (cols + 2) + c + 1


def _from_padded(idx, rows: int, cols: int):
    """Padded states -> unpadded ``layer * N + cell``."""
    b, cell = np.divmod(np.asarray(idx, np.int64), (rows + 2) * (cols + 2))
    r, c = np.divmod(cell, cols + 2)
    return b * (rows * cols) + (r - 1) * cols + c - 1


#: Passed as ``heading`` to select the HEADING rule (numba compiles it apart).
_HEADING = np.zeros(1, np.uint8)
#: ``cost`` of a unit-length search: an empty array, not None, so unit and
#: weighted searches share one compiled engine (see :func:`best_first`).
_NO_COST = np.empty(0)
#: ``sight_free`` of a search without line of sight: likewise an empty
#: read-only mask, so Theta* shares that engine too (its second
#: specialisation was ~1 s of a cold sweep's compile; benchmarks/README.md,
#: issue 40 round 9).
_NO_SIGHT = np.empty(0, np.uint8)
_NO_SIGHT.flags.writeable = False


def _index_dtype(nstates: int):
    """int32 state indices (parents, heap nodes) when they fit: half the memory traffic."""
    return np.int32 if nstates < 2**31 else np.int64


def _new_heap(nstates: int):
    cap = 1024 + nstates // 8
    return (np.empty(cap), np.empty(cap), np.empty(cap, _index_dtype(nstates)))


def _lazy_zeros(n: int, dtype) -> np.ndarray:
    """A zero array whose memory is faulted in 4 KiB at a time, as it is touched.

    numpy asks the kernel for 2 MiB huge pages on large arrays, so a search
    that touches a few states on most of them has all of them zeroed (490 MB
    of ``g`` instead of 153 MB for the 2001^2 x 16-bin benchmark); a plain
    anonymous mapping keeps the cost to what the search touches.
    """
    dt = np.dtype(dtype)
    if not hasattr(mmap, "MAP_PRIVATE"):          # Windows: no private anonymous maps
        return np.zeros(n, dt)
    # private: a shared anonymous map would be shmem-backed, slower to fault in
    buf = mmap.mmap(-1, max(n * dt.itemsize, 1), flags=mmap.MAP_PRIVATE)
    return np.frombuffer(buf, dt, count=n)


def _search(fp, cols, conn8, cost, hmode, starts, goal, *, heading=None, nbins=1,
            rot_cost=0.0, sight_free=None, goal_bin=-1, want_parent=True, want_g=False,
            landmarks=None):
    n = fp.shape[0]
    if heading is not None:
        n = n // ((nbins + 15) >> 4) * nbins          # uint16 bin words per cell -> states
    if heading is None:
        g = np.empty(n)
        parent = np.empty(n if want_parent else 0, _index_dtype(n))
        mark = np.zeros(n, np.uint8)
    else:
        # nbins states per cell, few of them touched: small pages; parents
        # recorded as uint8 moves
        g = _lazy_zeros(n, np.float64)
        parent = _lazy_zeros(n, np.uint8) if want_parent else np.empty(0, np.uint8)
        mark = _lazy_zeros(n, np.uint8)
    fp = _readonly(fp)
    # absent cost and parent: empty arrays of the types they have when present
    # absent line of sight: an empty mask of the type it has when present,
    # so Theta* and the other searches share one specialisation of _expand
    sight_free = _NO_SIGHT if sight_free is None else _readonly(sight_free)
    if cost is None:
        cost = _NO_COST
    reached, expanded, _ = best_first(fp, cols, conn8, cost, hmode, heading, nbins, rot_cost,
                                      sight_free, np.asarray(starts, np.int64), goal, goal_bin,
                                      g, parent, mark, _new_heap(n), landmarks)
    return reached, expanded, (np.where(mark > 0, g, np.inf) if want_g else None), parent


def shortest_path(free, start: int, goal: int, *, conn8: bool, cost=None, hmode: int = 0):
    """Flat cells of a shortest path ``start -> goal`` on a 2-D mask; empty if none.

    ``free``: a 2-D bool mask, or an OccupancyGrid for its free cells (the
    padded mask cached on the grid: no per-call pass over the grid);
    ``cost``: per-cell cost (same shape) or None for unit lengths;
    ``hmode``: 0 Dijkstra, 1 Manhattan A*, 2 octile A*. The 4-connected
    unit-cost A* (``hmode`` 1, no cost) uses the exact two-stack bucket
    queue (deepest node first on ties), everything else the heap (larger
    ``g`` first on ties). Returns ``(cells, expanded)``.

    Examples
    --------
    >>> free = np.array([[1, 1, 1], [0, 0, 1], [1, 1, 1]], bool)
    >>> cells, _ = shortest_path(free, 0, 6, conn8=True, hmode=2)
    >>> cells.tolist()          # no corner cutting around the blocked cells 3, 4
    [0, 1, 2, 5, 8, 7, 6]
    """
    fp, rows, cols = _free_padded(free)
    ps, pg = _to_padded([start, goal], rows, cols)
    if hmode == 1 and not conn8 and cost is None:
        return _astar4(fp, cols, ps, pg)
    if hmode == 0 and cost is None:
        return _unit_dijkstra(fp, cols, conn8, int(ps), int(pg))
    cp = None
    if cost is not None:
        cp = np.pad(np.asarray(cost, np.float64).reshape(rows, cols), 1,
                    constant_values=1.0).ravel()
    reached, expanded, _, parent = _search(fp, cols, conn8, cp, hmode, [ps], pg)
    if reached < 0:
        return np.empty(0, np.int64), expanded
    return _chain(parent, reached, cols), expanded


def _unit_dijkstra(fp, cols: int, conn8: bool, ps: int, pg: int):
    """Unit-cost Dijkstra (:mod:`robomaze._search._dijkstra`): the engine's order and paths."""
    from ._dijkstra import dijkstra_grid

    n = fp.shape[0]
    g = np.empty(n)
    parent = np.empty(n, _index_dtype(n))
    mark = np.zeros(n, np.uint8)
    cap = 1024 + n // 8
    reached, expanded = dijkstra_grid(_readonly(fp), cols, conn8, ps, pg, g, parent, mark,
                                      np.empty(cap), np.empty(cap, _index_dtype(n)))
    if reached < 0:
        return np.empty(0, np.int64), expanded
    return _chain(parent, reached, cols), expanded


def _unit_field(fp, cols: int, src: int) -> np.ndarray:
    """8-connected distances from padded ``src`` (inf where unreached): the bucket-ring field.

    :mod:`._octile`: no heap (every move is at least 1 long, so cells are
    settled a unit-wide bucket at a time); the same distances as the
    general Dijkstra loop up to the rounding of their sums.
    """
    from ._octile import octile_field

    return octile_field(_readonly(fp), cols, np.array([src], np.int64))


def jump_point_path(free, start: int, goal: int, *, tables: bool | None = None,
                    peel: bool | None = False, route: bool | None = False):
    """Flat cells of a shortest 8-connected path by jump point search; ``(cells, expanded)``.

    The same graph and the same length as ``shortest_path(..., conn8=True,
    hmode=2)`` (octile A*, no corner cutting), usually another of the
    equally short paths; ``expanded`` counts jump points, not cells
    (:mod:`robomaze._search._jps`). Empty cells if the goal is unreachable.

    ``tables``: JPS+ (:mod:`._jps_plus`, jumps precomputed per cell and
    direction; the same path and ``expanded``, each jump O(1)). None lets
    :mod:`._jps_tables` decide: a static grid (an OccupancyGrid, a
    read-only ``Padded`` mask) builds its tables at its 16th query and keeps
    them within ``ROBOMAZE_JPS_TABLES_MB``; True forces them, False plain JPS.
    JPS+ returns plain JPS's cells and ``expanded``, so a query's answer
    never depends on how many queries the grid had before.
    ``peel``: dead-end subtrees peeled once per grid (:mod:`._jps_peel`), a
    query with an end in one walks the tree and searches only between the
    core cells. ``route``: JPS+ confined to the stacks of the query's route
    where the grid's stacks form a tree (:mod:`._jps_stacks`; True needs
    ``tables=True``). Both give the same length but may give another path
    of that length and count ``expanded`` differently, so they are opt-in
    (False by default, as the planners call it): True forces one, None lets
    the policy keep it from the grid's 16th query on (for callers that read
    lengths only, such as benchmark batches).

    >>> free = np.array([[1, 1, 1], [0, 0, 1], [1, 1, 1]], bool)
    >>> jump_point_path(free, 0, 6)[0].tolist()
    [0, 1, 2, 5, 8, 7, 6]
    >>> jump_point_path(free, 0, 6, tables=True)[0].tolist()
    [0, 1, 2, 5, 8, 7, 6]
    """
    from ._jps_tables import prepared_for

    fp, rows, cols = _free_padded(free)
    ps, pg = (int(v) for v in _to_padded([start, goal], rows, cols))
    if tables is not None:
        peel = False if peel is None else peel
        route = False if route is None else route
    table, pt, rt = prepared_for(fp, rows, cols, tables, peel, route)
    if pt is not None or rt is not None:
        from ._jps_stacks import routed_query

        return routed_query(fp, table, rt, pt, cols, ps, pg, _jps_query)
    return _jps_query(fp, table, cols, ps, pg)


def _jps_query(fp, table, cols: int, ps: int, pg: int, route=(None, None, 0)):
    """One JPS (``table`` None) or JPS+ search between padded cells: ``(cells, expanded)``.

    ``route``: JPS+'s restriction to stacks, ``(lab, allowed, q)`` (:mod:`._jps_stacks`).
    """
    from ._jps import jps, jump_cells
    from ._jps_scratch import give, huge_zeros, take

    n = fp.shape[0]
    # scratch kept between queries (marks carry a per-query base: no clearing)
    s = take(n, _index_dtype(n), huge_zeros)
    try:
        if table is None:
            reached, expanded, *heap = jps(_readonly(fp), cols, ps, pg, s.g, s.parent, s.mark,
                                           s.next_base(), *s.heap)
        else:
            from ._jps_plus import jps_plus

            reached, expanded, *heap = jps_plus(table, cols, ps, pg, s.g, s.parent, s.mark,
                                                s.next_base(), *s.heap, *route)
        s.heap = tuple(heap)
        cells = (jump_cells(s.parent, pg, cols) if reached >= 0
                 else np.empty(0, np.int64))
    finally:
        give(s)
    return cells, expanded


def any_angle_path(free, start: int, goal: int, *, conn8: bool):
    """Theta* (Euclidean heuristic) on a 2-D mask: ``(cells, expanded)``, cells empty if none."""
    rows, cols = free.shape
    fp = _padded(free, rows, cols)
    ps, pg = _to_padded([start, goal], rows, cols)
    reached, expanded, _, parent = _search(fp, cols, conn8, None, 3, [ps], pg, sight_free=fp)
    if reached < 0:
        return np.empty(0, np.int64), expanded
    return _chain(parent, reached, cols), expanded


def shortcut(free, cells) -> np.ndarray:
    """Greedy string pulling on a 2-D mask: indices of the kept vertices of a flat cell path."""
    rows, cols = free.shape
    return _shortcut(_padded(free, rows, cols), cols, _to_padded(cells, rows, cols))


@njit(cache=True)
def _shortcut(fp, cols, pcells):
    pc = cols + 2
    n = pcells.shape[0]
    keep = np.empty(n, np.int64)
    m = 0
    i = 0
    keep[m] = 0
    m += 1
    while i < n - 1:
        j = i + 1
        while j + 1 < n and line_of_sight(fp, pc, pcells[i], pcells[j + 1]):
            j += 1
        keep[m] = j
        m += 1
        i = j
    return keep[:m]


def heading_path(free_b, starts, goal: int, goal_bin: int, *, conn8: bool, rot_cost: float):
    """Shortest (cell, heading bin) path: ``(states, expanded)``, states empty if none.

    ``free_b``: ``(nbins, rows, cols)`` free masks, conservative over each
    bin's interval (:func:`robomaze.geometry.cspace`); a translation is
    allowed where its end cells (diagonally also the two cells beside it)
    are free in the bin, rotations where both bins are free. States are
    ``bin * N + cell``. The heuristic is the exact distance to
    the goal in the plain grid graph of the cells free at some heading
    (every move of the state search is one of its moves, so it is
    consistent), never below the octile distance.
    """
    nbins, rows, cols = free_b.shape
    blocked = np.packbits(~np.asarray(free_b, bool), axis=2, bitorder="little")
    pad = (-blocked.shape[2]) % 8
    words = np.pad(blocked, ((0, 0), (0, 0), (0, pad))).view("<u8").astype(np.uint64)
    return heading_path_packed(words, cols, starts, goal, goal_bin, conn8=conn8,
                               rot_cost=rot_cost)


def heading_path_packed(blocked, cols: int, starts, goal: int, goal_bin: int, *, conn8: bool,
                        rot_cost: float):
    """:func:`heading_path` with the masks packed as *blocked* bits.

    ``blocked``: ``(nbins, rows, ceil(cols / 64))`` uint64, bit ``c % 64``
    of word ``c // 64`` set where cell ``c`` of the row is blocked in the
    bin (:func:`robomaze.geometry.cspace_bits`): unpacked straight into the
    search's cell-major layout. Up to 64 bins the search is
    :func:`~robomaze._search._bins.bin_search` (a cell's bins relaxed
    together), above that the state search of :func:`best_first`; both
    return a path of the same, optimal cost.
    """
    nbins, rows = blocked.shape[:2]
    fp, hfree = _unpack_cell_major(blocked, rows, cols)
    pgoal = int(_to_padded(goal, rows, cols))
    b, cell = np.divmod(np.asarray(starts, np.int64), rows * cols)
    pstarts = _to_padded(cell, rows, cols) * nbins + b
    if nbins > 64:
        return _heading_states(fp, hfree, rows, cols, nbins, pstarts, pgoal, goal_bin, conn8,
                               rot_cost)
    h = _bin_heuristic(hfree, rows, cols, goal, conn8)
    return _bin_path(fp, hfree, h, rows, cols, nbins, pstarts, pgoal, goal_bin, conn8, rot_cost)


def _bin_heuristic(hfree, rows: int, cols: int, goal: int, conn8: bool):
    """The bin search's heuristic: distances to unpadded ``goal`` over ``hfree``
    (uint8 per cell, nonzero where some bin is free), per padded cell.

    A function of its own (and :func:`_bin_path` the search) so that a
    command's first run compiles the two on two cores (``robomaze.cli._stages``).
    """
    if conn8:
        pgoal = int(_to_padded(goal, rows, cols))
        _, _, h, _ = _search(_padded(hfree.reshape(rows, cols), rows, cols), cols, True, None,
                             0, [pgoal], -1, want_parent=False, want_g=True)
        return h
    # unit moves: the wave's padded step counts are the exact distances (-1 out of reach)
    return _bfs_field(_readonly(hfree), rows, cols, goal, False, False)[0]


def _bin_path(fp, hfree, h, rows: int, cols: int, nbins: int, pstarts, pgoal: int,
              goal_bin: int, conn8: bool, rot_cost: float):
    """:func:`heading_path_packed`'s search over the unpacked masks with heuristic ``h``
    (:func:`_bin_heuristic`'s, or any consistent one of its type): ``(states, expanded)``."""
    npc = fp.shape[0] // ((nbins + 15) >> 4)
    cap = int(np.count_nonzero(hfree)) + 1       # one slot per cell free at some bin, + 1
    pool = (np.empty(cap * nbins), np.empty(cap * nbins, np.uint8), np.empty(cap, np.uint64),
            np.empty(cap, np.uint64), np.empty(cap))
    slot = _lazy_zeros(npc, np.int32)
    states, expanded = bin_search(_readonly(fp), cols, nbins, conn8, float(rot_cost),
                                  pstarts, pgoal, goal_bin, h, slot, pool, _new_heap(npc))
    if states.shape[0] == 0:
        return states, expanded
    cell, b = np.divmod(states, nbins)
    return b * (rows * cols) + _from_padded(cell, rows, cols), expanded


def _heading_states(fp, hfree, rows, cols, nbins, pstarts, pgoal, goal_bin, conn8, rot_cost):
    """:func:`heading_path_packed` for more than 64 bins: one queue entry per state."""
    goal = int(_from_padded(pgoal, rows, cols))
    if conn8:
        _, _, h2d, _ = _search(_padded(hfree.reshape(rows, cols), rows, cols), cols, True, None,
                               0, [pgoal], -1, want_parent=False, want_g=True)
    else:
        d, _ = bfs_field(hfree, rows, cols, goal, False)
        h2d = _steps_to_dist(d)
    reached, expanded, _, parent = _search(
        fp, cols, conn8, None, 2, pstarts, pgoal, heading=_HEADING, nbins=nbins,
        rot_cost=float(rot_cost), goal_bin=goal_bin, landmarks=h2d.reshape(-1, 1))
    if reached < 0:
        return np.empty(0, np.int64), expanded
    cell, b = np.divmod(_chain_moves(parent, reached, nbins, offsets(cols), conn8), nbins)
    return b * (rows * cols) + _from_padded(cell, rows, cols), expanded


@njit(cache=True)
def _steps_to_dist(d):
    """Step counts (-1 unreachable) -> padded float distances (inf unreachable and border)."""
    rows, cols = d.shape
    out = np.full((rows + 2) * (cols + 2), np.inf)
    for r in range(rows):
        o = (r + 1) * (cols + 2) + 1
        for c in range(cols):
            if d[r, c] >= 0:
                out[o + c] = d[r, c]
    return out


def _unpack_cell_major(blocked, rows: int, cols: int):
    """Packed blocked bits -> per padded cell the free bins as uint16 words, and the any-bin mask.

    ``(fm, hfree)``, filled by :func:`_unpack_into`; allocated here, since
    ``np.empty`` in the kernel compiled numba's for two dtypes nothing else
    in a ``collision_free`` run allocates.
    """
    nbins = blocked.shape[0]
    fm = np.empty((rows + 2) * (cols + 2) * ((nbins + 15) >> 4), np.uint16)
    hfree = np.empty(rows * cols, np.uint8)
    _unpack_into(blocked, rows, cols, fm, hfree, np.empty(nbins, np.uint64))
    return fm, hfree


@noalloc   # allocates nothing (kernel style 3)
def _unpack_into(blocked, rows, cols, fm, hfree, free):
    """:func:`_unpack_cell_major`'s kernel.

    Writes ``fm`` (``(rows + 2) * (cols + 2) * ceil(nbins / 16)`` uint16)
    and ``hfree`` (``rows * cols`` uint8, nonzero where some bin is free);
    ``free``: ``nbins`` uint64 of scratch.

    Word ``k`` of a cell holds bins ``16k .. 16k + 15`` (bit set = free);
    the border cells are all blocked. 16 bins take 2 bytes a cell where a
    byte per state took 16. Eight bins by eight cells at a time: their
    bytes gathered into one uint64 and bit-transposed, so a byte comes out
    per cell (one word operation per 64 bin-cells instead of one per bit).
    """
    nbins = blocked.shape[0]
    nw = (nbins + 15) >> 4
    pc = cols + 2
    ff = np.uint64(0xFF)
    # every word written once (no zero-filled allocation written again)
    fm[:(pc + 1) * nw] = 0
    fm[((rows + 1) * pc - 1) * nw:] = 0
    for r in range(rows):
        o = ((r + 1) * pc + 1) * nw
        for w in range(blocked.shape[2]):
            for b in range(nbins):
                free[b] = ~blocked[b, r, w]     # the 64-cell word of each bin, free bits set
            c0 = w * 64
            for p in range(8):                  # cells c0 + 8p .. c0 + 8p + 7
                if c0 + 8 * p >= cols:
                    break
                sh = np.uint64(8 * p)
                ncell = 8 if cols - c0 - 8 * p > 8 else cols - c0 - 8 * p
                anyf = np.uint64(0)
                for h in range(2 * nw):
                    # byte j: bins 8h .. 8h + 7 of cell 8p + j, the low (h even) or
                    # high byte of the cell's word h // 2 (one inlined gather and
                    # transpose, not two: less to compile)
                    # _gather8, then _transpose8, written out (an inlined
                    # helper is typed again at its site: issue 40 round 12)
                    b0 = 8 * h
                    x = np.uint64(0)
                    for i in range(8 if nbins - b0 > 8 else nbins - b0):
                        x |= ((free[b0 + i] >> sh) & ff) << np.uint64(8 * i)
                    t = (x ^ (x >> np.uint64(7))) & np.uint64(0x00AA00AA00AA00AA)
                    x = x ^ t ^ (t << np.uint64(7))
                    t = (x ^ (x >> np.uint64(14))) & np.uint64(0x0000CCCC0000CCCC)
                    x = x ^ t ^ (t << np.uint64(14))
                    t = (x ^ (x >> np.uint64(28))) & np.uint64(0x00000000F0F0F0F0)
                    x = x ^ t ^ (t << np.uint64(28))
                    anyf |= x
                    hs = np.uint64(8 * (h & 1))
                    k = h >> 1
                    for j in range(ncell):
                        i = o + (c0 + 8 * p + j) * nw + k
                        bj = np.uint16(((x >> np.uint64(8 * j)) & ff) << hs)
                        if h & 1:
                            fm[i] |= bj
                        else:
                            fm[i] = bj
                for j in range(ncell):
                    hfree[r * cols + c0 + 8 * p + j] = np.uint8(
                        ((anyf >> np.uint64(8 * j)) & ff) != 0)
        fm[o + cols * nw:o + (cols + 2) * nw] = 0      # east border, west of the next row


@njit(cache=True)
def _chain_moves(moves, last, nbins, off, conn8):
    """States from a start (move 255) to ``last``, undoing the recorded moves
    (``off``: :func:`~robomaze._search._engine.offsets`)."""
    nk = 8 if conn8 else 4
    n = 1
    s = last
    while moves[s] != 255:
        s = _undo(s, moves[s], nbins, nk, off)
        n += 1
    out = np.empty(n, np.int64)
    s = last
    for i in range(n - 1, -1, -1):
        out[i] = s
        if i:
            s = _undo(s, moves[s], nbins, nk, off)
    return out


@njit(cache=True, inline="always")
def _undo(s, k, nbins, nk, off):
    cell = s // nbins
    b = s - cell * nbins
    if k < nk:
        return (cell - off[k]) * nbins + b
    if k == nk:                                   # came from the previous bin
        return cell * nbins + (b + nbins - 1) % nbins
    return cell * nbins + (b + 1) % nbins


def distance_field(free, sources, *, conn8: bool = True) -> np.ndarray:
    """Dijkstra distances (cells) from flat ``sources`` over a 2-D mask.

    8-connected (no corner cutting) or 4-connected; unreachable and blocked
    cells get ``inf``; blocked sources are ignored.

    >>> distance_field(np.ones((2, 3), bool), [0]).round(3)
    array([[0.   , 1.   , 2.   ],
           [1.   , 1.414, 2.414]])
    """
    rows, cols = free.shape
    if conn8:
        # unit octile moves: the bucket ring (no heap), :mod:`._octile`
        from ._octile_field import octile_distance_field

        return octile_distance_field(free, sources)
    fp = _padded(free, rows, cols)
    src = _to_padded(sources, rows, cols)
    src = src[fp[src] != 0]
    _, _, g, _ = _search(fp, cols, conn8, None, 0, src, -1, want_parent=False, want_g=True)
    return g.reshape(rows + 2, cols + 2)[1:-1, 1:-1].copy()


def path_lengths(free, starts, goals, *, landmarks: int = 4) -> np.ndarray:
    """Shortest 8-connected lengths (cells; no corner cutting) of many pairs on a 2-D mask.

    The map is prepared once (:func:`robomaze._search._batch.prepare`), by
    the first route that fits it. When the free graph is a forest (a
    perfect maze of corridor 1, such as MovingAI's ``maze512-1-*``): each
    length is a tree distance, depths and the lowest common ancestor
    (:mod:`robomaze._search._tree`), O(log n) a pair after one O(n log n)
    pass. When the free space is a tree of rectangles (a widened perfect
    maze of any corridor and wall width, such as ``maze512-W-*``, found
    from the grid alone): a min-plus sweep along the tree path
    (:mod:`robomaze._search._stacks`). Otherwise A* whose heuristic is the
    larger of the octile distance and the ALT bound of ``landmarks`` exact
    distance fields (landmarks picked farthest first in the component most
    starts lie in; one field each, paid once for the batch, and only for
    more than ``4 * landmarks`` pairs); pairs in two components are NaN
    without a search (:mod:`robomaze._search._altbatch`). NaN where the
    goal is unreachable or an endpoint blocked.

    >>> free = np.array([[1, 1, 1], [0, 0, 1], [1, 1, 1]], bool)   # a tree
    >>> path_lengths(free, [0, 0, 3], [6, 2, 6]).tolist()
    [6.0, 2.0, nan]
    >>> path_lengths(np.ones((3, 3), bool), [0], [8]).round(6).tolist()   # one rectangle
    [2.828427]
    >>> ring = np.ones((3, 3), bool); ring[1, 1] = False               # a loop: A*
    >>> path_lengths(ring, [0], [8]).tolist()
    [4.0]
    """
    from ._batch import prepare

    batch = prepare(free, starts=starts, landmarks=landmarks, nqueries=len(starts))
    return batch.lengths(starts, goals)


def maze_field(grid, goal):
    """The 4-connected field of a widened maze in closed form, or None when it does not apply.

    ``(dist, reached, kind)`` equal to :func:`bfs_field`'s labels; see
    :func:`robomaze._search._blockwave.maze_field` (imported on first use:
    its kernels compile only for the grids that take it).
    """
    from ._blockwave import maze_field as closed_form

    return closed_form(grid, goal)


def detected_maze_field(occupied, goal, *, min_cells: int = 0, min_cells_pitch2: int = 0):
    """:func:`maze_field` for a bool occupancy with no widening metadata, or None.

    The maze is read from the grid itself (:func:`._detect.detect_maze`);
    None when the grid is not a widened maze, is smaller than ``min_cells``
    (``min_cells_pitch2`` at corridor + wall <= 2), or the closed form does
    not apply -- the caller runs the BFS then.

    >>> from robomaze.grid import widen
    >>> from robomaze.generate import generate
    >>> g = widen(generate("backtracker", 6, 6, rng=2), corridor=3, wall=1)
    >>> d, n, kind = detected_maze_field(g.occupied, g.start_goal()[1])
    >>> bool((d == bfs_field(g.occupied.view(np.uint8).ravel(), g.rows, g.cols,
    ...                      g.start_goal()[1][0] * g.cols + g.start_goal()[1][1], False,
    ...                      occupied=True)[0]).all()), kind
    (True, 'tree')
    """
    from ._detect import detect_maze
    from ._thinmaze import pitch2, thin_maze_field

    occupied = np.asarray(occupied)
    if occupied.size < min_cells:
        return None
    if pitch2(occupied):
        # corridor = wall = 1: the walk over the maze's cells, read off the
        # occupancy (no walls to detect first: :mod:`._thinmaze`)
        got = thin_maze_field(occupied, goal) if occupied.size >= min_cells_pitch2 else None
        return None if got is None else (got[0], got[1], "tree")
    # pitch 2 only from min_cells_pitch2: below it not even its walls are read
    st = detect_maze(occupied, min_pitch=3 if occupied.size < min_cells_pitch2 else 0)
    if st is None:
        return None
    from ._blockwave import structure_field

    return structure_field(occupied, st, goal)


def bfs_field(free, rows: int, cols: int, goal: int, conn8: bool, *, occupied: bool = False):
    """Wave step counts from flat cell ``goal`` over a flat uint8 mask: ``(dist, expanded)``.

    ``free``: nonzero on free cells, or with ``occupied`` nonzero on blocked
    ones (an OccupancyGrid's ``occupied.view(np.uint8).ravel()``, no copy).
    ``dist`` is ``(rows, cols)`` int32, -1 where unreachable or blocked: a
    view into the padded label array, filled from the mask in one pass
    (free cells -2, blocked cells and the border -1, so the wave needs no
    bounds check and one load per neighbour); free cells the wave missed
    are rewritten -1 only when there are any (none on a perfect maze).

    4-connected waves over grids where fewer than half the free cells have
    four free neighbours (a sample of 4096 cells decides) run a branch-free
    loop instead of the engine's :func:`wave`: the neighbour tests of such
    grids are unpredictable (1.06-1.5x on random obstacles, 1.5-2.5x on
    MovingAI maze512, about 1.1x on braided corridor-1 mazes; open grids and
    rooms, 0.5-0.8x with it, keep the branches, which predict well there:
    ``benchmarks/bfs_branchless.py``).

    4-connected waves over grids of more than 4096 cells choose their
    method from the grid (:mod:`robomaze._search._field4`): open grids and
    rooms run no queue at all (row sweeps, :mod:`robomaze._search._sweep`),
    a small goal component is found by a hash-table probe without labelling
    the grid (both return a plain ``(rows, cols)`` array), a component that
    is a tree (corridor-1 mazes) is labelled by a depth-first walk, and
    everything else by a BFS over a bit mask with a write-only field
    (:mod:`robomaze._search._bitwave`; a view of a padded array). All give
    the textbook BFS's field.

    >>> m = np.array([[1, 1, 0], [0, 1, 1]], np.uint8).ravel()
    >>> bfs_field(m, 2, 3, 0, False)[0].tolist()
    [[0, 1, -1], [-1, 2, 3]]
    """
    mask = _readonly(np.ascontiguousarray(free).reshape(-1))
    if not conn8 and rows * cols > 4096:
        # row sweeps, a small-component probe, a tree walk or the bit-mask
        # wave, chosen from the grid (:mod:`._field4`)
        from ._field4 import field4

        dist, reached, _ = field4(mask, rows, cols, int(goal), bool(occupied))
        return dist, reached
    dist, expanded = _bfs_field(_readonly(np.ascontiguousarray(free).reshape(-1)), rows, cols,
                                goal, conn8, bool(occupied))
    return dist.reshape(rows + 2, cols + 2)[1:-1, 1:-1], expanded


def _bfs_field(mask, rows, cols, goal, conn8, occupied):
    """:func:`bfs_field`'s padded labels and count: ``(dist, expanded)``.

    :func:`_labelled_field` labels the grid and runs the branch-free wave
    when it is the one to take; the engine's :func:`wave` is called from
    here. As one kernel calling both waves, this compiled the engine's wave
    into every first run that needed a field (0.3 s, and 0.3 s more for the
    kernel linking it), where a corridor grid takes the branch-free wave
    alone; the price is one more dispatch (about 2 us) on the other grids.
    """
    # the label array and the queue come from numpy, not from inside the
    # kernel: numpy advises huge pages on large arrays, numba's allocator
    # does not, and first-touch faults of 4 KiB pages were most of a large
    # field's time (random 45% at 4001^2: labelling 57 ms, 16M faults)
    dist = np.empty((rows + 2) * (cols + 2), np.int32)
    # the queue is written once, in order, and mostly not at all on a small
    # component: plain 4 KiB pages (_lazy_zeros), not numpy's huge-page
    # advice, whose faults compact memory in the faulting call on a busy
    # machine (random 10% at 4001^2, load 44: 0.62x -> see benchmarks/README.md);
    # a small one from numpy (an mmap per call costs more than it saves there)
    n = rows * cols + 8
    queue = _lazy_zeros(n, np.int32) if n >= 1 << 22 else np.empty(n, np.int32)
    nfree, expanded = _labelled_field(mask, rows, cols, goal, conn8, occupied, dist, queue)
    if expanded < 0:
        src = np.full(1, _to_pad_py(goal, cols), np.int32)
        expanded = wave(WAVE_GRID, _NO_FREE, _NO_KNOW, cols, bool(conn8), src, -1, False, dist,
                        queue, _NO_PARENT)
        if expanded < nfree:
            inner = dist[cols + 2:dist.shape[0] - cols - 2]
            inner[inner == -2] = -1
    return dist, expanded


def _to_pad_py(i, cols: int) -> int:
    """:func:`~robomaze._search._engine._to_pad` in Python (calling the kernel would compile it)."""
    r = int(i) // cols
    return (r + 1) * (cols + 2) + int(i) - r * cols + 1


#: the empty arrays of the wave's unused arguments (never written)
_NO_FREE = np.empty(0, np.uint8)
_NO_KNOW = np.empty((0, 4), np.int8)
_NO_PARENT = np.empty(0, np.int32)


@noalloc   # allocates nothing (kernel style 3)
def _labelled_field(mask, rows, cols, goal, conn8, occupied, dist, queue):
    """:func:`_labels` into ``dist``, then the 4-connected wave: ``(nfree, expanded)``,
    ``expanded`` -1 when the engine's wave is still to run (8-connected).

    ``queue``: int32, at least ``rows * cols + 8`` long.

    The labels (:func:`_labels_into`), the grid's sample (:func:`_shares`),
    the two waves (level by level with branches, :func:`_wave4_branchless_q`)
    and the unreached cells' reset are written out here: as kernels of their
    own each was compiled, then linked into this one and optimised again
    (0.3 s more on a cold start), and inlined (``inline="always"``) numba
    typed each again at its site (~0.1 s apiece, issue 40 round 12). The
    helpers that tests call alone stay beside it.
    """
    pc = cols + 2
    npd = (rows + 2) * pc
    # _labels_into: free -2, blocked and the border -1
    for k in range(pc):
        dist[k] = -1
        dist[npd - pc + k] = -1
    nfree = 0
    for r in range(rows):
        o = r * cols
        dst = (r + 1) * pc + 1
        dist[dst - 1] = -1
        dist[dst + cols] = -1
        m = mask[o:o + cols]
        d = dist[dst:dst + cols]
        for c in range(cols):
            f = np.int32((m[c] != 0) != occupied)
            d[c] = -1 - f
            nfree += f
    if conn8:
        return nfree, -1
    # _shares: open grids and rooms, or long straight corridors (spirals):
    # the branches predict; maze corridors turn too often (0.6-0.8 straight)
    n = rows * cols
    nf = 0
    inner = 0
    line = 0
    small = n <= 4096
    for j in range(1 if small else 64):
        i0 = 0 if small else (j * 2654435761) % n
        for k in range(n if small else 64):
            i = (i0 + k) % n
            q = (i // cols + 1) * pc + i % cols + 1
            if dist[q] == -2:
                nf += 1
                we = (dist[q - 1] == -2) & (dist[q + 1] == -2)
                ns = (dist[q - pc] == -2) & (dist[q + pc] == -2)
                inner += we & ns
                line += we != ns
    nf = nf if nf > 1 else 1
    rg = goal // cols                       # padded goal (_to_pad written out)
    src = (rg + 1) * pc + (goal - rg * cols) + 1
    # unsigned indices: numba wraps negative indices (a compare and a
    # select per load) unless it can see they are not negative
    upc = np.uint64(pc)
    one = np.uint64(1)
    expanded = 0
    if dist[src] == -2:
        dist[src] = 0
        queue[0] = src
        head = 0
        tail = 1
        if inner / nf >= 0.5 or (inner + line) / nf >= 0.9:
            # _wave4_levels_q: level by level, the neighbour test a branch
            lv = np.int32(0)
            while head < tail:
                end = tail
                lv += 1
                while head < end:
                    cur = np.uint64(queue[head])
                    head += 1
                    nb = cur - upc
                    if dist[nb] == -2:
                        dist[nb] = lv
                        queue[tail] = nb
                        tail += 1
                    nb = cur + one
                    if dist[nb] == -2:
                        dist[nb] = lv
                        queue[tail] = nb
                        tail += 1
                    nb = cur + upc
                    if dist[nb] == -2:
                        dist[nb] = lv
                        queue[tail] = nb
                        tail += 1
                    nb = cur - one
                    if dist[nb] == -2:
                        dist[nb] = lv
                        queue[tail] = nb
                        tail += 1
        else:
            # _wave4_branchless_q: every neighbour written back, the tail
            # moved by the test's 0/1
            while head < tail:
                cur = np.uint64(queue[head])
                head += 1
                dn = dist[cur] + 1
                for nb in (cur - upc, cur + one, cur + upc, cur - one):
                    old = dist[nb]
                    ok = old == -2
                    dist[nb] = dn if ok else old
                    queue[tail] = nb
                    tail += ok
        expanded = tail
    if expanded < nfree:
        if expanded * 8 < npd:
            # a small component: keep its labels, refill the rest with -1
            # (a plain fill runs 2-3x faster than the read-compare-write);
            # the labels wait in the queue past its cells (2 * expanded <
            # npd / 4 <= rows * cols + 8: they fit)
            for k in range(expanded):
                queue[expanded + k] = dist[queue[k]]
            for k in range(npd):      # loops, not slice stores (kernel style, rule 4)
                dist[k] = -1
            for k in range(expanded):
                dist[queue[k]] = queue[expanded + k]
        else:
            # _unmark: -2 (free, not reached) -> -1, branch-free; a zero-based
            # loop over a slice (an offset index kept a wrap-around check)
            d = dist[pc:npd - pc]
            for i in range(d.shape[0]):
                v = d[i]
                d[i] = np.int32(-1) if v == -2 else v
    return nfree, expanded


@njit(cache=True, inline="always")
def _labels(mask, rows, cols, occupied):
    """Padded int32 labels from a flat mask, free -2, blocked and border -1: ``(dist, nfree)``."""
    dist = np.empty((rows + 2) * (cols + 2), np.int32)
    return dist, _labels_into(mask, rows, cols, occupied, dist)


@njit(cache=True, inline="always")
def _labels_into(mask, rows, cols, occupied, dist):
    """:func:`_labels` written into ``dist`` (``(rows + 2) * (cols + 2)`` int32): ``nfree``."""
    pc = cols + 2
    npd = (rows + 2) * pc
    for k in range(pc):
        dist[k] = -1
        dist[npd - pc + k] = -1
    nfree = 0
    for r in range(rows):
        src = r * cols
        dst = (r + 1) * pc + 1
        dist[dst - 1] = -1
        dist[dst + cols] = -1
        m = mask[src:src + cols]
        d = dist[dst:dst + cols]
        for c in range(cols):
            f = np.int32((m[c] != 0) != occupied)
            d[c] = -1 - f
            nfree += f
    return nfree


@njit(cache=True, inline="always")
def _open_share(dist, rows, cols, straight=False):
    """Share of 4096 sampled free cells (padded labels, -2 = free) with four free neighbours.

    With ``straight``, cells inside a straight corridor (exactly one of the
    opposite pairs W-E and N-S free) count too: the wave's neighbour tests
    are as predictable there.

    The sample is 64 runs of 64 consecutive cells, the runs' starts a fixed
    multiplicative sequence over the cells, so the same grid always gives
    the same answer and periodic grids do not alias; runs rather than 4096
    scattered cells, because each scattered sample missed the cache three
    times (the sampling was most of a small component's field: random 45%
    obstacles at 1001^2). A grid of at most 4096 cells is read once each
    (the exact share).
    """
    sh = _shares(dist, rows, cols)
    return sh[1] if straight else sh[0]


@njit(cache=True, inline="always")
def _shares(dist, rows, cols):
    """:func:`_open_share` without and with ``straight``, from one sample: ``(open, open_or_straight)``."""
    pc = cols + 2
    n = rows * cols
    free = 0
    inner = 0
    line = 0
    small = n <= 4096
    for j in range(1 if small else 64):
        i0 = 0 if small else (j * 2654435761) % n
        for k in range(n if small else 64):
            i = (i0 + k) % n
            q = (i // cols + 1) * pc + i % cols + 1
            if dist[q] == -2:
                free += 1
                we = (dist[q - 1] == -2) & (dist[q + 1] == -2)
                ns = (dist[q - pc] == -2) & (dist[q + pc] == -2)
                inner += we & ns
                line += we != ns
    free = free if free > 1 else 1
    return inner / free, (inner + line) / free


@njit(cache=True, inline="always")
def _wave4_branchless(dist, cols, source, nfree):
    """4-connected FIFO wave from padded ``source`` with no branch on the grid.

    Every neighbour is written back (the new label if it read -2, its own
    value otherwise) and appended to the queue; the tail moves by the test's
    0/1. Labels and order are those of :func:`wave` (N, E, S, W). Returns
    the number of cells labelled.
    """
    return _wave4_branchless_q(dist, cols, source, np.empty(nfree + 4, np.int32))


@njit(cache=True, inline="always")
def _wave4_branchless_q(dist, cols, source, queue):
    """:func:`_wave4_branchless` with its queue given (int32, free cells + 4 long)."""
    pc = np.uint64(cols + 2)
    one = np.uint64(1)
    if dist[source] != -2:
        return 0
    dist[source] = 0
    queue[0] = source
    head = 0
    tail = 1
    while head < tail:
        cur = np.uint64(queue[head])
        head += 1
        d = dist[cur] + 1
        for nb in (cur - pc, cur + one, cur + pc, cur - one):
            old = dist[nb]
            ok = old == -2
            dist[nb] = d if ok else old
            queue[tail] = nb
            tail += ok
    return tail


@njit(cache=True, **NO_CFUNC)
def bfs_path(free, rows, cols, s, g):
    """Shortest 4-connected route ``s -> g`` over free cells, first-found parents (N, E, S, W).

    Flat unpadded cells; empty if none. ``free``: flat, nonzero on free
    cells. A FIFO wave of its own with parents, stopping at ``g``: the
    classic solvers' one search, on small grids, where a call from Python
    to :func:`bfs_field`'s kernel and a read-back cost them 10-30 us more
    (+5-10% of a solve); as a kernel calling the engine's :func:`wave` it
    compiled that too (1.3 s of a cold start, against about 0.5 s).

    >>> m = np.array([[1, 1, 1], [1, 0, 1], [1, 1, 1]], np.uint8).ravel()
    >>> bfs_path(m, 3, 3, 0, 8).tolist()     # N, E, S, W: east first from 0
    [0, 1, 2, 5, 8]
    >>> bfs_path(m, 3, 3, 0, 4).tolist()     # the blocked centre
    []
    """
    pc = cols + 2
    npd = (rows + 2) * pc
    # padded labels: -1 blocked and border, -2 free and not reached
    dist = np.empty(npd, np.int32)
    for k in range(pc):        # loops, not slice stores (kernel style, rule 4)
        dist[k] = -1
        dist[npd - pc + k] = -1
    dist[pc] = -1
    for r in range(rows):
        o = (r + 1) * pc + 1
        for c in range(cols):
            dist[o + c] = np.int32(-1) - (free[r * cols + c] != 0)
        dist[o + cols] = -1
        dist[o + cols + 1] = -1
    parent = np.empty(npd, np.int32)       # read only where a cell was labelled
    queue = np.empty(rows * cols + 1, np.int32)
    # padded ends (_to_pad written out: each inlined call is a compile of its own)
    rs = s // cols
    ps = (rs + 1) * pc + (s - rs * cols) + 1
    rg = g // cols
    pg = (rg + 1) * pc + (g - rg * cols) + 1
    head = 0
    tail = 0
    if dist[ps] == -2:
        dist[ps] = 0
        parent[ps] = ps
        queue[0] = ps
        tail = 1
    while head < tail:
        cur = queue[head]
        head += 1
        if cur == pg:
            break
        d = dist[cur] + 1
        for k in range(4):
            nb = cur + (-pc if k == 0 else (1 if k == 1 else (pc if k == 2 else -1)))
            if dist[nb] == -2:
                dist[nb] = d
                parent[nb] = cur
                queue[tail] = nb
                tail += 1
    if dist[pg] < 0:
        return np.empty(0, np.int64)
    m = dist[pg] + 1
    out = np.empty(m, np.int64)
    v = pg
    for i in range(m - 1, -1, -1):
        r = v // pc
        out[i] = (r - 1) * cols + (v - r * pc) - 1
        v = parent[v]
    return out


@njit(cache=True)
def flood_edges(know, rows, cols, sources, unknown_open):
    """Moves from every cell to the nearest source over a wall map (-1 unreachable).

    ``know``: ``(rows*cols, 4)`` int8 sides N, E, S, W (0 unknown, 1 open,
    2 wall); an edge is passable when open, or unknown and ``unknown_open``.
    """
    n = rows * cols
    dist = np.full(n, -1, np.int32)
    wave(WAVE_EDGES, np.empty(0, np.uint8), know, cols, False, sources.astype(np.int32), -1,
         unknown_open, dist, np.empty(n, np.int32), np.empty(0, np.int32))
    return dist
