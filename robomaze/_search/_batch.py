"""The MovingAI lengths batch: what a map costs once (:func:`prepare`), then its pairs.

:func:`prepare` reads the grid and picks one route, cheapest first:

* ``tree``: the free graph is a forest (a perfect maze of corridor 1) --
  tree distances (:mod:`._tree`);
* ``stacks``: the free space is a tree of rectangles (a widened perfect
  maze of any corridor and wall width) -- a min-plus sweep along the tree
  path (:mod:`._stacks`);
* ``alt``: anything else -- A* per pair with the octile and landmark bounds,
  components and scratch shared by the batch (:mod:`._altbatch`).

Each test fails fast on a grid it does not fit (the forest test at the
first free 2x2 block, the stack test at the first cycle), so a random map
pays little for the routes it does not take.
"""

from __future__ import annotations

import numpy as np

from ..errors import ParameterError

__all__ = ["Batch", "prepare"]


def _pad(free) -> np.ndarray:
    """Flat read-only uint8 mask with a blocked one-cell border (the engine's padded form)."""
    fp = np.pad(np.asarray(free).astype(np.uint8), 1).ravel()
    fp.setflags(write=False)
    return fp


def _cells(name: str, idx, rows: int, cols: int) -> np.ndarray:
    """``idx`` as a flat int64 array of cells of a ``rows x cols`` grid, or a ParameterError."""
    a = np.asarray(idx)
    if a.size and not np.issubdtype(a.dtype, np.integer):
        raise ParameterError(f"path lengths: {name} has {a.dtype} entries; expected flat cell "
                             "indices (integers)")
    a = a.astype(np.int64).ravel()
    bad = np.flatnonzero((a < 0) | (a >= rows * cols))
    if bad.size:
        raise ParameterError(f"path lengths: {name}[{bad[0]}] = {a[bad[0]]} is off the "
                             f"{rows}x{cols} grid; expected 0 <= cell < {rows * cols}")
    return a


def _padidx(idx, rows: int, cols: int) -> np.ndarray:
    """Flat unpadded cells -> padded ones."""
    r, c = np.divmod(np.asarray(idx, np.int64), cols)
    return (r + 1) * (cols + 2) + c + 1


class Batch:
    """A map prepared for many length queries (:func:`prepare`); ``route`` names the method."""

    def __init__(self, route: str, fp, rows: int, cols: int, state):
        self.route, self.fp, self.rows, self.cols, self._state = route, fp, rows, cols, state
        self._stamp = 0

    def lengths(self, starts, goals) -> np.ndarray:
        """Lengths (cells) of flat unpadded ``starts[i] -> goals[i]``; NaN when apart or blocked."""
        starts, goals = _cells("starts", starts, self.rows, self.cols), _cells(
            "goals", goals, self.rows, self.cols)
        if starts.shape != goals.shape:
            raise ParameterError(f"path lengths: {starts.size} starts but {goals.size} goals; "
                                 "expected one goal per start")
        ps = _padidx(starts, self.rows, self.cols)
        pg = _padidx(goals, self.rows, self.cols)
        if self.route == "tree":
            from ._tree import tree_lengths

            up, depth, comp = self._state
            return tree_lengths(self.fp, up, depth, comp, ps, pg)
        if self.route == "stacks":
            return self._state.lengths(ps, pg)
        from ._altbatch import bucket_lengths

        comp, (lm, margin), scratch, blocks = self._state
        out = np.empty(ps.shape[0])
        k = lm.shape[1]
        if blocks is None:
            one = np.zeros(1, np.int32)
            restrict = (False, one, one, one, one, 0, one, one, one)
        else:
            restrict = (True, blocks.lab, blocks.node, blocks.bparent, blocks.bdepth, blocks.nb,
                        blocks.mstart, blocks.members, blocks.allowed)
        self._stamp = bucket_lengths(self.fp, self.cols, comp, lm, margin, ps, pg, out, *scratch,
                                     np.empty(max(k, 1)), np.empty(max(k, 1), np.int64),
                                     self._stamp, *restrict)
        return out


def _components(free: np.ndarray) -> np.ndarray:
    """Padded int32 labels of the 4-connected free components (0: blocked).

    Without corner cutting a diagonal move has both side cells free, so its
    ends are 4-connected too: these are the 8-connected move's components.
    """
    from scipy.ndimage import label

    rows, cols = free.shape
    lab = np.zeros((rows + 2, cols + 2), np.int32)
    lab[1:-1, 1:-1], _ = label(free)
    return lab.ravel()


def _landmarks(fp, cols: int, comp: np.ndarray, k: int, where: int):
    """``((cells, k) float32 fields, margin)`` from ``k`` cells of component ``where``.

    Farthest first: the first is the component's cell farthest (octile)
    from its mean position -- a cell on its rim, without a field to find
    it; each next one the cell farthest from all chosen so far. float32
    halves what a search reads per cell; ``margin`` bounds what rounding
    to it can add to a bound (two roundings of distances up to the
    largest), and the search takes it off.
    """
    from ._octile import octile_field

    n = fp.shape[0]
    cells = np.flatnonzero(comp == where) if k else np.empty(0, np.int64)
    if cells.size == 0:
        return np.full((n, k), np.inf, np.float32), 0.0
    pc = cols + 2
    r, c = np.divmod(cells, pc)
    dr, dc = np.abs(r - r.mean()), np.abs(c - c.mean())
    src = int(cells[np.argmax(np.maximum(dr, dc) + (2 ** 0.5 - 1) * np.minimum(dr, dc))])
    near = np.full(n, -1.0)
    near[cells] = np.inf                      # outside the component: never the farthest
    out = np.empty((n, k), np.float32)
    top = 0.0
    for j in range(k):
        g = octile_field(fp, cols, np.array([src], np.int64))
        out[:, j] = g
        top = max(top, float(g[cells].max()))
        np.minimum(near, g, out=near)
        src = int(np.argmax(near))
    return out, 4.0 * top * 2.0 ** -24 + 1e-9


#: the restriction to block-cut tree paths is kept when no block holds more
#: than this share of the stacks (past it each search would be confined to
#: nearly the whole map anyway, and the marking costs)
RESTRICT_SHARE = 0.5
#: ... and only built when the largest component holds less than this share
#: of the free cells (a web near the percolation threshold, not a room)
WEB_SHARE = 0.9


def prepare(free: np.ndarray, *, starts=None, landmarks: int = 4, nqueries: int = 0,
            restrict: bool = True) -> Batch:
    """Everything about 2-D mask ``free`` that its pairs share; see the module docstring.

    ``starts`` (flat, unpadded; optional) chooses the component the
    landmarks serve (the one most starts lie in; else the largest), and
    ``nqueries`` whether they pay: only for more than ``4 * landmarks``
    pairs. ``restrict``: confine each search to the blocks of its
    block-cut tree path (:mod:`._blocks`) where the largest component
    holds less than :data:`WEB_SHARE` of the free cells and no block more
    than :data:`RESTRICT_SHARE` of the stacks.

    >>> b = prepare(np.ones((3, 4), bool))
    >>> b.route, b.lengths([0], [11]).round(6).tolist()
    ('stacks', [3.828427])
    """
    from ._stacks import build
    from ._tree import forest, table_levels

    if np.ndim(free) != 2:
        raise ParameterError(f"path lengths: free has shape {np.shape(free)}; expected a 2-D "
                             "mask (rows, cols)")
    rows, cols = free.shape
    fp = _pad(free)
    if fp.shape[0] < 2**31:                   # the trees' arrays index with int32
        is_forest, up, depth, comp = forest(fp, cols, table_levels(fp.shape[0]))
        if is_forest:
            return Batch("tree", fp, rows, cols, (up, depth, comp))
        stacks = build(fp, cols)
        if stacks is not None:
            return Batch("stacks", fp, rows, cols, stacks)
    comp = _components(free)
    sizes = np.bincount(comp)
    sizes[0] = 0
    blocks = None
    # a giant component holding nearly every free cell is one big block
    # (rooms, random maps well above the percolation threshold): its block
    # cut tree costs a pass and restricts nothing
    if restrict and fp.shape[0] < 2**31 and sizes.max() < WEB_SHARE * sizes.sum():
        from ._blocks import build_blocks

        blocks = build_blocks(fp, cols)
        if blocks.largest > RESTRICT_SHARE:
            blocks = None                     # one block holds (nearly) everything
        else:
            blocks.allowed = np.zeros(blocks.nstacks, np.int32)
    k = landmarks if landmarks > 0 and nqueries > 4 * landmarks else 0
    where = 0
    if k:
        if starts is not None and len(starts):
            served = np.bincount(comp[_padidx(_cells("starts", starts, rows, cols), rows, cols)],
                                 minlength=sizes.size)
            served[0] = 0
            if served.any():
                sizes = served
        where = int(np.argmax(sizes))
    lm = _landmarks(fp, cols, comp, k, where)
    from ._altbatch import RING

    n = fp.shape[0]
    scratch = (np.empty(n), np.empty(n), np.zeros(n, np.int32), np.zeros(n, np.int32),
               np.empty((RING, 1024 + n // 256), np.int32), np.zeros(RING, np.int64))
    return Batch("alt", fp, rows, cols, (comp, lm, scratch, blocks))
