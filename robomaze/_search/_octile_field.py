"""Which octile distance field a grid gets: chosen from the grid, all exact.

:func:`octile_distance_field` is :func:`robomaze._search.distance_field`'s
8-connected path (no corner cutting, float64, inf where unreached). On
grids of at least :data:`._octile_probe.BIG` cells it first tries, in order:

* ``"probe"``: a flood with a budget from the sources; a small component
  (random 45 % obstacles) gets the bucket ring on its bounding box alone
  (:mod:`._octile_probe`);
* ``"thin"``: one source on a grid without a free 2x2 square (corridor-1
  mazes, spirals): no diagonal move is legal, so the field is the
  4-connected one, as floats (:mod:`._octile_thin`);
* ``"sweep"``: where a window about the first source says it pays (open
  grids, rooms, sparse random obstacles): two rounds of row sweeps over
  the whole grid, then a bucket queue from the cells still too high; the
  ring's values bit for bit (:mod:`._octile_sweep`,
  :mod:`._octile_repair`);

and otherwise the bucket ring with the mask in the field's sign, unsigned
indices and prefetch (:mod:`._octile_ring`, the same floats). On every
smaller grid, ``"ring"``: the bucket ring over the padded grid
(:mod:`._octile`), compacted in place. Measured costs:
``benchmarks/README.md``, "Issue 40, round 8 (r8-octile)", "round 9
(r9-octile)" and "round 10 (r10-octile)".
"""

from __future__ import annotations

import numpy as np

from ._octile import octile_field, unpad_in_place

__all__ = ["octile_distance_field", "octile_strategy"]


def octile_distance_field(free: np.ndarray, sources) -> np.ndarray:
    """Octile distances (cells) from flat ``sources`` over the 2-D mask ``free``; inf elsewhere.

    What :func:`robomaze._search.distance_field` runs for ``conn8=True``:
    on grids of at least :data:`._octile_probe.BIG` cells, first the
    strategies of :func:`octile_strategy` and, when they decline, the big
    grids' ring (:mod:`._octile_ring`); otherwise the bucket ring over the
    padded grid, compacted in place. Blocked sources are ignored.

    >>> octile_distance_field(np.ones((2, 3), bool), [0]).round(3)
    array([[0.   , 1.   , 2.   ],
           [1.   , 1.414, 2.414]])
    """
    from . import _padded, _to_padded

    rows, cols = free.shape
    src = np.asarray(sources, np.int64).reshape(-1)
    # out-of-range sources go to the ring's indexing, which refuses them
    if octile_strategy(free, src) == "big" and src.size and src.min() >= 0 \
            and src.max() < free.size:
        from ._octile_probe import small_component_field
        from ._octile_thin import thin_field

        out = small_component_field(free, src)
        if out is not None:
            return out
        live = np.unique(src[free.reshape(-1)[src] != 0])
        if live.size == 1:
            out = thin_field(free, int(live[0]))
            if out is not None:
                return out
        from ._octile_sweep import PAYS, sweep_field, sweep_pays

        if sweep_pays(free, live):
            fp = _padded(free, rows, cols)
            psrc = _to_padded(live, rows, cols).astype(np.int64)
            g, _ = sweep_field(fp, cols, psrc, limit=int(PAYS * free.size))
            if g is not None:
                return unpad_in_place(g, rows, cols)[:rows * cols].reshape(rows, cols)
        from ._octile_ring import signed_ring_field

        return signed_ring_field(free, src)
    fp = _padded(free, rows, cols)
    psrc = _to_padded(src, rows, cols).astype(np.int64)
    # compacted by the ring's own kernel (one kernel to compile, not two)
    g = octile_field(fp, cols, psrc[fp[psrc] != 0], unpad_rows=rows)
    return g[:rows * cols].reshape(rows, cols)


def octile_strategy(free, sources=None) -> str:
    """``"big"`` where :func:`octile_distance_field` tries big-grid strategies, else ``"ring"``.

    The big-grid strategies, in order: the small-component probe
    (:mod:`._octile_probe`), then, for one source, the 4-connected field of
    a grid without a free 2x2 square (:mod:`._octile_thin`), then row
    sweeps and repair where a window about the first source says they pay
    (:mod:`._octile_sweep`); each
    declines cheaply when the grid is not its kind, and the ring takes the
    rest.

    >>> octile_strategy(np.ones((3, 3), bool))
    'ring'
    """
    from ._octile_probe import BIG

    return "big" if free.size >= BIG else "ring"
