"""A widened maze's structure read from its occupancy alone (no ``widening`` metadata).

A grid made by :func:`robomaze.grid.widen` with corridor ``k`` and wall
``t`` repeats with pitch ``p = k + t``: rows and columns ``i`` with ``i mod
p < t`` are wall bands, the others cell bands; where two wall bands cross
there is a post (always blocked), where two cell bands cross a cell's
``k x k`` block (always free), and the rest are passages, each wholly free
or wholly blocked. Saved to a map file and loaded back, or handed over as a
bare array, such a grid has lost its ``widening``; this module finds it
again, so the wavefront's closed form (:mod:`._blockwave`) applies to it
as well.

The reading is cheap and conservative: ``t`` is the first free cell on the
main diagonal (the corner post ends there) and ``k`` the free run after it
(the first block's diagonal), the shape must be ``R*p + t`` by ``C*p + t``,
and a sample of the structure must hold (on one band of rows in eight and
the last: every post's corner blocked, every block's two corners free). The walls are then read one byte per passage.
A grid that passes all this but is not a widened maze is caught by the
closed form itself, which compares every band's occupancy with the maze
before writing it and gives up on the first difference (the caller then
runs the BFS), so a wrong guess costs time, never a wrong field.
"""

from __future__ import annotations

import numpy as np

#: the widest wall band and corridor looked for (wider blocks are rooms, not mazes)
_MAX_WALL = 64
_MAX_CORRIDOR = 4096
#: the sample reads one band of rows in this many (and the last)
_SAMPLE_BANDS = 8


def detect_maze(occ: np.ndarray, *, min_pitch: int = 0):
    """``(east, south, k, t, op_w, op_e, op_n, op_s)`` of a widened maze's bool grid, or None.

    None too when the pitch ``k + t`` is below ``min_pitch`` (found from the
    diagonal alone, before any of the grid's bands is read).

    ``east``/``south``: C-contiguous bool ``(R, C)`` wall arrays (the last
    column/row the closed boundary, as in :class:`robomaze.maze.Maze`);
    ``op_*``: uint8 flags of the boundary openings per row (W, E) and column
    (N, S).

    >>> from robomaze.grid import widen
    >>> from robomaze.generate import generate
    >>> g = widen(generate("backtracker", 4, 5, rng=1), corridor=3, wall=2)
    >>> east, south, k, t, *_ = detect_maze(g.occupied)
    >>> (k, t), bool((east == g.maze.east).all() and (south == g.maze.south).all())
    ((3, 2), True)
    >>> detect_maze(np.zeros((9, 9), bool)) is None
    True
    """
    occ = np.asarray(occ)
    rows, cols = occ.shape
    m = min(rows, cols)
    diag = occ[np.arange(min(m, _MAX_WALL + 1)), np.arange(min(m, _MAX_WALL + 1))]
    free = np.flatnonzero(~diag)
    if free.size == 0 or free[0] == 0:
        return None
    t = int(free[0])
    span = min(m, t + _MAX_CORRIDOR + 1)
    run = occ[np.arange(t, span), np.arange(t, span)]
    stop = np.flatnonzero(run)
    if stop.size == 0:
        return None
    k = int(stop[0])
    p = k + t
    if p < min_pitch or (rows - t) % p or (cols - t) % p:
        return None
    R, C = (rows - t) // p, (cols - t) // p
    # the sample: posts' top-left corners blocked, blocks' corners free, on
    # every _SAMPLE_BANDS-th band of rows (and the last). It only turns
    # away what is plainly no maze before any walk; the closed form checks
    # every cell of every band anyway. All bands took 5.9 of detection's
    # 9.6 ms at 4001^2 (strided reads of the grid's rows); one in eight, 0.8
    sp = p * _SAMPLE_BANDS
    last = (R - 1) * p
    for r0 in (0, last):
        if not occ[r0::sp, ::p].all():
            return None
        if occ[r0 + t::sp, t::p].any() or occ[r0 + t + k - 1::sp, t + k - 1::p].any():
            return None
        if k > 1 and (occ[r0 + t::sp, t + k - 1::p].any()
                      or occ[r0 + t + k - 1::sp, t::p].any()):
            return None
    east = np.ones((R, C), bool)
    south = np.ones((R, C), bool)
    # a passage's first cell (top-left): blocked = a wall
    east[:, :C - 1] = occ[t:rows - t:p, t + k:cols - t - p + 1:p][:R, :C - 1]
    south[:R - 1, :] = occ[t + k:rows - t - p + 1:p, t:cols - t:p][:R - 1, :C]
    op_w = (~occ[t::p, 0][:R]).astype(np.uint8)
    op_e = (~occ[t::p, cols - 1][:R]).astype(np.uint8)
    op_n = (~occ[0, t::p][:C]).astype(np.uint8)
    op_s = (~occ[rows - 1, t::p][:C]).astype(np.uint8)
    # read-only, as a Maze's walls are: the closed form's kernels then run
    # the specialisation the metadata path (and the CLI's warm-up) compiled
    east.setflags(write=False)
    south.setflags(write=False)
    return east, south, k, t, op_w, op_e, op_n, op_s
