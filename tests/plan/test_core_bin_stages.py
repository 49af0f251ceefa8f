"""The bin search in the two pieces a cold first run compiles apart (round 10).

``heading_path_packed`` is :func:`_bin_heuristic` (the field to the goal)
then :func:`_bin_path` (the search); ``collision_free``'s stage tasks run
the search on masks made by numpy (:func:`_bin_masks`) with a zero
heuristic. Checked here: those masks are what the real unpacking makes for
a point robot (so the stage compiles the real argument types), and the
search is exact with either heuristic, against a plain-Python Dijkstra over
(cell, bin) states (``reference_cost`` of test_plan_footprint_bins).
"""

import math

import numpy as np
import pytest

from robomaze import _search as core
from robomaze.cli._stages import _bin_masks, _tiny_grid
from tests.plan.test_plan_footprint_bins import MOVES, reference_cost


def _pack(free):
    """``(nb, rows, cols)`` free states -> blocked bits as ``cspace_bits`` packs them."""
    nb, rows, cols = free.shape
    words = (cols + 63) // 64
    buf = np.zeros((nb, rows, words * 8), np.uint8)
    packed = np.packbits(~free, axis=2, bitorder="little")
    buf[:, :, :packed.shape[2]] = packed
    return np.ascontiguousarray(buf.view("<u8").astype(np.uint64))


@pytest.mark.parametrize("nb", [1, 16, 20, 64])
def test_the_stage_masks_are_the_unpacked_point_robot(nb):
    grid = _tiny_grid({"corridor": 3, "wall": 1})
    rows, cols = grid.shape
    free = np.broadcast_to(np.asarray(grid.free, bool), (nb, rows, cols))
    want_fm, want_h = core._unpack_cell_major(_pack(free), rows, cols)
    fm, hfree = _bin_masks({"options": {"headings": nb}}, grid)
    assert fm.dtype == want_fm.dtype and hfree.dtype == want_h.dtype
    assert fm.flags.c_contiguous and hfree.flags.c_contiguous
    assert np.array_equal(fm, want_fm) and np.array_equal(hfree, want_h)


def _cost(states, rows, cols, nb, rot):
    n = rows * cols
    cost = 0.0
    for s0, s1 in zip(states[:-1], states[1:]):
        (b0, c0), (b1, c1) = divmod(int(s0), n), divmod(int(s1), n)
        if c0 == c1:
            assert (b1 - b0) % nb in (1, nb - 1)
            cost += rot
        else:
            assert b0 == b1
            (r0, k0), (r1, k1) = divmod(c0, cols), divmod(c1, cols)
            assert (r1 - r0, k1 - k0) in MOVES
            cost += math.hypot(r1 - r0, k1 - k0)
    return cost


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("conn8", [False, True])
def test_the_search_is_exact_with_its_field_and_with_a_zero_heuristic(seed, conn8):
    rng = np.random.default_rng(seed)
    nb, rows, cols, rot = (4, 7, 9, 0.3) if seed % 2 else (16, 6, 70, 0.1)
    free = rng.random((nb, rows, cols)) > 0.25
    free[:, 0, 0] = free[:, -1, -1] = True
    fm, hfree = core._unpack_cell_major(_pack(free), rows, cols)
    npad = (rows + 2) * (cols + 2)
    pstart, pgoal = cols + 3, npad - cols - 4          # cells (0, 0) and (rows-1, cols-1)
    starts = np.arange(nb, dtype=np.int64) + pstart * nb
    want = reference_cost(free, (0, 0), (rows - 1, cols - 1), range(nb), -1,
                          8 if conn8 else 4, rot)
    h = core._bin_heuristic(hfree, rows, cols, rows * cols - 1, conn8)
    zero = np.zeros(npad) if conn8 else np.zeros(npad, np.int32)
    assert zero.dtype == h.dtype and zero.shape == h.shape
    got = []
    for heuristic in (h, zero):
        states, expanded = core._bin_path(fm, hfree, heuristic, rows, cols, nb, starts, pgoal,
                                          -1, conn8, rot)
        if math.isinf(want):
            assert len(states) == 0
            continue
        assert expanded > 0
        assert states[0] % (rows * cols) == 0 and states[-1] % (rows * cols) == rows * cols - 1
        for s in states:
            assert free[divmod(int(s), rows * cols)[0]].ravel()[int(s) % (rows * cols)]
        got.append(_cost(states, rows, cols, nb, rot))
    for cost in got:
        assert cost == pytest.approx(want, abs=1e-9)
    # the public entry is the two pieces: the same path as with its own field
    if not math.isinf(want):
        public, _ = core.heading_path_packed(_pack(free), cols, np.arange(nb) * rows * cols,
                                             rows * cols - 1, -1, conn8=conn8, rot_cost=rot)
        first, _ = core._bin_path(fm, hfree, h, rows, cols, nb, starts, pgoal, -1, conn8, rot)
        assert np.array_equal(public, first)
