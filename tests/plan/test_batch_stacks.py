"""The MovingAI batch's tree-of-rectangles route (``_search._stacks``) against scipy.sparse.csgraph.

Widened perfect mazes of several corridor *and* wall widths (MovingAI's
maze512-W maps have one-cell walls; ``widen`` makes any), cropped so their
last band is partial as MovingAI's are, must be accepted and give scipy's
lengths; grids whose stacks hold a cycle (one wall cell opened, one cell
blocked inside a corridor, rooms, random maps) must be refused -- and the
batch must still give scipy's lengths through its other routes. The
reference graph is built here from the mask (8-connected, no corner
cutting, sqrt(2) diagonals), independently of the engine.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

from robomaze import widen
from robomaze import _search as core
from robomaze._search._stacks import build
from robomaze.generate import generate


def graph8(free: np.ndarray) -> sp.csr_matrix:
    rows, cols = free.shape
    idx = np.arange(rows * cols).reshape(rows, cols)
    a, b, w = [], [], []
    for dr, dc, length in ((0, 1, 1.0), (1, 0, 1.0), (1, 1, 2 ** 0.5), (1, -1, 2 ** 0.5)):
        src = free[:rows - dr, max(0, -dc):cols - max(0, dc)]
        dst = free[dr:, max(0, dc):cols + min(0, dc) or None]
        ok = src & dst
        if dr and dc:
            ok &= free[:rows - 1, max(0, dc):cols + min(0, dc) or None]
            ok &= free[1:, max(0, -dc):cols - max(0, dc)]
        i = idx[:rows - dr, max(0, -dc):cols - max(0, dc)][ok]
        a.append(i)
        b.append(i + dr * cols + dc)
        w.append(np.full(i.size, length))
    a, b, w = (np.concatenate(x) for x in (a, b, w))
    n = rows * cols
    return sp.csr_matrix((np.r_[w, w], (np.r_[a, b], np.r_[b, a])), shape=(n, n))


def reference(free, starts, goals):
    u = np.unique(starts)
    d = csgraph.dijkstra(graph8(free), indices=u)
    row = {s: k for k, s in enumerate(u)}
    out = np.array([d[row[s], t] for s, t in zip(starts, goals)])
    blocked = ~free.ravel()[starts] | ~free.ravel()[goals]
    out[blocked | np.isinf(out)] = np.nan
    return out


def accepted(free) -> bool:
    fp = np.pad(free, 1).astype(np.uint8).ravel()
    return build(fp, free.shape[1]) is not None


def stack_check(free, rng, npairs=60):
    """The stack tree's own lengths (whatever route the batch would take) against scipy."""
    rows, cols = free.shape
    fp = np.pad(free, 1).astype(np.uint8).ravel()
    tree = build(fp, cols)
    assert tree is not None
    s = rng.choice(free.size, npairs)
    t = rng.choice(free.size, npairs)
    pad = lambda i: (i // cols + 1) * (cols + 2) + i % cols + 1
    got = tree.lengths(pad(s), pad(t))
    want = reference(free, s, t)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    ok = ~np.isnan(want)
    assert np.allclose(got[ok], want[ok], rtol=1e-12, atol=1e-12)


def check(free, rng, npairs=120, starts=None, goals=None):
    cells = np.arange(free.size)
    if starts is None:
        on = np.flatnonzero(free.ravel())
        # mostly free endpoints (the interesting ones), a few anywhere
        starts = np.r_[rng.choice(on, npairs - 10), rng.choice(cells, 10)]
        goals = np.r_[rng.choice(on, npairs - 10), rng.choice(cells, 10)]
    got = core.path_lengths(free, starts, goals)
    want = reference(free, starts, goals)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    ok = ~np.isnan(want)
    assert np.allclose(got[ok], want[ok], rtol=1e-12, atol=1e-12)
    return got


def hog2_maze(cells, corridor, seed, size):
    """A MovingAI-shaped maze: one-cell walls, the grid cut at ``size`` (partial last band).

    ``widen`` puts a wall band on every side; MovingAI's maps start with a
    wall row and column and end wherever 512 cuts the pattern, so the
    bottom/right bands are cropped.
    """
    occ = widen(generate("backtracker", cells, cells, rng=seed), corridor=corridor,
                wall=1).occupied
    return ~occ[:size, :size]


@pytest.mark.parametrize("corridor,wall", [(2, 1), (3, 1), (4, 1), (2, 2), (3, 2), (2, 3),
                                           (5, 3), (1, 2), (4, 4)])
def test_widened_mazes_of_any_wall_width_are_trees_of_stacks(corridor, wall):
    rng = np.random.default_rng(corridor * 10 + wall)
    for gen in ("backtracker", "kruskal", "wilson"):
        free = widen(generate(gen, 9, 11, rng=int(rng.integers(1 << 30))), corridor=corridor,
                     wall=wall).free
        assert accepted(free)
        check(free, rng)
        stack_check(free, rng)


@pytest.mark.parametrize("corridor,size", [(2, 40), (4, 41), (8, 52), (16, 70), (3, 31)])
def test_movingai_shaped_mazes_with_a_partial_last_band(corridor, size):
    rng = np.random.default_rng(corridor)
    free = hog2_maze(size // (corridor + 1) + 1, corridor, corridor, size)
    assert free.shape == (size, size)
    assert accepted(free)
    check(free, rng)


def test_one_changed_cell_is_refused_and_still_exact():
    rng = np.random.default_rng(3)
    free = widen(generate("backtracker", 8, 8, rng=5), corridor=3, wall=1).free
    assert accepted(free)
    # a wall cell between two corridors opened: a second way round, a cycle
    occ = np.argwhere(~free[1:-1, 1:-1]) + 1
    opened = 0
    for r, c in occ:
        f = free.copy()
        f[r, c] = True
        if not accepted(f):
            check(f, rng, 60)
            opened += 1
        if opened == 3:
            break
    assert opened == 3
    # a cell blocked inside a corridor block: a pillar, a way round both sides
    f = free.copy()
    f[2, 2] = False
    assert not accepted(f)
    check(f, rng, 60)


def test_loops_rooms_and_random_maps_are_refused_but_exact():
    rng = np.random.default_rng(11)
    braid = widen(generate("backtracker", 7, 7, rng=2), corridor=2, wall=1).free
    braid[3, 1:-1] = True                       # a wall band opened end to end
    rooms = np.ones((40, 40), bool)
    rooms[::10, :] = rooms[:, ::10] = False
    rooms[5::10, ::10] = rooms[::10, 5::10] = True
    for free in (braid, rooms, rng.random((30, 30)) >= 0.3):
        assert not accepted(free)
        check(free, rng, 60)


def test_start_equal_goal_unreachable_and_blocked_endpoints():
    rng = np.random.default_rng(4)
    free = widen(generate("kruskal", 6, 6, rng=8), corridor=3, wall=2).free
    free[:, free.shape[1] // 2] = False          # a cut: two trees of stacks
    assert accepted(free)
    on = np.flatnonzero(free.ravel())
    off = np.flatnonzero(~free.ravel())
    s = np.r_[on[:20], on[:5], off[:3], on[:3]]
    t = np.r_[on[:20], on[-5:], on[:3], off[:3]]
    got = check(free, rng, starts=s, goals=t)
    assert np.all(got[:20] == 0.0)              # start == goal
    assert np.isnan(got[20:]).all()             # other side of the cut, blocked ends


def test_open_rectangles_give_the_octile_distance():
    free = np.ones((7, 12), bool)
    assert accepted(free)
    s = np.array([0, 0, 5, 83])
    t = np.array([83, 11, 77, 0])
    got = core.path_lengths(free, s, t)
    r0, c0 = np.divmod(s, 12)
    r1, c1 = np.divmod(t, 12)
    dr, dc = np.abs(r1 - r0), np.abs(c1 - c0)
    assert np.allclose(got, np.maximum(dr, dc) + (2 ** 0.5 - 1) * np.minimum(dr, dc))


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 14), st.integers(3, 14), st.floats(0.3, 0.8), st.integers(0, 10 ** 6))
def test_whatever_the_detector_accepts_is_exact(rows, cols, p, seed):
    # sparse random grids are often forests of stacks of every odd shape
    rng = np.random.default_rng(seed)
    free = rng.random((rows, cols)) >= p
    if accepted(free):
        stack_check(free, rng)


# ---------------------------------------------------------------- the A* route, restricted
def alt_check(free, rng, npairs=80, restrict=True):
    """The A* route itself (blocks restriction forced on) against scipy."""
    from robomaze._search import _batch

    on = np.flatnonzero(free.ravel())
    s = np.r_[rng.choice(on, npairs), rng.choice(free.size, 5)]
    t = np.r_[rng.choice(on, npairs), rng.choice(free.size, 5)]
    old = _batch.RESTRICT_SHARE, _batch.WEB_SHARE
    _batch.RESTRICT_SHARE, _batch.WEB_SHARE = (1.0, 2.0) if restrict else (-1.0, -1.0)
    try:
        b = _batch.prepare(free, starts=s, nqueries=len(s), landmarks=2)
    finally:
        _batch.RESTRICT_SHARE, _batch.WEB_SHARE = old
    if b.route != "alt":
        return
    assert (b._state[3] is not None) == restrict
    got = b.lengths(s, t)
    want = reference(free, s, t)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    ok = ~np.isnan(want)
    assert np.allclose(got[ok], want[ok], rtol=1e-12, atol=1e-12)
    again = b.lengths(t, s)                   # the scratch's stamps carry over between calls
    assert np.array_equal(np.isnan(again), np.isnan(want))
    assert np.allclose(again[ok], want[ok], rtol=1e-12, atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 40), st.integers(4, 40), st.floats(0.0, 0.5), st.integers(0, 10 ** 6),
       st.booleans())
def test_searches_kept_to_block_cut_tree_paths_are_exact(rows, cols, p, seed, restrict):
    rng = np.random.default_rng(seed)
    alt_check(rng.random((rows, cols)) >= p, rng, restrict=restrict)


def test_restricted_search_on_webs_braids_and_rooms():
    rng = np.random.default_rng(40)
    web = rng.random((60, 60)) >= 0.4           # near the percolation threshold
    braid = widen(generate("backtracker", 8, 8, rng=3), corridor=2, wall=1).free
    braid[5, 1:-1] = True
    rooms = np.ones((40, 40), bool)
    rooms[::10, :] = rooms[:, ::10] = False
    rooms[5::10, ::10] = rooms[::10, 5::10] = True
    rooms[5:8, 12:14] = False                   # pillars: loops inside rooms
    for free in (web, braid, rooms):
        alt_check(free, rng, 150, restrict=True)


def test_block_cut_tree_of_a_ring_with_dead_ends():
    from robomaze._search._batch import _pad
    from robomaze._search._blocks import build_blocks, mark_path

    free = np.array([[1, 1, 1, 0, 1, 0, 1],
                     [1, 0, 1, 1, 1, 1, 1],
                     [1, 1, 1, 0, 0, 0, 0]], bool)
    b = build_blocks(_pad(free), 7)
    # runs: row 0 [0-2] [4] [6]; row 1 [0] [2-6]; row 2 [0-2]: a ring of 4 stacks
    # (row 0's [0-2], row 1's [0] and [2-6], row 2's [0-2]) and two dead ends off [2-6]
    assert b.nstacks == 6 and b.nb == 3
    lab = b.lab.reshape(5, 9)[1:-1, 1:-1]
    allowed = np.zeros(b.nstacks, np.int32)
    mark_path(b.node, b.bparent, b.bdepth, b.nb, b.mstart, b.members, lab[2, 0], lab[0, 4],
              allowed, 1)
    # from the bottom of the ring to the first dead end: the ring and that dead end
    assert set(np.flatnonzero(allowed == 1)) == {lab[0, 0], lab[1, 0], lab[1, 2], lab[2, 0],
                                                 lab[0, 4]}
    mark_path(b.node, b.bparent, b.bdepth, b.nb, b.mstart, b.members, lab[0, 4], lab[0, 6],
              allowed, 2)
    # dead end to dead end through the cut stack [2-6]: not the ring
    assert set(np.flatnonzero(allowed == 2)) == {lab[0, 4], lab[1, 4], lab[0, 6]}


def test_a_tree_of_wide_crossings_past_the_sweep_budget_is_searched(monkeypatch):
    from robomaze._search import _stacks

    rng = np.random.default_rng(9)
    free = widen(generate("backtracker", 6, 6, rng=9), corridor=6, wall=1).free
    assert accepted(free)
    monkeypatch.setattr(_stacks, "SWEEP_BUDGET", 0.0)
    assert not accepted(free)
    check(free, rng, 60)


def test_bad_input_is_one_clear_error():
    from robomaze.errors import ParameterError

    free = np.ones((4, 5), bool)
    with pytest.raises(ParameterError, match=r"starts\[1\] = 20 is off the 4x5 grid"):
        core.path_lengths(free, [0, 20], [3, 4])
    with pytest.raises(ParameterError, match=r"goals\[0\] = -1 is off"):
        core.path_lengths(free, [0], [-1])
    with pytest.raises(ParameterError, match="2 starts but 1 goals"):
        core.path_lengths(free, [0, 1], [3])
    with pytest.raises(ParameterError, match="float64 entries"):
        core.path_lengths(free, [0.5], [3])
    with pytest.raises(ParameterError, match="expected a 2-D mask"):
        core.path_lengths(np.ones(5, bool), [0], [3])
    assert core.path_lengths(free, [], []).shape == (0,)
