"""Numba kernels for the search-based generators, braiding, and the
SplitMix64 stream and grid helpers every generator kernel shares.

Every kernel works on flat arrays and returns two ``uint8`` arrays of length
``rows * cols``: ``east[i]`` / ``south[i]`` are 1 where cell ``i`` has a wall
on that side (the boundary entries are fixed up by :class:`~robomaze.maze.Maze`);
the random-walk kernels (:mod:`._walk_kernels`) also return their number of
walk moves.

Randomness comes from a SplitMix64 stream seeded by one 63-bit integer that
the public wrapper draws from the caller's ``numpy.random.Generator``. A
kernel-local stream keeps the kernels independent of numba's own global
``np.random`` state (which would be shared, hidden state) while still making
every maze a pure function of the caller's Generator. Walks draw an unbounded
number of variates, so pre-drawing arrays in numpy is not an option for them.

"Kernel style N" notes refer to :mod:`robomaze._compile.kernels`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._compile.kernels import filled, noalloc
from ._common import closed_walls, kernel_state

# Kernels here that allocate nothing (their callers do: kernel style 3) are
# noalloc(no_cfunc_wrapper=True): no reference counting lowered and
# no C wrapper, which nothing calls (issue 40, round 12: benchmarks/README.md).
# error_model="numpy" on those whose only divisions are ``// cols`` (cols >= 1):
# numba's default (Python) model tests every ``//`` for a zero divisor and
# lowers a ZeroDivisionError never raised (issue 40, round 13: benchmarks/README.md).
_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_S63 = np.uint64(63)
_INV53 = 1.0 / 9007199254740992.0  # 2**-53


@njit(cache=True)
def new_state(seed):
    st = np.empty(1, np.uint64)
    st[0] = np.uint64(seed)
    return st


@njit(inline="always")
def step(st):
    """One SplitMix64 step on a scalar state (uint64): ``(next state, output)``.

    The stream's one definition. ``inline="always"``: numba writes it into
    each caller's IR before typing, so no generator links a kernel for it
    (as calls, the draws were a chain of up to four more compiles on every
    cold start).
    """
    st += _GAMMA
    z = (st ^ (st >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return st, z ^ (z >> _S31)


@njit(inline="always")
def scale_below(z, n):
    """An int uniform in [0, n) (n >= 1) from the output ``z`` of
    :func:`step`: ``int(u * n)`` of its top 53 bits as ``u`` in [0, 1);
    bias < 2**-53 * n."""
    k = np.int64(np.float64(z >> _S11) * _INV53 * n)
    # rounding of u * n can hit n exactly when u is within 2**-53 of 1
    return k if k < n else n - 1


@njit(cache=True)
def mix64(z):
    """SplitMix64's output function of a state ``z`` (uint64)."""
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=True)
def next_u64(st):
    """One SplitMix64 output of the state ``st[0]`` (passes BigCrush; plenty
    for maze carving)."""
    st[0], z = step(st[0])
    return z


@njit(cache=True)
def uniform(st):
    """A float in [0, 1) with 53 random bits (of :func:`next_u64`)."""
    st[0], z = step(st[0])
    return np.float64(z >> _S11) * _INV53


@njit(cache=True)
def below(st, n):
    """An int uniform in [0, n) (n >= 1), ``int(uniform(st) * n)``; bias
    < 2**-53 * n."""
    st[0], z = step(st[0])
    return scale_below(z, n)


@njit(inline="always")
def wall_between(a, b, cols):
    """The wall between 4-neighbour cells ``a`` and ``b``: ``(True, i)`` for
    ``south[i]``, ``(False, i)`` for ``east[i]``.

    Inlined, as :func:`step`; the kernels then open the wall themselves: an
    inlined helper taking the wall arrays made numba count references to
    them at every call, which cost the backtracker 35% of its time.
    """
    # vertical first: with one column, a +- 1 is also a vertical move
    if b == a + cols:
        return True, a
    if b == a - cols:
        return True, b
    return False, (a if b == a + 1 else b)


@njit(cache=True)
def neighbours(u, rows, cols, out):
    """Write the 4-neighbours of cell ``u`` into ``out``; return their count."""
    r = u // cols
    c = u - r * cols
    k = 0
    if r > 0:
        out[k] = u - cols
        k += 1
    if c < cols - 1:
        out[k] = u + 1
        k += 1
    if r < rows - 1:
        out[k] = u + cols
        k += 1
    if c > 0:
        out[k] = u - 1
        k += 1
    return k


@njit(cache=True)
def _walk(u, r, c, d, rows, cols, dr, dc, off):
    """One walk step from ``u`` at ``(r, c)`` in direction ``d``: the new
    ``(v, r, c)``, or ``(-1, r, c)`` for an off-grid draw (a stay).

    Table lookups instead of a 4-way branch on a random direction, which
    would be mispredicted half the time; only the rare off-grid draw branches.
    """
    nr = r + dr[d]
    nc = c + dc[d]
    if nr < 0 or nr >= rows or nc < 0 or nc >= cols:
        return -1, r, c
    return u + off[d], nr, nc


def backtracker(rows, cols, seed):
    """Recursive backtracker (depth-first search with an explicit stack).

    The arrays are allocated here, in numpy, and :func:`_backtrack` carves
    (kernel style 3).
    """
    n = rows * cols
    east, south = closed_walls(n)
    _backtrack(rows, cols, seed, east, south, np.zeros(n, np.uint8), np.empty(n, np.int64),
               np.empty(4, np.int64))
    return east, south


@noalloc(no_cfunc_wrapper=True, error_model="numpy")   # see the note on error_model
def _backtrack(rows, cols, seed, east, south, visited, stack, cand):
    """The search of :func:`backtracker` on its arrays.

    The neighbour scan and the wall to open are written out and the draws
    (:func:`step`) inlined: as calls they would be six more compiles on a
    cold start (this kernel is in every default sweep).
    """
    n = rows * cols
    st = np.uint64(seed)
    # one draw site (step and scale_below are inlined, typed and copied at
    # each site): the first draw picks the start among all n cells, each
    # later one a candidate of the stack's top
    sp = 0
    m = n
    u = 0
    while True:
        st, z = step(st)
        k = scale_below(z, m)
        if sp == 0:
            v = k
        else:
            v = cand[k]
            # the wall written out, not wall_between(): its second branch on a
            # random direction cost this kernel 20-25% (no other kernel minded)
            if v == u + cols:
                south[u] = 0
            elif v == u - cols:
                south[v] = 0
            elif v == u + 1:
                east[u] = 0
            else:
                east[v] = 0
        visited[v] = 1
        stack[sp] = v
        sp += 1
        # down the stack to a cell with unvisited neighbours
        while sp > 0:
            u = stack[sp - 1]
            r = u // cols
            c = u - r * cols
            m = 0
            if r > 0 and visited[u - cols] == 0:  # N, E, S, W: the candidates' order
                cand[m] = u - cols
                m += 1
            if c < cols - 1 and visited[u + 1] == 0:
                cand[m] = u + 1
                m += 1
            if r < rows - 1 and visited[u + cols] == 0:
                cand[m] = u + cols
                m += 1
            if c > 0 and visited[u - 1] == 0:
                cand[m] = u - 1
                m += 1
            if m > 0:
                break
            sp -= 1
        if sp == 0:
            break


_U0 = np.uint64(0)
_U1 = np.uint64(1)
_U6 = np.uint64(6)
_U8 = np.uint64(8)
_U63 = np.uint64(63)
_UFF = np.uint64(0xFF)


@njit(cache=True)
def _ctz(w):
    """Index of the lowest set bit of a non-zero uint64."""
    k = 0
    while (w & _UFF) == _U0:
        w >>= _U8
        k += 8
    while (w & _U1) == _U0:
        w >>= _U1
        k += 1
    return k


def _bits_new(n):
    """A 64-ary bit tree over ``n`` items, four levels in one flat array.

    ``off[l]`` is where level ``l`` starts; level 0 holds one bit per item and
    each level above one bit per non-zero word below. Setting, clearing and
    finding the smallest member cost O(levels), so a hunt is O(1) whatever
    the maze size. :func:`_hunt_and_kill` writes :func:`_bits_set`,
    :func:`_bits_clear` and :func:`_bits_min` out (one compile instead of
    five); these are their reference, tested on their own.
    """
    off = np.zeros(5, np.int64)
    m = n
    for lev in range(4):
        m = (m + 63) // 64
        off[lev + 1] = off[lev] + m
    return np.zeros(int(off[4]), np.uint64), off


@njit(cache=True)
def _bits_set(words, off, i):
    for lev in range(4):
        j = off[lev] + (i >> 6)
        was = words[j]
        words[j] = was | (_U1 << np.uint64(i & 63))
        if was != _U0:
            return
        i >>= 6


@njit(cache=True)
def _bits_clear(words, off, i):
    for lev in range(4):
        j = off[lev] + (i >> 6)
        words[j] &= ~(_U1 << np.uint64(i & 63))
        if words[j] != _U0:
            return
        i >>= 6


@njit(cache=True)
def _bits_min(words, off):
    """Smallest member, or -1 when empty."""
    top = -1
    for j in range(off[3], off[4]):
        if words[j] != _U0:
            top = (j - off[3]) * 64 + _ctz(words[j])
            break
    if top < 0:
        return -1
    i = top
    for lev in range(2, -1, -1):
        i = i * 64 + _ctz(words[off[lev] + i])
    return i


def hunt_and_kill(rows, cols, seed):
    """The hunt takes the first unvisited cell in row-major order that touches
    the maze, as the classic scan does, but reads it off a bit tree of the
    frontier instead of rescanning rows: linear time overall.

    The arrays are allocated here, in numpy, and :func:`_hunt_and_kill`
    carves (kernel style 3).
    """
    n = rows * cols
    east, south = closed_walls(n)
    _hunt_and_kill(rows, cols, seed, east, south, np.zeros(n, np.uint8), np.empty(4, np.int64),
                   *_bits_new(n))
    return east, south


@njit(cache=True)
def _hunt_and_kill(rows, cols, seed, east, south, visited, cand, words, off):
    """The carving of :func:`hunt_and_kill` on its arrays.

    One kernel: the draws (:func:`step`) and :func:`wall_between` are inlined,
    :func:`neighbours` and the bit tree's :func:`_bits_set`,
    :func:`_bits_clear` and :func:`_bits_min` written out, each once (as
    calls they would be eleven more compiles on a cold start). A visit lists the cell's
    unvisited neighbours for the frontier, and that list is also the next
    kill step's choice; a hunt lists the visited neighbours instead, and
    both then draw, carve and visit in one place.
    """
    n = rows * cols
    st = np.uint64(seed)
    st, z = step(st)
    x = scale_below(z, n)
    nvis = 0
    while True:
        visited[x] = 1  # visit x: out of the frontier, its unvisited neighbours in
        i = x
        for lev in range(4):
            j = off[lev] + (i >> 6)
            words[j] &= ~(_U1 << np.uint64(i & 63))
            if words[j] != _U0:
                break
            i >>= 6
        nvis += 1
        r = x // cols
        c = x - r * cols
        m = 0
        if r > 0 and visited[x - cols] == 0:  # N, E, S, W
            cand[m] = x - cols
            m += 1
        if c < cols - 1 and visited[x + 1] == 0:
            cand[m] = x + 1
            m += 1
        if r < rows - 1 and visited[x + cols] == 0:
            cand[m] = x + cols
            m += 1
        if c > 0 and visited[x - 1] == 0:
            cand[m] = x - 1
            m += 1
        for t in range(m):
            i = cand[t]
            for lev in range(4):
                j = off[lev] + (i >> 6)
                was = words[j]
                words[j] = was | (_U1 << np.uint64(i & 63))
                if was != _U0:
                    break
                i >>= 6
        if nvis == n:
            break
        a = x  # kill: walk on from x into an unvisited neighbour
        if m == 0:  # hunt: the first frontier cell in row-major order
            j = off[3]
            while words[j] == _U0:
                j += 1
            a = j - off[3]
            for lev in range(3, -1, -1):
                w = words[off[lev] + a]
                k = 0
                while (w & _UFF) == _U0:
                    w >>= _U8
                    k += 8
                while (w & _U1) == _U0:
                    w >>= _U1
                    k += 1
                a = a * 64 + k
            r = a // cols  # joins the maze through a visited neighbour
            c = a - r * cols
            if r > 0 and visited[a - cols]:
                cand[m] = a - cols
                m += 1
            if c < cols - 1 and visited[a + 1]:
                cand[m] = a + 1
                m += 1
            if r < rows - 1 and visited[a + cols]:
                cand[m] = a + cols
                m += 1
            if c > 0 and visited[a - 1]:
                cand[m] = a - 1
                m += 1
        st, z = step(st)
        k = scale_below(z, m)
        b = cand[k]
        south_side, w = wall_between(a, b, cols)
        if south_side:
            south[w] = 0
        else:
            east[w] = 0
        x = b if x == a else a  # a kill visits b, a hunt the hunted cell a


def growing_tree(rows, cols, seed, selection, mix):
    """selection: 0 newest, 1 random, 2 mixed (newest with probability mix).

    Removal from the middle of the active list uses tombstones so the list
    keeps its order (``newest`` stays meaningful under ``mixed``) in O(1)
    amortised: the list is compacted whenever half of it is dead, which also
    keeps the rejection sampling of a random live entry at <= 2 tries.

    The arrays are allocated here, in numpy, and :func:`_growing_tree`
    carves (kernel style 3).
    """
    n = rows * cols
    east, south = closed_walls(n)
    _growing_tree(rows, cols, kernel_state(seed), selection, mix, east, south,
                  np.zeros(n, np.uint8), np.empty(n, np.int64), np.zeros(n, np.uint8),
                  np.empty(4, np.int64))
    return east, south


@njit(cache=True)
def _growing_tree(rows, cols, st, selection, mix, east, south, visited, active, alive, cand):
    """The carving of :func:`growing_tree` on its arrays."""
    n = rows * cols
    u = below(st, n)
    visited[u] = 1
    active[0] = u
    alive[0] = 1
    alen = np.int64(1)  # typed, not literals (kernel style 4)
    nlive = 1
    while nlive > 0:
        if selection == 0 or (selection == 2 and uniform(st) < mix):
            i = alen - 1
        else:
            while True:
                i = below(st, alen)
                if alive[i]:
                    break
        u = active[i]
        r = u // cols  # neighbours() written out (kernel style 1)
        c = u - r * cols
        m = np.int64(0)
        if r > 0 and visited[u - cols] == 0:  # N, E, S, W
            cand[m] = u - cols
            m += 1
        if c < cols - 1 and visited[u + 1] == 0:
            cand[m] = u + 1
            m += 1
        if r < rows - 1 and visited[u + cols] == 0:
            cand[m] = u + cols
            m += 1
        if c > 0 and visited[u - 1] == 0:
            cand[m] = u - 1
            m += 1
        if m == 0:
            alive[i] = 0
            nlive -= 1
            while alen > 0 and alive[alen - 1] == 0:
                alen -= 1
            if alen > 16 and 2 * nlive < alen:
                w = 0
                for j in range(alen):
                    if alive[j]:
                        active[w] = active[j]
                        alive[w] = 1
                        w += 1
                for j in range(w, alen):
                    alive[j] = 0
                alen = w
            continue
        v = cand[below(st, m)]
        south_side, w = wall_between(u, v, cols)
        if south_side:
            south[w] = 0
        else:
            east[w] = 0
        visited[v] = 1
        active[alen] = v
        alive[alen] = 1
        alen += 1
        nlive += 1


@njit(cache=True)
def braid(east, south, rows, cols, order, target, seed):
    """Open one wall of dead ends taken in ``order`` until ``target`` are gone.

    Like Jamis Buck's braid, a dead end opens toward a neighbouring dead end
    when it has one (removing two dead ends with one wall), otherwise toward
    a random walled neighbour. Degrees only grow, so no new dead end appears.
    Returns the number of dead ends removed.
    """
    n = rows * cols
    st = new_state(seed)
    deg = filled(n, 0, np.int64)
    for u in range(n):
        c = u % cols
        r = u // cols
        if c < cols - 1 and east[u] == 0:
            deg[u] += 1
            deg[u + 1] += 1
        if r < rows - 1 and south[u] == 0:
            deg[u] += 1
            deg[u + cols] += 1
    nb = np.empty(4, np.int64)
    dead = np.empty(4, np.int64)
    other = np.empty(4, np.int64)
    removed = 0
    for i in range(order.size):
        if removed >= target:
            break
        u = order[i]
        if deg[u] != 1:
            continue
        k = neighbours(u, rows, cols, nb)
        nd = np.int64(0)  # typed, not literals (kernel style 4)
        no = np.int64(0)
        for j in range(k):
            v = nb[j]
            walled = False
            if v == u + cols:
                walled = south[u] == 1
            elif v == u - cols:
                walled = south[v] == 1
            elif v == u + 1:
                walled = east[u] == 1
            else:
                walled = east[v] == 1
            if walled:
                if deg[v] == 1:
                    dead[nd] = v
                    nd += 1
                else:
                    other[no] = v
                    no += 1
        if nd > 0:
            v = dead[below(st, nd)]
            removed += 2
        elif no > 0:
            v = other[below(st, no)]
            removed += 1
        else:  # a one-cell-wide maze end: nothing to open
            continue
        south_side, w = wall_between(u, v, cols)
        if south_side:
            south[w] = 0
        else:
            east[w] = 0
        deg[u] += 1
        deg[v] += 1
    return removed
