"""Which exact 4-connected unit-cost field a grid gets: chosen from the grid, all identical.

:func:`field4` is :func:`robomaze._search.bfs_field`'s 4-connected path for
grids above 4096 cells. Every method computes the textbook BFS field, cell
for cell; they differ in the order they touch memory, and the choice is
made from the grid itself (measured costs: ``benchmarks/README.md``, "Issue
40, round 7"):

* ``"sweep"``: open grids and rooms (at least ``SWEEP_OPEN_SHARE`` of a
  sample of free cells have four free neighbours): row sweeps, no queue
  (:mod:`._sweep`);
* ``"small"``: a goal component of at most 1/256 of the grid (random 45%
  obstacles): a probe BFS with a hash table, the grid never labelled;
* ``"tree"``: a goal component that is a tree (perfect mazes of corridor
  1, any corridor tree): a depth-first walk, depths are the distances
  (:func:`._bitwave.tree_walk`; tried when the grid has fewer edges than
  free cells, abandoned on the first cycle);
* ``"bits"``: everything else -- random obstacles, spirals, braided mazes:
  the level-synchronous wave over a bit mask with a write-only field
  (:func:`._bitwave.bit_wave`).
"""

from __future__ import annotations

import numpy as np

from ._bitwave import bit_field
from ._sweep import (SWEEP_OPEN_SHARE, dirty_words, open_share, probe_limit,
                     small_component_field, sweep_field)


def field4(mask, rows: int, cols: int, goal: int, occupied: bool):
    """The exact 4-connected field from flat cell ``goal``: ``(dist, reached, how)``.

    ``mask``: flat uint8 (read-only is fine), nonzero on free cells (on
    blocked ones with ``occupied``); ``dist``: ``(rows, cols)`` int32, -1
    where blocked or unreachable (a plain array after ``"sweep"`` and
    ``"small"``, a view of a padded one otherwise); ``reached``: the cells
    labelled; ``how``: the method (module docstring).

    >>> occ = np.zeros((70, 70), np.uint8)
    >>> d, n, how = field4(occ.ravel(), 70, 70, 0, True)
    >>> int(d[69, 69]), n, how
    (138, 4900, 'sweep')
    """
    dist = np.empty(rows * cols, np.int32)
    if open_share(mask, rows, cols, occupied) >= SWEEP_OPEN_SHARE:
        _, reached, _ = sweep_field(mask, rows, cols, goal, occupied, dist,
                                    dirty_words(rows, cols))
        return dist.reshape(rows, cols), int(reached), "sweep"
    # a small component (random 45% obstacles: a few hundred cells) is
    # found without labelling the grid; a large one costs the probe
    # 1/256 of the grid's cells in table look-ups
    lim = probe_limit(rows * cols)
    cap = 1 << (2 * lim - 1).bit_length()
    reached = small_component_field(mask, rows, cols, goal, occupied, dist,
                                    np.empty(cap, np.int64), np.empty(cap, np.int32),
                                    np.empty(lim, np.int64))
    if reached >= 0:
        return dist.reshape(rows, cols), int(reached), "small"
    del dist
    return bit_field(mask, rows, cols, goal, occupied)
