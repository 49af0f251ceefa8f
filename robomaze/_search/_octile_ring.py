"""The bucket ring of :mod:`._octile` for big grids: no mask in the loop, unsigned indices, prefetch.

The same search as :func:`._octile._ring` -- three unit-wide buckets,
Dinitz's rule, a cell queued again only when it moves to another bucket,
stale entries skipped -- and so the same float64 field bit for bit (the
fixed point of ``g[v] = min(g[v], g[u] + w)``, reached in the same bucket
order). Three changes of constant factor, measured against the C ring of
``benchmarks/octile_peer.c`` (``benchmarks/README.md``, "Issue 40, round
10 (r10-octile)"):

* **The mask lives in the field's sign.** A blocked cell (and the padded
  border) holds ``-1.0`` while the search runs: no offer (``>= 0``) beats
  it, so a straight move needs no mask read at all, and a diagonal's two
  side cells are free exactly when the values already loaded for the
  straight moves are ``>= 0``. The loop never reads the mask, whose cache
  lines (a sixth of the field's) then stay out of the cache. The finishing
  pass that moves the inner cells to the front (as
  :func:`._octile.unpad_in_place` does) turns ``-1`` into ``inf``.
* **Unsigned indices.** numba guards every signed subscript with a
  negative-index wraparound (a compare and a select); the padded indices
  are never negative, so they are ``uint64`` here.
* **Prefetch.** The entries of a bucket are known before they are
  expanded: eight entries ahead, the field's rows above and below the
  cell are requested (:func:`robomaze._compile.kernels.prefetch`), so the
  cache misses of a maze's corridors, which reach fresh rows at every
  step, overlap instead of stalling the loop one by one.

Only grids of at least :data:`._octile_probe.BIG` cells take this path
(:mod:`._octile_field`), so small grids never compile these kernels.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .._compile.kernels import inner, prefetch
from ._octile import _grow

__all__ = ["signed_ring_field"]

SQRT2 = 2.0 ** 0.5
AHEAD = 8        # bucket entries between a prefetch and the expansion it serves


@inner  # eight call sites (kernel style 1, robomaze._compile.kernels)
def _offer(g, q, counts, v, nv):
    old = g[v]
    if nv < old:                      # never for a blocked cell (-1)
        g[v] = nv
        nb = math.floor(nv)
        if old == np.inf or math.floor(old) != nb:
            t = nb % 3
            q[t, counts[t]] = v
            counts[t] += 1


@njit(cache=True)
def _signed_ring(free, rows, cols, sources, g, q):
    """The ring over the padded field ``g``, blocked cells ``-1.0`` in it; ``free`` is unpadded."""
    pc = cols + 2
    for c in range(pc):
        g[c] = -1.0
        g[(rows + 1) * pc + c] = -1.0
    for r in range(rows):
        o = (r + 1) * pc
        s = r * cols
        g[o] = -1.0
        g[o + cols + 1] = -1.0
        for c in range(cols):
            g[o + 1 + c] = np.inf if free[s + c] else -1.0
    counts = np.empty(3, np.int64)
    for i in range(3):
        counts[i] = 0
    for s in sources:
        if g[s] > 0.0:                # free and not yet a source
            g[s] = 0.0
            if counts[0] == q.shape[1]:
                q = _grow(q, counts)
            q[0, counts[0]] = s
            counts[0] += 1
    up1 = np.uint64(1)
    upc = np.uint64(pc)
    k = 0
    empty = 0
    while empty < 3:
        b = k % 3
        m = counts[b]
        if m == 0:
            empty += 1
            k += 1
            continue
        empty = 0
        c1 = counts[(k + 1) % 3]
        c2 = counts[(k + 2) % 3]
        while (c1 if c1 > c2 else c2) + 8 * m > q.shape[1]:
            q = _grow(q, counts)
        i = 0
        while i < m:
            if i + AHEAD < m:
                w = np.uint64(q[b, i + AHEAD])
                prefetch(g, w - upc)
                prefetch(g, w + upc)
            u = np.uint64(q[b, i])
            i += 1
            gu = g[u]
            if math.floor(gu) != k:
                continue                      # queued again in a lower bucket
            g1 = gu + 1.0
            g2 = gu + SQRT2
            up = g[u - upc] >= 0.0
            dn = g[u + upc] >= 0.0
            lf = g[u - up1] >= 0.0
            rt = g[u + up1] >= 0.0
            _offer(g, q, counts, u - upc, g1)
            _offer(g, q, counts, u + up1, g1)
            _offer(g, q, counts, u + upc, g1)
            _offer(g, q, counts, u - up1, g1)
            if up and rt:
                _offer(g, q, counts, u - upc + up1, g2)
            if dn and rt:
                _offer(g, q, counts, u + upc + up1, g2)
            if dn and lf:
                _offer(g, q, counts, u + upc - up1, g2)
            if up and lf:
                _offer(g, q, counts, u - upc - up1, g2)
        counts[b] = 0
        k += 1
    return g


@njit(cache=True)
def _finish(g, rows, cols):
    """Inner cells of the padded ``g`` to its front (one forward pass), ``-1`` to ``inf``."""
    pc = cols + 2
    inf = np.inf
    for r in range(rows):
        src = (r + 1) * pc + 1
        dst = r * cols
        for c in range(cols):
            x = g[src + c]
            g[dst + c] = inf if x < 0.0 else x
    return g


def signed_ring_field(free: np.ndarray, sources) -> np.ndarray:
    """Octile field of the 2-D mask ``free`` from flat in-range ``sources``, as :func:`._octile.octile_field`.

    The ring's floats bit for bit (blocked cells and blocked sources: inf).
    The field (``(rows + 2) * (cols + 2)`` float64, compacted in place) and
    the queue are numpy's allocations (huge pages on large arrays, see
    :func:`._octile.octile_field`).

    >>> signed_ring_field(np.array([[1, 1, 1], [1, 0, 1]], bool), [0]).round(3)
    array([[ 0.,  1.,  2.],
           [ 1., inf,  3.]])
    >>> signed_ring_field(np.ones((2, 2), bool), [3]).round(3)
    array([[1.414, 1.   ],
           [1.   , 0.   ]])
    """
    rows, cols = free.shape
    mask = np.ascontiguousarray(free, dtype=bool).view(np.uint8).reshape(-1)
    src = np.asarray(sources, np.int64).reshape(-1)
    r, c = np.divmod(src, cols)
    psrc = (r + 1) * (cols + 2) + c + 1
    n = (rows + 2) * (cols + 2)
    g = np.empty(n)
    q = np.empty((3, 1024), np.int32 if n < 2 ** 31 else np.int64)
    _signed_ring(mask, rows, cols, psrc, g, q)
    return _finish(g, rows, cols)[:rows * cols].reshape(rows, cols)
