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
goal's block, depth first, giving each cell its ``(a, pr, pc)`` and the side
of its parent, and gives up on a cycle (a braided maze; the wave's fallback is
exact). Phase 2 writes the int32 field band by band in one streaming pass.
A band of cells (``k`` grid rows) lays out one row of per-column terms
(``a + |c - pc|`` and ``pr`` of the block the column is in; a passage's form
is that of the cell entered through it moved back by ``t``, an opening's
its cell's continued), and each of its rows is ``max(term + |r - pr|, -1)``,
a branch-free loop. A wall band (``t`` rows of posts and vertical passages)
is the minimum of the row above continued down and the row below continued
up (the one on the parent's side is the field, the other larger), -1 on
posts and closed passages. The goal's own passage is then written with the
root form. Meanwhile the occupancy bytes are compared with what the maze
says each block is (a user can pair an ``OccupancyGrid`` with a ``maze``
that does not match it): any difference and the caller falls back to the
BFS.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# the side of a cell its parent lies on, as the bit of that side in a cell's
# open-sides mask; ROOT: the goal is in this cell (no side)
_N, _E, _S, _W, _ROOT = 1, 2, 4, 8, 0


_BIG = 1 << 30  # the form's ``a`` of a cell the walk did not reach
_NEG = -(1 << 30)  # a term that leaves any row value below -1: blocked or unreached


@njit(cache=True)
def _open_sides(east, south):
    """The open sides of every cell as bits (N 1, E 2, S 4, W 8), flat, in one pass.

    The maze's outline counts as closed (openings are leaf passages, not
    sides to another cell); the walks read one byte per cell.
    """
    rows, cols = east.shape
    n = rows * cols
    e = east.ravel()
    s = south.ravel()
    bits = np.empty(n, np.uint8)
    for u in range(cols):
        bits[u] = (np.uint8(not e[u]) << 1) | (np.uint8(not s[u]) << 2)
    for u in range(cols, n):
        bits[u] = np.uint8(not s[u - cols]) | (np.uint8(not e[u]) << 1) | (np.uint8(not s[u]) << 2)
    for r in range(rows):
        for u in range(r * cols + 1, (r + 1) * cols):
            bits[u] |= np.uint8(not e[u - 1]) << 3
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
def _walk(east, south, k, t, gi, gj, gr, gc, op_w, op_e, op_n, op_s, a, pr, pc, par):
    """Phase 1: ``(a, pr, pc)`` of every cell reached (``a`` = _BIG elsewhere); False on a cycle.

    ``a, pr, pc``: flat int32 arrays of ``rows*cols``; ``par`` (int8) gets
    the bit of the side each reached cell's parent lies on (``_ROOT`` for
    the goal's cell), -1 elsewhere. ``(gi, gj)``: the goal's block in
    maze-matrix coordinates, ``(gr, gc)`` the goal grid cell.
    """
    rows, cols = east.shape
    p = k + t
    n = rows * cols
    a[:] = _BIG
    par[:] = -1
    st_r = np.empty(n + 4, np.int32)
    st_c = np.empty(n + 4, np.int32)
    top = 0
    sa = np.empty(2, np.int64)
    su = np.empty(2, np.int64)
    sr = np.empty(2, np.int64)
    sc = np.empty(2, np.int64)
    sp = np.empty(2, np.int64)
    ns = _seeds(east, south, k, t, gi, gj, gr, gc, op_w, op_e, op_n, op_s, sa, su, sr, sc, sp)
    if ns == 0:
        return False
    for i in range(ns):
        u = su[i]
        a[u] = sa[i]
        pr[u] = sr[i]
        pc[u] = sc[i]
        par[u] = sp[i]
        st_r[top] = u // cols
        st_c[top] = u - (u // cols) * cols
        top += 1
    bits = _open_sides(east, south)
    while top > 0:
        top -= 1
        r = st_r[top]
        c = st_c[top]
        u = r * cols + c
        back = np.int64(par[u])
        au = a[u]
        pru = pr[u]
        pcu = pc[u]
        # follow the first open side in registers (a corridor is one long
        # chain of such steps), push the others; sides are bits, picked and
        # decoded with arithmetic, so the next cell's address is a few ALU
        # operations after this cell's load
        while True:
            b = np.int64(bits[u]) & ~back
            if b == 0:
                break
            r1 = t + r * p
            c1 = t + c * p
            nxt = True
            while b != 0:
                low = b & -b
                b ^= low
                vert = (low & 5) != 0  # N or S
                far = (low & 6) != 0  # E or S: the cell's last line, a step forward
                lo = r1 if vert else c1
                here = pru if vert else pcu
                av = au + abs(lo + (k - 1 if far else 0) - here) + 1 + t
                new = lo + (k + t if far else -t - 1)
                step = 1 if far else -1
                rv = r + (step if vert else 0)
                cv = c + (0 if vert else step)
                v = rv * cols + cv
                if par[v] >= 0:
                    return False  # reached twice: the goal's component has a cycle
                prv = new if vert else pru
                pcv = pcu if vert else new
                backv = ((low << 2) | (low >> 2)) & 15  # the opposite side
                a[v] = av
                pr[v] = prv
                pc[v] = pcv
                par[v] = backv
                if nxt:
                    nr, nc, nu, na, npr, npc, nback = rv, cv, v, av, prv, pcv, backv
                    nxt = False
                else:
                    st_r[top] = rv
                    st_c[top] = cv
                    top += 1
            r, c, u, au, pru, pcu, back = nr, nc, nu, na, npr, npc, nback
    return True


@njit(cache=True)
def _cell_band(r, occ2, out2, east, k, t, gi, gj, gr, gc, op_w, op_e, a, pr, pc, par,
               term, prow, want):
    """Rows of maze row ``r``'s cells and horizontal passages; (mismatch, cells reached)."""
    rows, cols = east.shape
    p = k + t
    base = r * cols
    for q in range(cols + 1):
        # the passage west of cell q: the cell entered through it holds the
        # passage's form moved on by t; an opening (q = 0 or cols) is a leaf,
        # the child of its one cell
        c_lo = q * p
        if q == 0:
            closed = op_w[r] == 0
            into_r = into_l = False
        elif q == cols:
            closed = op_e[r] == 0
            into_r = into_l = False
        else:
            closed = east[r, q - 1]
            into_r = par[base + q] == _W
            into_l = par[base + q - 1] == _E
        ql = base + max(q - 1, 0)
        qr = base + min(q, cols - 1)
        sel = qr if into_r else ql
        af = a[sel] - t
        pcf = pc[sel] + (-t if into_r else t)
        prf = pr[sel]
        dead = np.int32(not into_r) & np.int32(not into_l)
        if q == 0 or q == cols:
            sel = qr if q == 0 else ql
            af = a[sel] + (abs(c_lo + t - pc[sel]) if q == 0 else abs(c_lo - 1 - pc[sel])) + 1
            pcf = c_lo + t - 1 if q == 0 else c_lo
            prf = pr[sel]
            dead = np.int32(af >= _BIG)
        af = _NEG if np.int32(closed) | dead else af
        for cc in range(c_lo, c_lo + t):
            term[cc] = af + abs(cc - pcf)
            prow[cc] = prf
            want[cc] = closed
        if q < cols:
            ac = a[base + q]
            pcc = pc[base + q]
            if ac >= _BIG:
                ac = _NEG
            prc = pr[base + q]
            for cc in range(c_lo + t, c_lo + p):
                term[cc] = ac + abs(cc - pcc)
                prow[cc] = prc
    if gi == 2 * r + 1 and gj % 2 == 0:
        # the goal's own passage: the root form
        for cc in range((gj // 2) * p, (gj // 2) * p + t):
            term[cc] = abs(cc - gc)
            prow[cc] = gr
    bad = np.uint8(0)
    reached = 0
    r_lo = t + r * p
    for row in range(r_lo, r_lo + k):
        orow = out2[row]
        qrow = occ2[row]
        ri = np.int32(row)
        for cc in range(orow.shape[0]):
            v = max(term[cc] + abs(ri - prow[cc]), -1)
            orow[cc] = v
            reached += v >= 0
            bad |= qrow[cc] ^ want[cc]
    return bad != 0, reached


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
    for o in range(t):
        orow = out2[w_lo + o]
        qrow = occ2[w_lo + o]
        ou = np.int32(o + 1)
        od = np.int32(t - o)
        for cc in range(orow.shape[0]):
            u = up[cc]
            d = down[cc]
            v = min(u + ou if u >= 0 else _BIG, d + od if d >= 0 else _BIG)
            v = v if v < _BIG and want[cc] == 0 else -1
            orow[cc] = v
            reached += v >= 0
            bad |= qrow[cc] ^ want[cc]
    if gi == 2 * r and gj % 2 == 1:
        # the goal's own passage: the root form
        c_lo = t + (gj // 2) * p
        for row in range(w_lo, w_lo + t):
            for cc in range(c_lo, c_lo + k):
                out2[row, cc] = abs(row - gr) + abs(cc - gc)
    return bad != 0, reached


@njit(cache=True)
def _write(occ, east, south, k, t, gi, gj, gr, gc, op_w, op_e, op_n, op_s, a, pr, pc, par,
           out):
    """Phase 2: the field into ``out`` (flat int32, rows*cols) from the cells' forms.

    Cell bands first, then the wall band above each (it reads the rows on both
    sides of it). Returns the number of cells reached, or -1 if ``occ``
    (flat uint8, 1 = blocked) differs anywhere from the blocks the maze
    describes.
    """
    mrows, mcols = east.shape
    p = k + t
    rows = mrows * p + t
    cols = mcols * p + t
    out2 = out.reshape(rows, cols)
    occ2 = occ.reshape(rows, cols)
    term = np.empty(cols, np.int32)
    prow = np.empty(cols, np.int32)
    want = np.zeros(cols, np.uint8)  # cells' columns stay 0; the passages' are set per band
    wall_want = np.ones(cols, np.uint8)  # posts stay 1
    none = np.full(cols, -1, np.int32)
    reached = 0
    for r in range(mrows):
        bad, n = _cell_band(r, occ2, out2, east, k, t, gi, gj, gr, gc, op_w, op_e, a, pr, pc,
                            par, term, prow, want)
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


# mazes with loops: the most forms a cell may need before the BFS takes over,
# and the least pitch k + t at which the Dijkstra over forms beats the BFS
# (braided backtracker mazes at 4001^2, wall 1: 0.4x at pitch 2, 1.06x at 3,
# 2.1x at 4, 3.0x at 5, 6.2x at 10)
_FORMS = 4
_LOOPS_MIN_PITCH = 4


@njit(cache=True)
def _walk_loops(east, south, k, t, gi, gj, gr, gc, op_w, op_e, op_n, op_s, fa, fr, fc, cnt):
    """Phase 1 on a maze with loops: each cell's field as the minimum of forms.

    A cell entered from several sides holds the minimum of the forms its
    neighbours' forms continue into it (each continued as in :func:`_walk`).
    Forms are settled in order of ``a`` (their least value in the cell: a
    Dijkstra over forms on a bucket queue); a form another settled form of
    the cell is below everywhere
    (``a1 + |p1 - p2|_1 <= a2``) is dropped, and so are its continuations,
    which the other's continuations are below too. ``fa, fr, fc``:
    ``(rows*cols, _FORMS)`` int32, ``cnt`` the forms per cell. False when a
    cell would need more than ``_FORMS`` forms or the goal's block is not
    free in the maze.
    """
    rows, cols = east.shape
    p = k + t
    cnt[:] = 0
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
    ea = np.empty(cap, np.int32)
    eu = np.empty(cap, np.int32)
    er = np.empty(cap, np.int32)
    ec = np.empty(cap, np.int32)
    nx = np.empty(cap, np.int32)
    used = 0
    spare = -1
    pending = 0
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
        e = used
        used += 1
        ea[e] = sa[i]
        eu[e] = su[i]
        er[e] = sr[i]
        ec[e] = sc[i]
        nx[e] = head[sa[i] & mask]
        head[sa[i] & mask] = e
        pending += 1
    bits = _open_sides(east, south)
    while pending > 0:
        while head[cur & mask] < 0:
            cur += 1
        e = head[cur & mask]
        head[cur & mask] = nx[e]
        nx[e] = spare
        spare = e
        pending -= 1
        au = np.int64(ea[e])
        u = np.int64(eu[e])
        pru = np.int64(er[e])
        pcu = np.int64(ec[e])
        below = False
        for i in range(cnt[u]):
            if fa[u, i] + abs(fr[u, i] - pru) + abs(fc[u, i] - pcu) <= au:
                below = True
        if below:
            continue
        if cnt[u] == _FORMS:
            return False
        fa[u, cnt[u]] = au
        fr[u, cnt[u]] = pru
        fc[u, cnt[u]] = pcu
        cnt[u] += 1
        r = u // cols
        c = u - r * cols
        r1 = t + r * p
        c1 = t + c * p
        b = np.int64(bits[u])
        while b != 0:
            low = b & -b
            b ^= low
            vert = (low & 5) != 0
            far = (low & 6) != 0
            lo = r1 if vert else c1
            here = pru if vert else pcu
            av = au + abs(lo + (k - 1 if far else 0) - here) + 1 + t
            new = lo + (k + t if far else -t - 1)
            step = 1 if far else -1
            v = (r + (step if vert else 0)) * cols + c + (0 if vert else step)
            prv = new if vert else pru
            pcv = pcu if vert else new
            below = False
            for i in range(cnt[v]):
                if fa[v, i] + abs(fr[v, i] - prv) + abs(fc[v, i] - pcv) <= av:
                    below = True
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
            ea[e] = av
            eu[e] = v
            er[e] = prv
            ec[e] = pcv
            nx[e] = head[av & mask]
            head[av & mask] = e
            pending += 1
    return True


@njit(cache=True)
def _cell_band_loops(r, occ2, out2, east, k, t, gi, gj, gr, gc, op_w, op_e, fa, fr, fc, cnt,
                     terms, prows, want):
    """:func:`_cell_band` with up to ``_FORMS`` forms a cell; passages from their cells.

    A horizontal passage is entered only from the cells beside it, so each
    of its cells is the smaller of the row's value beside it continued
    across (``left + 1 + o``, ``right + t - o``), written in a second pass
    over the row.
    """
    rows, cols = east.shape
    p = k + t
    base = r * cols
    for q in range(cols):
        u = base + q
        c0 = q * p + t
        for f in range(_FORMS):
            live = f < cnt[u]
            af = fa[u, f] if live else _BIG
            pcf = fc[u, f] if live else 0
            prf = fr[u, f] if live else 0
            for cc in range(c0, c0 + k):
                terms[f, cc] = af + abs(cc - pcf)
                prows[f, cc] = prf
    for q in range(cols + 1):
        if q == 0:
            closed = op_w[r] == 0
        elif q == cols:
            closed = op_e[r] == 0
        else:
            closed = east[r, q - 1]
        for cc in range(q * p, q * p + t):
            want[cc] = closed
            for f in range(_FORMS):
                terms[f, cc] = _BIG
                prows[f, cc] = 0
    bad = np.uint8(0)
    reached = 0
    r_lo = t + r * p
    for row in range(r_lo, r_lo + k):
        orow = out2[row]
        qrow = occ2[row]
        for cc in range(orow.shape[0]):
            v = terms[0, cc] + abs(row - prows[0, cc])
            for f in range(1, _FORMS):
                v = min(v, terms[f, cc] + abs(row - prows[f, cc]))
            orow[cc] = v if v < _BIG else -1
            bad |= qrow[cc] ^ want[cc]
        for q in range(cols + 1):
            c_lo = q * p
            if want[c_lo]:
                continue
            left = orow[c_lo - 1] if q > 0 else -1
            right = orow[c_lo + t] if q < cols else -1
            for o in range(t):
                if gi == 2 * r + 1 and gj == 2 * q:
                    v = abs(row - gr) + abs(c_lo + o - gc)  # the goal's own passage
                else:
                    v = min(left + 1 + o if left >= 0 else _BIG,
                            right + t - o if right >= 0 else _BIG)
                orow[c_lo + o] = v if v < _BIG else -1
        for cc in range(orow.shape[0]):
            reached += orow[cc] >= 0
    return bad != 0, reached


@njit(cache=True)
def _write_loops(occ, east, south, k, t, gi, gj, gr, gc, op_w, op_e, op_n, op_s, fa, fr, fc,
                 cnt, out):
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
    reached = 0
    for r in range(mrows):
        bad, n = _cell_band_loops(r, occ2, out2, east, k, t, gi, gj, gr, gc, op_w, op_e, fa,
                                  fr, fc, cnt, terms, prows, want)
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
    ``_LOOPS_MIN_PITCH`` or a cell needing more than ``_FORMS`` forms.

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
    n = walls[0].size
    a = np.empty(n, np.int32)
    pr = np.zeros(n, np.int32)
    pc = np.zeros(n, np.int32)
    par = np.empty(n, np.int8)
    rows, cols = grid.shape
    occ = grid.occupied.view(np.uint8).ravel()
    kind = "tree"
    if _walk(*walls, a, pr, pc, par):
        out = np.empty(rows * cols, np.int32)
        reached = _write(occ, *walls, a, pr, pc, par, out)
    else:
        # a loop where the goal is (or a goal block the maze says is a wall)
        del a, pr, pc, par
        if walls[2] + walls[3] < _LOOPS_MIN_PITCH:
            return None
        kind = "loops"
        fa = np.empty((n, _FORMS), np.int32)
        fr = np.empty((n, _FORMS), np.int32)
        fc = np.empty((n, _FORMS), np.int32)
        cnt = np.empty(n, np.int8)
        if not _walk_loops(*walls, fa, fr, fc, cnt):
            return None
        out = np.empty(rows * cols, np.int32)
        reached = _write_loops(occ, *walls, fa, fr, fc, cnt, out)
    if reached < 0:
        return None
    return out.reshape(rows, cols), int(reached), kind


def _walls(grid, goal):
    """The kernels' description of a widened grid's maze and goal block, or None."""
    wd, maze = grid.widening, grid.maze
    if wd is None or maze is None or (maze.rows, maze.cols) != (wd.rows, wd.cols):
        return None
    k, t = wd.corridor, wd.wall
    p = k + t
    if grid.shape != (wd.rows * p + t, wd.cols * p + t):
        return None
    if grid.rows * grid.cols >= _BIG:
        return None  # a distance could reach the unreached marker
    gr, gc = int(goal[0]), int(goal[1])
    qr, rr = divmod(gr, p)
    qc, rc = divmod(gc, p)
    gi = 2 * qr + (rr >= t)
    gj = 2 * qc + (rc >= t)
    ops = {"N": np.zeros(wd.cols, np.uint8), "S": np.zeros(wd.cols, np.uint8),
           "W": np.zeros(wd.rows, np.uint8), "E": np.zeros(wd.rows, np.uint8)}
    for r, c, side in maze.openings:
        ops[side][c if side in "NS" else r] = 1
    return (maze.east, maze.south, k, t, gi, gj, gr, gc, ops["W"], ops["E"], ops["N"], ops["S"])
