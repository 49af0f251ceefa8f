"""The 4-connected wave of a widened perfect maze in closed form, block by block.

A grid made by :func:`robomaze.grid.widen` is the maze matrix
(``Maze.to_matrix()``, ``(2R+1) x (2C+1)``) with even rows/columns repeated
``t`` times (walls, posts) and odd ones ``k`` times (cells): its free space is
a grid of axis-aligned rectangles, the cells' ``k x k`` blocks and the open
passages' ``k x t`` / ``t x k`` blocks (boundary openings are passages with one
cell). Unit-cost 4-connected step counts from a goal cell then have a closed
form on every block:

* inside one free rectangle the geodesic distance is the L1 distance, so the
  goal's block holds ``|r - gr| + |c - gc|``;
* a field is 1-Lipschitz along any line of adjacent free cells, so a block
  entered only through one full side whose outside neighbour line has
  profile ``q(u)`` holds ``q(u) + 1 + v`` (``v`` = distance from that side):
  the minimum over entry cells of ``q(u') + |u - u'|`` is ``q(u)`` itself;
* when the free blocks of the goal's component form a tree (a perfect maze)
  every block but the goal's is entered from exactly one side, its parent's,
  and every block's field is ``a + |r - pr| + |c - pc|`` with ``(pr, pc)``
  inside the block: the goal block is ``(0, gr, gc)`` and a child across
  the parent's last row/column ``e`` (its own first line ``e'``) gets
  ``a' = a + |e - p| + 1`` with ``p`` the parent's coordinate across that
  side, the coordinate along the side unchanged and the one across it
  ``e'`` -- straight through or turning, the same rule.

Phase 1 walks the maze's cells (``R*C`` nodes, not grid cells) from the
goal's block, depth first, giving each cell its ``(a, pr, pc)`` packed in one
int64, and gives up on a cycle (a braided maze; the wave's fallback is
exact). It keeps no visited marks: a walk that never steps back through the
side it came in by takes each cell of a tree once, and a cycle shows as more
cells than the maze has. Phase 2 writes the int32 field band by band in one
streaming pass. A band of cells (``k`` grid rows) lays out one row of
per-column forms (``a + |c - pc|`` and ``pr`` of the block the column is in;
a passage's is the smaller of its two cells' forms continued into it, an
opening's its cell's continued), and each of its rows is
``max(term + |r - pr|, -1)``, a branch-free loop. A wall band (``t`` rows of
posts and vertical passages) is the minimum of the row above continued down
and the row below continued up (the one on the parent's side is the field,
the other larger), -1 on posts and closed passages. The goal's own passage
is then written with the root form. Before each band is written its
occupancy bytes are compared with what the maze says its blocks are (a user
can pair an ``OccupancyGrid`` with a ``maze`` that does not match it): any
difference and the caller falls back to the BFS.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._bitwave import _scratch, fresh, populated
from ._blockwave_nt import band_row, store_fence

# the side of a cell its parent lies on, as the bit of that side in a cell's
# open-sides mask; ROOT: the goal is in this cell (no side)
_N, _E, _S, _W, _ROOT = 1, 2, 4, 8, 0


_BIG = 1 << 30  # the form's ``a`` of a cell the walk did not reach
_NEG = -(1 << 30)  # a term that leaves any row value below -1: blocked or unreached


@njit(cache=True)
def _open_sides(east, south):
    """The open sides of every cell as bits (N 1, E 2, S 4, W 8), flat, in one pass.

    The maze's outline counts as closed (openings are leaf passages, not
    sides to another cell); the walks read one byte per cell. Each side is
    a loop over slices (indices a loop variable, never ``u - cols``: numba's
    negative-index check on such an index keeps LLVM from vectorizing).
    """
    rows, cols = east.shape
    n = rows * cols
    e = east.ravel()
    s = south.ravel()
    bits = np.empty(n, np.uint8)
    one = np.uint8(1)
    for u in range(n):
        bits[u] = ((one - np.uint8(e[u])) << one) | ((one - np.uint8(s[u])) << np.uint8(2))
    below = bits[cols:]
    above = s[:n - cols]
    for u in range(n - cols):
        below[u] |= one - np.uint8(above[u])
    for r in range(rows):
        right = bits[r * cols + 1:(r + 1) * cols]
        left = e[r * cols:(r + 1) * cols - 1]
        for u in range(cols - 1):
            right[u] |= (one - np.uint8(left[u])) << np.uint8(3)
    return bits


@njit(cache=True)
def _seeds(east, south, k, t, gi, gj, gr, gc, op_w, op_e, op_n, op_s, sa, su, sr, sc, sp):
    """The walks' first forms: the goal's cell, or the cells beside the goal's passage.

    Fills ``(a, cell, pr, pc, parent side)`` of each seed into ``sa, su, sr,
    sc, sp`` (length >= 2) and returns how many (1 or 2; 0 when the goal's
    passage or opening is closed in the maze, or the goal is on a post --
    never free in a widened maze). ``(gi, gj)``: the goal's block in
    maze-matrix coordinates, ``(gr, gc)`` the goal grid cell.
    """
    rows, cols = east.shape
    p = k + t
    ns = 0
    if gi % 2 == 1 and gj % 2 == 1:
        sa[0], su[0], sr[0], sc[0], sp[0] = 0, (gi // 2) * cols + gj // 2, gr, gc, _ROOT
        return 1
    if gi % 2 == 1:
        # a passage between cells west and east of it (one of them may be off the maze)
        r = gi // 2
        c0 = (gj // 2) * p
        if gj == 0:
            ok = op_w[r] != 0
        elif gj == 2 * cols:
            ok = op_e[r] != 0
        else:
            ok = not east[r, gj // 2 - 1]
        if not ok:
            return 0
        if gj > 0:
            sa[ns], su[ns], sr[ns], sc[ns], sp[ns] = (abs(c0 - gc) + 1, r * cols + gj // 2 - 1,
                                                      gr, c0 - 1, _E)
            ns += 1
        if gj < 2 * cols:
            sa[ns], su[ns], sr[ns], sc[ns], sp[ns] = (abs(c0 + t - 1 - gc) + 1, r * cols + gj // 2,
                                                      gr, c0 + t, _W)
            ns += 1
        return ns
    if gj % 2 == 1:
        c = gj // 2
        r0 = (gi // 2) * p
        if gi == 0:
            ok = op_n[c] != 0
        elif gi == 2 * rows:
            ok = op_s[c] != 0
        else:
            ok = not south[gi // 2 - 1, c]
        if not ok:
            return 0
        if gi > 0:
            sa[ns], su[ns], sr[ns], sc[ns], sp[ns] = (abs(r0 - gr) + 1, (gi // 2 - 1) * cols + c,
                                                      r0 - 1, gc, _S)
            ns += 1
        if gi < 2 * rows:
            sa[ns], su[ns], sr[ns], sc[ns], sp[ns] = (abs(r0 + t - 1 - gr) + 1, (gi // 2) * cols + c,
                                                      r0 + t, gc, _N)
            ns += 1
        return ns
    return 0


@njit(cache=True)
def _walk(east, south, k, t, gi, gj, gr, gc, op_w, op_e, op_n, op_s, form):
    """Phase 1: every reached cell's form packed into ``form``; cells reached, or -1.

    ``form`` (flat int64, ``rows*cols``) gets ``a | dr << 32 | dc << 48``
    per cell, ``(dr, dc)`` = ``(pr, pc)`` less the block's first grid row
    and column; ``a`` = _BIG on cells not reached. -1: the goal's component
    has a cycle (a braided maze), or the goal's passage is closed in the
    maze. ``(gi, gj)``: the goal's block in maze-matrix coordinates,
    ``(gr, gc)`` the goal grid cell.

    A depth-first walk that never steps back through the side it came in
    by: on a tree it reaches every cell of the component once, so there is
    no visited mark to read; a cycle makes it go round for ever, which the
    count of cells taken plus pending catches as soon as it passes the
    maze's size. A cell with one child (a corridor) hands it its form in
    registers; at a junction or dead end the four children's forms are
    stored at the stack top unconditionally, the top moving on by each
    side's open bit (no branch on the sides).
    A component smaller than the maze leaves cells unwritten: ``form`` is
    then set to _BIG and the walk run again (only disconnected mazes).
    """
    rows, cols = east.shape
    p = k + t
    n = rows * cols
    sa = np.empty(2, np.int64)
    su = np.empty(2, np.int64)
    sr = np.empty(2, np.int64)
    sc = np.empty(2, np.int64)
    sp = np.empty(2, np.int64)
    ns = _seeds(east, south, k, t, gi, gj, gr, gc, op_w, op_e, op_n, op_s, sa, su, sr, sc, sp)
    if ns == 0:
        return -1
    bits = _open_sides(east, south)
    # pending cells: form and (cell << 4 | the side back to the parent)
    stf = np.empty(n + 8, np.int64)
    stg = np.empty(n + 8, np.int64)
    km1 = np.int64(k - 1)
    step = np.int64(1 + t)
    hi_r = km1 << 32
    hi_c = km1 << 48
    lo32 = np.int64(0xFFFFFFFF)
    m16 = np.int64(0xFFFF)
    count = 0
    for attempt in range(2):
        for i in range(ns):
            r = su[i] // cols
            c = su[i] - r * cols
            stf[i] = sa[i] | ((sr[i] - t - r * p) << 32) | ((sc[i] - t - c * p) << 48)
            stg[i] = (su[i] << 4) | sp[i]
        tp = ns - 1
        f = stf[tp]
        g = stg[tp]
        count = 0
        ncols = np.int64(cols)
        while True:
            u = g >> 4
            form[u] = f
            count += 1
            b = np.int64(bits[u]) & ~(g & 15)
            if b != 0 and (b & (b - 1)) == 0:
                # one child (most cells: corridors): it goes on in registers,
                # its side's flags select the offset it moves and the step
                vert = (b & 5) != 0  # N or S
                far = (b & 6) != 0  # E or S: the cell's last line
                sh = np.int64(32) if vert else np.int64(48)
                x = (f >> sh) & m16
                a = (f & lo32) + step + (km1 - x if far else x)
                f = (f & ~lo32 & ~(m16 << sh)) | ((0 if far else km1) << sh) | a
                d = ncols if vert else np.int64(1)
                g = ((u + d if far else u - d) << 4) | (((b << 2) | (b >> 2)) & 15)
                if tp + count > n:
                    return -1  # more cells than the maze has: the walk is going round a loop
                continue
            # a junction or a dead end: the children's forms are stored at
            # the stack top unconditionally, the top moving on by each
            # side's open bit, and the last pushed is taken next
            a = f & lo32
            dr = (f >> 32) & m16
            dc = f >> 48
            stf[tp] = (a + dr + step) | hi_r | (dc << 48)  # north: entered by its last row
            stg[tp] = ((u - cols) << 4) | _S
            tp += b & 1
            stf[tp] = (a + km1 - dc + step) | (dr << 32)  # east: by its first column
            stg[tp] = ((u + 1) << 4) | _W
            tp += (b >> 1) & 1
            stf[tp] = (a + km1 - dr + step) | (dc << 48)  # south: by its first row
            stg[tp] = ((u + cols) << 4) | _N
            tp += (b >> 2) & 1
            stf[tp] = (a + dc + step) | (dr << 32) | hi_c  # west: by its last column
            stg[tp] = ((u - 1) << 4) | _E
            tp += (b >> 3) & 1
            if tp + count > n:
                return -1
            if tp == 0:
                break
            tp -= 1
            f = stf[tp]
            g = stg[tp]
        if count == n:
            break
        if attempt == 0:
            form[:] = _BIG
    return count


@njit(cache=True)
def _band_forms(r, form, east, k, t, gi, gj, gr, gc, op_w, op_e, band, top):
    """Per grid column of maze row ``r``'s cell band: the form ``term + |row - prow|``.

    ``band[cc]`` = ``prow << 32 | term`` (term as uint32; one store a
    column). A cell's columns take its form; a passage's (and an
    opening's) the smaller of its two cells' forms continued into it (the
    one it was entered from is the field, the other larger; both have the
    same ``pr``, the entry being horizontal). ``term`` is negative enough
    to stay below -1 on every row where closed or not reached. No branch
    depends on the maze (a wall adds 2 * _BIG instead). ``top``: the
    band's first occupancy row, whose block starts are compared with the
    maze on the way (the rest of the band is checked by :func:`_write`).
    Returns the number of reached columns, or -1 on a mismatch.
    """
    rows, cols = east.shape
    p = k + t
    row = form[r * cols:(r + 1) * cols]
    r_lo = t + r * p
    big = np.int64(_BIG)
    neg = np.int64(_NEG)
    lo32 = np.int64(0xFFFFFFFF)
    er = east[r]
    pa = big  # the form west of the passage: none at the maze's west edge
    ppc = np.int64(0)
    phi = np.int64(0)
    closed = np.int64(op_w[r] == 0)
    bad = np.int64(0)
    for q in range(cols):
        f = row[q]
        a = f & lo32
        c0 = q * p
        c1 = c0 + t
        bad |= (np.int64(top[c0]) ^ closed) | np.int64(top[c1])
        pc = c1 + (f >> 48)
        hi = (r_lo + ((f >> 32) & 0xFFFF)) << 32
        # the passage west of the cell: its columns lie between the two pc
        prf = phi if pa < big else hi
        dead = closed * (big + big)
        for cc in range(c0, c1):
            v = min(pa + cc - ppc, a + pc - cc) + dead
            v = neg if v >= big else v
            band[cc] = prf | (v & lo32)
        # a + |cc - pc| as max(a - pc + cc, a + pc - cc)
        ac = a if a < big else neg
        b1 = ac - pc
        b2 = ac + pc
        for cc in range(c1, c1 + k):
            band[cc] = hi | (max(b1 + cc, b2 - cc) & lo32)
        pa, ppc, phi = a, pc, hi
        closed = np.int64(er[q])
    closed = np.int64(op_e[r] == 0)
    bad |= np.int64(top[cols * p]) ^ closed
    for cc in range(cols * p, cols * p + t):
        v = pa + cc - ppc + closed * (big + big)
        v = neg if v >= big else v
        band[cc] = phi | (v & lo32)
    if gi == 2 * r + 1 and gj % 2 == 0:
        # the goal's own passage: the root form
        for cc in range((gj // 2) * p, (gj // 2) * p + t):
            band[cc] = (np.int64(gr) << 32) | abs(cc - gc)
    n = 0
    for cc in range(band.shape[0]):
        n += 1 + (np.int32(band[cc] & lo32) >> 31)
    return -1 if bad else n


@njit(cache=True)
def _write(occ, east, south, k, t, gi, gj, gr, gc, op_w, op_e, op_n, op_s, form, out):
    """Phase 2: the field into ``out`` (flat int32, rows*cols) from the cells' forms.

    Row by row in order: the wall band above each maze row (posts and
    vertical passages: a passage is the smaller of the row above continued
    down and the row below continued up, both computed from the bands'
    per-column forms, not read back; -1 where the checked occupancy says
    blocked), then the row's cell band, each row ``max(term + |row -
    prow|, -1)``, branch-free loops LLVM vectorizes (the cell rows streamed
    past the caches, :mod:`._blockwave_nt`). Each band's occupancy is
    compared with the maze's pattern before its rows are written. Returns
    the number of cells reached, or -1 if ``occ`` (flat uint8, 1 = blocked)
    differs anywhere from the blocks the maze describes.
    """
    mrows, mcols = east.shape
    p = k + t
    rows = mrows * p + t
    cols = mcols * p + t
    out2 = out.reshape(rows, cols)
    occ2 = occ.reshape(rows, cols)
    bands = np.empty((2, cols), np.int64)
    up = np.empty(cols, np.int32)
    down = np.empty(cols, np.int32)
    # 1 on columns that do not start a block (a post, a passage, a cell)
    inner = np.ones(cols, np.uint8)
    for q in range(mcols + 1):
        inner[q * p] = 0
        if q < mcols:
            inner[q * p + t] = 0
    big = np.int32(_BIG)
    m1 = np.int32(-1)
    reached = 0
    for r in range(mrows + 1):
        band = bands[r & 1]
        w_lo = r * p
        # the wall band above maze row r: check (posts blocked, vertical
        # passages as the maze says), then write
        wtop = occ2[w_lo]
        bad = np.int64(0)
        for q in range(mcols):
            if r == 0:
                shut_v = op_n[q] == 0
            elif r == mrows:
                shut_v = op_s[q] == 0
            else:
                shut_v = south[r - 1, q]
            bad |= (np.int64(wtop[q * p]) ^ 1) | (np.int64(wtop[q * p + t]) ^ np.int64(shut_v))
        bad |= np.int64(wtop[mcols * p]) ^ 1
        if bad:
            return -1
        # both bands' rows: all equal to the band's first, whose blocks are
        # uniform (``inner``: 1 on columns that do not start a block); what
        # the block starts hold is checked above and in _band_forms.
        # Branch-free loops over contiguous bytes, about one pass.
        for part in range(1 if r == mrows else 2):
            lo = w_lo if part == 0 else w_lo + t
            top = occ2[lo]
            mix = np.uint8(0)
            for row in range(lo + 1, lo + (t if part == 0 else k)):
                other = occ2[row]
                for cc in range(cols):
                    mix |= other[cc] ^ top[cc]
            right = top[1:]
            left = top[:cols - 1]
            m = inner[1:]
            for cc in range(cols - 1):
                mix |= (right[cc] ^ left[cc]) & m[cc]
            if mix:
                return -1
        nr = 0
        if r < mrows:
            nr = _band_forms(r, form, east, k, t, gi, gj, gr, gc, op_w, op_e, band,
                             occ2[w_lo + t])
            if nr < 0:
                return -1
        if r > 0:
            prev = bands[1 - (r & 1)]
            ra = np.int32(w_lo - 1)
            for cc in range(cols):
                e = prev[cc]
                v = np.int32(e) + abs(ra - np.int32(e >> 32))
                up[cc] = v if v >= 0 else big
        else:
            up[:] = big
        if r < mrows:
            rb = np.int32(w_lo + t)
            for cc in range(cols):
                e = band[cc]
                v = np.int32(e) + abs(rb - np.int32(e >> 32))
                down[cc] = v if v >= 0 else big
        else:
            down[:] = big
        for o in range(t):
            orow = out2[w_lo + o]
            qrow = occ2[w_lo + o]
            ou = np.int32(o + 1)
            od = np.int32(t - o)
            for cc in range(cols):
                v = min(up[cc] + ou, down[cc] + od)
                orow[cc] = v if (v < big) & (qrow[cc] == 0) else m1
        first = out2[w_lo]
        nw = 0
        for cc in range(cols):
            nw += 1 + (first[cc] >> 31)
        reached += t * nw
        if gi == 2 * r and gj % 2 == 1:
            # the goal's own passage: the root form
            c_lo = t + (gj // 2) * p
            for row in range(w_lo, w_lo + t):
                for cc in range(c_lo, c_lo + k):
                    out2[row, cc] = abs(row - gr) + abs(cc - gc)
        if r == mrows:
            break
        # the cell band of maze row r
        r_lo = w_lo + t
        reached += k * nr
        for row in range(r_lo, r_lo + k):
            band_row(out2[row], band, row)  # streamed: no read of the lines it overwrites
    store_fence()
    return reached


@njit(cache=True)
def _wall_band(r, occ2, out2, south, k, t, gi, gj, gr, gc, op_n, op_s, want, none):
    """Rows of the wall band above maze row ``r`` (posts and vertical passages).

    A passage entered from above continues the row above it one step a row,
    one entered from below the row below; the other is larger everywhere in
    it, so the minimum is the field. ``none``: a row of -1 for the outside.
    """
    rows, cols = south.shape
    p = k + t
    for q in range(cols):
        if r == 0:
            is_open = op_n[q] != 0
        elif r == rows:
            is_open = op_s[q] != 0
        else:
            is_open = not south[r - 1, q]
        for cc in range(t + q * p, (q + 1) * p):
            want[cc] = not is_open
    w_lo = r * p
    up = out2[w_lo - 1] if r > 0 else none
    down = out2[w_lo + t] if r < rows else none
    bad = np.uint8(0)
    reached = 0
    # int32 throughout (an int64 sentinel made every lane int64), and the
    # reached count and the occupancy check as branch-free sums: the loop
    # vectorizes (4001^2 braided corridor 3, the loops write with a warm output,
    # 9 interleaved calls: 48.4 -> 40.2 ms)
    big32 = np.int32(_BIG)
    m1 = np.int32(-1)
    for o in range(t):
        orow = out2[w_lo + o]
        qrow = occ2[w_lo + o]
        ou = np.int32(o + 1)
        od = np.int32(t - o)
        for cc in range(orow.shape[0]):
            u = up[cc]
            d = down[cc]
            a = u + ou if u >= 0 else big32
            b = d + od if d >= 0 else big32
            v = a if a < b else b
            v = v if (v < big32) & (want[cc] == 0) else m1
            orow[cc] = v
            reached += np.int64(v >= 0)
            bad |= qrow[cc] ^ want[cc]
    if gi == 2 * r and gj % 2 == 1:
        # the goal's own passage: the root form
        c_lo = t + (gj // 2) * p
        for row in range(w_lo, w_lo + t):
            for cc in range(c_lo, c_lo + k):
                out2[row, cc] = abs(row - gr) + abs(cc - gc)
    return bad != 0, reached


# mazes with loops: the most forms a cell may need before the BFS takes over,
# and the least pitch k + t at which the Dijkstra over forms beats the BFS
# (braided backtracker mazes at 4001^2, wall 1, against the label-array
# queue BFS: 0.4x at pitch 2, 1.06x at 3, 2.1x at 4, 3.0x at 5, 6.2x at 10;
# round 7: the bit-mask wave, robomaze/_search/_bitwave.py, beat the forms
# at pitch 4; round 8: with one packed word a cell, the side a form came in
# by skipped and the first form written as a row, the forms beat it there --
# benchmarks/README.md, "Issue 40, round 8 (r8-wave)")
_FORMS = 4
_LOOPS_MIN_PITCH = 4


#: bias of a form's point, stored relative to its cell's block corner in 16 bits
_REL = 1 << 15
_M16 = 0xFFFF


@njit(cache=True, inline="always")
def _below(key, a, rr, rc):
    """Whether packed form ``key`` is nowhere above form ``(a, rr, rc)`` (same block corner)."""
    return ((key >> 32) + abs(((key >> 16) & _M16) - _REL - rr)
            + abs((key & _M16) - _REL - rc)) <= a


@njit(cache=True)
def _walk_loops(east, south, k, t, gi, gj, gr, gc, op_w, op_e, op_n, op_s, f0, cnt, xi, pool):
    """Phase 1 on a maze with loops: each cell's field as the minimum of forms.

    A cell entered from several sides holds the minimum of the forms its
    neighbours' forms continue into it (each continued as in :func:`_walk`).
    Forms are settled in order of ``a`` (their least value in the cell: a
    Dijkstra over forms on a bucket queue); a form another settled form of
    the cell is below everywhere
    (``a1 + |p1 - p2|_1 <= a2``) is dropped, and so are its continuations,
    which the other's continuations are below too.

    A form is one int64, ``a << 32 | (pr + _REL) << 16 | (pc + _REL)`` with
    its point ``(pr, pc)`` relative to the cell's block corner: ``f0``
    (``rows*cols``) a cell's first form, ``cnt`` (int8) its forms times 16
    plus its open sides (N 1, E 2, S 4, W 8; written here), ``xi``
    (int32) the row of ``pool`` (``(m, _FORMS - 1)`` int64) holding the rest
    for a cell with more than one. One 8-byte word a cell where three
    ``(rows*cols, _FORMS)`` int32 arrays were (48 MB at 4001^2, past the
    last-level cache: the walk was a cache miss per array per cell, 85 ns a
    cell; benchmarks/README.md, "round 8 (r8-wave)"). False when a cell
    would need more than ``_FORMS`` forms, the pool is full, or the goal's
    block is not free in the maze.
    """
    rows, cols = east.shape
    p = k + t
    if p >= 1 << 14:
        return False
    # a bucket queue (Dial): a continuation adds 1 + t to k + t to ``a``, so
    # the pending forms span at most k + t + 1 values of ``a`` and a circular
    # array of a power of two >= k + t + 2 buckets orders them; entries are
    # recycled through a free chain, so the arrays hold the frontier only
    nb = 1
    while nb < p + 2:
        nb *= 2
    mask = nb - 1
    head = np.full(nb, -1, np.int32)
    cap = rows * cols + 1024
    ek = np.empty(cap, np.int64)
    eu = np.empty(cap, np.int64)        # row << 32 | column: no division a pop
    # the side an entry's form came in by: its continuation back out there is
    # a path into the block it left and back, never below that block's own
    # form (the block is a rectangle), so it is not made at all
    es = np.empty(cap, np.int8)
    nx = np.empty(cap, np.int32)
    used = 0
    spare = -1
    pending = 0
    npool = 0
    # seeds: (a, cell, pr, pc) of the goal's cell or of the cells beside its passage
    sa = np.empty(2, np.int64)
    su = np.empty(2, np.int64)
    sr = np.empty(2, np.int64)
    sc = np.empty(2, np.int64)
    sp = np.empty(2, np.int64)
    ns = _seeds(east, south, k, t, gi, gj, gr, gc, op_w, op_e, op_n, op_s, sa, su, sr, sc, sp)
    if ns == 0:
        return False
    cur = sa[0]
    for i in range(ns):
        cur = min(cur, sa[i])
        u = su[i]
        r = u // cols
        e = used
        used += 1
        ek[e] = ((sa[i] << 32) | ((sr[i] - t - r * p + _REL) << 16)
                 | (sc[i] - t - (u - r * cols) * p + _REL))
        eu[e] = (r << 32) | (u - r * cols)
        es[e] = 0
        nx[e] = head[sa[i] & mask]
        head[sa[i] & mask] = e
        pending += 1
    # a cell's open sides in the low 4 bits of its count's byte (the count
    # from bit 4): a pop reads one byte array where it read two, each a
    # cache line a cell of the frontier (4001^2 braided corridor 3, the
    # walk alone, 9 interleaved: 49.1 -> 42.6 ms)
    bits = _open_sides(east, south)
    for i in range(bits.shape[0]):
        cnt[i] = bits[i]
    while pending > 0:
        while head[cur & mask] < 0:
            cur += 1
        e = head[cur & mask]
        head[cur & mask] = nx[e]
        nx[e] = spare
        spare = e
        pending -= 1
        key = ek[e]
        r = eu[e] >> 32
        c = eu[e] & 0xFFFFFFFF
        came = np.int64(es[e])
        u = r * cols + c
        au = key >> 32
        ru = ((key >> 16) & _M16) - _REL
        cu = (key & _M16) - _REL
        nu = np.int64(cnt[u]) >> 4
        if nu > 0:
            if _below(f0[u], au, ru, cu):
                continue
            below = False
            for i in range(nu - 1):
                below |= _below(pool[xi[u], i], au, ru, cu)
            if below:
                continue
            if nu == _FORMS:
                return False
            if nu == 1:
                if npool == pool.shape[0]:
                    return False
                xi[u] = npool
                npool += 1
            pool[xi[u], nu - 1] = key
        else:
            f0[u] = key
        cnt[u] += 16
        r1 = t + r * p
        c1 = t + c * p
        pru = ru + r1
        pcu = cu + c1
        b = np.int64(cnt[u]) & 15 & ~came
        while b != 0:
            low = b & -b
            b ^= low
            vert = (low & 5) != 0
            far = (low & 6) != 0
            lo = r1 if vert else c1
            here = pru if vert else pcu
            av = au + abs(lo + (k - 1 if far else 0) - here) + 1 + t
            step = 1 if far else -1
            rv_ = r + (step if vert else 0)
            cv_ = c + (0 if vert else step)
            v = rv_ * cols + cv_
            # the point, relative to the next block's corner (``lo + step * p``)
            rel = (k + t if far else -t - 1) - step * p
            rv = rel if vert else ru
            cv = cu if vert else rel
            nv = np.int64(cnt[v]) >> 4
            if nv > 0:
                if _below(f0[v], av, rv, cv):
                    continue
                below = False
                for i in range(nv - 1):
                    below |= _below(pool[xi[v], i], av, rv, cv)
                if below:
                    continue
            if spare >= 0:
                e = spare
                spare = nx[e]
            elif used < cap:
                e = used
                used += 1
            else:
                return False  # a frontier wider than the maze: leave it to the BFS
            ek[e] = (av << 32) | ((rv + _REL) << 16) | (cv + _REL)
            eu[e] = (rv_ << 32) | cv_
            es[e] = ((low << 2) | (low >> 2)) & 15
            nx[e] = head[av & mask]
            head[av & mask] = e
            pending += 1
    return True


@njit(cache=True)
def _cell_band_loops(r, occ2, out2, east, k, t, gi, gj, gr, gc, op_w, op_e, f0, cnt, xi, pool,
                     terms, prows, want, multi, tmp, ispass):
    """:func:`_cell_band` with up to ``_FORMS`` forms a cell; passages from their cells.

    A horizontal passage is entered only from the cells beside it, so each
    of its cells is the smaller of the row's value beside it continued
    across (``left + 1 + o``, ``right + t - o``), written in a second pass
    over the row. With one-cell walls (``t == 1``) that pass is one loop
    over the row's columns (``ispass`` marks the passages' columns): the
    cells' values are computed into ``tmp`` (a cached row), and every
    column of the output is written once from it -- a passage the smaller
    neighbour plus one, a cell its own value -- where a loop over the
    passages (one in ``k + 1`` columns) rewrote them in place.
    """
    rows, cols = east.shape
    p = k + t
    base = r * cols
    # the first form of every cell as a row of terms; the cells holding more
    # (where two waves met: 0.7% of a braided corridor-3 maze's) are listed
    # and their rows recomputed over all their forms -- the minimum over
    # _FORMS slots for every cell was most of this band's time
    nmulti = 0
    r_lo = t + r * p
    for q in range(cols):
        u = base + q
        c0 = q * p + t
        live = cnt[u] >= 16
        key = f0[u] if live else np.int64(0)
        af = key >> 32 if live else _BIG
        pcf = (key & _M16) - _REL + c0
        prf = ((key >> 16) & _M16) - _REL + r_lo
        for cc in range(c0, c0 + k):
            terms[0, cc] = af + abs(cc - pcf)
            prows[0, cc] = prf
        if cnt[u] >= 32:
            multi[nmulti] = q
            nmulti += 1
    for q in range(cols + 1):
        if q == 0:
            closed = op_w[r] == 0
        elif q == cols:
            closed = op_e[r] == 0
        else:
            closed = east[r, q - 1]
        for cc in range(q * p, q * p + t):
            want[cc] = closed
            terms[0, cc] = _BIG
            prows[0, cc] = 0
    bad = np.uint8(0)
    reached = 0
    ncols = out2.shape[1]
    for row in range(r_lo, r_lo + k):
        orow = out2[row] if t > 1 else tmp
        qrow = occ2[row]
        t0 = terms[0]
        p0 = prows[0]
        for cc in range(orow.shape[0]):
            v = t0[cc] + abs(row - p0[cc])
            live = v < _BIG
            orow[cc] = v if live else -1
            reached += live                     # the passages' columns: never
            bad |= qrow[cc] ^ want[cc]
        for i in range(nmulti):
            q = multi[i]
            u = base + q
            c0 = q * p + t
            for cc in range(c0, c0 + k):
                v = np.int64(orow[cc])
                for f in range((cnt[u] >> 4) - 1):
                    key = pool[xi[u], f]
                    v = min(v, (key >> 32) + abs(cc - c0 - (key & _M16) + _REL)
                            + abs(row - r_lo - ((key >> 16) & _M16) + _REL))
                orow[cc] = v
        if t == 1:
            # columns 0 and ncols - 1 are the border's passages (one side
            # each); the rest in one branch-free loop over the row
            orow = out2[row]
            rb = np.int64(tmp[1])
            v = rb + 1 if rb >= 0 and want[0] == 0 else -1
            orow[0] = v
            reached += v >= 0
            lb = np.int64(tmp[ncols - 2])
            v = lb + 1 if lb >= 0 and want[ncols - 1] == 0 else -1
            orow[ncols - 1] = v
            reached += v >= 0
            big32 = np.int32(_BIG)
            m1 = np.int32(-1)
            for cc in range(1, ncols - 1):
                a = tmp[cc - 1]
                b = tmp[cc + 1]
                a = a if a >= 0 else big32
                b = b if b >= 0 else big32
                m = (a if a < b else b) + np.int32(1)
                pv = m if (m < big32) & (want[cc] == 0) else m1
                v = pv if ispass[cc] != 0 else tmp[cc]
                orow[cc] = v
                reached += np.int64((v >= 0) & (ispass[cc] != 0))
            if gi == 2 * r + 1 and gj % 2 == 0 and want[(gj // 2) * p] == 0:
                c_lo = (gj // 2) * p
                orow[c_lo] = abs(row - gr) + abs(c_lo - gc)  # the goal's own passage
            continue
        # the passages: no branch on the maze (open or closed is a coin toss
        # in a braid; a closed one gets -1 from its ``want``)
        for q in range(cols + 1):
            c_lo = q * p
            left = orow[c_lo - 1] if q > 0 else -1
            right = orow[c_lo + t] if q < cols else -1
            lv = np.int64(left) if left >= 0 else np.int64(_BIG)
            rv = np.int64(right) if right >= 0 else np.int64(_BIG)
            shut = want[c_lo] != 0
            for o in range(t):
                v = min(lv + 1 + o, rv + t - o)
                ok = (v < _BIG) & (not shut)
                orow[c_lo + o] = v if ok else -1
                reached += ok
        if gi == 2 * r + 1 and gj % 2 == 0 and want[(gj // 2) * p] == 0:
            c_lo = (gj // 2) * p
            for o in range(t):
                orow[c_lo + o] = abs(row - gr) + abs(c_lo + o - gc)  # the goal's own passage
    return bad != 0, reached


@njit(cache=True)
def _write_loops(occ, east, south, k, t, gi, gj, gr, gc, op_w, op_e, op_n, op_s, f0, cnt, xi,
                 pool, out):
    """Phase 2 for :func:`_walk_loops`'s forms; as :func:`_write`."""
    mrows, mcols = east.shape
    p = k + t
    rows = mrows * p + t
    cols = mcols * p + t
    out2 = out.reshape(rows, cols)
    occ2 = occ.reshape(rows, cols)
    terms = np.empty((_FORMS, cols), np.int64)
    prows = np.empty((_FORMS, cols), np.int64)
    want = np.zeros(cols, np.uint8)
    wall_want = np.ones(cols, np.uint8)
    none = np.full(cols, -1, np.int32)
    multi = np.empty(mcols, np.int64)
    tmp = np.empty(cols, np.int32)
    ispass = np.zeros(cols, np.uint8)
    for c in range(cols):
        ispass[c] = c % p < t
    reached = 0
    for r in range(mrows):
        bad, n = _cell_band_loops(r, occ2, out2, east, k, t, gi, gj, gr, gc, op_w, op_e, f0,
                                  cnt, xi, pool, terms, prows, want, multi, tmp, ispass)
        if bad:
            return -1
        reached += n
        bad, n = _wall_band(r, occ2, out2, south, k, t, gi, gj, gr, gc, op_n, op_s, wall_want,
                            none)
        if bad:
            return -1
        reached += n
    bad, n = _wall_band(mrows, occ2, out2, south, k, t, gi, gj, gr, gc, op_n, op_s, wall_want,
                        none)
    if bad:
        return -1
    return reached + n


def maze_field(grid, goal):
    """The 4-connected field of a widened maze in closed form, or None.

    ``grid``: an OccupancyGrid; ``goal``: a free ``(row, col)`` grid cell.
    Returns ``(dist, reached, kind)`` (``(rows, cols)`` int32, -1 where
    blocked or unreachable; the number of cells reached; ``"tree"`` when
    the goal's component has no loop, ``"loops"`` when its cells took the
    minimum of several forms) equal to the BFS wave's, or None when the fast
    path does not apply: no ``widening``/``maze``, a grid whose cells differ
    from the maze's blocks, or loops with a pitch ``k + t`` below
    ``_LOOPS_MIN_PITCH`` or a cell needing more than ``_FORMS`` forms. At
    pitch 2 (corridor = wall = 1) the field is read off the occupancy alone
    (:mod:`._thinmaze`; the walls are not used): a tree of that shape is
    labelled exactly even where it differs from the maze.

    >>> from robomaze.grid import widen
    >>> from robomaze.maze import Maze
    >>> import numpy as np
    >>> east = np.array([[False, True]]); south = np.array([[True, True]])
    >>> g = widen(Maze(east, south, openings=[(0, 1, "E")]), corridor=2, wall=1)
    >>> d, n, kind = maze_field(g, (1, 1))
    >>> d[1:3].tolist(), n, kind
    ([[-1, 0, 1, 2, 3, 4, 5], [-1, 1, 2, 3, 4, 5, 6]], 12, 'tree')
    >>> maze_field(g.replace(widening=None), (1, 1)) is None
    True
    """
    walls = _walls(grid, goal)
    if walls is None:
        return None
    rows, cols = grid.shape
    return _closed_form(grid.occupied.view(np.uint8).ravel(), rows, cols, walls)


def structure_field(occ, structure, goal):
    """:func:`maze_field` for a grid whose maze was read from its occupancy.

    ``occ``: the ``(rows, cols)`` bool occupancy; ``structure``: what
    :func:`robomaze._search._detect.detect_maze` returned for it, ``(east,
    south, k, t, op_w, op_e, op_n, op_s)``. Same result, or None when it
    does not apply (the bands' occupancy is checked as they are written, so a
    grid the detection misread falls back to the BFS).
    """
    rows, cols = occ.shape
    east, south, k, t, op_w, op_e, op_n, op_s = structure
    walls = _goal_walls(rows, cols, east, south, k, t, op_w, op_e, op_n, op_s, goal)
    if walls is None:
        return None
    return _closed_form(np.ascontiguousarray(occ).view(np.uint8).ravel(), rows, cols, walls)


def _closed_form(occ, rows, cols, walls):
    """The closed form's two phases over flat uint8 ``occ``: ``(dist, reached, kind)`` or None."""
    n = walls[0].size
    east, south = walls[0], walls[1]
    if walls[2] == 1 and walls[3] == 1:
        # pitch 2: the grid is the maze matrix; a walk over its cells writes
        # the field directly (:mod:`._thinmaze`), faster than forms and bands
        from ._thinmaze import THIN_MAX_CELLS, thin_maze_field

        got = thin_maze_field(occ.reshape(rows, cols).view(np.bool_), (walls[6], walls[7]))
        if got is not None:
            return got[0], got[1], "tree"
        if rows * cols > THIN_MAX_CELLS:
            return None           # the BFS's tree walk: the forms cost more at this pitch
    # more open passages than a tree of n cells has: loops. Below the loops
    # pitch the forms do not take them; from it the tree walk is not tried
    # first (it would go round a loop until it passed n cells)
    loopy = (east[:, :-1].size - np.count_nonzero(east[:, :-1])
             + south[:-1].size - np.count_nonzero(south[:-1]) >= n)
    if loopy and walls[2] + walls[3] < _LOOPS_MIN_PITCH:
        return None
    # the output faulted in before any walk, the scratch on 4 KiB pages:
    # numpy's fresh huge pages met a walk after the last free cost up to
    # 0.6 s of system time at 8001^2 (``fresh``, ``populated``:
    # benchmarks/README.md, "Issue 40, round 9 (r9-wave)")
    out = fresh(rows * cols, np.int32)
    kind = "tree"
    form = populated(n, np.int64) if not loopy else None
    if not loopy and _walk(*walls, form) >= 0:
        reached = _write(occ, *walls, form, out)
    else:
        # a loop where the goal is (or a goal block the maze says is a wall)
        del form
        if walls[2] + walls[3] < _LOOPS_MIN_PITCH:
            return None
        kind = "loops"
        f0 = populated(n, np.int64)
        cnt = populated(n, np.int8)
        # written only where a cell holds more than one form: pages on demand
        xi = _scratch(n, np.int32)
        # cells holding more than one form (where waves meet): 0.7% of a
        # braided corridor-3 maze's; more than 1/8 sends the grid to the BFS
        pool = _scratch((n // 8 + 64) * (_FORMS - 1), np.int64).reshape(-1, _FORMS - 1)
        if not _walk_loops(*walls, f0, cnt, xi, pool):
            return None
        reached = _write_loops(occ, *walls, f0, cnt, xi, pool, out)
    if reached < 0:
        return None
    return out.reshape(rows, cols), int(reached), kind


def _walls(grid, goal):
    """The kernels' description of a widened grid's maze and goal block, or None."""
    wd, maze = grid.widening, grid.maze
    if wd is None or maze is None or (maze.rows, maze.cols) != (wd.rows, wd.cols):
        return None
    ops = {"N": np.zeros(wd.cols, np.uint8), "S": np.zeros(wd.cols, np.uint8),
           "W": np.zeros(wd.rows, np.uint8), "E": np.zeros(wd.rows, np.uint8)}
    for r, c, side in maze.openings:
        ops[side][c if side in "NS" else r] = 1
    return _goal_walls(grid.rows, grid.cols, np.ascontiguousarray(maze.east),
                       np.ascontiguousarray(maze.south), wd.corridor, wd.wall,
                       ops["W"], ops["E"], ops["N"], ops["S"], goal)


def _goal_walls(rows, cols, east, south, k, t, op_w, op_e, op_n, op_s, goal):
    """The kernels' tuple for a maze of walls ``east``/``south`` widened ``(k, t)``, or None."""
    p = k + t
    if (rows, cols) != (east.shape[0] * p + t, east.shape[1] * p + t):
        return None
    if rows * cols >= _BIG:
        return None  # a distance could reach the unreached marker
    gr, gc = int(goal[0]), int(goal[1])
    qr, rr = divmod(gr, p)
    qc, rc = divmod(gc, p)
    gi = 2 * qr + (rr >= t)
    gj = 2 * qc + (rc >= t)
    return (east, south, k, t, gi, gj, gr, gc, op_w, op_e, op_n, op_s)
