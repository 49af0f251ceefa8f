"""Octile fields of grids without obstacles by row sweeps: no queue, the bucket ring's values bit for bit.

The bucket ring (:mod:`._octile`) sets every cell to the smallest of its
neighbours' offers ``g[u] + 1`` or ``g[u] + sqrt 2`` (float64 sums,
no corner cutting). That field is the unique fixed point of the update
``g[v] = min(g[v], g[u] + w(u, v))`` over all legal moves: offers along a
shortest path and off it differ by far more than their rounding, so no
order of updates can settle on other values. Any sweep order that reaches
the fixed point therefore gives the ring's field *bit for bit*.

A *pass* runs down (or up) the rows; each row takes its three offers from
the row before it (branch-free, so it vectorises), then one scan left to
right and one right to left along the row (each cell's offer from its west
or east neighbour). A down pass then an up pass give every cell the best
path that is monotone in rows; on a grid without obstacles that is a
shortest path, so one such round is the whole field. The result is then
*checked*: a pass over every cell and its eight legal moves confirms that
no offer improves any cell (the fixed point). Where one does (obstacles
make a shortest path turn back), further rounds run, up to a bound, and
then the caller takes the ring instead; the result is exact either way.

Chosen only for grids without a blocked cell (:mod:`._octile_field`),
where one round and the check cost a fraction of the ring's eight offers
per cell; on grids with obstacles a round fixes one turn of every path,
and random or maze grids need tens (benchmarks/README.md, "Issue 40,
round 9").
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["sweep_field", "sweep_pays"]

SQRT2 = 2.0 ** 0.5
ROUNDS = 2      # rounds (a down and an up pass) before the repair
WINDOW = 256    # side of the window about a source that predicts whether sweeps pay
PAYS = 0.15     # the share of a window's free cells the repair may queue where they pay


@njit(cache=True)
def _pass(fp, g, rows, pc, down):
    """One pass down (or up) the padded rows: offers from the row before, then along the row.

    Blocked cells keep inf throughout, so an offer *from* one is inf already
    and only the cells an offer goes to, and a diagonal's two sides, are
    tested. Rows are read through 1-D views: with plain offsets from the
    row's start the first loop vectorises (6x faster at 4001^2).
    """
    inf = np.inf
    changed = 0
    for rr in range(rows):
        r = rr + 1 if down else rows - rr
        o = r * pc
        a = o - pc if down else o + pc            # the row swept just before
        G = g[o:o + pc]
        F = fp[o:o + pc]
        A = g[a:a + pc]
        FA = fp[a:a + pc]
        acc = 0
        # every load unconditional, then a select: no branch in the loop
        for c in range(1, pc - 1):
            f = F[c]
            best = G[c]
            x = A[c] + 1.0
            x = x if f else inf
            best = x if x < best else best
            vert = f & FA[c]
            y = A[c - 1] + SQRT2
            y = y if vert & F[c - 1] else inf
            best = y if y < best else best
            z = A[c + 1] + SQRT2
            z = z if vert & F[c + 1] else inf
            best = z if z < best else best
            acc += best < G[c]
            G[c] = best
        prev = G[1]
        for c in range(2, pc - 1):
            cur = G[c]
            x = prev + 1.0
            if F[c] and x < cur:
                cur = x
                G[c] = x
                acc += 1
            prev = cur
        prev = G[pc - 2]
        for c in range(pc - 3, 0, -1):
            cur = G[c]
            x = prev + 1.0
            if F[c] and x < cur:
                cur = x
                G[c] = x
                acc += 1
            prev = cur
        changed += acc
    return changed


@njit(cache=True)
def _settled(fp, g, rows, pc):
    """Whether no legal move offers any cell less than it has (the fixed point).

    As in :func:`_pass`, an offer from a blocked cell is inf already.
    """
    inf = np.inf
    for r in range(1, rows + 1):
        o = r * pc
        G = g[o:o + pc]
        F = fp[o:o + pc]
        N = g[o - pc:o]
        FN = fp[o - pc:o]
        S = g[o + pc:o + 2 * pc]
        FS = fp[o + pc:o + 2 * pc]
        bad = 0
        # selects and one count, no exit inside the row: the loop vectorises
        for c in range(1, pc - 1):
            f = F[c]
            m = N[c]
            x = S[c]
            m = x if x < m else m
            x = G[c - 1]
            m = x if x < m else m
            x = G[c + 1]
            m = x if x < m else m
            n = FN[c] & f
            s = FS[c] & f
            w = F[c - 1]
            e = F[c + 1]
            d = N[c - 1]
            d = d if n & w else inf
            x = N[c + 1]
            x = x if n & e else inf
            d = x if x < d else d
            x = S[c - 1]
            x = x if s & w else inf
            d = x if x < d else d
            x = S[c + 1]
            x = x if s & e else inf
            d = x if x < d else d
            gv = G[c] if f else -inf                 # a blocked cell takes no offer
            bad += (m + 1.0 < gv) | (d + SQRT2 < gv)
        if bad:
            return False
    return True


@njit(cache=True)
def _fill(g, fp, sources):
    for i in range(g.shape[0]):
        g[i] = np.inf
    for s in sources:
        if fp[s]:
            g[s] = 0.0


def sweep_field(fp, cols: int, sources, rounds: int = ROUNDS, limit: int | None = None):
    """``(field, work)``: the padded octile field of ``fp`` from padded ``sources`` by sweeps.

    ``rounds`` rounds of sweeps; if they have not settled, the cells still
    wrong are corrected by :func:`._octile_repair.repair_field` (``work``:
    the cells it queued, 0 if the sweeps settled). The field is None if
    more than ``limit`` cells (default: all) needed seeding; the caller then
    runs the ring. Blocked sources are ignored.

    >>> from robomaze._search import _padded
    >>> g, work = sweep_field(_padded(np.ones((2, 3), bool), 2, 3), 3, np.array([6]))
    >>> g.reshape(4, 5)[1:-1, 1:-1].round(3), work
    (array([[0.   , 1.   , 2.   ],
           [1.   , 1.414, 2.414]]), 0)
    """
    from ._octile_repair import repair_field

    n = fp.shape[0]
    pc = cols + 2
    rows = n // pc - 2
    g = np.empty(n)
    _fill(g, fp, np.asarray(sources, np.int64))
    for _ in range(rounds):
        _pass(fp, g, rows, pc, True)
        _pass(fp, g, rows, pc, False)
        if _settled(fp, g, rows, pc):
            return g, 0
    work = repair_field(fp, cols, g, n if limit is None else limit)
    return (None, -1) if work < 0 else (g, work)


def sweep_pays(free: np.ndarray, sources: np.ndarray) -> bool:
    """Whether sweeps and repair beat the ring on ``free``, judged on a window about the first source.

    The chooser's prediction for the whole grid (``sources``: flat indices
    of free cells): a :data:`WINDOW`-wide square about the first source,
    cut out as a grid of its own, is swept and repaired (a few hundredths
    of the whole field's cost); the sweeps pay where the repair queued at
    most :data:`PAYS` of its free cells. Open grids, rooms with doors and
    sparse random obstacles pass; mazes (every path turns back) and dense
    random grids do not. A wrong prediction costs time only: the whole
    grid's repair gives up past the same share and the ring takes over.

    >>> free = np.ones((40, 50), bool)
    >>> sweep_pays(free, np.array([0]))
    True
    >>> for k in range(1, 50, 4):     # walls across, doors at the bottom and top in turn
    ...     free[:, k] = False
    ...     free[39 if k % 8 == 1 else 0, k] = True
    >>> sweep_pays(free, np.array([0]))
    False
    """
    from . import _padded, _to_padded

    if sources.size == 0:
        return True
    rows, cols = free.shape
    r, c = divmod(int(sources[0]), cols)
    h = WINDOW // 2
    r0, c0 = max(r - h, 0), max(c - h, 0)
    r1, c1 = min(r0 + WINDOW, rows), min(c0 + WINDOW, cols)
    sub = np.ascontiguousarray(free[r0:r1, c0:c1])
    sr, sc = np.divmod(sources, cols)
    inside = (sr >= r0) & (sr < r1) & (sc >= c0) & (sc < c1)
    local = (sr[inside] - r0) * (c1 - c0) + sc[inside] - c0
    fp = _padded(sub, r1 - r0, c1 - c0)
    limit = int(PAYS * sub.sum())
    g, work = sweep_field(fp, c1 - c0, _to_padded(local, r1 - r0, c1 - c0).astype(np.int64),
                          limit=limit)
    return g is not None and work <= limit
