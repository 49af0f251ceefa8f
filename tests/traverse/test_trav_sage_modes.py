"""The Sage notebook's minigame modes as play presets: sage-torch shows the
3x3 block of the wall matrix around the player, sage-explorer the player's
own cell alone -- in the window and in the browser's server-side game."""

import numpy as np
import pytest

from robomaze.grid import widen
from robomaze.maze import Maze
from robomaze.traverse.game import MODES, Game
from robomaze.viz.traverse import known_wall_segments
from robomaze.web import PlaySession
from trav_mazes import ManualClock

# A 3x3 serpentine: (0,0)->(0,2), down, (1,2)->(1,0), down, (2,0)->(2,2).
SNAKE = Maze.from_edges(3, 3, [0, 1, 2, 5, 4, 3, 6, 7], [1, 2, 5, 4, 3, 6, 7, 8],
                        start=(0, 0), goals=[(2, 2)])
# right, down (a bump: wall south of (0,1)), right, down, left
WALK = [("right", "moved", (0, 1)), ("down", "bump", (0, 1)), ("right", "moved", (0, 2)),
        ("down", "moved", (1, 2)), ("left", "moved", (1, 1))]


def notebook_mask(mode, player, shape=(7, 7)):
    """The notebook's rule on its matrix: the player stands at matrix
    (2r+1, 2c+1); the torch lights |di|, |dj| <= 1 around it, the explorer
    only the player's entry."""
    pi, pj = 2 * player[0] + 1, 2 * player[1] + 1
    reach = 1 if mode == "sage-torch" else 0
    return np.array([[abs(i - pi) <= reach and abs(j - pj) <= reach for j in range(shape[1])]
                     for i in range(shape[0])])


def _pic(rows):
    return np.array([[ch == "#" for ch in row] for row in rows])


def test_modes_are_listed():
    assert {"sage-torch", "sage-explorer"} <= set(MODES)


@pytest.mark.parametrize("mode", ["sage-torch", "sage-explorer"])
def test_hand_checked_walk_reveals_the_notebooks_cells(mode):
    g = Game(SNAKE, mode=mode, clock=ManualClock(), radius=3)  # radius has no say
    assert np.array_equal(g.picture_visible(), notebook_mask(mode, (0, 0)))
    for key, outcome, pos in WALK:
        assert g.key(key) == outcome and g.position == pos
        assert np.array_equal(g.picture_visible(), notebook_mask(mode, pos))
        # the cell-level mask is the player's cell alone: nothing is remembered
        assert g.visible.sum() == 1 and g.visible[pos]
    assert g.walker["settings"] == {"mode": mode, "controls": "arrows"}


def test_hand_drawn_pictures_at_the_last_cell():
    # at (1,1): the torch shows its square, walls N and S, open E and W, and posts
    torch = Game(SNAKE, mode="sage-torch", clock=ManualClock())
    explorer = Game(SNAKE, mode="sage-explorer", clock=ManualClock())
    for key, _, _ in WALK:
        torch.key(key)
        explorer.key(key)
    assert np.array_equal(torch.picture_visible(), _pic([
        ".......",
        ".......",
        "..###..",
        "..###..",
        "..###..",
        ".......",
        ".......",
    ]))
    assert np.array_equal(explorer.picture_visible(), _pic([
        ".......",
        ".......",
        ".......",
        "...#...",
        ".......",
        ".......",
        ".......",
    ]))
    # what the window draws: the two walls of (1,1) (north, south), none for the explorer
    segs = known_wall_segments(SNAKE, torch.picture_visible())
    assert sorted(map(tuple, segs.reshape(-1, 4).tolist())) == [
        (0.5, 0.5, 1.5, 0.5), (0.5, 1.5, 1.5, 1.5)]
    assert known_wall_segments(SNAKE, explorer.picture_visible()).size == 0


def test_widened_grid_explorer_is_the_cells_block_alone():
    grid = widen(SNAKE, corridor=3, wall=1)
    g = Game(grid, mode="sage-explorer", clock=ManualClock())
    want = np.zeros(grid.shape, bool)
    want[1:4, 1:4] = True  # block of maze cell (0, 0), no wall bands
    assert np.array_equal(g.visible, want)
    t = Game(grid, mode="sage-torch", clock=ManualClock())
    want_t = np.zeros(grid.shape, bool)
    want_t[0:5, 0:5] = True  # the block with the wall bands around it
    assert np.array_equal(t.visible, want_t)


@pytest.mark.parametrize("mode", ["sage-torch", "sage-explorer"])
def test_browser_game_offers_and_plays_the_presets(tmp_path, mode):
    clock = ManualClock()
    s = PlaySession(lambda i: (SNAKE, {"generator": "hand", "walk": i}), tmp_path / "w",
                    clock=clock, mode=mode)
    st = s.state()
    assert {"sage-torch", "sage-explorer"} <= set(st["modes"]) and st["mode"] == mode
    for key, outcome, pos in WALK:
        action = {"right": "E", "down": "S", "left": "W"}[key]
        assert s.act(action)["outcome"] == outcome
        vis = np.array([[ch == "1" for ch in row] for row in s.state()["visible"]])
        assert np.array_equal(vis, notebook_mask(mode, pos))
