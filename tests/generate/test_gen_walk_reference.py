"""The jumping walk kernels take exactly the steps of a plain walk.

References in plain Python: Aldous-Broder and Wilson walking one step at a
time on the same SplitMix64 words (``splitmix_ref.py``). At each word
boundary they test the calm rule from scratch on the whole grid (no block
counts, no flags) and, where it holds, take the steps the kernel jumps over
one at a time from the word's bits -- step t: bit t of the low half is the
sign of x+y, bit t of the high half the sign of x-y -- asserting that none
of them draws from the grid's outer ring or enters a tree cell (Wilson) or
an unvisited cell (Aldous-Broder). Loop erasure is the textbook
overwrite-the-exit rule. The kernels, which jump in O(1) and (Wilson)
replay a jump's steps only where the retrace needs them, must return the
very same walls and move count.
"""

from __future__ import annotations

import numpy as np
import pytest

from robomaze.generate import _walk_kernels
from splitmix_ref import SplitMix64

#: Directions 0 N, 1 E, 2 S, 3 W of a two-bit draw.
DR = (-1, 0, 1, 0)
DC = (0, 1, 0, -1)
#: A jump step's (sign of x+y, sign of x-y) bits -> (dr, dc).
SIGN_STEP = {(1, 1): (0, 1), (0, 0): (0, -1), (1, 0): (1, 0), (0, 1): (-1, 0)}


def word_steps(w: int, k: int):
    for t in range(k):
        yield SIGN_STEP[((w >> t) & 1, (w >> (t + 32)) & 1)]


def calm(r: int, c: int, side: int, blocked: np.ndarray) -> bool:
    """Block of (r, c) off the block grid's rim, no blocked cell in its 3x3 blocks."""
    rows, cols = blocked.shape
    br, bc = r // side, c // side
    if not (1 <= br <= rows // side - 2 and 1 <= bc <= cols // side - 2):
        return False
    return not blocked[(br - 1) * side:(br + 2) * side, (bc - 1) * side:(bc + 2) * side].any()


def open_wall(east, south, r, c, dr, dc):
    if dr == 1:
        south[r, c] = 0
    elif dr == -1:
        south[r - 1, c] = 0
    elif dc == 1:
        east[r, c] = 0
    else:
        east[r, c - 1] = 0


def ref_aldous_broder(rows, cols, seed, fine, coarse):
    rng = SplitMix64(seed)
    east = np.ones((rows, cols), np.uint8)
    south = np.ones((rows, cols), np.uint8)
    unvisited = np.ones((rows, cols), bool)
    r, c = divmod(rng.below(rows * cols), cols)
    unvisited[r, c] = False
    remaining = rows * cols - 1
    moves = jumps = 0
    while remaining > 0:
        if calm(r, c, 1 << fine, unvisited):
            k = 1 << coarse if calm(r, c, 1 << coarse, unvisited) else 1 << fine
            left = k
            while left > 0:
                w = rng.next()
                for dr, dc in word_steps(w, min(32, left)):
                    assert 0 < r < rows - 1 and 0 < c < cols - 1
                    r, c = r + dr, c + dc
                    assert not unvisited[r, c]
                left -= 32
            moves += k
            jumps += 1
            continue
        bits = rng.next()
        for _ in range(32):
            d = bits & 3
            bits >>= 2
            nr, nc = r + DR[d], c + DC[d]
            if not (0 <= nr < rows and 0 <= nc < cols):
                continue  # a stay
            moves += 1
            if unvisited[nr, nc]:
                unvisited[nr, nc] = False
                open_wall(east, south, r, c, DR[d], DC[d])
                remaining -= 1
            r, c = nr, nc
            if remaining == 0:
                break
    return east.ravel(), south.ravel(), moves, jumps


def ref_wilson(rows, cols, seed, lb):
    rng = SplitMix64(seed)
    side = 1 << lb
    east = np.ones((rows, cols), np.uint8)
    south = np.ones((rows, cols), np.uint8)
    intree = np.zeros((rows, cols), bool)
    exit_ = {}
    intree[divmod(rng.below(rows * cols), cols)] = True
    bits = nbits = moves = jumps = 0
    for s in range(rows * cols):
        sr, sc = divmod(s, cols)
        if intree[sr, sc]:
            continue
        r, c = sr, sc
        while True:
            if nbits == 0:
                while True:
                    w = rng.next()
                    if not calm(r, c, side, intree):
                        break
                    for dr, dc in word_steps(w, side):
                        assert 0 < r < rows - 1 and 0 < c < cols - 1
                        exit_[r, c] = (dr, dc)
                        r, c = r + dr, c + dc
                        assert not intree[r, c]
                    moves += side
                    jumps += 1
                bits, nbits = w, 32
            d = bits & 3
            bits >>= 2
            nbits -= 1
            nr, nc = r + DR[d], c + DC[d]
            if not (0 <= nr < rows and 0 <= nc < cols):
                continue
            moves += 1
            exit_[r, c] = (DR[d], DC[d])
            r, c = nr, nc
            if intree[r, c]:
                break
        r, c = sr, sc
        while not intree[r, c]:
            intree[r, c] = True
            dr, dc = exit_[r, c]
            open_wall(east, south, r, c, dr, dc)
            r, c = r + dr, c + dc
    return east.ravel(), south.ravel(), moves, jumps


def _same(kernel_out, ref_out):
    assert ref_out[3] > 0, "no jump: the case tests nothing the plain walk does not"
    np.testing.assert_array_equal(kernel_out[0], ref_out[0])
    np.testing.assert_array_equal(kernel_out[1], ref_out[1])
    assert int(kernel_out[2]) == ref_out[2]


@pytest.mark.parametrize("rows, cols, fine, coarse", [(16, 16, 1, 2), (24, 17, 1, 3),
                                                      (50, 50, 2, 4)])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_aldous_broder_takes_the_reference_walk(rows, cols, fine, coarse, seed):
    _same(_walk_kernels.aldous_broder(rows, cols, seed, fine, coarse),
          ref_aldous_broder(rows, cols, seed, fine, coarse))


def test_aldous_broder_default_blocks_take_the_reference_walk():
    # 16-cell blocks (the default fine side; 128 needs a 384-cell grid)
    _same(_walk_kernels.aldous_broder(80, 72, 5), ref_aldous_broder(80, 72, 5, 4, 7))


@pytest.mark.parametrize("rows, cols, lb", [(16, 16, 1), (24, 17, 1), (33, 40, 2),
                                            (48, 48, 3)])
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_wilson_takes_the_reference_walk(rows, cols, lb, seed):
    _same(_walk_kernels.wilson(rows, cols, seed, lb), ref_wilson(rows, cols, seed, lb))


@pytest.mark.parametrize("seed", [1, 2])
def test_wilson_default_blocks_take_the_reference_walk(seed):
    # 32-step jumps, one whole word each
    _same(_walk_kernels.wilson(200, 190, seed), ref_wilson(200, 190, seed, 5))
