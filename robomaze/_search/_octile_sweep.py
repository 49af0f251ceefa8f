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

__all__ = ["sweep_field"]

SQRT2 = 2.0 ** 0.5
ROUNDS = 4      # rounds (a down and an up pass) before the caller takes the ring


@njit(cache=True)
def _pass(fp, g, rows, pc, down):
    """One pass down (or up) the padded rows: offers from the row before, then along the row."""
    changed = False
    for rr in range(rows):
        r = rr + 1 if down else rows - rr
        o = r * pc
        a = o - pc if down else o + pc            # the row swept just before
        acc = 0
        for c in range(1, pc - 1):
            v = o + c
            gv = g[v]
            best = gv
            vert = fp[v] & fp[a + c]
            x = g[a + c] + 1.0
            x = x if vert else np.inf
            best = x if x < best else best
            y = g[a + c - 1] + SQRT2
            y = y if vert & fp[v - 1] & fp[a + c - 1] else np.inf
            best = y if y < best else best
            z = g[a + c + 1] + SQRT2
            z = z if vert & fp[v + 1] & fp[a + c + 1] else np.inf
            best = z if z < best else best
            acc |= best < gv
            g[v] = best
        prev = g[o + 1]
        pf = fp[o + 1]
        for c in range(2, pc - 1):
            v = o + c
            f = fp[v]
            cur = g[v]
            x = prev + 1.0
            if (f & pf) != 0 and x < cur:
                cur = x
                g[v] = x
                acc |= True
            prev = cur
            pf = f
        prev = g[o + pc - 2]
        pf = fp[o + pc - 2]
        for c in range(pc - 3, 0, -1):
            v = o + c
            f = fp[v]
            cur = g[v]
            x = prev + 1.0
            if (f & pf) != 0 and x < cur:
                cur = x
                g[v] = x
                acc |= True
            prev = cur
            pf = f
        changed |= acc != 0
    return changed


@njit(cache=True)
def _settled(fp, g, rows, pc):
    """Whether no legal move offers any cell less than it has (the fixed point)."""
    inf = np.inf
    for r in range(1, rows + 1):
        o = r * pc
        bad = 0
        # selects and one count, no exit inside the row: the loop vectorises
        for c in range(1, pc - 1):
            v = o + c
            f = fp[v]
            n = fp[v - pc] & f
            s = fp[v + pc] & f
            w = fp[v - 1] & f
            e = fp[v + 1] & f
            # every load unconditional, then a select: LLVM may not move a load past a branch
            m = g[v - pc]
            m = m if n else inf
            x = g[v + pc]
            x = x if s else inf
            m = x if x < m else m
            x = g[v - 1]
            x = x if w else inf
            m = x if x < m else m
            x = g[v + 1]
            x = x if e else inf
            m = x if x < m else m
            d = g[v - pc - 1]
            d = d if n & w & fp[v - pc - 1] else inf
            x = g[v - pc + 1]
            x = x if n & e & fp[v - pc + 1] else inf
            d = x if x < d else d
            x = g[v + pc - 1]
            x = x if s & w & fp[v + pc - 1] else inf
            d = x if x < d else d
            x = g[v + pc + 1]
            x = x if s & e & fp[v + pc + 1] else inf
            d = x if x < d else d
            bad += (m + 1.0 < g[v]) | (d + SQRT2 < g[v])
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


def sweep_field(fp, cols: int, sources, rounds: int = ROUNDS):
    """The padded octile field of ``fp`` from padded ``sources`` by sweeps; None if not settled.

    ``None`` after ``rounds`` rounds without reaching the fixed point (the
    caller then runs the bucket ring). Blocked sources are ignored.

    >>> from robomaze._search import _padded
    >>> g = sweep_field(_padded(np.ones((2, 3), bool), 2, 3), 3, np.array([6]))
    >>> g.reshape(4, 5)[1:-1, 1:-1].round(3)
    array([[0.   , 1.   , 2.   ],
           [1.   , 1.414, 2.414]])
    """
    n = fp.shape[0]
    pc = cols + 2
    rows = n // pc - 2
    g = np.empty(n)
    _fill(g, fp, np.asarray(sources, np.int64))
    for _ in range(rounds):
        _pass(fp, g, rows, pc, True)
        _pass(fp, g, rows, pc, False)
        if _settled(fp, g, rows, pc):
            return g
    return None
