"""The exact 4-connected unit-cost field with the grid as bits: a cached mask, a write-only field.

A textbook padded BFS keeps one int32 label per cell and reads it for
every neighbour test, so the wave's working set is the label array itself
(64 MB at 4001^2, 256 MB at 8001^2): the tests of the cells above and
below miss the caches. Here the test reads a **bit mask** instead (one bit
a cell, 1 = blocked or already reached: 2 MB at 4001^2, 8 MB at 8001^2,
resident in the last-level cache), and the field is only *written* -- a
store the core does not wait for. The field starts as -1 everywhere (one
streaming fill), so there is no labelling pass before the wave and no pass
after it to reset unreached cells: the textbook BFS makes three passes
over the int32 array (labels, wave, reset), this two (fill, wave).

Three walks fill the same field, all exact:

* :func:`bit_wave`: a level-synchronous BFS; each level's cells in a small
  frontier array (the next level written to a second one), so the queue
  is as small as the widest level and stays in cache. Every value is the
  BFS level at which the cell was first reached: the textbook field.
* :func:`ring_wave`: the same BFS with one FIFO ring of ``depth << 32 |
  cell`` entries, for fronts a few cells wide (spirals, long corridors),
  where the level loop's exit mispredicted every few cells.
* :func:`tree_walk`: when the goal's component is a tree (a perfect maze
  of corridor 1, any tree of free cells), a cell's BFS distance is its
  depth, so a depth-first walk gives the field with no queue at all: along
  a corridor the walk goes on in registers, one cell after the next, and
  only junctions push their other branches. The walk never steps back
  through the side it came in by, so on a tree it enters every cell once;
  entering a cell a second time proves a cycle, and the walk stops there
  (the caller runs a wave, which rewrites every cell the walk wrote: both
  reach exactly the goal's component).

Layout: a padded row is ``W`` cells, a multiple of 64, with the grid's
columns at ``LEFT .. LEFT + cols - 1`` (``LEFT`` = 8, one byte of bits, so
the mask is built from ``numpy.packbits`` of the occupancy without bit
shifting); everything else of the row, row 0 and row ``rows + 1`` is
blocked, so a neighbour is ``i +- 1`` / ``i +- W`` with no bounds check
(the right margin of a row runs into the next row's left one). The field
uses the same indices; the caller gets the ``(rows, cols)`` view.
"""

from __future__ import annotations

import mmap

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

#: columns of blocked cells left of the grid in a padded row (one byte of bits)
LEFT = 8


@intrinsic
def popcount(typingctx, x):
    """Set bits of a uint64 (``llvm.ctpop``: one ``popcnt`` where the CPU has it)."""
    if not (isinstance(x, types.Integer) and x.bitwidth == 64 and not x.signed):
        return None

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return types.uint64(x), codegen


def row_width(cols: int) -> int:
    """Cells of a padded row: ``cols + LEFT`` rounded up to a multiple of 64."""
    return (cols + LEFT + 63) >> 6 << 6


def blocked_bits(mask, rows: int, cols: int, occupied: bool) -> np.ndarray:
    """The padded bit mask of a flat uint8 grid: uint64 words, bit set = blocked.

    ``mask``: ``rows * cols`` uint8, nonzero on free cells (on blocked ones
    with ``occupied``). Bit ``i & 63`` of word ``i >> 6`` is padded cell
    ``i = (r + 1) * W + LEFT + c`` (:func:`row_width`).

    >>> m = np.array([[0, 1, 0]], np.uint8)               # occupied: the middle cell
    >>> b = blocked_bits(m.ravel(), 1, 3, True)
    >>> W = row_width(3)
    >>> [int(b[(W + LEFT + c) >> 6] >> np.uint64((W + LEFT + c) & 63) & np.uint64(1))
    ...  for c in range(-1, 4)]
    [1, 0, 1, 0, 1]
    """
    W = row_width(cols)
    nb = (cols + 7) >> 3
    by = np.full((rows + 2, W >> 3), 0xFF, np.uint8)
    packed = np.packbits(np.asarray(mask).reshape(rows, cols), axis=1, bitorder="little")
    inner = by[1:rows + 1, 1:1 + nb]
    if occupied:
        inner[...] = packed
        if cols & 7:
            # the last byte's bits past the row: blocked (packbits left them 0)
            inner[:, nb - 1] |= np.uint8((0xFF << (cols & 7)) & 0xFF)
    else:
        np.invert(packed, out=inner)                     # its zero tail bits become 1
    return by.view(np.uint64).ravel()


@njit(cache=True)
def free_counts(bits, W):
    """``(free cells, 4-connected edges between free cells)`` of a padded bit mask.

    A grid's free cells form a forest exactly when edges = cells - components,
    so edges >= cells means a cycle somewhere (the tree walk is not tried).
    """
    nw = W >> 6
    n = bits.shape[0]
    one = np.uint64(1)
    s63 = np.uint64(63)
    full = ~np.uint64(0)
    cells = np.uint64(0)
    edges = np.uint64(0)
    for i in range(n):
        f = ~bits[i]
        cells += popcount(f)
        # east pairs: bit j and j + 1 (the next word's bit 0 for j = 63)
        nxt = ~bits[i + 1] if i + 1 < n else full ^ full
        edges += popcount(f & ((f >> one) | (nxt << s63)))
        if i + nw < n:
            edges += popcount(f & ~bits[i + nw])
    return np.int64(cells), np.int64(edges)


@njit(cache=True, inline="always")
def _blocked(bits, i):
    return (bits[i >> np.uint64(6)] >> (i & np.uint64(63))) & np.uint64(1)


@njit(cache=True)
def bit_wave(bits, W, src, dist, qa, qb):
    """Level-synchronous BFS from padded cell ``src`` over ``bits``: cells reached.

    ``bits``: the padded mask, bit set = blocked; reached cells are set on
    the way (the mask is consumed). ``dist``: the padded field, -1 where not
    reached; ``qa``, ``qb``: int32 frontier arrays, each as long as the
    widest level can be (free cells + 8 is always enough; pages never
    touched cost nothing): one level is read from one while the next is
    written to the other, so the queue's footprint is two levels, not the
    grid. The neighbour test is an ``if``: a branch-free form (the mask word
    always written back, the field store sent to a spare slot, the end moved
    by the test's 0/1) ran 1.5-2x slower on every grid kind measured -- its
    stores' addresses wait on the loads.
    """
    Wu = np.uint64(W)
    one = np.uint64(1)
    s6 = np.uint64(6)
    m63 = np.uint64(63)
    s = np.uint64(src)
    if _blocked(bits, s):
        return 0
    bits[s >> s6] |= one << (s & m63)
    dist[s] = 0
    qa[0] = np.int32(src)
    na = 1
    reached = 1
    d = np.int32(0)
    while na > 0:
        d += 1
        nn = 0
        for k in range(na):
            cur = np.uint64(qa[k])
            for nb in (cur - Wu, cur + one, cur + Wu, cur - one):
                w = nb >> s6
                m = bits[w]
                b = one << (nb & m63)
                if (m & b) == 0:
                    bits[w] = m | b
                    dist[nb] = d
                    qb[nn] = np.int32(nb)
                    nn += 1
        reached += nn
        qa, qb = qb, qa
        na = nn
    return reached


@njit(cache=True)
def straight_share(bits, W, rows, cols):
    """Share of sampled free cells inside a straight corridor (W-E free and N-S blocked, or
    the other way round).

    The sample of :func:`robomaze._search._sweep.open_share` (64 runs of 64
    cells at a fixed multiplicative sequence of starts; every cell of a grid
    of at most 4096), read off the padded mask.
    """
    n = rows * cols
    free = 0
    line = 0
    small = n <= 4096
    one = np.uint64(1)
    Wu = np.uint64(W)
    for j in range(1 if small else 64):
        i0 = 0 if small else (j * 2654435761) % n
        for k in range(n if small else 64):
            i = (i0 + k) % n
            r = i // cols
            q = np.uint64((r + 1) * W + LEFT + i - r * cols)
            if _blocked(bits, q):
                continue
            free += 1
            w = _blocked(bits, q - one)
            e = _blocked(bits, q + one)
            nn = _blocked(bits, q - Wu)
            ss = _blocked(bits, q + Wu)
            line += ((w | e) == 0) & ((nn & ss) == 1) | ((nn | ss) == 0) & ((w & e) == 1)
    return line / max(free, 1)


#: the straight-corridor share from which :func:`ring_wave` runs instead of
#: :func:`bit_wave` (spirals ~1.0; random 10-30% obstacles <= 0.3, braided
#: and widened mazes of corridor 3 ~0.2-0.4: benchmarks/README.md, round 7)
RING_STRAIGHT_SHARE = 0.6


@njit(cache=True)
def tree_walk(bits, W, src, dist, seen, stack):
    """Depth-first depths from padded cell ``src``: cells reached, or -1 on a cycle.

    ``bits``: the padded mask (bit set = blocked; only read); ``dist``: the
    padded field, all -1 on entry; ``seen``: zeroed uint64 words beside
    ``bits`` (a cell's bit set when the walk enters it); ``stack``: int64,
    at least as long as the goal's component (pages never touched cost
    nothing). On a tree the depths are the BFS distances. Stops with -1 when
    a cell is entered a second time (a cycle: the walk never steps back to
    a cell's parent) or the stack would overflow; the cells written by then
    are all in the goal's component.

    Along a corridor the next cell is computed without a branch (the side
    as masks: a select here became a branch that every turn mispredicted,
    1.1x slower on a corridor-1 maze); four walkers taking turns on
    separate branches were tried and gained nothing (the loop is bound by
    its instructions, 20-27 cycles a cell, not by one chain's latency).
    A stack entry is ``depth << 34 | side << 32 | cell``, ``side`` the
    neighbour the cell was entered from (0 N, 1 E, 2 S, 3 W).
    """
    Wu = np.uint64(W)
    one = np.uint64(1)
    zero = np.uint64(0)
    s6 = np.uint64(6)
    m63 = np.uint64(63)
    cap = stack.shape[0]
    u = np.uint64(src)
    if _blocked(bits, u):
        return 0
    # the open sides of a cell (bits N 1, E 2, S 4, W 8) less the one it came from
    came = zero
    d = np.int64(0)
    top = 0
    count = 0
    m32 = np.int64(0xFFFFFFFF)
    while True:
        w = u >> s6
        b = one << (u & m63)
        sw = seen[w]
        if sw & b:
            return -1                     # entered twice: the component has a cycle
        seen[w] = sw | b
        dist[u] = d
        count += 1
        sides = ((_blocked(bits, u - Wu) ^ one)
                 | ((_blocked(bits, u + one) ^ one) << one)
                 | ((_blocked(bits, u + Wu) ^ one) << np.uint64(2))
                 | ((_blocked(bits, u - one) ^ one) << np.uint64(3))) & ~came
        d += 1
        if sides != 0 and (sides & (sides - one)) == 0:
            # one way on: a row step (N, S) or a column step, back (N, W) or
            # forth, as all-ones masks; ``came`` is the opposite side's bit
            vm = zero - ((sides | (sides >> np.uint64(2))) & one)
            nm = zero - ((sides | (sides >> np.uint64(3))) & one)
            step = one + ((Wu - one) & vm)
            u = u + ((step ^ nm) - nm)
            came = ((sides << np.uint64(2)) | (sides >> np.uint64(2))) & np.uint64(15)
            continue
        # a junction or a dead end: every way on pushed (the top moves by each
        # side's bit, no branch on the grid), then the last one taken
        if top + 4 > cap:
            return -1
        dd = d << 34
        stack[top] = dd | (np.int64(2) << 32) | np.int64(u - Wu)
        top += np.int64(sides & one)
        stack[top] = dd | (np.int64(3) << 32) | np.int64(u + one)
        top += np.int64((sides >> one) & one)
        stack[top] = dd | np.int64(u + Wu)
        top += np.int64((sides >> np.uint64(2)) & one)
        stack[top] = dd | (np.int64(1) << 32) | np.int64(u - one)
        top += np.int64((sides >> np.uint64(3)) & one)
        if top == 0:
            break
        top -= 1
        e = stack[top]
        u = np.uint64(e & m32)
        came = one << np.uint64((e >> 32) & 3)
        d = e >> 34
    return count


@njit(cache=True)
def ring_wave(bits, W, dist, ring, head, tail):
    """FIFO BFS over ``bits`` with the levels in the queue: ``(head, tail)`` when it stops.

    As :func:`bit_wave` (``bits`` consumed, ``dist`` written), but the queue
    is one ring of ``depth << 32 | cell`` entries: no per-level loop. Where
    the front is a few cells wide (spirals, long corridors) a level loop's
    exit mispredicted every few cells; here only the neighbour tests branch.
    ``ring``: int64, a power of two long, holding the entries ``head ..
    tail - 1`` (counters over the whole wave: entry ``i`` at ``i & (len -
    1)``). Returns when the queue is empty (``head == tail``, then ``tail``
    is the number of cells reached) or when the ring could overflow (the
    caller doubles it, :func:`ring_field`, and calls again): growing inside
    the loop made numba reload the array on every access (1.7x slower).
    """
    Wu = np.uint64(W)
    one = np.uint64(1)
    s6 = np.uint64(6)
    m63 = np.uint64(63)
    cap = np.uint64(ring.shape[0])
    mask = cap - one
    head = np.uint64(head)
    tail = np.uint64(tail)
    room = cap - np.uint64(4)
    m32 = np.int64(0xFFFFFFFF)
    while head != tail:
        if tail - head > room:
            break
        e = ring[head & mask]
        head += one
        cur = np.uint64(e & m32)
        dn = (e >> 32) + 1
        dd = dn << 32
        d32 = np.int32(dn)
        for nb in (cur - Wu, cur + one, cur + Wu, cur - one):
            w = nb >> s6
            m = bits[w]
            b = one << (nb & m63)
            if (m & b) == 0:
                bits[w] = m | b
                dist[nb] = d32
                ring[tail & mask] = dd | np.int64(nb)
                tail += one
    return np.int64(head), np.int64(tail)


def ring_field(bits, W: int, src: int, dist, size: int = 1 << 12) -> int:
    """:func:`ring_wave` from padded cell ``src``, the ring doubled as often as it fills: reached.

    >>> occ = np.zeros((1, 9), np.uint8)
    >>> W = row_width(9)
    >>> dist = np.full(3 * W, -1, np.int32)
    >>> ring_field(blocked_bits(occ.ravel(), 1, 9, True), W, W + LEFT + 4, dist, size=4)
    9
    >>> dist[W + LEFT:W + LEFT + 9].tolist()
    [4, 3, 2, 1, 0, 1, 2, 3, 4]
    """
    s = int(src)
    if (int(bits[s >> 6]) >> (s & 63)) & 1:
        return 0
    bits[s >> 6] |= np.uint64(1 << (s & 63))
    dist[s] = 0
    ring = np.empty(max(size, 8), np.int64)
    ring[0] = s
    head, tail = 0, 1
    while True:
        head, tail = ring_wave(bits, W, dist, ring, head, tail)
        if head == tail:
            return int(tail)
        i = np.arange(head, tail, dtype=np.int64)
        big = np.empty(2 * ring.shape[0], np.int64)
        big[i & (big.shape[0] - 1)] = ring[i & (ring.shape[0] - 1)]
        ring = big


def _scratch(n: int, dtype) -> np.ndarray:
    """An array whose pages are faulted in (4 KiB at a time) only where it is written.

    Below 2^20 entries a plain ``numpy.empty`` (an mmap per call costs more
    than it saves there).
    """
    dt = np.dtype(dtype)
    if n < 1 << 20 or not hasattr(mmap, "MAP_PRIVATE"):   # Windows: no private anonymous maps
        return np.empty(n, dt)
    buf = mmap.mmap(-1, max(n * dt.itemsize, 1), flags=mmap.MAP_PRIVATE)
    return np.frombuffer(buf, dt, count=n)


def populated(n: int, dtype) -> np.ndarray:
    """A scratch array of ``n`` entries on 4 KiB pages, all faulted in by the kernel at once.

    For scratch a kernel writes wholly (a maze's cell depths): on this
    project's VM a fresh 2 MiB page that the host took back costs 3-15x the
    system time of the same memory in 4 KiB pages, and ``MAP_POPULATE``
    faults those in one call, not one trap each (64 MB: 32-40 ms against
    37-61 ms touched a page at a time and 14-214 ms on numpy's huge pages; benchmarks/README.md,
    "Issue 40, round 9 (r9-wave)"). Below 2^20 entries, or without
    ``MAP_POPULATE``, a plain ``numpy.empty``.

    >>> populated(5, np.int32).shape
    (5,)
    """
    dt = np.dtype(dtype)
    flag = getattr(mmap, "MAP_POPULATE", 0)
    if n < 1 << 20 or not flag or not hasattr(mmap, "MAP_PRIVATE"):
        return np.empty(n, dt)
    buf = mmap.mmap(-1, n * dt.itemsize, flags=mmap.MAP_PRIVATE | flag)
    return np.frombuffer(buf, dt, count=n)


#: the huge page numpy asks the kernel for (``madvise(MADV_HUGEPAGE)`` on
#: allocations of 4 MiB and more)
_HUGE = 1 << 21


def fresh(shape, dtype) -> np.ndarray:
    """``numpy.empty(shape, dtype)`` with its memory faulted in now, one write per 2 MiB.

    Where the kernel backs numpy's large allocations with 2 MiB pages, one
    store per page makes the kernel zero it now; the array is then written
    at memory speed. The point is *when*: memory another array gave back a
    moment ago is cheap to fault in again, and the same amount some time
    later costs up to 20x the system time (measured on this project's
    shared machine, a VM whose free memory goes back to the host: 256 MB
    in 20-40 ms right after a free, 340-1000 ms a second later, 4 KiB
    pages 150-240 ms either way; benchmarks/README.md, "Issue 40, round 9
    (r9-wave)"). An output written only after a long walk (the maze
    paths) is thus faulted in at the start of the call, as a BFS that
    labels its output first does. Nothing is computed twice: a page is
    faulted once either way.

    >>> a = fresh((3, 4), np.int32)
    >>> a.shape, a.dtype
    ((3, 4), dtype('int32'))
    """
    a = np.empty(shape, dtype)
    if a.nbytes >= 2 * _HUGE:
        flat = a.reshape(-1).view(np.uint8)
        flat[::_HUGE] = 0
        flat[-1] = 0
    return a


def bit_field(mask, rows: int, cols: int, goal: int, occupied: bool, *, tree: bool = True,
              wave: str | None = None):
    """The exact 4-connected field from flat cell ``goal``: ``(dist, reached, how)``.

    ``mask``: flat uint8, nonzero on free cells (on blocked ones with
    ``occupied``). ``dist``: ``(rows, cols)`` int32 view of the padded field,
    -1 where blocked or unreachable; ``how``: ``"tree"`` when the depth-first
    walk gave it, ``"bits"`` / ``"ring"`` when :func:`bit_wave` /
    :func:`ring_wave` did. With ``tree``, the walk is tried first when the
    grid has fewer edges than free cells (no cycle is then possible unless
    another component holds it). ``wave``: ``"bits"`` or ``"ring"``, or
    None to choose by :func:`straight_share`.

    >>> occ = np.array([[0, 0, 0], [1, 1, 0], [0, 0, 0]], np.uint8)
    >>> d, n, how = bit_field(occ.ravel(), 3, 3, 6, True)
    >>> d.tolist(), n, how
    ([[6, 5, 4], [-1, -1, 3], [0, 1, 2]], 7, 'tree')
    >>> bit_field(np.zeros(9, np.uint8), 1, 9, 0, True, tree=False)[2]   # a corridor
    'ring'
    """
    W = row_width(cols)
    bits = blocked_bits(mask, rows, cols, occupied)
    npd = (rows + 2) * W
    dist = np.full(npd, -1, np.int32)
    view = dist.reshape(rows + 2, W)[1:rows + 1, LEFT:LEFT + cols]
    r, c = divmod(int(goal), cols)
    src = (r + 1) * W + LEFT + c
    nfree = rows * cols
    if tree:
        nfree, edges = free_counts(bits, W)
        if edges < nfree:
            reached = tree_walk(bits, W, src, dist, np.zeros(bits.shape[0], np.uint64),
                                _scratch(nfree + 8, np.int64))
            if reached >= 0:
                return view, int(reached), "tree"
    if wave is None:
        wave = "ring" if straight_share(bits, W, rows, cols) >= RING_STRAIGHT_SHARE else "bits"
    if wave == "ring":
        reached = ring_field(bits, W, src, dist)
    else:
        qa = _scratch(nfree + 8, np.int32)
        qb = _scratch(nfree + 8, np.int32)
        reached = bit_wave(bits, W, src, dist, qa, qb)
    return view, int(reached), wave
