"""Configuration space: where the robot's reference point may stand.

The reference point sits on grid cell centres. A position is *blocked*
when the footprint placed there intersects (or merely touches) an occupied
grid square; everything beyond the grid counts as occupied, so the robot
never leaves the map.

* Disc: one bool grid, blocked iff ``grid.clearance() <= radius`` -- the
  clearance field is the exact distance from each cell centre to the
  nearest occupied square, so this is exact (touching = blocked, within
  :data:`~robomaze.geometry.footprint.CONTACT_TOL` of float round-off).
* Any other shape: an ``(N, rows, cols)`` stack, one grid per heading bin
  (:func:`cspace_bits`: the same packed 64 cells to a word, as the
  footprint planner's search takes it).
  Bin ``i`` covers world headings ``[(i - 1/2) * 2pi/N, (i + 1/2) * 2pi/N]``
  around its sample heading ``i * 2pi/N``. With ``sweep=True`` (default) a
  bin is blocked where the footprint at *any* heading of the interval
  collides -- the kernel is the union of the footprint rotated over the
  whole interval (dense samples plus a buffer bounding the arc between
  samples), so a robot may take and rotate through any heading of a free
  bin. With ``sweep=False`` each bin is exactly the footprint at the
  sample heading.

The obstacle set is dilated by the *reflected* footprint kernel:
the footprint at cell ``x`` covers ``x + K``, so ``x`` is blocked iff
``(x + K) & O`` is not empty, i.e. ``x`` is in ``O (+) (-K)``, computed
on rows of 64-bit words (:class:`_Dilator`).
"""

from __future__ import annotations

import functools
import math

import numpy as np
import shapely
from shapely import affinity

from .._validate import check_int
from ..errors import ParameterError
from ..grid import OccupancyGrid
from . import _kernels as _kern
from .footprint import CONTACT_TOL, Footprint, _raster_geometry

__all__ = ["cspace", "cspace_bits", "motion_cspace", "MOTIONS", "heading_bins", "heading_bin", "swept_kernel",
           "free_space_padded",
           "bin_geometry", "free_space"]

#: Angular spacing (radians) of the samples whose union approximates a bin's sweep.
_SWEEP_STEP = math.radians(2.0)


def heading_bins(n: int) -> np.ndarray:
    """Sample headings (radians, world frame) of ``n`` heading bins.

    >>> heading_bins(4)
    array([0.        , 1.57079633, 3.14159265, 4.71238898])
    """
    n = check_int("headings", n, min_value=1)
    return np.arange(n) * (2.0 * math.pi / n)


def heading_bin(theta, n: int):
    """Index of the heading bin holding world heading(s) ``theta``.

    >>> int(heading_bin(-0.1, 8)), int(heading_bin(math.pi, 4))
    (0, 2)
    """
    step = 2.0 * math.pi / n
    return np.mod(np.floor(np.asarray(theta, float) / step + 0.5), n).astype(np.int64)


@functools.lru_cache(maxsize=256)
def bin_geometry(footprint: Footprint, lo: float, hi: float):
    """The region covered by the footprint at any heading in ``[lo, hi]`` (robot frame).

    The union of the footprint rotated at headings spaced at most 2 degrees
    apart, buffered by ``1.05 * R * step / 2`` (``R`` the circumscribed
    radius): a point at distance ``rho <= R`` from the reference point moves
    at most ``rho * step / 2`` away from the nearer of two neighbouring
    samples, so the buffered union holds every intermediate heading (the 5 %
    covers the polygonal buffer lying inside the true offset curve).
    Returns ``(geometry, reach)`` with ``reach`` bounding its distance from
    the reference point. Results are cached per (footprint object, interval):
    :func:`cspace` and :func:`motion_cspace` of one plan share them.
    """
    span = float(hi - lo)
    m = max(2, int(math.ceil(span / _SWEEP_STEP)) + 1)
    thetas = np.linspace(lo, hi, m)
    step = span / (m - 1)
    parts = _rotated(footprint.geometry, thetas)
    pad = footprint.circumscribed_radius * step / 2.0 * 1.05 + 1e-9
    geom = shapely.union_all(parts).buffer(pad, quad_segs=8)
    return geom, footprint.circumscribed_radius + pad


def _rotated(geom, thetas) -> np.ndarray:
    """``geom`` rotated about the origin by each angle of ``thetas`` (radians), in one pass.

    The same arithmetic, element by element, as ``shapely.affinity.rotate(geom,
    t, origin=(0, 0), use_radians=True)`` (``math.cos``/``math.sin``, their
    snap to 0 below 2.5e-16, ``x' = cos x - sin y + 0``), so the copies are
    bit-identical to it; one ``shapely.transform`` call instead of one per
    angle (which cost ~60 us each: a third of a fresh footprint's C-space).
    """
    cs = np.empty((len(thetas), 2))
    for i, t in enumerate(thetas):
        c, s = math.cos(float(t)), math.sin(float(t))
        cs[i] = (0.0 if abs(c) < 2.5e-16 else c, 0.0 if abs(s) < 2.5e-16 else s)
    copies = np.full(len(thetas), geom, dtype=object)
    per = shapely.get_num_coordinates(geom)

    def turn(xy):
        c = np.repeat(cs[:, 0], per)
        s = np.repeat(cs[:, 1], per)
        x, y = xy[:, 0], xy[:, 1]
        return np.stack([c * x + (-s) * y + 0.0, s * x + c * y + 0.0], axis=1)

    return shapely.transform(copies, turn)


def _swept_kernels(footprint: Footprint, resolution: float, los, his) -> list:
    """:func:`swept_kernel` of several intervals, with a few shapely calls for all of them.

    The same GEOS operations on the same inputs as one :func:`bin_geometry`
    and :func:`_raster_geometry` per interval -- rotations, a union per
    interval (``union_all`` along an axis unions each row as a collection,
    as it does a list), buffers, prepared ``intersects`` against the same
    boxes; every per-interval number (samples, step, pad, reach) computed
    as there, interval by interval, since the rounding of ``hi - lo``
    differs between intervals -- so the kernels are identical; only the
    Python per interval is saved (a third of a fresh footprint's C-space
    on small grids).
    """
    R = footprint.circumscribed_radius
    ms, pads, thetas = [], [], []
    for lo, hi in zip(los, his):
        span = float(hi - lo)
        m = max(2, int(math.ceil(span / _SWEEP_STEP)) + 1)
        ms.append(m)
        thetas.append(np.linspace(lo, hi, m))
        pads.append(R * (span / (m - 1)) / 2.0 * 1.05 + 1e-9)
    ms = np.array(ms)
    copies = _rotated(footprint.geometry, np.concatenate(thetas))
    first = np.concatenate([[0], np.cumsum(ms)[:-1]])
    unions = np.empty(len(ms), dtype=object)
    for m in np.unique(ms):                      # one union call per sample count
        rows = np.flatnonzero(ms == m)
        unions[rows] = shapely.union_all(copies[first[rows, None] + np.arange(m)], axis=1)
    geoms = shapely.buffer(unions, np.array(pads), quad_segs=8)
    shapely.prepare(geoms)
    hs = [int(math.floor((R + pad) / resolution + 0.5)) + 1 for pad in pads]
    out = [None] * len(ms)
    for h in set(hs):                            # one intersects call per kernel size
        rows = [i for i, hh in enumerate(hs) if hh == h]
        off = np.arange(-h, h + 1)
        dr, dc = np.meshgrid(off, off, indexing="ij")
        cx, cy = dc * resolution, -dr * resolution      # row offsets grow south, towards -y
        boxes = shapely.box(cx - resolution / 2, cy - resolution / 2, cx + resolution / 2,
                            cy + resolution / 2)
        hits = shapely.intersects(geoms[rows][:, None, None], boxes[None])
        for i, k in zip(rows, hits):
            # trim empty outer rings so kernels stay small and centred
            while k.shape[0] > 1 and not (k[0].any() or k[-1].any() or k[:, 0].any()
                                          or k[:, -1].any()):
                k = k[1:-1, 1:-1]
            out[i] = np.ascontiguousarray(k)
    return out


def swept_kernel(footprint: Footprint, resolution: float, lo: float, hi: float) -> np.ndarray:
    """Kernel of cells touched by the footprint at any heading in ``[lo, hi]`` (grid frame).

    See :func:`bin_geometry`; discs give their plain rasterization.
    """
    if footprint.kind == "disc":
        return footprint.rasterize(resolution, lo)
    geom, reach = bin_geometry(footprint, lo, hi)
    return _raster_geometry(geom, resolution, reach)


def _translate_sweep(geom, dx: float, dy: float):
    """Minkowski sum of a polygonal region with the segment from 0 to (dx, dy)."""
    parts = [geom, affinity.translate(geom, dx, dy)]
    polys = getattr(geom, "geoms", [geom])
    for poly in polys:
        for ring in [poly.exterior, *poly.interiors]:
            xy = np.asarray(ring.coords)
            a, b = xy[:-1], xy[1:]
            # one quad per ring edge swept along the move, built in one call
            quads = shapely.polygons(np.stack([a, b, b + (dx, dy), a + (dx, dy)], axis=1))
            parts.extend(quads[shapely.area(quads) > 0])
    return shapely.union_all(parts)


#: Translation directions of :func:`motion_cspace`: E, S, SE, SW as (drow, dcol).
MOTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def motion_cspace(grid: OccupancyGrid, footprint: Footprint, *, headings: int = 16,
                  connectivity: int = 4) -> np.ndarray:
    """Blocked translations between neighbouring cells, per heading bin.

    Entry ``[m, b, r, c]`` is True when the footprint, at any heading of
    bin ``b``, sweeping from cell ``(r, c)`` to ``(r, c) + MOTIONS[m]``
    touches an occupied cell (or leaves the grid). The swept region is the
    bin region of :func:`bin_geometry` translated along the move (its
    Minkowski sum with the segment), so a free move is collision-free for
    the whole continuous motion, not just at its ends. The reverse moves
    (W, N, NW, NE) are the same sweeps seen from the other cell.

    The footprint planner does not need these masks: a closed square meets
    a region swept one cell east iff it or its west neighbour meets the
    region, so an axis move is blocked exactly where :func:`cspace` blocks
    one of its two end cells, and a diagonal move's sweep lies within the
    two end cells' and the two side cells' kernels (which its no-corner-cut
    rule already needs free). ``tests/geometry/test_geom_cspace.py`` checks
    both against these shapely sweeps.

    Returns
    -------
    ndarray of bool, shape (2 or 4, headings, rows, cols)
        2 motions (E, S) for ``connectivity=4``, 4 for 8.
    """
    n = check_int("headings", headings, min_value=1)
    nm = 4 if connectivity == 8 else 2
    yaw = grid.origin[2]
    step = 2.0 * math.pi / n
    res = grid.resolution
    out = np.empty((nm, n) + grid.shape, dtype=bool)
    dilate = _Dilator(grid)
    for i, theta in enumerate(heading_bins(n)):
        local = theta - yaw
        if footprint.kind == "disc":
            geom, reach = footprint.geometry.buffer(footprint.radius * 0.01), footprint.radius * 1.01
        else:
            geom, reach = bin_geometry(footprint, local - step / 2, local + step / 2)
        for m, (dr, dc) in enumerate(MOTIONS[:nm]):
            swept = _translate_sweep(geom, dc * res, -dr * res)
            k = _raster_geometry(swept, res, reach + math.hypot(dr, dc) * res)
            out[m, i] = dilate(k)
    return out


def pack_rows(occ: np.ndarray, m: int) -> np.ndarray:
    """Occupancy as rows of 64-bit words, with an ``m``-cell occupied frame.

    Bit ``x % 64`` of word ``x // 64`` of row ``y`` is padded cell ``(y, x)``
    = grid cell ``(y - m, x - m)``, set when occupied or outside the grid.
    Rows carry ``2 + 2m/64`` spare zero words so shifted reads stay inside.

    >>> pack_rows(np.array([[False, True, False]]), 1)[:, 0].tolist()
    [31, 21, 31]
    """
    rows, cols = occ.shape
    R, C = rows + 2 * m, cols + 2 * m
    wd = (cols + 63) // 64 + (2 * m) // 64 + 3
    pad = np.ones((R, C), bool)
    pad[m:m + rows, m:m + cols] = occ
    packed = np.packbits(pad, axis=1, bitorder="little")
    buf = np.zeros((R, wd * 8), np.uint8)
    buf[:, :packed.shape[1]] = packed
    return buf.view("<u8").astype(np.uint64, copy=False)


class _Dilator:
    """Reference cells where a kernel (footprint cells) meets an occupied cell.

    Exact binary dilation of the occupancy (outside the grid occupied) by
    the reflected kernel, on bit rows: the occupancy is packed once into
    64-bit words with a frame as wide as the largest kernel, and each
    kernel row run is one window-OR along the rows read at one shift
    (:func:`~robomaze.geometry._kernels.dilate_bits`), 64 cells per word
    operation.
    """

    def __init__(self, grid: OccupancyGrid, margin: int = 8):
        self.occ = np.ascontiguousarray(grid.occupied)
        self._m = -1
        self._bits = self._win = None
        self._margin = margin

    def bits(self, kernel: np.ndarray) -> np.ndarray:
        """Blocked cells as ``(rows, ceil(cols / 64))`` little-endian words."""
        kernel = np.asarray(kernel, bool)
        h, w = kernel.shape[0] // 2, kernel.shape[1] // 2
        if max(h, w) > self._m:
            # one packing serves every kernel that fits its frame
            self._m = max(h, w, self._margin)
            self._bits = pack_rows(self.occ, self._m)
            # the kernel's scratch, with zero words past each row's end (never written)
            R, wd = self._bits.shape
            self._win = np.zeros((R, wd + self._m // 64 + 2), np.uint64)
        # row runs of the kernel, row by row west to east: (row, first col, last col)
        edge = np.diff(np.pad(kernel.astype(np.int8), ((0, 0), (1, 1))), axis=1)
        r0, c0 = np.nonzero(edge == 1)
        c1 = np.nonzero(edge == -1)[1] - 1
        runs = np.column_stack([r0 - h, c0 - w, c1 - w]).astype(np.int64)
        runs = runs[np.argsort(c1 - c0, kind="stable")]          # by length: one window each
        rows, cols = self.occ.shape
        out = np.zeros((rows, (cols + 63) // 64), np.uint64)
        return _kern.dilate_bits(self._bits, self._m, rows, cols, runs, out, self._win)

    def __call__(self, kernel: np.ndarray) -> np.ndarray:
        cols = self.occ.shape[1]
        out = np.unpackbits(self.bits(kernel).astype("<u8", copy=False).view(np.uint8),
                            axis=1, bitorder="little")
        return out[:, :cols].view(bool)


def cspace(grid: OccupancyGrid, footprint: Footprint, *, headings: int = 16,
           sweep: bool = True) -> np.ndarray:
    """Blocked reference-point positions of a footprint on a grid.

    Parameters
    ----------
    grid : OccupancyGrid
    footprint : Footprint
    headings : int
        Number of heading bins for non-disc footprints (ignored for discs).
    sweep : bool
        Non-disc shapes: block a bin wherever any heading of its interval
        collides (True, the safe default), or only its sample heading.

    Returns
    -------
    ndarray of bool
        ``(rows, cols)`` for a disc, else ``(headings, rows, cols)``;
        True = blocked.

    Examples
    --------
    >>> from robomaze import Maze, widen
    >>> g = widen(Maze.empty(1, 1), corridor=3, wall=1)
    >>> cspace(g, Footprint.disc(1.2)).astype(int)[2]
    array([1, 1, 0, 1, 1])
    >>> cs = cspace(g, Footprint.rectangle(2.6, 0.6), headings=4, sweep=False)
    >>> cs.shape, cs[0, 2].astype(int), cs[1, :, 2].astype(int)
    ((4, 5, 5), array([1, 1, 0, 1, 1]), array([1, 1, 0, 1, 1]))
    """
    if not isinstance(grid, OccupancyGrid):
        raise ParameterError(f"grid must be an OccupancyGrid, got {type(grid).__name__}")
    if footprint.kind == "disc":
        return grid.clearance() <= footprint.radius + CONTACT_TOL
    packed = cspace_bits(grid, footprint, headings=headings, sweep=sweep)
    bits = np.unpackbits(packed.astype("<u8", copy=False).view(np.uint8), axis=2,
                         bitorder="little")
    return np.ascontiguousarray(bits[:, :, :grid.cols]).view(bool)


def cspace_bits(grid: OccupancyGrid, footprint: Footprint, *, headings: int = 16,
                sweep: bool = True) -> np.ndarray:
    """:func:`cspace` of a non-disc footprint, packed: ``(headings, rows, ceil(cols / 64))`` uint64.

    Bit ``c % 64`` of word ``c // 64`` of ``[b, r]`` is ``cspace(...)[b, r, c]``
    (bits past the last column are unspecified) -- the form the footprint
    planner hands to the search, 1/8 of the bool stack's memory.
    """
    if not isinstance(grid, OccupancyGrid):
        raise ParameterError(f"grid must be an OccupancyGrid, got {type(grid).__name__}")
    if not isinstance(footprint, Footprint) or footprint.kind == "disc":
        raise ParameterError(f"footprint must be a non-disc Footprint (a disc has one grid: "
                             f"cspace), got {footprint!r}")
    n = check_int("headings", headings, min_value=1)
    yaw = grid.origin[2]
    step = 2.0 * math.pi / n
    out = np.empty((n, grid.rows, (grid.cols + 63) // 64), dtype=np.uint64)
    dilate = _Dilator(grid)
    local = heading_bins(n) - yaw  # kernels live in the grid frame
    if sweep:
        kernels = _swept_kernels(footprint, grid.resolution, local - step / 2, local + step / 2)
    else:
        kernels = [footprint.rasterize(grid.resolution, t) for t in local]
    for i, k in enumerate(kernels):
        out[i] = dilate.bits(k)
    return out


def free_space(grid: OccupancyGrid, footprint: Footprint | None) -> np.ndarray:
    """Cells where the reference point is free at *every* heading.

    No footprint: the free cells. A disc: clearance > radius. Any other
    shape: clearance > circumscribed radius (the disc swept by the robot
    turning on the spot), which is what the heading-agnostic planners use.
    """
    if footprint is None:
        return np.logical_not(grid.occupied)
    return grid.clearance() > _free_radius(footprint) + CONTACT_TOL


def free_space_padded(grid: OccupancyGrid, footprint: Footprint | None) -> np.ndarray:
    """:func:`free_space` with a blocked one-cell border, flat uint8, read-only, cached per grid.

    The form the search engine walks (``OccupancyGrid.padded_free``); a
    second plan of the same robot on the same grid makes no pass over it.

    >>> from robomaze import Maze, widen
    >>> g = widen(Maze.empty(1, 1), corridor=3, wall=1)
    >>> m = free_space_padded(g, Footprint.disc(0.6))
    >>> m.reshape(7, 7)[1:-1, 1:-1].view(bool).tolist() == free_space(g, Footprint.disc(0.6)).tolist()
    True
    >>> m is free_space_padded(g, Footprint.disc(0.6))
    True
    """
    if footprint is None:
        return grid.padded_free()
    return grid.padded_clearer(_free_radius(footprint) + CONTACT_TOL)


def _free_radius(footprint) -> float:
    return footprint.radius if footprint.kind == "disc" else footprint.circumscribed_radius
