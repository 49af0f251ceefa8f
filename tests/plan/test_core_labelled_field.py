"""`bfs_field` on small grids (the kernel `_labelled_field`) against a textbook BFS.

Covers the kernel's two ways of clearing the cells the wave did not reach
(a small goal component: the whole label array refilled, then the
component's labels written back; a large one: unreached free cells
rewritten in place), with both of its waves (open grids and corridors),
4- and 8-connected labels.
"""

from collections import deque

import numpy as np
import pytest

from robomaze import _search as core


def textbook(free: np.ndarray, goal) -> np.ndarray:
    rows, cols = free.shape
    dist = np.full(free.shape, -1, np.int64)
    dist[goal] = 0
    queue = deque([goal])
    while queue:
        r, c = queue.popleft()
        for rr, cc in ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)):
            if 0 <= rr < rows and 0 <= cc < cols and free[rr, cc] and dist[rr, cc] < 0:
                dist[rr, cc] = dist[r, c] + 1
                queue.append((rr, cc))
    return dist


def _grids():
    rng = np.random.default_rng(9)
    for k in range(40):
        rows, cols = (int(v) for v in rng.integers(4, 60, size=2))
        free = rng.random((rows, cols)) >= (0.0, 0.1, 0.3, 0.45)[k % 4]
        if k % 2:
            # a wall with the goal's side small or large: both clearing branches
            cut = int(rng.integers(1, cols - 1))
            free[:, cut] = False
        yield free, rng


@pytest.mark.parametrize("occupied", [False, True])
def test_small_grid_fields_equal_the_textbook_bfs(occupied):
    branches = set()
    for free, rng in _grids():
        rows, cols = free.shape
        cells = np.argwhere(free)
        if not len(cells):
            continue
        goal = tuple(int(v) for v in cells[rng.integers(len(cells))])
        mask = (~free if occupied else free).view(np.uint8).ravel()
        field, reached = core.bfs_field(mask, rows, cols, goal[0] * cols + goal[1], False,
                                        occupied=occupied)
        want = textbook(free, goal)
        assert np.array_equal(field, want)
        assert reached == int((want >= 0).sum())
        if reached < free.sum():
            branches.add(reached * 8 < (rows + 2) * (cols + 2))
    assert branches == {True, False}


def test_blocked_goal_labels_nothing():
    free = np.ones((5, 6), bool)
    free[2, 3] = False
    field, reached = core.bfs_field(free.view(np.uint8).ravel(), 5, 6, 2 * 6 + 3, False)
    assert reached == 0 and (field == -1).all()
