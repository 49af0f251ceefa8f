"""Invariants of the classic solvers on random occupancy grids (hypothesis).

Reachability and shortest routes come from scipy (ndimage.label and
csgraph), not from the solvers.
"""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import ndimage

from robomaze.errors import NoPathError
from robomaze.grid import OccupancyGrid
from robomaze.plan import plan
from robomaze.plan.classic import fill_dead_ends, pledge, wall_follower

FOUR = ndimage.generate_binary_structure(2, 1)


@st.composite
def grids(draw, border_exit=False):
    seed = draw(st.integers(0, 2 ** 32 - 1))
    rng = np.random.default_rng(seed)
    rows, cols = draw(st.integers(4, 14)), draw(st.integers(4, 14))
    occ = rng.random((rows, cols)) < draw(st.floats(0.0, 0.45))
    if border_exit:
        occ[[0, -1], :] = True
        occ[:, [0, -1]] = True
        r = int(rng.integers(1, rows - 1))
        occ[r, -1] = occ[r, -2] = False  # an exit in the east wall
    return occ, rng


def _pick(rng, cells):
    return tuple(int(v) for v in cells[rng.integers(len(cells))])


def _walk_ok(p, free, s, t):
    w = p.walk
    assert tuple(w[0]) == s and tuple(w[-1]) == t
    assert free[w[:, 0], w[:, 1]].all()
    assert (np.abs(np.diff(w, axis=0)).sum(axis=1) == 1).all()
    cells = [tuple(c) for c in p.cells]
    assert cells[0] == s and cells[-1] == t and len(set(cells)) == len(cells)
    assert (np.abs(np.diff(p.cells, axis=0)).sum(axis=1) == 1).all()


@settings(deadline=None, max_examples=40)
@given(grids())
def test_complete_solvers_find_every_reachable_goal(case):
    occ, rng = case
    free = ~occ
    if free.sum() < 2:
        return
    labels, _ = ndimage.label(free, structure=FOUR)
    cells = np.argwhere(free)
    s = _pick(rng, cells)
    t = _pick(rng, cells)
    g = OccupancyGrid(occ)
    for name in ("tremaux", "dfs_backtracking", "dead_end_filling", "random_mouse"):
        kw = {"rng": 1} if name in ("dfs_backtracking", "random_mouse") else {}
        if labels[s] == labels[t]:
            _walk_ok(plan(g, s, t, method=name, **kw), free, s, t)
        else:
            with pytest.raises(NoPathError):
                plan(g, s, t, method=name, max_steps=2000, **kw) if name == "random_mouse" \
                    else plan(g, s, t, method=name, **kw)


@settings(deadline=None, max_examples=40)
@given(grids(border_exit=True), st.sampled_from(["right", "left"]),
       st.sampled_from(["N", "E", "S", "W"]), st.booleans())
def test_pledge_always_reaches_a_boundary_exit(case, hand, direction, sight):
    occ, rng = case
    free = ~occ
    exit_ = (int(np.argwhere(free[:, -1])[0, 0]), occ.shape[1] - 1)
    labels, _ = ndimage.label(free, structure=FOUR)
    s = _pick(rng, np.argwhere(labels == labels[exit_]))
    p = pledge(OccupancyGrid(occ), s, exit_, hand=hand, direction=direction, sight=sight)
    _walk_ok(p, free, s, exit_)


@settings(deadline=None, max_examples=40)
@given(grids(), st.sampled_from(["right", "left"]))
def test_wall_follower_between_cells_on_the_outer_boundary(case, hand):
    occ, rng = case
    free = ~occ
    pad = np.pad(occ, 1, constant_values=True)
    lab, _ = ndimage.label(pad, structure=np.ones((3, 3), bool))
    outer = lab == lab[0, 0]
    touch_outer = ndimage.binary_dilation(outer, structure=FOUR)[1:-1, 1:-1] & free
    touch_island = ndimage.binary_dilation(pad & ~outer, structure=FOUR)[1:-1, 1:-1]
    # Cells whose walls are all part of the outer boundary: the hand is on it.
    cand = np.argwhere(touch_outer & ~touch_island)
    if len(cand) == 0:
        return
    labels, _ = ndimage.label(free, structure=FOUR)
    s = _pick(rng, cand)
    same = cand[labels[cand[:, 0], cand[:, 1]] == labels[s]]
    t = _pick(rng, same)
    _walk_ok(wall_follower(OccupancyGrid(occ), s, t, hand=hand, sight=False), free, s, t)


def _holes(mask):
    """8-components of the complement, the outside included (padded)."""
    return ndimage.label(np.pad(~mask, 1, constant_values=True),
                         structure=np.ones((3, 3), bool))[1]


@settings(deadline=None, max_examples=40)
@given(grids())
def test_dead_end_filling_thins_to_a_route_keeping_every_loop(case):
    occ, rng = case
    free = ~occ
    labels, _ = ndimage.label(free, structure=FOUR)
    cells = np.argwhere(free)
    if len(cells) < 2:
        return
    s = _pick(rng, cells)
    t = _pick(rng, np.argwhere(labels == labels[s]))
    left = fill_dead_ends(OccupancyGrid(occ), s, t)
    region = labels == labels[s]
    assert left[s] and left[t] and not left[occ].any()
    # Elsewhere only loops survive (as in classic dead-end filling).
    rest, n = ndimage.label(left & ~region, structure=FOUR)
    for i in range(1, n + 1):
        assert _holes(rest == i) >= 2
    left &= region
    # Still one connected piece with the same loops (holes) as the region.
    assert ndimage.label(left, structure=FOUR)[1] == 1
    assert _holes(left) == _holes(region)
    # A fixed point: filling any other cell left would cut it or open a loop.
    for cell in map(tuple, np.argwhere(left)):
        if cell in (s, t):
            continue
        left[cell] = False
        assert ndimage.label(left, structure=FOUR)[1] != 1 or _holes(left) != _holes(region)
        left[cell] = True
