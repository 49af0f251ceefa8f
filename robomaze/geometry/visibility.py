"""Exact shortest collision-free length for a point or a disc: a visibility graph.

A disc of radius ``r`` is collision-free exactly where its centre is at
least ``r`` from every occupied grid square and from the outside of the
grid. That free region is a polygon with holes: the grid's box shrunk by
``r``, minus the union of the occupied squares grown by ``r`` (shapely's
``buffer``, the grown corners' quarter circles approximated by
``quad_segs`` chords each). The shortest path inside a polygon is a
polyline whose inner vertices are reflex vertices of the region, and each
of its segments is tangent to the region at both ends, so the search needs
only those vertices and the tangent, collision-free segments between them
(the *reduced visibility graph*), and Dijkstra on it.

Tolerance
---------
The chords are inscribed in the true arcs, so the approximated obstacles lie
inside the true grown obstacles: the free region is a superset of the true
one and the length found is a **lower bound** of the exact shortest length.
Any route along which the disc never touches a wall is at least as long, so
its ratio to this reference is at least 1. Where the shortest route wraps a
grown corner, it follows the chords instead of the arc: shorter by a factor
of at most ``sin(a/2) / (a/2)`` with ``a = pi / (2 * quad_segs)`` -- 0.9996
at the default 16 chords per quarter circle, 0.1 mm on a quarter turn around
a 0.16 m disc's corner. A point robot (``radius`` 0) has no arcs and the
length is exact.

Everything is computed in grid-cell units (cells are unit squares; the
grid's frame is a rigid motion, which keeps lengths) and scaled to metres
at the end.
"""

from __future__ import annotations

import contextlib
import functools
import math

import numpy as np

from ..errors import ParameterError

__all__ = ["MAX_PAIRS", "QUAD_SEGS", "free_region", "pair_count", "visibility_length",
           "graph_store", "graph_key"]

#: Chords per quarter circle of a grown corner (see the module's Tolerance).
QUAD_SEGS = 16

#: Most vertex pairs a free region's visibility graph may test (the pairs of
#: reflex vertices within one component). Each costs a tangent test and
#: perhaps a shapely ``covers``, and the pairs grow as the square of the
#: vertices -- a disc's grown corners bring 17 each: a 20x20 maze widened
#: with corridor 5 has 4,701 (11 million pairs: 4.9 s and 1.4 GB for its
#: graph), a 100x100 one 117,105 (6.9 billion: the pair list alone would take
#: 100 GB). :func:`visibility_length` refuses a larger graph;
#: :func:`robomaze.metrics.shortest_length` then takes its other reference
#: (``reference_name``).
MAX_PAIRS = 12_000_000

# the covers test runs on the region grown by this (cell units): a segment
# along a boundary edge must not be rejected for a rounding error, and the
# region grows by far less than the chords' tolerance
_EPS = 1e-7


def _obstacles(occupied: np.ndarray):
    """Union of the occupied unit squares (x = column, y = row), built from row runs."""
    import shapely

    occ = np.asarray(occupied, bool)
    rows, cols = occ.shape
    pad = np.zeros((rows, cols + 2), np.int8)
    pad[:, 1:-1] = occ
    edges = np.diff(pad, axis=1)
    r0, c0 = np.nonzero(edges == 1)
    _, c1 = np.nonzero(edges == -1)   # row-major order: the n-th end closes the n-th start
    if r0.size == 0:
        return shapely.Polygon()
    return shapely.union_all(shapely.box(c0.astype(float), r0.astype(float), c1.astype(float),
                                         r0 + 1.0))


def free_region(occupied, radius_cells: float, *, quad_segs: int = QUAD_SEGS):
    """Where a disc of ``radius_cells`` (cell units) may put its centre, in cell units.

    ``x`` is the column coordinate and ``y`` the row coordinate (cell
    ``(r, c)`` is the square ``[c, c+1] x [r, r+1]``).

    >>> free_region(np.zeros((3, 4), bool), 0.5).bounds
    (0.5, 0.5, 3.5, 2.5)
    """
    from shapely.geometry import box

    rows, cols = np.shape(occupied)
    r = float(radius_cells)
    if not (r >= 0 and math.isfinite(r)):
        raise ParameterError(f"radius must be a finite number >= 0, got {radius_cells!r}")
    if 2 * r >= min(rows, cols):
        return box(0, 0, 0, 0)
    obst = _obstacles(occupied)
    if r > 0 and not obst.is_empty:
        obst = obst.buffer(r, quad_segs=int(quad_segs))
    return box(r, r, cols - r, rows - r).difference(obst)


def _component(region, pt):
    from shapely.geometry import Point

    p = Point(pt)
    for comp in getattr(region, "geoms", [region]):
        if comp.buffer(_EPS).covers(p):
            return comp
    return None


def _reflex(comp):
    """Reflex vertices of a polygon (convex corners of its obstacles) and their neighbours."""
    from shapely.geometry.polygon import orient

    comp = orient(comp, 1.0)   # exterior counter-clockwise, holes clockwise: free on the left
    vs, prev, nxt = [], [], []
    for ring in [comp.exterior, *comp.interiors]:
        c = np.asarray(ring.coords)[:-1]
        if len(c) < 3:
            continue
        a, b = np.roll(c, 1, axis=0), np.roll(c, -1, axis=0)
        turn = (c[:, 0] - a[:, 0]) * (b[:, 1] - c[:, 1]) - (c[:, 1] - a[:, 1]) * (b[:, 0] - c[:, 0])
        keep = turn < -1e-12   # a right turn with the free space on the left
        vs.append(c[keep])
        prev.append(a[keep])
        nxt.append(b[keep])
    if not vs:
        return np.zeros((0, 2)), np.zeros((0, 2)), np.zeros((0, 2))
    return np.concatenate(vs), np.concatenate(prev), np.concatenate(nxt)


def _side(o, d, q):
    """Sign of the cross product of direction ``d`` at ``o`` with ``q - o`` (broadcast)."""
    return d[..., 0] * (q[..., 1] - o[..., 1]) - d[..., 1] * (q[..., 0] - o[..., 0])


def _tangent(o, prev, nxt, d):
    """Whether the line through reflex vertex ``o`` along ``d`` leaves both neighbours on one side."""
    sp, sn = _side(o, d, prev), _side(o, d, nxt)
    tol = 1e-9 * np.hypot(d[..., 0], d[..., 1])
    return (sp * sn >= 0) | (np.abs(sp) <= tol) | (np.abs(sn) <= tol)


@functools.lru_cache(maxsize=8)
def _vertices(occ_bytes: bytes, shape: tuple, radius: float, quad_segs: int) -> list:
    """Per non-empty component of the free region: the component and its
    reflex vertices with their neighbours (cached with :func:`_graphs`)."""
    occ = np.frombuffer(occ_bytes, dtype=bool).reshape(shape)
    region = free_region(occ, radius, quad_segs=quad_segs)
    return [(comp, *_reflex(comp)) for comp in getattr(region, "geoms", [region])
            if not comp.is_empty]


def _pairs(comps: list) -> int:
    return sum(len(v) * (len(v) - 1) // 2 for _, v, _, _ in comps)


def pair_count(occupied, radius_cells: float, *, quad_segs: int = QUAD_SEGS) -> int:
    """Vertex pairs the visibility graph of this free region tests (compare
    :data:`MAX_PAIRS`).

    >>> occ = np.zeros((3, 3), bool); occ[1, 1] = True
    >>> pair_count(occ, 0.0)   # the square's 4 corners: 6 pairs
    6
    """
    occ = np.ascontiguousarray(occupied, dtype=bool)
    r = float(radius_cells)
    if not (r >= 0 and math.isfinite(r)):
        raise ParameterError(f"radius must be a finite number >= 0, got {radius_cells!r}")
    return _pairs(_vertices(occ.tobytes(), occ.shape, r, int(quad_segs)))


#: A persistent store of built graphs (:func:`graph_store`), or None.
_STORE = None

#: Bump when the stored arrays change meaning: old entries are then never found.
_GRAPH_FORMAT = 1


@contextlib.contextmanager
def graph_store(store):
    """Share built visibility graphs through ``store`` while the block runs.

    ``store`` has ``get_or_build(key, build)`` returning a dict of arrays
    (:class:`robomaze.bench.refcache.ArrayStore`: a sweep's workers build
    each graph once). Lengths do not change: the graph is the same, only
    where it comes from.
    """
    global _STORE
    saved, _STORE = _STORE, store
    try:
        yield store
    finally:
        _STORE = saved


def graph_key(occupied, radius_cells: float, *, quad_segs: int = QUAD_SEGS) -> str:
    """Content key of a free region's graph: SHA-256 of the cells, radius,
    chord count and format.

    >>> a = np.zeros((3, 3), bool); b = a.copy(); b[1, 1] = True
    >>> graph_key(a, 0.5) == graph_key(a.copy(), 0.5), graph_key(a, 0.5) == graph_key(b, 0.5)
    (True, False)
    """
    import hashlib

    occ = np.ascontiguousarray(occupied, dtype=bool)
    h = hashlib.sha256(f"robomaze.visibility/{_GRAPH_FORMAT}/{occ.shape}/"
                       f"{float(radius_cells).hex()}/{int(quad_segs)}/".encode())
    h.update(np.packbits(occ).tobytes())
    return h.hexdigest()


def _to_arrays(graphs: list) -> dict:
    import shapely

    out = {"components": np.array(len(graphs))}
    for i, (grown, *arrays) in enumerate(graphs):
        out[f"c{i}_grown"] = np.frombuffer(shapely.to_wkb(grown), dtype=np.uint8)
        for name, a in zip(("v", "pv", "nv", "ii", "jj", "w"), arrays):
            out[f"c{i}_{name}"] = np.asarray(a)
    return out


def _from_arrays(data: dict) -> list:
    import shapely

    out = []
    for i in range(int(data["components"])):
        grown = shapely.from_wkb(data[f"c{i}_grown"].tobytes())
        shapely.prepare(grown)
        out.append((grown, *(data[f"c{i}_{name}"] for name in ("v", "pv", "nv", "ii", "jj", "w"))))
    return out


@functools.lru_cache(maxsize=8)
def _graphs(occ_bytes: bytes, shape: tuple, radius: float, quad_segs: int) -> list:
    """Per component of the free region: the grown component (prepared), its reflex
    vertices with their neighbours and the collision-free tangent edges between them.

    Cached: the runs of a sweep that share a grid and a disc (every planner and
    agent of one maze, widening and footprint) build it once per process, and
    once per sweep when a :func:`graph_store` is open.
    """
    if _STORE is None:
        return _build_graphs(occ_bytes, shape, radius, quad_segs)
    occ = np.frombuffer(occ_bytes, dtype=bool).reshape(shape)
    data = _STORE.get_or_build(
        graph_key(occ, radius, quad_segs=quad_segs),
        lambda: _to_arrays(_build_graphs(occ_bytes, shape, radius, quad_segs)))
    return _from_arrays(data)


def _tangent_pairs(v, pv, nv, block: int = 64) -> tuple[np.ndarray, np.ndarray]:
    """Pairs ``i < j`` (row-major, as ``np.triu_indices``) whose segment is
    tangent to the region at both ends.

    Tested a block of rows at a time: the pairs' temporaries stay in cache
    (all pairs at once: 8 million for a widened 16x16 contest maze, several
    times slower on memory traffic alone).

    >>> v = np.array([[0., 0.], [1., 0.], [1., 1.], [0., 1.]])   # a square's corners,
    >>> pv, nv = np.roll(v, 1, axis=0), np.roll(v, -1, axis=0)   # its edges as neighbours
    >>> [p.tolist() for p in _tangent_pairs(v, pv, nv, block=2)]   # the sides, not diagonals
    [[0, 0, 1, 2], [1, 3, 2, 3]]
    """
    n = len(v)
    out_i, out_j = [np.zeros(0, np.int64)], [np.zeros(0, np.int64)]
    for a in range(0, max(n - 1, 0), block):
        b, c = min(n, a + block), a + 1
        o, w = v[a:b, None, :], v[None, c:]
        d = w - o
        ok = (_tangent(o, pv[a:b, None, :], nv[a:b, None, :], d)
              & _tangent(w, pv[None, c:], nv[None, c:], d))
        ok &= np.arange(c, n)[None, :] > np.arange(a, b)[:, None]
        i, j = np.nonzero(ok)
        out_i.append(i + a)
        out_j.append(j + c)
    return np.concatenate(out_i), np.concatenate(out_j)


def _build_graphs(occ_bytes: bytes, shape: tuple, radius: float, quad_segs: int) -> list:
    import shapely

    comps = _vertices(occ_bytes, shape, radius, quad_segs)
    npairs = _pairs(comps)
    if npairs > MAX_PAIRS:
        nv = sum(len(v) for _, v, _, _ in comps)
        raise ParameterError(
            f"visibility graph: the free region of a {shape[0]}x{shape[1]} grid for radius "
            f"{radius:g} cells has {nv} reflex vertices, {npairs} vertex pairs to test; "
            f"expected at most MAX_PAIRS = {MAX_PAIRS} (robomaze.metrics.shortest_length "
            "takes the theta_star reference on such grids)")
    out = []
    for comp, v, pv, nv in comps:
        grown = comp.buffer(_EPS)
        shapely.prepare(grown)
        ii, jj = _tangent_pairs(v, pv, nv)
        good = shapely.covers(grown, shapely.linestrings(np.stack([v[ii], v[jj]], axis=1)))
        ii, jj = ii[good], jj[good]
        out.append((grown, v, pv, nv, ii, jj, np.hypot(*(v[jj] - v[ii]).T)))
    return out


def visibility_length(occupied, radius_cells: float, start, goal, *,
                      quad_segs: int = QUAD_SEGS) -> float:
    """Shortest length (cell units) between two points of the free region, NaN if none.

    ``start`` and ``goal`` are ``(x, y)`` in cell units (column, row); the
    region is :func:`free_region`'s. NaN when either end is outside it or
    they lie in different components. Raises :class:`ParameterError` when
    the graph would test more than :data:`MAX_PAIRS` vertex pairs.

    Examples
    --------
    Around a single occupied square in a 3 x 3 grid, from one corner region
    to the opposite one: a point robot goes straight past the square's
    corner... unless the corner is in the way.

    >>> occ = np.zeros((3, 3), bool); occ[1, 1] = True
    >>> round(visibility_length(occ, 0.0, (0.5, 0.5), (2.5, 2.5)), 6)   # 2 * hypot(0.5, 1.5)
    3.162278
    """
    import shapely
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import dijkstra

    occ = np.ascontiguousarray(occupied, dtype=bool)
    r = float(radius_cells)
    if not (r >= 0 and math.isfinite(r)):
        raise ParameterError(f"radius must be a finite number >= 0, got {radius_cells!r}")
    s = np.asarray(start, float).reshape(2)
    g = np.asarray(goal, float).reshape(2)
    ps, pg = shapely.Point(s), shapely.Point(g)
    for grown, v, pv, nv, ii, jj, w in _graphs(occ.tobytes(), occ.shape, r, int(quad_segs)):
        if grown.covers(ps):
            break
    else:
        return math.nan
    if not grown.covers(pg):
        return math.nan
    if shapely.covers(grown, shapely.LineString([s, g])):
        return float(np.hypot(*(g - s)))
    n = len(v)
    # node 0: start, 1: goal, 2..: reflex vertices
    pts = np.concatenate([s[None], g[None], v])
    ei, ej = [ii + 2], [jj + 2]
    for end in (0, 1):
        ok = np.flatnonzero(_tangent(v, pv, nv, v - pts[end]))
        lines = shapely.linestrings(np.stack([np.broadcast_to(pts[end], (ok.size, 2)), v[ok]],
                                             axis=1))
        ok = ok[shapely.covers(grown, lines)]
        ei.append(np.full(ok.size, end))
        ej.append(ok + 2)
    ei, ej = np.concatenate(ei), np.concatenate(ej)
    wt = np.r_[w, np.hypot(*(pts[ej[len(w):]] - pts[ei[len(w):]]).T)]
    m = n + 2
    graph = coo_matrix((np.r_[wt, wt], (np.r_[ei, ej], np.r_[ej, ei])), shape=(m, m)).tocsr()
    dist = dijkstra(graph, directed=False, indices=0)
    return float(dist[1]) if math.isfinite(dist[1]) else math.nan
