"""The bit-mask wave and the tree walk (robomaze._search._bitwave) against textbook BFS fields."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robomaze import _search as core
from robomaze._search._bitwave import (LEFT, RING_STRAIGHT_SHARE, bit_field, bit_wave,
                                       blocked_bits, free_counts, ring_field, row_width,
                                       straight_share, tree_walk)
from robomaze.generate import generate
from robomaze.grid import widen

from test_core_bfs_branchless import scipy_field
from test_core_sweep import GRIDS, plain_bfs, rooms, spiral


def field(free: np.ndarray, src: int, *, tree: bool = True, occupied: bool = False,
          wave=None):
    rows, cols = free.shape
    mask = (~free if occupied else free).view(np.uint8).ravel()
    return bit_field(mask, rows, cols, src, occupied, tree=tree, wave=wave)


def maze(r, c, k, *, braid=0.0, seed=4):
    return ~widen(generate("backtracker", r, c, rng=seed, braid=braid), corridor=k).occupied


KINDS = dict(GRIDS)
KINDS.update({
    "maze-c1 big": lambda: maze(40, 45, 1),
    "maze-c2": lambda: maze(12, 14, 2, seed=9),
    "braid-c1": lambda: maze(20, 23, 1, braid=0.5),
    "maze-c1 with one loop": lambda: _one_loop(maze(20, 21, 1)),
    "two columns": lambda: np.random.default_rng(11).random((90, 2)) >= 0.1,
    "two rows": lambda: np.random.default_rng(12).random((2, 150)) >= 0.1,
    "wide, 65 columns": lambda: np.random.default_rng(13).random((30, 65)) >= 0.2,
    "63 columns": lambda: np.random.default_rng(14).random((31, 63)) >= 0.25,
    "spiral": lambda: spiral(121),
    "rooms": lambda: rooms(100),
})


def _one_loop(free):
    # open one wall between two corridor cells far from the middle: one cycle
    free = free.copy()
    rows, cols = free.shape
    for r in range(1, rows - 1):
        for c in range(cols - 3, 1, -1):
            if not free[r, c] and free[r, c - 1] and free[r, c + 1]:
                free[r, c] = True
                return free
    raise AssertionError("no wall to open")


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("tree, wave", [(True, None), (False, "bits"), (False, "ring")])
def test_bit_field_is_scipys_bfs(kind, tree, wave):
    free = KINDS[kind]()
    rng = np.random.default_rng(len(kind))
    cells = np.flatnonzero(free)
    for src in rng.choice(cells, 3):
        ref = scipy_field(free, divmod(int(src), free.shape[1]))
        d, reached, how = field(free, int(src), tree=tree, wave=wave)
        assert d.dtype == np.int32 and d.shape == free.shape
        np.testing.assert_array_equal(d, ref)
        assert reached == (ref >= 0).sum()
        assert how in (("tree", "bits", "ring") if tree else (wave,))


def test_the_walk_takes_trees_and_only_trees():
    tree = maze(30, 31, 1)
    src = int(np.flatnonzero(tree)[100])
    assert field(tree, src)[2] == "tree"
    for free in (maze(20, 23, 1, braid=0.5), _one_loop(maze(20, 21, 1)), spiral(61),
                 np.ones((5, 5), bool)):
        d, _, how = field(free, int(np.flatnonzero(free)[3]))
        assert how in ("bits", "ring")
    # a tree with a loop far from the goal: the walk is tried (fewer edges than
    # cells: many isolated cells elsewhere), meets the loop, and the wave reruns
    free = np.zeros((40, 40), bool)
    free[1, 1:30] = True                       # a long corridor from the goal
    free[1:4, 29:32] = True                    # a 3x3 block at its end: cycles
    free[10::2, 10::2] = True                  # isolated cells: cells > edges overall
    bits = blocked_bits(free.view(np.uint8).ravel(), 40, 40, False)
    cells, edges = free_counts(bits, row_width(40))
    assert (cells, edges) == (free.sum(), 28 + 12)
    assert edges < cells
    d, reached, how = field(free, 41)
    assert how in ("bits", "ring")
    np.testing.assert_array_equal(d, scipy_field(free, (1, 1)))


def walk(bits, W, src, dist, cap):
    return tree_walk(bits, W, src, dist, np.zeros_like(bits), np.empty(cap, np.int64))


def test_tree_walk_stops_on_the_first_cycle():
    free = np.ones((2, 2), bool)
    rows, cols = free.shape
    W = row_width(cols)
    bits = blocked_bits(free.view(np.uint8).ravel(), rows, cols, False)
    dist = np.full((rows + 2) * W + 1, -1, np.int32)
    assert walk(bits, W, W + LEFT, dist, 16) == -1
    # a path: depths from one end
    free = np.ones((1, 7), bool)
    bits = blocked_bits(free.view(np.uint8).ravel(), 1, 7, False)
    dist = np.full(3 * row_width(7) + 1, -1, np.int32)
    W = row_width(7)
    assert walk(bits, W, W + LEFT + 2, dist, 16) == 7
    assert dist[W + LEFT:W + LEFT + 7].tolist() == [2, 1, 0, 1, 2, 3, 4]
    # a stack too small for the junctions: gives up rather than overflow
    star = np.zeros((9, 9), bool)
    star[4, :] = star[:, 4] = True
    bits = blocked_bits(star.view(np.uint8).ravel(), 9, 9, False)
    W = row_width(9)
    dist = np.full(11 * W + 1, -1, np.int32)
    assert walk(bits, W, 5 * W + LEFT + 4, dist, 3) == -1


def test_bit_wave_consumes_the_mask_and_counts():
    free = GRIDS["random30"]()
    rows, cols = free.shape
    W = row_width(cols)
    bits = blocked_bits(free.view(np.uint8).ravel(), rows, cols, False)
    before = bits.copy()
    src = int(np.flatnonzero(free)[40])
    r, c = divmod(src, cols)
    dist = np.full((rows + 2) * W, -1, np.int32)
    q = np.empty(rows * cols + 8, np.int32)
    reached = bit_wave(bits, W, (r + 1) * W + LEFT + c, dist, q, q.copy())
    ref = scipy_field(free, (r, c))
    assert reached == (ref >= 0).sum()
    got = dist.reshape(rows + 2, W)[1:-1, LEFT:LEFT + cols]
    np.testing.assert_array_equal(got, ref)
    # the reached cells are now set in the mask, nothing else changed
    newly = np.unpackbits((bits ^ before).view(np.uint8), bitorder="little")
    assert newly.sum() == reached
    assert (before & ~bits == 0).all()


@pytest.mark.parametrize("kind", ["random30", "spiral", "open"])
def test_ring_wave_grows_its_ring_and_agrees(kind):
    free = {"random30": GRIDS["random30"], "spiral": lambda: spiral(121),
            "open": lambda: np.ones((50, 70), bool)}[kind]()
    rows, cols = free.shape
    W = row_width(cols)
    src = int(np.flatnonzero(free)[len(np.flatnonzero(free)) // 2])
    r, c = divmod(src, cols)
    ref = scipy_field(free, (r, c))
    for size in (4, 8, 1 << 12):                # the open grid's front needs ~100: doubled
        bits = blocked_bits(free.view(np.uint8).ravel(), rows, cols, False)
        dist = np.full((rows + 2) * W, -1, np.int32)
        reached = ring_field(bits, W, (r + 1) * W + LEFT + c, dist, size)
        assert reached == (ref >= 0).sum()
        np.testing.assert_array_equal(dist.reshape(rows + 2, W)[1:-1, LEFT:LEFT + cols], ref)


def test_straight_share_picks_the_ring_on_corridors_only():
    def share(free):
        rows, cols = free.shape
        return straight_share(blocked_bits(free.view(np.uint8).ravel(), rows, cols, False),
                              row_width(cols), rows, cols)

    assert share(spiral(201)) > RING_STRAIGHT_SHARE
    for free in (np.ones((90, 90), bool), np.random.default_rng(1).random((200, 200)) >= 0.1,
                 np.random.default_rng(2).random((200, 200)) >= 0.3, maze(30, 30, 3, braid=0.5)):
        assert share(free) < RING_STRAIGHT_SHARE
    assert share(np.zeros((70, 70), bool)) == 0.0
    line = np.zeros((3, 50), bool)
    line[1, :] = True
    assert share(line) == 48 / 50                 # the two ends are not inside the corridor


@pytest.mark.parametrize("occupied", [True, False])
def test_blocked_bits_layout(occupied):
    rng = np.random.default_rng(3)
    for rows, cols in ((1, 1), (3, 5), (4, 56), (2, 57), (5, 64), (3, 120), (2, 129)):
        free = rng.random((rows, cols)) >= 0.4
        mask = (~free if occupied else free).view(np.uint8).ravel()
        bits = blocked_bits(mask, rows, cols, occupied)
        W = row_width(cols)
        assert W % 64 == 0 and W >= cols + LEFT
        flat = np.unpackbits(bits.view(np.uint8), bitorder="little").reshape(rows + 2, W)
        want = np.ones((rows + 2, W), np.uint8)
        want[1:-1, LEFT:LEFT + cols] = ~free
        np.testing.assert_array_equal(flat, want)


def test_edge_cases():
    one = np.ones((1, 1), bool)
    d, n, _ = field(one, 0)
    assert d.tolist() == [[0]] and n == 1
    # no free cell at all, a blocked source: all -1, nothing reached
    for free, src in ((np.zeros((3, 4), bool), 5), (GRIDS["random30"](), None)):
        if src is None:
            src = int(np.flatnonzero(~free)[0])
        for tree in (True, False):
            d, n, _ = field(free, src, tree=tree)
            assert n == 0 and (d == -1).all()
    # disconnected components: only the goal's is reached
    free = np.ones((6, 9), bool)
    free[:, 4] = False
    d, n, _ = field(free, 0)
    assert n == 24 and (d[:, 5:] == -1).all() and d[5, 3] == 8
    # the occupied flag reads the same grid
    free = GRIDS["random10"]()
    src = int(np.flatnonzero(free)[7])
    np.testing.assert_array_equal(field(free, src)[0], field(free, src, occupied=True)[0])


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 40), st.integers(1, 140), st.floats(0.0, 0.7), st.integers(0, 2**31 - 1),
       st.booleans(), st.sampled_from(["bits", "ring", None]))
def test_bit_field_matches_the_textbook_bfs(rows, cols, density, seed, tree, wave):
    rng = np.random.default_rng(seed)
    free = rng.random((rows, cols)) >= density
    src = int(rng.integers(rows * cols))
    got = field(free, src, tree=tree, wave=wave)[0]
    np.testing.assert_array_equal(got, plain_bfs(free, src))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 12), st.integers(1, 12), st.sampled_from([1, 2, 3]),
       st.sampled_from([0.0, 0.2, 1.0]), st.integers(0, 2**31 - 1))
def test_bit_field_on_mazes_matches_the_textbook_bfs(r, c, k, braid, seed):
    free = maze(r, c, k, braid=braid, seed=seed)
    rng = np.random.default_rng(seed)
    src = int(rng.choice(np.flatnonzero(free)))
    d, reached, how = field(free, src)
    np.testing.assert_array_equal(d, plain_bfs(free, src))
    if k == 1 and braid == 0.0:
        assert how == "tree"


@pytest.mark.parametrize("kind, how", [
    ("open", "sweep"), ("rooms", "sweep"), ("random45", "small"), ("maze-c1", "tree"),
    ("random30", "bits"), ("braid-c3", "bits"), ("spiral", "ring")])
def test_field4_chooses_from_the_grid_and_agrees(kind, how):
    from robomaze._search._field4 import field4

    free = {"open": lambda: np.ones((90, 120), bool), "rooms": lambda: rooms(130, 40),
            "random45": lambda: np.random.default_rng(3).random((300, 400)) >= 0.45,
            "maze-c1": lambda: maze(60, 70, 1), "random30": GRIDS["random30"],
            "braid-c3": lambda: maze(20, 25, 3, braid=0.5), "spiral": lambda: spiral(121)}[kind]()
    rows, cols = free.shape
    assert rows * cols > 4096
    src = int(np.flatnonzero(free)[len(np.flatnonzero(free)) // 3])
    ref = scipy_field(free, divmod(src, cols))
    d, reached, got = field4((~free).view(np.uint8).ravel(), rows, cols, src, True)
    assert got == how
    np.testing.assert_array_equal(d, ref)
    assert reached == (ref >= 0).sum()
    # bfs_field is field4 above 4096 cells, whichever mask it is given
    d2, n2 = core.bfs_field(free.view(np.uint8).ravel(), rows, cols, src, False)
    np.testing.assert_array_equal(d2, ref)
    assert n2 == reached


def test_detect_maze_min_pitch_stops_before_the_walls():
    from robomaze._search._detect import detect_maze

    thin = widen(generate("backtracker", 9, 11, rng=1), corridor=1)
    assert detect_maze(thin.occupied, min_pitch=3) is None
    east, south, k, t, *_ = detect_maze(thin.occupied)
    assert (k, t) == (1, 1) and (east == thin.maze.east).all()
    wide = widen(generate("backtracker", 9, 11, rng=1), corridor=2)
    assert detect_maze(wide.occupied, min_pitch=3)[2:4] == (2, 1)


def test_braids_below_the_loops_pitch_give_up_from_the_passage_count():
    from robomaze._search import maze_field

    braided = widen(generate("backtracker", 30, 30, rng=2, braid=0.5), corridor=2)  # pitch 3
    assert maze_field(braided, braided.start_goal()[1]) is None
    wider = widen(generate("backtracker", 30, 30, rng=2, braid=0.5), corridor=4)   # pitch 5
    d, n, kind = maze_field(wider, wider.start_goal()[1])
    assert kind == "loops"
    np.testing.assert_array_equal(d, scipy_field(~wider.occupied, wider.start_goal()[1]))
    perfect = widen(generate("backtracker", 30, 30, rng=2), corridor=3)
    assert maze_field(perfect, perfect.start_goal()[1])[2] == "tree"
