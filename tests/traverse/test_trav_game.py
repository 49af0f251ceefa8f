"""The key-driven Game: moves, bumps, visibility modes, records, the play window."""

import numpy as np
import pytest

from robomaze.errors import ParameterError
from robomaze.grid import widen
from robomaze.maze import Maze
from robomaze.traverse.game import Game
from robomaze.traverse.record import read_record
from trav_mazes import ManualClock, comb, keys_for, random_perfect

# A 3x3 serpentine: (0,0)->(0,2), down, (1,2)->(1,0), down, (2,0)->(2,2).
SNAKE = Maze.from_edges(3, 3, [0, 1, 2, 5, 4, 3, 6, 7], [1, 2, 5, 4, 3, 6, 7, 8],
                        start=(0, 0), goals=[(2, 2)])
SNAKE_ROUTE = [(0, 0), (0, 1), (0, 2), (1, 2), (1, 1), (1, 0), (2, 0), (2, 1), (2, 2)]


def _mask(shape, cells):
    m = np.zeros(shape, bool)
    for r, c in cells:
        m[r, c] = True
    return m


def _box(shape, centre, k=1):
    r, c = centre
    return _mask(shape, [(i, j) for i in range(r - k, r + k + 1) for j in range(c - k, c + k + 1)
                         if 0 <= i < shape[0] and 0 <= j < shape[1]])


@pytest.mark.parametrize("mode", ["full", "trail", "torch"])
def test_walk_snake_to_goal_in_each_mode(mode, tmp_path):
    clock = ManualClock()
    g = Game(SNAKE, mode=mode, clock=clock)
    outcomes = []
    for i, key in enumerate(keys_for(SNAKE_ROUTE), 1):
        clock.now = 1.5 * i
        outcomes.append(g.key(key))
    assert outcomes == ["moved"] * 7 + ["goal"]
    assert g.reached_goal and g.finished and g.position == (2, 2)
    assert g.moves == 8 and g.bumps == 0 and g.elapsed == 12.0
    assert g.key("left") == "ignored" and g.moves == 8
    rec = g.record()
    path = rec.save(tmp_path / "walk.jsonl")
    back = read_record(path)
    assert back.positions.tolist() == [list(c) for c in SNAKE_ROUTE]
    assert back.times.tolist() == [0.0] + [1.5 * i for i in range(1, 9)]
    assert [s.move for s in back.steps] == ["E", "E", "S", "W", "W", "S", "E", "E"]
    assert back.reached_goal and back.final == (2, 2) and back.n_moves == 8
    assert back.duration == 12.0
    assert back.walker["settings"] == {"mode": mode, "controls": "arrows"}
    assert back.maze == SNAKE


def test_visibility_masks_at_given_steps():
    keys = keys_for(SNAKE_ROUTE)
    games = {m: Game(SNAKE, mode=m, clock=ManualClock()) for m in ("full", "trail", "torch")}
    # step 0: at (0,0)
    assert games["full"].visible.all()
    assert np.array_equal(games["torch"].visible, _box((3, 3), (0, 0)))
    assert np.array_equal(games["trail"].visible, _box((3, 3), (0, 0)))
    for g in games.values():
        for k in keys[:2]:
            g.key(k)
    # step 2: at (0,2), visited (0,0) (0,1) (0,2): rows 0-1 revealed
    assert np.array_equal(games["torch"].visible, _mask((3, 3), [(0, 1), (0, 2), (1, 1), (1, 2)]))
    assert np.array_equal(games["trail"].visible,
                          _mask((3, 3), [(r, c) for r in (0, 1) for c in range(3)]))
    for g in games.values():
        for k in keys[2:5]:
            g.key(k)
    # step 5: at (1,0): torch sees rows 0-2 of cols 0-1; trail sees everything
    assert games["torch"].position == (1, 0)
    assert np.array_equal(games["torch"].visible, _box((3, 3), (1, 0)))
    assert games["trail"].visible.all()
    assert games["full"].visible.all()


def test_bumps_counted_not_executed():
    clock = ManualClock()
    g = Game(SNAKE, clock=clock)
    assert g.key("down") == "bump"      # wall south of (0,0)
    assert g.key("up") == "bump"        # outer wall
    assert g.key("x") == "ignored"      # unbound key
    assert g.key("right") == "moved"
    assert (g.moves, g.bumps, g.position) == (1, 2, (0, 1))
    rec = g.record()
    assert rec.n_bumps == 2 and rec.n_moves == 1
    assert [s.bump for s in rec.steps] == [True, True, False]
    assert rec.positions.tolist() == [[0, 0], [0, 1]]
    assert not rec.reached_goal


def test_robot_controls_turn_and_forward():
    g = Game(SNAKE, controls="robot", clock=ManualClock())   # heading east
    assert g.key("w") == "moved" and g.position == (0, 1)
    assert g.key("d") == "turned" and g.heading == 270.0      # now facing south
    assert g.key("w") == "bump" and g.position == (0, 1)
    assert g.key("a") == "turned" and g.heading == 0.0
    assert g.key("w") == "moved" and g.key("d") == "turned" and g.key("w") == "moved"
    assert g.position == (1, 2) and g.heading == 270.0
    rec = g.record()
    assert [s.move for s in rec.executed] == ["F", "R", "L", "F", "R", "F"]
    # turns are moves in place: 6 executed moves, 7 positions, 1 bump
    assert rec.n_moves == 6 and rec.n_bumps == 1
    assert rec.positions.tolist() == [[0, 0], [0, 1], [0, 1], [0, 1], [0, 2], [0, 2], [1, 2]]
    assert rec.headings.tolist() == [0, 0, 270, 0, 0, 270, 270]


def test_clock_restarts_only_before_the_first_move():
    clock = ManualClock()
    clock.now = 100.0
    g = Game(SNAKE, clock=clock)
    clock.now = 130.0
    g.start_clock()                      # the window opened 30 s later
    clock.now = 132.0
    g.key("right")
    g.start_clock()                      # ignored once walking
    clock.now = 135.0
    assert g.steps[0].t == 2.0 and g.elapsed == 5.0


def test_custom_keys_and_bad_arguments():
    g = Game(SNAKE, keys={"l": "E"}, clock=ManualClock())
    assert g.key("l") == "moved"
    with pytest.raises(ParameterError, match="mode"):
        Game(SNAKE, mode="fog")
    with pytest.raises(ParameterError, match="controls"):
        Game(SNAKE, controls="mouse")
    with pytest.raises(ParameterError, match="action of key"):
        Game(SNAKE, keys={"l": "jump"})
    with pytest.raises(ParameterError, match="start"):
        Game(SNAKE, start=(5, 0))


def test_grid_level_on_widened_maze_walks_blocks_and_sees_maze_cells(tmp_path):
    grid = widen(comb(2, cols=4, junction=1), corridor=2, wall=1)   # pitch 3
    g = Game(grid, mode="torch", clock=ManualClock())
    assert g.level == "grid" and g.position == grid.maze_centre((0, 0)) == (2, 2)
    # torch in maze cells: maze cells rows 0-1, cols 0-1 -> grid rows 0..6, cols 0..6
    expect = np.zeros(grid.shape, bool)
    expect[0:7, 0:7] = True
    assert np.array_equal(g.visible, expect)
    assert g.key("up") == "moved" and g.position == (1, 2)
    assert g.key("up") == "bump"                      # the outer wall band
    assert g.key("down") == "moved"
    assert g.key("left") == "moved" and g.position == (2, 1)
    for key in ["right"] * 9:
        res = g.key(key)
    assert res == "goal" and g.maze_cell() == (0, 3) and g.position == (2, 10)
    rec = read_record(g.record().save(tmp_path / "g.jsonl"))
    assert rec.level == "grid" and rec.grid.shape == grid.shape
    cells, _ = rec.maze_walk()
    assert cells.tolist() == [[0, 0], [0, 1], [0, 2], [0, 3]]


def test_play_window_headless_saves_record_at_goal(tmp_path):
    from robomaze.viz.render import _new_figure
    from robomaze.viz.traverse import PlayWindow

    maze = random_perfect(5, 6, seed=4)
    route = maze.solution()
    g = Game(maze, mode="torch", clock=ManualClock())
    win = PlayWindow(g, fig=_new_figure(240, 230), out=tmp_path / "w.jsonl")
    fog0 = win._fog.get_array()[..., 3].copy()
    assert np.array_equal(fog0 == 0, g.visible)          # fog exactly where hidden
    stars = [ln for ln in win.ax.lines if ln.get_marker() == "*"]
    assert len(stars) == 1 and stars[0].get_zorder() > win._fog.get_zorder()
    assert (stars[0].get_xdata()[0], stars[0].get_ydata()[0]) == (5.0, 4.0)  # goal (4, 5)
    results = [win.handle(k) for k in keys_for(route)]
    assert results[-1] == "goal" and win.saved == tmp_path / "w.jsonl"
    rec = read_record(win.saved)
    assert rec.positions.tolist() == [list(c) for c in route] and rec.reached_goal
    assert "goal reached" in win._title.get_text()
    assert win.handle("q") == "quit"


def test_key_press_events_reach_the_game_not_matplotlib_defaults(tmp_path):
    """Real key_press_event dispatch on a pyplot figure (Agg): arrows move the player,
    and matplotlib's own bindings (left/right = back/forward, q = quit) are detached."""
    import matplotlib.pyplot as plt
    from matplotlib.backend_bases import KeyEvent

    from robomaze.viz.traverse import PlayWindow

    fig = plt.figure()
    try:
        default_id = fig.canvas.manager.key_press_handler_id
        g = Game(SNAKE, clock=ManualClock())
        PlayWindow(g, fig=fig, out=tmp_path / "k.jsonl")
        assert default_id not in fig.canvas.callbacks.callbacks["key_press_event"]
        for key in keys_for(SNAKE_ROUTE[:4]):
            fig.canvas.callbacks.process("key_press_event",
                                         KeyEvent("key_press_event", fig.canvas, key))
        assert g.position == SNAKE_ROUTE[3] and g.moves == 3
        fig.canvas.callbacks.process("key_press_event",
                                     KeyEvent("key_press_event", fig.canvas, "q"))
        rec = read_record(tmp_path / "k.jsonl")     # quitting saves the walk so far
        assert rec.positions.tolist() == [list(c) for c in SNAKE_ROUTE[:4]]
        assert not rec.reached_goal
        assert not plt.fignum_exists(fig.number)
    finally:
        plt.close(fig)


# ---------------------------------------------------------------- explorer and theseus
def test_explorer_sees_only_visited_cells_and_their_walls():
    g = Game(SNAKE, mode="explorer", clock=ManualClock())
    assert np.array_equal(g.visible, _mask((3, 3), [(0, 0)]))
    g.key("right"), g.key("right"), g.key("down")  # (0,1), (0,2), (1,2)
    assert np.array_equal(g.visible, _mask((3, 3), [(0, 0), (0, 1), (0, 2), (1, 2)]))
    pic = g.picture_visible()
    assert pic.shape == (7, 7)
    # visited cell (1,2) is matrix square (3,5): it and its 8 neighbours are known
    assert pic[2:5, 4:7].all()
    # cell (1,1) (matrix (3,3)) was never visited: its square is hidden, while the
    # wall between (1,1) and (1,2) (matrix (3,4)) belongs to a visited cell
    assert not pic[3, 3] and pic[3, 4]
    assert not pic[5:, :].any()  # nothing of row 2 (matrix rows 5, 6)
    assert pic.sum() == 3 * 7 + 3 * 3 - 3  # rows 0-2 whole, plus the 3x3 around (3,5)


def test_explorer_bump_keeps_visibility():
    g = Game(SNAKE, mode="explorer", clock=ManualClock())
    assert g.key("down") == "bump"  # the wall south of (0,0) was already sensed
    assert np.array_equal(g.visible, _mask((3, 3), [(0, 0)]))


def test_theseus_thread_winds_back_when_stepping_back():
    g = Game(SNAKE, mode="theseus", clock=ManualClock())
    for k in ("right", "right", "down"):
        g.key(k)
    assert g.thread == [(0, 0), (0, 1), (0, 2), (1, 2)]
    g.key("up")
    assert g.thread == [(0, 0), (0, 1), (0, 2)]
    g.key("left")
    assert g.thread == [(0, 0), (0, 1)]
    # visible: the thread's cells plus the 3x3 around (0,1)
    assert np.array_equal(g.visible, _box((3, 3), (0, 1)))
    assert g.moves == 5  # winding back still counts as moves in the record
    assert [tuple(p) for p in g.record().positions] == [
        (0, 0), (0, 1), (0, 2), (1, 2), (0, 2), (0, 1)]


def test_theseus_loop_back_onto_the_thread_cuts_the_loop():
    g = Game(Maze.empty(2, 2, start=(0, 0), goals=[(1, 1)]), mode="theseus",
             clock=ManualClock(), radius=0)
    g.key("down"), g.key("right")  # (1,0), then the goal (1,1)
    assert g.finished
    h = Game(Maze.empty(3, 3, start=(0, 0), goals=[(2, 2)]), mode="theseus",
             clock=ManualClock(), radius=0)
    for k in ("right", "down", "left", "up"):  # round the 2x2 loop back to the start
        h.key(k)
    assert h.thread == [(0, 0)]
    assert np.array_equal(h.visible, _mask((3, 3), [(0, 0)]))
    assert h.walker["settings"] == {"mode": "theseus", "controls": "arrows", "radius": 0}


def test_explorer_on_a_widened_grid_sees_the_block_and_its_wall_bands():
    grid = widen(SNAKE, corridor=3, wall=1)
    g = Game(grid, mode="explorer", clock=ManualClock())
    expect = np.zeros(grid.shape, bool)
    expect[0:5, 0:5] = True  # block of maze cell (0,0) (rows/cols 1-3) with its bands
    assert np.array_equal(g.visible, expect)
    # stepping inside the block reveals nothing new
    g.key("right")
    assert np.array_equal(g.visible, expect)


def test_play_window_theseus_draws_the_thread_and_known_walls(tmp_path):
    from robomaze.viz.render import _new_figure
    from robomaze.viz.traverse import PlayWindow

    g = Game(SNAKE, mode="theseus", clock=ManualClock())
    win = PlayWindow(g, fig=_new_figure(200, 200))
    for k in ("right", "right", "left"):
        win.handle(k)
    # the walk had 3 moves but the thread is (0,0)-(0,1): one segment
    assert len(win._trail.get_segments()) == 1
    assert np.allclose(win._trail.get_segments()[0], [[0, 0], [1, 0]])
    walls = {tuple(map(tuple, s)) for s in np.round(win._walls.get_segments(), 3)}
    # the walls south of (0,1) and (1,1) are known (visible cells); the boundary
    # south of (2,1) is not (row 2 is outside the 3x3 around (0,1))
    assert ((0.5, 0.5), (1.5, 0.5)) in walls and ((0.5, 1.5), (1.5, 1.5)) in walls
    assert ((0.5, 2.5), (1.5, 2.5)) not in walls
    assert win._walls.get_zorder() > win._fog.get_zorder()


# ---------------------------------------------------------------- properties
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


def _loop_erased(cells):
    """Loop-erased walk, written out independently of Game._wind."""
    out = []
    for c in cells:
        if c in out:
            out = out[:out.index(c) + 1]
        else:
            out.append(c)
    return out


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), braid=st.sampled_from([0.0, 1.0]),
       keys=st.lists(st.sampled_from(["up", "down", "left", "right"]), max_size=60))
def test_theseus_thread_and_explorer_view_follow_the_walk(seed, braid, keys):
    from robomaze.generate import generate

    maze = generate("kruskal", 5, 6, rng=seed, braid=braid).replace(goals=((4, 5),))
    th = Game(maze, mode="theseus", clock=ManualClock())
    ex = Game(maze, mode="explorer", clock=ManualClock())
    for k in keys:
        th.key(k), ex.key(k)
    cells = [tuple(p) for p in th.record().positions]
    assert th.thread == _loop_erased(cells)
    assert th.thread[0] == maze.start and th.thread[-1] == th.position
    for a, b in zip(th.thread, th.thread[1:]):
        assert b in maze.neighbors(a)
    assert len(set(th.thread)) == len(th.thread)
    assert np.array_equal(ex.visible, _mask(maze.shape, cells))


def test_play_window_clock_starts_at_the_first_move_and_the_finish_shows_the_score(tmp_path):
    from robomaze.viz.render import _new_figure
    from robomaze.viz.traverse import PlayWindow

    maze = random_perfect(4, 4, seed=2)
    route = maze.solution()
    clock = ManualClock()
    g = Game(maze, mode="explorer", clock=clock)
    win = PlayWindow(g, fig=_new_figure(240, 230))
    clock.now = 40.0                      # the player reads the maze for 40 s
    win._tick()
    assert g.elapsed == 0.0
    keys = keys_for(route)
    for i, k in enumerate(keys, 1):
        clock.now = 40.0 + i
        win.handle(k)
    assert g.finished and g.elapsed == float(len(keys) - 1)   # first key at t = 0
    assert (win._fog.get_array()[..., 3] == 0).all()          # fog off at the finish
    text = win._score.get_text()
    assert text.startswith(f"Goal reached! {len(keys)} moves (optimal {len(keys)}, extra 0")
    assert "sections with error" in text


def test_undo_in_every_mode_walks_back_and_is_recorded(tmp_path):
    for mode in ("full", "trail", "torch", "explorer", "theseus"):
        g = Game(SNAKE, mode=mode, clock=ManualClock())
        for a in "EES":
            g.act(a)
        seen = g.seen.copy()
        assert [g.undo() for _ in range(4)] == ["undone"] * 3 + ["ignored"]
        assert g.position == (0, 0) and g.moves == 6 and g.heading == 0.0
        assert [s.move for s in g.steps] == list("EESNWW")
        assert (g.seen >= seen).all()         # what was seen stays known
        if mode == "theseus":
            assert g.thread == [(0, 0)]       # the thread winds back up
        rec = read_record(g.record().save(tmp_path / f"{mode}.jsonl"))
        assert rec.n_moves == 6 and rec.final == (0, 0)
